"""``ttr-kripke balance``: change a board's ticket values, doubles, lengths and colours so that
a line-up wins as a desired distribution says (Smith & Anton 2022), then confirm the original,
the balanced and random boards over many games with intervals (the paper's Table 2)."""

from __future__ import annotations

import argparse
import csv
import io
import json
import math
import os
import stat
import sys
from collections.abc import Sequence
from dataclasses import asdict, replace
from pathlib import Path

import numpy as np
from scipy.stats import t as t_dist
from tqdm import tqdm

from app.cli.lab_options import (
    add_game_options,
    add_run_options,
    check_run,
    desired_shares,
    lab_spec,
)
from app.cli.main import UsageError
from app.cli.options import file_name, whole
from app.cli.table import print_table
from boards import Board
from boards.writer import board_document, dumps
from game.fields import MAX_GAMES
from game.files import atomic_output, check_outputs, write_atomically, write_json
from lab.balance import (
    FINEST,
    MAX_SCREEN,
    Step,
    balance,
    levels,
    random_board,
    screened,
)
from lab.batch import Interrupted, measure
from lab.cluster import Workers, open_workers
from lab.games import LabSpec
from lab.metrics import Metrics
from lab.newboard import Scale, joined, region, region_board
from lab.race import Rule

NAME = "balance"
HELP = ("balance win rates: change ticket values, doubles, lengths and colours to bring a "
        "line-up's win ratios to --desired (simplified tree search), confirmed over many games")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_game_options(parser, games=GAMES)
    parser.add_argument("--max-games", type=whole(1, MAX_GAMES), default=320, metavar="GAMES",
                        help="an undecided level doubles its games (from --games, "
                             f"{GAMES} by default) up to this many per candidate (default 320)")
    parser.add_argument("--alpha", type=float, default=0.05,
                        help="the chance a level keeps a change that is no better than the "
                             "unchanged board (default 0.05)")
    parser.add_argument("--resume", action="store_true",
                        help="go on from the levels in PREFIX-steps.csv of a stopped run with "
                             "the same options")
    parser.add_argument("--desired", metavar="SHARES",
                        help="desired win share per agent kind, comma-separated (default an "
                             "even split)")
    parser.add_argument("--restricted", action="store_true",
                        help="keep every length within ±1 of the original")
    parser.add_argument("--finest", type=whole(1, 1000), default=FINEST, metavar="K",
                        help="levels change a group of features of one kind together, coarse to "
                             "fine: all of them, then halves, quarters, ... down to groups of K "
                             f"(default {FINEST}; 1: down to each feature on its own)")
    parser.add_argument("--screen", type=whole(0, MAX_SCREEN), default=SCREEN, metavar="N",
                        help="start from the best of the original and N random boards: "
                             "successive halving from --games games each, then a race on new "
                             f"seeds against the original (default {SCREEN}; 0: start from "
                             "the original)")
    parser.add_argument("--rounds", type=whole(1, 100), default=ROUNDS, metavar="R",
                        help="screens in all: each after the first chooses the same way among "
                             "the board so far and --screen blends of it with random boards "
                             f"(a quarter of their features drawn again) (default {ROUNDS})")
    parser.add_argument("--from-nothing", action="store_true",
                        help="balance a new board instead of --board's (which lends it its "
                             "scale): --candidates planar 12-city regions, the three nearest "
                             "--desired over --screen-games games joined by six connections "
                             "per pair (Smith & Anton's graph optimiser)")
    parser.add_argument("--candidates", type=whole(3, 1000), default=30, metavar="N",
                        help="--from-nothing: regions to choose from (default 30)")
    parser.add_argument("--screen-games", type=whole(1, MAX_GAMES), default=200,
                        metavar="GAMES",
                        help="--from-nothing: games that measure each region (default 200)")
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
#: Games a candidate plays first, in a screen's first round and in a level's race. The paper
#: took 20; at 20 a race's bootstrap understates the noise, and the engine run of an earlier
#: stop kept changes at that first look that were probably noise.
GAMES = 80
#: Screens by default: in an engine run of 4 (USA, groups down to 32, 45 min on 2 cores) the
#: third found the largest step after the first's, the fourth nothing.
ROUNDS = 3
#: Random boards the search screens by default: with the original, 32 candidates, halved five
#: times (80 games each first, 1,280 for the last two: 7,680 games a screen).
SCREEN = 31
STEP_COLUMNS = ("index", "phase", "feature", "chosen", "distance", "unchanged", "stderr",
                "games", "tried")
