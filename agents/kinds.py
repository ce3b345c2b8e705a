"""The one table of agent kinds: what each kind of player plays under each rule set.

A kind's name means one thing, and its row says what that is in each game: the policy it plays
in the simplified game, the one it plays under the published rules (the standard game), and
the standard game's second source of agents if it has one there. The CLI's and the app's
choices, both games' line-up checks, the logs' checks and the soak all read this table, so a
new kind is one row here and its policies in the policy modules.

The standard game takes its strategy agents from one of two sources, chosen per run with
``--strategies`` and recorded in the run's spec, so a run never mixes them silently:

=========  =======================================================  ==========================
source     what the agents do                                       module
=========  =======================================================  ==========================
described  what the papers and the design note say                  ``agents.strategies``
engine     what the authors' engine does, its bugs included         ``agents.engine_strategies``
=========  =======================================================  ==========================

A spec built in code plays ``described`` unless it names a source, so logs and checkpoints
keep replaying as they were written; the standard-rules commands play ``engine`` unless told
(``app.cli.lab_options.STANDARD_STRATEGIES``: the engine's agents reproduce the published
figures). Every seat of a game takes its agent from the same source. The ``engine`` source
has only the four agents of the papers (``osta``, ``pa``, ``lrja``, ``ha``); its agents keep a
memory per seat (:class:`agents.engine_strategies.SeatMemory`), so each game makes fresh ones.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Protocol, Self

from agents import policies, strategies
from agents.engine_strategies import (
    EnginePolicy,
    EngineSeat,
    ha_engine,
    lrja_engine,
    osta_engine,
    pa_engine,
)
from agents.policies import declaring
from game.play import Policy
from game.rules import MAX_PLAYERS, MIN_PLAYERS

#: The sources of the standard game's agents, the default first.
SOURCES: tuple[str, ...] = ("described", "engine")
DEFAULT_SOURCE = SOURCES[0]


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
    BELIEVER = "believer"  # the open game's kinds (design/open-game.md; agents/policies.py)
    BLUFFER = "bluffer"
    SCEPTIC = "sceptic"


@dataclass(frozen=True)
class Behaviour:
    """What one kind plays in each rule set; ``None``: it has no version there.

    ``simplified``: every kind plays the simplified game, by the same rules: a claim is for the
    claimant's own tickets unless it is declared as a block (its view offers no other), so every
    undeclared claim tells the table something (the claim inference), whatever the kind. The
    same policy plays the open game (``design/open-game.md``: any claim allowed, so a claim is
    evidence; blocks on belief), where its view offers every claim. The
    papers' agents play there the same policy as in the standard game, on the same kind of view:
    no ticket draws are offered there, so they never draw tickets, and the view offers payments
    only for allowed claims, so their plans bend to the simplified rules (a claim off their own
    paths goes out as a declared block: ``policies.declaring``).

    ``standard``: the standard game's policy as the papers and the design note describe it (the
    ``described`` source); ``engine``: as the authors' engine plays it (the ``engine`` source).
    """

    simplified: Policy
    standard: Policy | None = None
    engine: EnginePolicy | None = None

    def plays_standard(self, source: str) -> bool:
        """Whether ``source`` has a version of this kind for the standard game."""
        return (self.standard if source == "described" else self.engine) is not None

    def standard_seat(self, source: str) -> Policy:
        """The policy of one seat of this kind in one standard game from ``source`` (the
        engine's agents keep a memory per seat, so each call makes a fresh one)."""
        if source == "described":
            assert self.standard is not None, "checked by check_lineup"
            return self.standard
        assert self.engine is not None, "checked by check_lineup"
        return EngineSeat(self.engine)


#: The one table of kinds, in the order of :class:`AgentKind`.
KINDS: dict[AgentKind, Behaviour] = {
    # claims for its own tickets, else blocks a ticket it knows an opponent holds, else draws
    AgentKind.EPISTEMIC: Behaviour(simplified=policies.epistemic),
    # claims on its own tickets' shortest paths, else draws their colours; never blocks (under the
    # published rules it also keeps every ticket and never draws more)
    AgentKind.BASELINE: Behaviour(simplified=policies.baseline, standard=strategies.baseline),
    # a uniformly random move (under the published rules ticket draws among them)
    AgentKind.RANDOM: Behaviour(
        simplified=policies.uniform_random, standard=policies.uniform_random),
    # One Step Thinker: one ticket and one connection at a time
    AgentKind.OSTA: Behaviour(
        simplified=declaring(strategies.osta), standard=strategies.osta, engine=osta_engine),
    # Path agent: many tickets served by few connections
    AgentKind.PA: Behaviour(
        simplified=declaring(strategies.pa), standard=strategies.pa, engine=pa_engine),
    # Long Route Junkie: long connections above all
    AgentKind.LRJA: Behaviour(
        simplified=declaring(strategies.lrja), standard=strategies.lrja, engine=lrja_engine),
    # Hungry agent: as many tickets as its trains allow, joined in one network
    AgentKind.HA: Behaviour(
        simplified=declaring(strategies.ha), standard=strategies.ha, engine=ha_engine),
    # the open game's: claims for its own tickets, else blocks a ticket it believes an opponent
    # holds (belief is knowledge in the simplified game), else draws
    AgentKind.BELIEVER: Behaviour(simplified=policies.believer),
    # a believer that sometimes claims on the path of a ticket it does not hold, to plant a
    # false belief (the simplified rules allow no such claim: there it is a believer)
    AgentKind.BLUFFER: Behaviour(simplified=policies.bluffer),
    # the epistemic agent: acts on knowledge only, ignores what claims suggest
    AgentKind.SCEPTIC: Behaviour(simplified=policies.epistemic),
}


def parse_kinds(agent_kinds: str | Sequence[str], players: int, *,
                repeat: bool = False) -> tuple[AgentKind, ...]:
    """A simplified game's line-up: ``"epistemic"`` for everyone, or one kind per player
    (``"epistemic,baseline,random"``). With ``repeat`` a shorter list is repeated over the seats
    (the app's sidebar offers such line-ups); without it a list must name every seat."""
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


def check_source(source: str) -> None:
    if source not in SOURCES:
        raise ValueError(f"unknown --strategies {source!r}; choose from {', '.join(SOURCES)}")


def standard_kinds(source: str = DEFAULT_SOURCE) -> tuple[AgentKind, ...]:
    """The kinds ``source`` offers the standard game, in the order its messages list them: the
    papers' agents first (the ones the engine plays too), then ours."""
    check_source(source)
    kinds = [kind for kind, behaviour in KINDS.items() if behaviour.plays_standard(source)]
    return tuple(sorted(kinds, key=lambda kind: KINDS[kind].engine is None))


def check_lineup(source: str, lineup: Sequence[str]) -> None:
    """Every kind of ``lineup`` exists in ``source`` (one line saying which does not)."""
    kinds = standard_kinds(source)
    for kind in lineup:
        if kind not in kinds:
            other = [s for s in SOURCES if s != source and kind in standard_kinds(s)]
            hint = f", or play it with --strategies {other[0]}" if other else ""
            raise ValueError(f"agent kind {kind!r} has no {source} version; with --strategies "
                             f"{source} choose from {', '.join(kinds)}{hint}")


class Seated(Protocol):
    """The settings of a game with a line-up (a standard game's, a design-lab game's)."""

    @property
    def lineup(self) -> tuple[str, ...]: ...

    def rotated(self, shift: int) -> Self:
        """The same game with every agent moved ``shift`` seats on."""
        ...


def rotated_lineup(lineup: Sequence[str], shift: int) -> tuple[str, ...]:
    """``lineup`` with every agent moved ``shift`` seats on (seat s gets the agent of seat
    s - shift)."""
    n = len(lineup)
    return tuple(lineup[(s - shift) % n] for s in range(n))


def seat_jobs[S: Seated](spec: S, seeds: Iterable[int], rotate: bool = True
                         ) -> list[tuple[S, int]]:
    """(spec, seed) per game of a batch; with ``rotate`` the i-th game moves every agent i
    seats on, so over a multiple of the player count each agent sits in each seat equally
    often."""
    n = len(spec.lineup)
    return [(spec.rotated(i % n) if rotate else spec, seed) for i, seed in enumerate(seeds)]


def parse_lineup(agents: str | Sequence[str], players: int | None = None,
                 strategies: str = DEFAULT_SOURCE) -> tuple[str, ...]:
    """A standard game's line-up: ``"osta,pa,lrja,ha"`` (one kind per seat) or one kind for
    ``players`` seats, every kind one the source ``strategies`` offers."""
    kinds = [k.strip() for k in (agents.split(",") if isinstance(agents, str) else agents)]
    if len(kinds) == 1 and players is not None:
        if not MIN_PLAYERS <= players <= MAX_PLAYERS:  # before a list of that many is made
            raise ValueError(f"a standard game seats {MIN_PLAYERS} to {MAX_PLAYERS} players, "
                             f"got {players}")
        kinds *= players
    offered = standard_kinds()
    for k in kinds:
        if k not in offered:
            raise ValueError(f"unknown agent kind {k!r} for the standard rules; choose from "
                             f"{', '.join(offered)}")
    if not MIN_PLAYERS <= len(kinds) <= MAX_PLAYERS:
        raise ValueError(f"a standard game seats {MIN_PLAYERS} to {MAX_PLAYERS} players, got "
                         f"{len(kinds)} agent kinds")
    check_lineup(strategies, kinds)
    return tuple(kinds)


def seat_policies(source: str, lineup: Sequence[str]) -> list[Policy]:
    """One policy per seat for one standard game (fresh memories for the engine's agents)."""
    check_lineup(source, lineup)
    return [KINDS[AgentKind(kind)].standard_seat(source) for kind in lineup]
