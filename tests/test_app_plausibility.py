"""The belief-revision stories and the upgrades on the puzzle page, without a browser: the
gallery lists the stories, steps through them with belief checked in the formula box, and the
Event menu applies a radical upgrade to a puzzle's model."""

from __future__ import annotations

import re

import ipyvuetify as v
import pytest
from test_app_teaching import choose_puzzle, press, puzzle_counts, render_puzzles, type_formula
from test_app_widgets import (
    attributes,
    close_pages,  # noqa: F401 (autouse: pages closed after each test)
    html,
    text,
)

from app.web.components.events import KINDS, prepare
from app.worlds.graph import GraphLayout
from kripke import load_model
from kripke.files.modelfile import starter_models


@pytest.mark.parametrize(("key", "formula", "values", "counts"), [
    ("red-bird", "B_you red", ["false", "false", "true", "true"], [4, 4, 4, 4]),
    ("whisper", "B_bob ~K_alice heads", ["true", "true", "false"], [2, 2, 1]),
    ("bluff", "B_bob south", ["false", "false", "true", "false"], [3, 3, 3, 1]),
])
def test_each_story_steps_with_its_beliefs_in_the_formula_box(key, formula, values, counts):
    rc = render_puzzles()
    choose_puzzle(rc, key)
    type_formula(rc, formula)
    seen, worlds = [text(rc, "formula-result")], [puzzle_counts(rc)]
    for _ in values[1:]:
        press(rc, "Step ▶")
        seen.append(text(rc, "formula-result"))
        worlds.append(puzzle_counts(rc))
    assert [s.split()[0] for s in seen] == values  # "true at the actual world; ..."
    assert worlds == counts
    assert text(rc, "puzzle-ending")
    assert attributes(rc, "worlds-graph")["data-drawn-worlds"] != "0"


def test_the_event_menu_applies_a_radical_upgrade_to_a_puzzle():
    rc = render_puzzles()
    choose_puzzle(rc, "letter")  # p true; Alice and Bob cannot tell p from ~p at the start
    type_formula(rc, "p")
    press(rc, "Event ▸")
    rc.find(v.Select, label="event").widget.v_model = KINDS["radical"]
    type_formula(rc, "~p")  # soft information need not be true
    assert text(rc, "event-label") == "radical:~p"
    press(rc, "Apply")
    assert "Event radical:~p: 2 → 2 worlds. Alice: ⇑¬p; Bob: ⇑¬p." in \
        text(rc, "announce-result")
    type_formula(rc, "B_alice ~p & p & ~K_alice ~p")
    assert text(rc, "formula-result").startswith("true at the actual world")


def test_the_event_menu_says_why_an_upgrade_cannot_apply():
    arrows = load_model(starter_models()["sally-anne"])
    refused = prepare(arrows, "radical", [], "basket")
    assert refused.events is None and "this model has arrows" in refused.error
    plain = load_model(starter_models()["alice-bob"])
    assert prepare(plain, "conservative", [], "zz").error.startswith("unknown atom zz")
    assert prepare(plain, "shift", [], "q").label == "shift:q"


def test_the_picture_marks_what_bob_believes_apart_from_what_he_knows():
    """The bluff after two claims: Bob's levels are north 1, south 0, west 1, and the one
    world he believes in is south; the caption says belief and knowledge apart."""
    rc = render_puzzles()
    choose_puzzle(rc, "bluff")
    press(rc, "Step ▶")
    press(rc, "Step ▶")
    drawn = html(rc, "worlds-graph")
    # each world's name with Bob's level after it, and a star on the one he believes in
    names = re.findall(r'<text class="node"[^>]*>([^<]+)</text>', drawn)
    assert sorted(names) == ["north (1)", "south (0) ★", "west (1)"]
    assert "★ marks the worlds Bob believes in at the actual world" in drawn
    assert "Bob knows only what holds in the whole class (K)" in drawn
    press(rc, "Step ▶")  # the completion: one world, no order left to draw
    assert "★" not in html(rc, "worlds-graph")


def test_a_model_written_with_an_order_is_drawn_in_rows_of_its_levels():
    """red-bird.kripke: red < plain < bird_red < bird_plain, one class: four rows, the most
    plausible on top, the level written in each world and a star on the believed one."""
    model = load_model(starter_models()["red-bird"])
    layout = GraphLayout(model, "you", label=lambda m, i: m.world_name(i))
    heights = {model.world_name(i): layout.pos[int(w)][1]
               for i, w in enumerate(model.world_ids.tolist())}
    assert sorted(heights, key=heights.get) == ["red", "plain", "bird_red", "bird_plain"]
    picture = layout.picture(model)
    assert sorted(t.text for t in picture.texts if t.role == "node") == [
        "bird_plain (3)", "bird_red (2)", "plain (1)", "red (0) ★"]
    assert "the rows are the levels it started with, 0 on top" in picture.caption
