"""Mesa agents: one seat at the table each, and the one table of agent kinds.

A seat plays its own turn (Mesa's shape: behaviour in the agents, the model orchestrates): it
asks its kind's policy for each action, applies it, and hands the model what it did. What the
turn announces is the game's (``game.state.GameState.apply``, by ``game.knowledge``'s protocol).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from enum import StrEnum

import mesa

from agents.policies import baseline, declared, epistemic, uniform_random
from agents.strategies import STRATEGIES
from game.actions import Action, Claim
from game.state import GameState
from game.table import Event
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
    """How a kind of player chooses its actions.

    Every kind plays by the same rules: a claim is for the claimant's own tickets unless it is
    declared as a block (its view offers no other). So every undeclared claim tells the table
    something (the claim inference), whatever the kind that made it.
    """

    policy: Callable[[PlayerAgent], Action]


def _epistemic(seat: PlayerAgent) -> Action:
    return epistemic(seat.view(), seat.model.random)


def _baseline(seat: PlayerAgent) -> Action:
    return baseline(seat.view(), seat.model.random)


def _random(seat: PlayerAgent) -> Action:
    return uniform_random(seat.view(), seat.model.random)


def _strategy(kind: AgentKind) -> Callable[[PlayerAgent], Action]:
    """A strategy agent of the standard game at the simplified table: the same policy on the
    same kind of view (no ticket draws are offered there, so it never draws tickets). The view
    offers payments only for allowed claims, so its plans bend to the simplified rules: it
    claims for its own tickets, or (a claim off its own paths) as a declared block."""
    policy = STRATEGIES[kind.value]

    def choose(seat: PlayerAgent) -> Action:
        return policy(seat.view(), seat.model.random)

    return choose


#: The one table of kinds: the CLI's and the app's choices and every check derive from it.
KINDS: dict[AgentKind, Behaviour] = {
    AgentKind.EPISTEMIC: Behaviour(_epistemic),
    AgentKind.BASELINE: Behaviour(_baseline),
    AgentKind.RANDOM: Behaviour(_random),
    **{kind: Behaviour(_strategy(kind))
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
        choice = KINDS[self.kind].policy(self)
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
