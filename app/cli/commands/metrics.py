"""``ttr-kripke metrics``: the design papers' metrics of a board, deck, rules and line-up over
seeded games: game arc, city undesirability, deck statistics, win ratios and the win-rate
distance; printed, and saved as CSV (a row per game), JSON (the summary) and two PNGs."""

from __future__ import annotations

import argparse
import math
import sys
from dataclasses import asdict

from agents.belief import BeliefSummary
from agents.gameplay import gameplay_row, report_tables
from app.cli.lab_options import (
    add_game_options,
    add_run_options,
    check_run,
    desired_shares,
    lab_spec,
)
from app.cli.options import file_name
from app.cli.table import print_table, print_tables
from boards import Board
from game.files import check_outputs, write_json
from lab.batch import Interrupted, measure
from lab.cluster import open_workers
from lab.decks import deck_stats
from lab.metrics import Metrics

NAME = "metrics"
HELP = ("game arc, city undesirability, deck statistics, win ratios and win-rate distance of a "
        "board over seeded games (CSV, JSON and PNG files)")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_game_options(parser)
    parser.add_argument("--desired", metavar="SHARES",
                        help="desired share of the games won per agent kind for the win-rate "
                             "distance (default: each kind's share of the seats)")
    parser.add_argument("--out", type=file_name, default="metrics", metavar="PREFIX",
                        help="writes PREFIX-games.csv, PREFIX.json, PREFIX-arc.png and "
                             "PREFIX-cities.png (default metrics)")
    add_run_options(parser)


def outputs(prefix: str) -> dict[str, str]:
    return {"csv": f"{prefix}-games.csv", "json": f"{prefix}.json", "arc": f"{prefix}-arc.png",
            "cities": f"{prefix}-cities.png"}


def run(args: argparse.Namespace) -> int:
    spec = lab_spec(args)
    desired = desired_shares(args.desired, spec.lineup)
    check_run(args)
    files = outputs(args.out)
    check_outputs([(f, "--out") for f in files.values()], overwrite=args.overwrite)
    board = spec.loaded()
    seeds = range(args.seed, args.seed + args.games)
    with open_workers(args.workers, args.scheduler) as workers:
        print(f"{board.title}, {spec.rules} rules, {len(spec.lineup)} players "
              f"({', '.join(spec.lineup)}), {args.games} games from seed {args.seed}, seats "
              f"rotated, {spec.strategies} strategies; {workers.where}", file=sys.stderr)
        try:
            m = measure(spec, seeds, workers, desired, files["csv"],
                        None if args.no_progress else "games", bootstrap_seed=args.seed)
        except Interrupted as e:
            print(f"{args._prog}: {e}", file=sys.stderr)
            return 130
    from lab.draw import arcs_png, undesirability_png

    print_metrics(m, board)
    if m.beliefs is not None:
        print_beliefs(m.beliefs)
    gameplay = gameplay_row(spec.simplified(), m.gameplay) if m.gameplay else None
    if gameplay is not None:
        print("\ngameplay (agents.gameplay, as ttr-kripke bench gameplay reports it):")
        print_tables(report_tables([gameplay]))
    write_json(files["json"], metrics_document(m, spec.rules, board)
               | {"strategies": spec.strategies, "gameplay": gameplay})
    arcs_png([(board.title, m.arc)], files["arc"], f"{board.title}: game arc, {spec.rules} "
             f"rules, {m.games} games")
    undesirability_png(board, m.untouched, m.games, files["cities"])
    print(f"\n{m.games} games → {files['csv']}; summary → {files['json']}; pictures → "
          f"{files['arc']}, {files['cities']}")
    return 0


