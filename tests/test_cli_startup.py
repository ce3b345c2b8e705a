"""Each command imports only what it uses (issue 39): a teacher scripting a problem sheet runs
dozens of ``ttr-kripke model FILE --check F``, and each paid for Mesa, Dask and the game.

Every case runs the command as the shell does, in a fresh process (``python -X importtime -m
app.cli ...``), and reads the modules it imported from the interpreter's own import log. The
time it takes is measured by ``ttr-kripke bench cli``, not here.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
MODEL = str(REPO / "kripke" / "models" / "alice-bob.kripke")

#: What no command of the logic may load: the game's simulation, the lab, the page, the plots.
NOT_FOR_THE_LOGIC = {"mesa", "dask", "distributed", "solara", "matplotlib", "scipy.stats"}
#: What no command of one game may load: the lab's cluster, the page, the plots.
NOT_FOR_A_GAME = {"dask", "distributed", "solara", "matplotlib"}


def imported(argv: list[str], folder: Path) -> set[str]:
    """The modules ``ttr-kripke argv`` imports, run in ``folder``; it must exit 0 or 1."""
    done = subprocess.run([sys.executable, "-X", "importtime", "-m", "app.cli", *argv],
                          capture_output=True, text=True, cwd=folder,
                          env={**os.environ, "PYTHONPATH": str(REPO)})
    found = set(re.findall(r"^import time:\s+\d+ \|\s+\d+ \|\s*(\S+)$", done.stderr, re.M))
    errors = [line for line in done.stderr.splitlines() if not line.startswith("import time:")]
    assert done.returncode in (0, 1), "\n".join(errors)
    assert "app.cli.main" in found  # the log was read
    return found


def loaded(found: set[str], packages: set[str]) -> list[str]:
    """Which of ``packages`` (or their submodules) are among the modules ``found``."""
    return sorted(p for p in packages if any(m == p or m.startswith(f"{p}.") for m in found))


@pytest.mark.parametrize("argv", [
    ["--help"],
    ["model", MODEL, "--check", "K_alice p & ~K_bob p"],
    ["puzzle", "muddy", "--children", "3", "--muddy", "1,2"],
], ids=lambda argv: argv[0])
def test_the_logic_starts_without_the_simulation(argv: list[str], tmp_path: Path):
    found = imported(argv, tmp_path)
    assert not loaded(found, NOT_FOR_THE_LOGIC)
    assert not loaded(found, {"agents", "lab"})  # nor the game's players, nor the lab


def test_one_game_starts_without_the_lab_or_the_page(tmp_path: Path):
    """check, route, play and replay (of the log play wrote)."""
    for argv in (["check", "K_0 p(1,7)"], ["route", "Paris", "Wien"],
                 ["play", "--log", "game.jsonl"], ["replay", "game.jsonl"]):
        found = imported(argv, tmp_path)
        assert not loaded(found, NOT_FOR_A_GAME), argv[0]
        assert not loaded(found, {"lab"}), argv[0]


def test_a_command_still_loads_what_it_needs(tmp_path: Path):
    """The lazy table imports the command that runs: ``play`` does load Mesa (so the checks
    above look at a log that would show it)."""
    assert "mesa" in loaded(imported(["play"], tmp_path), {"mesa"})


def test_a_mistyped_command_is_one_line_and_exit_2(tmp_path: Path):
    done = subprocess.run([sys.executable, "-m", "app.cli", "modle", MODEL], cwd=tmp_path,
                          capture_output=True, text=True,
                          env={**os.environ, "PYTHONPATH": str(REPO)})
    assert done.returncode == 2
    assert len(done.stderr.strip().splitlines()) == 1 and "modle" in done.stderr


def test_the_gameplay_report_prints_without_the_benchmarks(tmp_path: Path):
    """``metrics`` prints the gameplay report's tables (``agents.gameplay``) as ``bench
    gameplay`` does, importing nothing of ``bench``."""
    done = subprocess.run([sys.executable, "-X", "importtime", "-c",
                           "import app.cli.commands.metrics"], capture_output=True, text=True,
                          cwd=tmp_path, env={**os.environ, "PYTHONPATH": str(REPO)})
    assert done.returncode == 0, done.stderr
    found = set(re.findall(r"^import time:\s+\d+ \|\s+\d+ \|\s*(\S+)$", done.stderr, re.M))
    assert "agents.gameplay" in found and not loaded(found, {"bench"})
