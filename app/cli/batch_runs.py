"""What every batch command needs before and while it plays: its output checked before any
game starts, and the workers (the design lab's: in-process, a local Dask cluster, or an existing
scheduler), whose games come back in seed order."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Iterator, Sized
from contextlib import AbstractContextManager, contextmanager

from app.cli.main import UsageError
from app.cli.options import check_workers
from game.fields import MAX_SEED
from game.files import check_outputs
from lab.cluster import Workers, check_scheduler, open_workers


def check_output(args: argparse.Namespace) -> None:
    """The checks every batch needs before any game is played."""
    if args.scheduler is not None:
        check_scheduler(args.scheduler)
    else:  # a local cluster's workers share this machine's cores
        check_workers(args)
    if args.seed + args.games - 1 > MAX_SEED:
        raise UsageError(f"--seed {args.seed} with --games {args.games} runs past the last seed "
                         f"{MAX_SEED}; give a smaller --seed")
    if args.plot and not args.plot.lower().endswith(".png"):
        raise UsageError(f"--plot writes a PNG; name the file *.png, not {args.plot}")
    check_outputs([(args.csv, "--csv"), *([(args.plot, "--plot")] if args.plot else [])],
                  overwrite=args.overwrite)


def workers(args: argparse.Namespace) -> AbstractContextManager[Workers]:
    """``--workers 1`` (or 0, as the design lab's commands say it) plays in this process (no
    cluster to start for a small batch), N a local Dask cluster of N workers, ``--scheduler``
    an existing cluster."""
    return open_workers(0 if args.workers <= 1 and not args.scheduler else args.workers,
                        args.scheduler)


@contextmanager
def kept_on_interrupt(kept: Sized, args: argparse.Namespace) -> Iterator[None]:
    """On Ctrl-C, say how many games the CSV kept (``kept`` grows as rows are written), then
    let the interrupt end the command (exit code 130)."""
    try:
        yield
    except KeyboardInterrupt:
        print(f"interrupted: {len(kept):,} of {args.games:,} games kept in {args.csv}",
              file=sys.stderr)
        raise
