"""The Event control in a real browser at a projector's 1280 x 800: a semi-private event run on
a puzzle, the log saying what each agent observed, the picture still on the first screen."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect
from test_teaching_page import inside, puzzle_tab, type_formula

pytestmark = pytest.mark.browser


def test_albert_learns_whether_july_16_and_bernard_sees_him_learn_it(browser):
    page = puzzle_tab(browser, "Cheryl's birthday")
    page.set_viewport_size({"width": 1280, "height": 800})
    type_formula(page, "d_July_16")
    expect(page.get_by_test_id("formula-result")).to_contain_text("true")
    page.get_by_role("button", name="Event ▸").click()
    expect(page.get_by_test_id("event-label")).to_have_text("learns:albert:d_July_16")
    page.get_by_role("button", name="Apply").click()
    expect(page.get_by_test_id("announce-result")).to_contain_text(
        "Albert: saw yes; Bernard: could not tell yes from no.")
    expect(page.get_by_test_id("puzzle-status")).to_contain_text("moment 1 of 1: event")
    page.evaluate("window.scrollTo(0, 0)")
    assert inside(page, "announce-result") and inside(page, "formula-result")
    picture = page.get_by_test_id("worlds-graph").bounding_box()
    assert picture is not None and picture["y"] + picture["height"] / 2 <= 800
    type_formula(page, "K_albert d_July_16 & ~K_bernard d_July_16")
    expect(page.get_by_test_id("formula-result")).to_contain_text("true")
    # the line under the box was about the last action and goes with a new formula (issue 23:
    # no stale text); the timeline's moment keeps what each agent observed
    expect(page.get_by_test_id("puzzle-status")).to_contain_text("Albert: saw yes")
    page.get_by_role("button", name="◀ Back").click()  # undone like a step
    expect(page.get_by_test_id("formula-result")).to_contain_text("false")
