"""The symbolic backend against the explicit one and the textbook semantics, S5 and announcement
validities on random knowledge structures, symbolic deals, and the errors a user meets."""

from __future__ import annotations

from math import comb

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from kripke_strategies import (
    AGENTS,
    announcement_formulas,
    formulas,
    groups,
    models,
    structures,
)

from kripke import (
    And,
    Announce,
    AnnounceDual,
    AnnouncementError,
    Atom,
    Common,
    Distributed,
    Everyone,
    Iff,
    Implies,
    Knows,
    KripkeModel,
    ModelError,
    ModelTooLargeError,
    Not,
    Or,
    Possible,
    deal_count,
    deal_model,
    parse,
)
from kripke.explain import explain
from kripke.interface import EpistemicModel
from kripke.reference import Structure
from kripke.symbolic.bdd import Vocabulary
from kripke.symbolic.deal import symbolic_deal
from kripke.symbolic.structure import SymbolicModel
from kripke.symbolic.translate import to_explicit, to_symbolic, translate

agents = st.sampled_from(AGENTS)


def valid(model: SymbolicModel, formula) -> bool:
    """True at every state of the structure."""
    return model.count(formula) == model.n_worlds


# --- agreement ----------------------------------------------------------------------------------

@settings(max_examples=300, deadline=None)
@given(models(), formulas())
def test_translated_model_agrees_with_the_explicit_checker_at_every_world(model, formula):
    """Every formula of the random strategy, on random explicit models small enough to list:
    its value at each world is its value at that world's state in the translation."""
    translation = translate(model)
    symbolic = translation.symbolic
    assert symbolic.n_worlds == model.n_worlds
    plain = KripkeModel({a: model.atom_values(a) for a in model.atoms},
                        {a: model.observation(a) for a in model.agents}, model.actual)
    for agent in model.agents:
        assert symbolic.possible_count(agent) == plain.possible_count(agent)
    expected = model.evaluate(formula).tolist()
    assert [symbolic.holds(formula, state=s) for s in translation.states] == expected
    assert symbolic.count(formula) == sum(expected)
    assert symbolic.holds(formula) == model.holds(formula)


@settings(max_examples=200, deadline=None)
@given(structures(max_free=3), formulas())
def test_symbolic_checker_agrees_with_the_reference_semantics(model, formula):
    """Random structures (up to 48 states, as the textbook checker is quadratic), listed as an
    explicit model and checked world by world."""
    explicit = to_explicit(model)
    states = model.states()
    assert explicit.n_worlds == model.n_worlds == len(states)
    assert [model.holds(formula, state=s) for s in states] == Structure.of(explicit).values(formula)


@settings(max_examples=150, deadline=None)
@given(models(max_worlds=8), announcement_formulas())
def test_symbolic_checker_agrees_on_nested_and_repeated_announcements(model, formula):
    """The same few formulas announced in turn, again, and inside each other, at every world
    of a random explicit model's translation and of a random structure, against the textbook
    checker."""
    translation = translate(model)
    assert [translation.symbolic.holds(formula, state=s) for s in translation.states] == (
        Structure.of(model).values(formula))


@settings(max_examples=150, deadline=None)
@given(structures(max_free=3), announcement_formulas())
def test_symbolic_structures_agree_on_nested_and_repeated_announcements(model, formula):
    assert [model.holds(formula, state=s) for s in model.states()] == Structure.of(
        to_explicit(model)).values(formula)


@settings(max_examples=100, deadline=None)
@given(structures(), formulas(max_leaves=6), agents)
def test_user_queries_agree_between_backends(model, formula, agent):
    explicit = to_explicit(model)
    assert model.holds(formula) == explicit.holds(formula)
    assert model.knows(agent, formula) == explicit.knows(agent, formula)
    assert model.knows_whether(agent, formula) == explicit.knows_whether(agent, formula)
    assert model.known_atoms(agent) == explicit.known_atoms(agent)
    assert model.possible_count(agent) == explicit.possible_count(agent)
    assert model.knows(agent, formula) == model.holds(Knows(agent, formula))
    if model.holds(formula):
        assert model.announce(formula).n_worlds == explicit.announce(formula).n_worlds


