"""The page judges a belief model's work by its arrows (issue 44): a formula the budget puts
past a tenth of a second goes to the formula's thread, an event whose preconditions are that
much work is checked in a thread of its own (the row says so meanwhile), and one past the
budget is refused in one line before any world is looked at."""

from __future__ import annotations

import time

import ipyvuetify as v
import numpy as np
import solara
from test_app_teaching import press, wait_for
from test_app_widgets import close_pages  # noqa: F401 (autouse: pages closed after each test)

from app.web.components.events import STOPPED, EventControl, event_steps, prepare
from app.web.components.formula import QUICK_STEPS, FormulaResult, first_result
from kripke.budget import MAX_STEPS
from kripke.explicit.belief import BeliefModel, relation_matrix


def dense_model(n: int = 2_000, per_world: int = 1_000, seed: int = 9) -> BeliefModel:
    """p random; b's arrows ``per_world`` random worlds from each world (2 million)."""
    rng = np.random.default_rng(seed)
    pairs = np.stack([np.repeat(np.arange(n), per_world), rng.integers(0, n, n * per_world)],
                     axis=1)
    return BeliefModel({"p": rng.random(n) < 0.5}, {"b": relation_matrix(pairs, n)}, 0)


def hand_events(n_events: int, per_event: int) -> str:
    """Events each of whose preconditions is ``per_event`` × C_b p (or its negation)."""
    pre = " & ".join(["C_b (p | ~p)"] * per_event)
    lines = [f"event e{i}: pre {pre}" for i in range(n_events)]
    return "\n".join([*lines, "b: {" + " ".join(f"e{i}" for i in range(n_events)) + "}",
                      "actual: e0"])


def test_a_formula_heavy_by_its_arrows_goes_to_the_thread():
    """Ten C_b on 2,000 worlds: by worlds alone a fraction of a millisecond, evaluated in
    the tab's message handler; by its 2 million arrows a quarter of a second: the thread."""
    model = dense_model()
    formula = " & ".join(["C_b p"] * 10)
    assert not isinstance(first_result(model, formula), FormulaResult)  # for the thread
    assert isinstance(first_result(model, "K_b p"), FormulaResult)  # quick: at once


def test_an_event_past_the_budget_is_refused_in_one_line_before_any_work():
    """The audit's 5 × 200 C_b p: about a minute of preconditions, refused at once."""
    model = dense_model()
    text_ = hand_events(5, 200)
    assert event_steps(model, "hand", "", text_) > MAX_STEPS
    prepared = prepare(model, "hand", [], "", text_, stop=lambda: True)  # never evaluated
    assert prepared.events is None
    assert prepared.error.startswith("checking this event is too much work over 2,000 worlds")


def test_an_event_heavy_by_its_arrows_is_checked_in_a_thread():
    """600,000 arrows: each C_b about 12 ms by the budget, the event's nine of them, each
    evaluated twice, past the tenth of a second evaluated as it is typed (and its product,
    3 × 600,000 arrows, within the page's bound)."""
    model = dense_model(per_world=300)
    text_ = hand_events(3, 3)
    assert QUICK_STEPS < event_steps(model, "hand", "", text_) <= MAX_STEPS
    applied = []
    _box, rc = solara.render(EventControl(model, "", lambda e: applied.append(e.label)),
                             handle_error=False)
    press(rc, "Event ▸")
    rc.find(v.Select, label="event").widget.v_model = "written by hand"
    rc.find(v.Textarea).widget.v_model = text_
    # the sign that it went to the thread, then the sign that the thread is done
    assert "Checking the event&#x27;s preconditions" in text_of(rc)  # rendered with the text
    assert rc.find(v.Btn, children=["Apply"]).widget.disabled
    wait_for(lambda: not rc.find(v.Btn, children=["Apply"]).widget.disabled)
    assert not rc.find(solara.widgets.HTML, attributes={"data-testid": "event-checking"}) \
        .widgets
    press(rc, "Apply")
    assert len(applied) == 1 and applied[0].endswith(" of 3 events written by hand")
    assert "Checking" not in text_of(rc)


def text_of(rc) -> str:
    return "".join(w.unsafe_innerHTML or "" for w in rc.find(solara.widgets.HTML).widgets)


def test_an_event_s_check_stops_at_the_next_operator_once_its_tab_is_gone():
    """The thread's predicate (the tab gone, or the choices changed) is asked once per
    operator: 160 C_b of about 40 ms each by the budget (6 s), stopped after the first
    twenty operators, comes back within a second of CPU saying it stopped."""
    model = dense_model()
    text_ = hand_events(2, 40)
    assert 5 * 10**9 < event_steps(model, "hand", "", text_) <= MAX_STEPS
    asked = []

    def gone() -> bool:
        asked.append(None)
        return len(asked) > 20

    start = time.process_time()
    prepared = prepare(model, "hand", [], "", text_, stop=gone)
    assert prepared.events is None and prepared.error == STOPPED
    assert time.process_time() - start < 1.5
