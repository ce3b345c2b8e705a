"""A standard game in progress: the published rules on the same engine as the simplified game.

What differs from :class:`game.state.GameState`: tickets are dealt from the board's shuffled
ticket pile (three each, keep at least two, chosen in seat order before the first turn), a turn
may draw tickets (take three, keep at least one, the rest go under the pile), kept tickets are
hidden and finishing them ends nothing, the last round gives every player one more turn (the one
who triggered it included), and the score adds the longest-path bonus. Ties on score go to the
player with more finished tickets, then to the longest-path holder (the rulebook); players still
tied share the win. Train cards, claims, doubles and the face-up row are the base engine's.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from boards import Ticket
from game.actions import Action, Claim, DrawTickets, KeepTickets
from game.distances import PathOracle
from game.rules import Rules
from game.standard_rules import StandardRules
from game.standard_view import StandardView
from game.state import END_REASONS, Event, GameState, IllegalAction, ScoreParts
from game.trail import longest_trail


class StandardState(GameState):
    """A standard game. Create with ``StandardState(rules, seed)``; it deals at once, and the
    players first choose their tickets (``KeepTickets``) in seat order."""

    rules: StandardRules
    last_round_turns_include_trigger = True
    ends_when_tickets_done = False

    def __init__(self, rules: StandardRules, seed: int):
        self.rules = rules
        self.seed = seed
        self.rng = random.Random(seed)
        self._deal_cards()
        order = list(range(len(rules.board.tickets)))
        self.rng.shuffle(order)
        self.ticket_pile: list[int] = order  # ticket ids; the last one is the top
        self.tickets = tuple(() for _ in range(rules.players))
        self._start_table()
        self.offers: list[tuple[int, ...]] = [self._take_tickets(rules.tickets_each)
                                              for _ in range(rules.players)]
        self.setup = True
        self.oracle = PathOracle(rules.board, rules.doubles_both_usable)
        self._longest: tuple[int, list[int]] | None = None

    # ----- what players see ----------------------------------------------------------------

    def view(self, player: int) -> StandardView:
        """Everything ``player`` may see: its own cards, tickets and offer, the public rest."""
        offer = tuple(self.board.tickets[t] for t in self.offers[player])
        counts = tuple(map(len, self.offers if self.setup else self.tickets))
        return StandardView(
            rules=self.rules, player=player, hand=tuple(self.hands[player]),
            tickets=self.tickets[player], finished=frozenset(self.finished[player]),
            offer=offer, keep_at_least=self._keep_least(), owner=tuple(self.owner),
            trains=tuple(self.trains), hand_sizes=tuple(map(sum, self.hands)),
            ticket_counts=counts, face_up=tuple(self.face_up), pile_size=len(self.pile),
            discard_size=len(self.discard), ticket_pile_size=len(self.ticket_pile),
            current=self.current, drawn=self.drawn, turn=self.turn, setup=self.setup,
            final_round=self.final_turns_left is not None, over=self.is_terminal(),
            claims=self.oracle.version, paths=self.oracle)

    def observation(self, player: int) -> StandardView:  # type: ignore[override]
        """A standard game's observation is its view (it has no common-knowledge deal)."""
        return self.view(player)

    def legal_actions(self) -> list[Action]:
        return [] if self.is_terminal() else self.view(self.current).legal_actions()

    def legal_action_count(self) -> int:
        """The number of legal actions of the player to move (the design lab's game arc)."""
        return 0 if self.is_terminal() else self.view(self.current).legal_action_count()

    def total_tickets(self) -> int:
        """Tickets held, on offer and in the pile: the board's whole deck, always."""
        return (sum(map(len, self.tickets)) + sum(map(len, self.offers))
                + len(self.ticket_pile))

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

    def score_parts(self, player: int) -> ScoreParts:
        base = super().score_parts(player)
        bonus = self.rules.longest_path_bonus if player in self.longest_holders() else 0
        return ScoreParts(base.connections, base.finished, base.unfinished, bonus)

    def win_shares(self) -> list[float]:
        """Each player's share of the win: highest score, then most finished tickets, then the
        longest-path bonus (the rulebook); players still tied share equally."""
        holders = self.longest_holders()
        players = range(self.rules.players)
        return win_shares([self.score_parts(p).total for p in players],
                          [len(self.finished[p]) for p in players],
                          [p in holders for p in players])

    # ----- transitions ---------------------------------------------------------------------

    def apply(self, action: Action) -> Event:
        if self.is_terminal():
            raise IllegalAction(f"the game is over ({END_REASONS[self.end_reason or '']})")
        p = self.current
        if self.offers[p]:
            if not isinstance(action, KeepTickets):
                offered = ", ".join(str(self.board.tickets[t]) for t in self.offers[p])
                raise IllegalAction(f"player {p} must first choose which tickets to keep of "
                                    f"{offered}")
            return self._keep(p, action)
        if isinstance(action, KeepTickets):
            raise IllegalAction("no tickets are on offer: draw tickets first")
        if isinstance(action, DrawTickets):
            return self._draw_tickets(p, action)
        if self.setup:
            raise IllegalAction("the game has not begun: every player first keeps tickets")
        event = super().apply(action)
        if isinstance(action, Claim):
            self.oracle.claimed(action.connection, p)
        return event

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

    def _record(self, p: int, action: Action, turn: int, completed: tuple[int, ...],
                turn_over: bool, tickets: tuple[int, ...]) -> Event:
        """Setup choices come before turn 0 and carry turn 0."""
        event = Event(len(self.history), turn, p, action, (), completed, turn_over,
                      self.end_reason, tickets)
        self.history.append(event)
        return event

    def _stalled(self) -> bool:
        return not self.ticket_pile and super()._stalled()


def win_shares(scores: Sequence[int], finished: Sequence[int],
               longest: Sequence[bool]) -> list[float]:
    """The rulebook's winner: highest score, then most finished tickets, then the longest-path
    bonus; players tied on all three share the win equally."""
    keys = list(zip(scores, finished, longest, strict=True))
    best = max(keys)
    winners = [k == best for k in keys]
    return [w / sum(winners) for w in winners]


def start_game(rules: Rules, seed: int) -> GameState:
    """Deal a game under ``rules``: a standard game for :class:`StandardRules`, else the
    simplified one."""
    return StandardState(rules, seed) if isinstance(rules, StandardRules) else GameState(rules,
                                                                                       seed)