@settings(max_examples=100, deadline=None)
@given(models(), formulas(max_leaves=6))
def test_round_trip_explicit_symbolic_explicit_keeps_every_answer(model, formula):
    back = to_explicit(to_symbolic(model))
    assert back.n_worlds == model.n_worlds
    assert back.count(formula) == model.count(formula)
    assert back.holds(formula) == model.holds(formula)


def test_translation_observes_atoms_where_they_tell_the_classes_apart():
    """Muddy children: child i always knows every other forehead, and that is all it sees, so
    it observes those atoms and no auxiliary bit is needed."""
    from kripke.puzzles.classic import muddy_children

    symbolic = to_symbolic(muddy_children(3, [0, 2]))
    assert symbolic.auxiliary == frozenset()
    assert set(symbolic.observed(1)) == {Atom("m0"), Atom("m2")}


def test_translation_keeps_worlds_that_only_differ_by_name():
    """Two worlds alike in every atom and class are two states, so counts stay equal."""
    model = KripkeModel.from_worlds([{"p"}, {"p"}, set()], {"a": [0, 0, 1]}, actual=0)
    symbolic = to_symbolic(model)
    assert symbolic.n_worlds == 3
    assert symbolic.count("p") == 2
    assert symbolic.atoms == (Atom("p"),)


# --- validities on random structures ----------------------------------------------------------

@settings(max_examples=150, deadline=None)
@given(structures(), formulas(max_leaves=6), agents)
def test_knowledge_is_s5(model, phi, a):
    assert valid(model, Implies(Knows(a, phi), phi))
    assert valid(model, Implies(Knows(a, phi), Knows(a, Knows(a, phi))))
    assert valid(model, Implies(Not(Knows(a, phi)), Knows(a, Not(Knows(a, phi)))))
    assert valid(model, Iff(Possible(a, phi), Not(Knows(a, Not(phi)))))


@settings(max_examples=150, deadline=None)
@given(structures(), formulas(max_leaves=6), groups())
def test_group_knowledge(model, phi, group):
    members = AGENTS if group is None else group
    assert valid(model, Implies(Common(group, phi), Everyone(group, And(phi, Common(group, phi)))))
    # Induction: if φ → E_G φ is valid, so is φ → C_G φ.
    if valid(model, Implies(phi, Everyone(group, phi))):
        assert valid(model, Implies(phi, Common(group, phi)))
    assert valid(model, Iff(Everyone(group, phi), And.of([Knows(a, phi) for a in members])))
    for a in members:
        assert valid(model, Implies(Knows(a, phi), Distributed(group, phi)))
    assert valid(model, Implies(Distributed(group, phi), phi))


@settings(max_examples=150, deadline=None)
@given(structures(), formulas(max_leaves=4), formulas(max_leaves=4), formulas(max_leaves=3),
       agents)
def test_announcement_validities(model, phi, psi, chi, a):
    p = Atom("p")
    assert valid(model, Iff(Announce(phi, p), Implies(phi, p)))
    assert valid(model, Iff(Announce(phi, Not(psi)), Implies(phi, Not(Announce(phi, psi)))))
    assert valid(model, Iff(Announce(phi, Knows(a, psi)),
                            Implies(phi, Knows(a, Announce(phi, psi)))))
    assert valid(model, Iff(AnnounceDual(phi, psi), And(phi, Announce(phi, psi))))
    # Two announcements in a row are one: [!φ][!ψ]χ ↔ [!(φ ∧ [!φ]ψ)]χ.
    assert valid(model, Iff(Announce(phi, Announce(psi, chi)),
                            Announce(And(phi, Announce(phi, psi)), chi)))


@settings(max_examples=100, deadline=None)
@given(structures(), formulas(max_leaves=5), formulas(max_leaves=5))
def test_announce_keeps_exactly_the_states_where_the_formula_held(model, phi, psi):
    if not model.holds(phi):
        with pytest.raises(AnnouncementError):
            model.announce(phi)
        return
    after = model.announce(phi)
    assert after.n_worlds == model.count(phi)
    assert model.holds(Announce(phi, psi)) == after.holds(psi)


# --- building blocks ---------------------------------------------------------------------------

