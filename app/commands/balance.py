"""``ttr-kripke balance``: change a board's ticket values, doubles, lengths and colours so that
a line-up wins as a desired distribution says (Smith & Anton 2022), then confirm the original,
the balanced and random boards over many games with intervals (the paper's Table 2)."""

from __future__ import annotations

import argparse
import csv
import sys
from dataclasses import asdict

from app.cli import UsageError
from app.lab_options import (
    add_game_options,
    add_run_options,
    check_run,
    desired_shares,
    lab_spec,
)
from app.options import file_name, whole
from bench.table import print_table
from boards import Board
from boards.writer import board_document, dumps
from game.fields import MAX_GAMES
from game.files import atomic_output, check_outputs, write_atomically, write_json
from lab.balance import Step, balance, random_board
from lab.batch import Interrupted, measure
from lab.cluster import open_workers
from lab.metrics import Metrics

NAME = "balance"
HELP = ("balance win rates: change ticket values, doubles, lengths and colours to bring a "
        "line-up's win ratios to --desired (simplified tree search), confirmed over many games")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_game_options(parser, games=20)
    parser.add_argument("--desired", metavar="SHARES",
                        help="desired win share per agent kind, comma-separated (default an "
                             "even split)")
    parser.add_argument("--restricted", action="store_true",
                        help="keep every length within ±1 of the original")
    parser.add_argument("--confirm", type=whole(1, MAX_GAMES), default=1000, metavar="GAMES",
                        help="games that measure the original, balanced and random boards at "
                             "the end (default 1000)")
    parser.add_argument("--random-boards", type=whole(0, MAX_RANDOM_BOARDS), default=1,
                        metavar="K",
                        help="random boards in the comparison (default 1)")
    parser.add_argument("--out", type=file_name, default="balanced", metavar="PREFIX",
                        help="writes PREFIX-steps.csv (each level of the search as it ends), "
                             "PREFIX-board.json (the board so far, then the balanced one) and "
                             "PREFIX.json (the comparison) (default balanced)")
    add_run_options(parser)


#: Random boards in the comparison at most: each plays --confirm games.
MAX_RANDOM_BOARDS = 100
STEP_COLUMNS = ("index", "phase", "feature", "chosen", "distance", "unchanged", "tried")


def run(args: argparse.Namespace) -> int:
    spec = lab_spec(args)
    desired = desired_shares(args.desired, spec.lineup)
    check_run(args)
    if len(set(spec.lineup)) < 2:
        raise UsageError("balancing needs at least two agent kinds in --agents")
    files = {"steps": f"{args.out}-steps.csv", "board": f"{args.out}-board.json",
             "json": f"{args.out}.json"}
    check_outputs([(f, "--out") for f in files.values()], overwrite=args.overwrite)
    original = spec.loaded()
    with open_workers(args.workers, args.scheduler) as workers:
        print(f"balance {original.title} for {', '.join(spec.lineup)} towards "
              f"{', '.join(f'{d:g}' for d in desired)}: {args.games} games per candidate"
              f"{', lengths within ±1' if args.restricted else ''}; {workers.where}",
              file=sys.stderr)
        levels: list[Step] = []
        try:
            with atomic_output(files["steps"], keep_on_interrupt=True) as f:
                writer = csv.DictWriter(f, fieldnames=STEP_COLUMNS)
                writer.writeheader()

                def note(step: Step, board: Board) -> None:
                    writer.writerow(asdict(step) | {"tried": " ".join(
                        f"{k}:{v:.3f}" for k, v in step.tried.items())})
                    f.flush()
                    write_atomically(files["board"], dumps(board_document(board)))
                    levels.append(step)
                    if not args.no_progress:
                        moved = "" if step.chosen == next(iter(step.tried)) else " (changed)"
                        print(f"level {step.index} (phase {step.phase}) {step.feature}: "
                              f"{step.chosen}{moved}, distance {step.distance:.3f}",
                              file=sys.stderr, flush=True)

                balanced = balance(spec, desired, workers, args.games, args.seed,
                                   args.restricted, note)
        except KeyboardInterrupt:
            board_so_far = (f"the board so far in {files['board']}" if levels else
                            "no level had finished")
            print(f"{args._prog}: interrupted; the levels done are in {files['steps']}, "
                  f"{board_so_far}", file=sys.stderr)
            return 130
        write_atomically(files["board"], dumps(board_document(balanced)))
        boards = [("original", original), ("balanced", balanced)] + [
            (f"random {k + 1}", random_board(original, args.seed + k, args.restricted))
            for k in range(args.random_boards)]
        first = (args.seed + 1) * 1_000_000 + 500_000  # seeds no level of the search used
        seeds = range(first, first + args.confirm)
        try:
            results = [(label, measure(spec.with_board(b), seeds, workers, desired,
                                       progress=None if args.no_progress else label,
                                       bootstrap_seed=args.seed)) for label, b in boards]
        except Interrupted as e:
            print(f"{args._prog}: {e}; the balanced board is in {files['board']}",
                  file=sys.stderr)
            return 130
    print_comparison(results, args.confirm, first)
    write_json(files["json"], {
        "board": original.name, "lineup": list(spec.lineup), "desired": list(desired),
        "restricted": args.restricted, "games_per_candidate": args.games,
        "confirm_games": args.confirm, "confirm_seeds": [first, first + args.confirm - 1],
        "boards": {label: {"distance": m.distance, "low": m.distance_low,
                           "high": m.distance_high,
                           "win_ratios": {k.kind: [k.win_ratio, k.low, k.high]
                                          for k in m.kinds}} for label, m in results}})
    print(f"\nbalanced board → {files['board']}; levels → {files['steps']}; comparison → "
          f"{files['json']}")
    return 0


def print_comparison(results: list[tuple[str, Metrics]], games: int, first: int) -> None:
    print(f"\n{games} games per board on seeds {first}–{first + games - 1}, seats rotated:")
    kinds = [k.kind for k in results[0][1].kinds]
    print_table(("board", "win-rate distance", "95% interval", *kinds),
                [(label, f"{m.distance:.3f}", f"{m.distance_low:.3f}–{m.distance_high:.3f}",
                  *(f"{k.win_ratio:.3f} ({k.low:.3f}–{k.high:.3f})" for k in m.kinds))
                 for label, m in results])
