"""PNG figures for the command line: batch results and the max-score curve (matplotlib's Agg
backend: no display needed)."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import matplotlib

from game.files import save_figure
from maxscore import MaxScoreResult

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402  (the backend must be chosen first)


def batch_plot(rows: Sequence[dict[str, Any]], path: str) -> None:
    """Left: mean worlds remaining after each turn (log scale). Right: score distribution per
    agent kind."""
    fig, (left, right) = plt.subplots(1, 2, figsize=(11, 4.2))
    series = [[int(w) for w in str(r["worlds_by_turn"]).split()] for r in rows]
    longest = max((len(s) for s in series), default=0)
    means = []
    for t in range(longest):
        alive = [s[t] if t < len(s) else s[-1] for s in series if s]
        means.append(sum(alive) / len(alive))
    left.plot(range(1, longest + 1), means)
    left.set_yscale("log")
    left.set_xlabel("turn")
    left.set_ylabel("worlds remaining (mean)")
    left.set_title("Possible worlds over turns")
    scores: dict[str, list[int]] = defaultdict(list)
    for r in rows:
        for p in range(r["players"]):
            scores[r[f"kind_{p}"]].append(int(r[f"score_{p}"]))
    kinds = sorted(scores)
    right.hist([scores[k] for k in kinds], bins=20, label=kinds)
    right.set_xlabel("final score")
    right.set_ylabel("players")
    right.set_title("Score distribution by agent kind")
    right.legend()
    fig.tight_layout()
    _save(fig, path, dpi=100)


def max_score_plot(results: Sequence[MaxScoreResult], path: str | Path, title: str) -> None:
    """Save the score curve (total, connections, tickets, proven bound) as a PNG."""
    trains = [r.trains for r in results]
    fig, ax = plt.subplots(figsize=(8, 5))
    ax.plot(trains, [r.total for r in results], "o-", label="total", color="black")
    ax.plot(trains, [r.ticket_points for r in results], "s-", label="from tickets")
    ax.plot(trains, [r.connection_points for r in results], "^-", label="from connections")
    open_ = [r for r in results if not r.proven]
    if open_:
        ax.plot([r.trains for r in open_], [r.bound for r in open_], "x", color="red",
                label="bound (not proven)")
    ax.set_xlabel("trains")
    ax.set_ylabel("points")
    ax.set_title(title)
    ax.grid(alpha=0.3)
    ax.legend()
    fig.tight_layout()
    _save(fig, path, dpi=120)


def _save(fig: Any, path: str | Path, dpi: int) -> None:
    """The figure as a PNG through a temporary file: a failed draw leaves no half picture."""
    try:
        save_figure(fig, path, dpi)
    finally:
        plt.close(fig)
