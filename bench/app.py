"""``ttr-kripke bench app``: the demo page's responsiveness, measured in a real browser.

Starts ``ttr-kripke app`` on a free 127.0.0.1 port, drives it with Debian's Chromium through
Playwright (as the browser tests do) and times what a teacher waits for, from the click until
the page shows the result: Reset to a 4 × 4 game (63,063,000 worlds), its first steps, a
switch of perspective, and a step of the default 3 × 2 game.
"""

from __future__ import annotations

import os
import re
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request

from bench.table import print_table

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


def _turn(page) -> int:
    text = page.get_by_test_id("status").inner_text()
    found = re.search(r"Turn (\d+)|after (\d+) turns", text)
    if found is None:
        raise RuntimeError(f"the status line names no turn: {text!r}")
    return int(found.group(1) or found.group(2))


def _idle(page, timeout: float = 120_000) -> None:
    page.wait_for_function("() => !document.querySelector('[data-testid=busy]')",
                           timeout=timeout)


def _step(page) -> float:
    turn = _turn(page)
    start = time.perf_counter()
    page.get_by_role("button", name="Step", exact=True).click()
    page.wait_for_function(
        "t => /Turn (\\d+)|after (\\d+) turns/.exec(document.querySelector("
        "'[data-testid=status]').innerText).slice(1).some(n => n && +n > t)", arg=turn,
        timeout=120_000)
    _idle(page)
    return time.perf_counter() - start


def _choose(page, label: str, value: str) -> None:
    page.locator(".v-select", has=page.locator("label", has_text=label)) \
        .locator(".v-select__slot").click()
    page.locator(".menuable__content__active .v-list-item", has_text=value).first.click()


def measure(page) -> list[tuple[str, float, str]]:
    rows = [("step, 3 × 2", _step(page), "≤ 1 s")]
    start = time.perf_counter()
    page.get_by_role("button", name="player 1", exact=True).click()
    page.get_by_test_id("worlds-caption").filter(has_text="Player 1 cannot tell").wait_for()
    rows.append(("switch to player 1, 3 × 2", time.perf_counter() - start, "≤ 0.5 s"))
    page.get_by_role("button", name="Outside view (the real deal)").click()
    _choose(page, "Players", "4")
    _choose(page, "Tickets each", "4")
    start = time.perf_counter()
    page.get_by_role("button", name="Reset", exact=True).click()
    page.wait_for_function("() => document.querySelector('[data-testid=status-worlds]')"
                           ".innerText == '63,063,000'", timeout=120_000)
    _idle(page)
    rows.append(("Reset to 4 × 4 (63,063,000 worlds)", time.perf_counter() - start, "≤ 3 s"))
    for n in range(1, 4):
        rows.append((f"step {n}, 4 × 4", _step(page), "≤ 1 s"))
    for p in (1, 2):
        start = time.perf_counter()
        page.get_by_role("button", name=f"player {p}", exact=True).click()
        page.get_by_test_id("worlds-caption").filter(
            has_text=f"Player {p} cannot tell").wait_for(timeout=60_000)
        rows.append((f"switch to player {p}, 4 × 4", time.perf_counter() - start,
                     "≤ 0.5 s"))
    return rows


def main(argv: list[str] | None = None) -> int:
    from playwright.sync_api import sync_playwright

    if not os.path.exists(CHROMIUM):
        print(f"{CHROMIUM} is missing (apt-get install chromium)", file=sys.stderr)
        return 2
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
                rows = measure(page)
            except Exception:
                page.screenshot(path=os.path.join(tempfile.gettempdir(), "bench-app-failed.png"))
                raise
            context.close()
    finally:
        os.killpg(proc.pid, signal.SIGTERM)
        proc.wait(timeout=10)
    print_table(("case (click until the page shows it)", "measured", "goal"),
                [(case, f"{seconds:.2f} s", goal) for case, seconds, goal in rows])
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