def test_cardinality_constraints_count_the_binomials():
    atoms = [Atom("x", (i,)) for i in range(12)]
    vocabulary = Vocabulary(atoms)
    for k in range(-1, 14):
        exact = comb(12, k) if 0 <= k <= 12 else 0
        assert vocabulary.count(vocabulary.exactly(k, atoms)) == exact
        assert vocabulary.count(vocabulary.at_most(k, atoms)) == sum(
            comb(12, j) for j in range(0, min(k, 12) + 1))
        assert vocabulary.count(vocabulary.at_least(k, atoms)) == sum(
            comb(12, j) for j in range(max(k, 0), 13))
    # On a subset, the other atoms are free.
    assert vocabulary.count(vocabulary.exactly(2, atoms[:4])) == comb(4, 2) * 2**8


def test_counts_stay_exact_past_a_double():
    """30 tickets, 5 players × 4: 9,179,960,943,678,525,000 deals, more than 2**53."""
    model = symbolic_deal(range(30), [4] * 5, [range(4 * i, 4 * i + 4) for i in range(5)])
    assert model.n_worlds == deal_count(30, [4] * 5) == 9_179_960_943_678_525_000
    assert model.possible_count(0) == deal_count(26, [4] * 4)


@pytest.mark.parametrize(("cards", "hands"), [(4, [2, 2]), (6, [2, 2, 2]), (7, [3, 3, 1]),
                                              (8, [2, 2, 1]), (9, [3, 3, 3]), (6, [0, 3])])
def test_symbolic_deal_matches_the_explicit_deal(cards, hands):
    actual, start = [], 0
    for k in hands:
        actual.append(range(start, start + k))
        start += k
    explicit = deal_model(range(cards), hands, actual)
    symbolic = symbolic_deal(range(cards), hands, actual)
    assert symbolic.n_worlds == explicit.n_worlds == deal_count(cards, hands)
    assert symbolic.deal() == explicit.deal()
    assert symbolic.world_label() == explicit.world_label(explicit.actual)
    for agent in range(len(hands)):
        assert symbolic.known_atoms(agent) == explicit.known_atoms(agent)
        assert symbolic.class_sizes(agent).tolist() == explicit.class_sizes(agent).tolist()
        assert [symbolic.class_name(agent, k) for k in range(symbolic.n_keys(agent))] == \
            [explicit.class_name(agent, k) for k in range(symbolic.n_keys(agent))]


DEAL_ATOMS = tuple(Atom("p", (i, c)) for i in range(3) for c in (0, 1, 3, 5))
EXPLICIT_DEAL = deal_model(range(7), [2, 2, 2], [[0, 3], [1, 4], [2, 5]])
SYMBOLIC_DEAL = symbolic_deal(range(7), [2, 2, 2], [[0, 3], [1, 4], [2, 5]])


@settings(max_examples=100, deadline=None)
@given(formulas(max_leaves=6, atoms=DEAL_ATOMS, agents=(0, 1, 2)),
       formulas(max_leaves=4, atoms=DEAL_ATOMS, agents=(0, 1, 2)))
def test_symbolic_deal_agrees_on_random_formulas_and_announcements(phi, psi):
    """A deal with a hidden card (7 cards, 6 dealt): counts and answers equal the explicit."""
    e, s = EXPLICIT_DEAL, SYMBOLIC_DEAL
    assert s.count(phi) == e.count(phi)
    assert s.holds(phi) == e.holds(phi)
    if e.holds(psi):
        e, s = e.announce(psi), s.announce(psi)
        assert s.n_worlds == e.n_worlds
        assert s.count(phi) == e.count(phi)
        assert [s.known_atoms(a) for a in range(3)] == [e.known_atoms(a) for a in range(3)]


def test_five_by_four_deal_built_announced_and_queried():
    """The game's 5 × 4 deal of 20 tickets: 305,540,235,000 deals, never listed."""
    model = symbolic_deal(range(20), [4] * 5, [range(4 * i, 4 * i + 4) for i in range(5)])
    assert model.n_worlds == deal_count(20, [4] * 5) == 305_540_235_000
    claim = Or.of([Atom("p", (1, t)) for t in (4, 5, 6)])
    after = model.announce(claim)
    # Removed: the deals where player 1 holds none of 4, 5, 6.
    assert after.n_worlds == model.n_worlds - comb(17, 4) * deal_count(16, [4] * 4)
    assert not model.knows_whether(2, claim)
    assert after.holds(Common(None, claim))  # said in public: now common knowledge
    assert after.knows(0, Not(Atom("p", (1, 0))))  # player 0 holds ticket 0 itself
    assert not after.knows_whether(2, Atom("p", (1, 5)))
    known = after.known_atoms(3)
    assert {a for a, v in known.items() if v} == {Atom("p", (3, t)) for t in range(12, 16)}
    # Every hand of player 0 but the 17 that hold all of 4, 5, 6 (player 1 would hold none).
    assert np.count_nonzero(after.class_sizes(0)) == comb(20, 4) - 17


