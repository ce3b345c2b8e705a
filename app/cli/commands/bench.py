"""``ttr-kripke bench``: run a benchmark from ``bench/`` and print its tables (each benchmark
hands back a ``bench.report.Report``; the printing is the command line's)."""

from __future__ import annotations

import argparse
import importlib

from app.cli.main import UsageError
from app.cli.table import print_report

NAME = "bench"
HELP = ("measure: game (games/s), kripke (model checker), maxscore (optimiser), app (the demo "
        "page in Chromium), timeline (stepping back), lab (games/s through the design lab's "
        "executor), gameplay (is a game worth watching), soak (seeded games of both rule sets, "
        "every action checked), cli (each command's start, wall time), or all")
TARGETS = ("game", "kripke", "maxscore", "app", "timeline", "lab", "gameplay", "soak", "cli")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("target", choices=(*TARGETS, "all"), help="what to measure")
    parser.add_argument("options", nargs=argparse.REMAINDER,
                        help="options of one benchmark, e.g. 'gameplay --games 200'")


def run(args: argparse.Namespace) -> int:
    if args.target == "all" and args.options:
        raise UsageError("bench all takes no options; give them to one benchmark, e.g. "
                         "'bench gameplay --games 200'")
    targets = TARGETS if args.target == "all" else (args.target,)
    status = 0
    for target in targets:
        print(f"== bench {target}")
        status |= print_report(importlib.import_module(f"bench.{target}").main(args.options))
        print()
    return status