#: The most bytes a stopped run's file is read to: a search's steps are a few hundred rows
#: of under a kilobyte, its options a few hundred bytes.
MAX_STOPPED_BYTES = 16 << 20


def run(args: argparse.Namespace) -> int:
    spec = replace(lab_spec(args), arc=False)  # distances only: no game arc to count
    desired = desired_shares(args.desired, spec.lineup)
    check_run(args)
    try:
        rule = Rule(args.games, args.max_games, args.alpha)
    except ValueError:
        raise UsageError(f"--max-games must be at least --games ({args.games}) and --alpha "
                         f"between 0 and 1, got {args.max_games} and {args.alpha:g}") from None
    if len(set(spec.lineup)) < 2:
        raise UsageError("balancing needs at least two agent kinds in --agents")
    files = {"steps": f"{args.out}-steps.csv", "board": f"{args.out}-board.json",
             "json": f"{args.out}.json", "search": f"{args.out}-search.json"}
    if args.from_nothing:
        files |= {"regions": f"{args.out}-regions.csv", "new": f"{args.out}-new.json"}
    original = spec.loaded()
    search = {"board": original.fingerprint, "lineup": list(spec.lineup),
              "from_nothing": [args.candidates, args.screen_games] if args.from_nothing
              else None,
              "desired": list(desired), "rules": spec.rules, "trains": spec.trains,
              "players": len(spec.lineup), "seed": args.seed, "restricted": args.restricted,
              "games": rule.games, "max_games": rule.max_games, "alpha": rule.alpha,
              "finest": args.finest, "screen": args.screen, "rounds": args.rounds,
              "strategies": spec.strategies}
    done = resumed_levels(files, search) if args.resume else []
    check_outputs([(f, "--out") for f in files.values()], overwrite=args.overwrite or args.resume)
    write_json(files["search"], search)
    with open_workers(args.workers, args.scheduler) as workers:
        if args.from_nothing:
            try:
                original = new_board(args, spec, desired, workers, files)
            except Interrupted as e:
                print(f"{args._prog}: {e}", file=sys.stderr)
                return 130
            spec = spec.with_board(original)
        print(f"balance {original.title} for {', '.join(spec.lineup)} towards "
              f"{', '.join(f'{d:g}' for d in desired)}: {rule.games} to {rule.max_games} "
              f"games per candidate, a change kept when better at level {rule.alpha:g}, "
              f"groups down to {args.finest} feature{'s' if args.finest > 1 else ''}"
              f"{f', from the best of {args.screen} random boards' if args.screen else ''}"
              f"{f' and {args.rounds - 1} more screens of blends' if args.rounds > 1 else ''}"
              f"{', lengths within ±1' if args.restricted else ''}"
              f"{f', resuming after level {len(done) - 1}' if done else ''}; {workers.where}",
              file=sys.stderr)
        finished = len(done)
        start = original  # the board the descent starts from (the screens' choice)
        for round_, row in enumerate(r for r in done if r["phase"] == "0"):
            start = dict(screened(original, start, args.seed, args.screen, args.restricted,
                                  round_)).get(row["chosen"], start)
        bar = tqdm(total=levels(start, original, args.finest, args.screen, args.rounds),
                   initial=len(done), desc="levels", unit="level", file=sys.stderr,
                   disable=args.no_progress)
        try:
            with atomic_output(files["steps"], keep_on_interrupt=True) as f, bar:
                writer = csv.DictWriter(f, fieldnames=STEP_COLUMNS)
                writer.writeheader()
                writer.writerows(done)

                def note(step: Step, board: Board) -> None:
                    nonlocal finished, start
                    if step.phase == 0:
                        start = board
                    writer.writerow(asdict(step) | {"tried": ", ".join(
                        f"{k}:{v:.3f}" for k, v in step.tried.items())})
                    f.flush()
                    write_atomically(files["board"], dumps(board_document(board)))
                    finished += 1
                    bar.total = levels(start, board, args.finest, args.screen, args.rounds)
                    bar.update()
                    if step.phase == 3 and step.games:
                        bar.write(f"level {step.index}, the check on {step.games} new games: "
                                  f"the search's board {step.tried['balanced']:.3f}, the "
                                  f"original {step.tried['original']:.3f} (±{step.stderr:.3f}):"
                                  f" the {step.chosen} board kept", file=sys.stderr)
                    elif step.chosen not in ("unchanged", "original"):
                        bar.write(f"level {step.index} (phase {step.phase}) {step.feature}: "
                                  f"{step.chosen}, distance {step.distance:.3f} (unchanged "
                                  f"{step.unchanged:.3f}, ±{step.stderr:.3f}, {step.games} "
                                  "games)", file=sys.stderr)

                def screening(boards: int, games: int) -> None:
                    bar.write(f"screen: {boards} boards, each to {games} games", file=sys.stderr)

                balanced = balance(spec, desired, workers, rule, args.seed, args.restricted,
                                   note, [(r["feature"], r["chosen"]) for r in done],
                                   args.finest, args.screen, screening, args.rounds)
        except KeyboardInterrupt:
            board_so_far = (f"the board so far in {files['board']}; add --resume to go on"
                            if finished else "no level had finished")
            print(f"{args._prog}: interrupted; the levels done are in {files['steps']}, "
                  f"{board_so_far}", file=sys.stderr)
            return 130
        write_atomically(files["board"], dumps(board_document(balanced)))
        boards = [("new board" if args.from_nothing else "original", original),
                  ("balanced", balanced)] + [
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
    randoms = [m.distance for label, m in results if label.startswith("random")]
    print_comparison(results, args.confirm, first, randoms)
    write_json(files["json"], {
        "board": original.name, "lineup": list(spec.lineup), "desired": list(desired),
        "strategies": spec.strategies, "restricted": args.restricted,
        "games_per_candidate": [rule.games, rule.max_games],
        "alpha": rule.alpha,
        "confirm_games": args.confirm, "confirm_seeds": [first, first + args.confirm - 1],
        "boards": {label: {"distance": m.distance, "low": m.distance_low,
                           "high": m.distance_high,
                           "win_ratios": {k.kind: [k.win_ratio, k.low, k.high]
                                          for k in m.kinds}} for label, m in results},
        "random_mean": random_mean(randoms)})
    print(f"\nbalanced board → {files['board']}; levels → {files['steps']}; comparison → "
          f"{files['json']}")
    return 0


def new_board(args: argparse.Namespace, spec: LabSpec, desired: Sequence[float],
              workers: Workers, files: dict[str, str]) -> Board:
    """Screen the regions, join the best three, write the regions' table and the new board
    (:mod:`lab.newboard`); the board the search then balances."""
    scale = Scale.of(spec.loaded())
    first = args.seed * 1_000_000 + 800_000  # seeds no level or confirmation uses
    seeds = range(first, first + args.screen_games)
    regions = [region(args.seed * 10_000 + k) for k in range(args.candidates)]
    boards = [region_board(r, scale) for r in regions]
    measured = [(r, b, measure(spec.with_board(b), seeds, workers, desired,
                               progress=None if args.no_progress else f"region {k + 1}",
                               bootstrap_seed=args.seed))
                for k, (r, b) in enumerate(zip(regions, boards, strict=True))]
    ranked = sorted(measured, key=lambda rbm: (rbm[2].distance, rbm[0].seed))
    with atomic_output(files["regions"]) as f:
        writer = csv.writer(f)
        writer.writerow(("region", "connections", "trains", "distance", "low", "high",
                         "chosen"))
        for k, (r, b, m) in enumerate(ranked):
            writer.writerow((r.seed, len(r.edges), b.trains, f"{m.distance:.4f}",
                             f"{m.distance_low:.4f}", f"{m.distance_high:.4f}", int(k < 3)))
    best = [r for r, _, _ in ranked[:3]]
    board = joined(best, scale, args.seed)
    write_atomically(files["new"], dumps(board_document(board)))
    print(f"{args.candidates} regions over {args.screen_games} games each: the three nearest "
          f"{', '.join(str(r.seed) for r in best)} at "
          f"{', '.join(f'{m.distance:.3f}' for _, _, m in ranked[:3])} (all in "
          f"{files['regions']}); joined by {sum(c.a[0] != c.b[0] for c in board.connections)} "
          f"connections: {len(board.cities)} cities, {len(board.connections)} connections → "
          f"{files['new']}", file=sys.stderr)
    return board


def resumed_levels(files: dict[str, str], search: dict[str, object]) -> list[dict[str, str]]:
    """The levels a stopped run with the same options finished (its steps file's rows), or a
    one-line error naming the file that cannot be resumed from and why."""
    steps, saved = Path(files["steps"]), Path(files["search"])
    if not (steps.exists() and saved.exists()):
        raise UsageError(f"no stopped run to resume at {files['steps']}; start without "
                         "--resume (or give the --out of the stopped run)")
    try:
        same = json.loads(_stopped_file(saved)) == search
    except (OSError, ValueError, RecursionError) as e:
        raise UsageError(f"cannot read {files['search']} ({_reason(e)}); start without "
                         "--resume") from None
    if not same:
        raise UsageError(f"{files['search']} was written with other options; resume with the "
                         "same ones, or start without --resume")
    try:
        # lists, not a DictReader's dicts: a row cut short would be None where cells are missing
        lines = [line for line in csv.reader(io.StringIO(_stopped_file(steps), newline=""))
                 if line]
    except (OSError, ValueError, csv.Error) as e:
        raise UsageError(f"cannot read {files['steps']} ({_reason(e)}); start without "
                         "--resume") from None
    # the header itself, so a damaged one with no rows under it is not "no level done yet"
    if not lines or tuple(lines[0]) != STEP_COLUMNS:
        raise UsageError(f"{files['steps']} is not a balance steps file; start without "
                         "--resume")
    rows = []
    for number, line in enumerate(lines[1:]):
        row = dict(zip(STEP_COLUMNS, line, strict=False))
        problem = f"{len(line)} cells where {len(STEP_COLUMNS)} belong" \
            if len(line) != len(STEP_COLUMNS) else _step_problem(row, number)
        if problem:
            raise UsageError(f"{files['steps']}, row {number + 1}: {problem}; the file was "
                             "edited or damaged, start without --resume")
        rows.append(row)
    return rows


def _stopped_file(path: Path) -> str:
    """A stopped run's file as text: a regular file (a FIFO hung the resume for minutes,
    ``/dev/zero`` ran it out of memory) of at most :data:`MAX_STOPPED_BYTES`, else
    ``ValueError`` saying which it is not."""
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)
    with os.fdopen(fd, "rb") as f:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise ValueError("not a regular file")
        data = f.read(MAX_STOPPED_BYTES + 1)
    if len(data) > MAX_STOPPED_BYTES:
        raise ValueError(f"more than {MAX_STOPPED_BYTES:,} bytes, more than a search writes")
    return data.decode("utf-8")


