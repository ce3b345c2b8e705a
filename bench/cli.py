"""How long a command takes from the shell prompt back to the shell: the wall time of
``python -m app.cli ...`` in a fresh process, imports and all, as a teacher scripting a problem
sheet meets it (issue 39). Each command runs ``--repeat`` times; the table gives the fastest and
the median, and the goal where the issue set one (on a quiet machine: another process on the
cores shows up here as it does for the teacher). Beside them, the CPU time the process used
(user and system, the median): what the wall time comes down to when nothing else runs, so a
figure measured on a busy machine can still be read.

Run: ``ttr-kripke bench cli``.
"""

from __future__ import annotations

import argparse
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from importlib import resources
from pathlib import Path

from agents.tables import Table
from bench.report import Report

#: (what runs after ``ttr-kripke``, goal in seconds or None); ``{model}`` is a shipped two-agent
#: model, ``{log}`` the log the ``play`` row writes.
CASES: tuple[tuple[tuple[str, ...], float | None], ...] = (
    (("--help",), 0.3),
    (("model", "{model}", "--check", "K_alice p & ~K_bob p"), 0.6),
    (("puzzle", "muddy", "--children", "3", "--muddy", "1,2"), None),
    (("route", "Paris", "Wien"), None),
    (("check", "K_0 p(1,7)"), None),
    (("play", "--log", "{log}", "--overwrite"), None),
    (("replay", "{log}"), None),
)


def cpu_of_children() -> float:
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    return used.ru_utime + used.ru_stime


def timed(argv: list[str]) -> tuple[float, float]:
    """Wall and CPU seconds of ``python -m app.cli argv``, start to exit (which must be 0, or 1:
    a false formula)."""
    start, cpu = time.perf_counter(), cpu_of_children()
    done = subprocess.run([sys.executable, "-m", "app.cli", *argv], capture_output=True,
                          text=True)
    took = time.perf_counter() - start, cpu_of_children() - cpu
    if done.returncode not in (0, 1):
        raise RuntimeError(f"ttr-kripke {' '.join(argv)} exited {done.returncode}: "
                           f"{done.stderr.strip()}")
    return took


def main(argv: list[str]) -> Report:
    parser = argparse.ArgumentParser(prog="ttr-kripke bench cli", description=__doc__)
    parser.add_argument("--repeat", type=int, default=5, choices=range(1, 101),
                        metavar="N", help="runs of each command, 1 to 100 (default 5)")
    args = parser.parse_args(argv)
    model = resources.files("kripke") / "models" / "alice-bob.kripke"
    rows = []
    with tempfile.TemporaryDirectory() as folder:
        names = {"model": str(model), "log": str(Path(folder) / "game.jsonl")}
        for words, goal in CASES:
            command = [word.format(**names) for word in words]
            try:
                runs = [timed(command) for _ in range(args.repeat)]
            except RuntimeError as e:  # a command that fails is no figure
                return Report(errors=(str(e),), status=2)
            times = [wall for wall, _ in runs]
            rows.append((f"ttr-kripke {' '.join(words)}", f"{min(times):.2f} s",
                         f"{statistics.median(times):.2f} s",
                         f"{statistics.median(cpu for _, cpu in runs):.2f} s",
                         "—" if goal is None else f"≤ {goal} s",
                         "—" if goal is None else ("yes" if min(times) <= goal else "no")))
    return Report((Table.of(("command", "fastest", "median", "CPU", "goal", "ok"), rows,
                            after=(f"wall time of a fresh process, {args.repeat} runs each; "
                                   "the goal is held to the fastest (the others met the "
                                   "cores' other work); "
                                   "{model} is kripke/models/alice-bob.kripke",)),),
                  status=0 if all(row[5] != "no" for row in rows) else 1)
