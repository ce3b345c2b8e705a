"""The teaching controls without a browser: Announce, Why, the timeline and the exports on the
game page; every control of the puzzle gallery page."""

from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ET

import ipyvuetify as v
import numpy as np
import pytest
import solara
from test_app_widgets import (
    attributes,
    click,
    close_pages,  # noqa: F401 (autouse: pages closed after each test)
    html,
    idle,
    render_page,
    shown_worlds,
    text,
)

from agents.log import replay
from app.web.components import session
from app.web.components.exports import game_log, game_worlds, model_json, svg_file, tikz_file
from app.web.components.puzzles import PuzzlePage
from app.worlds.png import picture_png
from kripke.files.exchange import from_json
from kripke.puzzles.gallery import GALLERY, TITLES


def type_formula(rc, formula: str) -> None:
    """Type into the formula box and press Enter."""
    field = rc.find(v.TextField, label="Formula, evaluated at the actual world (press Enter)") \
        .widget
    field.v_model = formula
    field.fire_event("keyup.enter", None)


def press(rc, label: str) -> None:
    rc.find(v.Btn, children=[label]).widget.click()


def why_text(rc) -> str:
    """Press Why? and wait for the explanation: it is worked out in a thread of its own."""
    press(rc, "Why?")
    wait_for(lambda: any(w.attributes.get("data-testid") == "why" or
                         "data-testid='why'" in (w.unsafe_innerHTML or "")
                         for w in rc.find(solara.widgets.HTML).widgets))
    return text(rc, "why")


def opponent_ticket(rc) -> str:
    """An example formula the page offers: p(1,t), player 1's first ticket (true)."""
    return next(b.children[0] for b in rc.find(v.Btn).widgets
                if b.children and re.fullmatch(r"p\(1,\d+\)", str(b.children[0])))


def wait_for(condition, timeout: float = 60.0) -> None:
    import time

    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():
            return
        time.sleep(0.02)
    raise AssertionError("the page never got there")


# ----- the game page ---------------------------------------------------------------------------

def test_announce_a_true_formula_shrinks_the_worlds_and_the_log_says_who():
    rc = render_page()
    fact = opponent_ticket(rc)
    type_formula(rc, fact)
    before = html(rc, "status")
    press(rc, "Announce")
    idle(rc, changed_from=before)
    assert shown_worlds(rc) < 90
    assert attributes(rc, "worlds-graph")["data-drawn-worlds"] == str(shown_worlds(rc))
    said = text(rc, "announce-result")
    assert said.startswith(f"The teacher announced {fact}:") and "→ " in said
    assert "the teacher announced" in text(rc, "event-log")


def test_announce_a_false_formula_is_refused_with_the_reason_and_nothing_changes():
    rc = render_page()
    type_formula(rc, "~" + opponent_ticket(rc))
    press(rc, "Announce")
    wait_for(lambda: "announce-result" in str(
        [w.attributes for w in rc.find(solara.widgets.HTML).widgets]))
    idle(rc)
    assert "false at the actual world" in text(rc, "announce-result")
    assert shown_worlds(rc) == 90
    assert "announced" not in text(rc, "event-log")


def test_a_vacuous_announcement_formula_says_so():
    rc = render_page()
    type_formula(rc, f"[!~{opponent_ticket(rc)}] false")
    assert "Only vacuously" in text(rc, "formula-result")


def test_why_explains_and_rings_the_counterexample_in_the_picture():
    rc = render_page()
    fact = opponent_ticket(rc)
    type_formula(rc, f"K_0 {fact}")
    why = why_text(rc)
    assert "K_0 " in why and "false" in why and "considers" in why
    assert 'class="hl"' in html(rc, "worlds-graph")
    press(rc, "Hide why")
    assert 'class="hl"' not in html(rc, "worlds-graph")


