"""The state of one game: ``legal_actions()``, ``apply(action)``, ``is_terminal()``, ``scores()``.

As in OpenSpiel, the rules are immutable and the state changes only through ``apply``, which
returns the :class:`Event` it caused. Every random choice (deals, shuffles) comes from the one
``random.Random`` seeded at creation, so a seed and the list of actions replay a game exactly.
"""

from __future__ import annotations

import copy
import random
from collections.abc import Callable, Collection
from dataclasses import dataclass

from boards import Board, Connection, Ticket
from game.actions import Action, Claim, DrawDeck, DrawFaceUp, Pass
from game.cards import LOCO, N_CARD_TYPES, colour_of
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

#: Who knows which opponent holds which ticket: for a player, the (opponent, ticket id) pairs it
#: knows. Knowledge lives outside the rules (``agents`` keeps the Kripke model); the rules ask
#: it because a block is allowed only of a ticket the blocker knows.
Knows = Callable[[int], Collection[tuple[int, int]]]


def nobody_knows(player: int) -> Collection[tuple[int, int]]:
    """The rules without a knowledge model (the bare engine): no one may declare a block."""
    return ()


class IllegalAction(ValueError):
    """An action the rules do not allow now; the message says why."""


@dataclass(frozen=True)
class Event:
    """What one applied action did. ``cards`` are the cards the player received by a draw
    (empty for claims and passes); ``completed`` the tickets the action finished; ``tickets``
    the tickets a ticket draw offered (standard rules); ``revealed`` the pile cards a tunnel
    claim turned over; ``end_reason`` the end the action itself brought (the last round over,
    or all of a player's tickets finished; the simplified game's third end is the position's,
    see ``GameState.end_reason``)."""

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


