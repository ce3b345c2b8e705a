"""A standard game in progress: the published rules, a second rule set on the shared table.

What differs from the simplified game (:class:`game.state.GameState`): tickets are dealt from
the board's shuffled ticket pile (three each, keep at least two, chosen in seat order before the
first turn), a turn may draw tickets (take three, keep at least one, the rest go under the
pile), kept tickets are hidden and finishing them ends nothing, the last round gives every
player one more turn (the one who triggered it included), and the score adds the longest-path
bonus. Ties on score go to the player with more finished tickets, then to the longest-path
holder (the rulebook); players still tied share the win. Train cards, claims, doubles and the
face-up row are the shared table's (:class:`game.table.TableState`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Self

from boards import Ticket
from game.actions import (
    Action,
    BuildStation,
    Claim,
    DeclareBlock,
    DrawTickets,
    KeepTickets,
    TunnelGiveUp,
    TunnelPay,
)
from game.cards import LOCO
from game.claims import station_payments, tunnel_payments
from game.standard_rules import StandardRules
from game.stations import best_finished
from game.table import END_REASONS, Event, IllegalAction, ScoreParts, TableState, win_shares
from game.trail import longest_trail
from game.view import PlayerView


@dataclass(frozen=True)
class TunnelBid:
    """A tunnel claim waiting for its extra cards: the claim, the cards played (set aside),
    the colour that pays the extras (``None``: locomotives only) and how many."""

    claim: Claim
    paid: tuple[int, ...]
    colour: int | None
    extra: int


class StandardState(TableState):
    """A standard game. Create with ``StandardState(rules, seed)``; it deals at once, and the
    players first choose their tickets (``KeepTickets``) in seat order."""

    rules: StandardRules

    def __init__(self, rules: StandardRules, seed: int):
        super().__init__(rules, seed)
        order = list(range(len(rules.board.tickets)))
        self.rng.shuffle(order)
        self.ticket_pile: list[int] = order  # ticket ids; the last one is the top
        self.offers: list[tuple[int, ...]] = [self._take_tickets(rules.tickets_each)
                                              for _ in range(rules.players)]
        self.setup = True
        self.tunnel: TunnelBid | None = None
        self.stations: dict[str, int] = {}  # Europe: city -> the player whose station it is
        self._longest: tuple[int, list[int]] | None = None

    # ----- what players see ----------------------------------------------------------------

    def observation(self, player: int) -> PlayerView:
        """Everything ``player`` may see: its own cards, tickets and offer, the public rest."""
        others = self.rules.players - player - 1
        return self._player_view(
            player, self.is_terminal(),
            ticket_counts=tuple(map(len, self.offers if self.setup else self.tickets)),
            finished_by=(None,) * player + (frozenset(self.finished[player]),) + (None,) * others,
            offer=tuple(map(self.board.tickets.__getitem__, self.offers[player])),
            keep_at_least=self._keep_least(), ticket_pile_size=len(self.ticket_pile),
            setup=self.setup, tunnel=None if self.tunnel is None or player != self.current else (
                self.tunnel.claim.connection, self.tunnel.colour, self.tunnel.extra),
            stations=tuple(sorted(self.stations.items())) if self.stations else ())

    def clone(self) -> Self:
        new = super().clone()
        new.ticket_pile, new.offers = self.ticket_pile.copy(), self.offers.copy()
        new.stations = dict(self.stations)
        return new

    def total_cards(self) -> int:
        """Every train card, the ones played on a tunnel that waits for extra cards included."""
        return super().total_cards() + (len(self.tunnel.paid) if self.tunnel else 0)

    # ----- scoring -------------------------------------------------------------------------

    def longest_paths(self) -> list[int]:
        """Each player's longest continuous path in trains (exact; cached until a claim)."""
        if self._longest is None or self._longest[0] != self.oracle.version:
            edges: list[list[tuple[str, str, int]]] = [[] for _ in range(self.rules.players)]
            for c in self.board.connections:
                who = self.owner[c.id]
                if who is not None:
                    edges[who].append((c.a, c.b, c.length))
            self._longest = (self.oracle.version, [longest_trail(e) for e in edges])
        return self._longest[1]

    def longest_holders(self) -> frozenset[int]:
        """Players tied for the longest continuous path (none while nobody has a connection)."""
        lengths = self.longest_paths()
        best = max(lengths)
        return frozenset(p for p, n in enumerate(lengths) if n == best and best > 0)

    def station_cities(self, player: int) -> list[str]:
        return [city for city, who in self.stations.items() if who == player]

    def final_finished(self, player: int) -> frozenset[int]:
        """The tickets that count as finished at the end: joined by the player's own
        connections, or with the best use of its stations (Europe)."""
        cities = self.station_cities(player)
        if not cities:
            return frozenset(self.finished[player])
        return best_finished(self.board, self.owner, player, self.tickets[player], cities)

    def score_parts(self, player: int) -> ScoreParts:
        base = super().score_parts(player)
        done = self.final_finished(player)
        points = sum(t.points for t in self.tickets[player] if t.id in done)
        missed = sum(t.points for t in self.tickets[player] if t.id not in done)
        bonus = self.rules.longest_path_bonus if player in self.longest_holders() else 0
        unbuilt = self.rules.stations - len(self.station_cities(player))
        return ScoreParts(base.connections, points, missed, bonus,
                          unbuilt * self.rules.station_points)

    def win_shares(self) -> list[float]:
        """Each player's share of the win: highest score, then most finished tickets, then the
        longest-path bonus (the rulebook); players still tied share equally."""
        holders = self.longest_holders()
        players = range(self.rules.players)
        return win_shares([self.score_parts(p).total for p in players],
                          [len(self.final_finished(p)) for p in players],
                          [p in holders for p in players])

    # ----- transitions ---------------------------------------------------------------------

    def _apply(self, action: Action) -> Event:
        if self.is_terminal():
            raise IllegalAction(f"the game is over ({END_REASONS[self.end_reason or '']})")
        p = self.current
        if self.offers[p]:
            if not isinstance(action, KeepTickets):
                offered = ", ".join(str(self.board.tickets[t]) for t in self.offers[p])
                raise IllegalAction(f"player {p} must first choose which tickets to keep of "
                                    f"{offered}")
            return self._keep(p, action)
        if self.tunnel is not None:
            if isinstance(action, TunnelPay):
                return self._pay_tunnel(p, action)
            if isinstance(action, TunnelGiveUp):
                return self._give_up_tunnel(p, action)
            raise IllegalAction(f"player {p} must first pay the tunnel's {self.tunnel.extra} "
                                "extra cards or give it up")
        if isinstance(action, TunnelPay | TunnelGiveUp):
            raise IllegalAction("no tunnel claim is waiting for extra cards")
        if isinstance(action, KeepTickets):
            raise IllegalAction("no tickets are on offer: draw tickets first")
        if isinstance(action, DrawTickets):
            return self._draw_tickets(p, action)
        if self.setup:
            raise IllegalAction("the game has not begun: every player first keeps tickets")
        if isinstance(action, BuildStation):
            return self._build_station(p, action)
        if isinstance(action, Claim) and self.rules.tunnel_reveal and 0 <= action.connection < len(
                self.board.connections) and self.board.connections[action.connection].tunnel:
            return self._claim_tunnel(p, action)
        return super()._apply(action)

    def _take_tickets(self, n: int) -> tuple[int, ...]:
        taken = tuple(reversed(self.ticket_pile[-n:])) if n else ()
        del self.ticket_pile[len(self.ticket_pile) - len(taken):]
        return taken

    def _keep_least(self) -> int:
        return self.rules.setup_keep if self.setup else self.rules.ticket_keep

    def _draw_tickets(self, p: int, action: DrawTickets) -> Event:
        if self.setup:
            raise IllegalAction("the game has not begun: every player first keeps tickets")
        if self.drawn:
            raise IllegalAction("a turn that began by drawing cards cannot draw tickets")
        if not self.ticket_pile:
            raise IllegalAction("the ticket pile is empty")
        self.offers[p] = self._take_tickets(self.rules.ticket_draw)
        return self._record(p, action, self.turn, (), False, self.offers[p])

    def _keep(self, p: int, action: KeepTickets) -> Event:
        offer, turn = self.offers[p], self.turn
        kept = action.tickets
        if len(set(kept)) != len(kept) or not set(kept) <= set(offer):
            raise IllegalAction(f"keep only tickets on offer ({', '.join(map(str, offer))}), "
                                "each once")
        least = min(self._keep_least(), len(offer))
        if len(kept) < least:
            raise IllegalAction(f"keep at least {least} of the {len(offer)} tickets offered")
        self.ticket_pile[0:0] = [t for t in reversed(offer) if t not in kept]  # under the pile
        self.offers[p] = ()
        new: list[Ticket] = [self.board.tickets[t] for t in kept]
        held = list(self.tickets)
        held[p] = tuple(sorted((*held[p], *new), key=lambda t: t.id))
        self.tickets = tuple(held)
        done = tuple(sorted(t.id for t in new if self._joined(p, t.a, t.b)))
        self.finished[p].update(done)
        if self.setup:
            self.current = (p + 1) % self.rules.players
            self.setup = self.current != 0
        else:
            self._end_turn(p, claimed=False, completed_all=False)
        return self._record(p, action, turn, done, True, ())

    def _build_station(self, p: int, action: BuildStation) -> Event:
        if self.drawn:
            raise IllegalAction("a turn that began by drawing cards cannot build a station")
        built = len(self.station_cities(p))
        if built >= self.rules.stations:
            raise IllegalAction(f"player {p} has no station left to build (the rules give "
                                f"{self.rules.stations})")
        if action.city not in self.board.city_index:
            raise IllegalAction(f"no city {action.city!r} on {self.board.name}")
        if action.city in self.stations:
            raise IllegalAction(f"{action.city} has a station already (player "
                                f"{self.stations[action.city]}'s)")
        if action not in station_payments(self.hands[p], action.city, built + 1):
            raise IllegalAction(f"station {built + 1} costs {built + 1} cards of one colour "
                                "(locomotives stand in); the hand cannot pay it that way")
        paid = [LOCO] * action.locomotives
        if action.colour is not None:
            paid += [action.colour] * (built + 1 - action.locomotives)
        self._spend(p, paid)
        self.stations[action.city] = p
        turn = self.turn
        self._end_turn(p, claimed=False, completed_all=False)
        return self._record(p, action, turn, (), True, ())

    def _claim_tunnel(self, p: int, action: Claim) -> Event:
        """Europe's tunnels: the cards played are set aside and the pile's top cards turned
        over; each of the claim's colour or a locomotive (only locomotives, if it was paid with
        locomotives alone) asks for one more card. None asked for: the claim completes."""
        conn = self._check_claim(p, action, None)
        turn, paid = self.turn, self._cards_of(conn, action)
        for card in paid:
            self.hands[p][card] -= 1
        revealed: list[int] = []
        for _ in range(self.rules.tunnel_reveal):
            top = self._take_from_pile()
            if top is None:
                break
            revealed.append(top)
        self.discard += revealed
        colour = action.colour
        extra = sum(c == LOCO or c == colour for c in revealed)
        if extra == 0:
            return self._complete_tunnel(p, action, action, paid, turn, tuple(revealed))
        self.tunnel = TunnelBid(action, tuple(paid), colour, extra)
        return self._record(p, action, turn, (), False, (), tuple(revealed))

    def _pay_tunnel(self, p: int, action: TunnelPay) -> Event:
        bid = self.tunnel
        assert bid is not None
        if action not in tunnel_payments(self.hands[p], bid.colour, bid.extra):
            raise IllegalAction(f"player {p}'s hand cannot pay the tunnel's {bid.extra} extra "
                                f"cards with {action.locomotives} locomotives")
        extra = [LOCO] * action.locomotives
        if bid.colour is not None:
            extra += [bid.colour] * (bid.extra - action.locomotives)
        for card in extra:
            self.hands[p][card] -= 1
        self.tunnel = None
        return self._complete_tunnel(p, bid.claim, action, [*bid.paid, *extra], self.turn, ())

    def _complete_tunnel(self, p: int, claim: Claim, action: Action, paid: list[int], turn: int,
                         revealed: tuple[int, ...]) -> Event:
        self.discard += paid
        self._refill_row()
        conn = self.board.connections[claim.connection]
        done = self._take(p, conn)
        self._end_turn(p, claimed=True, completed_all=False)
        return self._record(p, action, turn, done, True, (), revealed)

    def _give_up_tunnel(self, p: int, action: TunnelGiveUp) -> Event:
        bid = self.tunnel
        assert bid is not None
        for card in bid.paid:
            self.hands[p][card] += 1
        self.tunnel = None
        turn = self.turn
        self._end_turn(p, claimed=False, completed_all=False)
        return self._record(p, action, turn, (), True, ())

    def _record(self, p: int, action: Action, turn: int, completed: tuple[int, ...],
                turn_over: bool, tickets: tuple[int, ...],
                revealed: tuple[int, ...] = ()) -> Event:
        """Setup choices come before turn 0 and carry turn 0."""
        event = Event(len(self.history), turn, p, action, (), completed, turn_over,
                      self.end_reason, tickets, revealed)
        self.history.append(event)
        return event

    # ----- the published rules -------------------------------------------------------------

    def _claim_refused(self, player: int, claim: Claim,
                       declared: DeclareBlock | None) -> str | None:
        """Any claim the cards pay for (the published rules have no allowed-claims rule), and
        none declared as a block (they have no blocks either)."""
        if declared is not None:
            return "the published rules have no declared blocks: claim the connection itself"
        return None

    def _last_round_turns(self) -> int:
        """The last round gives every player one more turn, the one who triggered it
        included."""
        return self.rules.players

    def _ends_when_tickets_done(self) -> bool:
        """Finishing one's (hidden) tickets ends nothing."""
        return False

    def _stalled(self) -> bool:
        """Nothing can change any more: no ticket and no card can be drawn and no hand pays
        for a claim (any claim: the published rules have no allowed-claims rule)."""
        return not self.ticket_pile and not self.can_draw() and not any(
            self.payments(q, c) for q in range(self.rules.players)
            for c in self.board.connections)

    def returns(self) -> list[float]:
        """Each player's share of the win (see :meth:`win_shares`)."""
        return self.win_shares()

