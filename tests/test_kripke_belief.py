"""Models with any relation: the sparse checker, the product update with arrows and
assignments, and bisimulation contraction, each held to the textbook definitions of
kripke.reference (sets of pairs) on random models; the S5 cases held to the partition path."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from kripke_strategies import (
    PLAIN_ATOMS,
    belief_models,
    classed_belief_models,
    event_models,
    formulas,
    general_event_models,
    models,
)
from textbook import truth_after

from kripke import KripkeModel, ModelError, load_model, parse
from kripke.events.model import (
    EventModel,
    private_announcement,
    public_assignment,
    secret_flip,
    secret_look,
)
from kripke.explicit.belief import BeliefModel, properties, relation_matrix
from kripke.files.modelfile import starter_models
from kripke.interface import EpistemicModel
from kripke.language.formula import Possible
from kripke.reference import Structure
from kripke.symbolic.structure import SymbolicModel
from kripke.symbolic.translate import to_symbolic

PLAIN = formulas(max_leaves=8, atoms=PLAIN_ATOMS)


@settings(max_examples=150, deadline=None)
@given(belief_models(), PLAIN)
def test_the_sparse_checker_agrees_with_the_textbook_on_any_relation(model, formula):
    assert model.evaluate(formula).tolist() == Structure.of(model).values(formula)


@settings(max_examples=80, deadline=None)
@given(models(max_worlds=6), formulas(max_leaves=8))
def test_an_s5_model_as_a_belief_model_answers_as_before(model, formula):
    """The partition checker and the relation checker agree on S5 relations."""
    belief = model.to_belief()
    assert belief.frame_class() == "S5"
    assert belief.evaluate(formula).tolist() == model.evaluate(formula).tolist()


@settings(max_examples=80, deadline=None)
@given(models(max_worlds=6), formulas(max_leaves=6), formulas(max_leaves=6))
def test_an_s5_model_as_a_belief_model_answers_the_neutral_interface_alike(model, said, then):
    """values, count_values, actual_value, restrict (an announcement already evaluated, then
    asked again), class_name and frame_class: a page holding either gets the same answers."""
    belief = model.to_belief()
    assert isinstance(belief, EpistemicModel)
    values, theirs = model.values(said), belief.values(said)
    assert theirs.tolist() == values.tolist()
    assert belief.count_values(theirs) == model.count_values(values) == model.count(said)
    if model.actual is not None:
        assert belief.actual_value(theirs) == model.actual_value(values)
    kept, kept_s5 = belief.restrict(theirs), model.restrict(values)
    assert kept.world_ids.tolist() == kept_s5.world_ids.tolist()
    assert kept.actual == kept_s5.actual
    assert kept.evaluate(then).tolist() == kept_s5.evaluate(then).tolist()
    assert [belief.class_name(a, 0) for a in belief.agents] == \
        [model.class_name(a, 0) for a in model.agents]
    assert belief.frame_class() == model.frame_class() == "S5"


def test_a_belief_model_refuses_values_that_are_not_its_own():
    belief = BeliefModel.of([{"p"}, set()], {"a": [(0, 1), (1, 1)]}, actual=0)
    with pytest.raises(ModelError, match="not a value per world of this model of 2 worlds"):
        belief.count_values(np.ones(3, dtype=bool))
    with pytest.raises(ModelError, match="not a value per world"):
        belief.restrict(np.ones(3, dtype=bool))


def test_an_update_with_arrows_is_still_a_model_of_the_interface():
    """An S5 model meeting a private announcement becomes a belief model, which a caller
    still holds as an EpistemicModel: values, counts, the actual value and why."""
    letter = KripkeModel.from_worlds([{"p"}, set()], {"alice": [0, 0], "bob": [0, 0]}, 0)
    after = letter.update(private_announcement("alice", "p", letter.agents))
    assert isinstance(after, EpistemicModel) and after.frame_class() == "KD45"
    values = after.values("K_alice p & ~K_bob p")
    assert after.actual_value(values) and after.count_values(values) == 1
    assert after.explain(parse("K_alice p & ~K_bob p"), values).value


def possible(model: BeliefModel | KripkeModel, events: EventModel) -> list[str]:
    return [e.name for e in events.events if model.holds(e.precondition)]


@settings(max_examples=150, deadline=None)
@given(st.one_of(belief_models(max_worlds=5), classed_belief_models(max_worlds=5)),
       general_event_models(), PLAIN)
def test_the_product_update_with_arrows_and_assignments_is_the_textbook_one(
        model, events, formula):
    """On relations given arrow by arrow and on relations kept by classes (partitions,
    labels with arrows between them), which the update keeps by classes."""
    here = possible(model, events)
    assume(here)
    events = events.at(here[0])
    expected = truth_after(model, events, formula)
    product = model.update(events)
    m = len(events.events)
    # the pairs, read back from the ids the update gives: id(w)·|E| + e when worlds split
    split = any(len([e for e in events.events if model.holds(e.precondition, w)]) > 1
                for w in range(model.n_worlds))
    pairs = []
    for i, wid in enumerate(product.world_ids.tolist()):
        if split:
            old, e = divmod(wid, m)
            pairs.append((model.world_ids.tolist().index(old), events.names[e]))
        else:
            w = model.world_ids.tolist().index(wid)
            pairs.append((w, next(e.name for e in events.events
                                  if model.holds(e.precondition, w))))
        assert product.world_name(i).startswith(model.world_name(pairs[-1][0]))
    assert sorted(pairs) == sorted(expected)
    assert product.evaluate(formula).tolist() == [expected[p] for p in pairs]
    assert pairs[product.actual] == (model.actual, events.actual)
    # counted before it is built: exactly the arrows the product stores
    assert model.update_arrows(events) == sum(product.access(a).label_arrows
                                              for a in product.agents)
    for agent in model.agents:  # a partition met by a partition stays one
        if model.access(agent).is_partition and events.is_partitioned(agent):
            assert product.access(agent).is_partition


@settings(max_examples=80, deadline=None)
@given(models(max_worlds=5), event_models(atoms=PLAIN_ATOMS), PLAIN)
def test_an_s5_event_takes_todays_path_and_agrees_with_the_general_update(
        model, events, formula):
    """A partition event on an S5 model stays a KripkeModel, with the values the general
    product gives."""
    here = possible(model, events)
    assume(here)
    events = events.at(here[0])
    fast = model.update(events)
    general = model.to_belief().update(events)
    assert isinstance(fast, KripkeModel)
    assert fast.world_ids.tolist() == general.world_ids.tolist()
    assert fast.evaluate(formula).tolist() == general.evaluate(formula).tolist()
    assert general.frame_class() in ("S5", "KD45", "S4", "KD", "K")


@settings(max_examples=60, deadline=None)
@given(models(max_worlds=5), st.sampled_from(PLAIN_ATOMS), PLAIN, PLAIN)
def test_a_public_assignment_keeps_an_s5_model_s5(model, atom, value, formula):
    """Factual change seen by all is an S5 event: the fast path, held to the textbook."""
    events = public_assignment(atom, value)
    after = model.update(events)
    assert isinstance(after, KripkeModel)
    expected = truth_after(model, events, formula)
    assert after.evaluate(formula).tolist() == [expected[(w, "set")]
                                                for w in range(model.n_worlds)]


SALLY = BeliefModel.of([{"basket"}, set()], {"sally": [(0, 0), (1, 0)],
                                            "anne": [(0, 0), (1, 1)]}, 1,
                       names=["basket", "box"])


def test_belief_operators_b_and_the_diamond_read_on_a_false_belief():
    assert SALLY.holds("B_sally basket & ~basket & K_anne ~basket")
    assert SALLY.holds("<anne> ~basket & ~<sally> ~basket & M_sally basket")
    assert parse("<a>p") == Possible("a", parse("p"))
    assert SALLY.holds("K_anne B_sally basket & ~C_{sally,anne} basket")


def test_frame_classes_are_named_from_the_relations():
    assert SALLY.frame_class("anne") == "S5"
    assert SALLY.frame_class("sally") == "KD45"
    assert SALLY.frame_class() == "KD45"
    chain = BeliefModel.of([set(), set(), set()], {"a": [(0, 1), (1, 2)]}, 0)
    assert chain.frame_class() == "K"
    assert chain.dead_ends("a").tolist() == [2]
    s4 = BeliefModel.of([set(), set()], {"a": [(0, 0), (0, 1), (1, 1)]}, 0)
    assert s4.frame_class() == "S4"
    kd = BeliefModel.of([set(), set()], {"a": [(0, 1), (1, 0)]}, 0)
    assert kd.frame_class() == "KD"


@settings(max_examples=100, deadline=None)
@given(st.integers(1, 5).flatmap(lambda n: st.tuples(st.just(n), st.sets(st.tuples(
    st.integers(0, n - 1), st.integers(0, n - 1))))))
def test_relation_properties_are_the_definitions(drawn):
    n, pairs = drawn
    found = properties(relation_matrix(pairs, n))
    worlds = range(n)
    assert ("reflexive" in found) == all((w, w) in pairs for w in worlds)
    assert ("serial" in found) == all(any((w, v) in pairs for v in worlds) for w in worlds)
    assert ("symmetric" in found) == all((v, w) in pairs for w, v in pairs)
    assert ("transitive" in found) == all((w, u) in pairs for w, v in pairs
                                          for v2, u in pairs if v == v2)
    assert ("euclidean" in found) == all((v, u) in pairs for w, v in pairs
                                         for w2, u in pairs if w == w2)


# --- ready-made events ------------------------------------------------------------------------

COIN = KripkeModel.from_worlds([{"heads"}, set()], {"a": [0, 0], "b": [0, 0]}, actual=0)


def test_a_private_announcement_leaves_the_others_believing_nothing_happened():
    after = COIN.update(private_announcement("a", "heads", ["a", "b"]))
    assert isinstance(after, BeliefModel)
    assert after.n_worlds == 3
    assert after.holds("K_a heads & ~K_b heads & K_b ~(K_a heads | K_a ~heads)")
    assert after.frame_class("b") == "KD45" and after.frame_class("a") == "S5"


def test_a_secret_look_and_a_secret_flip():
    looked = COIN.update(secret_look("a", "heads", ["a", "b"]))
    assert looked.holds("K_a heads & B_b ~(K_a heads | K_a ~heads)")
    flipped = looked.update(secret_flip("a", "heads", ["a", "b"]))
    assert flipped.holds("~heads & K_a ~heads & ~B_b ~heads & B_b ~(K_a heads | K_a ~heads)")


def test_an_assignment_to_an_unknown_atom_is_refused_with_the_atoms_named():
    with pytest.raises(ModelError, match="assigns rain, which the model does not have"):
        COIN.update(public_assignment("rain", "true"))


def test_a_symbolic_model_refuses_a_belief_event_in_one_line():
    symbolic = to_symbolic(COIN)
    assert isinstance(symbolic, SymbolicModel)
    with pytest.raises(ModelError, match="arrows"):
        symbolic.update(private_announcement("a", "heads", ["a", "b"]))
    with pytest.raises(ModelError, match="assignments"):
        symbolic.update(public_assignment("heads", "false"))


# --- bisimulation contraction -----------------------------------------------------------------

def bisimilar_pairs(model: BeliefModel) -> set[tuple[int, int]]:
    """The greatest bisimulation by its definition: start from all pairs agreeing on the
    atoms, drop a pair while one side has an arrow the other cannot match."""
    n = model.n_worlds
    succ = {a: {w: set(model.possible_worlds(a, w).tolist()) for w in range(n)}
            for a in model.agents}
    rel = {(w, v) for w, v in itertools.product(range(n), repeat=2)
           if model.true_atoms(w) == model.true_atoms(v)}
    changed = True
    while changed:
        changed = False
        for w, v in list(rel):
            ok = all(all(any((x, y) in rel for y in succ[a][v]) for x in succ[a][w]) and
                     all(any((x, y) in rel for x in succ[a][w]) for y in succ[a][v])
                     for a in model.agents)
            if not ok:
                rel.discard((w, v))
                changed = True
    return rel


@settings(max_examples=100, deadline=None)
@given(belief_models(), PLAIN)
def test_a_minimised_model_agrees_on_every_formula_and_is_minimal(model, formula):
    small = model.minimised()
    values, small_values = model.evaluate(formula), small.evaluate(formula)
    assert small.holds(formula) == model.holds(formula)
    bisimilar = bisimilar_pairs(model)
    kept = [model.world_ids.tolist().index(i) for i in small.world_ids.tolist()]
    for w in range(model.n_worlds):  # one kept world stands for w, with w's value
        stands = [i for i, k in enumerate(kept) if (k, w) in bisimilar]
        assert len(stands) == 1
        assert small_values[stands[0]] == values[w]
    assert all(w == v for w, v in bisimilar_pairs(small))  # no two worlds bisimilar


def test_minimising_the_muddy_children_after_a_look_keeps_the_answer():
    model = KripkeModel.from_worlds([{"p"}, {"p"}, set()], {"a": [0, 0, 1]}, actual=0)
    small = model.minimised()
    assert small.n_worlds == 2
    assert small.holds("K_a p") and small.frame_class() == "S5"
    assert np.array_equal(small.world_ids, [0, 2])



def test_an_s5_model_shows_a_picture_the_same_relation_as_its_belief_model():
    """A picture asks either kind of model for arrows and frame class, never which kind."""
    model = load_model(starter_models()["three-cards"]).announce("~white(a)")
    belief = model.to_belief()
    for agent in model.agents:
        assert model.arrows(agent) == belief.arrows(agent)
        assert model.properties(agent) == belief.properties(agent)
        assert model.frame_class(agent) == belief.frame_class(agent) == "S5"
    assert model.frame_class() == "S5"
    coin = load_model(starter_models()["secret-coin"])
    assert coin.possible_worlds("b").tolist() == [2, 3]
