"""Mesa agents: one seat at the table each, and the one table of agent kinds.

A seat plays its own turn (Mesa's shape: behaviour in the agents, the model orchestrates): it
asks its kind's policy for each action, applies it, and hands the model what it did. What the
turn announces is the model's business (``agents.knowledge.turn_announcements``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from enum import StrEnum

import mesa

from agents.policies import Block, baseline, epistemic, uniform_random
from agents.strategies import STRATEGIES
from game.actions import Action, Claim
from game.state import Event, GameState
from game.view import PlayerView


class AgentKind(StrEnum):
    """The kinds of player, in the order the CLI and the app list them. A ``StrEnum``: it prints,
    compares and goes into logs and CSV files as its plain name."""

    EPISTEMIC = "epistemic"
    BASELINE = "baseline"
    RANDOM = "random"
    OSTA = "osta"  # the playtesting papers' strategy agents (agents/strategies.py)
    PA = "pa"
    LRJA = "lrja"
    HA = "ha"


@dataclass(frozen=True)
class Behaviour:
    """How a kind of player chooses its actions, and whether its claims are announced.

    Everyone knows the kinds. A kind that claims only on shortest paths of its own unfinished
    tickets (a forced claim when no card can be drawn aside) tells the table something with
    every such claim (the claim inference); a random player's claims tell nothing.
    """

    policy: Callable[[PlayerAgent], Action | Block]
    claims_announced: bool


def _epistemic(seat: PlayerAgent) -> Action | Block:
    return epistemic(seat.view(), seat.model.random, seat.known_opponent_tickets())


def _baseline(seat: PlayerAgent) -> Action | Block:
    return baseline(seat.view(), seat.model.random)


def _random(seat: PlayerAgent) -> Action | Block:
    return uniform_random(seat.view(), seat.model.random)


def _strategy(kind: AgentKind) -> Callable[[PlayerAgent], Action | Block]:
    """A strategy agent of the standard game at the simplified table: the same policy on the
    same kind of view (no ticket draws are offered there, so it never draws tickets)."""
    policy = STRATEGIES[kind.value]

    def choose(seat: PlayerAgent) -> Action | Block:
        return policy(seat.view(), seat.model.random)

    return choose


#: The one table of kinds: the CLI's and the app's choices and every check derive from it.
#: The strategy agents' claims are not announced: they follow their own plans (long
#: connections, a network joining all tickets, the most valuable claim) rather than the public
#: shortest paths the claim inference reads, so announcing them could be untrue.
KINDS: dict[AgentKind, Behaviour] = {
    AgentKind.EPISTEMIC: Behaviour(_epistemic, claims_announced=True),
    AgentKind.BASELINE: Behaviour(_baseline, claims_announced=True),
    AgentKind.RANDOM: Behaviour(_random, claims_announced=False),
    **{kind: Behaviour(_strategy(kind), claims_announced=False)
       for kind in (AgentKind.OSTA, AgentKind.PA, AgentKind.LRJA, AgentKind.HA)},
}


def parse_kinds(agent_kinds: str | Sequence[str], players: int, *,
                repeat: bool = False) -> tuple[AgentKind, ...]:
    """``"epistemic"`` for everyone, or one kind per player (``"epistemic,baseline,random"``).
    With ``repeat`` a shorter list is repeated over the seats (the app's sidebar offers such
    line-ups); without it a list must name every seat."""
    kinds = agent_kinds.split(",") if isinstance(agent_kinds, str) else list(agent_kinds)
    kinds = [k.strip() for k in kinds]
    if len(kinds) == 1 or repeat:
        kinds = [kinds[p % len(kinds)] for p in range(players)]
    if len(kinds) != players:
        raise ValueError(f"{len(kinds)} agent kinds given for {players} players; give one kind "
                         "for everyone or exactly one per player, comma-separated")
    for k in kinds:
        if k not in KINDS:
            raise ValueError(f"unknown agent kind {k!r}; choose from {', '.join(AgentKind)}")
    return tuple(AgentKind(k) for k in kinds)


@dataclass(frozen=True)
class PlayedTurn:
    """What one seat did in its turn: its choices (a declared block stays a ``Block``), the
    events they caused, and the state the turn's claim was chosen in. A claim is always a turn's
    first and only action, so that is the state before the turn; a turn without a claim keeps
    the state after it, which its announcements never read."""

    before: GameState
    choices: tuple[Action | Block, ...]
    events: tuple[Event, ...]


class PlayerAgent(mesa.Agent):
    """A player. ``player`` is its seat (0-based), the agent name used in formulas (``K_0``).

    ``model`` is the ``TTRModel`` it sits at (not imported here: the model imports the agents,
    never the reverse); the agent reads its game state, its generator and its knowledge.
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
        """What this player may see now: all its policy is given."""
        return self.state.observation(self.player)

    def choose(self) -> Action | Block:
        """The next action of this player's turn; all randomness is the model's generator."""
        return KINDS[self.kind].policy(self)

    def play_turn(self) -> PlayedTurn:
        """Choose and apply actions until the turn is over."""
        state = before = self.state
        choices: list[Action | Block] = []
        events: list[Event] = []
        while True:
            choice = self.choose()
            action = choice.claim if isinstance(choice, Block) else choice
            if isinstance(action, Claim):
                before = state.clone()  # the claim's announcement reads the board before it
            choices.append(choice)
            events.append(state.apply(action))
            if events[-1].turn_over:
                return PlayedTurn(before, tuple(choices), tuple(events))

    def known_opponent_tickets(self) -> tuple[tuple[int, int], ...]:
        """(opponent, ticket) pairs this agent knows, at the actual world."""
        return self.model.knowledge(self.player).known_opponent_tickets

    @property
    def score(self) -> int:
        return self.state.score_parts(self.player).total

    @property
    def known_tickets(self) -> int:
        return len(self.known_opponent_tickets())
