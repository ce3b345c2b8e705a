"""What the open game does to belief (issue 47, item 6), measured turn by turn and folded over
games: how often each player's believed deals include the actual one, and the false beliefs
unexplained claims plant (a believed ``p(a,t)`` that is false), how many and how long they last.

One game is watched from its deal (:class:`BeliefWatch`, called after every turn) into a small
record of plain values (:class:`BeliefRecord`, picklable, so the lab's workers return it); a
batch folds records one at a time (:class:`BeliefTally`) into a :class:`BeliefSummary`.

Words, as the tables print them:

- **accurate**: the actual deal is among the player's believed deals (the least-ranked of its
  class), i.e. the least rank of its class is the actual deal's rank. Knowledge is always
  accurate; belief is not once a claim is unexplained.
- **unexplained claim**: a claim whose inference is false at the actual deal (the actual deal
  drops one rank): a bluff, or a claim of a player that can no longer draw.
- **false belief**: a pair (holder a, ticket t) that player i believes a holds (every deal it
  believes in gives t to a) while a does not. It lasts from the turn after which it is first
  held to the turn after which it is not (or to the end of the game: then it *outlived* the
  game). It is *planted by a bluff* when the turn that made it held an unexplained claim.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from game.actions import DeclareBlock
from game.open_state import OpenState


@dataclass(frozen=True)
class FalseBelief:
    """One false belief: ``believer`` believed ``holder`` held ``ticket`` for ``turns`` turns
    from the end of turn ``start``."""

    believer: int
    holder: int
    ticket: int
    start: int
    turns: int
    by_bluff: bool  # the turn that planted it held an unexplained claim
    outlived: bool  # still held when the game ended


@dataclass(frozen=True)
class BeliefRecord:
    """One open game's belief, per turn: ``accurate[k][p]`` whether seat p's believed deals
    included the actual one after turn k (k = 0: as dealt)."""

    accurate: tuple[tuple[bool, ...], ...]
    false_beliefs: tuple[FalseBelief, ...]
    unexplained: int  # unexplained claims (each drops the actual deal one rank)
    blocks_on_false_belief: int  # declared blocks of a ticket the victim did not hold


class BeliefWatch:
    """Watches one open game: :meth:`turn` after each turn (and once when made, as dealt);
    :meth:`record` at the end."""

    def __init__(self, state: OpenState) -> None:
        self.state = state
        self.accurate: list[tuple[bool, ...]] = []
        self.open: dict[tuple[int, int, int], tuple[int, bool]] = {}  # → (start, by_bluff)
        self.done: list[FalseBelief] = []
        self.unexplained = 0
        self.false_blocks = 0
        self._events = 0
        self._turns = 0
        self._rank = state.worlds.actual_rank()
        self.turn()

    def turn(self) -> None:
        """Take note of the turn just played (first call: the deal)."""
        state = self.state
        worlds = state.worlds
        rank = worlds.actual_rank()
        bluffed = rank > self._rank
        self.unexplained += rank - self._rank
        self._rank = rank
        players = range(state.rules.players)
        held = {t.id: a for a in players for t in state.tickets[a]}
        for event in state.history[self._events:]:
            if isinstance(event.action, DeclareBlock):  # B_b p(a,t) holds; p(a,t) may not
                self.false_blocks += held[event.action.ticket] != event.action.victim
        self._events = len(state.history)
        self.accurate.append(tuple(worlds.best_rank(p) == rank for p in players))
        now = {(p, a, t) for p in players for a, t in state.believed(p) if held[t] != a}
        for key in sorted(set(self.open) - now):
            self._close(key, outlived=False)
        for key in sorted(now - set(self.open)):
            self.open[key] = (self._turns, bluffed)
        self._turns += 1

    def _close(self, key: tuple[int, int, int], outlived: bool) -> None:
        start, by_bluff = self.open.pop(key)
        self.done.append(FalseBelief(*key, start, self._turns - start, by_bluff, outlived))

    def record(self) -> BeliefRecord:
        for key in sorted(self.open):
            self._close(key, outlived=True)
        return BeliefRecord(tuple(self.accurate), tuple(self.done), self.unexplained,
                            self.false_blocks)


@dataclass(frozen=True)
class BeliefSummary:
    """A batch of open games' belief: accuracy by turn (over the (game, seat) pairs still
    playing at that turn) and by kind, and the false beliefs."""

    games: int
    accurate_by_turn: tuple[tuple[int, int], ...]  # (accurate, of) after turn k
    accurate_by_kind: dict[str, tuple[int, int]]  # every turn of every seat of the kind
    unexplained: int
    false_beliefs: int
    by_bluff: int
    mean_turns: float  # how long a false belief lasts (to the game's end if it outlives it)
    outlived: int
    held_by_kind: dict[str, int]  # false beliefs held by seats of each kind
    about_kind: dict[str, int]  # false beliefs about what seats of each kind hold
    blocks_on_false_belief: int

    def accuracy(self, turn: int) -> float:
        good, of = self.accurate_by_turn[turn]
        return good / of if of else float("nan")


class BeliefTally:
    """Folds :class:`BeliefRecord` of games (each with its line-up) one at a time."""

    def __init__(self) -> None:
        self.games = 0
        self.by_turn: list[list[int]] = []
        self.by_kind: dict[str, list[int]] = {}
        self.unexplained = self.false = self.by_bluff = self.outlived = self.false_blocks = 0
        self.turns = 0
        self.held_by: dict[str, int] = {}
        self.about: dict[str, int] = {}

    def add(self, record: BeliefRecord, lineup: Sequence[str]) -> None:
        self.games += 1
        for k, seats in enumerate(record.accurate):
            if k == len(self.by_turn):
                self.by_turn.append([0, 0])
            self.by_turn[k][0] += sum(seats)
            self.by_turn[k][1] += len(seats)
            for kind, good in zip(lineup, seats, strict=True):
                tally = self.by_kind.setdefault(kind, [0, 0])
                tally[0] += good
                tally[1] += 1
        self.unexplained += record.unexplained
        self.false_blocks += record.blocks_on_false_belief
        for belief in record.false_beliefs:
            self.false += 1
            self.by_bluff += belief.by_bluff
            self.outlived += belief.outlived
            self.turns += belief.turns
            held, about = lineup[belief.believer], lineup[belief.holder]
            self.held_by[held] = self.held_by.get(held, 0) + 1
            self.about[about] = self.about.get(about, 0) + 1

    def summary(self) -> BeliefSummary:
        return BeliefSummary(
            self.games, tuple((a, b) for a, b in self.by_turn),
            {k: (a, b) for k, (a, b) in sorted(self.by_kind.items())}, self.unexplained,
            self.false, self.by_bluff, self.turns / self.false if self.false else float("nan"),
            self.outlived, dict(sorted(self.held_by.items())), dict(sorted(self.about.items())),
            self.false_blocks)
