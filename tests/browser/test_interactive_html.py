"""The interactive worlds page in Chromium, opened from a file with the network cut off: it
asks for nothing off the file, draws every world and relation of the model (counted in the
vis-network it built), lets a world be dragged where it stays, shows what holds in a world on
hover, and runs none of the user's text. The last test downloads it from the gallery's button.
"""

from __future__ import annotations

import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect
from test_teaching_page import puzzle_tab
from test_worlds_interactive import HOSTILE, expected_edges

from app.cli.main import main
from app.worlds.interactive import interactive_html
from kripke.explicit.belief import BeliefModel
from kripke.puzzles.gallery import dining, sally_anne

pytestmark = pytest.mark.browser
#: No network at all for these pages (the demo's tests allow the server on this machine).
OFFLINE_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
                "--disable-background-networking", "--disable-component-update"]


class Offline:
    """A page that may read files only: any other request is aborted and recorded, as are
    dialogs (an alert() of injected text) and errors."""

    def __init__(self, context) -> None:
        self.context = context
        self.asked: list[str] = []
        self.dialogs: list[str] = []
        self.errors: list[str] = []

    def open(self, path: Path) -> Page:
        page = self.context.new_page()
        page.route("**/*", self._route)
        page.on("dialog", lambda d: (self.dialogs.append(d.message), d.dismiss()))
        page.on("pageerror", lambda e: self.errors.append(str(e)))
        page.on("console", lambda m: self.errors.append(m.text) if m.type == "error" else None)
        page.goto(path.resolve().as_uri())
        # the sign the page is drawn and still: the network built, its physics off
        page.wait_for_function("typeof network !== 'undefined' && "
                               "network.physics.options.enabled === false", timeout=60_000)
        return page

    def check(self) -> None:
        assert not self.asked, f"the page asked for {self.asked}"
        assert not self.errors, f"errors: {self.errors}"
        assert not self.dialogs, f"dialogs: {self.dialogs}"

    def _route(self, route) -> None:
        if route.request.url.startswith("file:"):
            route.continue_()
        else:
            self.asked.append(route.request.url)
            route.abort()


@pytest.fixture
def offline(chromium: str) -> Iterator[Offline]:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright, tempfile.TemporaryDirectory() as profile:
        context = playwright.chromium.launch_persistent_context(
            profile, executable_path=chromium, args=OFFLINE_ARGS, headless=True,
            viewport={"width": 1280, "height": 800})
        context.set_default_timeout(30_000)
        recorder = Offline(context)
        try:
            yield recorder
        finally:
            context.close()
        recorder.check()


def counts(page: Page) -> tuple[int, int]:
    return tuple(page.evaluate("[network.body.data.nodes.length, "
                               "network.body.data.edges.length]"))


@pytest.mark.parametrize("placed", [True, False])
def test_the_dense_dining_cryptographers_open_offline_and_a_world_drags_apart(
        offline, tmp_path, placed):
    """The 32 worlds at the start, placed as the textbook graph places them or by the
    physics; a world dragged 150 px stays where it is dropped (the physics is off)."""
    out = tmp_path / "dining.html"
    model = dining().model
    if placed:
        assert main(["puzzle", "dining", "--steps", "0", "--html", str(out)]) == 0
    else:  # no positions: the physics settles the worlds, then stops
        out.write_text(interactive_html(model, title="dining"), encoding="utf-8")
    page = offline.open(out)
    assert counts(page) == (32, expected_edges(model))
    world = model.world_ids.tolist()[5]
    before = page.evaluate(f"network.canvasToDOM(network.getPositions([{world}])[{world}])")
    box = page.locator("#mynetwork canvas").bounding_box()
    x, y = box["x"] + before["x"], box["y"] + before["y"]
    page.mouse.move(x, y)
    page.mouse.down()
    page.mouse.move(x + 75, y + 40, steps=5)
    page.mouse.move(x + 150, y + 80, steps=5)
    page.mouse.up()
    after = page.evaluate(f"network.canvasToDOM(network.getPositions([{world}])[{world}])")
    assert abs(after["x"] - before["x"] - 150) < 3 and abs(after["y"] - before["y"] - 80) < 3


def test_a_belief_model_shows_its_arrows_and_what_holds_on_hover(offline, tmp_path):
    out = tmp_path / "sally.html"
    assert main(["puzzle", "sally-anne", "--html", str(out)]) == 0
    model = sally_anne().models()[-1]
    page = offline.open(out)
    assert counts(page) == (model.n_worlds, expected_edges(model))
    actual = model.world_id(model.actual)
    where = page.evaluate(f"network.canvasToDOM(network.getPositions([{actual}])[{actual}])")
    box = page.locator("#mynetwork canvas").bounding_box()
    page.mouse.move(box["x"] + where["x"], box["y"] + where["y"])
    tip = page.locator(".vis-tooltip")
    expect(tip).to_be_visible()
    expect(tip).to_contain_text("true here: box")
    expect(tip).to_contain_text("the actual world")


def test_names_that_would_run_as_html_are_shown_as_text(offline, tmp_path):
    model = BeliefModel.of([{"p"}, set(), {"p"}], {"a": [(0, 1), (1, 2), (2, 2)]},
                           actual=0, names=HOSTILE)
    out = tmp_path / "hostile.html"
    out.write_text(interactive_html(model, title="<script>alert(3)</script>"),
                   encoding="utf-8")
    page = offline.open(out)
    assert page.evaluate("nodes.get().map(n => n.label)") == HOSTILE
    assert page.locator("img").count() == 0
    assert page.locator("h1").inner_text() == "<script>alert(3)</script>"
    assert page.evaluate("document.scripts.length") == 2


def test_the_gallerys_button_downloads_the_page(browser, tmp_path):
    """The gallery's "interactive HTML" beside the other exports: the dining cryptographers
    at the start, opened offline (in the same browser), every world and pair there."""
    page = puzzle_tab(browser, "Dining cryptographers")
    expect(page.get_by_test_id("puzzle-story")).to_contain_text("Three cryptographers dine")
    with page.expect_download() as info:
        page.get_by_role("button", name="interactive HTML").click()
    out = tmp_path / info.value.suggested_filename
    info.value.save_as(out)
    assert out.suffix == ".html"
    model = dining().model
    offline = Offline(browser.context)
    assert counts(offline.open(out)) == (model.n_worlds, expected_edges(model))
    offline.check()