def print_metrics(m: Metrics, board: Board) -> None:
    arc = m.arc
    print(f"game arc over {m.games} games (mean {m.mean_turns:.1f} turns; curve to turn "
          f"{len(arc.moves)}, the last half the games reach)")
    print_table(("first turn", "peak", "at turn", "last turn", "triangle area"),
                [(f"{arc.moves[0]:.1f}", f"{arc.peak:.1f}", arc.peak_turn,
                  f"{arc.moves[-1]:.1f}", f"{arc.area:,.1f}")])
    print(f"\ncity undesirability: variance {m.undesirability_variance:,.1f} (95% bootstrap "
          f"interval {m.variance_low:,.1f}–{m.variance_high:,.1f}) over {len(m.untouched)} "
          "cities (games in which no claim touched the city)")
    least, most = m.least_desirable(), m.most_desirable()
    print_table(("least desirable", "games", "most desirable", "games"),
                [(a, b, c, d) for (a, b), (c, d) in zip(least, most, strict=True)])
    s = deck_stats(board)
    print(f"\ndeck: {s.tickets} tickets on {s.cities} cities, average value "
          f"{s.average_value:.2f}")
    print()
    print_table(("agent", "seats", "win ratio", "95% interval", "mean score"),
                [(k.kind, k.seats, f"{k.win_ratio:.4f}", f"{k.low:.3f}–{k.high:.3f}",
                  f"{k.score:.1f}") for k in m.kinds])
    desired = ", ".join(f"{d:.3g}" for d in m.desired)
    if math.isnan(m.distance):
        print("\nwin-rate distance: none (one agent kind wins every game it plays)")
    else:
        print(f"\nwin-rate distance (each kind's share of the games won) to ({desired}): "
              f"{m.distance:.3f} (95% bootstrap interval {m.distance_low:.3f}–"
              f"{m.distance_high:.3f})")
    print(", ".join(f"ended by {r}: {share:.1%}" for r, share in m.end_reasons.items()))


def belief_turns(summary: BeliefSummary) -> list[int]:
    """The turns the accuracy table shows: the first few, then every tenth, while at least
    half the seats of the start are still playing."""
    seats = summary.accurate_by_turn[0][1] if summary.accurate_by_turn else 0
    reached = [k for k, (_, of) in enumerate(summary.accurate_by_turn) if 2 * of >= seats]
    return [k for k in reached if k in (0, 1, 2, 5) or k % 10 == 0]


def print_beliefs(b: BeliefSummary) -> None:
    """The open game's belief (``agents.belief``): accuracy by turn and kind, false beliefs."""
    print(f"\nbelief (open game): in how many seats the actual deal is among the believed deals, "
          f"after each turn (turn 0: as dealt), over {b.games} games")
    print_table(("after turn", "seats", "actual deal believed"),
                [(k, b.accurate_by_turn[k][1], f"{b.accuracy(k):.1%}") for k in belief_turns(b)])
    print()
    print_table(("kind", "seat-turns", "actual deal believed", "false beliefs held",
                 "false beliefs about it"),
                [(kind, of, f"{good / of:.1%}", b.held_by_kind.get(kind, 0),
                  b.about_kind.get(kind, 0)) for kind, (good, of) in b.accurate_by_kind.items()])
    per_game = b.games or 1
    print()
    print_table(("false beliefs (a believed p(a,t) that is false)", "value"), [
        ("unexplained claims per game", f"{b.unexplained / per_game:.2f}"),
        ("false beliefs per game", f"{b.false_beliefs / per_game:.2f}"),
        ("planted in a turn with an unexplained claim", f"{b.by_bluff:,} of "
                                                        f"{b.false_beliefs:,}"),
        ("mean duration (turns)", f"{b.mean_turns:.1f}"),
        ("outlived the game", f"{b.outlived:,}"),
        ("blocks declared on a false belief per game",
         f"{b.blocks_on_false_belief / per_game:.2f}")])


def metrics_document(m: Metrics, rules: str, board: Board) -> dict:
    """The summary as plain JSON values."""
    s = deck_stats(board)
    return {
        "board": board.name, "rules": rules, "games": m.games, "mean_turns": m.mean_turns,
        "end_reasons": m.end_reasons,
        "arc": {"moves": list(m.arc.moves), "games": list(m.arc.games),
                "peak": m.arc.peak, "peak_turn": m.arc.peak_turn, "area": m.arc.area},
        "undesirability": {"variance": m.undesirability_variance,
                           "variance_interval": [m.variance_low, m.variance_high],
                           "untouched": dict(zip(m.city_names, m.untouched, strict=True))},
        "deck": asdict(s),
        "win_ratios": [asdict(k) for k in m.kinds],
        "beliefs": None if m.beliefs is None else asdict(m.beliefs),
        # one agent kind has no distance: null, not NaN (which is not JSON)
        "distance": None if math.isnan(m.distance) else {
            "desired": list(m.desired), "measured": m.distance, "low": m.distance_low,
            "high": m.distance_high},
    }
