"""The europe24 search (issue 10): which 24 cities of the Europe map, and how many trains each,
make a game worth watching.

1. Structure: ``boards.tools.europe_cut.candidate_cuts``, every bridgeless 24-city cut the
   deterministic search reaches that holds 16 real regular tickets.
2. Screen: each candidate, as ``make_boards`` would write it, plays ``--screen`` seeded games
   (3 players × 2 tickets, all epistemic, ``--screen-trains`` trains each); the ``--keep`` best by
   the gameplay report's goals (most goals met, then the smallest shortfall) go on.
3. Trains: each kept cut plays ``--games`` games at each of ``--trains``; the best (cut, trains)
   wins.

The games use seeds from 10,000 on, apart from the seeds 0–999 the README's figures are
measured on, so the figures are not those the search picked for. Every step is deterministic:
the same data and options give the same ranking on any machine and any number of workers.
``--write`` records the winner in ``boards/tools/europe24_cut.json``; then
``python -m boards.tools.make_boards DATA_DIR`` writes ``boards/data/europe24.json`` from it.

Run: ``python -m lab.europe24_search ../shared/data [--write]`` (about an hour on 2 cores).
The shipped cut was chosen with the smaller budget its record names (``chosen_by``: 24 games per
cut, the 6 best, 14–22 trains, 150 games each; about 20 minutes on a shared 2-core machine).
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import sys
import tempfile
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from functools import partial
from pathlib import Path
from typing import Any

from tqdm import tqdm

from agents.batch import GameSpec
from agents.gameplay import GOALS, gameplay_rows, goals_key
from boards import parse_board
from boards.tools.europe_cut import Cut, candidate_cuts, choose_cut
from boards.tools.make_boards import EUROPE24_RECORD, Europe

SEARCH_SEEDS = 10_000  # the first seed of the search's games


def parse_trains(text: str) -> list[int]:
    """``12:24:2`` (from:to:step, both ends included) or ``14,16,18``."""
    if ":" in text:
        start, stop, step = (int(x) for x in text.split(":"))
        return list(range(start, stop + 1, step))
    return [int(x) for x in text.split(",")]


class Evaluator:
    """Plays a cut's games through the gameplay report, in a process pool."""

    def __init__(self, europe: Europe, pool_map: Callable[..., Any]):
        self.europe, self.map = europe, pool_map

    def row(self, cut: Cut, trains: int, games: int) -> dict[str, Any]:
        board = parse_board(self.europe.board(cut.cities, trains), "europe24 candidate")
        spec = GameSpec(board, players=3, tickets_each=2, agent_kinds="epistemic")
        [row] = gameplay_rows([spec], range(SEARCH_SEEDS, SEARCH_SEEDS + games), map=self.map)
        return row

    def screen(self, trains: int, games: int) -> Callable[[Cut], tuple[Any, Any]]:
        progress = tqdm(desc="screen", unit="cut", file=sys.stderr)

        def evaluate(cut: Cut) -> tuple[Any, Any]:
            row = self.row(cut, trains, games)
            progress.update()
            return goals_key(row), row
        return evaluate

    def best_trains(self, trains: Sequence[int], games: int) -> Callable[[Cut], tuple[Any, Any]]:
        progress = tqdm(desc="trains", unit="cut", file=sys.stderr)

        def evaluate(cut: Cut) -> tuple[Any, Any]:
            rows = [self.row(cut, t, games) for t in trains]
            best = max(rows, key=goals_key)  # the first of equals: fewer trains win ties
            progress.update()
            return goals_key(best), best
        return evaluate


def write_record(path: Path, cut: Cut, row: dict[str, Any], command: str) -> None:
    """Record the winner (atomically: a temporary file in the same folder, then renamed)."""
    record = {"cities": list(cut.cities), "trains": row["trains"], "chosen_by": command,
              "measured": {k: row[k] for k in ("games", *(g.column for g in GOALS))}}
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".europe24_cut.", suffix=".json")
    with os.fdopen(fd, "w", encoding="utf-8") as f:
        f.write(json.dumps(record, indent=2, ensure_ascii=False) + "\n")
    os.replace(tmp, path)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m lab.europe24_search", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("data_dir", type=Path, help="folder holding europe_map.json")
    parser.add_argument("--screen", type=int, default=60, help="games per cut (default 60)")
    parser.add_argument("--screen-trains", type=int, default=18, help="default 18")
    parser.add_argument("--keep", type=int, default=12, help="cuts kept (default 12)")
    parser.add_argument("--trains", type=parse_trains, default=parse_trains("12:24:2"),
                        help="trains to try on the kept cuts (default 12:24:2)")
    parser.add_argument("--games", type=int, default=400,
                        help="games per kept cut and trains (default 400)")
    parser.add_argument("--workers", type=int, default=2, help="worker processes (default 2)")
    parser.add_argument("--write", action="store_true",
                        help=f"record the winner in {EUROPE24_RECORD.name}")
    args = parser.parse_args(argv)
    if not (args.data_dir / "europe_map.json").is_file():
        parser.error(f"{args.data_dir} holds no europe_map.json; give the shared data folder")

    europe = Europe(args.data_dir.resolve())
    candidates = candidate_cuts(europe.graph, europe.tickets)
    print(f"{len(candidates)} bridgeless 24-city cuts with a deck of real tickets")
    with ProcessPoolExecutor(args.workers,
                             mp_context=multiprocessing.get_context("spawn")) as pool:
        evaluator = Evaluator(europe, partial(pool.map, chunksize=5))
        ranking = choose_cut(candidates, [
            (args.keep, evaluator.screen(args.screen_trains, args.screen)),
            (args.keep, evaluator.best_trains(args.trains, args.games))])
    print_ranking(ranking)
    cut, _, row = ranking[0]
    print(f"\nchosen: {row['trains']} trains, cities {', '.join(cut.cities)}")
    if args.write:
        options = [a for a in (sys.argv[1:] if argv is None else argv)
                   if a not in (str(args.data_dir), "--write")]
        command = " ".join(["python -m lab.europe24_search DATA_DIR --write", *options])
        write_record(EUROPE24_RECORD, cut, row, command)
        print(f"recorded in {EUROPE24_RECORD}; now run python -m boards.tools.make_boards DATA_DIR")
    return 0


def print_ranking(ranking: Sequence[tuple[Cut, Any, dict[str, Any]]]) -> None:
    """The kept cuts, best first, each figure under its column's name (the search runs on its
    own, so it lays out its one table itself rather than through the command line's printer)."""
    columns = ("rank", "trains", "connections", "goals met", *(g.column for g in GOALS))
    print("  ".join(columns))
    for n, (cut, key, row) in enumerate(ranking):
        cells = (n + 1, row["trains"], cut.connections, key[0],
                 *(f"{row[g.column]:.3g}" for g in GOALS))
        print("  ".join(str(c).rjust(len(h)) for c, h in zip(cells, columns, strict=True)))


if __name__ == "__main__":
    raise SystemExit(main())
