"""A measured batch: seeded games of one spec through the runner, each written as a CSV row the
moment it arrives and folded into the metrics, so neither the games nor their records pile up.
"""

from __future__ import annotations

import csv
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from agents.kinds import seat_jobs
from agents.standard_batch import kind_order
from game.files import atomic_output
from lab.cluster import Workers
from lab.games import LabGame, LabSpec, play_lab_game
from lab.metrics import Metrics, Tally
from lab.runner import run_jobs


def game_columns(players: int) -> list[str]:
    return ["seed", "turns", "end_reason", *(f"{name}_{p}" for p in range(players)
                                             for name in ("kind", "score", "win")),
            "claimed", "arc"]


def game_row(game: LabGame) -> dict[str, Any]:
    row: dict[str, Any] = {"seed": game.seed, "turns": game.turns, "end_reason": game.end_reason}
    for p, (kind, score, win) in enumerate(zip(game.lineup, game.scores, game.wins, strict=True)):
        row |= {f"kind_{p}": kind, f"score_{p}": score, f"win_{p}": round(win, 4)}
    row["claimed"] = " ".join(map(str, game.claimed))
    row["arc"] = " ".join(map(str, game.arc))
    return row


class Interrupted(Exception):
    """Ctrl-C during a measured batch: ``done`` games were kept (in the CSV, if one was asked
    for)."""

    def __init__(self, done: int, total: int, csv_path: str | Path | None):
        self.done, self.total, self.csv_path = done, total, csv_path
        kept = f" in {csv_path}" if csv_path else ""
        super().__init__(f"interrupted: {done} of {total} games kept{kept}")


def measure(spec: LabSpec, seeds: Sequence[int], workers: Workers,
            desired: Sequence[float] | None = None, csv_path: str | Path | None = None,
            progress: str | None = None, bootstrap_seed: int = 0) -> Metrics:
    """Play ``spec`` on every seed (seats rotated game by game) and measure the batch; with
    ``csv_path`` every game is also a row of that file, written as it arrives."""
    tally = Tally(spec.loaded(), kind_order([spec.lineup]))
    games = run_jobs(play_lab_game, seat_jobs(spec, seeds), workers.executor, workers.count,
                     progress=progress)
    try:
        if csv_path is None:
            for game in games:
                tally.add(game)
        else:
            with atomic_output(csv_path, keep_on_interrupt=True) as f:
                writer = csv.DictWriter(f, fieldnames=game_columns(len(spec.lineup)))
                writer.writeheader()
                for game in games:
                    writer.writerow(game_row(game))
                    tally.add(game)
    except KeyboardInterrupt:
        raise Interrupted(tally.games, len(seeds), csv_path) from None
    return tally.metrics(desired, bootstrap_seed)
