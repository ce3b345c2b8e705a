"""A story that travels, in a real browser at 1280 × 800 (issue 43, items 5, 7 and 8): on
"Your model", Sally's marble put in the basket by a public factual change, moved by Anne while
Sally is out, then an announcement; each moment drawn and said as its model is (names, atoms,
count, Sally's missing arrow); each event shown as applied, not refused, until edited; the share
link opened in a new tab at the last moment, and Back through the story there."""

from __future__ import annotations

import time
from urllib.parse import quote

import pytest
from playwright.sync_api import Page, expect

from kripke.files.eventfile import parse_event_model
from kripke.files.modelfile import parse_model

pytestmark = pytest.mark.browser

START = "agents: sally anne\natoms: basket box\nworld w:\nsally: {w}\nanne: {w}\nactual: w\n"
PUT = "event put: pre true\npost put: basket := true, box := false\nactual: put"
MOVE = ("event move: pre basket\nevent skip: pre true\npost move: basket := false, box := true\n"
        "anne: {move} {skip}\nsally: move -> skip\nsally: skip -> skip\nactual: move")


def models() -> list:
    """The story made with kripke alone, as ``ttr-kripke model`` makes it."""
    start = parse_model(START)
    put = start.update(parse_event_model(PUT))
    moved = put.update(parse_event_model(MOVE))
    return [start, put, moved, moved.announce("K_anne box")]


def open_tab(browser, path: str) -> Page:
    page = browser.context.new_page()
    page.on("pageerror", lambda error: browser.errors.append(f"uncaught: {error}"))
    page.set_viewport_size({"width": 1280, "height": 800})
    page.goto(browser.url + path)
    page.get_by_test_id("puzzle-status").wait_for(timeout=60_000)
    return page


def drawn(page: Page) -> list[tuple[str, str]]:
    """Each world the graph draws: its name and the atoms written under it."""
    graph = page.get_by_test_id("worlds-graph")
    return sorted(zip(graph.locator("text.node").all_text_contents(),
                      graph.locator("text.atoms").all_text_contents(), strict=True))


def drawn_as(page: Page, model, timeout: float = 15.0) -> list[tuple[str, str]]:
    """What the graph draws once it draws ``model``, or at the deadline: the status line and
    the picture are two widgets, updated one after the other (after Back from a moment of as
    many worlds, the count can be right while the picture is the moment before's)."""
    deadline = time.monotonic() + timeout
    while (seen := drawn(page)) != expected(model) and time.monotonic() < deadline:
        page.wait_for_timeout(100)
    return seen


def expected(model) -> list[tuple[str, str]]:
    """Each world's name and its true atoms as the graph writes them (∅: none)."""
    return sorted((model.world_name(i), " ".join(str(a) for a in model.atoms
                                                  if model.atom_values(a)[i]) or "∅")
                  for i in range(model.n_worlds))


def shows_moment(page: Page, k: int, model) -> None:
    """The page at moment ``k`` draws and says what ``model`` is."""
    expect(page.get_by_test_id("puzzle-status")).to_contain_text(f"moment {k} of 3")
    expect(page.get_by_test_id("puzzle-worlds")).to_have_text(str(model.n_worlds))
    expect(page.get_by_test_id("worlds-graph").locator("text.node")).to_have_count(
        model.n_worlds)
    assert drawn_as(page, model) == expected(model), k
    caption = page.get_by_test_id("worlds-caption")
    expect(caption).to_contain_text(f"Frame class {model.frame_class()}")
    if model.dead_ends("sally").size:
        expect(page.get_by_test_id("dead-ends")).to_have_text(
            "sally has no arrow from w·move, so sally's relation is not serial: there sally "
            "believes everything, false too.")
        box = page.get_by_test_id("dead-ends").bounding_box()
        assert box is not None and box["y"] + box["height"] <= 800  # on the first screen
    else:
        expect(page.get_by_test_id("dead-ends")).to_have_count(0)


def apply_by_hand(page: Page, text: str, label: str) -> None:
    page.locator(".ttr-event textarea").fill(text)
    expect(page.get_by_test_id("event-graph")).to_be_visible()
    page.get_by_role("button", name="Apply", exact=True).click()
    applied = page.get_by_test_id("event-applied")
    expect(applied).to_contain_text(f"Applied: {label}, checked against the model it was "
                                    "applied to")
    expect(page.get_by_test_id("event-error")).to_have_count(0)
    expect(page.get_by_test_id("event-graph")).to_be_visible()  # still drawn, as applied
    assert page.locator(".ttr-event textarea").input_value() == text


def test_a_story_is_drawn_as_its_model_at_every_moment_and_its_link_reopens_it(browser,
                                                                              tmp_path):
    story = models()
    page = open_tab(browser, "model?model=" + quote(START))
    expect(page.get_by_test_id("puzzle-worlds")).to_have_text("1")
    assert drawn(page) == expected(story[0]) == [("w", "∅")]
    page.get_by_role("button", name="Event ▸").click()
    page.locator(".ttr-event .v-select", has=page.locator("label", has_text="event")) \
        .locator(".v-select__slot").click()
    page.locator(".menuable__content__active .v-list-item", has_text="written by hand") \
        .first.click()
    apply_by_hand(page, PUT, "put, written by hand")
    expect(page.get_by_test_id("puzzle-status")).to_contain_text("moment 1 of 1")
    assert drawn(page) == expected(story[1])  # the new atoms: basket, where it was put
    page.screenshot(path=tmp_path / "put.png")
    apply_by_hand(page, MOVE, "move of 2 events written by hand")
    page.screenshot(path=tmp_path / "moved.png")
    page.locator(".ttr-event textarea").fill(MOVE + "\n# again")  # edited: checked anew
    expect(page.get_by_test_id("event-error")).to_contain_text(
        "the actual event move cannot happen")
    expect(page.get_by_test_id("event-applied")).to_have_count(0)
    formula = page.get_by_label("Formula, evaluated at the actual world (press Enter)")
    formula.fill("K_anne box")
    formula.press("Enter")
    expect(page.get_by_test_id("formula-result")).to_contain_text("true")
    page.get_by_role("button", name="Announce").click()
    shows_moment(page, 3, story[3])
    page.screenshot(path=tmp_path / "announced.png")
    link = page.get_by_test_id("share-link")
    expect(link).to_have_text("link to this moment (the model and 3 steps)")
    href = link.get_attribute("href")
    assert href is not None and href.startswith("/model?model=")
    shared = open_tab(browser, href.removeprefix("/"))  # a colleague opens the link
    for k in range(3, -1, -1):
        shows_moment(shared, k, story[k])
        if k == 1:
            shared.screenshot(path=tmp_path / "shared-put.png")
        if k:
            shared.get_by_role("button", name="◀ Back").click()
    assert shared.locator(".ttr-model-text textarea").input_value() == START
