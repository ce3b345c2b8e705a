"""Mesa agents: one seat at the table each.

A seat plays its own turn (Mesa's shape: behaviour in the agents, the model orchestrates): it
asks its kind's simplified-game policy (:data:`agents.kinds.KINDS`) for each action,
applies it, and hands the model what it did. What the turn announces is the game's
(``game.state.GameState.apply``, by ``game.knowledge``'s protocol).
"""

from __future__ import annotations

from dataclasses import dataclass

import mesa

from agents.kinds import KINDS, AgentKind
from agents.policies import declared
from game.actions import Action, Claim
from game.state import GameState
from game.table import Event
from game.view import PlayerView


@dataclass(frozen=True)
class PlayedTurn:
    """What one seat did in its turn: the actions it chose (a declared block is a
    ``DeclareBlock``) and the events the rules made of them."""

    actions: tuple[Action, ...]
    events: tuple[Event, ...]


class PlayerAgent(mesa.Agent):
    """A player. ``player`` is its seat (0-based), the agent name used in formulas (``K_0``).

    ``model`` is the ``TTRModel`` it sits at (not imported here: the model imports the agents,
    never the reverse); the agent reads its game state and its generator.
    """

    def __init__(self, model: mesa.Model, player: int, kind: AgentKind):
        super().__init__(model)
        self.player = player
        self.kind = kind
        self.blocks = 0

    @property
    def state(self) -> GameState:
        return self.model.state

    def view(self) -> PlayerView:
        """What this player may see now, its knowledge included: all its policy is given."""
        return self.state.observation(self.player)

    def choose(self) -> Action:
        """The next action of this player's turn, a claim off its own shortest paths declared
        as a block; all randomness is the model's generator."""
        choice = KINDS[self.kind].simplified(self.view(), self.model.random)
        return declared(self.view(), choice, self.model.random) if isinstance(choice, Claim) \
            else choice

    def play_turn(self) -> PlayedTurn:
        """Choose and apply actions until the turn is over (the rules refuse a claim declared
        as what they do not allow it as, before anything changes)."""
        actions: list[Action] = []
        events: list[Event] = []
        while True:
            actions.append(self.choose())
            events.append(self.state.apply(actions[-1]))
            if events[-1].turn_over:
                return PlayedTurn(tuple(actions), tuple(events))

    def known_opponent_tickets(self) -> tuple[tuple[int, int], ...]:
        """(opponent, ticket) pairs this agent knows, at the actual world."""
        return self.state.known(self.player)

    @property
    def known_tickets(self) -> int:
        return len(self.known_opponent_tickets())
