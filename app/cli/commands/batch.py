"""``ttr-kripke batch``: many seeded games in parallel, a CSV row each, an aggregate table."""

from __future__ import annotations

import argparse
import csv

from agents.batch import GameSpec, by_kind, columns, mean, play_game
from app.cli.batch_runs import check_output, kept_on_interrupt, workers
from app.cli.lab_options import add_strategies_option
from app.cli.main import UsageError
from app.cli.options import (
    RULES_HELP,
    add_game_options,
    add_workers_option,
    figure_file,
    file_name,
    whole,
)
from app.cli.table import print_table
from game.fields import MAX_GAMES
from game.files import atomic_output
from game.table import END_REASONS
from lab.runner import run_jobs

NAME = "batch"
HELP = "run seeded games in parallel, write one CSV row per game, print win rates and means"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_game_options(parser)
    parser.add_argument("--games", type=whole(1, MAX_GAMES), default=100,
                        help=f"number of games, 1 to {MAX_GAMES:,} (default 100)")
    add_workers_option(parser, 1, "1 plays here (default; 0 too, as in the design lab's "
                       "commands); N starts a local Dask cluster of N workers", least=0)
    parser.add_argument("--scheduler", metavar="tcp://HOST:PORT",
                        help="play on an existing Dask cluster (see the README)")
    parser.add_argument("--csv", type=file_name, default="batch.csv", metavar="FILE",
                        help="where to write one row per game (default batch.csv)")
    parser.add_argument("--overwrite", action="store_true", help="replace an existing CSV")
    parser.add_argument("--plot", type=figure_file, metavar="FILE",
                        help="save a picture of worlds over turns and score distributions "
                             "(.png, .svg or .pdf)")
    parser.add_argument("--no-progress", action="store_true", help="no progress bar")
    parser.add_argument("--rules", choices=(*RULES_HELP, "standard"), default="simplified",
                        help=f"{', '.join(RULES_HELP.values())} or standard (the published "
                             "rules; agents osta, pa, lrja, ha, baseline, random); default "
                             "simplified")
    parser.add_argument("--rotate-seats", action="store_true",
                        help="standard rules: game i moves every agent i seats on")
    parser.add_argument("--desired", metavar="SHARES",
                        help="standard rules: desired win shares per agent kind for the "
                             "win-rate distance (default an even split)")
    add_strategies_option(parser)


def _check(args: argparse.Namespace) -> GameSpec:
    check_output(args)
    if args.rotate_seats or args.desired or args.strategies is not None:
        raise UsageError("--rotate-seats, --desired and --strategies belong to --rules "
                         "standard")
    spec = GameSpec(args.board, args.players, args.tickets, args.agents, args.trains,
                    args.backend, args.rules)
    spec.model(args.seed)  # a bad parameter fails here, once, before any worker starts
    return spec


def run(args: argparse.Namespace) -> int:
    if args.rules == "standard":
        from app.cli.standard_batch import run_standard

        return run_standard(args)
    spec = _check(args)
    seeds = range(args.seed, args.seed + args.games)
    rows: list[dict] = []
    with kept_on_interrupt(rows, args), workers(args) as pool, \
            atomic_output(args.csv, keep_on_interrupt=True) as f:
        writer = csv.DictWriter(f, fieldnames=columns(spec.players))
        writer.writeheader()
        games = run_jobs(play_game, [(spec, seed) for seed in seeds], pool.executor, pool.count,
                         progress=None if args.no_progress else "games")
        for row in games:
            writer.writerow(row)  # rows are written as games finish: an interrupt keeps them
            rows.append(row)
    print_summary(rows)
    print(f"\n{len(rows)} games → {args.csv}")
    if args.plot:
        from agents.plots import batch_plot

        batch_plot(rows, args.plot)
        print(f"plot → {args.plot}")
    return 0


def print_summary(rows: list[dict]) -> None:
    print_table(("kind", "seats", "win rate", "mean score", "tickets done", "blocks"),
                [(k.kind, k.seats, f"{k.win_rate:.3f}", f"{k.mean_score:.2f}",
                  f"{k.mean_finished:.2f}", f"{k.mean_blocks:.2f}") for k in by_kind(rows)])
    print()
    print_table(("per game", "mean"),
                [("turns", f"{mean(rows, 'turns'):.1f}"),
                 ("blocks", f"{mean(rows, 'blocks'):.2f}"),
                 ("give-away claims", f"{mean(rows, 'giveaways'):.2f}"),
                 ("worlds at the deal", f"{mean(rows, 'worlds_start'):.0f}"),
                 ("worlds at the end", f"{mean(rows, 'worlds_end'):.2f}"),
                 *((f"ended by {reason}", f"{share:.0%}") for reason, share in
                   end_reasons(rows).items())])


def end_reasons(rows: list[dict]) -> dict[str, float]:
    """Share of games per end condition, in the design notes' order."""
    return {reason: sum(r["end_reason"] == reason for r in rows) / len(rows)
            for reason in END_REASONS}
