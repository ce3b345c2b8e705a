"""One way to run many seeded games: chunks of games through any ``concurrent.futures``
executor (in-process, a local Dask cluster, a remote one), results handed back in job order.

A job is the argument tuple of one call of a pure, module-level ``play`` function (a spec and a
seed), so a result depends on its job alone; handing results back in job order makes a whole
batch independent of the number of workers and of the order in which chunks finish. Games are
grouped into chunks (one task each) because a Dask task costs about a millisecond of scheduling
and a whole round trip: one game per task would spend a fast game's time on overhead. At most a
few chunks per worker are in flight, so memory stays bounded however many games a batch has:
the caller writes each result to disk as it arrives (Mesa's own batch runner keeps them all).

Ctrl-C: the generator hands back every finished result it holds (out of order ones too, each
carries its seed) before the interrupt goes on, and cancels the chunks not yet done.
"""

from __future__ import annotations

import math
import sys
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, Executor, Future, wait
from typing import Any

from tqdm import tqdm

#: Chunks per worker a batch is cut into (more: better balance at the end, more overhead).
CHUNKS_PER_WORKER = 8
#: Chunks per worker in flight at once (bounds the results waiting to be handed back).
IN_FLIGHT_PER_WORKER = 3


def play_chunk[R](play: Callable[..., R], jobs: Sequence[tuple[Any, ...]]) -> list[R]:
    """One task: play every job of a chunk in order (module level, so workers unpickle it)."""
    return [play(*job) for job in jobs]


def chunk_size(jobs: int, workers: int) -> int:
    """Games per task: about :data:`CHUNKS_PER_WORKER` chunks per worker, at least one game."""
    return max(1, math.ceil(jobs / (max(1, workers) * CHUNKS_PER_WORKER)))


def run_jobs[R](play: Callable[..., R], jobs: Sequence[tuple[Any, ...]],
                executor: Executor | None = None, workers: int = 1, chunk: int | None = None,
                progress: str | None = None) -> Iterator[R]:
    """``play(*job)`` for every job, in job order. ``executor`` None plays here, one chunk
    after another; ``workers`` sizes the chunks and the window of chunks in flight;
    ``progress`` labels a progress bar on stderr (None: no bar)."""
    size = chunk or chunk_size(len(jobs), workers)
    chunks = [jobs[i:i + size] for i in range(0, len(jobs), size)]
    bar = tqdm(total=len(jobs), desc=progress, unit="game", file=sys.stderr,
               disable=progress is None, leave=False)
    try:
        if executor is None:
            for part in chunks:
                for result in play_chunk(play, part):
                    bar.update()
                    yield result
        else:
            yield from _through(executor, play, chunks, max(1, workers) * IN_FLIGHT_PER_WORKER,
                                bar)
    finally:
        bar.close()


def _through[R](executor: Executor, play: Callable[..., R],
                chunks: list[Sequence[tuple[Any, ...]]], window: int,
                bar: tqdm) -> Iterator[R]:
    pending: dict[Future[list[R]], int] = {}
    done: dict[int, list[R]] = {}
    submitted = handed = 0
    try:
        while handed < len(chunks):
            while submitted < len(chunks) and len(pending) + len(done) < window:
                pending[executor.submit(play_chunk, play, chunks[submitted])] = submitted
                submitted += 1
            if handed not in done:
                finished, _ = wait(pending, return_when=FIRST_COMPLETED)
                for future in finished:
                    index = pending.pop(future)
                    done[index] = future.result()
                    bar.update(len(done[index]))
                continue
            yield from done.pop(handed)
            handed += 1
    except KeyboardInterrupt:
        for future in pending:
            future.cancel()
        for future in [f for f in pending if f.done() and not f.cancelled()]:
            if future.exception() is None:
                done[pending[future]] = future.result()
        for index in sorted(done):
            yield from done[index]
        raise
    finally:
        for future in pending:
            future.cancel()
