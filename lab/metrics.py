"""The design papers' metrics over a batch of games, folded one game at a time (a batch is never
held in memory): the game arc (Silva et al. 2018, after Elias, Garfield & Gutschera), city
undesirability (Silva et al. 2018), and win ratios with the win-rate distance (Smith & Anton
2022). Deck statistics need no games: :mod:`lab.decks`.

Choices the papers leave open, made here and named where they are used:

- **Arc by turn, over the games still running.** Games differ in length; the mean at turn t is
  taken over the games that reach turn t, and the curve stops at the last turn at least half of
  the games reach (the median length), so its last point is a typical game's end, not the one
  longest game's.
- **Triangle area** through the first point, the peak and the last point, with turns on the
  x axis and mean moves on the y axis (so a longer game with the same shape scores higher, as in
  the paper, whose fitness is this area).
- **Win-rate distance by kind's share of the games won.** Smith & Anton seat one agent of each
  kind, so a kind's win ratio is its share of the games; with a kind in several seats the
  distance compares each kind's share of the games won with the desired shares (default: the
  kinds' shares of the seats, what no edge would give), and the table shows the win ratio per
  seat beside it.
- **Undesirability variance** is the population variance (``numpy.var``) of the per-city counts
  of games in which no claimed connection touched the city. The count grows with the number of
  games (variance with its square): compare decks over the same number of games.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import numpy as np

from agents.belief import BeliefSummary, BeliefTally
from agents.gameplay import GameStats
from agents.standard_batch import BOOTSTRAP_RESAMPLES, bootstrap_distance, distance, wilson
from boards import Board
from lab.games import LabGame


def triangle_area(a: tuple[float, float], b: tuple[float, float],
                  c: tuple[float, float]) -> float:
    """The area of the triangle through three points (half the cross product)."""
    return abs((b[0] - a[0]) * (c[1] - a[1]) - (c[0] - a[0]) * (b[1] - a[1])) / 2


@dataclass(frozen=True)
class Arc:
    """The mean number of legal moves at the start of turns 1..len(moves)."""

    moves: tuple[float, ...]
    games: tuple[int, ...]  # how many games reached each turn

    @property
    def peak_turn(self) -> int:
        """The 1-based turn of the highest mean (the first, if tied)."""
        return int(np.argmax(self.moves)) + 1 if self.moves else 0

    @property
    def peak(self) -> float:
        return max(self.moves, default=math.nan)

    @property
    def area(self) -> float:
        """The fitness of an arc: the triangle through first turn, peak and last turn."""
        if not self.moves:
            return 0.0
        last = len(self.moves)
        return triangle_area((1, self.moves[0]), (self.peak_turn, self.peak),
                             (last, self.moves[-1]))

    def smoothed(self, turns: int) -> Arc:
        """Each turn's mean averaged with its neighbours' over a window of ``turns`` (fewer at
        the ends). Over a few games one turn's mean is noisy, and a triangle through the
        highest one rewards noise: the board search scores the smoothed arc."""
        if turns <= 1 or not self.moves:
            return self
        kernel = np.ones(turns)
        sums = np.convolve(self.moves, kernel, mode="same")
        counts = np.convolve(np.ones(len(self.moves)), kernel, mode="same")
        return Arc(tuple(float(v) for v in sums / counts), self.games)


class ArcTally:
    """Sums of moves per turn over games, folded one game at a time."""

    def __init__(self) -> None:
        self.sums: list[float] = []
        self.counts: list[int] = []
        self.games = 0

    def add(self, arc: Sequence[int]) -> None:
        self.games += 1
        for t, moves in enumerate(arc):
            if t == len(self.sums):
                self.sums.append(0.0)
                self.counts.append(0)
            self.sums[t] += moves
            self.counts[t] += 1

    def arc(self) -> Arc:
        cut = sum(1 for c in self.counts if c * 2 >= self.games)  # turns half the games reach
        return Arc(tuple(s / c for s, c in zip(self.sums[:cut], self.counts[:cut], strict=True)),
                   tuple(self.counts[:cut]))


@dataclass(frozen=True)
class KindStats:
    kind: str
    seats: int
    win_ratio: float
    low: float  # 95% Wilson interval
    high: float
    score: float  # mean per seat


@dataclass(frozen=True)
class Metrics:
    """Everything ``ttr-kripke metrics`` reports for one batch."""

    board: str
    games: int
    arc: Arc
    untouched: tuple[int, ...]  # per city (board order): games in which no claim touched it
    city_names: tuple[str, ...]
    kinds: tuple[KindStats, ...]
    desired: tuple[float, ...]
    distance: float
    distance_low: float
    distance_high: float
    mean_turns: float
    end_reasons: dict[str, float]
    variance_low: float = math.nan  # 95% bootstrap interval of the undesirability variance
    variance_high: float = math.nan
    #: the simplified game's games as ``agents.gameplay`` measures them (a few numbers each),
    #: for its report row; empty for the standard game
    gameplay: tuple[GameStats, ...] = ()
    #: the open game's belief (``agents.belief``); None for the other rule sets
    beliefs: BeliefSummary | None = None

    @property
    def undesirability_variance(self) -> float:
        return float(np.var(self.untouched)) if self.untouched else math.nan

    def least_desirable(self, n: int = 5) -> list[tuple[str, int]]:
        order = sorted(zip(self.city_names, self.untouched, strict=True),
                       key=lambda cu: (-cu[1], cu[0]))
        return order[:n]

    def most_desirable(self, n: int = 5) -> list[tuple[str, int]]:
        order = sorted(zip(self.city_names, self.untouched, strict=True),
                       key=lambda cu: (cu[1], cu[0]))
        return order[:n]


def seat_shares(seats: np.ndarray) -> tuple[float, ...]:
    """Each kind's share of the seats (``seats[g, k]``: kind k's seats in game g): the win
    shares a table where no kind has an edge would give, the default desired distribution."""
    total = seats.sum(axis=0)
    return tuple(float(t) for t in total / total.sum())


class Tally:
    """Folds games into :class:`Metrics` one at a time (a batch is streamed, never held)."""

    def __init__(self, board: Board, kinds: Sequence[str]):
        self.board = board
        self.kinds = tuple(kinds)
        index = board.city_index
        self._ends = [(index[c.a], index[c.b]) for c in board.connections]
        self.untouched = np.zeros(len(board.cities), dtype=np.int64)
        self._untouched_by_game: list[np.ndarray] = []  # a few bytes a game, for the bootstrap
        self._arc = ArcTally()
        self._wins: list[list[float]] = []
        self._seats: list[list[int]] = []
        self._scores = np.zeros(len(self.kinds))
        self._turns = 0
        self._ends_by: dict[str, int] = {}
        self._gameplay: list[GameStats] = []
        self._beliefs: BeliefTally | None = None

    @property
    def games(self) -> int:
        return len(self._wins)

    def add(self, game: LabGame) -> None:
        touched = np.zeros(len(self.board.cities), dtype=bool)
        for c in game.claimed:
            touched[list(self._ends[c])] = True
        self.untouched += ~touched
        self._untouched_by_game.append(np.packbits(~touched))
        self._arc.add(game.arc)
        wins, seats = [0.0] * len(self.kinds), [0] * len(self.kinds)
        for kind, win, score in zip(game.lineup, game.wins, game.scores, strict=True):
            k = self.kinds.index(kind)
            wins[k] += win
            seats[k] += 1
            self._scores[k] += score
        self._wins.append(wins)
        self._seats.append(seats)
        self._turns += game.turns
        self._ends_by[game.end_reason] = self._ends_by.get(game.end_reason, 0) + 1
        if game.gameplay is not None:
            self._gameplay.append(game.gameplay)
        if game.beliefs is not None:
            self._beliefs = self._beliefs or BeliefTally()
            self._beliefs.add(game.beliefs, game.lineup)

    def metrics(self, desired: Sequence[float] | None = None, bootstrap_seed: int = 0
                ) -> Metrics:
        n = self.games
        if n == 0:
            raise ValueError("no game was played: nothing to measure")
        wins, seats = np.array(self._wins), np.array(self._seats)
        shares = tuple(desired) if desired is not None else seat_shares(seats)
        rows = []
        for k, kind in enumerate(self.kinds):
            sat, won = int(seats[:, k].sum()), float(wins[:, k].sum())
            low, high = wilson(won, sat)
            rows.append(KindStats(kind, sat, won / sat if sat else math.nan, low, high,
                                  float(self._scores[k]) / sat if sat else math.nan))
        if len(self.kinds) > 1:
            # the distance compares each kind's share of all games won (with one seat per kind,
            # as in the paper, that is its win ratio); a game is one "seat" of the whole table
            measured = distance(shares, list(wins.sum(axis=0) / n))
            low, high = bootstrap_distance(wins, np.ones_like(wins), shares, bootstrap_seed)
        else:  # one kind wins every game it is in: no distribution to be near or far from
            measured = low = high = math.nan
        v_low, v_high = self.variance_interval(bootstrap_seed)
        return Metrics(self.board.name, n, self._arc.arc(), tuple(map(int, self.untouched)),
                       self.board.city_names, tuple(rows), shares, measured, low, high,
                       self._turns / n, {r: c / n for r, c in sorted(self._ends_by.items())},
                       v_low, v_high, tuple(self._gameplay),
                       self._beliefs.summary() if self._beliefs is not None else None)

    def variance_interval(self, seed: int = 0, resamples: int = BOOTSTRAP_RESAMPLES
                          ) -> tuple[float, float]:
        """The 95% interval of the undesirability variance, resampling whole games with a
        seeded generator."""
        cities = len(self.board.cities)
        rows = np.unpackbits(np.array(self._untouched_by_game), axis=1)[:, :cities]
        rng = np.random.default_rng(seed)
        picks = rng.integers(0, len(rows), size=(resamples, len(rows)))
        counts = rows[picks].sum(axis=1)  # resamples x cities
        low, high = np.percentile(counts.var(axis=1), [2.5, 97.5])
        return float(low), float(high)


def measure(board: Board, kinds: Sequence[str], games: Iterable[LabGame],
            desired: Sequence[float] | None = None) -> Metrics:
    tally = Tally(board, kinds)
    for game in games:
        tally.add(game)
    return tally.metrics(desired)