def _reason(error: Exception) -> str:
    """An exception as a message's reason: an OSError's words, else its text, cut short."""
    if isinstance(error, RecursionError):
        return "nested too deeply to be one"
    text = error.strerror if isinstance(error, OSError) and error.strerror else str(error)
    return text[:120]


def _step_problem(row: dict[str, str], number: int) -> str | None:
    """Why a steps row cannot be a level the search wrote (its ``number``-th, from 0): its
    index, a phase 0 to 3, a whole count of games and finite measures (a level that played no
    game, nothing of its group being left to change, measured nothing: ``nan`` there); None
    if it can."""
    if row["index"] != str(number):
        return f"index {row['index'][:20]!r} where {number} belongs"
    if row["phase"] not in ("0", "1", "2", "3"):
        return f"phase {row['phase'][:20]!r} is not 0 to 3"
    if not (row["games"].isascii() and row["games"].isdigit()):
        return f"games {row['games'][:20]!r} is not a whole number"
    played = int(row["games"]) > 0
    for column in ("distance", "unchanged", "stderr"):
        try:
            value = float(row[column])
        except ValueError:
            return f"{column} {row[column][:20]!r} is not a number"
        if not math.isfinite(value) and (played or not math.isnan(value)):
            return f"{column} {row[column][:20]!r} is not a finite number"
    return None


