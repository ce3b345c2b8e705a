"""Mesa agents: one seat at the table each, choosing actions with its kind's policy."""

from __future__ import annotations

from typing import TYPE_CHECKING

import mesa

from agents.policies import Block, baseline, epistemic, uniform_random
from game.actions import Action

if TYPE_CHECKING:
    from agents.model import TTRModel

#: The kinds of agent, in the order the CLI and the app list them.
AGENT_KINDS = ("epistemic", "baseline", "random")

#: Kinds that claim only on shortest paths of their own unfinished tickets (a forced claim when
#: no card can be drawn aside). Everyone knows the kinds, so their claims carry the claim
#: inference; a random agent's claims tell nothing.
CLAIMS_FOR_OWN_TICKETS = frozenset({"epistemic", "baseline"})


class PlayerAgent(mesa.Agent):
    """A player. ``player`` is its seat (0-based), the agent name used in formulas (``K_0``)."""

    def __init__(self, model: TTRModel, player: int, kind: str):
        super().__init__(model)
        self.player = player
        self.kind = kind
        self.blocks = 0

    def choose(self) -> Action | Block:
        """The next action of this player's turn; all randomness is the model's generator."""
        state, rng = self.model.state, self.model.random
        if self.kind == "baseline":
            return baseline(state, self.player, rng)
        if self.kind == "random":
            return uniform_random(state, self.player, rng)
        return epistemic(state, self.player, rng, self.known_opponent_tickets())

    def known_opponent_tickets(self) -> tuple[tuple[int, int], ...]:
        """(opponent, ticket) pairs this agent knows, at the actual world."""
        return self.model.holders(self.player).known_opponent_tickets

    @property
    def score(self) -> int:
        return self.model.state.score_parts(self.player).total

    @property
    def known_tickets(self) -> int:
        return len(self.known_opponent_tickets())
