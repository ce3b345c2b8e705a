"""The simplified game of the design notes, one rule set on the shared table
(:class:`game.table.TableState`): every dealt ticket is common knowledge, a claim is allowed
only for the claimant's own tickets or as a declared block (:class:`game.actions.DeclareBlock`)
of a ticket the claimant knows, a player who finishes all of its tickets ends the game, the last
round gives every other player one more turn, and the game also ends when no player can ever
make an allowed claim again.

It is an epistemic game: the state owns the shared Kripke model of the deal (explicit or
symbolic, :mod:`game.knowledge`), and ``apply`` makes the public announcements of a turn on it
when the turn ends, so what each player knows (its ``observation``), which blocks are legal and
whether the game is over depend on the state alone.
"""

from __future__ import annotations

from typing import Self

from boards import Ticket
from game.actions import Action, Claim, DeclareBlock
from game.knowledge import (
    MAX_WORLDS,
    Announcement,
    AnnouncementKind,
    Backend,
    DealWorlds,
    TicketKnowledge,
    announced_by,
    completions,
    deal_worlds,
    resolve_backend,
    ticket_knowledge,
)
from game.rules import Rules
from game.table import END_STALEMATE, Event, TableState, win_shares
from game.view import PlayerView
from kripke import ModelTooLargeError, parse
from kripke.language.formula import Formula
from kripke.parts import Partitioned


