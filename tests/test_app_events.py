"""The Event control on the puzzle page, without a browser: a ready-made event or one written
by hand, checked as it is typed, applied as a moment that Back undoes, and the log saying what
each agent observed."""

from __future__ import annotations

import re

import ipyvuetify as v
import pytest
import solara
from test_app_teaching import choose_puzzle, press, puzzle_counts, render_puzzles, type_formula
from test_app_widgets import (
    close_pages,  # noqa: F401 (autouse: pages closed after each test)
    html,
    text,
)

from app.web.components.events import prepare
from kripke import load_model
from kripke.files.modelfile import starter_models


def choose(rc, label: str, value) -> None:
    rc.find(v.Select, label=label).widget.v_model = value


def event_text(rc, value: str) -> None:
    rc.find(v.Textarea).widget.v_model = value


def cheryl_event(formula: str, kind: str):
    """Cheryl's birthday with ``formula`` typed and the Event row open on ``kind``."""
    rc = render_puzzles()
    choose_puzzle(rc, "cheryl")
    type_formula(rc, formula)
    press(rc, "Event ▸")
    choose(rc, "event", kind)
    return rc


def shown(rc, testid: str) -> bool:
    """Whether the page shows an element marked ``data-testid=testid``."""
    return any(w.attributes.get("data-testid") == testid
               for w in rc.find(solara.widgets.HTML).widgets)


def apply_button(rc) -> v.Btn:
    return rc.find(v.Btn, children=["Apply"]).widget


def test_someone_learns_whether_the_typed_formula_and_back_undoes_it():
    rc = render_puzzles()
    choose_puzzle(rc, "cheryl")
    type_formula(rc, "K_albert d_July_16")
    assert "false" in text(rc, "formula-result")
    press(rc, "Event ▸")
    type_formula(rc, "d_July_16")
    assert text(rc, "event-label") == "learns:albert:d_July_16"  # the command line's form
    press(rc, "Apply")
    assert text(rc, "announce-result") == ("Event learns:albert:d_July_16: 10 → 10 worlds. "
                                           "Albert: saw yes; Bernard: could not tell yes from "
                                           "no.")
    assert "moment 1 of 1: event learns:albert:d_July_16 (Albert: saw yes" in \
        text(rc, "puzzle-status")
    type_formula(rc, "K_albert d_July_16 & ~K_bernard d_July_16")
    assert "true" in text(rc, "formula-result")
    press(rc, "◀ Back")
    assert "false" in text(rc, "formula-result") and "moment 0 of 1" in text(rc, "puzzle-status")
    press(rc, "Step ▶")  # the recorded moment: your event
    assert "true" in text(rc, "formula-result")


def test_two_learn_together_and_an_announcement_tells_everyone():
    rc = cheryl_event("d_July_16", "learn together whether φ")
    assert "choose who learns" in text(rc, "event-error") and apply_button(rc).disabled
    choose(rc, "who learn", ["Albert", "Bernard"])
    press(rc, "Apply")
    assert "Albert: saw yes; Bernard: saw yes." in text(rc, "announce-result")
    type_formula(rc, "C_{albert,bernard} d_July_16")
    assert "true" in text(rc, "formula-result")
    choose(rc, "event", "announce φ")
    type_formula(rc, "d_July_16 | d_July_14")
    press(rc, "Apply")
    assert "10 → 2 worlds. Albert: saw announce; Bernard: saw announce." in \
        text(rc, "announce-result")
    assert puzzle_counts(rc) == 2


def test_an_event_written_by_hand_is_checked_as_typed_and_splits_worlds():
    rc = cheryl_event("d_July_16", "written by hand")
    area = rc.find(v.Textarea).widget
    assert "event yes: pre d_July_16" in area.v_model  # a start: the ready-made one as text
    event_text(rc, "event yes: pre d_July_16\nalbert: {yes\nactual: yes")
    assert text(rc, "event-error").startswith("line 2, column 9: this class is not closed")
    assert apply_button(rc).disabled
    event_text(rc, "event yes: pre d_July_16\nevent no: pre ~d_July_16\nactual: no")
    assert "the actual event no cannot happen" in text(rc, "event-error")
    event_text(rc, "event yes: pre d_July_16\nevent no: pre ~d_July_16\nevent skip: pre true\n"
                   "albert: {yes} {no} {skip}\nactual: skip")  # he may have read it; he did not
    assert not apply_button(rc).disabled
    press(rc, "Apply")
    assert puzzle_counts(rc) == 20  # every world split in two: read or not
    assert "20 worlds possible (the puzzle began with 10 worlds)" in text(rc, "puzzle-status")
    # counted in words (it said "event 3 events written by hand")
    assert text(rc, "announce-result").startswith(
        "Event skip of 3 events written by hand: 10 → 20 worlds.")
    assert "event skip of 3 events written by hand (Albert" in text(rc, "puzzle-status")
    # each half is named by what holds in it (not by an old world with the same id: the
    # product renumbered them, so the puzzle's own names no longer apply)
    assert len(re.findall(r"<title>world \d+[^<\n]*\nw\d+: d_July_16\n",
                          html(rc, "worlds-graph"))) == 2
    assert ("Albert: saw skip; Bernard: could not tell yes, no and skip apart."
            in text(rc, "announce-result"))
    type_formula(rc, "~K_albert d_July_16 & M_bernard K_albert d_July_16")
    assert "true" in text(rc, "formula-result")


