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
    """How many worlds the picture draws one by one (its SVG says so)."""
    picture = page.locator("svg[data-testid=worlds-picture]")
    expect(picture).to_have_count(1)
    return int(picture.get_attribute("data-drawn-worlds"))


def idle(page: Page) -> None:
    page.wait_for_function("() => !document.querySelector('[data-testid=busy]')",
                           timeout=120_000)


def turn(page: Page) -> int:
    found = re.search(r"Turn (\d+)|after (\d+) turns", page.get_by_test_id("status").inner_text())
    return int(found.group(1) or found.group(2))


def choose(page: Page, label: str, value: str) -> None:
    """Pick a value in one of the settings' drop-downs, as a user does."""
    page.locator(".v-select", has=page.locator("label", has_text=label)) \
        .locator(".v-select__slot").click()
    page.locator(".menuable__content__active .v-list-item", has_text=value).first.click()


def reset_to(page: Page, players: int, tickets: int) -> None:
    choose(page, "Players", str(players))
    choose(page, "Tickets each", str(tickets))
    expect(page.get_by_test_id("pending")).to_contain_text("press Reset")
    page.get_by_role("button", name="Reset", exact=True).click()
    expect(page.get_by_test_id("pending")).to_have_count(0, timeout=120_000)
    idle(page)


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
    expect(page.get_by_test_id("formula-error")).to_contain_text("line 1, column 12")
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


def assert_labels_legible_and_apart(page: Page) -> None:
    """Every text of the worlds picture at 11 px or more as drawn, no two overlapping."""
    labels = page.evaluate("""() => [...document.querySelectorAll('svg.ttr-pic text')].map(t => {
        const r = t.getBoundingClientRect();
        return {size: parseFloat(getComputedStyle(t).fontSize) * t.getScreenCTM().a,
                l: r.left, t: r.top, r: r.right, b: r.bottom, text: t.textContent}; })""")
    assert labels and min(label["size"] for label in labels) >= 11, min(
        (label["size"], label["text"]) for label in labels)
    for i, a in enumerate(labels):
        for b in labels[i + 1:]:
            apart = (a["r"] <= b["l"] + 0.5 or b["r"] <= a["l"] + 0.5
                     or a["b"] <= b["t"] + 0.5 or b["b"] <= a["t"] + 0.5)
            assert apart, (a["text"], b["text"])


def assert_on_the_first_screen(page: Page, width: int, height: int) -> None:
    """The board and the worlds picture both wholly visible before any scrolling."""
    for selector in ("svg.ttr-board", "svg.ttr-pic"):
        box = page.locator(selector).bounding_box()
        assert box and box["x"] >= 0 and box["y"] >= 0, selector
        assert box["x"] + box["width"] <= width + 0.5, (selector, box)
        assert box["y"] + box["height"] <= height + 0.5, (selector, box)


def test_at_1280_by_800_nothing_is_cut_off_and_labels_are_legible(browser, tmp_path):
    page = browser.tab()
    page.set_viewport_size({"width": 1280, "height": 800})
    assert_on_the_first_screen(page, 1280, 800)  # the 3 × 2 deal grid beside the board
    for _ in range(3):
        step(page)
    page.screenshot(path=str(tmp_path / "page-1280.png"), full_page=True)
    assert_on_the_first_screen(page, 1280, 800)
    for testid in ("status", "board", "worlds-graph", "worlds-caption", "knowledge", "scores",
                   "event-log", "worlds-legend"):
        box = page.get_by_test_id(testid).first.bounding_box()
        assert box and box["x"] >= 0 and box["x"] + box["width"] <= 1280 + 0.5, testid
    overflow = page.evaluate("""() => [...document.querySelectorAll(
        '[data-testid=scores], [data-testid=knowledge]')]
        .map(e => e.scrollWidth - e.clientWidth)""")
    assert max(overflow) <= 1, f"a table is wider than its card: {overflow}"
    assert_labels_legible_and_apart(page)
    page.get_by_role("button", name="player 1", exact=True).click()
    expect(page.get_by_test_id("worlds-caption")).to_contain_text("Player 1 cannot tell")
    assert_on_the_first_screen(page, 1280, 800)
    assert_labels_legible_and_apart(page)
    page.set_viewport_size({"width": 1920, "height": 1080})
    assert_on_the_first_screen(page, 1920, 1080)  # never taller than the screen
    assert page.get_by_text("This website runs on Solara").count() == 0


def test_one_step_is_one_turn_however_fast_the_clicks(browser):
    page = browser.tab()
    button = page.get_by_role("button", name="Step", exact=True)
    for _ in range(6):
        button.dispatch_event("click")  # straight to the page: no waiting for it to be enabled
    expect(page.get_by_test_id("status")).not_to_contain_text("Turn 0:")
    seen, still = turn(page), 0
    for _ in range(60):  # until every click has been handled: 2 s without a new turn
        page.wait_for_timeout(250)
        now = turn(page)
        seen, still = now, (still + 1 if now == seen else 0)
        if still >= 8:
            break
    idle(page)
    first = turn(page)
    # at most one turn per click (a click during a turn is dropped, not queued), never the
    # several turns per click of Mesa's Render Interval
    assert 1 <= first <= 6
    step(page)
    assert turn(page) == first + 1


