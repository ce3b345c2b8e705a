"""``ttr-kripke batch --rules standard``: seeded standard games with strategy agents and the
playtesting papers' table (kept apart from ``app/cli/commands`` because every module there is a
subcommand)."""

from __future__ import annotations

import argparse
import csv

from agents.kinds import parse_lineup, seat_jobs
from agents.standard_batch import (
    PUBLISHED_DISTANCE,
    BatchSummary,
    csv_columns,
    csv_row,
    game_seeds,
    kind_order,
    summarise,
)
from agents.standard_game import PAPERS_LINEUP, GameResult, StandardSpec, play_standard_game
from app.cli.batch_runs import check_output, kept_on_interrupt, workers
from app.cli.lab_options import desired_shares, standard_strategies
from app.cli.main import UsageError
from app.cli.table import print_table
from game.files import atomic_output
from game.standard_rules import STANDARD_TRAINS
from lab.runner import run_jobs

DEFAULT_AGENTS = ",".join(PAPERS_LINEUP)


def standard_spec(args: argparse.Namespace) -> tuple[StandardSpec, tuple[float, ...]]:
    """The game spec and desired shares, every problem named before a game is played."""
    check_output(args)
    if args.plot:
        raise UsageError("--plot draws simplified-game batches; leave it out with --rules "
                         "standard")
    agents = DEFAULT_AGENTS if args.agents == "epistemic" else args.agents  # the default kind
    lineup = parse_lineup(agents, args.players, standard_strategies(args))
    spec = StandardSpec(board=args.board, lineup=lineup,
                        trains=STANDARD_TRAINS if args.trains is None else args.trains,
                        strategies=standard_strategies(args))
    spec.rules()  # a bad board or setting fails here, once
    return spec, desired_shares(args.desired, lineup)


def run_standard(args: argparse.Namespace) -> int:
    spec, desired = standard_spec(args)
    seeds = game_seeds(args.seed, args.games)
    results: list[GameResult] = []
    with kept_on_interrupt(results, args), workers(args) as pool, \
            atomic_output(args.csv, keep_on_interrupt=True) as f:
        writer = csv.DictWriter(f, fieldnames=csv_columns(len(spec.lineup)))
        writer.writeheader()
        games = run_jobs(play_standard_game, seat_jobs(spec, seeds, args.rotate_seats),
                         pool.executor, pool.count,
                         progress=None if args.no_progress else "games")
        for result in games:
            writer.writerow(csv_row(result))  # as games finish: an interrupt keeps them
            results.append(result)
    summary = summarise(results, desired, order=kind_order([spec.lineup]),
                        bootstrap_seed=args.seed)
    print(f"{spec.rules().board.title}, standard rules, {len(spec.lineup)} players "
          f"({', '.join(spec.lineup)}), {spec.trains} trains, {args.games} games from seed "
          f"{args.seed}{', seats rotated' if args.rotate_seats else ''}, "
          f"{spec.strategies} strategies\n")
    print_standard_summary(summary)
    print(f"\n{len(results)} games → {args.csv}")
    return 0


def print_standard_summary(summary: BatchSummary) -> None:
    print_table(
        ("agent", "seats", "win ratio", "95% interval", "paper", "score", "connections",
         "tickets", "longest", "kept", "finished", "ticket draws", "turns"),
        [(k.kind, k.seats, f"{k.win_ratio:.4f}", f"{k.win_low:.3f}–{k.win_high:.3f}",
          "" if k.published is None else f"{k.published:.4f}", f"{k.score:.1f}",
          f"{k.connections:.1f}", f"{k.tickets:.1f}", f"{k.longest:.1f}", f"{k.kept:.2f}",
          f"{k.finished:.2f}", f"{k.ticket_draws:.2f}", f"{k.turns:.1f}")
         for k in summary.kinds])
    d = summary.distance
    print(f"\nwin-rate distance to ({', '.join(f'{x:g}' for x in d.desired)}): "
          f"{d.measured:.3f} (95% bootstrap interval {d.low:.3f}–{d.high:.3f})")
    if d.published_table1 is not None:
        print(f"  paper: Table 2 gives {PUBLISHED_DISTANCE} for the original board; its Table 1 "
              f"win ratios give {d.published_table1:.3f} by the same formula")
    print()
    print_table(("per game", "mean"),
                [("turns", f"{summary.mean_turns:.1f}"),
                 *((f"ended by {reason}", f"{share:.1%}")
                   for reason, share in sorted(summary.end_reasons.items()))])
