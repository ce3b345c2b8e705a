"""The bridge between the game and the logic: the deal model of a game, and the announcement
protocol of the design notes, as formulas over atoms ``p(i,t)`` (player i holds ticket t).

:func:`turn_announcements` is the whole protocol in one pure function: a rule change about what
a turn tells the table (which claims count, what a block declares) is made there and nowhere
else, and tested alone.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from enum import StrEnum
from functools import cache, cached_property

from agents.policies import Block
from game.actions import Action, Claim
from game.state import GameState
from game.table import Event
from kripke import (
    Atom,
    DealModel,
    EpistemicModel,
    Knows,
    Or,
    SymbolicDealModel,
    deal_count,
    deal_model,
    symbolic_deal,
)
from kripke.formula import Formula


@cache
def ticket_atom(player: int, ticket: int) -> Atom:
    """The atom p(player, ticket): "player holds ticket" (cached: asked for on every turn of
    every game)."""
    return Atom("p", (player, ticket))


#: The largest deal the explicit shared model is built for: 4 players × 4 tickets (63,063,000
#: worlds in 1.7 GiB). Above it the shared model is symbolic.
MAX_WORLDS = 63_063_000


class Backend(StrEnum):
    """Which model checker holds a game's shared model (``kripke.interface.EpistemicModel``)."""

    AUTO = "auto"  # explicit up to MAX_WORLDS deals, symbolic above
    EXPLICIT = "explicit"  # a list of worlds: what the app draws
    SYMBOLIC = "symbolic"  # a knowledge structure on BDDs: any number of deals


def parse_backend(backend: Backend | str) -> Backend:
    """A backend from its name, or ``ValueError`` naming the choices."""
    try:
        return Backend(backend)
    except ValueError:
        raise ValueError(f"unknown backend {backend!r}; choose from "
                         f"{', '.join(b.value for b in Backend)}") from None


def resolve_backend(backend: Backend | str, players: int, tickets_each: int) -> Backend:
    """The backend a game of this size gets: ``auto`` is explicit up to MAX_WORLDS deals."""
    backend = parse_backend(backend)
    if backend is Backend.AUTO:
        deals = deal_count(players * tickets_each, [tickets_each] * players)
        return Backend.EXPLICIT if deals <= MAX_WORLDS else Backend.SYMBOLIC
    return backend


def deal_worlds(state: GameState, backend: Backend | str = Backend.AUTO
                ) -> DealModel | SymbolicDealModel:
    """Every deal of the dealt tickets giving each player its number of tickets, the real deal
    actual; player i sees exactly its own hand. Both backends give the same atoms ``p(i,t)``,
    counts and answers; the explicit one can also draw and list its worlds."""
    players = range(state.rules.players)
    build = symbolic_deal if resolve_backend(
        backend, state.rules.players, state.rules.tickets_each) is Backend.SYMBOLIC \
        else deal_model
    return build([t.id for t in state.dealt_tickets],
                 [state.rules.tickets_each for _ in players],
                 [[t.id for t in state.tickets[p]] for p in players],
                 agents=list(players))


def claim_inference(state: GameState, player: int, connection: int) -> Formula:
    """What a claim of ``connection`` by ``player`` tells everyone (call it *before* the claim):
    ``player`` holds one of the tickets it has not finished whose shortest path for it can use
    the connection. Finished tickets are public; so is the board, so everyone computes this."""
    finished = set().union(*state.finished)
    return Or.of(ticket_atom(player, t.id) for t in state.dealt_tickets
                 if t.id not in finished
                 and (found := state.paths(player, t)) is not None
                 and connection in found.connections)


def block_announcement(blocker: int, victim: int, ticket: int) -> Formula:
    """A declared block: the blocker knows the victim holds the ticket."""
    return Knows(blocker, ticket_atom(victim, ticket))


class AnnouncementKind(StrEnum):
    """Why a formula was announced (the design notes' three updates)."""

    CLAIM = "claim"
    BLOCK = "block"
    COMPLETION = "completion"
    OUTSIDE = "outside"  # made from outside the game: a teacher's "what if everyone learned"


def turn_announcements(before: GameState, player: int, choices: Sequence[Action | Block],
                       events: Sequence[Event]) -> tuple[tuple[AnnouncementKind, Formula], ...]:
    """The public announcements of one turn, in order: the design notes' protocol.

    ``before`` is the state the turn began in (paths are read on the board before the claim, as
    everyone would read them), ``player`` who played, ``choices`` what its policy
    chose (a ``Block`` is a declared block) and ``events`` what the rules made of them.

    1. A declared block by b of a's ticket t: ``K_b p(a,t)``.
    2. Any other claim: the claim inference (``claim_inference``). The rules allow a claim that
       is not a declared block only on a shortest path of one of the claimant's own unfinished
       tickets, so this holds whatever the claimant's kind.
    3. Each ticket the turn finished: ``p(player, t)``.
    Every one is true at the actual world by construction, so announcing it never removes it.
    """
    out: list[tuple[AnnouncementKind, Formula]] = []
    for choice in choices:
        if isinstance(choice, Block):
            out.append((AnnouncementKind.BLOCK,
                        block_announcement(player, choice.victim, choice.ticket)))
        elif isinstance(choice, Claim):
            out.append((AnnouncementKind.CLAIM,
                        claim_inference(before, player, choice.connection)))
    out += [(AnnouncementKind.COMPLETION, ticket_atom(player, t))
            for event in events for t in event.completed]
    return tuple(out)


@dataclass(frozen=True)
class TicketKnowledge:
    """What one agent considers possible about each dealt ticket: who might hold it."""

    agent: int
    possible: dict[int, frozenset[int]]  # ticket id -> players that may hold it

    def known(self, ticket: int) -> int | None:
        """The holder the agent knows, or ``None`` while more than one is possible."""
        who = self.possible[ticket]
        return next(iter(who)) if len(who) == 1 else None

    @cached_property
    def known_opponent_tickets(self) -> tuple[tuple[int, int], ...]:
        """(opponent, ticket) pairs the agent knows, its own tickets left out (computed once:
        the policy and the views ask every turn)."""
        return tuple((who, t) for t in self.possible
                     if (who := self.known(t)) not in (None, self.agent))


def ticket_knowledge(model: EpistemicModel, agent: int, tickets: Iterable[int],
                     players: int) -> TicketKnowledge:
    """Who ``agent`` considers a possible holder of each ticket, at the actual world: every
    player of whom it does not know that it lacks the ticket (on either backend)."""
    known = model.known_atoms(agent)
    return TicketKnowledge(agent, {t: frozenset(j for j in range(players)
                                                if known.get(ticket_atom(j, t)) is not False)
                                   for t in tickets})
