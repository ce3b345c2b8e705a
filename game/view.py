"""What one player may see, in either game: its own hand, tickets and ticket offer, and the
public table (owners, trains, card and ticket counts, the face-up row, pile sizes, the public
paths).

Every policy receives this view, never the game state (OpenSpiel's observer split), so no
policy can peek at another player's cards or tickets. The legal actions are computed here from
the view alone (the state of either game asks the current player's view for them, so what a
policy is offered and what the rules accept are one computation; in the simplified game that
includes the declared blocks, :meth:`PlayerView.declarations`). The simplified game fills the
fields only it has (the dealt tickets, everyone's finished tickets: both common knowledge
there; which opponents' tickets the player knows, since a block is allowed only of those) and
leaves the standard game's empty (no offer, no ticket pile, no tunnel). The open game fills the
same fields and which opponents' tickets the player believes: there any claim is legal, and a
block is of a believed ticket.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field
from functools import cached_property

from boards import Board, Ticket
from game.actions import (
    Action,
    BuildStation,
    Claim,
    DeclareBlock,
    DrawDeck,
    DrawFaceUp,
    DrawTickets,
    KeepTickets,
    Pass,
    TunnelGiveUp,
    TunnelPay,
)
from game.cards import takeable
from game.claims import (
    FREE,
    claim_blocked,
    hand_can_pay,
    hand_payments,
    payment_count,
    station_payments,
    tunnel_payments,
    why_unclaimable,
)
from game.distances import Distances, PathOracle
from game.paths import ShortestPaths
from game.rules import OpenRules, Rules
from game.standard_rules import StandardRules


@dataclass(frozen=True, init=False)
class PlayerView:
    """One player's observation."""

    rules: Rules
    player: int
    hand: tuple[int, ...]
    tickets: tuple[Ticket, ...]  # kept, in id order
    finished: frozenset[int]  # ids of its kept tickets that its connections join
    offer: tuple[Ticket, ...]  # tickets it must now choose from (setup or a ticket draw)
    keep_at_least: int  # how many of the offer it must keep
    owner: tuple[int | None, ...]
    trains: tuple[int, ...]
    hand_sizes: tuple[int, ...]
    ticket_counts: tuple[int, ...]  # kept tickets per player (known once setup is over)
    face_up: tuple[int | None, ...]
    pile_size: int
    discard_size: int
    ticket_pile_size: int
    current: int
    drawn: int  # cards drawn so far this turn
    turn: int
    setup: bool  # players are still choosing their first tickets
    final_round: bool  # a player has run low on trains: everyone has one turn left
    over: bool
    claims: int  # connections claimed so far (the board picture this view shows)
    tunnel: tuple[int, int | None, int] | None  # a tunnel claim waiting for extra cards:
    # (connection, the colour that pays them or None for locomotives only, how many)
    stations: tuple[tuple[str, int], ...]  # Europe: (city, player) of every station built
    dealt: frozenset[int]  # the dealt tickets' ids where they are common knowledge (simplified)
    finished_by: tuple[frozenset[int] | None, ...]  # each player's finished tickets where
    # public (simplified: everyone's, announced; standard: its own only, None for the others)
    known: tuple[tuple[int, int], ...]  # (opponent, ticket) pairs this player knows (simplified:
    # from the shared Kripke model; a block is allowed only of these; standard: none)
    paths: PathOracle = field(compare=False, repr=False)  # public: owners only
    believed: tuple[tuple[int, int], ...] = ()  # (opponent, ticket) pairs this player believes
    # (the open game: from the ranked shared model; a block is allowed only of these; else none)

    def __init__(self, *, rules: Rules, player: int, hand: tuple[int, ...],
                 tickets: tuple[Ticket, ...], finished: frozenset[int],
                 offer: tuple[Ticket, ...], keep_at_least: int, owner: tuple[int | None, ...],
                 trains: tuple[int, ...], hand_sizes: tuple[int, ...],
                 ticket_counts: tuple[int, ...], face_up: tuple[int | None, ...],
                 pile_size: int, discard_size: int, ticket_pile_size: int, current: int,
                 drawn: int, turn: int, setup: bool, final_round: bool, over: bool,
                 claims: int, tunnel: tuple[int, int | None, int] | None,
                 stations: tuple[tuple[str, int], ...], dealt: frozenset[int],
                 finished_by: tuple[frozenset[int] | None, ...],
                 known: tuple[tuple[int, int], ...], paths: PathOracle,
                 believed: tuple[tuple[int, int], ...] = ()) -> None:
        """Every field by keyword, stored in one step. (A view is made for every action of
        every game; the frozen dataclass's own ``__init__`` sets its 29 fields one
        ``object.__setattr__`` at a time, a third of the cost of a view. The instance stays
        frozen: only this constructor writes it.)"""
        self.__dict__.update(
            rules=rules, player=player, hand=hand, tickets=tickets, finished=finished,
            offer=offer, keep_at_least=keep_at_least, owner=owner, trains=trains,
            hand_sizes=hand_sizes, ticket_counts=ticket_counts, face_up=face_up,
            pile_size=pile_size, discard_size=discard_size, ticket_pile_size=ticket_pile_size,
            current=current, drawn=drawn, turn=turn, setup=setup, final_round=final_round,
            over=over, claims=claims, tunnel=tunnel, stations=stations, dealt=dealt,
            finished_by=finished_by, known=known, believed=believed, paths=paths)

    @cached_property
    def board(self) -> Board:  # asked for on every payment a policy considers
        return self.rules.board

    @property
    def my_trains(self) -> int:
        return self.trains[self.player]

    def unfinished(self) -> tuple[Ticket, ...]:
        return tuple(t for t in self.tickets if t.id not in self.finished)

    @property
    def dealt_tickets(self) -> tuple[Ticket, ...]:
        """The dealt tickets (simplified game), ordered by id."""
        return tuple(self.board.tickets[t] for t in sorted(self.dealt))

    def ticket_paths(self, player: int, ticket: Ticket) -> ShortestPaths | None:
        """``player``'s public shortest paths for ``ticket`` on the board this view shows."""
        return self.paths.ticket_paths(player, ticket, self.claims, self.owner)

    def distances(self, min_length: int = 1) -> Distances:
        """This player's fewest-trains distances (see :mod:`game.distances`) on the board as
        this view shows it, also when the game has moved on since."""
        return self.paths.distances(self.player, min_length, self.claims, self.owner)

    def own_connections(self) -> frozenset[int]:
        """Unclaimed connections on a shortest path of one of this player's unfinished tickets:
        the claims it may make for itself."""
        return self._own

    @cached_property
    def _own(self) -> frozenset[int]:  # asked for every claim the view lists
        out: set[int] = set()
        for ticket in self.unfinished():
            found = self.ticket_paths(self.player, ticket)
            if found is not None:
                out |= found.connections
        return frozenset(c for c in out if self.owner[c] is None)

    def block_targets(self) -> dict[tuple[int, int], frozenset[int]]:
        """The blocks this player may declare: for each (opponent, ticket) it knows
        (simplified game) or believes (open game), while the ticket is unfinished (completions
        are public) and still reachable, the unclaimed connections on that opponent's
        shortest paths for it, in (opponent, ticket) order."""
        return dict(self._targets)

    def known_targets(self) -> dict[tuple[int, int], frozenset[int]]:
        """As :meth:`block_targets`, for the tickets this player *knows* only: what an agent
        that acts on knowledge alone blocks (the same in the simplified game; in the open game
        a subset, since what one knows one believes)."""
        return dict(self._targets_of(self.known))

    @cached_property
    def _targets(self) -> tuple[tuple[tuple[int, int], frozenset[int]], ...]:
        return self._targets_of(self.believed if isinstance(self.rules, OpenRules)
                                else self.known)

    def _targets_of(self, pairs: tuple[tuple[int, int], ...]
                    ) -> tuple[tuple[tuple[int, int], frozenset[int]], ...]:
        out = []
        for victim, t in sorted(pairs):
            if t in (self.finished_by[victim] or ()):
                continue
            found = self.ticket_paths(victim, self.board.tickets[t])
            if found is not None:
                out.append(((victim, t), frozenset(c for c in found.connections
                                                   if self.owner[c] is None)))
        return tuple(out)

    @cached_property
    def allowed(self) -> frozenset[int] | None:
        """The connections the rules let this player claim, cards and openness aside. In the
        simplified game only those for its own tickets or, declared as a block, on an opponent's
        shortest path for a ticket it knows (the design notes' rule, also when no card is left
        to draw); ``None`` in the standard and the open game, where any connection may be
        claimed."""
        if isinstance(self.rules, StandardRules | OpenRules):
            return None
        return self._own.union(*(conns for _, conns in self._targets))

    def declarations(self, claim: Claim) -> list[Claim | DeclareBlock]:
        """The legal actions that make ``claim`` (one this view offers): the claim itself where
        the rules take it plain (for the player's own tickets; any claim in the standard game),
        and a :class:`DeclareBlock` of each known ticket on whose shortest path it lies, in
        (opponent, ticket) order. The rules take a claim off one's own paths only declared, so
        the simplified game's every claim says what it is for. The open game takes any claim
        plain, and declared as a block of each believed ticket on whose path it lies."""
        if isinstance(self.rules, StandardRules):
            return [claim]
        c = claim.connection
        plain: list[Claim | DeclareBlock] = \
            [claim] if c in self._own or isinstance(self.rules, OpenRules) else []
        return plain + [DeclareBlock(claim, victim, t)
                        for (victim, t), conns in self._targets if c in conns]

    def claim_allowed(self, connection: int) -> bool:
        """Whether the rules allow this player a claim of ``connection`` (cards aside; see
        :attr:`allowed`)."""
        return self.allowed is None or connection in self.allowed

    def why_unclaimable(self, connection: int) -> str | None:
        return why_unclaimable(self.board, self.owner, self.my_trains, self.player,
                               self.board.connections[connection],
                               self.rules.doubles_both_usable)

    def open_to_me(self, connection: int) -> bool:
        """Whether the rules let this player take ``connection`` (cards aside)."""
        return claim_blocked(self.board, self.owner, self.my_trains, self.player,
                             self.board.connections[connection],
                             self.rules.doubles_both_usable) == FREE

    def payments(self, connection: int) -> list[Claim]:
        """Every way this player may pay for ``connection`` now, fewest locomotives first."""
        conn = self.board.connections[connection]
        if not (self._may_claim() and hand_can_pay(conn, self.hand)
                and self.open_to_me(connection) and self.claim_allowed(connection)):
            return []
        return hand_payments(conn, self.hand)

    @property
    def can_draw_deck(self) -> bool:
        return self._free() and bool(self.pile_size or self.discard_size)

    def face_up_slots(self) -> list[int]:
        """Face-up slots this player may take now (no locomotive as a second card)."""
        if not self._free():
            return []
        return [s for s, c in enumerate(self.face_up) if takeable(c, self.drawn)]

    @property
    def can_draw_tickets(self) -> bool:
        return self._may_claim() and self.ticket_pile_size > 0

    def keep_choices(self) -> list[KeepTickets]:
        """Every legal choice of tickets to keep from the offer, larger sets first."""
        ids = [t.id for t in self.offer]
        least = min(self.keep_at_least, len(ids))
        return [KeepTickets(kept) for size in range(len(ids), least - 1, -1)
                for kept in itertools.combinations(ids, size)]

    def claim_choices(self) -> list[Claim]:
        """Each claim this player may make now, once, whatever it may be declared as (every
        way to pay for every connection the rules let it take, in board order): what a policy
        plans with before it picks the :meth:`declarations` to play one as."""
        if not self._may_claim():
            return []
        return [claim for conn in self.board.connections for claim in self.payments(conn.id)]

    def legal_actions(self) -> list[Action]:
        """This player's legal actions now (``[]`` when it is not its turn), exactly those the
        state's ``apply`` accepts from it: the tickets to keep of an offer, or a waiting
        tunnel's payments, else each claim as its :meth:`declarations`, the draws, a ticket
        draw and the stations; a pass when nothing else is legal."""
        if not self._to_move():
            return []
        if self.offer:
            return list(self.keep_choices())
        if self.tunnel:
            return [*self.tunnel_choices(), TunnelGiveUp()]
        actions: list[Action] = [action for claim in self.claim_choices()
                                 for action in self.declarations(claim)]
        actions += self._draws_and_stations()
        return actions or [Pass()]

    def _draws_and_stations(self) -> list[Action]:
        """The legal actions that are not claims (none unless the turn is free)."""
        actions: list[Action] = [DrawFaceUp(s) for s in self.face_up_slots()]
        if self.can_draw_deck:
            actions.append(DrawDeck())
        if self.can_draw_tickets:
            actions.append(DrawTickets())
        return actions + self.station_choices()

    def offers(self, action: Action) -> bool:
        """Whether ``action`` is one of :meth:`legal_actions`, building only the part of the
        list it could be in: the state asks this of every action it applies, and listing
        every payment of every connection each time cost a quarter of a game's time."""
        if isinstance(action, Claim | DeclareBlock):
            claim = action.claim if isinstance(action, DeclareBlock) else action
            return (0 <= claim.connection < len(self.board.connections)
                    and claim in self.payments(claim.connection)
                    and action in self.declarations(claim))
        if isinstance(action, DrawFaceUp | DrawDeck | DrawTickets | BuildStation):
            return action in self._draws_and_stations()
        return action in self.legal_actions()

    def move_count(self) -> int:
        """How many moves are open to the player to move, a claim counted once however it may
        be declared (:meth:`claim_choices`), without building them: the design lab's game arc counts
        them on every turn of thousands of games."""
        if not self._to_move():
            return 0
        if self.offer:
            return len(self.keep_choices())
        if self.tunnel:
            return len(self.tunnel_choices()) + 1
        count = 0
        if self._may_claim():
            for conn in self.board.connections:
                if self.open_to_me(conn.id) and self.claim_allowed(conn.id):
                    count += payment_count(conn, self.hand)
        count += len(self.face_up_slots()) + self.can_draw_deck + self.can_draw_tickets
        count += len(self.station_choices())
        return count or 1

    def station_choices(self) -> list[BuildStation]:
        """Every station this player may build now and every way to pay for it (Europe)."""
        if not self._may_claim() or not self._stations_left():
            return []
        taken = {city for city, _ in self.stations}
        cost = self._stations_built() + 1
        return [choice for city in self.board.city_names if city not in taken
                for choice in station_payments(self.hand, city, cost)]

    def _stations_built(self) -> int:
        return sum(who == self.player for _, who in self.stations)

    def _stations_left(self) -> int:
        allowed = self.rules.stations if isinstance(self.rules, StandardRules) else 0
        return allowed - self._stations_built()

    def tunnel_choices(self) -> list[TunnelPay]:
        """The ways to pay a waiting tunnel's extra cards (empty when the hand cannot)."""
        if not self.tunnel:
            return []
        _, colour, extra = self.tunnel
        return tunnel_payments(self.hand, colour, extra)

    def _to_move(self) -> bool:
        return not self.over and self.current == self.player

    def _free(self) -> bool:
        """To move, with no ticket choice or tunnel payment pending."""
        return self._to_move() and not self.offer and not self.tunnel

    def _may_claim(self) -> bool:
        """Claims and ticket draws open a turn; they are not allowed after a card draw."""
        return self._free() and not self.setup and self.drawn == 0
