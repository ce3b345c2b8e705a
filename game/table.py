"""The table both rule sets play on: cards, the face-up row, trains, claims, doubles and the
scoring base, with ``legal_actions()``, ``apply(action)``, ``is_terminal()``, ``returns()``.

As in OpenSpiel, the rules are immutable and a state changes only through ``apply``, which
returns the :class:`Event` it caused. Every random choice (deals, shuffles) comes from the one
``random.Random`` seeded at creation, so a seed and the list of actions replay a game exactly.

:class:`TableState` is the engine without a rule set; the simplified game
(:class:`game.state.GameState`) and the published one (:class:`game.standard_state.StandardState`)
are its two rule sets, each saying what differs by the methods it defines: how tickets are dealt,
which claims are allowed, how many turns the last round has, whether finishing one's tickets ends
the game, when a game has stalled, what a player sees and who wins.
"""

from __future__ import annotations

import copy
import random
from abc import ABC, abstractmethod
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Self

from boards import Board, Connection, Ticket
from game.actions import Action, Claim, DeclareBlock, DrawDeck, DrawFaceUp, Pass
from game.cards import LOCO, N_CARD_TYPES, colour_of, takeable
from game.claims import hand_payments, why_unclaimable
from game.distances import PathOracle
from game.paths import ShortestPaths
from game.rules import Rules
from game.view import PlayerView

END_TRAINS = "trains"  # the last round after a claim left a player with few trains is over
END_TICKETS = "tickets"  # a player finished all its tickets
END_STALEMATE = "stalemate"  # no player can ever make an allowed claim again
END_REASONS = {
    END_TRAINS: "a player ran low on trains and everyone has had a last turn",
    END_TICKETS: "a player finished all of its tickets",
    END_STALEMATE: "no player can ever make an allowed claim again, so only draws could follow "
                   "and no score and no knowledge would change",
}

class IllegalAction(ValueError):
    """An action the rules do not allow now; the message says why."""


@dataclass(frozen=True)
class Event:
    """What one applied action did. ``cards`` are the cards the player received by a draw
    (empty for claims and passes); ``completed`` the tickets the action finished; ``tickets``
    the tickets a ticket draw offered (standard rules); ``revealed`` the pile cards a tunnel
    claim turned over; ``end_reason`` the end the action itself brought (the last round over,
    or all of a player's tickets finished; the simplified game's third end is the position's,
    see ``game.state.GameState.end_reason``)."""

    index: int
    turn: int
    player: int
    action: Action
    cards: tuple[int, ...]
    completed: tuple[int, ...]
    turn_over: bool
    end_reason: str | None
    tickets: tuple[int, ...] = ()
    revealed: tuple[int, ...] = ()  # cards a tunnel claim turned over (Europe option)


@dataclass(frozen=True)
class ScoreParts:
    """A player's score split as the design notes define it; ``longest`` is the standard rules'
    bonus for the longest continuous path and ``stations`` Europe's points for stations never
    built (both 0 in the simplified game)."""

    connections: int
    finished: int
    unfinished: int
    longest: int = 0
    stations: int = 0

    @property
    def total(self) -> int:
        return (self.connections + self.finished - self.unfinished + self.longest
                + self.stations)


def win_shares(scores: Sequence[int], finished: Sequence[int],
               longest: Sequence[bool]) -> list[float]:
    """The rulebook's winner: highest score, then most finished tickets, then the longest-path
    bonus; players tied on all three share the win equally."""
    keys = list(zip(scores, finished, longest, strict=True))
    best = max(keys)
    winners = [k == best for k in keys]
    return [w / sum(winners) for w in winners]


