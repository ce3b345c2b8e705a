"""A formula's evaluation stops when its tab closes: evaluated inside Solara's message handler,
a long formula kept the server computing for a tab that no longer existed (issue 27)."""

from __future__ import annotations

import os
import re
import time
from pathlib import Path
from urllib.parse import urlparse

import pytest
from playwright.sync_api import expect
from test_demo_page import reset_to

pytestmark = pytest.mark.browser

TICKS = os.sysconf("SC_CLK_TCK")


def server_pid(url: str) -> int:
    """The server listening on the url's port (``ttr-kripke app`` execs into Solara's)."""
    port = str(urlparse(url).port)
    for proc in Path("/proc").iterdir():
        if not proc.name.isdigit():
            continue
        try:
            argv = (proc / "cmdline").read_bytes().split(b"\0")
        except OSError:
            continue
        if b"solara" in argv and b"--port" in argv and port.encode() in argv:
            return int(proc.name)
    raise AssertionError(f"no server process for port {port}")


def cpu_seconds(pid: int) -> float:
    """The process's CPU time so far, user and system, all its threads."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICKS


@pytest.mark.parametrize("unload", [True, False], ids=["tab-closed", "connection-lost"])
def test_closing_the_tab_stops_a_long_evaluation(browser, unload):
    """Closed as a user closes it (the page's close beacon), or gone without a word (only its
    connection drops, which Solara culls minutes later): either way the work stops now."""
    page = browser.tab()
    reset_to(page, 4, 3)  # 369,600 worlds, listed
    ticket = re.search(r"p\(1,(\d+)\)", page.get_by_role(
        "button", name=re.compile(r"^K_0 p\(1,\d+\)$")).inner_text()).group(1)
    # about 6 of the budget's 10 s: each D a pass over the worlds, a few ms each
    term = f"D_{{0,1,2}} D_{{0,1}} D_{{1,2}} p(1,{ticket})"
    formula = " & ".join([term] * 700)
    pid = server_pid(browser.url)
    box = page.get_by_label(re.compile("^Formula"))
    began = cpu_seconds(pid)
    box.fill(formula)
    box.press("Enter")
    # the page's sign that the server took the formula: "Evaluating…" (a CI run once saw no
    # CPU used for two minutes, as if the Enter had gone before the long text reached the
    # server; then the box still holds it, and a second Enter sends it)
    pending = page.get_by_test_id("formula-pending")
    try:
        expect(pending).to_have_count(1, timeout=20_000)
    except AssertionError:
        box.press("Enter")
        expect(pending).to_have_count(1, timeout=60_000)
    # the sign that the evaluation runs: a second of the server's CPU (counted in CPU, not in
    # wall time: on a loaded machine a wall-clock second gave it under half a second)
    wait_for_cpu(pid, began + STARTED)
    page.close(run_before_unload=unload)
    closed = cpu_seconds(pid)
    used = cpu_until_quiet(pid) - closed
    assert used < AFTER_CLOSE, f"the server computed {used:.1f} s more for a closed tab"


#: CPU seconds of the server that show the evaluation has begun (of its ~6)...
STARTED = 1.0
#: ... and the most it may use once the tab is closed: the close travels to the server and the
#: evaluation stops at its next operator, where the rest of it would take 4 s or more.
AFTER_CLOSE = 1.5
#: A half-second window with less CPU than this is the server at rest.
QUIET = 0.1


def wait_for_cpu(pid: int, total: float, timeout: float = 120.0) -> None:
    """Until the process has used ``total`` CPU seconds in all."""
    deadline = time.monotonic() + timeout
    while cpu_seconds(pid) < total:
        assert time.monotonic() < deadline, "the server was not computing the formula"
        time.sleep(0.05)


def cpu_until_quiet(pid: int, timeout: float = 120.0) -> float:
    """The process's CPU time once a half-second window passes with almost none used."""
    deadline = time.monotonic() + timeout
    before = cpu_seconds(pid)
    while time.monotonic() < deadline:
        time.sleep(0.5)
        now = cpu_seconds(pid)
        if now - before < QUIET:
            return now
        before = now
    raise AssertionError("the server never came to rest")


def test_a_long_formula_shows_its_verdict_when_done(browser):
    page = browser.tab()
    reset_to(page, 4, 3)
    ticket = re.search(r"p\(1,(\d+)\)", page.get_by_role(
        "button", name=re.compile(r"^K_0 p\(1,\d+\)$")).inner_text()).group(1)
    box = page.get_by_label(re.compile("^Formula"))
    box.fill(" & ".join([f"D_{{0,1,2}} D_{{0,1}} p(1,{ticket})"] * 60))
    box.press("Enter")
    expect(page.get_by_test_id("formula-pending")).to_have_count(1)
    expect(page.get_by_test_id("formula-result")).to_contain_text(
        "true at the actual world", timeout=30_000)
    expect(page.get_by_test_id("formula-pending")).to_have_count(0)


def test_closing_the_tab_stops_an_event_s_preconditions(browser):
    """An event written by hand whose preconditions are some 38,000 C operators (the audit's
    5 × 200 C_b p kept the server busy 2.5 minutes after its tab closed): checked in a thread
    of its own, which stops with the tab."""
    from test_model_page import model_tab

    page = model_tab(browser)
    worlds = [f"world w{i}:{' p' if i % 2 else ''}{' q' if i % 3 else ''}" for i in range(1000)]
    page.locator(".ttr-model-text textarea").fill("\n".join(
        ["agents: a b", "atoms: p q", *worlds, "a observes: p", "b observes: q",
         "actual: w1"]))
    expect(page.get_by_test_id("puzzle-worlds")).to_have_text("1,000", timeout=60_000)
    page.get_by_role("button", name="Event ▸").click()
    page.locator(".ttr-event .v-select", has=page.locator("label", has_text="event")) \
        .locator(".v-select__slot").click()
    page.locator(".menuable__content__active .v-list-item", has_text="written by hand") \
        .first.click()
    pre = " & ".join(["C_{a,b} (p | ~p)"] * 7_600)
    events = "\n".join([*(f"event e{i}: pre {pre}" for i in range(5)), "a: {e0 e1 e2 e3 e4}",
                        "actual: e0"])
    pid = server_pid(browser.url)
    page.locator(".ttr-event textarea").fill(events)
    # the page's sign that the check went to its thread (the text read once, as it came),
    # then a second of the server's CPU evaluating
    expect(page.get_by_test_id("event-checking")).to_have_count(1, timeout=60_000)
    wait_for_cpu(pid, cpu_seconds(pid) + STARTED)
    page.close()
    closed = cpu_seconds(pid)
    used = cpu_until_quiet(pid) - closed
    assert used < AFTER_CLOSE, f"the server computed {used:.1f} s more for a closed tab"
