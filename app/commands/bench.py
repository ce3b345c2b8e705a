"""``ttr-kripke bench``: run a benchmark from ``bench/`` and print its table."""

from __future__ import annotations

import argparse
import importlib

NAME = "bench"
HELP = ("measure speed: game (games/s), kripke (model checker), maxscore (optimiser), app "
        "(the demo page in Chromium), timeline (stepping back), lab (games/s through the design "
        "lab's executor), or all")
TARGETS = ("game", "kripke", "maxscore", "app", "timeline", "lab")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("target", choices=(*TARGETS, "all"), help="what to measure")


def run(args: argparse.Namespace) -> int:
    targets = TARGETS if args.target == "all" else (args.target,)
    status = 0
    for target in targets:
        print(f"== bench {target}")
        status |= importlib.import_module(f"bench.{target}").main([])
        print()
    return status
