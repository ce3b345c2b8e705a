"""One way to run many seeded games: chunks of games through any ``concurrent.futures``
executor (in-process, a local Dask cluster, a remote one), results handed back in job order.

A job is the argument tuple of one call of a pure, module-level ``play`` function (a spec and a
seed), so a result depends on its job alone; handing results back in job order makes a whole
batch independent of the number of workers and of the order in which chunks finish. Games are
grouped into chunks (one task each) because a Dask task costs about a millisecond of scheduling
and a whole round trip: one game per task would spend a fast game's time on overhead. But a
chunk is handed back only whole, so a big one loses its games to Ctrl-C and holds the progress
bar still: chunks start at one game and grow only to about :data:`CHUNK_SECONDS` of play (timed
by the workers), so a fast game still shares its task and a Ctrl-C loses at most the games in
flight. At most a few chunks per worker are in flight, so memory stays bounded however many
games a batch has: the caller writes each result to disk as it arrives (Mesa's own batch
runner keeps them all). In this process there are no chunks: each game is handed back as it
ends.

Ctrl-C: the generator hands back every finished result it holds (out of order ones too, each
carries its seed) before the interrupt goes on, and cancels the chunks not yet done.
"""

from __future__ import annotations

import math
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, Executor, Future, wait
from dataclasses import dataclass
from typing import Any

from tqdm import tqdm

#: Chunks per worker a batch is cut into at most (more: better balance at the end).
CHUNKS_PER_WORKER = 8
#: Chunks per worker in flight at once (bounds the results waiting to be handed back).
IN_FLIGHT_PER_WORKER = 3
#: Seconds of play a chunk grows to: a task's overhead is then a fraction of a per cent, and a
#: Ctrl-C loses at most this much work per chunk in flight.
CHUNK_SECONDS = 0.25


def play_chunk[R](play: Callable[..., R], jobs: Sequence[tuple[Any, ...]]
                  ) -> tuple[list[R], float]:
    """One task: play every job of a chunk in order (module level, so workers unpickle it);
    also the seconds it took, by which the runner sizes the next chunks."""
    began = time.perf_counter()
    return [play(*job) for job in jobs], time.perf_counter() - began


def chunk_size(jobs: int, workers: int) -> int:
    """The most games a task gets: about :data:`CHUNKS_PER_WORKER` chunks per worker, at least
    one game."""
    return max(1, math.ceil(jobs / (max(1, workers) * CHUNKS_PER_WORKER)))


@dataclass
class _Sizer:
    """Games per chunk: ``fixed`` if given, else one at first, then as many as take about
    :data:`CHUNK_SECONDS` at the pace timed so far, never above ``most``."""

    fixed: int | None
    most: int
    games: int = 0
    seconds: float = 0.0

    def next(self) -> int:
        if self.fixed is not None:
            return self.fixed
        if not self.games or not self.seconds:
            return 1
        return max(1, min(self.most, int(CHUNK_SECONDS * self.games / self.seconds)))

    def timed(self, games: int, seconds: float) -> None:
        self.games += games
        self.seconds += seconds


def run_jobs[R](play: Callable[..., R], jobs: Sequence[tuple[Any, ...]],
                executor: Executor | None = None, workers: int = 1, chunk: int | None = None,
                progress: str | None = None) -> Iterator[R]:
    """``play(*job)`` for every job, in job order. ``executor`` None plays here, handing back
    each game as it ends; ``workers`` bounds the chunks and sizes the window of chunks in
    flight; ``chunk`` fixes the games per chunk (default: grown from one, see the module);
    ``progress`` labels a progress bar on stderr (None: no bar)."""
    bar = tqdm(total=len(jobs), desc=progress, unit="game", file=sys.stderr,
               disable=progress is None, leave=False)
    try:
        if executor is None:
            for job in jobs:
                result = play(*job)
                bar.update()
                yield result
        else:
            sizer = _Sizer(chunk, chunk_size(len(jobs), workers))
            yield from _through(executor, play, jobs, sizer,
                                max(1, workers) * IN_FLIGHT_PER_WORKER, bar)
    finally:
        bar.close()


def _through[R](executor: Executor, play: Callable[..., R], jobs: Sequence[tuple[Any, ...]],
                sizer: _Sizer, window: int, bar: tqdm) -> Iterator[R]:
    pending: dict[Future[tuple[list[R], float]], int] = {}
    done: dict[int, list[R]] = {}  # by the index of the chunk's first job
    submitted = handed = 0
    try:
        while handed < len(jobs):
            while submitted < len(jobs) and len(pending) + len(done) < window:
                size = sizer.next()
                part = jobs[submitted:submitted + size]
                pending[executor.submit(play_chunk, play, part)] = submitted
                submitted += len(part)
            if handed not in done:
                finished, _ = wait(pending, return_when=FIRST_COMPLETED)
                for future in finished:
                    first = pending.pop(future)
                    done[first], seconds = future.result()
                    sizer.timed(len(done[first]), seconds)
                    bar.update(len(done[first]))
                continue
            results = done.pop(handed)
            handed += len(results)
            yield from results
    except KeyboardInterrupt:
        for future in pending:
            future.cancel()
        for future in [f for f in pending if f.done() and not f.cancelled()]:
            if future.exception() is None:
                done[pending[future]] = future.result()[0]
        for first in sorted(done):
            yield from done[first]
        raise
    finally:
        for future in pending:
            future.cancel()
