"""The simplified game's shared knowledge: the deal model (every deal of the dealt tickets, each
player seeing its own hand) and the announcement protocol of the design notes, as formulas over
atoms ``p(i,t)`` (player i holds ticket t).

:func:`announced_by` and :func:`completions` are the whole protocol: a rule change about what a
turn tells the table (which claims count, what a block declares) is made there and nowhere else.
The state (:class:`game.state.GameState`) makes these announcements itself when a turn ends.
The open game (:mod:`game.open_state`) follows the same protocol with its own words: a claim's
inference is evidence (a rank shift of its ranked deal), a block declares a belief.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from enum import StrEnum
from functools import cache, cached_property

from boards import Ticket
from game.actions import Action, Claim, DeclareBlock
from game.rules import OpenRules, Rules
from game.table import TableState
from kripke import (
    Atom,
    Deal,
    EpistemicModel,
    Knows,
    Or,
    RankedDeal,
    deal_count,
    deal_model,
    ranked_deal,
    symbolic_deal,
)
from kripke.language.formula import Believes, Formula


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


#: The shared model of a game, on either backend.
DealWorlds = Deal


def deal_worlds(rules: Rules, hands: Sequence[Sequence[Ticket]],
                backend: Backend | str = Backend.AUTO) -> DealWorlds:
    """Every deal of the dealt tickets (``hands``, the real deal, actual) giving each player its
    number of tickets (the rules' ``tickets_each``, by the hands); player i sees exactly its own
    hand. Both backends give the same atoms ``p(i,t)``, counts and answers; the explicit one
    can also draw and list its worlds. The open game's deals carry a rank each, every deal
    rank 0 as dealt (:func:`kripke.ranked_deal`)."""
    players = range(rules.players)
    build = symbolic_deal if resolve_backend(
        backend, rules.players, rules.tickets_each) is Backend.SYMBOLIC else deal_model
    dealt = build(sorted(t.id for hand in hands for t in hand), [len(hands[p]) for p in players],
                  [[t.id for t in hands[p]] for p in players], agents=list(players))
    return ranked_deal(dealt) if isinstance(rules, OpenRules) else dealt


def claim_inference(state: TableState, player: int, connection: int) -> Formula:
    """What a claim of ``connection`` by ``player`` tells everyone (read *before* the claim):
    ``player`` holds one of the tickets it has not finished whose shortest path for it can use
    the connection. Dealt and finished tickets are public; so is the board, so everyone
    computes this."""
    finished = set().union(*state.finished)
    dealt = sorted((t for hand in state.tickets for t in hand), key=lambda t: t.id)
    return Or.of(ticket_atom(player, t.id) for t in dealt
                 if t.id not in finished
                 and (found := state.paths(player, t)) is not None
                 and connection in found.connections)


def block_announcement(blocker: int, victim: int, ticket: int, belief: bool = False
                       ) -> Formula:
    """A declared block: the blocker knows the victim holds the ticket, or (``belief``, the
    open game) believes it."""
    return (Believes if belief else Knows)(blocker, ticket_atom(victim, ticket))


class AnnouncementKind(StrEnum):
    """Why a formula was announced (the design notes' three updates)."""

    CLAIM = "claim"
    BLOCK = "block"
    COMPLETION = "completion"
    OUTSIDE = "outside"  # made from outside the game: a teacher's "what if everyone learned"
    # The open game's claim: its inference is evidence, not an announcement; the deals that
    # leave it unexplained drop one rank (soft information: no deal is removed).
    SHIFT = "shift"


def announced_by(before: TableState, player: int,
                 action: Action) -> tuple[tuple[AnnouncementKind, Formula], ...]:
    """What ``player``'s ``action`` tells the table, read on the position ``before`` it (the
    paths as everyone reads them before the claim):

    1. a declared block by b of a's ticket t: ``K_b p(a,t)`` (the open game: ``B_b p(a,t)``,
       true by construction, since only a believed ticket may be declared);
    2. any other claim: the claim inference (:func:`claim_inference`). The rules allow a claim
       that is not a declared block only on a shortest path of one of the claimant's own
       unfinished tickets, so this holds whatever the claimant's kind. In the open game any
       claim is allowed, so the inference may be false: it is evidence, a rank shift
       (:attr:`AnnouncementKind.SHIFT`), not an announcement;
    3. nothing for a draw or a pass.
    """
    open_game = isinstance(before.rules, OpenRules)
    if isinstance(action, DeclareBlock):
        return ((AnnouncementKind.BLOCK, block_announcement(
            player, action.victim, action.ticket, belief=open_game)),)
    if isinstance(action, Claim):
        return ((AnnouncementKind.SHIFT if open_game else AnnouncementKind.CLAIM,
                 claim_inference(before, player, action.connection)),)
    return ()


def completions(player: int, completed: Iterable[int]
                ) -> tuple[tuple[AnnouncementKind, Formula], ...]:
    """Each ticket a turn finished: ``p(player, t)`` (the turn's last announcements). Every
    announcement of the protocol is true at the actual world by construction, so announcing it
    never removes it."""
    return tuple((AnnouncementKind.COMPLETION, ticket_atom(player, t)) for t in completed)


@dataclass(frozen=True)
class Announcement:
    """One public announcement and what it did to the shared model."""

    kind: AnnouncementKind
    formula: Formula
    worlds_before: int
    worlds_after: int
    by: str | None = None  # who made an outside announcement (the game's own have no name)

    @property
    def text(self) -> str:
        return str(self.formula)

    @property
    def removed(self) -> int:
        return self.worlds_before - self.worlds_after


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
    return holders(model.known_atoms(agent), agent, tickets, players)


def ticket_belief(model: RankedDeal, agent: int, tickets: Iterable[int],
                  players: int) -> TicketKnowledge:
    """As :func:`ticket_knowledge`, in ``agent``'s most plausible deals (the open game's
    ranked model): who it believes may hold each ticket. A belief can be false."""
    return holders(model.believed_atoms(agent), agent, tickets, players)


def holders(fixed: dict[Atom, bool], agent: int, tickets: Iterable[int],
            players: int) -> TicketKnowledge:
    """Each ticket's possible holders: every player of whom ``fixed`` (the atoms with one
    value in the deals ``agent`` considers) does not say it lacks the ticket."""
    return TicketKnowledge(agent, {t: frozenset(j for j in range(players)
                                                if fixed.get(ticket_atom(j, t)) is not False)
                                   for t in tickets})
