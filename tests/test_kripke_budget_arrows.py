"""The budget of a belief model, estimate against measurement: on a dense and on a sparse
model (seeded), each formula's estimate (kripke.budget, counting the arrows each agent's
relation stores) is held to the CPU time its evaluation takes, and an explanation's to its
explanation's. CPU time, not wall time: the suite runs beside other work.

The factors: the weights were measured on this project's shared two-core machine and err on
the high side (measured/estimated 0.2–1.0 there), so a formula takes at most 4 times its
estimate (a slower machine, caches shared with other jobs) and at least a tenth of it
(an estimate far above the work would send quick formulas to a thread or refuse them)."""

from __future__ import annotations

import time

import numpy as np
import pytest

from kripke import parse
from kripke.budget import explanation_steps, model_work, steps
from kripke.explain import explain
from kripke.explicit.access import Access
from kripke.explicit.belief import BeliefModel, relation_matrix

SLOWER, FASTER = 4.0, 10.0
#: Below this a measurement is mostly the clock's and Python's noise.
FLOOR = 0.02


def seeded_model(n: int, per_world: int, seed: int) -> BeliefModel:
    """Atoms p0..p2 random; a and b with ``per_world`` random arrows from each world; c a
    partition into classes of about 50 worlds."""
    rng = np.random.default_rng(seed)
    valuation = {f"p{i}": rng.random(n) < 0.5 for i in range(3)}
    relations: dict[str, object] = {}
    for agent in "ab":
        pairs = np.stack([np.repeat(np.arange(n), per_world),
                          rng.integers(0, n, n * per_world)], axis=1)
        relations[agent] = relation_matrix(pairs, n)
    relations["c"] = Access.partition(rng.integers(0, max(n // 50, 1), n))
    return BeliefModel(valuation, relations, 0)


#: (worlds, arrows per world, seed, each formula repeated): about 0.05–0.5 s a formula.
MODELS = {"sparse": (200_000, 3, 11, 2), "dense": (2_000, 1_000, 12, 8)}
FORMULAS = ["K_b p0 & M_a p1 & K_c p2", "C_b p0", "C_{a,b} ~p0", "C p1", "D_{a,b} p0",
            "D_{b,c} p1", "[!p0] K_b p1", "E p0 & E ~p1", "K_b K_a (p0 | M_c p2)"]


def cpu(work) -> float:
    """The least CPU time of two runs."""
    best = float("inf")
    for _ in range(2):
        start = time.process_time()
        work()
        best = min(best, time.process_time() - start)
    return best


@pytest.fixture(scope="module", params=list(MODELS))
def case(request) -> tuple[BeliefModel, int]:
    n, per_world, seed, repeat = MODELS[request.param]
    return seeded_model(n, per_world, seed), repeat


@pytest.mark.parametrize("text", FORMULAS)
def test_a_formula_takes_about_what_the_budget_says(case, text):
    model, repeat = case
    formula = parse(" & ".join([f"({text})"] * repeat))
    estimate = steps(formula, model.n_worlds, len(model.agents), model_work(model)) / 1e9
    measured = cpu(lambda: model.evaluate(formula))
    assert measured <= SLOWER * estimate + FLOOR, (measured, estimate)
    assert estimate <= FASTER * measured + FLOOR, (measured, estimate)


@pytest.mark.parametrize("text", ["C_{a,b} ~p0", "K_b K_a p0", "[!p0] C_b p1"])
def test_an_explanation_takes_about_what_its_budget_says(case, text):
    model, _ = case
    formula = parse(text)
    estimate = explanation_steps(formula, model.n_worlds, len(model.agents),
                                 model_work(model)) / 1e9
    measured = cpu(lambda: explain(model, formula))
    assert measured <= SLOWER * estimate + FLOOR, (measured, estimate)
    assert estimate <= FASTER * measured + FLOOR, (measured, estimate)