class TableState(ABC):
    """A game in progress on the shared table, under a rule set (a subclass). Creating one
    seeds the generator, shuffles the train cards, deals the hands and lays the face-up row
    (the generator's first draws, in the same order for every rule set); the rule set then
    deals its tickets from the same generator.
    """

    rules: Rules

    def __init__(self, rules: Rules, seed: int):
        self.rules = rules
        self.seed = seed
        self.rng = random.Random(seed)
        deck = [c for c in range(LOCO) for _ in range(rules.cards_per_colour)]
        deck += [LOCO] * rules.locomotives
        self.rng.shuffle(deck)
        self.pile: list[int] = deck
        self.discard: list[int] = []
        n = rules.players
        self.hands: list[list[int]] = [[0] * N_CARD_TYPES for _ in range(n)]
        for p in range(n):
            for _ in range(rules.initial_hand):
                self.hands[p][self.pile.pop()] += 1
        self.face_up: list[int | None] = [self.pile.pop() for _ in range(rules.face_up)]
        self._fix_locomotive_row()
        self.tickets: tuple[tuple[Ticket, ...], ...] = tuple(() for _ in range(n))  # the rules'
        self.finished: list[set[int]] = [set() for _ in range(n)]
        self.trains: list[int] = [rules.start_trains] * n
        self.owner: list[int | None] = [None] * len(rules.board.connections)
        self._adjacent: list[dict[str, set[str]]] = [{} for _ in range(n)]
        self.oracle = PathOracle(rules.board, rules.doubles_both_usable)
        self.current = 0
        self.turn = 0
        self.drawn = 0  # cards drawn so far in the current turn
        self.final_turns_left: int | None = None
        self._ended: str | None = None  # how an action ended the game (see end_reason)
        self.history: list[Event] = []

    # ----- what each rule set defines -----------------------------------------------------

    @abstractmethod
    def observation(self, player: int) -> PlayerView:
        """What ``player`` may see under these rules."""

    @abstractmethod
    def returns(self) -> list[float]:
        """Each player's share of the win, as these rules decide it (OpenSpiel's ``returns``;
        read at the end: before it, the shares the position would give)."""

    @abstractmethod
    def _claim_refused(self, player: int, claim: Claim,
                       declared: DeclareBlock | None) -> str | None:
        """Why these rules refuse ``player`` ``claim`` (``declared``: as that block) of a
        connection open to it and paid for, or ``None`` when they allow it."""

    @abstractmethod
    def _last_round_turns(self) -> int:
        """How many turns the last round has, counted from the turn that triggered it."""

    @abstractmethod
    def _ends_when_tickets_done(self) -> bool:
        """Whether a player who finishes all of its tickets ends the game at once."""

    @abstractmethod
    def _stalled(self) -> bool:
        """Whether the turn just ended leaves nothing that could ever change."""

    # ----- queries -------------------------------------------------------------------------

    @property
    def end_reason(self) -> str | None:
        """Why the game is over, or ``None`` while it goes on: the end an action brought."""
        return self._ended

    @property
    def board(self) -> Board:
        return self.rules.board

    def is_terminal(self) -> bool:
        return self.end_reason is not None

    def _player_view(self, player: int, over: bool, *, ticket_counts: tuple[int, ...],
                     finished_by: tuple[frozenset[int] | None, ...],
                     offer: tuple[Ticket, ...] = (), keep_at_least: int = 0,
                     ticket_pile_size: int = 0, setup: bool = False,
                     tunnel: tuple[int, int | None, int] | None = None,
                     stations: tuple[tuple[str, int], ...] = (),
                     dealt: frozenset[int] = frozenset(),
                     known: tuple[tuple[int, int], ...] = (),
                     believed: tuple[tuple[int, int], ...] = ()) -> PlayerView:
        """``player``'s view: its own hand and tickets and the public table, as this engine
        holds them, and what the rule set's ``observation`` adds (by default nothing: no
        offer, ticket pile, tunnel or station, no dealt or known tickets)."""
        return PlayerView(
            rules=self.rules, player=player, hand=tuple(self.hands[player]),
            tickets=self.tickets[player], finished=frozenset(self.finished[player]),
            offer=offer, keep_at_least=keep_at_least, owner=tuple(self.owner),
            trains=tuple(self.trains), hand_sizes=tuple(map(sum, self.hands)),
            ticket_counts=ticket_counts, face_up=tuple(self.face_up), pile_size=len(self.pile),
            discard_size=len(self.discard), ticket_pile_size=ticket_pile_size,
            current=self.current, drawn=self.drawn, turn=self.turn, setup=setup,
            final_round=self.final_turns_left is not None, over=over,
            claims=self.oracle.version, tunnel=tunnel, stations=stations, dealt=dealt,
            finished_by=finished_by, known=known, believed=believed, paths=self.oracle)

    def unfinished(self, player: int) -> tuple[Ticket, ...]:
        return tuple(t for t in self.tickets[player] if t.id not in self.finished[player])

    def paths(self, player: int, ticket: Ticket) -> ShortestPaths | None:
        """The public shortest paths of ``player`` for ``ticket`` on the board as it is now
        (cached until a claim changes them; see :class:`game.distances.PathOracle`)."""
        return self.oracle.ticket_paths(player, ticket)

    def score_parts(self, player: int) -> ScoreParts:
        pts = self.board.route_points
        conn = sum(pts[c.length] for c in self.board.connections if self.owner[c.id] == player)
        done = sum(t.points for t in self.tickets[player] if t.id in self.finished[player])
        open_ = sum(t.points for t in self.unfinished(player))
        return ScoreParts(conn, done, open_)

    def scores(self) -> list[int]:
        return [self.score_parts(p).total for p in range(self.rules.players)]

    def total_cards(self) -> int:
        """Every train card in the game, wherever it lies; conserved by every action."""
        row = sum(c is not None for c in self.face_up)
        return len(self.pile) + len(self.discard) + row + sum(map(sum, self.hands))

    def clone(self) -> Self:
        """An independent copy, as OpenSpiel's ``clone``: keep the position a move was chosen
        in while the move is applied to the original. The generator's state is copied too, so
        the copy plays on exactly as the original would."""
        new = copy.copy(self)
        new.rng = random.Random()
        new.rng.setstate(self.rng.getstate())
        new.pile, new.discard, new.face_up = self.pile.copy(), self.discard.copy(), \
            self.face_up.copy()
        new.hands = [hand.copy() for hand in self.hands]
        new.finished = [done.copy() for done in self.finished]
        new.trains, new.owner = self.trains.copy(), self.owner.copy()
        new._adjacent = [{city: near.copy() for city, near in adj.items()}
                         for adj in self._adjacent]
        new.oracle = self.oracle.clone()
        new.history = self.history.copy()
        return new

    def claimable(self, player: int, connection: Connection) -> str | None:
        """Why ``player`` may not take ``connection`` now (ignoring cards), or ``None``."""
        return why_unclaimable(self.board, self.owner, self.trains[player], player, connection,
                               self.rules.doubles_both_usable)

    def payments(self, player: int, connection: Connection) -> list[Claim]:
        """Every distinct way ``player``'s hand can pay for ``connection``, fewest locomotives
        first; empty when it cannot (or may not) claim it."""
        if self.claimable(player, connection) is not None:
            return []
        return hand_payments(connection, self.hands[player])

    def can_draw(self) -> bool:
        return bool(self.pile or self.discard or any(c is not None for c in self.face_up))

    def legal_actions(self) -> list[Action]:
        """All legal actions of the current player (``[]`` once the game is over): the list
        its view offers, so a policy and the rules agree by construction."""
        return [] if self.is_terminal() else self.observation(self.current).legal_actions()

    # ----- transitions ---------------------------------------------------------------------

    def apply(self, action: Action) -> Event:
        """Apply the current player's ``action``, one of :meth:`legal_actions` (OpenSpiel's
        contract: the list a policy chooses from is the list the rules take); anything else
        raises :class:`IllegalAction` with the rules' reason, and nothing changes. Returns the
        event, also appended to ``history``."""
        if self.is_terminal() or not self.observation(self.current).offers(action):
            self.clone()._apply(action)  # the rules' own words for why not
            raise IllegalAction(f"{action!r} is not one of player {self.current}'s legal "
                                "actions now")
        return self._apply(action)

    def _apply(self, action: Action) -> Event:
        """The rules' transition, each refusal in its own words (:meth:`apply` takes only
        legal actions; a refusal here is why another was not legal)."""
        if (ended := self.end_reason) is not None:
            raise IllegalAction(f"the game is over ({END_REASONS[ended]})")
        p, turn, taken = self.current, self.turn, action  # the event keeps the action taken
        cards: tuple[int, ...] = ()
        completed: tuple[int, ...] = ()
        if isinstance(action, DeclareBlock):
            completed = self._claim(p, action.claim, action)
            action, turn_over = action.claim, True  # the table sees the claim
        elif isinstance(action, Claim):
            completed = self._claim(p, action, None)
            turn_over = True
        elif isinstance(action, DrawFaceUp):
            card = self._take_face_up(action.slot)
            cards = (card,)
            turn_over = self._after_draw(card == LOCO and self.drawn == 1)
        elif isinstance(action, DrawDeck):
            if not (self.pile or self.discard):
                raise IllegalAction("the draw pile and the discard pile are both empty")
            top = self._take_from_pile()
            assert top is not None  # checked above: the piles are not both empty
            self.hands[p][top] += 1
            self.drawn += 1
            cards = (top,)
            turn_over = self._after_draw(False)
        elif isinstance(action, Pass):
            if self.legal_actions() != [Pass()]:
                raise IllegalAction("passing is only allowed when no claim or draw is possible")
            turn_over = True
        else:
            raise IllegalAction(f"not an action: {action!r}")

        if turn_over:
            self._end_turn(p, claimed=isinstance(action, Claim), completed_all=bool(completed)
                           and not self.unfinished(p))
        event = Event(len(self.history), turn, p, taken, cards, completed, turn_over,
                      self._ended)
        self.history.append(event)
        return event

    def _claim(self, p: int, action: Claim, declared: DeclareBlock | None) -> tuple[int, ...]:
        conn = self._check_claim(p, action, declared)
        self._spend(p, self._cards_of(conn, action))
        return self._take(p, conn)

    def _check_claim(self, p: int, action: Claim, declared: DeclareBlock | None) -> Connection:
        """The connection ``action`` claims (``declared``: as that block), or
        :class:`IllegalAction` with the reason."""
        if self.drawn:
            raise IllegalAction("a turn that began by drawing cards cannot claim")
        if not 0 <= action.connection < len(self.board.connections):
            raise IllegalAction(f"no connection {action.connection} on {self.board.name}")
        conn = self.board.connections[action.connection]
        if (why := self.claimable(p, conn)) is not None:
            raise IllegalAction(why)
        if action not in self.payments(p, conn):
            raise IllegalAction(self._why_unpaid(p, conn, action))
        if (why := self._claim_refused(p, action, declared)) is not None:
            raise IllegalAction(why)
        return conn

    @staticmethod
    def _cards_of(conn: Connection, action: Claim) -> list[int]:
        paid = [LOCO] * action.locomotives
        if action.colour is not None:
            paid += [action.colour] * (conn.length - action.locomotives)
        return paid

    def _spend(self, p: int, paid: list[int]) -> None:
        """Move ``paid`` from ``p``'s hand to the discard pile."""
        hand = self.hands[p]
        for card in paid:
            hand[card] -= 1
        self.discard += paid
        self._refill_row()

    def _take(self, p: int, conn: Connection) -> tuple[int, ...]:
        """``p`` now owns ``conn``: trains placed, tickets it finishes (returned) marked."""
        self.owner[conn.id] = p
        self.oracle.claimed(conn.id, p)
        self.trains[p] -= conn.length
        adj = self._adjacent[p]
        adj.setdefault(conn.a, set()).add(conn.b)
        adj.setdefault(conn.b, set()).add(conn.a)
        done = tuple(t.id for t in self.unfinished(p) if self._joined(p, t.a, t.b))
        self.finished[p].update(done)
        return done

    def _why_unpaid(self, p: int, conn: Connection, action: Claim) -> str:
        need = colour_of(conn.colour)
        if action.locomotives < conn.ferry:
            return f"{conn} is a ferry and needs at least {conn.ferry} locomotive(s)"
        if action.colour is not None and need is not None and action.colour != need:
            return f"{conn} must be paid in {conn.colour}"
        if not 0 <= action.locomotives <= conn.length:
            return f"{conn} takes {conn.length} cards, not {action.locomotives} locomotives"
        if action.colour is not None and action.locomotives == conn.length:
            return (f"{conn} paid with {conn.length} locomotives names no colour: give colour "
                    "None")
        if action.colour is None and action.locomotives != conn.length:
            return f"name a colour for the {conn.length - action.locomotives} non-locomotive cards"
        return f"player {p}'s hand cannot pay for {conn} that way"

    def _joined(self, p: int, a: str, b: str) -> bool:
        adj = self._adjacent[p]
        if a not in adj or b not in adj:
            return False
        seen, todo = {a}, [a]
        while todo:
            for nxt in adj[todo.pop()]:
                if nxt == b:
                    return True
                if nxt not in seen:
                    seen.add(nxt)
                    todo.append(nxt)
        return False

    def _take_face_up(self, slot: int) -> int:
        card = self.face_up[slot] if 0 <= slot < len(self.face_up) else None
        if card is None:
            raise IllegalAction(f"face-up slot {slot} is empty or does not exist")
        if not takeable(card, self.drawn):
            raise IllegalAction("a face-up locomotive cannot be the second card of a turn")
        self.hands[self.current][card] += 1
        self.drawn += 1
        self.face_up[slot] = self._take_from_pile()
        self._fix_locomotive_row()
        return card

    def _after_draw(self, took_face_up_locomotive: bool) -> bool:
        """Whether the turn is over after a draw: a face-up locomotive is the whole turn, two
        cards are, and so is one card when no second card may be drawn."""
        if took_face_up_locomotive or self.drawn >= 2:
            return True
        second = self.pile or self.discard or any(c not in (None, LOCO) for c in self.face_up)
        return not second

    def _take_from_pile(self) -> int | None:
        if not self.pile and self.discard:
            self.pile, self.discard = self.discard, []
            self.rng.shuffle(self.pile)
        return self.pile.pop() if self.pile else None

    def _refill_row(self) -> None:
        """Lay cards on empty face-up slots and redeal a row of too many locomotives: after
        every payment, since spent cards coming back may make either possible again. Slots
        empty only when the pile and the discard pile ran dry, and the cards must reach the row
        again, or it would shrink for the rest of the game; and the rulebook redeals three
        face-up locomotives "at any time", so a row left for want of other cards is redealt
        as soon as a claim brings them back (it once stayed, in 2 of 5,000 games)."""
        self.face_up = [self._take_from_pile() if c is None else c for c in self.face_up]
        self._fix_locomotive_row()

    def _fix_locomotive_row(self) -> None:
        """Too many face-up locomotives: discard the row and lay a new one, unless the cards left
        could never make a row with fewer (then the row stays as it is)."""
        limit = self.rules.face_up_locomotive_limit
        while sum(c == LOCO for c in self.face_up) >= limit:
            spare = sum(c != LOCO for c in self.pile) + sum(c != LOCO for c in self.discard)
            spare += sum(c not in (None, LOCO) for c in self.face_up)
            if spare < len(self.face_up) - limit + 1:
                return
            self.discard += [c for c in self.face_up if c is not None]
            self.face_up = [self._take_from_pile() for _ in self.face_up]

    def _end_turn(self, p: int, claimed: bool, completed_all: bool) -> None:
        """Count the turn and pass the move on; end the game by tickets, the last round, or
        a stall, as the rule set says. (The simplified game's third end is the position's:
        see ``game.state.GameState.end_reason``.)"""
        n = self.rules.players
        self.turn += 1
        self.drawn = 0
        if completed_all and self._ends_when_tickets_done():
            self._ended = END_TICKETS
            return
        if self.final_turns_left is not None:
            self.final_turns_left -= 1
            if self.final_turns_left == 0:
                self._ended = END_TRAINS
                return
        elif claimed and self.trains[p] <= self.rules.endgame_trains:
            self.final_turns_left = self._last_round_turns()
        if self._stalled():
            self._ended = END_STALEMATE
            return
        self.current = (p + 1) % n
