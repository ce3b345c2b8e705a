"""The "Your model" page in a real browser at 1280 × 800: a model loaded from a file through the
upload, drawn as the textbook graph whose node labels the page shows, a mistake shown under its
line, an announcement that fades worlds where they stood; and the gallery's graph switch."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

pytestmark = pytest.mark.browser

THREE = """# three worlds, two agents
agents: ann bob
world sun: warm dry
world rain: wet
world snow: cold wet
ann: {sun rain} {snow}
bob observes: wet
actual: rain
"""


def model_tab(browser, width: int = 1280, height: int = 800) -> Page:
    page = browser.context.new_page()
    page.on("pageerror", lambda error: browser.errors.append(f"uncaught: {error}"))
    page.set_viewport_size({"width": width, "height": height})
    page.goto(browser.url + "model")
    expect(page.get_by_test_id("puzzle-worlds")).to_have_text("4", timeout=60_000)
    return page


def upload(page: Page, path: Path) -> None:
    """Press Upload and choose ``path`` in the file chooser, as a user does."""
    with page.expect_file_chooser() as chooser:
        page.locator(".ttr-upload button").click()
    chooser.value.set_files(str(path))


def node_labels(page: Page) -> list[str]:
    return sorted(page.get_by_test_id("worlds-graph").locator("text.node").all_text_contents())


def test_a_model_uploaded_from_a_file_is_drawn_as_a_graph_with_its_names(browser, tmp_path):
    page = model_tab(browser)
    path = tmp_path / "weather.kripke"
    path.write_text(THREE, encoding="utf-8")
    upload(page, path)
    expect(page.get_by_test_id("upload-result")).to_have_text("Read weather.kripke.")
    expect(page.get_by_test_id("puzzle-worlds")).to_have_text("3")
    page.locator(".ttr-kind").get_by_role("button", name="graph").click()
    expect(page.get_by_test_id("worlds-caption")).to_contain_text("drawn as a graph")
    # the picture is drawn after the count changes (the starter's four worlds were a graph)
    expect(page.get_by_test_id("worlds-graph").locator("text.node")).to_have_count(3)
    assert node_labels(page) == ["rain", "snow", "sun"]
    atoms = page.get_by_test_id("worlds-graph").locator("text.atoms").all_text_contents()
    assert sorted(atoms) == ["cold wet", "dry warm", "wet"]  # in the model's atom order
    edges = page.get_by_test_id("worlds-graph").locator("text.edge").all_text_contents()
    assert sorted(e.rstrip(",") for e in edges) == ["ann", "bob"]  # sun–rain, rain–snow
    actual = page.get_by_test_id("worlds-graph").locator("g[data-actual='1']")
    expect(actual.locator("circle.ring")).to_have_count(1)
    # the text box now holds the file, and the picture's labels sit apart on screen
    assert page.locator(".ttr-model-text textarea").input_value() == THREE
    boxes = [page.get_by_test_id("worlds-graph").locator("text.node").nth(i).bounding_box()
             for i in range(3)]
    for i, a in enumerate(boxes):
        assert a is not None and a["height"] >= 10  # legible: 10 px or more at 1280 × 800
        for b in boxes[i + 1:]:
            assert b is not None
            assert (a["x"] + a["width"] <= b["x"] or b["x"] + b["width"] <= a["x"] or
                    a["y"] + a["height"] <= b["y"] or b["y"] + b["height"] <= a["y"])
    page.get_by_role("button", name="Download").first.wait_for()


def test_a_file_too_big_for_upload_gets_a_line_and_the_page_stays_connected(browser, tmp_path):
    """A file of 17 MB sent whole closed the page's socket without a word; the button now
    says why from the file's size, and the page goes on reading the next file."""
    page = model_tab(browser)
    huge = tmp_path / "huge.kripke"
    with huge.open("wb") as f:
        f.truncate(17 << 20)
    upload(page, huge)
    expect(page.get_by_test_id("upload-result")).to_contain_text(
        f"huge.kripke has {17 << 20:,} bytes; the page reads up to")
    small = tmp_path / "weather.kripke"
    small.write_text(THREE, encoding="utf-8")
    upload(page, small)
    expect(page.get_by_test_id("upload-result")).to_have_text("Read weather.kripke.")
    expect(page.get_by_test_id("puzzle-worlds")).to_have_text("3")


def test_a_hostile_file_name_and_a_2000_deep_json_are_text_not_markup_nor_a_crash(browser,
                                                                                 tmp_path):
    """The file's name reaches the page in the upload's message: shown as text, never run;
    its content, 2,000 brackets deep, is one line naming the problem, the page still up."""
    page = model_tab(browser)
    dialogs: list[str] = []
    page.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
    name = 'a"><img src=x onerror=alert(1)>.json'
    path = tmp_path / name
    path.write_text('{"x":' + "[" * 2000, encoding="utf-8")
    upload(page, path)
    expect(page.get_by_test_id("upload-result")).to_have_text(f"Read {name}.")
    expect(page.get_by_test_id("model-error")).to_contain_text("JSON")
    assert page.locator("img[src='x']").count() == 0 and not dialogs
    assert "Traceback" not in page.locator("body").inner_text()
    small = tmp_path / "weather.kripke"
    small.write_text(THREE, encoding="utf-8")
    upload(page, small)
    expect(page.get_by_test_id("puzzle-worlds")).to_have_text("3")


