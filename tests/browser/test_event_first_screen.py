"""After an event, the picture a teacher projects is whole on the first screen (issue 43, items
2 and 4): the secret coin after the look and a secret flip of one's own, eight worlds, at
1280 × 800 and 1920 × 1080. The product and its caption (which names the frame class) lie
above the fold; the event model drawn with it is read at its own size (12 px text) beside the
product when there is room, else under the caption, never over either; the Event fields'
labels keep off the line above them."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

pytestmark = pytest.mark.browser

FITTED = """() => {
    const c = document.querySelector('[data-testid=worlds-caption]');
    return c !== null && c.getBoundingClientRect().bottom <= window.innerHeight; }"""


def pick_event(page: Page, kind: str) -> None:
    page.locator(".ttr-event .v-select", has=page.locator("label", has_text="event")) \
        .locator(".v-select__slot").click()
    page.locator(".menuable__content__active .v-list-item", has_text=kind).first.click()


def box(page: Page, testid: str) -> dict:
    found = page.get_by_test_id(testid).bounding_box()
    assert found is not None, testid
    return found


@pytest.mark.parametrize("size", [(1280, 800), (1920, 1080)])
def test_the_coin_after_look_and_flip_is_whole_with_its_caption_on_the_first_screen(
        browser, size):
    width, height = size
    page = browser.context.new_page()
    page.on("pageerror", lambda error: browser.errors.append(f"uncaught: {error}"))
    page.set_viewport_size({"width": width, "height": height})
    page.goto(browser.url + "puzzles")
    page.get_by_role("button", name="Secret coin").click()
    expect(page.get_by_test_id("puzzle-worlds")).to_have_text("2", timeout=60_000)
    page.get_by_role("button", name="Step ▶").click()
    expect(page.get_by_test_id("puzzle-worlds")).to_have_text("4")
    formula = page.get_by_label(re.compile("^Formula"))
    formula.fill("heads")
    formula.press("Enter")
    page.get_by_role("button", name="Event ▸").click()
    pick_event(page, "turns atom")
    event = page.get_by_test_id("event-graph")
    expect(event.locator("text.node")).to_have_count(2)
    page.get_by_role("button", name="Apply").click()
    expect(page.get_by_test_id("puzzle-worlds")).to_have_text("8")
    expect(page.get_by_test_id("worlds-graph").locator("text.node")).to_have_count(8)
    expect(event.locator("text.node")).to_have_count(2)  # the flip, ready again
    page.evaluate("window.scrollTo(0, 0)")
    page.wait_for_function(FITTED, timeout=15_000)  # the row has measured its room
    picture = box(page, "worlds-graph")
    caption = box(page, "worlds-caption")
    assert picture["y"] >= 0 and picture["y"] + picture["height"] <= caption["y"] + 1
    assert caption["y"] + caption["height"] <= height, (caption, height)
    assert "Frame class" in page.get_by_test_id("worlds-caption").inner_text()
    # the event model at its own size: its names and labels read (12 px text)
    for selector in ("text.node", "text.edge"):
        sizes = event.locator(selector).evaluate_all(
            "els => els.map(e => parseFloat(getComputedStyle(e).fontSize) * "
            "e.ownerSVGElement.getBoundingClientRect().width / "
            "e.ownerSVGElement.viewBox.baseVal.width)")
        assert sizes and min(sizes) >= 12 - 0.01, (selector, sizes)
    # the Event fields' floating labels ("event", "who") clear of the lines above them (the
    # verdict, and what the last event did)
    above = max(box(page, t)["y"] + box(page, t)["height"]
                for t in ("formula-result", "announce-result"))
    for label in page.locator(".ttr-event label").all():
        where = label.bounding_box()
        assert where is not None and where["y"] >= above, (label.inner_text(), where, above)
    drawn = box(page, "event-picture")
    beside = drawn["x"] >= picture["x"] + picture["width"] - 1 and \
        drawn["y"] < picture["y"] + picture["height"]
    under = drawn["y"] >= caption["y"] + caption["height"] - 1
    assert beside or under, (drawn, picture, caption)
