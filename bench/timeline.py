"""Stepping back in a game: snapshots (what ``agents.timeline`` keeps) against a replay from the
seed, on the 4 × 4 deal (63,063,000 worlds) and on the demo's 3 × 2, one seeded epistemic game.

Each case runs in a process of its own (started fresh, not forked) so its peak memory is its own.

Run: ``ttr-kripke bench timeline``.
"""

from __future__ import annotations

import argparse
import multiprocessing
import resource
import time
from concurrent.futures import ProcessPoolExecutor

from agents.tables import Table
from bench.report import Report

CASES = ((3, 2), (4, 4))
SEED = 7


def measure(players: int, tickets: int, timeline: bool) -> dict[str, float]:
    """One game to its end, with or without a snapshot per turn; then the costs of going back
    to the middle by restoring a snapshot and by replaying from the seed."""
    from agents.model import TTRModel
    from agents.timeline import Timeline

    start = time.perf_counter()
    model = TTRModel(players=players, tickets_each=tickets, rng=SEED, backend="explicit")
    build = time.perf_counter() - start
    keeper = Timeline(model) if timeline else None
    start = time.perf_counter()
    while model.running:
        if keeper is not None:
            keeper.step()
        else:
            model.step()
    played = time.perf_counter() - start
    result = {"turns": model.turn, "build": build, "play": played,
              "peak": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 2**20}
    middle = model.turn // 2
    if keeper is not None:
        start = time.perf_counter()
        keeper.go(middle)
        result["restore"] = time.perf_counter() - start
    else:
        start = time.perf_counter()
        again = TTRModel(players=players, tickets_each=tickets, rng=SEED, backend="explicit")
        while again.turn < middle:
            again.step()
        result["replay"] = time.perf_counter() - start
    return result


def _run(players: int, tickets: int, timeline: bool) -> dict[str, float]:
    """``measure`` in a new process of its own: nothing this one holds counts in its peak."""
    with ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("spawn")) as pool:
        return pool.submit(measure, players, tickets, timeline).result()


def main(argv: list[str]) -> Report:
    # no options, but --help answers and a stray option is refused rather than ignored
    argparse.ArgumentParser(prog="ttr-kripke bench timeline", description=__doc__).parse_args(argv)
    rows = []
    for players, tickets in CASES:
        plain, kept = _run(players, tickets, False), _run(players, tickets, True)
        turns = int(kept["turns"])
        rows += [
            [f"{players}×{tickets}, back to turn {turns // 2} of {turns}: replay from seed",
             f"{plain['replay']:.3f} s", f"{plain['peak']:.2f} GiB", ""],
            [f"{players}×{tickets}, back to turn {turns // 2} of {turns}: restore snapshot",
             f"{kept['restore'] * 1000:.2f} ms", f"{kept['peak']:.2f} GiB",
             f"{(kept['play'] - plain['play']) / turns * 1000:+.2f} ms/turn"],
        ]
    return Report((Table.of(("case", "going back", "peak memory", "snapshot cost"), rows),))