def random_mean(distances: list[float]) -> dict[str, float] | None:
    """The random boards' mean distance with a 95% t interval over the boards (the spread that
    matters when a balanced board is compared with random ones), None without two boards."""
    if len(distances) < 2:
        return None
    mean = float(np.mean(distances))
    half = float(t_dist.ppf(0.975, len(distances) - 1) * np.std(distances, ddof=1)
                 / np.sqrt(len(distances)))
    return {"distance": mean, "low": max(0.0, mean - half), "high": min(1.0, mean + half),
            "boards": len(distances)}


def print_comparison(results: list[tuple[str, Metrics]], games: int, first: int,
                     randoms: list[float]) -> None:
    print(f"\n{games} games per board on seeds {first}–{first + games - 1}, seats rotated:")
    kinds = [k.kind for k in results[0][1].kinds]
    rows = [(label, f"{m.distance:.3f}", f"{m.distance_low:.3f}–{m.distance_high:.3f}",
             *(f"{k.win_ratio:.3f} ({k.low:.3f}–{k.high:.3f})" for k in m.kinds))
            for label, m in results]
    mean = random_mean(randoms)
    if mean is not None:
        rows.append((f"random boards, mean of {mean['boards']}", f"{mean['distance']:.3f}",
                     f"{mean['low']:.3f}–{mean['high']:.3f}", *("" for _ in kinds)))
    print_table(("board", "win-rate distance", "95% interval", *kinds), rows)
