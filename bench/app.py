"""``ttr-kripke bench app``: the demo page's responsiveness, measured in a real browser.

Starts ``ttr-kripke app`` on a free 127.0.0.1 port, drives it with Debian's Chromium through
Playwright (as the browser tests do) and times what a teacher waits for, from the click until
the page shows the result: Reset to a 4 × 4 game (63,063,000 worlds), its first steps, a
switch of perspective, a step of the default 3 × 2 game, and the slowest of the first turns of
three more 4 × 4 games (seeds whose first announcements keep the most worlds, the hardest
steps we know of: "any step" is the goal). Beside each wall-clock time, the
CPU time the server spent meanwhile: on a machine other work shares, the wall clock grows with
the load and the CPU time much less, so the two together say what a quiet machine would show.
"""

from __future__ import annotations

import argparse
import os
import re
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Callable
from functools import partial

from agents.tables import Table
from bench.report import Report

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _serve() -> tuple[subprocess.Popen, str]:
    port = _free_port()
    proc = subprocess.Popen([sys.executable, "-m", "app.cli", "app", "--port", str(port)],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                            start_new_session=True)
    url = f"http://127.0.0.1:{port}/"
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        try:
            with urllib.request.urlopen(url, timeout=2):
                return proc, url
        except OSError:
            time.sleep(0.3)
    os.killpg(proc.pid, signal.SIGTERM)
    raise RuntimeError("the demo server did not start")


class ServerClock:
    """The server process's CPU time (user + system, every thread), from /proc."""

    def __init__(self, pid: int) -> None:
        self.path = f"/proc/{pid}/stat"
        self.tick = os.sysconf("SC_CLK_TCK")

    def __call__(self) -> float:
        try:
            with open(self.path) as f:
                fields = f.read().rsplit(")", 1)[1].split()
        except OSError:  # not Linux: no CPU column
            return float("nan")
        return (int(fields[11]) + int(fields[12])) / self.tick  # utime, stime


def _turn(page) -> int:
    text = page.get_by_test_id("status").inner_text()
    found = re.search(r"Turn (\d+)|after (\d+) turns", text)
    if found is None:
        raise RuntimeError(f"the status line names no turn: {text!r}")
    return int(found.group(1) or found.group(2))


def _idle(page, timeout: float = 120_000) -> None:
    page.wait_for_function("() => !document.querySelector('[data-testid=busy]')",
                           timeout=timeout)


def _step(page) -> None:
    """Step, and wait until the page shows the next turn with its controls back."""
    turn = _turn(page)
    page.get_by_role("button", name="Step", exact=True).click()
    page.wait_for_function(
        "t => /Turn (\\d+)|after (\\d+) turns/.exec(document.querySelector("
        "'[data-testid=status]').innerText).slice(1).some(n => n && +n > t)", arg=turn,
        timeout=120_000)
    _idle(page)


def _choose(page, label: str, value: str) -> None:
    page.locator(".v-select", has=page.locator("label", has_text=label)) \
        .locator(".v-select__slot").click()
    page.locator(".menuable__content__active .v-list-item", has_text=value).first.click()


def _switch(page, player: int) -> None:
    page.get_by_role("button", name=f"player {player}", exact=True).click()
    page.get_by_test_id("worlds-caption").filter(
        has_text=f"Player {player} cannot tell").wait_for(timeout=60_000)


def _seed(page, seed: int) -> None:
    page.get_by_label("Seed").fill(str(seed))
    page.get_by_test_id("pending").wait_for(timeout=60_000)  # "press Reset to apply"


def _reset_to_4x4(page) -> None:
    page.get_by_role("button", name="Reset", exact=True).click()
    page.wait_for_function("() => document.querySelector('[data-testid=status-worlds]')"
                           ".innerText == '63,063,000'", timeout=120_000)
    _idle(page)


#: Seeds whose first 4 × 4 turns announce what keeps the most worlds (38 million of 63), and
#: how many of their turns are timed.
OTHER_SEEDS = (1, 2, 3)
OTHER_STEPS = 6


def measure(page, cpu: Callable[[], float]) -> list[tuple[str, float, float, str]]:
    """(case, wall-clock seconds, server CPU seconds, goal) for each thing a teacher waits for."""
    rows = []

    def timed(case: str, goal: str, action: Callable[[], None]) -> None:
        wall, used = time.perf_counter(), cpu()
        action()
        rows.append((case, time.perf_counter() - wall, cpu() - used, goal))

    timed("step, 3 × 2", "≤ 1 s", lambda: _step(page))
    timed("switch to player 1, 3 × 2", "≤ 0.5 s", lambda: _switch(page, 1))
    page.get_by_role("button", name="Outside view (the real deal)").click()
    _choose(page, "Players", "4")
    _choose(page, "Tickets each", "4")
    timed("Reset to 4 × 4 (63,063,000 worlds)", "≤ 3 s", lambda: _reset_to_4x4(page))
    for n in range(1, 4):
        timed(f"step {n}, 4 × 4", "≤ 1 s", lambda: _step(page))
    for p in (1, 2):
        timed(f"switch to player {p}, 4 × 4", "≤ 0.5 s", partial(_switch, page, p))
    # "any step": the first turns of other games, where an announcement keeps the most worlds
    page.get_by_role("button", name="Outside view (the real deal)").click()
    for seed in OTHER_SEEDS:
        _seed(page, seed)
        timed(f"Reset to 4 × 4, seed {seed}", "≤ 3 s", lambda: _reset_to_4x4(page))
        steps = []
        for _ in range(OTHER_STEPS):
            timed("", "", lambda: _step(page))
            steps.append(rows.pop())
        worst = max(steps, key=lambda row: row[1])
        rows.append((f"slowest of steps 1–{OTHER_STEPS}, 4 × 4, seed {seed}", worst[1],
                     worst[2], "≤ 1 s"))
    return rows


def main(argv: list[str]) -> Report:
    # no options, but --help answers and a stray option is refused rather than ignored
    argparse.ArgumentParser(prog="ttr-kripke bench app", description=__doc__).parse_args(argv)
    from playwright.sync_api import sync_playwright

    if not os.path.exists(CHROMIUM):
        return Report(errors=(f"{CHROMIUM} is missing (apt-get install chromium)",), status=2)
    proc, url = _serve()
    try:
        with sync_playwright() as playwright, tempfile.TemporaryDirectory() as profile:
            context = playwright.chromium.launch_persistent_context(
                profile, executable_path=CHROMIUM, args=ARGS, headless=True,
                viewport={"width": 1280, "height": 800})
            page = context.new_page()
            page.goto(url)
            page.get_by_role("button", name="Step", exact=True).wait_for(timeout=120_000)
            try:
                rows = measure(page, ServerClock(proc.pid))
            except Exception:
                page.screenshot(path=os.path.join(tempfile.gettempdir(), "bench-app-failed.png"))
                raise
            context.close()
    finally:
        os.killpg(proc.pid, signal.SIGTERM)
        proc.wait(timeout=10)
    return Report((Table.of(
        ("case (click until the page shows it)", "measured", "server CPU", "goal"),
        [(case, f"{wall:.2f} s", f"{used:.2f} s", goal) for case, wall, used, goal in rows]),))
