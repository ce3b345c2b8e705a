"""Belief models that hold relations by classes (kripke.explicit.access): partitions, arrows
world by world, and labels with arrows between them, each held to the textbook definitions of
kripke.reference on random models; and the big cases that only classes make quick (a class
of tens of thousands of worlds is never listed as arrows)."""

from __future__ import annotations

import time

import numpy as np
from hypothesis import given, settings
from kripke_strategies import PLAIN_ATOMS, classed_belief_models, formulas
from test_kripke_belief import bisimilar_pairs

from kripke import KripkeModel
from kripke.events.model import private_announcement
from kripke.reference import Structure

PLAIN = formulas(max_leaves=8, atoms=PLAIN_ATOMS)


@settings(max_examples=60, deadline=None)
@given(classed_belief_models(), PLAIN)
def test_the_checker_on_classes_agrees_with_the_textbook(model, formula):
    assert model.evaluate(formula).tolist() == Structure.of(model).values(formula)


def definitions(n: int, pairs: set[tuple[int, int]]) -> frozenset[str]:
    """The five properties read from their definitions on a set of arrows."""
    worlds = range(n)
    found = {"reflexive": all((w, w) in pairs for w in worlds),
             "serial": all(any((w, v) in pairs for v in worlds) for w in worlds),
             "symmetric": all((v, w) in pairs for w, v in pairs),
             "transitive": all((w, u) in pairs for w, v in pairs for v2, u in pairs if v == v2),
             "euclidean": all((v, u) in pairs for w, v in pairs for w2, u in pairs if w == w2)}
    return frozenset(name for name, holds in found.items() if holds)


@settings(max_examples=60, deadline=None)
@given(classed_belief_models())
def test_frame_properties_read_on_the_labels_are_those_of_the_arrows_between_worlds(model):
    for agent in model.agents:
        pairs = set(model.arrows(agent))
        assert model.properties(agent) == definitions(model.n_worlds, pairs)
        assert model.access(agent).world_arrows == len(pairs)
        for w in range(model.n_worlds):
            assert model.possible_worlds(agent, w).tolist() == \
                sorted(v for x, v in pairs if x == w)
        assert model.dead_ends(agent).tolist() == \
            [w for w in range(model.n_worlds) if not any(x == w for x, _ in pairs)]


@settings(max_examples=50, deadline=None)
@given(classed_belief_models(), PLAIN)
def test_minimising_classes_agrees_on_every_formula_and_is_minimal(model, formula):
    small = model.minimised()
    values, small_values = model.evaluate(formula), small.evaluate(formula)
    pairs = bisimilar_pairs(model)
    kept = [model.world_ids.tolist().index(i) for i in small.world_ids.tolist()]
    for w in range(model.n_worlds):
        stands = [i for i, k in enumerate(kept) if (k, w) in pairs]
        assert len(stands) == 1
        assert small_values[stands[0]] == values[w]
    assert all(w == v for w, v in bisimilar_pairs(small))
    for agent in model.agents:
        if model.access(agent).is_partition:
            assert small.access(agent).is_partition


# --- what classes make quick ------------------------------------------------------------------

def s5_model(n: int, seed: int) -> KripkeModel:
    """n worlds, atoms p and q random, a seeing p, b seeing nothing (one class of n)."""
    rng = np.random.default_rng(seed)
    p, q = rng.random(n) < 0.5, rng.random(n) < 0.5
    return KripkeModel({"p": p, "q": q}, {"a": p.astype(np.int64),
                                          "b": np.zeros(n, dtype=np.int64)},
                       actual=int(np.argmax(q)))


def cpu(work):
    start = time.process_time()
    result = work()
    return result, time.process_time() - start


def test_a_private_event_on_20000_s5_worlds_keeps_b_by_classes_and_is_quick():
    """b's one class of 20,000 worlds is 400 million arrows; times the event's arrows it is
    two arrows between labels ((class, learn) → (class, skip), (class, skip) → (class, skip)).
    Before, this ran over 120 s at 2,000 worlds."""
    model = s5_model(20_000, seed=1)
    events = private_announcement("a", "q", ["b"])
    assert model.to_belief().update_arrows(events) == 2
    after, seconds = cpu(lambda: model.update(events))
    assert after.n_worlds == 20_000 + int(model.count("q"))
    assert after.access("b").label_arrows == 2 and after.access("a").is_partition
    assert after.holds("K_a q") and not after.holds("K_b K_a q")
    assert after.frame_class("b") == "KD45" and after.frame_class("a") == "S5"
    assert seconds < 10


def test_minimising_100000_s5_worlds_takes_classes_not_arrows():
    """Before, --minimise on 100,000 worlds asked for 37 GiB (a class listed as arrows)."""
    model = s5_model(100_000, seed=2)
    small, seconds = cpu(model.minimised)
    assert small.n_worlds == 4  # p, q: a sees p, b nothing; worlds alike in p and q bisimilar
    assert small.frame_class() == "S5"
    assert small.holds("K_a p") == model.holds("K_a p")
    assert seconds < 20


def test_the_frame_class_of_10000_dense_worlds_is_s5_by_construction():
    model = s5_model(10_000, seed=3).to_belief()
    assert model.access("b").world_arrows == 10_000 ** 2
    frame, seconds = cpu(model.frame_class)
    assert frame == "S5" and seconds < 1