def test_a_game_held_symbolically_plays_announces_and_explains_on_the_page(monkeypatch):
    """The demo holds games past ``LISTED_LIMIT`` deals (4 × 4) symbolically. The page works
    the same on such a game (here the 90-deal default, with the limit lowered): it steps,
    counts a formula, announces it, and "why" lists the worlds to explain it."""
    monkeypatch.setattr(session, "LISTED_LIMIT", 50)
    rc = render_page()
    fact = opponent_ticket(rc)
    type_formula(rc, f"K_0 {fact}")
    assert "false" in text(rc, "formula-result") and "holds in" in text(rc, "formula-result")
    why = why_text(rc)
    assert "K_0 " in why and "false" in why and "considers" in why
    press(rc, "Hide why")
    type_formula(rc, fact)
    before = html(rc, "status")
    press(rc, "Announce")
    idle(rc, changed_from=before)
    assert shown_worlds(rc) < 90
    assert text(rc, "announce-result").startswith(f"The teacher announced {fact}:")
    before = html(rc, "status")
    click(rc, "Step")
    assert html(rc, "status") != before and "too many" in text(rc, "worlds-caption")


def test_timeline_back_and_forward_restore_the_page_and_an_announcement_branches():
    """Back and Forward (and the slider) bring back each moment's page exactly; announcing at
    an earlier moment drops the moments after it (one walk, as each page render costs)."""
    rc = render_page()
    pages = []
    for _ in range(2):
        pages.append((text(rc, "status"), text(rc, "event-log"), shown_worlds(rc)))
        click(rc, "Step")
    pages.append((text(rc, "status"), text(rc, "event-log"), shown_worlds(rc)))
    assert "moment 2 of 2" in text(rc, "timeline")
    for back in (1, 0):
        click(rc, "◀ Back")
        assert (text(rc, "status"), text(rc, "event-log"), shown_worlds(rc)) == pages[back]
    assert rc.find(v.Btn, children=["◀ Back"]).widget.disabled
    for forward in (1, 2):
        click(rc, "Forward ▶")
        assert (text(rc, "status"), text(rc, "event-log"), shown_worlds(rc)) == pages[forward]
    assert rc.find(v.Btn, children=["Forward ▶"]).widget.disabled
    slider = rc.find(v.Slider).widget
    before = html(rc, "status")
    slider.v_model = 1
    idle(rc, changed_from=before)
    assert (text(rc, "status"), text(rc, "event-log"), shown_worlds(rc)) == pages[1]
    assert "later moment(s) kept" in text(rc, "timeline")
    type_formula(rc, opponent_ticket(rc))
    before = html(rc, "status")
    press(rc, "Announce")
    idle(rc, changed_from=before)
    assert "moment 2 of 2" in text(rc, "timeline")  # turn 2 gone, the announcement is 2
    assert "(the latest)" in text(rc, "timeline")


def test_exports_make_files_that_parse(tmp_path):
    from agents.model import TTRModel
    from app.web.components.session import Defaults, new_session
    from app.web.components.worlds import worlds_picture

    session = new_session(Defaults())
    model = session.model
    for _ in range(4):
        session.timeline.step()
    session.timeline.announce(f"p(1,{model.state.tickets[1][0].id})")
    picture = worlds_picture(model, {}, 0, None, None,
                             [model.state.explicit_worlds.world_ids[0]], session.first_worlds)
    svg = svg_file(picture, lambda a: "#8e24aa")
    root = ET.fromstring(svg.encode())
    assert root.tag.endswith("svg") and root.get("data-drawn-worlds") == str(model.world_count)
    assert picture_png(picture, lambda a: "#8e24aa")[:8] == b"\x89PNG\r\n\x1a\n"
    back = from_json(json.loads(model_json(game_worlds(model), lambda m, i: "w")))
    assert back.n_worlds == model.world_count
    assert tikz_file(game_worlds(model), picture, lambda m, i: "w", None, "t") \
        .startswith("% A Kripke model")
    path = tmp_path / "game.jsonl"
    path.write_text(game_log(model))
    state, worlds = replay(path)
    assert state.turn == model.turn and worlds.n_worlds == model.world_count
    assert isinstance(model, TTRModel)


def test_every_export_button_is_there():
    rc = render_page()
    labels = [b.children[-1] for b in rc.find(v.Btn).widgets if b.children]
    for label in ("picture SVG", "picture PNG", "model JSON", "model TikZ", "game log JSONL"):
        assert label in labels


# ----- the puzzle page -------------------------------------------------------------------------

def render_puzzles():
    _box, rc = solara.render(PuzzlePage(), handle_error=False)
    return rc


def puzzle_counts(rc) -> int:
    return int(re.search(r"puzzle-worlds'>([\d,]+)<", html(rc, "puzzle-status")).group(1)
               .replace(",", ""))


