"""Building formulas in code: n-ary helpers, operators, normalised atoms, agents and groups."""

from __future__ import annotations

import dataclasses

import pytest

from kripke import (
    And,
    Atom,
    Bottom,
    Common,
    Everyone,
    Implies,
    Knows,
    Not,
    Or,
    Possible,
    Top,
    knows_whether,
    parse,
)

p, q, r = Atom("p"), Atom("q"), Atom("r")


def test_n_ary_helpers_have_the_right_units():
    assert Or.of([]) == Bottom()
    assert And.of([]) == Top()
    assert Or.of([p]) == p and And.of([p]) == p
    assert Or.of(a for a in (p, q, r)) == Or(p, q, r)
    assert str(Or.of([Atom("p", (1, t)) for t in (4, 5)])) == "p(1,4) | p(1,5)"
    with pytest.raises(ValueError, match="use And.of"):
        And(p)


def test_python_operators_build_formulas():
    assert ~p == Not(p)
    assert p & q == And(p, q)
    assert p | q == Or(p, q)
    assert p >> q == Implies(p, q)


def test_atoms_are_normalised_so_text_and_code_agree():
    assert Atom("p(0,12)") == Atom("p", (0, 12)) == parse("p(0,12)")
    assert Atom("p", ("3", "x")) == Atom("p", (3, "x"))
    assert hash(Atom("p(0,12)")) == hash(Atom("p", (0, 12)))
    for bad in ["", "1p", "p q", "p(", "p(-1)", "p(a b)"]:
        with pytest.raises(ValueError):
            Atom(bad)


def test_agents_are_identifiers_or_non_negative_integers():
    assert Knows("0", p) == Knows(0, p)
    assert Possible("alice", p).agent == "alice"
    for bad in [-1, "a b", "", 1.5, True]:
        with pytest.raises((ValueError, TypeError)):
            Knows(bad, p)


def test_groups_are_sets():
    assert Common([2, 0, 0], p) == Common((0, 2), p)
    assert Common("a", p) == Common(("a",), p)
    assert Everyone(None, p).group is None
    with pytest.raises(ValueError, match="at least one agent"):
        Common([], p)


def test_formulas_are_frozen_and_hashable():
    formula = Knows(0, Or(p, q))
    with pytest.raises(dataclasses.FrozenInstanceError):
        formula.agent = 1
    assert {formula: 1}[Knows(0, Or(p, q))] == 1


def test_atoms_of_a_formula():
    assert parse("K_a (p | q(1)) -> [!r]p").atoms() == {p, Atom("q", (1,)), r}
    assert Top().atoms() == frozenset()


def test_knows_whether_is_the_usual_abbreviation():
    assert knows_whether("a", p) == parse("K_a p | K_a ~p")