def test_a_mistake_shows_under_its_line_and_an_announcement_fades_worlds(browser):
    page = model_tab(browser)
    box = page.locator(".ttr-model-text textarea")
    box.fill(THREE.replace("actual: rain", "actual: hail"))
    error = page.get_by_test_id("model-error")
    expect(error).to_contain_text("line 8:")
    expect(error).to_contain_text("actual: hail")
    expect(error).to_contain_text("not among the worlds")
    expect(page.get_by_test_id("puzzle-worlds")).to_have_text("4")  # the last model stays
    box.fill(THREE)
    expect(page.get_by_test_id("puzzle-worlds")).to_have_text("3")
    page.locator(".ttr-kind").get_by_role("button", name="graph").click()
    formula = page.get_by_label(re.compile("^Formula"))
    formula.fill("wet")
    formula.press("Enter")
    page.get_by_role("button", name="Announce", exact=True).click()
    expect(page.get_by_test_id("puzzle-worlds")).to_have_text("2")
    graph = page.get_by_test_id("worlds-graph")
    expect(graph.locator("[data-state='going']")).to_have_count(1)
    expect(graph.locator("text.ghost")).to_contain_text(["sun"])
    page.get_by_role("button", name="◀ Back").click()
    expect(page.get_by_test_id("puzzle-worlds")).to_have_text("3")


def test_the_gallery_switches_to_the_graph_and_back(browser):
    page = browser.context.new_page()
    page.set_viewport_size({"width": 1280, "height": 800})
    page.goto(browser.url + "puzzles")
    page.get_by_role("button", name="Cheryl's birthday").click()
    expect(page.get_by_test_id("puzzle-worlds")).to_have_text("10", timeout=60_000)
    page.locator(".ttr-kind").get_by_role("button", name="graph").click()
    expect(page.get_by_test_id("worlds-caption")).to_contain_text("drawn as a graph")
    assert "July 16" in node_labels(page)
    page.locator(".ttr-kind").get_by_role("button", name="classes").click()
    expect(page.get_by_test_id("worlds-caption")).not_to_contain_text("drawn as a graph")


def test_an_event_on_your_model_says_what_each_agent_observed(browser):
    page = model_tab(browser)
    formula = page.get_by_label(re.compile("^Formula"))
    formula.fill("p")
    formula.press("Enter")
    page.get_by_role("button", name="Event ▸").click()
    expect(page.get_by_test_id("event-label")).to_have_text("learns:alice:p")
    page.get_by_role("button", name="Apply").click()
    said = page.get_by_test_id("announce-result")
    expect(said).to_contain_text("learns:alice:p")
    expect(said).to_contain_text("alice: saw yes; bob: could not tell yes from no")
    expect(page.get_by_test_id("puzzle-status")).to_contain_text("learns:alice:p")


def test_sally_anne_event_and_verdict_share_the_first_screen_with_arrows(browser):
    """The Sally–Anne starter through its share link at 1280 × 800: Sally's arrow has its head
    at the basket and her loop is drawn (not reflexive), Anne's loops are not; the verdict, the
    model and its caption above the fold, and the private event drawn beside the model before
    it is applied, or under the caption where the row has no room for it."""
    from urllib.parse import quote

    from kripke.files.modelfile import starter_models

    page = browser.context.new_page()
    page.on("pageerror", lambda error: browser.errors.append(f"uncaught: {error}"))
    page.set_viewport_size({"width": 1280, "height": 800})
    page.goto(browser.url + "model?model=" + quote(starter_models()["sally-anne"]))
    expect(page.get_by_test_id("puzzle-worlds")).to_have_text("2", timeout=60_000)
    graph = page.get_by_test_id("worlds-graph")
    expect(graph.locator("polygon[data-head-of='sally']")).to_have_count(2)  # arrow and loop
    expect(graph.locator("circle[data-loop='1']")).to_have_count(1)
    expect(graph.locator("[data-head-of='anne']")).to_have_count(0)
    expect(page.locator(".ttr-kind").get_by_role("button", name="classes")).to_be_disabled()
    box = page.get_by_label("Formula, evaluated at the actual world (press Enter)")
    box.fill("K_sally basket & ~basket")
    box.press("Enter")
    expect(page.get_by_test_id("formula-result")).to_contain_text("true at the actual world")
    page.get_by_role("button", name="Event ▸").click()
    page.locator(".ttr-event .v-select").first.click(force=True)
    page.get_by_role("option", name="learns φ in private").click()
    expect(page.get_by_test_id("event-graph").locator("text.node")).to_have_count(2)
    page.evaluate("window.scrollTo(0, 0)")
    # the sign that the picture row has measured its room: the caption on the first screen
    page.wait_for_function("""() => {
        const c = document.querySelector('[data-testid=worlds-caption]');
        return c !== null && c.getBoundingClientRect().bottom <= window.innerHeight; }""",
                           timeout=15_000)
    where = {}
    for testid in ("formula-result", "worlds-graph", "worlds-caption", "event-graph"):
        found = page.get_by_test_id(testid).bounding_box()
        assert found is not None, testid
        where[testid] = found
    for testid in ("formula-result", "worlds-graph", "worlds-caption"):
        assert where[testid]["y"] + where[testid]["height"] <= 800, (testid, where[testid])
    # the event model beside the model on the first screen, or under the caption (issue 43:
    # the picture and its caption keep the first screen; the event goes where there is room)
    event, picture, caption = where["event-graph"], where["worlds-graph"], where["worlds-caption"]
    beside = event["x"] >= picture["x"] + picture["width"] - 1 and \
        event["y"] + event["height"] <= 800
    under = event["y"] >= caption["y"] + caption["height"] - 1
    assert beside or under, (event, picture, caption)