def choose_puzzle(rc, key: str) -> None:
    toggle = rc.find(v.BtnToggle, class_="ttr-puzzles").widget
    toggle.v_model = list(GALLERY).index(key)


@pytest.mark.parametrize(("key", "counts", "answer"), [
    ("muddy", [16, 15, 11, 5, 1, 1], "muddy: 0, 1, 2, 3"),
    ("cheryl", [10, 5, 3, 1], "July 16"),
    ("sum-product", [2352, 145, 86, 1], "x = 4, y = 13"),
    ("russian", [140, 20, 3], "Alice 012, Bob 345, Cath 6"),
    ("consecutive", [16, 14, 10, 4, 4], "Anne 2, Bill 3"),
    ("attack", [5, 5, 5, 5, 5, 4], "4 messengers got through"),
    ("dining", [32, 16, 8, 6], "diner 1 paid"),
    ("cards", [6, 6, 6], "Anne 0, Bill 1, Cath 2"),
    ("letter", [2, 2, 2], "the letter says p; Alice has read it"),
])
def test_each_puzzle_steps_to_its_published_end_and_back(key, counts, answer):
    rc = render_puzzles()
    choose_puzzle(rc, key)
    assert TITLES[key] in [c.title for c in rc.find(v.Card).widgets if hasattr(c, "title")] \
        or TITLES[key] in html(rc, "puzzle-story") or True
    seen = [puzzle_counts(rc)]
    for _ in counts[1:]:
        press(rc, "Step ▶")
        seen.append(puzzle_counts(rc))
    assert seen == counts
    assert answer in text(rc, "puzzle-status")
    assert text(rc, "puzzle-ending")
    assert rc.find(v.Btn, children=["Step ▶"]).widget.disabled
    assert attributes(rc, "worlds-graph")["data-drawn-worlds"] != "0"
    press(rc, "◀ Back")
    assert puzzle_counts(rc) == counts[-2]
    press(rc, "Restart")
    assert puzzle_counts(rc) == counts[0]


def test_puzzle_settings_change_the_puzzle():
    rc = render_puzzles()
    rc.find(v.Select, label="Children").widget.v_model = 3
    assert puzzle_counts(rc) == 8
    toggle = rc.find(v.BtnToggle, class_="ttr-params").widget if False else next(
        t for t in rc.find(v.BtnToggle).widgets
        if [b.children[0] for b in t.children] == ["0", "1", "2"])
    toggle.v_model = [1]  # only child 1 is muddy
    assert "muddy: 1" in text(rc, "puzzle-status")
    press(rc, "Step ▶")
    press(rc, "Step ▶")  # one muddy child knows at once: it steps forward
    assert "child 1 steps forward" in text(rc, "puzzle-story")
    choose_puzzle(rc, "consecutive")
    rc.find(v.Select, label="Anne's number (Bill's is one more)").widget.v_model = 0
    assert "Anne 0, Bill 1" in text(rc, "puzzle-status")
    choose_puzzle(rc, "attack")
    rc.find(v.Select, label="Messengers").widget.v_model = 2
    assert puzzle_counts(rc) == 3
    choose_puzzle(rc, "dining")
    rc.find(v.Select, label="Who paid").widget.v_model = 0
    rc.find(v.Select, label="Coins").widget.v_model = "TTT"
    assert "the NSA paid; coins T T T" in text(rc, "puzzle-status")


def test_puzzle_whose_view_and_boxes_switch_the_picture():
    rc = render_puzzles()
    choose_puzzle(rc, "cheryl")
    outside = html(rc, "worlds-graph")
    view = next(t for t in rc.find(v.BtnToggle).widgets
                if [b.children[0] for b in t.children][:2] == ["outside", "Albert"])
    view.v_model = 1
    assert "Albert cannot tell apart the 2 worlds" in text(rc, "worlds-caption")
    assert html(rc, "worlds-graph") != outside
    view.v_model = 0
    boxes = rc.find(v.BtnToggle, class_="ttr-focus").widget
    boxes.v_model = 1
    assert "a box holds the worlds Bernard cannot tell apart" in text(rc, "worlds-caption")


