"""The open game on the page: a bluff plants a false belief and a later block revises it, and the
page draws and says both, as the model has them at that moment (issue 47, "Done when").

The game is ``tests/open_game_story.py``'s (seed 36: player 0 bluffs at turn 6, player 1's
declared block at turn 16 rules out every deal player 2 believed in); the page plays it from
its own settings, chosen as a teacher chooses them, and each check compares the page with the
same game played in the test's process.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from tests.browser.test_demo_page import choose, idle, step, turn
from tests.open_game_story import BLUFF_TURN, LINEUP, REVISION_TURN, SEED, VIEWER, Story

pytestmark = pytest.mark.browser


def start_open_game(page: Page) -> None:
    """Choose the open rules, the line-up and the seed, as a teacher does, and press Reset."""
    choose(page, "Rules", "open")
    choose(page, "Agent kinds", LINEUP)
    page.get_by_label("Seed").fill(str(SEED))
    expect(page.get_by_test_id("pending")).to_contain_text("press Reset")
    page.get_by_role("button", name="Reset", exact=True).click()
    expect(page.get_by_test_id("pending")).to_have_count(0, timeout=120_000)
    idle(page)
    expect(page.get_by_test_id("status")).to_contain_text("Turn 0")


def drawn_beliefs(page: Page) -> dict[str, set[int]]:
    """The world ids the picture marks as believed and as dropped (a belief just revised)."""
    picture = page.get_by_test_id("worlds-picture")
    out: dict[str, set[int]] = {"believed": set(), "dropped": set()}
    for kind in out:
        for element in picture.locator(f"[data-belief={kind}]").all():
            out[kind].add(int(element.get_attribute("data-world")))
    return out


def step_to(page: Page, turns: int) -> None:
    while turn(page) < turns:
        step(page)
    idle(page)


def test_a_bluff_plants_a_false_belief_that_a_block_revises(browser):
    page = browser.tab()
    start_open_game(page)
    story = Story()  # the same game in this process: the model the page must agree with
    # the player's own view: what player 2 believes, never whether it is true
    page.get_by_role("button", name=f"player {VIEWER}", exact=True).click()
    step_to(page, BLUFF_TURN + 1)
    story.play_to(BLUFF_TURN + 1)
    [planted] = story.false_beliefs()
    ticket = story.ticket(planted)
    news = page.get_by_test_id("belief-news")
    expect(news.get_by_test_id("belief-new")).to_contain_text(
        f"player {VIEWER} now believes player 0 holds {ticket}")
    expect(news).not_to_contain_text("false")  # no leak: the player cannot know
    assert drawn_beliefs(page)["believed"] == story.believed_ids()
    # the teacher's view, player 2's classes: the same belief, named false, and the bluff
    page.get_by_role("button", name="Outside view (the real deal)").click()
    page.locator(".ttr-focus").get_by_role("button", name=str(VIEWER), exact=True).click()
    expect(news.get_by_test_id("bluff")).to_contain_text("player 0's claim was a bluff")
    expect(news.get_by_test_id("belief-planted")).to_contain_text(
        f"player {VIEWER} now believes player 0 holds {ticket} (false)")
    assert drawn_beliefs(page)["believed"] == story.believed_ids()
    story.play_to(REVISION_TURN)
    step_to(page, REVISION_TURN)
    before = story.believed_ids()
    assert drawn_beliefs(page)["believed"] == before  # the false belief lasted until now

    step_to(page, REVISION_TURN + 1)
    story.play_to(REVISION_TURN + 1)
    revised = news.get_by_test_id("belief-revised")
    expect(revised).to_contain_text(re.compile(
        rf"player {VIEWER} believed player 0 held {ticket}.*"
        r"declared a block.*belief revised"))
    drawn = drawn_beliefs(page)
    assert drawn["dropped"] == before  # the old beliefs, fading where they stood
    assert drawn["believed"] == story.believed_ids() and not drawn["believed"] & before
