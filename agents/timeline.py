"""A game's past, to step back to any earlier turn or announcement and forward again.

Each moment (the deal, every turn, every outside announcement) keeps a
:class:`~agents.model.Snapshot` of the model, so going to a moment restores the board, the
shared Kripke model, the records, the generators and the collected data exactly as they were.
Snapshots and not a replay from the seed: on the 4 × 4 deal a replay must rebuild 63 million
worlds (seconds) before it replays a single turn, while a snapshot shares the immutable Kripke
model and copies only the game state (``ttr-kripke bench timeline`` measures both).

Going forward replays the recorded moments. Something new at an earlier moment (a turn where
an announcement was recorded, or a new announcement) starts a new branch: the moments after it
are dropped, as an editor's undo history does.
"""

from __future__ import annotations

from dataclasses import dataclass

from agents.model import Snapshot, TTRModel
from game.knowledge import Announcement
from kripke.language.formula import Formula


@dataclass(frozen=True)
class Moment:
    """A point of the game's past: after the deal, a turn, or an outside announcement."""

    label: str  # "deal", "turn 12: ...", "the teacher announced p(1,14)"
    turn: int  # turns played by then
    announcement: Announcement | None
    snapshot: Snapshot


class Timeline:
    """The moments of one game, and where in them the model stands now."""

    def __init__(self, model: TTRModel) -> None:
        self.model = model
        self.moments: list[Moment] = [Moment("the deal", model.turn, None, model.snapshot())]
        self.position = 0

    @property
    def at_end(self) -> bool:
        return self.position == len(self.moments) - 1

    @property
    def can_back(self) -> bool:
        return self.position > 0

    def go(self, index: int) -> None:
        """Put the model back (or forward) to moment ``index``."""
        if not 0 <= index < len(self.moments):
            raise ValueError(f"no moment {index}; there are {len(self.moments)}")
        if index != self.position:
            self.model.restore(self.moments[index].snapshot)
            self.position = index

    def back(self) -> None:
        self.go(max(self.position - 1, 0))

    def forward(self) -> None:
        self.go(min(self.position + 1, len(self.moments) - 1))

    def step(self) -> bool:
        """Play the next turn: the recorded one if the next moment is that turn (a game is
        deterministic, so it would come out the same), else a new turn on a new branch.
        False when the game is over."""
        following = None if self.at_end else self.moments[self.position + 1]
        if following is not None and following.announcement is None:
            self.forward()
            return True
        if not self.model.running:
            return False
        self._branch()
        self.model.step()
        turn = self.model.history[-1]
        self._record(f"turn {turn.turn}: player {turn.player} {'; '.join(turn.actions)}",
                     None)
        return True

    def announce(self, formula: Formula | str, by: str = "the teacher") -> Announcement:
        """An outside announcement at the current moment (refused, changing nothing, when it
        is false at the actual world); any recorded future is dropped: a new branch."""
        made = self.model.announce_outside(formula, by)  # raises before the branch is cut
        self._branch()
        self._record(f"{by} announced {made.text}", made)
        return made

    def _branch(self) -> None:
        """Drop the recorded future: what happens now replaces it."""
        del self.moments[self.position + 1:]

    def _record(self, label: str, announcement: Announcement | None) -> None:
        self.moments.append(Moment(label, self.model.turn, announcement,
                                   self.model.snapshot()))
        self.position = len(self.moments) - 1