class GameState(TableState):
    """A simplified game in progress. Create with ``GameState(rules, seed)``; it deals at once
    and builds the shared model of the deal on ``backend`` (:class:`game.knowledge.Backend`:
    ``auto`` is explicit up to MAX_WORLDS deals, symbolic above; the game, its announcements and
    its decisions are the same on both).

    A claim is allowed only on a shortest path of one of the claimant's own unfinished tickets,
    or as a declared block: on an opponent's shortest path for an unfinished ticket the claimant
    knows that opponent holds (see :attr:`game.view.PlayerView.allowed`).
    """

    #: What a player must do of a ticket to declare a block of it (the rules' words).
    _blocks_on = "know"

    def __init__(self, rules: Rules, seed: int, backend: Backend | str = Backend.AUTO):
        super().__init__(rules, seed)
        n, k = rules.players, rules.tickets_each
        dealt = self.rng.sample(range(len(rules.board.tickets)), n * k)
        self.tickets = tuple(
            tuple(rules.board.tickets[t] for t in sorted(dealt[p * k:(p + 1) * k]))
            for p in range(n))
        self._dealt: tuple[tuple[tuple[Ticket, ...], ...], frozenset[int]] | None = None
        self._own_check: tuple[tuple[object, ...], bool] | None = None  # last checks, keys
        self._end_check: tuple[tuple[object, ...], bool] | None = None
        self.backend = resolve_backend(backend, n, k)
        #: The shared model: immutable, replaced by each announcement, shared by clones.
        self.worlds: DealWorlds = deal_worlds(rules, self.tickets, self.backend)
        self.initial_worlds = self.worlds.n_worlds
        #: Every announcement made, the game's and outside ones, in order.
        self.announced: list[Announcement] = []
        #: Each agent's knowledge, with the model it was read from (kept until that changes).
        self._knowledge: tuple[DealWorlds, dict[int, TicketKnowledge]] = (self.worlds, {})

    @property
    def dealt_tickets(self) -> tuple[Ticket, ...]:
        """All dealt tickets, ordered by id: common knowledge in the simplified game."""
        return tuple(sorted((t for ts in self.tickets for t in ts), key=lambda t: t.id))

    @property
    def end_reason(self) -> str | None:
        """Why the game is over, or ``None`` while it goes on.

        The last round and a player finishing its tickets end the game with the action that
        does it. The simplified game's third end, no player can ever make an allowed claim
        again, depends on what the players know, which the turn's announcements change once
        its actions are applied; so it is decided between turns, from the position and the
        shared model (an outside announcement may change it too).
        """
        if self._ended is None and self.drawn == 0 and self._no_claim_ever_cached():
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
        key += (tuple(self.known(q) for q in range(self.rules.players)),)
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

    def own_connections(self, player: int) -> frozenset[int]:
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

    def observation(self, player: int) -> PlayerView:
        """What ``player`` may see: its own hand and tickets, and the public rest (in the
        simplified game the dealt tickets and every completion are public)."""
        return self._view(player, over=self.is_terminal())

    def _view(self, player: int, over: bool,
              known: tuple[tuple[int, int], ...] | None = None) -> PlayerView:
        """``player``'s view with ``over`` (and ``known``, else asked) given: the rules' own
        questions (which claims are allowed, hence whether the game is over) read views that
        must not ask it back."""
        return self._player_view(
            player, over, ticket_counts=tuple(map(len, self.tickets)), dealt=self._dealt_ids(),
            finished_by=tuple(map(frozenset, self.finished[:self.rules.players])),
            known=self.known(player) if known is None else known,
            believed=self._believed(player))

    def _believed(self, player: int) -> tuple[tuple[int, int], ...]:
        """The (opponent, ticket) pairs a view lists as believed: none here (the open game,
        :class:`game.open_state.OpenState`, reads them from its ranked model)."""
        return ()

    def _dealt_ids(self) -> frozenset[int]:
        """The dealt tickets' ids, kept while the deal stays the same (every view asks)."""
        if self._dealt is None or self._dealt[0] is not self.tickets:
            self._dealt = (self.tickets, frozenset(t.id for ts in self.tickets for t in ts))
        return self._dealt[1]

    # ----- the simplified rules ------------------------------------------------------------

    def _claim_refused(self, player: int, claim: Claim,
                       declared: DeclareBlock | None) -> str | None:
        """The design notes' rule: a claim only for one's own tickets, or declared as a block
        of a ticket the claimant knows, on that ticket's shortest path; read off the player's
        view (:meth:`PlayerView.declarations`), so what it offers is what is accepted."""
        view = self._view(player, over=False)
        if (claim if declared is None else declared) in view.declarations(claim):
            return None
        if declared is not None:
            return (f"player {player} declares a block of player {declared.victim}'s ticket "
                    f"{declared.ticket} it may not declare: it does not {self._blocks_on} it, "
                    "or the claim is not on its shortest path")
        if view.claim_allowed(claim.connection):
            return (f"player {player}'s claim of connection {claim.connection} is not for its "
                    "own tickets and is not declared as a block")
        return (f"{self.board.connections[claim.connection]} lies on no shortest path of "
                f"player {player}'s unfinished tickets nor of an opponent's ticket it knows: a "
                "claim is allowed only for one's own tickets or as a declared block")

    def _last_round_turns(self) -> int:
        """The last round gives every *other* player one more turn."""
        return self.rules.players - 1

    def _ends_when_tickets_done(self) -> bool:
        """A player who finishes all of its tickets ends the game at once."""
        return True

    def _stalled(self) -> bool:
        """Never after a turn: :meth:`_no_claim_ever` ends the game, exactly and earlier, as
        a property of the position (see :attr:`end_reason`)."""
        return False

    def returns(self) -> list[float]:
        """Each player's share of the win: the highest score wins, and players tied on it
        share (the simplified game has no tie-break)."""
        scores, n = self.scores(), self.rules.players
        return win_shares(scores, [0] * n, [False] * n)

    def clone(self) -> Self:
        new = super().clone()
        new.announced = self.announced.copy()  # the models themselves are immutable: shared
        return new

    # ----- the shared knowledge ------------------------------------------------------------

    def apply(self, action: Action) -> Event:
        """Apply ``action`` and, when it ends the turn, the turn's public announcements on the
        shared model (:mod:`game.knowledge`'s protocol: what the action declared or lets
        everyone infer, read on the position before it, then each ticket it finished); they are
        appended to :attr:`announced`."""
        said = announced_by(self, self.current, action)
        event = super().apply(action)
        if event.turn_over:
            for kind, formula in (*said, *completions(event.player, event.completed)):
                self._announce(kind, formula)
        return event

    def _announce(self, kind: AnnouncementKind, formula: Formula,
                  by: str | None = None) -> Announcement:
        """Publicly announce ``formula``: the model's one announcement path, which refuses a
        formula false at the actual world (``AnnouncementError``) before anything changes. The
        game's own announcements are truthful by construction, so the error for them is a bug
        and propagates."""
        before, old = self.worlds.n_worlds, self.worlds
        self.worlds = old.announce(formula)
        if self.worlds.n_worlds == before and self._knowledge[0] is old:
            self._knowledge = (self.worlds, self._knowledge[1])  # nobody learned anything
        made = Announcement(kind, formula, before, self.worlds.n_worlds, by)
        self.announced.append(made)
        return made

    def announce(self, formula: Formula | str, by: str = "the teacher") -> Announcement:
        """A public announcement made from outside the game ("what if everyone learned
        p(1,14)?"): refused with ``AnnouncementError`` when false at the actual world, and then
        nothing changes. The players act on it from their next action on."""
        formula = parse(formula) if isinstance(formula, str) else formula
        return self._announce(AnnouncementKind.OUTSIDE, formula, by)  # the model refuses it

    def knowledge(self, agent: int) -> TicketKnowledge:
        """Who ``agent`` considers a possible holder of each dealt ticket (kept until the shared
        model changes; clones share it, since they share the model)."""
        if self._knowledge[0] is not self.worlds:
            self._knowledge = (self.worlds, {})
        kept = self._knowledge[1]
        if agent not in kept:
            kept[agent] = ticket_knowledge(self.worlds, agent, sorted(self._dealt_ids()),
                                           self.rules.players)
        return kept[agent]

    def known(self, player: int) -> tuple[tuple[int, int], ...]:
        """The (opponent, ticket) pairs ``player`` knows: a block is allowed only of these."""
        return self.knowledge(player).known_opponent_tickets

    @property
    def explicit_worlds(self) -> Partitioned:
        """The shared model as a list of worlds, for what only that can do (give a value per
        world, export): the model's own list (``kripke.parts.ClassCounts.as_list``: a symbolic
        deal lists itself, the last list kept). ``ModelTooLargeError`` above MAX_WORLDS
        deals."""
        if self.initial_worlds > MAX_WORLDS:
            raise ModelTooLargeError(self.initial_worlds, MAX_WORLDS, task="to list",
                                     advice="ask for counts and class summaries")
        return self.worlds.as_list()
