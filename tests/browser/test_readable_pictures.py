"""What the page draws can be read at 1280 × 800, measured on the boxes Chromium draws: every
name in Sum and Product's picture apart from the others and nearest its own world (the star's
name is the starred world's), and every city name on the USA and europe24 boards clear of the
other names, the length badges and the dots."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect
from test_demo_page import choose, idle
from test_teaching_page import puzzle_tab

pytestmark = pytest.mark.browser

BOXES = """(selector) => [...document.querySelectorAll(selector)].map(e => {
    const r = e.getBoundingClientRect();
    const g = e.closest('g');
    const title = g && g.querySelector(':scope > title');
    return {l: r.left, t: r.top, r: r.right, b: r.bottom, text: e.textContent,
            title: title ? title.textContent : '', actual: !!(g && g.dataset.actual)}; })"""


def boxes(page: Page, selector: str) -> list[dict]:
    return page.evaluate(BOXES, selector)


def overlap(a: dict, b: dict) -> bool:
    return (min(a["r"], b["r"]) - max(a["l"], b["l"]) > 0.5
            and min(a["b"], b["b"]) - max(a["t"], b["t"]) > 0.5)


def gap(text: dict, world: dict) -> float:
    """From a name's box to a world's disc (its box's centre and half its width)."""
    x, y = (world["l"] + world["r"]) / 2, (world["t"] + world["b"]) / 2
    dx = max(text["l"] - x, 0, x - text["r"])
    dy = max(text["t"] - y, 0, y - text["b"])
    return (dx * dx + dy * dy) ** 0.5 - (world["r"] - world["l"]) / 2


def test_sum_and_products_names_are_apart_and_each_its_own_worlds(browser):
    page = puzzle_tab(browser, "Sum and Product")
    page.set_viewport_size({"width": 1280, "height": 800})
    page.get_by_role("button", name="Step ▶").click()
    expect(page.get_by_test_id("puzzle-worlds")).to_have_text("145")
    # names and worlds measured in one call, so in one layout: the picture row is resized as
    # it measures its room (app.web.components.picture_fit), and two calls could straddle that
    names, worlds = page.evaluate(
        f"sels => sels.map({BOXES})",
        ["svg.ttr-pic text.count", "svg.ttr-pic g[data-world] circle.base"])
    assert len(names) == len(worlds) == 145
    for i, a in enumerate(names):
        for b in names[i + 1:]:
            assert not overlap(a, b), (a["text"], b["text"])
    for name in names:
        nearest = sorted(worlds, key=lambda w: gap(name, w))
        x, y = name["text"].split(",")
        assert f"x = {x}, y = {y} " in nearest[0]["title"], (name["text"], nearest[0]["title"])
        assert gap(name, nearest[1]) > gap(name, nearest[0]) + 0.5, name["text"]
    star = next(w for w in worlds if w["actual"])
    assert min(names, key=lambda n: gap(n, star))["text"] == "4,13"


@pytest.mark.parametrize("board", ["usa", "europe24"])
def test_no_city_name_overlaps_another_a_length_badge_or_a_dot(browser, board):
    page = browser.tab()
    page.set_viewport_size({"width": 1280, "height": 800})
    if board != "europe24":  # the test server starts on europe24
        choose(page, "Board", board)
        page.get_by_role("button", name="Reset", exact=True).click()
        expect(page.get_by_test_id("board")).to_have_attribute("aria-label",
                                                              re.compile("^USA"))
        idle(page)
    names = boxes(page, "svg.ttr-board text.city-name")
    badges = boxes(page, "svg.ttr-board rect[rx='10']")
    dots = boxes(page, "svg.ttr-board circle.city-dot")
    assert names and badges and len(dots) == len(names)
    frame = page.locator("svg.ttr-board").bounding_box()
    for i, a in enumerate(names):
        assert frame["x"] <= a["l"] and a["r"] <= frame["x"] + frame["width"], a["text"]
        for b in names[i + 1:]:
            assert not overlap(a, b), (a["text"], b["text"])
        for badge in badges:
            assert not overlap(a, badge), (a["text"], "badge", badge["text"])
        for dot in dots:
            assert not overlap(a, dot), (a["text"], "the dot of", dot["title"])