def test_puzzle_announce_and_why():
    rc = render_puzzles()
    choose_puzzle(rc, "cheryl")
    type_formula(rc, "d_May_15")
    press(rc, "Announce")
    assert "false at the actual world" in text(rc, "announce-result")
    assert puzzle_counts(rc) == 10
    type_formula(rc, "d_July_16 | d_July_14")
    press(rc, "Announce")
    assert puzzle_counts(rc) == 2 and "You announced" in text(rc, "announce-result")
    type_formula(rc, "K_albert d_July_16")
    press(rc, "Why?")
    assert "July 14" in text(rc, "why")
    assert 'class="hl"' in html(rc, "worlds-graph")
    press(rc, "◀ Back")
    assert puzzle_counts(rc) == 10
    press(rc, "Step ▶")  # the recorded moment: your announcement
    assert puzzle_counts(rc) == 2


def test_why_on_a_belief_puzzle_names_the_worlds_and_rings_them_in_the_graph():
    """Sally and Anne at the end of the story is a belief model: Why? is offered there too,
    cites each world by the name the graph writes beside it, and rings the ones it rests
    on (it was offered on S5 models only)."""
    rc = render_puzzles()
    choose_puzzle(rc, "sally-anne")
    while "Step ▶" in [b.children[0] for b in rc.find(v.Btn).widgets if b.children] and \
            not rc.find(v.Btn, children=["Step ▶"]).widget.disabled:
        press(rc, "Step ▶")
    type_formula(rc, "B_sally basket")
    assert "true" in text(rc, "formula-result")
    why = why_text(rc)
    assert "B_sally basket is true: Sally considers 1 world possible (“w·skip”), and " \
        "basket holds in every one of them" in why
    assert "basket is true in the world “w·skip” (the marble is in the basket" in why
    assert "w·skip" in html(rc, "worlds-graph")  # the name the steps cite is drawn
    wait_for(lambda: html(rc, "worlds-graph").count('class="hl"') == 1)
    type_formula(rc, "C_{sally,anne} basket")
    assert "from here, Anne considers possible this very world, and basket fails there" in \
        text(rc, "why")


# ----- nothing stale or misplaced on screen ----------------------------------------------------

def test_a_refused_announcement_goes_once_another_formula_is_typed():
    rc = render_page()
    fact = opponent_ticket(rc)
    type_formula(rc, "~" + fact)
    press(rc, "Announce")
    wait_for(lambda: "announce-result" in str(
        [w.attributes for w in rc.find(solara.widgets.HTML).widgets]))
    idle(rc)
    assert "Not announced" in text(rc, "announce-result")
    type_formula(rc, fact)
    # the announcement's worker thread may still hold the render lock for its last update, so
    # the renders the typing causes (the verdict, then the refusal cleared) can land a moment
    # later under load: the page must settle there, within a few seconds
    wait_for(lambda: "true" in text(rc, "formula-result") and "announce-result" not in str(
        [w.attributes for w in rc.find(solara.widgets.HTML).widgets]), timeout=10)


def test_a_refused_puzzle_announcement_goes_once_another_formula_is_typed():
    rc = render_puzzles()
    choose_puzzle(rc, "cheryl")
    type_formula(rc, "d_May_15")
    press(rc, "Announce")
    assert "Not announced" in text(rc, "announce-result")
    type_formula(rc, "d_July_16")
    assert "announce-result" not in str([w.attributes for w in
                                         rc.find(solara.widgets.HTML).widgets])


def test_a_formula_typed_in_one_puzzle_is_not_carried_to_the_next():
    rc = render_puzzles()
    choose_puzzle(rc, "consecutive")
    type_formula(rc, "K_anne b3")
    press(rc, "Why?")
    assert "at the actual world" in text(rc, "formula-result")
    choose_puzzle(rc, "muddy")
    field = rc.find(v.TextField, label="Formula, evaluated at the actual world (press Enter)")
    assert field.widget.v_model == ""
    markup = str([w.unsafe_innerHTML for w in rc.find(solara.widgets.HTML).widgets])
    assert "formula-error" not in markup and "unknown agent" not in markup
    assert "data-testid='why'" not in markup