class GameState:
    """A game in progress. Create with ``GameState(rules, seed)``; it deals at once.

    A claim is allowed only on a shortest path of one of the claimant's own unfinished tickets,
    or as a block: on an opponent's shortest path for an unfinished ticket the claimant knows
    that opponent holds (see :attr:`game.view.PlayerView.allowed`). ``knows`` says who knows
    what (set it before play; the default, nobody knows anything, allows no block).
    """

    #: The simplified game: the last round gives every *other* player one more turn, and a
    #: player who finishes all its tickets ends the game at once.
    last_round_turns_include_trigger = False
    ends_when_tickets_done = True
    #: The design notes' rule: a claim only for one's own tickets or as a declared block, and
    #: the game ends when no one can ever make such a claim again.
    allowed_claims_only = True

    def __init__(self, rules: Rules, seed: int, knows: Knows = nobody_knows):
        self.knows = knows
        self._deal_cards(rules, seed)
        n = rules.players
        dealt = self.rng.sample(range(len(rules.board.tickets)), n * rules.tickets_each)
        k = rules.tickets_each
        self.tickets: tuple[tuple[Ticket, ...], ...] = tuple(
            tuple(rules.board.tickets[t] for t in sorted(dealt[p * k:(p + 1) * k]))
            for p in range(n))
        self._start_table()

    def _deal_cards(self, rules: Rules, seed: int) -> None:
        """Seed the game's generator, shuffle the train cards, deal each hand, lay the face-up
        row (the generator's first draws, in the same order for every rule set)."""
        self.rules = rules
        self.seed = seed
        self.rng = random.Random(seed)
        deck = [c for c in range(LOCO) for _ in range(rules.cards_per_colour)]
        deck += [LOCO] * rules.locomotives
        self.rng.shuffle(deck)
        self.pile: list[int] = deck
        self.discard: list[int] = []
        self.hands: list[list[int]] = [[0] * N_CARD_TYPES for _ in range(rules.players)]
        for p in range(rules.players):
            for _ in range(rules.initial_hand):
                self.hands[p][self.pile.pop()] += 1
        self.face_up: list[int | None] = [self.pile.pop() for _ in range(rules.face_up)]
        self._fix_locomotive_row()

    def _start_table(self) -> None:
        """Empty board, full train stocks, first player to move."""
        n = self.rules.players
        self.finished: list[set[int]] = [set() for _ in range(n)]
        self.trains: list[int] = [self.rules.start_trains] * n
        self.owner: list[int | None] = [None] * len(self.board.connections)
        self._adjacent: list[dict[str, set[str]]] = [{} for _ in range(n)]
        self.oracle = PathOracle(self.board, self.rules.doubles_both_usable)
        self._dealt: tuple[tuple[tuple[Ticket, ...], ...], frozenset[int]] | None = None
        self.current = 0
        self.turn = 0
        self.drawn = 0  # cards drawn so far in the current turn
        self.final_turns_left: int | None = None
        self._ended: str | None = None  # how an action ended the game (see end_reason)
        self._own_check: tuple[tuple[object, ...], bool] | None = None  # last checks, keys
        self._end_check: tuple[tuple[object, ...], bool] | None = None
        self.history: list[Event] = []

    # ----- queries -------------------------------------------------------------------------

    @property
    def board(self) -> Board:
        return self.rules.board

    @property
    def dealt_tickets(self) -> tuple[Ticket, ...]:
        """All dealt tickets, ordered by id: common knowledge in the simplified game."""
        return tuple(sorted((t for ts in self.tickets for t in ts), key=lambda t: t.id))

    @property
    def end_reason(self) -> str | None:
        """Why the game is over, or ``None`` while it goes on.

        The last round and a player finishing its tickets end the game with the action that
        does it. The simplified game's third end, no player can ever make an allowed claim
        again, depends on what the players know, which a turn's announcements change after its
        actions; so it is decided between turns, from the position and ``knows`` as they are
        when asked.
        """
        if self._ended is None and self.allowed_claims_only and self.drawn == 0 \
                and self._no_claim_ever_cached():
            return END_STALEMATE
        return self._ended

    def _no_claim_ever_cached(self) -> bool:
        """:meth:`_no_claim_ever`, asked again only when something it reads has changed (it is
        asked several times a turn): owners, trains, finished tickets, and the hands only once
        no card can be drawn (so draws, the most common action, never ask it again). Most of a
        game some player can still claim for its own tickets, which needs no knowledge; only
        when none can are the players' knowledge (which can be costly to read on a big deal)
        and their blocks asked."""
        can_draw = self.can_draw()
        key: tuple[object, ...] = (
            tuple(self.owner), tuple(self.trains), tuple(map(len, self.finished)), can_draw,
            None if can_draw else tuple(map(tuple, self.hands)))
        if self._own_check is None or self._own_check[0] != key:
            self._own_check = (key, self._own_claim_possible(can_draw))
        if self._own_check[1]:
            return False
        key += (tuple(tuple(self.knows(q)) for q in range(self.rules.players)),)
        if self._end_check is None or self._end_check[0] != key:
            self._end_check = (key, self._no_claim_ever())
        return self._end_check[1]

    def _own_claim_possible(self, can_draw: bool) -> bool:
        """Whether some player may still claim for its own tickets (now, or after drawing)."""
        for q in range(self.rules.players):
            view = self._view(q, over=False, known=())
            for c in view.own_connections():
                if view.open_to_me(c) and (can_draw or self.payments(q, self.board.connections[c])):
                    return True
        return False

    def is_terminal(self) -> bool:
        return self.end_reason is not None

    def unfinished(self, player: int) -> tuple[Ticket, ...]:
        return tuple(t for t in self.tickets[player] if t.id not in self.finished[player])

    def paths(self, player: int, ticket: Ticket) -> ShortestPaths | None:
        """The public shortest paths of ``player`` for ``ticket`` on the board as it is now
        (cached until a claim changes them; see :class:`game.distances.PathOracle`)."""
        return self.oracle.ticket_paths(player, ticket)

    def own_connections(self, player: int) -> set[int]:
        """Unclaimed connections on a shortest path of ``player``'s unfinished tickets."""
        return self._view(player, over=False).own_connections()

    def block_targets(self, player: int) -> dict[tuple[int, int], frozenset[int]]:
        """The blocks ``player`` may declare (see :meth:`PlayerView.block_targets`)."""
        return self._view(player, over=False).block_targets()

    def allowed_connections(self, player: int) -> set[int]:
        """Every connection ``player`` may claim now, cards aside: allowed by the rules (for its
        own tickets or as a block) and open to it (unclaimed, enough trains, the doubles
        rule)."""
        view = self._view(player, over=False)
        allowed = view.allowed if view.allowed is not None else range(len(self.owner))
        return {c for c in allowed if view.open_to_me(c)}

    def _no_claim_ever(self) -> bool:
        """The design notes' third end condition. Claims are the only moves that change owners,
        trains, finished tickets or (through their announcements) knowledge; so once no player
        has an allowed connection open to it, or no card is left to draw and no hand pays for
        an allowed claim, no player can ever claim again and only draws could follow."""
        can_draw = self.can_draw()
        for q in range(self.rules.players):
            for c in self.allowed_connections(q):
                if can_draw or self.payments(q, self.board.connections[c]):
                    return False
        return True

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

    def observation(self, player: int) -> PlayerView:
        """What ``player`` may see: its own hand and tickets, and the public rest (in the
        simplified game the dealt tickets and every completion are public)."""
        return self._view(player, over=self.is_terminal())

    def _view(self, player: int, over: bool,
              known: tuple[tuple[int, int], ...] | None = None) -> PlayerView:
        """``player``'s view with ``over`` (and ``known``, else asked) given: the rules' own
        questions (which claims are allowed, hence whether the game is over) read views that
        must not ask it back."""
        n = self.rules.players
        return PlayerView(
            rules=self.rules, player=player, hand=tuple(self.hands[player]),
            tickets=self.tickets[player], finished=frozenset(self.finished[player]),
            offer=(), keep_at_least=0, owner=tuple(self.owner), trains=tuple(self.trains),
            hand_sizes=tuple(map(sum, self.hands)), ticket_counts=tuple(map(len, self.tickets)),
            face_up=tuple(self.face_up), pile_size=len(self.pile),
            discard_size=len(self.discard), ticket_pile_size=0, current=self.current,
            drawn=self.drawn, turn=self.turn, setup=False,
            final_round=self.final_turns_left is not None, over=over,
            claims=self.oracle.version, tunnel=None, stations=(),
            dealt=self._dealt_ids(), finished_by=tuple(map(frozenset, self.finished[:n])),
            known=tuple(self.knows(player)) if known is None else known, paths=self.oracle)

    def _dealt_ids(self) -> frozenset[int]:
        """The dealt tickets' ids, kept while the deal stays the same (every view asks)."""
        if self._dealt is None or self._dealt[0] is not self.tickets:
            self._dealt = (self.tickets, frozenset(t.id for ts in self.tickets for t in ts))
        return self._dealt[1]

    def clone(self) -> GameState:
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
        new.history = self.history.copy()  # ``knows`` is shared: the copy asks the same table
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

    def legal_action_count(self) -> int:
        """The number of legal actions of the player to move (the design lab's game arc)."""
        return 0 if self.is_terminal() else self.observation(self.current).legal_action_count()

    # ----- transitions ---------------------------------------------------------------------

    def apply(self, action: Action) -> Event:
        """Apply the current player's ``action``; raise :class:`IllegalAction` with the reason
        if the rules forbid it. Returns the event, also appended to ``history``."""
        if (ended := self.end_reason) is not None:
            raise IllegalAction(f"the game is over ({END_REASONS[ended]})")
        p, turn = self.current, self.turn
        cards: tuple[int, ...] = ()
        completed: tuple[int, ...] = ()
        if isinstance(action, Claim):
            completed = self._claim(p, action)
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
        event = Event(len(self.history), turn, p, action, cards, completed, turn_over,
                      self._ended)
        self.history.append(event)
        return event

    def _claim(self, p: int, action: Claim) -> tuple[int, ...]:
        conn = self._check_claim(p, action)
        self._spend(p, self._cards_of(conn, action))
        return self._take(p, conn)

    def _check_claim(self, p: int, action: Claim) -> Connection:
        """The connection ``action`` claims, or :class:`IllegalAction` with the reason."""
        if self.drawn:
            raise IllegalAction("a turn that began by drawing cards cannot claim")
        if not 0 <= action.connection < len(self.board.connections):
            raise IllegalAction(f"no connection {action.connection} on {self.board.name}")
        conn = self.board.connections[action.connection]
        if (why := self.claimable(p, conn)) is not None:
            raise IllegalAction(why)
        if action not in self.payments(p, conn):
            raise IllegalAction(self._why_unpaid(p, conn, action))
        if self.allowed_claims_only and not self._view(p, over=False).claim_allowed(conn.id):
            raise IllegalAction(f"{conn} lies on no shortest path of player {p}'s unfinished "
                                "tickets nor of an opponent's ticket it knows: a claim is "
                                "allowed only for one's own tickets or as a declared block")
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
        if card == LOCO and self.drawn:
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
        (standard game) a stall. (The simplified game's third end is the position's: see
        :attr:`end_reason`.)"""
        n = self.rules.players
        self.turn += 1
        self.drawn = 0
        if completed_all and self.ends_when_tickets_done:
            self._ended = END_TICKETS
            return
        if self.final_turns_left is not None:
            self.final_turns_left -= 1
            if self.final_turns_left == 0:
                self._ended = END_TRAINS
                return
        elif claimed and self.trains[p] <= self.rules.endgame_trains:
            self.final_turns_left = n if self.last_round_turns_include_trigger else n - 1
        if self._stalled():
            self._ended = END_STALEMATE
            return
        self.current = (p + 1) % n

    def _stalled(self) -> bool:
        """Whether the turn just ended leaves nothing to change (the standard game's end).
        Never in the simplified game: there :meth:`_no_claim_ever` ends it, exactly and
        earlier."""
        return False
