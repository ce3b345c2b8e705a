"""What every batch command needs before and while it plays: its output checked before any
game starts, and worker processes that start fresh."""

from __future__ import annotations

import argparse
import multiprocessing
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

from app.cli import UsageError


def check_output(args: argparse.Namespace) -> None:
    """The checks every batch needs before any game is played."""
    if args.games < 1:
        raise UsageError(f"--games must be at least 1, got {args.games}")
    if args.workers < 1:
        raise UsageError(f"--workers must be at least 1, got {args.workers}")
    out = Path(args.csv)
    if out.exists() and not args.overwrite:
        raise UsageError(f"{out} exists; choose another --csv or add --overwrite")
    if args.plot and not args.plot.lower().endswith(".png"):
        raise UsageError(f"--plot writes a PNG; name the file *.png, not {args.plot}")


def pool(workers: int) -> ProcessPoolExecutor:
    """Worker processes started fresh (spawn): a game depends on its seed alone."""
    return ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context("spawn"))
