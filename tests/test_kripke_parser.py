"""Parsing textbook syntax, printing that parses back, and errors that point at the problem."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from kripke_strategies import formulas

from kripke import (
    And,
    Announce,
    AnnounceDual,
    Atom,
    Bottom,
    Common,
    Distributed,
    Everyone,
    FormulaError,
    Iff,
    Implies,
    Knows,
    Not,
    Or,
    Possible,
    Top,
    parse,
)
from kripke.errors import TextError

p, q, r = Atom("p"), Atom("q"), Atom("r")


@settings(max_examples=300, deadline=None)
@given(formulas(max_leaves=16))
def test_ascii_printing_parses_back_to_the_same_formula(formula):
    assert parse(str(formula)) == formula


@settings(max_examples=300, deadline=None)
@given(formulas(max_leaves=16))
def test_unicode_printing_parses_back_to_the_same_formula(formula):
    assert parse(formula.unicode()) == formula


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("p(0,12)", Atom("p", (0, 12))),
        ("p( 0 , 12 )", Atom("p", (0, 12))),
        ("hand(alice,x3)", Atom("hand", ("alice", "x3"))),
        ("m3", Atom("m3")),
        ("rain", Atom("rain")),
        ("K_0 p(1,5)", Knows(0, Atom("p", (1, 5)))),
        ("K_alice rain", Knows("alice", Atom("rain"))),
        ("M_bob rain", Possible("bob", Atom("rain"))),
        ("K_{7} p", Knows(7, p)),
        ("C_{0,1,2} p", Common((0, 1, 2), p)),
        ("C_{2,0,1} p", Common((0, 1, 2), p)),
        ("E_a p", Everyone(("a",), p)),
        ("D_{a,0} p", Distributed((0, "a"), p)),
        ("C p", Common(None, p)),
        ("E p", Everyone(None, p)),
        ("D p", Distributed(None, p)),
        ("[!p]q", Announce(p, q)),
        ("[ ! p & q ] K_a r", Announce(And(p, q), Knows("a", r))),
        ("<!p>q", AnnounceDual(p, q)),
        ("⟨!p⟩q", AnnounceDual(p, q)),
        ("<!p -> q>r", AnnounceDual(Implies(p, q), r)),
        ("true & false", And(Top(), Bottom())),
        ("⊤ ∨ ⊥", Or(Top(), Bottom())),
        ("Kate", Atom("Kate")),
    ],
)
def test_textbook_syntax(text, expected):
    assert parse(text) == expected


@pytest.mark.parametrize(
    ("spellings", "expected"),
    [
        (["~p", "¬p", "!p", "not p"], Not(p)),
        (["p & q", "p ∧ q", "p /\\ q", "p and q"], And(p, q)),
        (["p | q", "p ∨ q", "p \\/ q", "p or q"], Or(p, q)),
        (["p -> q", "p → q", "p => q"], Implies(p, q)),
        (["p <-> q", "p ↔ q", "p <=> q"], Iff(p, q)),
    ],
)
def test_ascii_unicode_and_word_spellings_agree(spellings, expected):
    assert all(parse(s) == expected for s in spellings)


def test_precedence_and_grouping():
    assert parse("~p & q") == And(Not(p), q)
    assert parse("p & q | r") == Or(And(p, q), r)
    assert parse("p | q & r") == Or(p, And(q, r))
    assert parse("p -> q -> r") == Implies(p, Implies(q, r))
    assert parse("p <-> q -> r") == Iff(p, Implies(q, r))
    assert parse("K_a p & q") == And(Knows("a", p), q)
    assert parse("K_a (p & q)") == Knows("a", And(p, q))
    assert parse("[!p]q & r") == And(Announce(p, q), r)
    assert parse("p & q & r") == And(p, q, r)
    assert parse("(p & q) & r") == And(And(p, q), r)
    assert str(And(And(p, q), r)) == "(p & q) & r"
    assert str(Implies(Implies(p, q), r)) == "(p -> q) -> r"


def test_printing_is_readable():
    formula = Implies(Knows(0, Or(Atom("p", (1, 5)), Not(Atom("rain")))), Common((0, 1), r))
    assert str(formula) == "K_0 (p(1,5) | ~rain) -> C_{0,1} r"
    assert formula.unicode() == "K_0 (p(1,5) ∨ ¬rain) → C_{0,1} r"
    assert str(AnnounceDual(p, Everyone(None, q))) == "<!p>E q"
    assert str(Announce(And(p, q), Distributed(("a",), q))) == "[!p & q]D_a q"


@pytest.mark.parametrize(
    ("text", "column", "message"),
    [
        ("p & q &", 8, "expected a formula after '&', found end of input"),
        ("", 1, "expected a formula, found end of input"),
        ("p & (q", 7, "expected ')', found end of input"),
        ("p q", 3, "expected an operator or end of input, found 'q'"),
        ("K p", 2, "expected '_' and an agent after 'K'"),
        ("K_a", 4, "expected a formula after 'K_a', found end of input"),
        ("[p]q", 2, "expected '!' after '[', found 'p'"),
        ("[!p q", 5, "expected ']', found 'q'"),
        ("<!p q", 5, "expected '>', found 'q'"),
        ("C_{} p", 4, "expected an agent after '{', found '}'"),
        ("C_{a,} p", 6, "expected an agent after ',', found '}'"),
        ("p(0,", 5, "expected an identifier or a number after ',', found end of input"),
        ("p -> ", 5, "expected a formula after '->', found end of input"),
        ("p | & q", 5, "expected a formula after '|', found '&'"),
        ("~", 2, "expected a formula after '~', found end of input"),
        ("p @ q", 3, "unexpected character '@'"),
        ("(p))", 4, "expected an operator or end of input, found ')'"),
        ("true(1)", 5, "expected an operator or end of input, found '('"),
        ("K", 2, "expected '_' and an agent after 'K'"),
    ],
)
def test_errors_name_the_line_column_what_was_expected_and_the_fix(text, column, message):
    """As a file's errors do: line and column, 1-based, the problem and the fix (the
    formula typed alone is shown under it with a caret at the column)."""
    with pytest.raises(FormulaError) as caught:
        parse(text)
    error = caught.value
    assert isinstance(error, TextError)
    assert (error.line, error.column) == (1, column)
    assert error.problem == message and error.fix
    assert str(error).splitlines() == [f"line 1, column {column}: {message}; {error.fix}",
                                       f"  {text}", "  " + " " * (column - 1) + "^"]


def test_parsing_never_evaluates_python():
    with pytest.raises(FormulaError):
        parse("__import__('os').system('true')")
    with pytest.raises(FormulaError):
        parse("p; import os")


@pytest.mark.parametrize("name", ["K", "M", "E", "C", "D", "true", "not", "K_a", "C_x"])
def test_operator_words_cannot_name_atoms(name):
    with pytest.raises(ValueError, match="not a valid atom name"):
        Atom(name)


def test_absurdly_deep_nesting_is_a_formula_error_too():
    with pytest.raises(FormulaError, match="nested too deeply"):
        parse("~" * 100_000 + "p")


@pytest.mark.parametrize(("text", "same_as"), [
    ("K₀ p", "K_0 p"), ("Kₐ p", "K_a p"), ("M₁₂ p", "M_12 p"), ("C₀ (p | q)", "C_0 (p | q)"),
    ("¬K₁ p ∧ E₂ q", "~K_1 p & E_2 q"),
])
def test_subscripts_as_textbooks_print_them(text, same_as):
    assert parse(text) == parse(same_as)


def test_a_group_written_as_letters_is_those_agents_unless_one_agent_has_that_name():
    from kripke import KripkeModel

    model = KripkeModel.from_worlds([{"p"}, set()], {"a": [0, 1], "b": [0, 0], "ab": [0, 1]},
                                    actual=0)
    # "ab" is an agent here, so C_{ab} is about it alone (it can tell the worlds apart) ...
    assert model.holds("C_{ab} p")
    plain = KripkeModel.from_worlds([{"p"}, set()], {"a": [0, 1], "b": [0, 0]}, actual=0)
    # ... while with agents a and b only, C_{ab} is C_{a,b}: b cannot tell the worlds apart.
    assert plain.holds("C_{ab} p") == plain.holds("C_{a,b} p") is False
    assert plain.holds("K_a p")
    with pytest.raises(ValueError, match="unknown agent 'ac'"):
        plain.holds("C_{ac} p")


def test_an_error_in_a_huge_input_shows_only_the_part_around_the_column():
    text = "p & " * 2000 + ")"
    with pytest.raises(FormulaError) as caught:
        parse(text)
    shown = str(caught.value).splitlines()
    assert shown[0].startswith("line 1, column 8001: expected a formula after '&', found ')'; ")
    assert len(shown[1]) < 80 and shown[1].strip().startswith("…")
    assert shown[2].index("^") == shown[1].index(")")  # the caret under the culprit
    deep = "~" * 5000
    with pytest.raises(FormulaError) as caught:
        parse(deep)
    assert all(len(line) < 80 for line in str(caught.value).splitlines()[1:])


def test_belief_and_groups_are_printed_as_typed_and_mean_what_they_meant():
    """A group is a set: the same formula (equal, one cache entry, one value), printed back in
    the order typed; B_a is an operator of its own (on a plausibility model the most plausible
    worlds), which means K_a on a model without an order, printed back as B_a, in ASCII and in
    the textbook's notation."""
    common = parse("C_{sally,anne} basket")
    assert str(common) == "C_{sally,anne} basket" and common == parse("C_{anne,sally} basket")
    typed = parse("B_sally basket & K_anne B_{sally} ~box")
    assert str(typed) == "B_sally basket & K_anne B_sally ~box"
    assert typed.unicode() == "B_sally basket ∧ K_anne B_sally ¬box"
    assert parse(str(typed)) == typed and str(parse(str(typed))) == str(typed)
    from kripke.files.modelfile import parse_model, starter_models
    sally = parse_model(starter_models()["sally-anne"])
    known = parse("K_sally basket & K_anne K_sally ~box")
    assert (sally.values(typed) == sally.values(known)).all()