@pytest.mark.parametrize(("kind", "who", "formula", "error"), [
    ("learns", ["alice"], "", "type a formula φ in the box above"),
    ("learns", ["alice"], "zz", "unknown atom zz"),
    ("learns", ["alice", "bob"], "p", "one agent learns; for more, choose 'learn together'"),
    ("together", [], "p", "choose who learns"),
])
def test_the_control_says_why_it_cannot_apply(kind, who, formula, error):
    model = load_model(starter_models()["alice-bob"])
    prepared = prepare(model, kind, who, formula)
    assert prepared.events is None and error in prepared.error


def test_a_ready_made_event_happens_the_way_the_formula_is():
    model = load_model(starter_models()["alice-bob"])  # p true at the actual world, q too
    assert prepare(model, "learns", ["bob"], "~p").events.actual == "no"
    assert prepare(model, "together", ["alice", "bob"], "q").events.actual == "yes"


def test_a_secret_event_is_drawn_beside_the_model_then_makes_false_beliefs_drawn_as_arrows():
    rc = cheryl_event("d_July_16", "finds out whether φ in secret")
    assert text(rc, "event-label") == "secret:albert:d_July_16"
    assert text(rc, "event-others") == "The others believe nothing happened."
    drawn = html(rc, "event-graph")  # before the update, the event model itself
    assert sorted(re.findall(r'<text class="node"[^>]*>([^<]*)</text>', drawn)) == \
        ["no", "skip", "yes"]
    assert "pre: d_July_16" in drawn and 'data-head-of="bernard"' in drawn
    assert "arrow leads to the events" in text(rc, "event-caption")
    press(rc, "Apply")
    assert "Bernard: believes skip happened" in text(rc, "announce-result")
    type_formula(rc, "K_albert d_July_16 & B_bernard ~(K_albert d_July_16)")
    assert "true" in text(rc, "formula-result")
    # a belief model now: drawn as a graph at once, with Bernard's arrows, and no class view
    assert 'data-head-of="bernard"' in html(rc, "worlds-graph")
    assert rc.find(v.Btn, children=["classes"]).widget.disabled


MOVE = ("event move: pre basket\nevent skip: pre true\npost move: basket := false, box := true\n"
        "anne: {move} {skip}\nsally: move -> skip\nsally: skip -> skip\nactual: move")


def test_an_applied_event_stays_shown_as_applied_until_it_is_edited():
    """Issue 43, item 8: after Apply the event was checked again against the model it made
    ("the actual event move cannot happen", in red) and its drawing went. It stays shown as
    the event just applied, checked against the model it was applied to, until edited."""
    rc = render_puzzles()
    choose_puzzle(rc, "sally-anne")
    press(rc, "Step ▶")  # the marble is in the basket
    press(rc, "Event ▸")
    choose(rc, "event", "written by hand")
    event_text(rc, MOVE)
    assert "pre: basket" in html(rc, "event-graph")
    press(rc, "Apply")
    assert puzzle_counts(rc) == 2 and "event move of 2 events written by hand" in \
        text(rc, "puzzle-status")
    assert text(rc, "event-applied").startswith(
        "Applied: move of 2 events written by hand, checked against the model it was applied "
        "to (1 world → 2 worlds)")
    assert rc.find(v.Textarea).widget.v_model == MOVE  # the text is kept
    assert not shown(rc, "event-error")
    drawn = html(rc, "event-graph")  # still drawn beside the model it made
    assert sorted(re.findall(r'<text class="node"[^>]*>([^<]*)</text>', drawn)) == \
        ["move", "skip"]
    assert rc.find(v.Btn, children=["Apply again"]).widget.disabled is False
    event_text(rc, MOVE + "\n# edited")  # edited: now checked against the model on show
    assert "the actual event move cannot happen" in text(rc, "event-error")
    assert not shown(rc, "event-applied")
    assert apply_button(rc).disabled


def test_apply_again_checks_the_event_against_the_model_now():
    rc = cheryl_event("d_July_16 | d_July_14", "announce φ")
    press(rc, "Apply")
    assert puzzle_counts(rc) == 2 and text(rc, "event-applied")
    press(rc, "Apply again")  # true again: a second moment, the same two worlds
    assert puzzle_counts(rc) == 2 and "moment 2 of 2" in text(rc, "puzzle-status")
    press(rc, "◀ Back")
    press(rc, "◀ Back")  # the model before: the event is checked against it, as any
    assert puzzle_counts(rc) == 10 and apply_button(rc).disabled is False
    assert not shown(rc, "event-applied")