# --- interface and errors ---------------------------------------------------------------------

def test_both_backends_satisfy_the_model_interface():
    explicit = deal_model(range(4), [2, 2], [[0, 1], [2, 3]])
    assert isinstance(explicit, EpistemicModel)
    assert isinstance(symbolic_deal(range(4), [2, 2], [[0, 1], [2, 3]]), EpistemicModel)
    assert isinstance(to_symbolic(explicit), EpistemicModel)


def test_what_cannot_be_listed_or_drawn_is_refused_with_the_count():
    model = symbolic_deal(range(20), [4] * 5, [range(4 * i, 4 * i + 4) for i in range(5)])
    with pytest.raises(ModelTooLargeError, match="305,540,235,000 worlds, more than "
                       "max_worlds=500 to list"):
        model.states(max_worlds=500)
    with pytest.raises(ModelTooLargeError, match="to list"):
        to_explicit(model)
    big = deal_model(range(9), [3, 3, 3], [[0, 1, 2], [3, 4, 5], [6, 7, 8]])
    with pytest.raises(ModelTooLargeError, match="1,680 worlds.*to translate"):
        translate(big, max_worlds=1000)


def test_errors_name_the_problem():
    model = symbolic_deal(range(4), [2, 2], [[0, 1], [2, 3]])
    with pytest.raises(ModelError, match="unknown atom q"):
        model.holds("q")
    with pytest.raises(ModelError, match="unknown agent 7"):
        model.holds("K_7 p(0,1)")
    with pytest.raises(AnnouncementError, match="false at the actual world"):
        model.announce("p(1,0)")
    with pytest.raises(ModelError, match="must hold 2 distinct cards"):
        symbolic_deal(range(4), [2, 2], [[0], [2, 3]])
    with pytest.raises(ModelError, match="already holds"):
        symbolic_deal(range(4), [2, 2], [[0, 1], [1, 3]])
    with pytest.raises(ModelError, match="do not fit"):
        symbolic_deal(range(4), [3, 2], None)
    vocabulary = Vocabulary(["p", "q"])
    with pytest.raises(ModelError, match="does not satisfy the law"):
        SymbolicModel(vocabulary, vocabulary.var("p"), {"a": ["p"]}, actual=["q"])
    with pytest.raises(ModelError, match="no actual state"):
        SymbolicModel(vocabulary, vocabulary.true, {"a": ["p"]}).holds("p")
    with pytest.raises(ModelError, match="unknown atom r"):
        SymbolicModel(vocabulary, vocabulary.true, {"a": ["r"]})



