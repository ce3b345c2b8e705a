"""A real Dask cluster: ``dask scheduler`` and two ``dask worker`` processes on 127.0.0.1 (the
venv's own ``dask``, as a user starts them), and ``batch`` and ``metrics`` sent to it with
``--scheduler`` write the same bytes as the same commands played in this process.

The other lab tests use in-process or ``LocalCluster`` workers; this one is the README's
cluster recipe end to end, so a task that does not pickle, a worker that cannot import the
game, or results that come back out of seed order would fail here. It stops every process it
started, whatever happens.
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from app.cli.main import main

DASK = Path(sys.executable).parent / "dask"
REPO = Path(__file__).resolve().parents[1]
START_TIMEOUT = 90.0  # seconds for the scheduler and both workers (imports on a loaded machine)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _start(argv: list[str], log: Path) -> subprocess.Popen[bytes]:
    with log.open("wb") as out:
        return subprocess.Popen(argv, stdout=out, stderr=subprocess.STDOUT,
                                start_new_session=True,  # its own group: all of it stops
                                env={**os.environ, "PYTHONPATH": str(REPO)})  # this checkout


def _workers_connected(address: str) -> int:
    from distributed import Client

    with Client(address, timeout="5s") as client:
        return len(client.scheduler_info()["workers"])


@pytest.fixture(scope="module")
def cluster(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    logs = tmp_path_factory.mktemp("dask")
    port = _free_port()
    address = f"tcp://127.0.0.1:{port}"
    procs = [_start([str(DASK), "scheduler", "--host", "127.0.0.1", "--port", str(port),
                     "--no-dashboard"], logs / "scheduler.log")]
    try:
        for i in range(2):
            procs.append(_start([str(DASK), "worker", address, "--host", "127.0.0.1",
                                 "--nthreads", "1", "--nworkers", "1", "--no-dashboard",
                                 "--local-directory", str(logs / f"w{i}")],
                                logs / f"worker{i}.log"))
        deadline = time.monotonic() + START_TIMEOUT
        while True:
            dead = [p for p in procs if p.poll() is not None]
            assert not dead, f"a dask process exited: {[p.args for p in dead]}\n" + "\n".join(
                f.read_text() for f in sorted(logs.glob("*.log")))
            try:
                if _workers_connected(address) == 2:
                    break
            except OSError:
                pass
            assert time.monotonic() < deadline, "the cluster did not come up:\n" + "\n".join(
                f.read_text() for f in sorted(logs.glob("*.log")))
            time.sleep(0.5)
        yield address
    finally:
        for p in procs:
            if p.poll() is None:
                os.killpg(p.pid, signal.SIGTERM)
        for p in procs:
            try:
                p.wait(timeout=20)
            except subprocess.TimeoutExpired:
                os.killpg(p.pid, signal.SIGKILL)
                p.wait()


def test_batch_on_a_real_cluster_writes_what_an_in_process_run_writes(cluster, tmp_path):
    argv = ["batch", "--board", "usa", "--rules", "standard", "--agents", "osta,pa,lrja,ha",
            "--games", "24", "--rotate-seats", "--seed", "3", "--no-progress"]
    assert main([*argv, "--workers", "1", "--csv", str(tmp_path / "here.csv")]) == 0
    assert main([*argv, "--scheduler", cluster, "--csv", str(tmp_path / "there.csv")]) == 0
    here = (tmp_path / "here.csv").read_bytes()
    assert here.count(b"\n") == 25
    assert (tmp_path / "there.csv").read_bytes() == here


def test_metrics_on_a_real_cluster_writes_what_an_in_process_run_writes(
        cluster, tmp_path, capsys):
    argv = ["metrics", "--board", "usa", "--games", "16", "--seed", "5", "--no-progress"]
    assert main([*argv, "--workers", "0", "--out", str(tmp_path / "here")]) == 0
    assert "in-process" in capsys.readouterr().err
    assert main([*argv, "--scheduler", cluster, "--out", str(tmp_path / "there")]) == 0
    assert f"Dask scheduler {cluster}, 2 worker threads" in capsys.readouterr().err
    for suffix in ("-games.csv", ".json"):
        here = (tmp_path / f"here{suffix}").read_bytes()
        assert (tmp_path / f"there{suffix}").read_bytes() == here, suffix
    assert (tmp_path / "here-games.csv").read_bytes().count(b"\n") == 17


def test_two_local_clusters_side_by_side_start_without_a_warning(recwarn):
    """The second lab command on a machine finds the scheduler's HTTP port taken; it says
    nothing about it (the first one's games are none of its business)."""
    from lab.cluster import open_workers

    with open_workers(1, None) as first, open_workers(1, None) as second:
        assert first.count == second.count == 1
    assert not [w for w in recwarn.list if "already in use" in str(w.message)]
