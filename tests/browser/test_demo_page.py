"""The demo page in a real browser: what a first-time visitor does, with no internet needed.

The fixtures (conftest.py) fail any test whose page logs a console error or sends a request to
another host.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

pytestmark = pytest.mark.browser


def worlds(page: Page) -> int:
    return int(page.get_by_test_id("status-worlds").inner_text().replace(",", ""))


def step(page: Page) -> None:
    """Press Step and wait until the page shows the next turn."""
    turn = int(re.search(r"Turn (\d+)", page.get_by_test_id("status").inner_text()).group(1))
    page.get_by_role("button", name="Step", exact=True).click()
    expect(page.get_by_test_id("status")).to_contain_text(re.compile(
        rf"Turn {turn + 1}\b|Game over"))


def graph_drawn(page: Page) -> int:
    """How many worlds the pyvis picture says it has drawn (0 until vis-network has drawn)."""
    body = page.frame_locator("iframe[data-testid=worlds-graph]").locator("body")
    expect(body).not_to_have_attribute("data-drawn", "0")
    return int(body.get_attribute("data-drawn"))


def test_step_until_an_announcement_prunes_the_worlds(browser):
    page = browser.tab()
    before = worlds(page)
    assert before == 90  # 3 players × 2 tickets
    assert graph_drawn(page) == before
    for _ in range(10):
        step(page)
        if worlds(page) < before:
            break
    after = worlds(page)
    assert after < before, "ten turns without one announcement that removed a world"
    expect(page.get_by_test_id("announcement").first).to_contain_text("p(")
    expect(page.get_by_test_id("announcement").first).to_contain_text("removed")
    expect(page.get_by_test_id("worlds-count")).to_have_text(str(after))
    assert graph_drawn(page) == after
    expect(page.locator("[data-testid=board] [data-last-move]")).to_have_count(1)


def test_formula_box_shows_the_value_and_the_parser_error(browser):
    page = browser.tab()
    box = page.get_by_label(re.compile("^Formula"))
    example = page.get_by_role("button", name=re.compile(r"^K_0 p\(1,\d+\)$")).inner_text()
    box.fill(example)
    box.press("Enter")
    expect(page.get_by_test_id("formula-result")).to_contain_text("false at the actual world")
    box.fill("K_0 (p(1,2)")
    box.press("Enter")
    expect(page.get_by_test_id("formula-error")).to_contain_text("position")
    box.fill(example.removeprefix("K_0 "))  # player 1 holds its own ticket
    box.press("Enter")
    expect(page.get_by_test_id("formula-result")).to_contain_text("true at the actual world")
    expect(page.get_by_test_id("formula-result")).to_contain_text("holds in 30 of 90 worlds")


def test_a_players_view_shows_its_hand_and_only_its_knowledge(browser):
    page = browser.tab()
    page.get_by_role("button", name="player 1", exact=True).click()
    expect(page.get_by_test_id("hand")).to_contain_text("player 1's train cards")
    knowledge = page.get_by_test_id("knowledge")
    expect(knowledge).to_contain_text("player 1 knows")
    expect(knowledge).not_to_contain_text("player 0 knows")
    expect(knowledge).not_to_contain_text("real holder")
    expect(page.get_by_test_id("scores")).to_contain_text("hidden")


def test_two_tabs_play_their_own_games(browser):
    first, second = browser.tab(), browser.tab()
    step(first)
    step(first)
    expect(second.get_by_test_id("status")).to_contain_text("Turn 0:")
    step(second)
    expect(second.get_by_test_id("status")).to_contain_text("Turn 1:")
    expect(first.get_by_test_id("status")).to_contain_text("Turn 2:")
