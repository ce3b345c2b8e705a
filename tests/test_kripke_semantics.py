"""The fast checker against the textbook semantics, and S5 validities, on random small models."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st
from kripke_strategies import AGENTS, announcement_formulas, formulas, groups, models

from kripke import (
    And,
    Announce,
    AnnounceDual,
    Atom,
    Common,
    Distributed,
    Everyone,
    Iff,
    Implies,
    Knows,
    KripkeModel,
    Not,
    Or,
    Possible,
    deal_model,
)
from kripke.reference import Structure

agents = st.sampled_from(AGENTS)


def valid(model, formula) -> bool:
    """True at every world of the model."""
    return bool(model.evaluate(formula).all())


@settings(max_examples=400, deadline=None)
@given(models(), formulas())
def test_fast_checker_agrees_with_the_reference_semantics(model, formula):
    assert model.evaluate(formula).tolist() == Structure.of(model).values(formula)


@settings(max_examples=200, deadline=None)
@given(models(max_worlds=8), announcement_formulas())
def test_fast_checker_agrees_on_nested_and_repeated_announcements(model, formula):
    """The same few formulas announced in turn, again, and inside each other."""
    assert model.evaluate(formula).tolist() == Structure.of(model).values(formula)


@settings(max_examples=200, deadline=None)
@given(models(), formulas(atoms=(Atom("s"), Atom("t"), Atom("p"))))
def test_fast_checker_agrees_on_formulas_about_what_one_agent_sees(model, formula):
    """s and t are observed by agent 0: Boolean combinations of them take the table path."""
    assert model.evaluate(formula).tolist() == Structure.of(model).values(formula)


SMALL_DEAL = deal_model(range(6), [2, 2, 2], [[0, 3], [1, 4], [2, 5]])
DEAL_ATOMS = tuple(Atom("p", (i, c)) for i in range(3) for c in (0, 1, 3))


@settings(max_examples=60, deadline=None)
@given(formulas(max_leaves=6, atoms=DEAL_ATOMS, agents=(0, 1, 2)),
       st.integers(0, SMALL_DEAL.n_worlds - 1))
def test_fast_checker_agrees_on_a_deal_model(formula, actual):
    """The deal's atoms are tables over hand ranks: the game's case, held to the reference."""
    model = SMALL_DEAL.restrict(np.arange(SMALL_DEAL.n_worlds) != actual)
    for m in (SMALL_DEAL, model):
        assert m.evaluate(formula).tolist() == Structure.of(m).values(formula)


@settings(max_examples=100, deadline=None)
@given(models(), formulas(), agents)
def test_user_queries_agree_with_evaluate(model, formula, agent):
    w = model.actual
    assert model.holds(formula) == bool(model.evaluate(formula)[w])
    assert model.knows(agent, formula) == model.holds(Knows(agent, formula))
    assert model.knows_whether(agent, formula) == (
        model.holds(Knows(agent, formula)) or model.holds(Knows(agent, Not(formula)))
    )


@settings(max_examples=150, deadline=None)
@given(models(), formulas(max_leaves=6), agents)
def test_knowledge_is_s5(model, phi, a):
    assert valid(model, Implies(Knows(a, phi), phi))  # T: knowledge is true
    assert valid(model, Implies(Knows(a, phi), Knows(a, Knows(a, phi))))  # 4: positive intro.
    assert valid(model, Implies(Not(Knows(a, phi)), Knows(a, Not(Knows(a, phi)))))  # 5
    assert valid(model, Iff(Possible(a, phi), Not(Knows(a, Not(phi)))))  # duality


@settings(max_examples=150, deadline=None)
@given(models(), formulas(max_leaves=6), formulas(max_leaves=6), agents)
def test_k_axiom_and_necessitation(model, phi, psi, a):
    assert valid(model, Implies(And(Knows(a, Implies(phi, psi)), Knows(a, phi)), Knows(a, psi)))
    if valid(model, phi):
        assert valid(model, Knows(a, phi))


@settings(max_examples=150, deadline=None)
@given(models(), formulas(max_leaves=6), groups())
def test_group_knowledge(model, phi, group):
    members = AGENTS if group is None else group
    assert valid(model, Implies(Common(group, phi), Everyone(group, phi)))
    assert valid(model, Implies(Common(group, phi), Everyone(group, Common(group, phi))))
    assert valid(model, Iff(Everyone(group, phi), And.of([Knows(a, phi) for a in members])))
    for a in members:
        assert valid(model, Implies(Knows(a, phi), Distributed(group, phi)))
    assert valid(model, Implies(Distributed(group, phi), phi))


@settings(max_examples=150, deadline=None)
@given(models(), formulas(max_leaves=4), formulas(max_leaves=4), agents)
def test_announcement_reduction_axioms(model, phi, psi, a):
    p = Atom("p")
    assert valid(model, Iff(Announce(phi, p), Implies(phi, p)))
    assert valid(model, Iff(Announce(phi, Not(psi)), Implies(phi, Not(Announce(phi, psi)))))
    assert valid(model, Iff(Announce(phi, And(psi, p)), And(Announce(phi, psi), Announce(phi, p))))
    assert valid(model, Iff(Announce(phi, Knows(a, psi)),
                            Implies(phi, Knows(a, Announce(phi, psi)))))
    assert valid(model, Iff(AnnounceDual(phi, psi), And(phi, Announce(phi, psi))))


@settings(max_examples=100, deadline=None)
@given(models(), formulas(max_leaves=6), formulas(max_leaves=6))
def test_announce_keeps_exactly_the_worlds_where_the_formula_held(model, phi, psi):
    values = model.evaluate(phi)
    if not values[model.actual]:
        return
    after = model.announce(phi)
    assert after.world_ids.tolist() == model.world_ids[values].tolist()
    # [!φ]ψ at the actual world is ψ's value in the updated model.
    assert model.holds(Announce(phi, psi)) == after.holds(psi)


def test_boolean_tables_of_one_agents_atoms_exhaustively():
    """Every connective over two atoms agent a observes, on all four value combinations."""
    model = KripkeModel(
        {"p": [True, False, True, False]},
        {"a": [0, 1, 2, 3], "b": [0, 0, 1, 1]},
        actual=0,
        observed_atoms={"s": ("a", [True, True, False, False]),
                        "t": ("a", [True, False, True, False])},
    )
    s, t = Atom("s"), Atom("t")
    literals = [s, t, Not(s), Not(t)]
    for x in literals:
        for y in literals:
            for formula in (And(x, y), Or(x, y), Implies(x, y), Iff(x, y), And(x, y, Not(x)),
                            Or(x, y, Atom("p")), Knows("b", Implies(x, y))):
                assert model.evaluate(formula).tolist() == Structure.of(model).values(formula)


def test_large_key_spaces_take_the_sorting_path_and_agree():
    """Keys spread over thousands of classes make the pair tables of D and C too big to be
    dense; the sorting path must give what a direct grouping of the worlds gives."""
    rng = np.random.default_rng(7)
    n = 3000
    keys = {a: rng.integers(0, 4 * n, n) for a in ("a", "b", "c")}
    keys["c"] = keys["a"] // 3  # so that classes chain together and C is not trivial
    values = rng.random(n) < 0.9
    model = KripkeModel({"p": values}, keys, actual=0)
    assert min(model.n_keys(i) for i in range(2)) ** 2 > 1 << 24  # past the dense limit

    def grouped(labels):
        """□p over the partition whose cells are the worlds with equal labels."""
        bad = {label for label, v in zip(labels, values, strict=True) if not v}
        return [label not in bad for label in labels]

    # For D, few classes each but keys up to 4n: pairs of classes do repeat.
    few = {a: rng.integers(0, 40, n) for a in ("a", "b")}
    for agent_keys in few.values():
        agent_keys[-1] = 4 * n - 1
    sparse = KripkeModel({"p": values}, few, actual=0)
    joint = list(zip(few["a"].tolist(), few["b"].tolist(), strict=True))
    distributed = sparse.evaluate("D_{a,b} p").tolist()
    assert distributed == grouped(joint)
    assert 0 < sum(distributed) < sum(values)  # neither nothing known nor just p itself

    parent = list(range(n))  # union-find over worlds linked by any agent's key

    def find(x):
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    for agent_keys in keys.values():
        first_with: dict[int, int] = {}
        for w, k in enumerate(agent_keys.tolist()):
            parent[find(w)] = find(first_with.setdefault(k, w))
    common = model.evaluate("C p").tolist()
    assert common == grouped([find(w) for w in range(n)])
    assert 0 < sum(common) < sum(values)