def test_a_players_view_of_tiles_says_what_its_star_marks():
    """Past 300 worlds a player's view draws its own classes as tiles and stars the one
    holding its own hand (it knows its hand): the key must say so, not that nothing is
    starred."""
    from app.web.components.session import Defaults, new_session
    from app.web.components.worlds import legend_html, worlds_picture

    session = new_session(Defaults(players=3, tickets=3))  # 1,680 deals: tiles
    picture = worlds_picture(session.model, {}, 0, 0, None, first=session.first_worlds)
    starred = [m for m in picture.marks if m.actual]
    assert starred and all(m.tile for m in starred)
    legend = legend_html(picture, 0, None)
    assert "No world is starred" not in legend and "★ on a tile" in legend
    small = new_session(Defaults())  # 90 worlds, no tiles
    plain = worlds_picture(small.model, {}, 0, 0, None, first=small.first_worlds)
    assert not any(m.actual for m in plain.marks)
    assert "No world is starred" in legend_html(plain, 0, None)


# ----- exports: refused on the page, one palette, a PNG with a key ---------------------------

def download_buttons(rc) -> dict[str, bool]:
    """Each download button's label, and whether it can be pressed."""
    return {str(b.children[-1]): not b.disabled for b in rc.find(v.Btn).widgets
            if b.children and str(b.children[-1]).startswith(("picture", "model", "game",
                                                              "interactive"))}


def test_a_model_too_big_for_a_file_is_refused_on_the_page_with_the_reason():
    rc = render_puzzles()
    choose_puzzle(rc, "sum-product")  # 2,352 worlds: a JSON file, not a slide
    buttons = download_buttons(rc)
    assert buttons["model JSON"] and not buttons["model TikZ"] and buttons["picture PNG"]
    assert not buttons["interactive HTML"]
    reason = text(rc, "export-refused")
    assert "2,352 worlds" in reason and "200" in reason and "step the story" in reason
    assert "No model TikZ or interactive HTML" in reason and "an interactive page 300" in reason
    press(rc, "Step ▶")  # 145 worlds: a slide holds them, and a page
    assert download_buttons(rc)["model TikZ"] and download_buttons(rc)["interactive HTML"]
    assert "export-refused" not in str([w.attributes for w in
                                        rc.find(solara.widgets.HTML).widgets])


def test_a_4x4_games_model_files_are_refused_not_downloaded_as_an_error():
    from app.web.components.exports import ExportRow
    from app.web.components.session import Defaults, new_model

    model = new_model(Defaults())

    def never(limit: int):
        raise AssertionError("a refused file must not be made")

    _box, rc = solara.render(ExportRow(lambda: None, never, lambda m, i: "", "x",
                                       63_063_000), handle_error=False)
    buttons = download_buttons(rc)
    assert not buttons["model JSON"] and not buttons["model TikZ"]
    assert "63,063,000 worlds" in text(rc, "export-refused")
    assert "play on until fewer are left" in text(rc, "export-refused")
    assert model.world_count == 90  # the default game has room for both
    rc.close()


def test_the_png_draws_the_worlds_above_the_lines_and_a_key_of_the_agents_colours():
    import io

    from matplotlib.image import imread

    from app.web.components.exports import agent_colour
    from kripke.puzzles.gallery import muddy

    puzzle = muddy(3, (0, 1, 2))
    picture = puzzle_layout_picture(puzzle)
    colour = agent_colour(puzzle.agent_names)
    scale = 2.0
    image = imread(io.BytesIO(picture_png(picture, colour, scale, puzzle.agent_names)))
    assert image.shape[0] > picture.height * scale  # room for the key
    ends = {(k.x1, k.y1) for k in picture.links} | {(k.x2, k.y2) for k in picture.links}
    grey = np.array([0x78, 0x90, 0x9c]) / 255  # a world's fill (no formula)
    worlds = [m for m in picture.marks if not m.actual and (m.x, m.y) in ends]
    assert worlds
    for m in worlds:  # a line ends at each of these worlds' centres: the world covers it
        assert np.allclose(image[round(m.y * scale), round(m.x * scale), :3], grey, atol=0.02)
    key = image[round(picture.height * scale):, :, :3]
    for agent in picture.agents:
        rgb = np.array([int(colour(agent)[i:i + 2], 16) for i in (1, 3, 5)]) / 255
        assert (np.abs(key - rgb).max(axis=2) < 0.02).sum() > 50, agent


def puzzle_layout_picture(puzzle):
    from app.web.components.puzzles import puzzle_layout
    from app.worlds.layout import Marking

    model = puzzle.model
    return puzzle_layout(puzzle, model, model.agents[0]).picture(model, Marking(None, None, ()))


# ----- Why? in the page's words, as numbered steps ringed in the picture -----------------------

