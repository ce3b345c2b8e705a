"""Batches of standard games and the table the playtesting papers report: per agent kind the
win ratio (ties share) with a 95% interval, mean score and its parts, tickets, turns; the
win-rate distance to a desired distribution with a bootstrap interval; the published figures
beside them.

Every number here is computed from :class:`agents.standard_game.GameResult` records, so it
depends on the seeds alone, never on how many workers played the games.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import asdict, dataclass
from typing import Any

import numpy as np

from agents.kinds import AgentKind
from agents.standard_game import GameResult

#: Smith & Anton (2022), Table 1: win ratios on the original USA board, one agent of each kind.
PUBLISHED_WIN_RATIOS: dict[str, float] = {AgentKind.OSTA: 0.2025, AgentKind.PA: 0.0325,
                                          AgentKind.LRJA: 0.3045, AgentKind.HA: 0.4605}
#: Smith & Anton (2022), Table 2: the original board's distance to an even split.
PUBLISHED_DISTANCE = 0.212
BOOTSTRAP_RESAMPLES = 2000
Z95 = 1.959963984540054


def game_seeds(first: int, games: int) -> range:
    return range(first, first + games)


def distance(desired: Sequence[float], measured: Sequence[float]) -> float:
    """Smith & Anton's win-rate distance: Σ|d_i − c_i| / (2 − 2·min d), 0 = the desired
    distribution, 1 = the agent meant to win least wins everything."""
    worst = 2 - 2 * min(desired)
    if worst == 0:  # one kind only: it wins every game, its whole desired share
        return 0.0
    return sum(abs(d - c) for d, c in zip(desired, measured, strict=True)) / worst


def wilson(successes: float, n: int) -> tuple[float, float]:
    """The 95% Wilson score interval of a proportion (fractional successes allowed: a shared
    win counts as its share)."""
    if n == 0:
        return (math.nan, math.nan)
    p = successes / n
    centre = (p + Z95**2 / (2 * n)) / (1 + Z95**2 / n)
    half = Z95 * math.sqrt(p * (1 - p) / n + Z95**2 / (4 * n * n)) / (1 + Z95**2 / n)
    return (max(0.0, centre - half), min(1.0, centre + half))


def bootstrap_distance(wins: np.ndarray, seats: np.ndarray, desired: Sequence[float],
                       seed: int = 0, resamples: int = BOOTSTRAP_RESAMPLES
                       ) -> tuple[float, float]:
    """The 95% interval of the win-rate distance, resampling whole games with a seeded
    generator. ``wins[g, k]`` is kind k's summed win share in game g, ``seats[g, k]`` the seats
    it had there."""
    rng = np.random.default_rng(seed)
    games = len(wins)
    picks = rng.integers(0, games, size=(resamples, games))
    ratios = wins[picks].sum(axis=1) / np.maximum(seats[picks].sum(axis=1), 1)
    spread = np.array([distance(desired, row) for row in ratios])
    low, high = np.percentile(spread, [2.5, 97.5])
    return float(low), float(high)


@dataclass(frozen=True)
class KindRow:
    """One agent kind over a batch; means are per seat it played."""

    kind: str
    seats: int
    win_ratio: float
    win_low: float
    win_high: float
    score: float
    connections: float
    tickets: float
    longest: float
    kept: float
    finished: float
    ticket_draws: float
    turns: float
    published: float | None


@dataclass(frozen=True)
class DistanceRow:
    desired: tuple[float, ...]
    kinds: tuple[str, ...]
    measured: float
    low: float
    high: float
    published_table1: float | None  # the note's formula applied to the published win ratios


@dataclass(frozen=True)
class BatchSummary:
    games: int
    kinds: tuple[KindRow, ...]
    distance: DistanceRow
    mean_turns: float
    end_reasons: dict[str, float]


def kind_order(lineups: Iterable[Sequence[str]]) -> tuple[str, ...]:
    """Agent kinds in the order they first appear (give the unrotated line-up first)."""
    seen: list[str] = []
    for lineup in lineups:
        for k in lineup:
            if k not in seen:
                seen.append(k)
    return tuple(seen)


def summarise(results: Sequence[GameResult], desired: Sequence[float],
              order: Sequence[str] | None = None, bootstrap_seed: int = 0,
              resamples: int = BOOTSTRAP_RESAMPLES) -> BatchSummary:
    """The batch table. ``desired`` is one share per kind in ``order`` (default: the kinds as
    first seen); the distance interval resamples whole games with a seeded generator."""
    kinds = tuple(order or kind_order(r.lineup for r in results))
    if len(desired) != len(kinds):
        raise ValueError(f"{len(desired)} desired shares for {len(kinds)} agent kinds "
                         f"({', '.join(kinds)}); give one share per kind")
    # per game and kind: the summed win share and the number of seats the kind had
    wins = np.zeros((len(results), len(kinds)))
    seats = np.zeros((len(results), len(kinds)))
    rows = []
    for g, r in enumerate(results):
        for s in r.seats:
            wins[g, kinds.index(s.kind)] += s.win
            seats[g, kinds.index(s.kind)] += 1
    for k, kind in enumerate(kinds):
        mine = [s for r in results for s in r.seats if s.kind == kind]
        n = len(mine)
        won = float(wins[:, k].sum())

        def mean(field: str, of: list[Any] = mine) -> float:
            return sum(getattr(s, field) for s in of) / len(of) if of else math.nan

        low, high = wilson(won, n)
        rows.append(KindRow(kind, n, won / n if n else math.nan, low, high, mean("score"),
                            mean("connections"), mean("tickets"), mean("longest"),
                            mean("kept"), mean("finished"), mean("ticket_draws"),
                            mean("turns"), PUBLISHED_WIN_RATIOS.get(kind)))
    measured = distance(desired, [row.win_ratio for row in rows])
    low, high = bootstrap_distance(wins, seats, desired, bootstrap_seed, resamples)
    published = ([PUBLISHED_WIN_RATIOS[k] for k in kinds]
                 if all(k in PUBLISHED_WIN_RATIOS for k in kinds) else None)
    reasons: dict[str, float] = {}
    for r in results:
        reasons[r.end_reason] = reasons.get(r.end_reason, 0) + 1 / len(results)
    return BatchSummary(
        games=len(results), kinds=tuple(rows),
        distance=DistanceRow(tuple(desired), kinds, measured, low, high,
                             distance(desired, published) if published else None),
        mean_turns=sum(r.turns for r in results) / len(results), end_reasons=reasons)


SEAT_FIELDS = ("kind", "score", "connections", "tickets", "longest", "longest_length", "kept",
               "finished", "ticket_draws", "turns", "trains_left", "win")


def csv_columns(players: int) -> list[str]:
    return ["seed", "board", "turns", "end_reason"] + [
        f"{name}_{p}" for p in range(players) for name in SEAT_FIELDS]


def csv_row(result: GameResult) -> dict[str, Any]:
    row: dict[str, Any] = {"seed": result.seed, "board": result.board, "turns": result.turns,
                           "end_reason": result.end_reason}
    for s in result.seats:
        seat = asdict(s)
        row |= {f"{name}_{s.seat}": seat[name] for name in SEAT_FIELDS}
    return row
