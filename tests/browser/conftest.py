"""The real demo server and Debian's chromium, for tests that drive the page like a user.

Each pytest process (each xdist worker) starts its own ``ttr-kripke app`` on a free 127.0.0.1
port and tears it down at the end. Every test gets a fresh browser profile and fails if the page
logs a console error, throws, or sends any request to a host other than this machine.

Without /usr/bin/chromium the tests skip, except under ``CI=true``, where they fail: CI
installs chromium (``.ci/run``) and must never pass by skipping them.
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urlparse

import pytest

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
                 "--no-first-run", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync"]
LOCAL_HOSTS = {"127.0.0.1", "localhost"}
REPO = Path(__file__).resolve().parents[2]
START_TIMEOUT = 120  # seconds: the server imports Mesa, Solara and the game
#: A closed tab's session is freed after this here (the app's own default is minutes), so a test
#: can watch it go; an open tab is never culled.
CULL_SECONDS = 5


@pytest.fixture(scope="session")
def chromium() -> str:
    if not os.path.exists(CHROMIUM):
        message = f"{CHROMIUM} is missing (apt-get install chromium; .ci/run does)"
        if os.environ.get("CI") == "true":
            pytest.fail(f"browser tests cannot run in CI: {message}")
        pytest.skip(message)
    return CHROMIUM


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _wait_until_up(url: str, proc: subprocess.Popen, log: Path) -> None:
    deadline = time.monotonic() + START_TIMEOUT
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"the server exited ({proc.returncode}):\n{log.read_text()}")
        try:
            with urllib.request.urlopen(url, timeout=2) as response:
                if response.status == 200:
                    return
        except OSError:
            time.sleep(0.3)
    raise RuntimeError(f"the server did not answer at {url}:\n{log.read_text()}")


@pytest.fixture(scope="session")
def server(chromium: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """``ttr-kripke app`` on its own port (its own process group, so it all stops)."""
    log = tmp_path_factory.mktemp("server") / "server.log"
    port = _free_port()
    with log.open("w") as out:
        proc = subprocess.Popen(
            [sys.executable, "-m", "app.cli", "app", "--port", str(port), "--board", "europe24",
             "--players", "3", "--tickets", "2", "--seed", "7"],
            cwd=REPO, stdout=out, stderr=subprocess.STDOUT, start_new_session=True,
            env={**os.environ, "SOLARA_KERNEL_CULL_TIMEOUT": f"{CULL_SECONDS}s"})
    url = f"http://127.0.0.1:{port}/"
    try:
        _wait_until_up(url, proc, log)
        yield url
    finally:
        os.killpg(proc.pid, signal.SIGTERM)
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)


@pytest.fixture
def cull_seconds() -> int:
    """How long the test server keeps a closed tab's session."""
    return CULL_SECONDS


class Browser:
    """A fresh chromium profile whose tabs open the demo, recording what must not happen."""

    def __init__(self, context, url: str):
        self.context, self.url = context, url
        self.errors: list[str] = []
        self.foreign: list[str] = []
        context.on("console", self._console)
        context.on("request", self._request)

    def _console(self, message) -> None:
        if message.type == "error":
            self.errors.append(message.text)

    def _request(self, request) -> None:
        parts = urlparse(request.url)
        if parts.scheme in ("http", "https", "ws", "wss") and parts.hostname not in LOCAL_HOSTS:
            self.foreign.append(request.url)

    def tab(self):
        """A new tab with the demo loaded (its Step button showing)."""
        page = self.context.new_page()
        page.on("pageerror", lambda error: self.errors.append(f"uncaught: {error}"))
        page.goto(self.url)
        page.get_by_role("button", name="Step", exact=True).wait_for(timeout=60_000)
        return page


@pytest.fixture
def browser(chromium: str, server: str) -> Iterator[Browser]:
    from playwright.sync_api import expect, sync_playwright

    # an assertion waits for its sign up to 20 s, as an action does up to 30 s: Playwright's
    # own 5 s is short for a page under the full suite's load on 2 cores
    expect.set_options(timeout=20_000)

    with sync_playwright() as playwright, tempfile.TemporaryDirectory() as profile:
        context = playwright.chromium.launch_persistent_context(
            profile, executable_path=chromium, args=CHROMIUM_ARGS, headless=True,
            viewport={"width": 1500, "height": 1100})
        context.set_default_timeout(30_000)
        recorder = Browser(context, server)
        try:
            yield recorder
        finally:
            context.close()
        assert not recorder.foreign, f"requests left the machine: {recorder.foreign}"
        assert not recorder.errors, f"console errors: {recorder.errors}"
