"""Where the games run: here (in-process), a local Dask cluster sized to the machine, or an
existing Dask scheduler given by address. Every choice hands the runner the same thing, a
``concurrent.futures`` executor and a worker count, so no search knows which one it got.

Dask rather than a process pool of our own: the same code then scales from this machine to a
cluster (``dask scheduler`` on one machine, ``dask worker tcp://HOST:8786`` on the others), with
its scheduler's load balancing, worker restarts and dashboard. Workers run one thread each: a
game is pure Python, so threads in one process would only queue on the interpreter lock.
"""

from __future__ import annotations

import contextlib
import logging
import os
import signal
import threading
import warnings
from collections.abc import Iterator
from concurrent.futures import Executor
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

#: How long to wait for an existing scheduler to answer before saying so, in seconds.
CONNECT_TIMEOUT = 10.0


@dataclass(frozen=True)
class Workers:
    """An executor (None: play in this process) and how many games it plays at once."""

    executor: Executor | None
    count: int
    where: str  # for the user: "in-process", "local Dask cluster, 2 workers", an address


def machine_cores() -> int:
    """The cores this process may use (the default local cluster's size)."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def check_scheduler(address: str) -> str:
    """A scheduler address as Dask takes it, or ValueError naming the form to use."""
    if not address.startswith(("tcp://", "tls://", "inproc://", "ucx://")) or \
            ":" not in address.split("://", 1)[1]:
        raise ValueError(f"--scheduler takes a Dask scheduler address like tcp://HOST:8786, "
                         f"got {address!r}")
    return address


def scheduler_workers(address: str, seconds: float | None = None) -> int:
    """The worker threads of the scheduler at ``address``, asked within ``seconds`` (default
    :data:`CONNECT_TIMEOUT`), or ValueError saying what is wrong. Dask's ``Client`` waits
    without end for a server that accepts the connection and never answers (a port of some
    other program: over 120 s), and a scheduler with no workers takes the games and never plays
    them; both are refused here, before the search starts."""
    import asyncio

    from distributed.comm import connect

    limit = CONNECT_TIMEOUT if seconds is None else seconds

    async def identity() -> Any:
        comm = await asyncio.wait_for(connect(address, timeout=limit), limit)
        try:
            await asyncio.wait_for(comm.write({"op": "identity"}), limit)
            return await asyncio.wait_for(comm.read(), limit)
        finally:
            comm.abort()

    advice = "start one with 'dask scheduler' and its workers with 'dask worker ADDRESS'"
    try:
        answer = asyncio.run(identity())
    except TimeoutError:
        raise ValueError(f"nothing at {address} answered as a Dask scheduler within {limit:g} s; "
                         f"check the address, or {advice}") from None
    except (OSError, ValueError, TypeError, EOFError) as e:
        raise ValueError(f"no Dask scheduler answers at {address} ({type(e).__name__}); "
                         f"{advice}") from None
    if not isinstance(answer, dict) or answer.get("type") != "Scheduler":
        raise ValueError(f"{address} answered, but not as a Dask scheduler; {advice}")
    threads = sum(w.get("nthreads", 0) for w in (answer.get("workers") or {}).values())
    if threads == 0:
        raise ValueError(f"the Dask scheduler at {address} has no workers, so no game would "
                         f"run; start some with 'dask worker {address}'")
    return threads


def _start_cluster(n: int) -> Any:
    """A local cluster of ``n`` worker processes that never see Ctrl-C, started so that this
    process still does, at once.

    The terminal sends Ctrl-C to the whole process group, and the user means this process,
    which keeps the finished games and shuts the cluster down; workers that caught it too would
    each print a traceback. So the workers are spawned with SIGINT ignored (a process started
    with a signal ignored keeps it ignored), from a thread of its own. Ignoring SIGINT here as
    well made this process deaf to Ctrl-C until every worker was up (100,000 of them grew by
    5 MB/s and could not be stopped); but on Linux a signal that is blocked as well as ignored
    is kept pending instead of dropped, so this thread blocks it and waits for it
    (``sigtimedwait``) while the other thread starts the cluster. Interrupted, the start goes
    on in its thread, which closes the cluster when it is up; the worker processes are daemons
    and end with this one."""
    from distributed import LocalCluster

    def cluster() -> Any:
        with warnings.catch_warnings():
            # With no dashboard the scheduler still serves /health on 8787 (dask/distributed
            # #7207), and a second lab command running beside the first would warn, with a
            # line of the warning's source, that it took another port: nothing to tell a user.
            warnings.filterwarnings("ignore", message=r"Port \d+ is already in use",
                                    category=UserWarning)
            return LocalCluster(n_workers=n, threads_per_worker=1, processes=True,
                                host="127.0.0.1", dashboard_address=None,
                                silence_logs=logging.CRITICAL)

    if threading.current_thread() is not threading.main_thread() or \
            not hasattr(signal, "sigtimedwait"):
        return cluster()  # signals are the main thread's (and Linux's) alone
    started: dict[str, Any] = {}

    def start() -> None:
        try:
            started["cluster"] = cluster()
        except BaseException as e:  # handed to the waiting thread, which raises it
            started["error"] = e
        if started.get("abandoned") and "cluster" in started:
            # nobody waits for it: the user pressed Ctrl-C, and this process may be exiting
            # under the close (Dask then raises from its half-stopped loop)
            with contextlib.suppress(Exception):
                started["cluster"].close()

    # Both changes inside the try: a Ctrl-C that lands between them (Python runs its handler at
    # the next instruction of this thread) must still find the handler and the mask put back.
    previous = signal.getsignal(signal.SIGINT)
    try:
        signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})  # threads started now inherit it
        signal.signal(signal.SIGINT, signal.SIG_IGN)
        thread = threading.Thread(target=start, name="start-dask-cluster", daemon=True)
        thread.start()
        while thread.is_alive():
            if signal.sigtimedwait({signal.SIGINT}, 0.1) is not None:
                started["abandoned"] = True
                raise KeyboardInterrupt
    finally:
        signal.signal(signal.SIGINT, previous)
        signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})
    if "error" in started:
        raise started["error"]
    return started["cluster"]


@contextmanager
def open_workers(workers: int | None = None, scheduler: str | None = None) -> Iterator[Workers]:
    """``workers`` 0: play in this process; None: a local cluster of one worker per core;
    N: a local cluster of N workers. ``scheduler``: connect to that cluster instead (its
    workers, however many, play). Bound to 127.0.0.1, no dashboard: nothing is served to the
    network unless the user runs a scheduler of their own."""
    if scheduler is None and workers == 0:
        yield Workers(None, 1, "in-process")
        return
    from distributed import Client  # a second or two to import: only when used

    if scheduler is not None:
        scheduler_workers(check_scheduler(scheduler))
        try:
            client = Client(scheduler, timeout=f"{CONNECT_TIMEOUT}s")
        except OSError as e:
            raise ValueError(f"no Dask scheduler answers at {scheduler} ({e}); start one with "
                             "'dask scheduler' and its workers with 'dask worker ADDRESS'"
                             ) from None
        try:
            count = sum(w["nthreads"] for w in client.scheduler_info()["workers"].values())
            yield Workers(client.get_executor(pure=False), max(1, count),
                          f"Dask scheduler {scheduler}, {count} worker thread{"s" * (count != 1)}")
        finally:
            client.close()
        return
    n = workers or machine_cores()
    with _start_cluster(n) as cluster, Client(cluster) as client:
        # pure=False: two games with equal arguments are still two tasks (Dask would merge
        # calls it believes pure), and their results are never cached
        yield Workers(client.get_executor(pure=False), n,
                      f"local Dask cluster, {n} worker{'s' if n > 1 else ''}")
