"""The open game (``design/open-game.md``): the simplified game in which a claim may be made on
any unclaimed connection the hand pays for, so a claim is evidence, not proof.

Knowledge is the simplified game's deal model, pruned only by hard announcements (a finished
ticket ``p(i,t)``, a declared block ``B_b p(a,t)``). Plausibility is one rank per deal shared
by every player, the number of claims so far that the deal leaves unexplained: each claim's
inference (:func:`game.knowledge.claim_inference`, read on the board before it) is a rank
shift, not an announcement (:attr:`game.knowledge.AnnouncementKind.SHIFT`). Belief is what
holds in the least-ranked deals of a player's class; a block may be declared on a believed
ticket, which makes its announcement true by construction. The shared model is a ranked deal
on either backend (:func:`kripke.ranked_deal`).
"""

from __future__ import annotations

from game.knowledge import (
    Announcement,
    AnnouncementKind,
    Backend,
    TicketKnowledge,
    ticket_belief,
)
from game.rules import OpenRules
from game.state import GameState
from game.table import END_STALEMATE
from kripke import AnnouncementError, RankedDeal
from kripke.language.formula import Formula


class OpenState(GameState):
    """An open game in progress: ``OpenState(rules, seed)`` with :class:`OpenRules`. What it
    changes of :class:`GameState`: which claims are allowed (any, read off the view, which
    lists believed tickets as the blocks one may declare), what a claim tells (a rank shift)
    and the game's third end (no card left to draw and no hand pays for a claim)."""

    worlds: RankedDeal
    _blocks_on = "believe"

    def __init__(self, rules: OpenRules, seed: int, backend: Backend | str = Backend.AUTO):
        super().__init__(rules, seed, backend)
        #: Each player's belief, with the model it was read from (kept until that changes).
        self._belief: tuple[RankedDeal, dict[int, TicketKnowledge]] = (self.worlds, {})

    @property
    def end_reason(self) -> str | None:
        """Why the game is over, or ``None``: the last round and a player finishing all its
        tickets end it with the action that does it; between turns, it also ends when no card
        is left to draw and no hand pays for a claim (claims are never "not allowed" here, so
        the simplified game's "no allowed claim ever" does not apply)."""
        if self._ended is None and self.drawn == 0 and not self.can_draw() and \
                not self._some_hand_pays():
            return END_STALEMATE
        return self._ended

    def _some_hand_pays(self) -> bool:
        return any(self.payments(q, conn) for q in range(self.rules.players)
                   for conn in self.board.connections)

    def _announce(self, kind: AnnouncementKind, formula: Formula,
                  by: str | None = None) -> Announcement:
        """A claim's inference shifts the ranks (soft information: every deal stays, so no
        one's knowledge changes); anything else is announced as in the simplified game. A
        declared block announces ``B_b p(a,t)``, which holds at the actual deal because only a
        believed ticket may be declared: it never removes the actual deal."""
        if kind is not AnnouncementKind.SHIFT:
            try:
                return super()._announce(kind, formula, by)
            except AnnouncementError:  # a declared block's B_b p(a,t) is believed: a bug
                raise AssertionError(f"the game's announcement {formula} removed the actual "
                                     "deal") from None
        old, count = self.worlds, self.worlds.n_worlds
        self.worlds = old.shift(formula)
        if self._knowledge[0] is old:
            self._knowledge = (self.worlds, self._knowledge[1])  # knowledge is unchanged
        made = Announcement(kind, formula, count, count, by)
        self.announced.append(made)
        return made

    def belief(self, agent: int) -> TicketKnowledge:
        """Who ``agent`` believes may hold each dealt ticket, in its most plausible deals
        (kept until the shared model changes)."""
        if self._belief[0] is not self.worlds:
            self._belief = (self.worlds, {})
        kept = self._belief[1]
        if agent not in kept:
            kept[agent] = ticket_belief(self.worlds, agent, sorted(self._dealt_ids()),
                                        self.rules.players)
        return kept[agent]

    def believed(self, player: int) -> tuple[tuple[int, int], ...]:
        """The (opponent, ticket) pairs ``player`` believes: a block is allowed only of
        these."""
        return self.belief(player).known_opponent_tickets

    def _believed(self, player: int) -> tuple[tuple[int, int], ...]:
        return self.believed(player)