CARDS = "\n".join(["agents: a b c"] + [f"world {w}: a{w[0]} b{w[1]} c{w[2]}" for w in
                                       ("012", "021", "102", "120", "201", "210")]
                  + [f"{x} observes: {x}0 {x}1 {x}2" for x in "abc"] + ["actual: 012"])


def test_why_s_verdict_and_the_graph_stay_on_the_first_screen(browser):
    """Issue 38, item 9: with Why? on a C formula and the hand-written event box open, the
    verdict (the last step) was cut off mid-line in the steps' scroll box, and the graph began
    below 800 px."""
    page = model_tab(browser)
    page.locator(".ttr-model-text textarea").fill(CARDS)
    expect(page.get_by_test_id("puzzle-worlds")).to_have_text("6")
    page.locator(".ttr-kind").get_by_role("button", name="graph").click()
    formula = page.get_by_label(re.compile("^Formula"))
    formula.fill("C (K_b a0 | K_b a1 | K_b a2)")
    formula.press("Enter")
    page.get_by_role("button", name="Why?").click()
    verdict = page.locator(".why-verdict li")
    expect(verdict).to_contain_text("C (K_b a0 ∨ K_b a1 ∨ K_b a2) is false", timeout=60_000)
    page.get_by_role("button", name="Event ▸").click()
    page.locator(".ttr-event .v-select", has=page.locator("label", has_text="event")) \
        .locator(".v-select__slot").click()
    page.locator(".menuable__content__active .v-list-item", has_text="written by hand") \
        .first.click()
    expect(page.locator(".ttr-event textarea")).to_be_visible()
    page.evaluate("window.scrollTo(0, 0)")
    # the verdict whole: in no scroll box, every line of it shown
    assert verdict.evaluate("e => e.closest('.why-steps') === null")
    assert verdict.evaluate("e => e.scrollHeight <= e.clientHeight + 1")
    box = verdict.bounding_box()
    graph = page.get_by_test_id("worlds-graph").locator("svg").bounding_box()
    assert box is not None and graph is not None
    assert box["y"] + box["height"] <= graph["y"]
    assert graph["y"] <= 800 - 160, graph  # the graph begins on the first screen, in view


def test_a_public_factual_change_is_drawn_with_the_new_atoms(browser):
    """Issue 43, item 1: Sally's marble put in the basket by an event everyone sees, which
    changes the facts and splits no world. The status line said ``w0 (basket)`` while the
    picture still wrote ``here`` under w0; the picture must say what the model says."""
    from urllib.parse import quote

    model = ("agents: sally anne\nworld w0: here\nworld w1: basket\nsally: w0 -> w0\n"
             "sally: w1 -> w1\nanne: w0 -> w0\nanne: w1 -> w1\nactual: w0\n")
    page = browser.context.new_page()
    page.on("pageerror", lambda error: browser.errors.append(f"uncaught: {error}"))
    page.set_viewport_size({"width": 1280, "height": 800})
    page.goto(browser.url + "model?model=" + quote(model))
    expect(page.get_by_test_id("puzzle-worlds")).to_have_text("2", timeout=60_000)
    graph = page.get_by_test_id("worlds-graph")
    expect(graph.locator("text.atoms")).to_have_count(2)
    assert sorted(graph.locator("text.atoms").all_text_contents()) == ["basket", "here"]
    page.get_by_role("button", name="Event ▸").click()
    page.locator(".ttr-event .v-select").first.click(force=True)
    page.get_by_role("option", name="written by hand").click()
    area = page.locator(".ttr-event textarea")
    area.fill("event put: pre true\npost put: here := false, basket := true\nactual: put")
    apply = page.get_by_role("button", name="Apply")
    expect(apply).to_be_enabled()
    apply.click()
    expect(page.get_by_test_id("puzzle-status")).to_contain_text("moment 1 of 1")
    expect(page.get_by_test_id("puzzle-status")).to_contain_text("actual world: w0 (basket)")
    expect(graph.locator("text.atoms")).to_have_text(["basket", "basket"])
    expect(graph.locator("text.node")).to_have_text(["w0", "w1"])