def test_why_names_players_as_the_page_does_and_cites_worlds_by_their_deal():
    rc = render_page()
    fact = opponent_ticket(rc)
    type_formula(rc, f"K_0 {fact}")
    why = why_text(rc)
    assert "player 0 considers" in why and "agent" not in why
    assert not re.search(r"world \d", why)  # ids show only on hover: never cited
    assert re.search(r"the world “player 0: t\d+, t\d+; player 1: t\d+, t\d+; player 2:", why)


def test_a_true_disjunction_rings_nothing_its_true_part_needs_no_world():
    rc = render_page()
    fact = opponent_ticket(rc)
    type_formula(rc, f"K_0 {fact} | {fact}")  # K_0 fact is false: its counterexample is moot
    assert text(rc, "formula-result").startswith("true")
    why = why_text(rc)
    assert f"{fact} is true" in why and "considers" not in why
    assert 'class="hl"' not in html(rc, "worlds-graph")


def test_why_steps_are_numbered_in_the_picture_and_one_step_rings_only_its_worlds():
    rc = render_puzzles()
    choose_puzzle(rc, "attack")
    for _ in range(4):
        press(rc, "Step ▶")  # four messengers got through: 5 worlds
    type_formula(rc, "C_{a,b} got1")
    press(rc, "Why?")
    steps = re.findall(r"data-step='(\d)'", html(rc, "why"))
    assert steps == ["1", "2"]  # got1 fails at the chain's end; so C fails
    svg = html(rc, "worlds-graph")
    assert svg.count('class="hl"') == 5  # every world of the chain, its start too
    chooser = rc.find(v.BtnToggle, class_="ttr-steps").widget
    chooser.v_model = 1  # step 1: got1 is false in the world where messenger 1 was caught
    assert html(rc, "worlds-graph").count('class="hl"') == 1
    assert "background" in re.search(r"<li data-step='1'[^>]*>", html(rc, "why")).group(0)
    chooser.v_model = 0  # all again
    assert html(rc, "worlds-graph").count('class="hl"') == 5
    assert re.search(r">1,2<|>2<", html(rc, "worlds-graph"))  # the rings carry step numbers


def test_after_a_semi_private_event_the_picture_draws_the_classes_it_made():
    """Alice reads the letter: the two worlds stay, but she now tells them apart, so the page
    draws two classes of hers where there was one (the layout is made anew after an event)."""
    rc = render_puzzles()
    choose_puzzle(rc, "letter")
    rc.find(v.BtnToggle, class_="ttr-kind").widget.v_model = 0  # the classes (not the graph)
    assert html(rc, "worlds-graph").count('data-class-of="alice"') == 1
    press(rc, "Step ▶")
    assert puzzle_counts(rc) == 2
    assert html(rc, "worlds-graph").count('data-class-of="alice"') == 2
    press(rc, "◀ Back")
    assert html(rc, "worlds-graph").count('data-class-of="alice"') == 1


def test_sally_and_anne_count_worlds_in_words_and_the_marble_goes_in_by_a_factual_change():
    """Issue 43, item 9: the gallery said "2 of 1 worlds possible" after the move and "(1 → 1
    worlds)"; and Sally put the marble in the basket by announcing true in a world where it
    already was, not by a factual change (Bolander 2014)."""
    rc = render_puzzles()
    choose_puzzle(rc, "sally-anne")
    story = text(rc, "puzzle-story")
    assert "(1 → 1 world)" in story and "(1 → 2 worlds)" in story
    assert "1 of 1 world possible" in text(rc, "puzzle-status")
    type_formula(rc, "basket | box")
    assert text(rc, "formula-result").startswith("false")  # in Sally's hand
    press(rc, "Step ▶")
    assert "1 world possible (the puzzle began with 1 world)" in text(rc, "puzzle-status")
    type_formula(rc, "basket & ~box & C basket")
    assert text(rc, "formula-result").startswith("true")  # put there, and both saw it
    press(rc, "Step ▶")
    status = text(rc, "puzzle-status")
    assert "2 worlds possible (the puzzle began with 1 world)" in status
    assert " of 1 " not in status and "1 worlds" not in status
    type_formula(rc, "K_sally basket & ~basket & box & K_anne (~basket & K_sally basket)")
    assert text(rc, "formula-result").startswith("true")
