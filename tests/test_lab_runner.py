"""The lab's runner: a batch depends on its seeds alone (any chunking, any worker count, any
order in which chunks finish), Ctrl-C hands back every finished game, and a real two-worker
Dask cluster plays the same games as this process."""

from __future__ import annotations

from concurrent.futures import Executor, Future, ThreadPoolExecutor

import pytest

from agents.kinds import seat_jobs
from lab.cluster import check_scheduler, open_workers
from lab.games import LabSpec, play_lab_game
from lab.runner import chunk_size, run_jobs


def square(seed: int) -> tuple[int, int]:
    return seed, seed * seed


class Reversed(Executor):
    """Holds chunks back three at a time (the runner's window for one worker), then finishes
    them last-submitted first (the worst order); ``chunks`` is how many the batch has."""

    def __init__(self, chunks: int, interrupt_at: int | None = None):
        self.held: list[tuple[Future, object, tuple]] = []
        self.chunks = chunks
        self.interrupt_at = interrupt_at
        self.submitted = 0

    def submit(self, fn, /, *args, **kwargs):
        self.submitted += 1
        if self.interrupt_at is not None and self.submitted == self.interrupt_at:
            self.release()
            raise KeyboardInterrupt
        future: Future = Future()
        self.held.append((future, fn, args))
        if len(self.held) == 3 or self.submitted == self.chunks:  # newest first
            self.release()
        return future

    def release(self):
        for future, fn, args in reversed(self.held):
            future.set_result(fn(*args))
        self.held.clear()


JOBS = [(s,) for s in range(23)]
EXPECTED = [square(s) for s in range(23)]


@pytest.mark.parametrize("chunk", [1, 2, 5, 23])
def test_results_come_back_in_job_order_whatever_the_chunks_and_finishing_order(chunk):
    assert list(run_jobs(square, JOBS, chunk=chunk)) == EXPECTED
    assert list(run_jobs(square, JOBS, Reversed(-(-23 // chunk)), workers=1,
                         chunk=chunk)) == EXPECTED
    with ThreadPoolExecutor(3) as pool:
        assert list(run_jobs(square, JOBS, pool, workers=3, chunk=chunk)) == EXPECTED


def test_chunks_are_a_few_per_worker_and_never_empty():
    assert chunk_size(1000, 2) == 63 and chunk_size(3, 8) == 1 and chunk_size(0, 2) == 1


def test_ctrl_c_hands_back_every_finished_game_before_it_goes_on():
    got = []
    with pytest.raises(KeyboardInterrupt):
        for result in run_jobs(square, JOBS, Reversed(12, interrupt_at=5), workers=1, chunk=2):
            got.append(result)
    # chunks 0-2 finished in the first window and chunk 3 when the interrupt came: 8 games
    assert got == EXPECTED[:8]


def interrupt_at_seven(seed: int) -> tuple[int, int]:
    if seed == 7:
        raise KeyboardInterrupt
    return square(seed)


def test_ctrl_c_in_process_keeps_the_games_before_it():
    got = []
    with pytest.raises(KeyboardInterrupt):
        for result in run_jobs(interrupt_at_seven, JOBS, chunk=4):
            got.append(result)
    assert got == EXPECTED[:7]  # every game before seed 7: in-process there are no chunks


def test_a_scheduler_address_is_checked_before_anything_connects():
    assert check_scheduler("tcp://10.0.0.5:8786") == "tcp://10.0.0.5:8786"
    for bad in ("10.0.0.5:8786", "tcp://host", "http://x:1"):
        with pytest.raises(ValueError, match="tcp://HOST:8786"):
            check_scheduler(bad)


@pytest.mark.slow
def test_a_real_two_worker_local_cluster_plays_the_games_this_process_plays():
    specs = [LabSpec(), LabSpec(rules="simplified", board="europe24",
                                lineup=("epistemic", "baseline", "baseline"))]
    jobs = [job for spec in specs for job in seat_jobs(spec, range(4))]
    here = list(run_jobs(play_lab_game, jobs))
    with open_workers(2) as workers:
        assert workers.count == 2 and "2 workers" in workers.where
        there = list(run_jobs(play_lab_game, jobs, workers.executor, workers.count, chunk=1))
    assert there == here
    assert {g.lineup for g in here[:4]} == {LabSpec().rotated(i).lineup for i in range(4)}
