"""An evaluation its caller no longer wants stops (``kripke.budget.stop_when``): a page's tab
that closed kept the server computing its formula until the end. Both checkers, and Why?,
which evaluates through them."""

from __future__ import annotations

import threading

import numpy as np
import pytest

from kripke import EvaluationStopped, deal_model, parse, symbolic_deal
from kripke.budget import check_stopped, stop_when
from kripke.explain import explain

HANDS = [list(range(i, i + 3)) for i in range(0, 12, 3)]
BUILD = {"explicit": lambda: deal_model(list(range(12)), [3] * 4, HANDS),  # 369,600 worlds
         "symbolic": lambda: symbolic_deal(list(range(12)), [3] * 4, HANDS)}
EXPLICIT = BUILD["explicit"]()
NESTED = "C_{0,1,2} ~C_{0,1} " * 20 + "p(0,1)"


class After:
    """A predicate that turns true at its ``n``-th question, counting them."""

    def __init__(self, n: int) -> None:
        self.n, self.asked = n, 0

    def __call__(self) -> bool:
        self.asked += 1
        return self.asked >= self.n


@pytest.mark.parametrize("backend", BUILD)
def test_a_stop_ends_a_long_evaluation_at_the_next_operator(backend):
    model = BUILD[backend]()
    stop = After(10)
    with stop_when(stop), pytest.raises(EvaluationStopped):
        model.count(parse(NESTED))
    assert stop.asked == 10  # asked once per operator, and nothing evaluated after the stop


@pytest.mark.parametrize("backend", BUILD)
def test_no_stop_or_one_never_true_changes_no_value(backend):
    stoppable, plain = BUILD[backend](), BUILD[backend]()  # a model keeps what it worked out
    formulas = [NESTED, "K_0 p(1,4) | M_2 p(0,1)", "E_{0,1} ~p(3,0)", "D_{1,2} p(0,3)",
                "[! p(0,1) | p(0,4)] K_1 (p(0,1) | p(0,4))", "<! ~p(2,0)> C_{0,3} ~p(2,0)"]
    for text in formulas:
        never = After(10**9)
        with stop_when(never):
            asked = stoppable.count(parse(text)), stoppable.holds(parse(text))
        assert never.asked > 0
        assert asked == (plain.count(parse(text)), plain.holds(parse(text)))


def test_the_explicit_values_are_the_same_array_with_a_false_predicate():
    formula = parse(NESTED)
    plain = EXPLICIT.evaluate(formula).copy()
    with stop_when(lambda: False):
        assert np.array_equal(EXPLICIT.evaluate(formula), plain)


def test_why_stops_too():
    small = deal_model(list(range(7)), [2, 2, 3], [[0, 1], [2, 3], [4, 5, 6]])
    formula = parse("C_{0,1} ~K_2 p(0,1) & E_{0,1,2} ~(p(1,2) & K_0 p(1,3))")
    assert explain(small, formula).value in (True, False)
    stop = After(3)
    with stop_when(stop), pytest.raises(EvaluationStopped):
        explain(small, formula)


def test_a_stop_is_not_a_value_error_so_no_message_catch_swallows_it():
    assert not issubclass(EvaluationStopped, ValueError)


def test_the_stop_holds_only_inside_its_block_and_its_own_thread():
    with stop_when(lambda: True):
        with pytest.raises(EvaluationStopped):
            check_stopped()
        elsewhere: list[BaseException] = []

        def other() -> None:
            try:
                EXPLICIT.holds(parse(NESTED))
            except BaseException as e:  # noqa: BLE001 (any failure shows in the assert)
                elsewhere.append(e)

        thread = threading.Thread(target=other)
        thread.start()
        thread.join()
        assert not elsewhere  # another caller's evaluation is not this one's to stop
    check_stopped()  # outside the block: nothing to stop


def test_nested_blocks_stop_when_either_says_so():
    outer = [False]
    with stop_when(lambda: outer[0]):
        with stop_when(lambda: False):
            check_stopped()
            outer[0] = True
            with pytest.raises(EvaluationStopped):
                check_stopped()
