"""Games per second through the design lab's executor: plain in-process play (the yardstick),
the runner in this process (its own overhead), and a local Dask cluster of 1 and 2 workers
(chunked tasks, results in seed order). Goal: 2 workers at least 1.8 × one worker on 2 cores.
The games are the lab's main load, 4-player standard games on the USA board with the four
strategy agents; the same seeds in every row. Starting a cluster is timed apart (a search
starts it once).

Run: ``ttr-kripke bench lab [--games N]``.
"""

from __future__ import annotations

import argparse
import time

from agents.kinds import seat_jobs
from agents.tables import Table
from bench.report import Report
from game.fields import MAX_GAMES, argument, whole
from lab.cluster import open_workers
from lab.games import LabSpec, play_lab_game
from lab.runner import run_jobs


def main(argv: list[str]) -> Report:
    parser = argparse.ArgumentParser(prog="ttr-kripke bench lab", description=__doc__)
    parser.add_argument("--games", type=argument(lambda t: whole(t, 1, MAX_GAMES), "games"),
                        default=160, help="games per row (default 160)")
    args = parser.parse_args(argv)
    jobs = seat_jobs(LabSpec(), range(args.games))
    rows = []

    began = time.perf_counter()
    plain = [play_lab_game(*job) for job in jobs]
    yardstick = args.games / (time.perf_counter() - began)
    rows.append(("plain loop, this process", args.games, f"{yardstick:.1f}", "", "", ""))

    began = time.perf_counter()
    assert list(run_jobs(play_lab_game, jobs)) == plain
    rate = args.games / (time.perf_counter() - began)
    rows.append(("runner, in-process", args.games, f"{rate:.1f}",
                 f"{1 - rate / yardstick:+.1%}", "", ""))
    one = 0.0
    for n in (1, 2):
        began = time.perf_counter()
        with open_workers(n) as workers:
            started = time.perf_counter() - began
            began = time.perf_counter()
            assert list(run_jobs(play_lab_game, jobs, workers.executor, workers.count)) == plain
            rate = args.games / (time.perf_counter() - began)
        one = one or rate
        rows.append((f"local Dask cluster, {n} worker{'s' * (n > 1)}", args.games,
                     f"{rate:.1f}", f"{1 - rate / (yardstick * n):+.1%}",
                     f"{rate / one:.2f}×", f"{started:.1f} s"))
    return Report((Table.of(
        ("case", "games", "games/s", "overhead vs plain", "speed-up", "cluster start"), rows,
        after=("", "goal: 2 workers ≥ 1.8× one worker on 2 cores; overhead is 1 − rate / "
               "(plain rate × workers); every row plays the same games and gets the same "
               "results")),))