@pytest.mark.slow
def test_every_player_view_of_a_4x3_game_draws_its_classes(browser):
    page = browser.tab()
    page.set_viewport_size({"width": 1280, "height": 800})
    reset_to(page, 4, 3)
    expect(page.get_by_test_id("status-worlds")).to_have_text("369,600")
    for p in range(4):
        page.get_by_role("button", name=f"player {p}", exact=True).click()
        expect(page.get_by_test_id("worlds-caption")).to_contain_text(
            f"Player {p} cannot tell apart")  # the player's view is on screen
        expect(page.get_by_test_id("worlds-caption")).to_contain_text(
            f"all 220 hands of player {p} as dealt")
        expect(page.locator("svg.ttr-pic")).to_have_attribute(  # the picture has followed
            "aria-label", re.compile(f"player {p}'s own class opened"))
        # expect() waits: under load the caption (its own widget) can arrive before the picture
        expect(page.locator("svg.ttr-pic [data-tile^='c0:']")).to_have_count(10)  # lowest ticket
        nodes = page.locator("svg.ttr-pic [data-state=live]:is([data-tile], [data-world])")
        assert nodes.count() > 1  # its own class, and the next player's classes inside it
        expect(page.locator("svg.ttr-pic [data-actual='1']").first).to_be_visible()
        expect(page.locator("svg.ttr-pic .star")).to_have_count(1)  # on its own tile, no other
        assert_on_the_first_screen(page, 1280, 800)
        assert_labels_legible_and_apart(page)
    page.get_by_role("button", name="Outside view (the real deal)").click()
    expect(page.get_by_test_id("worlds-caption")).to_contain_text("every one drawn")
    assert graph_drawn(page) > 1
    assert_labels_legible_and_apart(page)


def test_a_4x4_game_held_symbolically_draws_and_plays_in_the_page(browser):
    """4 × 4 (63,063,000 deals) is held symbolically: the page draws its classes as tiles with
    their numbers and the actual class opened to its worlds, in the outside view and in a
    player's, steps on, and evaluates a formula, as for a game whose worlds are listed."""
    page = browser.tab()
    page.set_viewport_size({"width": 1280, "height": 800})
    reset_to(page, 4, 4)
    expect(page.get_by_test_id("status-worlds")).to_have_text("63,063,000")
    expect(page.get_by_test_id("worlds-caption")).to_contain_text(
        "all 1,820 hands of player 0 as dealt")
    expect(page.locator("svg.ttr-pic [data-tile^='c0:']")).to_have_count(13)  # lowest ticket
    expect(page.get_by_test_id("worlds-caption")).to_contain_text("every one drawn")
    assert graph_drawn(page) > 1
    # the actual world starred, and the tile holding it at each of the two levels above
    expect(page.locator("svg.ttr-pic .star")).to_have_count(3)
    for _ in range(12):  # until an announcement has removed deals
        step(page)
        if worlds(page) < 63_063_000:
            break
    assert worlds(page) < 63_063_000
    page.get_by_role("button", name="player 2", exact=True).click()
    expect(page.get_by_test_id("worlds-caption")).to_contain_text("Player 2 cannot tell apart")
    expect(page.locator("svg.ttr-pic").first).to_have_attribute(
        "aria-label", re.compile("player 2's own class opened"))
    assert page.locator("svg.ttr-pic [data-state=live][data-tile]").count() > 1
    assert_on_the_first_screen(page, 1280, 800)
    assert_labels_legible_and_apart(page)
    box = page.get_by_label("Formula, evaluated at the actual world (press Enter)")
    box.fill("p(2,4) | ~p(2,4)")
    box.press("Enter")
    expect(page.get_by_test_id("formula-result")).to_contain_text(
        f"holds in {worlds(page):,} of {worlds(page):,}")


def test_a_bad_seed_is_refused_inline_and_dark_mode_darkens_board_and_picture(browser):
    page = browser.tab()
    seed = page.get_by_label("Seed")
    seed.fill("hello world")
    expect(page.get_by_test_id("seed-error")).to_contain_text("not a seed")
    expect(page.get_by_role("button", name="Reset", exact=True)).to_be_disabled()
    seed.fill("8")
    expect(page.get_by_test_id("seed-error")).to_have_count(0)
    expect(page.get_by_test_id("pending")).to_contain_text("press Reset")
    paper = "() => getComputedStyle(document.querySelector('svg.ttr-pic')).backgroundColor"
    board = "() => getComputedStyle(document.querySelector('svg.ttr-board')).backgroundColor"
    casing = "() => getComputedStyle(document.querySelector('svg.ttr-board .car-edge')).stroke"
    heading = ("() => getComputedStyle(document.querySelector("
               "'svg.ttr-pic text.heading[style*=ttr-p2]')).fill")
    page.locator(".ttr-focus button", has_text="2").click()  # columns: player 2's brown
    # the picture is redrawn on the server: wait for player 2's columns before reading inks
    page.locator("svg.ttr-pic text.heading[style*=ttr-p2]").first.wait_for()
    light = page.evaluate(paper), page.evaluate(board)
    page.locator(".ttr-theme button").first.click()  # Solara's theme toggle: light → dark
    page.wait_for_function("() => document.querySelector('.v-application.theme--dark')")
    dark = page.evaluate(paper), page.evaluate(board)

    def brightness(rgb: str) -> int:
        return sum(int(c) for c in re.findall(r"\d+", rgb)[:3])

    assert all(brightness(d) < brightness(b) - 300 for d, b in zip(dark, light, strict=True))
    # what was dark on light turns light on dark: the casing of unclaimed cars (black ones
    # vanished without it) and a player's heading
    assert brightness(page.evaluate(casing)) > 500
    assert brightness(page.evaluate(heading)) > brightness(dark[0]) + 250