def test_a_symbolic_deal_counts_and_lists_its_classes_as_the_explicit_deal_does():
    """What a picture asks of a deal too big to list (``kripke.parts.ClassCounts``), asked of
    both backends alike: each agent's class sizes (keyed by hand), inside the actual class of
    other agents, only where a formula holds; a part's size; a small part listed with the
    worlds' ids, labels, actual world and the formula's values; the classes as dealt. The
    symbolic deal answers from diagrams, the explicit one from its arrays, and the answers are
    the same; the explicit arrays are also checked against counting them by hand."""
    cards, sizes, actual = list(range(10)), [3, 3, 2], [[0, 1, 2], [3, 4, 5], [6, 7]]
    explicit, symbolic = deal_model(cards, sizes, actual), symbolic_deal(cards, sizes, actual)
    dealt = explicit
    for said in ["p(1,3) | p(1,8)", "~p(0,9)", "K_2 ~p(0,4) | p(2,7)"]:
        explicit, symbolic = explicit.announce(said), symbolic.announce(said)
    phi = "M_1 p(0,1)"
    values, where = explicit.evaluate(phi), symbolic.extension(phi)
    parts = [{}] + [{b: explicit.class_key(b)} for b in range(3)] + \
        [{b: explicit.class_key(b), c: explicit.class_key(c)} for b in range(3)
         for c in range(3) if c != b]
    for a in range(3):
        n_keys = symbolic.n_keys(a)
        assert n_keys == comb(10, sizes[a])
        assert symbolic.class_key(a) == explicit.class_key(a) == \
            int(explicit.observation(a)[explicit.actual])
        assert symbolic.hand(a, symbolic.class_key(a)) == tuple(actual[a])
        for fixed in parts:
            if a in fixed:
                continue
            cell = np.arange(explicit.n_worlds)
            for b, key in fixed.items():
                cell = cell[explicit.observation(b)[cell] == key]
            keys = explicit.observation(a)[cell]
            for model in (explicit, symbolic):
                assert model.part_size(fixed) == cell.size
                assert model.class_sizes(a, fixed=fixed).tolist() == \
                    np.bincount(keys, minlength=n_keys).tolist()
            assert symbolic.class_sizes(a, where, fixed).tolist() == \
                explicit.class_sizes(a, values, fixed).tolist() == \
                np.bincount(keys[values[cell]], minlength=n_keys).tolist()
            assert symbolic.dealt_classes(a, fixed) == explicit.dealt_classes(a, fixed) == {
                int(k): int(n) for k, n in enumerate(dealt.class_sizes(a, fixed=fixed)) if n}
            if not fixed:
                continue
            for model, v in ((explicit, values), (symbolic, where)):
                part = model.listed(fixed)
                assert part.world_ids.tolist() == explicit.world_ids[cell].tolist()
                assert part.actual is not None
                assert part.world_id(part.actual) == explicit.world_id(explicit.actual)
                assert model.listed_values(v, fixed).tolist() == values[cell].tolist()
                assert [part.world_label(w) for w in range(part.n_worlds)] == \
                    [explicit.world_label(int(w)) for w in cell]
    with pytest.raises(ModelTooLargeError, match="to list"):
        symbolic.listed({}, max_worlds=10)


@settings(max_examples=60, deadline=None)
@given(formulas(max_leaves=6, atoms=DEAL_ATOMS, agents=(0, 1, 2)),
       formulas(max_leaves=4, atoms=DEAL_ATOMS, agents=(0, 1, 2)))
def test_a_formulas_value_is_counted_read_restricted_and_explained_by_the_model_that_gave_it(
        phi, psi):
    """The neutral interface: whichever backend holds the deal, the caller evaluates once and
    hands the value back to count it, read it at the actual world, announce it and explain
    it; the answers and the explanation (world ids are deal indices on both) are the same,
    also after an announcement and after a restriction to a value."""
    e, s = EXPLICIT_DEAL, SYMBOLIC_DEAL
    if e.holds(psi):  # explained after an announcement too, as in a game
        e, s = e.announce(psi), s.announce(psi)
    for model in (e, s):
        values = model.values(phi)
        assert model.count_values(values) == e.count(phi)
        assert model.actual_value(values) == e.holds(phi)
        assert model.restrict(values).n_worlds == e.count(phi)
        assert model.explain(phi, values) == e.explain(phi) == explain(e, phi)
    if e.holds(phi):  # narrowed by a value, not a formula: the list reads it off the diagram
        e, s = e.restrict(e.values(phi)), s.restrict(s.values(phi))
        assert s.explain(phi) == e.explain(phi) and s.as_list().n_worlds == e.n_worlds


def test_a_value_is_read_only_by_its_own_kind_of_model():
    e, s = EXPLICIT_DEAL, SYMBOLIC_DEAL
    with pytest.raises(ModelError, match="no diagram"):
        s.count_values(e.values("p(0,0)"))
    with pytest.raises(ModelError, match="not a value per world"):
        e.actual_value(s.values("p(0,0)"))
    with pytest.raises(ModelError, match="no choice of worlds"):
        e.restrict(s.values("p(0,0)"))


def test_a_knowledge_structure_explains_in_its_states_listed():
    """A structure that is no deal lists its states (as ``to_explicit``) to explain."""
    model = to_symbolic(deal_model(range(4), [2, 2], [[0, 1], [2, 3]]))
    listed = to_explicit(model)
    formula = parse("K_0 p(0,0) & ~K_1 p(0,1)")
    assert model.explain(formula) == explain(listed, formula)
    assert model.explain(formula).value == listed.holds(formula)
