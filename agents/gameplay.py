"""The gameplay report: is a game worth watching? Plain data in, plain rows out.

Over seeded games of one board, line-up and deal it measures what a watcher sees: how long
games last, how often a turn claims a connection (and the longest stretch in which none does),
how many tickets get finished, and how often each kind of announcement happens (a claim that
removes worlds, a declared block, a completed ticket). ``ttr-kripke bench gameplay`` and
``ttr-kripke metrics`` print it (:func:`report_tables`); the europe24 cut search and the design
lab call the same functions.

:func:`game_stats` plays one game and returns a :class:`GameStats` (small, picklable, a pure
function of its arguments, so any pool or cluster can run the games); :func:`gameplay_row`
folds many into one row of plain values; :func:`gameplay_rows` does both for several
line-ups, with any ``map`` (the built-in one, a process pool's, or Dask's).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from functools import partial
from typing import Any

import numpy as np

from agents.batch import GameSpec
from agents.model import TTRModel
from agents.tables import Table
from game.knowledge import AnnouncementKind
from game.table import END_REASONS

#: The first turns of a game the demo's default seed must show every kind of announcement in.
OPENING_TURNS = 30


@dataclass(frozen=True)
class GameStats:
    """What one game showed. ``first_*`` are 0-based turn numbers (``None``: never)."""

    seed: int
    turns: int
    claim_turns: int  # turns that claimed a connection (a block is a claim too)
    longest_without_claim: int  # the longest run of consecutive turns that claimed nothing
    tickets_dealt: int
    tickets_finished: int
    informative_claims: int  # claim announcements that removed worlds
    blocks: int
    completions: int  # announced completed tickets
    first_informative_claim: int | None
    first_block: int | None
    first_completion: int | None
    end_reason: str

    @property
    def opening_shows_all(self) -> bool:
        """Whether an informative claim, a block and a completion all happen in the first
        :data:`OPENING_TURNS` turns (what the demo's default seed must show)."""
        firsts = (self.first_informative_claim, self.first_block, self.first_completion)
        return all(t is not None and t < OPENING_TURNS for t in firsts)


def stats_of(model: TTRModel) -> GameStats:
    """The stats of a game played so far (normally to its end)."""
    turns = model.history
    firsts: dict[AnnouncementKind, int] = {}
    counts = dict.fromkeys(AnnouncementKind, 0)
    for turn in turns:
        for a in turn.announcements:
            if a.kind != AnnouncementKind.CLAIM or a.removed:
                counts[a.kind] += 1
                firsts.setdefault(a.kind, turn.turn)
    return GameStats(
        seed=model.seed, turns=len(turns),
        claim_turns=sum(t.claimed is not None for t in turns),
        longest_without_claim=longest_run(t.claimed is None for t in turns),
        tickets_dealt=len(model.state.dealt_tickets),
        tickets_finished=sum(map(len, model.state.finished)),
        informative_claims=counts[AnnouncementKind.CLAIM],
        blocks=counts[AnnouncementKind.BLOCK], completions=counts[AnnouncementKind.COMPLETION],
        first_informative_claim=firsts.get(AnnouncementKind.CLAIM),
        first_block=firsts.get(AnnouncementKind.BLOCK),
        first_completion=firsts.get(AnnouncementKind.COMPLETION),
        end_reason=str(model.state.end_reason))


def longest_run(flags: Iterable[bool]) -> int:
    """The length of the longest run of consecutive true flags."""
    best = run = 0
    for flag in flags:
        run = run + 1 if flag else 0
        best = max(best, run)
    return best


def game_stats(spec: GameSpec, seed: int) -> GameStats:
    """Play one seeded game to its end and measure it."""
    model = spec.model(seed)
    model.run()
    return stats_of(model)


def percentile(values: Sequence[float], q: float) -> float:
    """The ``q``-th percentile as a value some game had (nearest rank, no interpolation)."""
    return float(np.percentile(values, q, method="inverted_cdf"))


def gameplay_row(spec: GameSpec, games: Sequence[GameStats]) -> dict[str, Any]:
    """One report row: the spec's settings and the measures over ``games``."""
    n = len(games)

    def share(flags: Iterable[bool]) -> float:
        return sum(flags) / n

    turns = [g.turns for g in games]
    gaps = [g.longest_without_claim for g in games]
    rules = spec.rules()
    return {
        "board": rules.board.name, "agents": spec.agent_kinds, "players": spec.players,
        "tickets": spec.tickets_each, "trains": rules.trains, "games": n,
        "turns_median": float(np.median(turns)), "turns_p90": percentile(turns, 90),
        "claim_turn_share": sum(g.claim_turns for g in games) / sum(turns),
        "finished_share": sum(g.tickets_finished for g in games) / sum(
            g.tickets_dealt for g in games),
        "informative_claims_per_game": sum(g.informative_claims for g in games) / n,
        "blocks_per_game": sum(g.blocks for g in games) / n,
        "completions_per_game": sum(g.completions for g in games) / n,
        "with_informative_claim": share(g.informative_claims > 0 for g in games),
        "with_block": share(g.blocks > 0 for g in games),
        "with_completion": share(g.completions > 0 for g in games),
        "opening_shows_all": share(g.opening_shows_all for g in games),
        "gap_median": float(np.median(gaps)), "gap_p90": percentile(gaps, 90),
        **{f"ended_by_{reason}": share(g.end_reason == reason for g in games)
           for reason in END_REASONS},
    }


def gameplay_rows(specs: Sequence[GameSpec], seeds: Sequence[int],
                  map: Callable[..., Iterator[GameStats]] = map) -> list[dict[str, Any]]:
    """One row per spec over the same ``seeds``; ``map(function, seeds)`` runs the games (pass
    a pool's map to spread them over processes)."""
    return [gameplay_row(spec, list(map(partial(game_stats, spec), seeds))) for spec in specs]


@dataclass(frozen=True)
class Goal:
    """A goal for one column of a report row: its value must lie in [low, high] (``share``:
    the column is a fraction, shown as a percentage; ``label``: the column in words)."""

    column: str
    low: float = float("-inf")
    high: float = float("inf")
    share: bool = False
    label: str = ""

    def met(self, row: dict[str, Any]) -> bool:
        return self.low <= row[self.column] <= self.high

    def shortfall(self, row: dict[str, Any]) -> float:
        """How far the value lies outside the goal, relative to the bound it misses (0 if
        met): comparable across columns, so a search can weigh near misses."""
        value = row[self.column]
        if value < self.low:
            return (self.low - value) / abs(self.low)
        if value > self.high:
            return (value - self.high) / abs(self.high)
        return 0.0

    def shown(self, value: float) -> str:
        """A value of this column as the goal is written (a share as a percentage)."""
        return f"{value:.0%}" if self.share else f"{value:g}"

    def __str__(self) -> str:
        if self.low == float("-inf"):
            return f"≤ {self.shown(self.high)}"
        if self.high == float("inf"):
            return f"≥ {self.shown(self.low)}"
        return f"{self.shown(self.low)}–{self.shown(self.high)}"


#: Issue 10's goals for europe24, 3 players × 2 tickets, all epistemic: no dead stretches, every
#: kind of announcement in nearly every game, tickets finished, a game of a watchable length.
GOALS = (Goal("gap_median", high=8, label="longest run without a claim, median"),
         Goal("gap_p90", high=15, label="longest run without a claim, p90"),
         Goal("with_informative_claim", low=0.9, share=True,
              label="games with a claim that removes worlds"),
         Goal("with_block", low=0.9, share=True, label="games with a declared block"),
         Goal("with_completion", low=0.9, share=True, label="games with a completed ticket"),
         Goal("finished_share", low=0.3, share=True, label="dealt tickets finished"),
         Goal("turns_median", low=30, high=60, label="turns per game, median"))


def goals_key(row: dict[str, Any]) -> tuple[int, float]:
    """How well ``row`` meets :data:`GOALS`, higher is better: the number met, then the total
    shortfall of the others (smaller is better)."""
    return (sum(g.met(row) for g in GOALS), -sum(g.shortfall(row) for g in GOALS))


# --- the report's tables -------------------------------------------------------------------

def lineups(players: int) -> list[str]:
    """The report's line-ups: all epistemic, and one epistemic player against baseline players."""
    return ["epistemic", ",".join(["epistemic"] + ["baseline"] * (players - 1))]


def _case(row: dict[str, Any]) -> str:
    named = dict(zip(lineups(row["players"]), ("all epistemic", "epistemic vs baseline"),
                     strict=True))
    kinds = named.get(row["agents"], row["agents"])  # the lab's metrics: any line-up
    return f"{row['board']} {row['players']}×{row['tickets']}, {kinds}"


def percent(value: float) -> str:
    """A share as a whole percentage, as the report prints it."""
    return f"{value:.0%}"


def report_tables(rows: list[dict[str, Any]]) -> tuple[Table, ...]:
    """The three tables: the flow of play, the announcements, the goals (a blank line between
    them), as ``ttr-kripke bench gameplay`` and ``ttr-kripke metrics`` print them."""
    flow = Table.of(
        ("case", "trains", "games", "turns med", "turns p90", "claim turns", "no-claim run med",
         "no-claim run p90", "tickets done", "by trains", "by tickets", "by stalemate"),
        [(_case(r), r["trains"], r["games"], f"{r['turns_median']:g}", f"{r['turns_p90']:g}",
          percent(r["claim_turn_share"]), f"{r['gap_median']:g}", f"{r['gap_p90']:g}",
          percent(r["finished_share"]), percent(r["ended_by_trains"]),
          percent(r["ended_by_tickets"]), percent(r["ended_by_stalemate"])) for r in rows])
    announcements = Table.of(
        ("case", "informative claims", "blocks", "completions", "games with: inf. claim",
         "block", "completion", "all 3 in 30 turns"),
        [(_case(r), f"{r['informative_claims_per_game']:.2f}", f"{r['blocks_per_game']:.2f}",
          f"{r['completions_per_game']:.2f}", percent(r["with_informative_claim"]),
          percent(r["with_block"]), percent(r["with_completion"]), percent(r["opening_shows_all"]))
         for r in rows], before=("",))
    demo = next((r for r in rows if (r["board"], r["players"], r["tickets"], r["agents"])
                 == ("europe24", 3, 2, "epistemic")), None)
    if demo is None:
        return flow, announcements
    return flow, announcements, Table.of(
        ("goal (europe24 3×2, all epistemic)", "measured", "goal", "met"),
        [(g.label, g.shown(demo[g.column]), str(g), "yes" if g.met(demo) else "NO")
         for g in GOALS], before=("",))
