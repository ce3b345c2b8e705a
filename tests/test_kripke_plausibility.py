"""Plausibility models and belief revision, held to the definitions.

The fast model (:mod:`kripke.explicit.plausibility`: ranks per world, vectorised) against the
plain reference (:mod:`kripke.reference`: orders as sets of pairs, Baltag and Smets'
definitions world by world) on random models, orders, formulas, upgrades and ordered event
models; then what a user sees: the syntax, a flat model's belief, the errors.
"""

from __future__ import annotations

import json
from importlib import resources

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from app.cli.main import main
from app.worlds.tikz import to_tikz
from kripke import load_model
from kripke.events.model import Event, EventModel
from kripke.explicit.model import KripkeModel
from kripke.explicit.plausibility import (
    PlausibilityModel,
    RankedEvents,
    dense,
    rank_shift,
    upgrade,
)
from kripke.files.eventfile import load_event_model, parse_event_model
from kripke.files.exchange import to_json
from kripke.files.modelfile import dump_model, parse_model, starter_models
from kripke.language.formula import (
    Atom,
    BelievedPossible,
    Believes,
    Not,
    SafeBelief,
    SafePossible,
)
from kripke.language.parser import parse
from kripke.puzzles.gallery import bluff, red_bird, whisper
from kripke.reference import Structure
from kripke.symbolic.translate import to_symbolic
from tests.kripke_strategies import (
    AGENTS,
    ATOMS,
    formulas,
    plausibility_formulas,
    plausibility_models,
    ranked_events,
)

AGENT = st.sampled_from(AGENTS)
MODELS = resources.files("kripke") / "models"
ALICE = str(MODELS / "alice-bob.kripke")


def order_of(model: PlausibilityModel) -> dict[str, frozenset[tuple[int, int]]]:
    """The fast model's order as the reference writes one: pairs u ≤ v within a class."""
    return Structure.of(model).order or {}


@settings(max_examples=150, deadline=None)
@given(plausibility_models(), plausibility_formulas())
def test_every_operator_agrees_with_the_definitions(model, formula):
    assert model.evaluate(formula).tolist() == Structure.of(model).values(formula)


@settings(max_examples=100, deadline=None)
@given(plausibility_formulas())
def test_a_formula_prints_and_parses_back(formula):
    assert parse(str(formula)) == formula
    assert parse(formula.unicode()) == formula


@settings(max_examples=100, deadline=None)
@given(plausibility_models(), st.lists(st.tuples(st.sampled_from(["radical", "conservative"]),
                                                 plausibility_formulas(max_leaves=3)),
                                       min_size=1, max_size=3))
def test_upgrades_one_after_another_agree_with_the_definitions(model, changes):
    """Each upgrade of a random sequence (its formula may speak of belief) against the
    definitions applied to the model before it."""
    for kind, formula in changes:
        upgraded = model.update(upgrade(kind, formula))
        assert order_of(upgraded) == Structure.of(model).upgrade(kind, formula).order
        assert upgraded.world_ids.tolist() == model.world_ids.tolist()  # the worlds stay
        model = upgraded


@settings(max_examples=100, deadline=None)
@given(plausibility_models(), ranked_events(), plausibility_formulas(max_leaves=4))
def test_the_priority_update_agrees_with_the_definitions(model, events, formula):
    possible = [model.holds(e.precondition) for e in events.events]
    events = events.at(events.names[possible.index(True)]) if any(possible) else events
    if not any(possible):
        return  # nothing can happen at the actual world: refused, tested below
    product = model.update(events)
    reference, pairs = Structure.of(model).update(events)
    # the fast product lists the pairs world by world, as the reference numbers them
    assert order_of(product) == reference.order
    assert len(pairs) == product.n_worlds
    assert product.evaluate(formula).tolist() == reference.values(formula)


@settings(max_examples=60, deadline=None)
@given(plausibility_models(), formulas(max_leaves=4))
def test_a_radical_upgrade_is_the_priority_update_with_two_ordered_events(model, formula):
    """Baltag and Smets: ⇑φ is the product with the events φ and ¬φ, alike to everyone, the
    φ event strictly more plausible for every agent."""
    yes, no = Event("yes", formula), Event("no", Not(formula))
    actual = "yes" if model.holds(formula) else "no"
    events = RankedEvents((yes, no), (), actual, ranks=tuple((a, (0, 1)) for a in AGENTS))
    upgraded = model.update(upgrade("radical", formula))
    assert order_of(model.update(events)) == order_of(upgraded)


def test_without_an_order_belief_is_knowledge_on_every_model():
    """A flat order: B_a is K_a, B_a[ψ] φ is K_a (ψ → φ), Sb_a is K_a, on the S5 model (which
    reads them as the operators they subclass) and on the plausibility model alike."""
    model = KripkeModel.from_worlds([{"p", "q"}, {"p"}, {"q"}, set()],
                                    {"a": [0, 0, 1, 1], "b": [0, 1, 0, 1]}, actual=0)
    flat = PlausibilityModel.of(model)
    for text, same in [("B_a p", "K_a p"), ("B_a[q] p", "K_a (q -> p)"), ("Sb_b q", "K_b q"),
                       ("<B_a>~q", "M_a ~q"), ("<B_b[p]>~q", "M_b (p & ~q)")]:
        assert model.evaluate(text).tolist() == model.evaluate(same).tolist()
        assert flat.evaluate(text).tolist() == model.evaluate(same).tolist()
    assert flat.is_flat()


def test_belief_and_knowledge_come_apart_with_an_order():
    """Two worlds alice cannot tell apart, the p-world more plausible, actual the other:
    she believes p, wrongly, knows nothing of it; her belief is not safe at the actual world
    (a world at least as plausible, the p-world, has p... and the actual one has not)."""
    model = PlausibilityModel.of(
        KripkeModel.from_worlds([{"p"}, set()], {"alice": [0, 0]}, actual=1),
        {"alice": [0, 1]})
    assert model.holds("B_alice p & ~p & ~K_alice p & ~Sb_alice p")
    assert model.holds("Sb_alice p", world=0) and model.holds("B_alice[~p] ~p")
    assert model.best("alice").tolist() == [0]


def test_ranks_become_levels_within_each_class():
    keys = np.array([0, 0, 0, 1, 1])
    assert dense(keys, np.array([5, 2, 5, 7, 7])).tolist() == [1, 0, 1, 0, 0]
    assert rank_shift(np.array([0, 1, 0]), np.array([True, False, False])).tolist() == [0, 2, 1]


def test_the_rank_shift_keeps_counts_and_moves_belief():
    """Spohn's step as the open game takes it: the worlds leaving a claim unexplained drop one
    rank each time; belief follows the fewest unexplained claims."""
    model = PlausibilityModel.of(
        KripkeModel.from_worlds([{"h"}, {"k"}, set()], {"b": [0, 0, 0]}, actual=0))
    once = model.update(upgrade("shift", parse("h | k")))
    twice = once.update(upgrade("shift", Atom("k")))
    assert once.ranks("b").tolist() == [0, 0, 1] and twice.ranks("b").tolist() == [1, 0, 2]
    assert twice.holds("B_b k & ~k & B_b[~k] h")


def test_an_ordered_event_model_needs_its_ranks_right():
    with pytest.raises(ValueError, match="a rank of 0 or more for each of the 2 events"):
        RankedEvents((Event("e", Atom("p")), Event("f", Atom("q"))), (), "e",
                     ranks=(("a", (0,)),))
    with pytest.raises(ValueError, match="no upgrade called 'sideways'"):
        upgrade("sideways", Atom("p"))


def test_an_event_with_arrows_is_refused_on_a_plausibility_model():
    model = PlausibilityModel.of(KripkeModel.from_worlds([{"p"}], {"a": [0]}, actual=0))
    events = EventModel.of({"e": "p"}, {}, actual="e", arrows={"a": [("e", "e")]})
    with pytest.raises(ValueError, match="classes, not arrows"):
        model.update(events)


def test_atoms_of_the_strategies_are_all_readable():
    """The random models' atoms (tables, lazy ones) are all kept by the conversion."""
    model = KripkeModel.from_worlds([{"p"}], {"a": [0]}, actual=0, atoms=ATOMS[:3])
    assert set(PlausibilityModel.of(model).atoms) == set(model.atoms)


# --- the text, JSON and the command line ------------------------------------------------------

ORDERED = """agents: a b
world w1: p
world w2:
world w3: p
a: {w1 w2 w3}
b:
a ranks: w2 < w1 = w3   # w2 the most plausible
actual: w1
"""


def test_an_order_in_the_text_is_read_and_written_back():
    model = parse_model(ORDERED)
    assert model.ranks("a").tolist() == [1, 0, 1]
    assert model.holds("B_a ~p & p & B_a[p] p & ~Sb_a ~p")
    text = dump_model(model)
    assert "a ranks: w2 < w1 = w3\n" in text
    again = parse_model(text)
    assert again.ranks("a").tolist() == [1, 0, 1] and again.world_name(1) == "w2"


def test_an_order_goes_through_json_and_back():
    model = parse_model(ORDERED)
    again = load_model(json.dumps(to_json(model)))
    assert again.ranks("a").tolist() == [1, 0, 1]
    assert [again.world_name(i) for i in range(3)] == ["w1", "w2", "w3"]
    data = to_json(model)
    data["ranks"] = [[0, "1", 0], [0, 0, 0]]
    with pytest.raises(ValueError, match=r'ranks\[0\]: must be a list of 3 whole numbers'):
        load_model(json.dumps(data))


@pytest.mark.parametrize(("line", "message"), [
    ("a ranks: w2 < w1", "line 7, column 17: a's order leaves out w3 of the same class"),
    ("a ranks: w2 w1 w3", "line 7, column 13: nothing between w2 and w1; put '<' (less "
                           "plausible after) or '='"),
    ("a ranks: w1 > w2 = w3", "line 7, column 13: an order is written most plausible first"),
    ("a ranks: w1 < w2 <", "line 7, column 19: expected a world after '<'"),
    ("a ranks: w1 < w2 < w1", "line 7, column 20: world w1 is ranked twice for a"),
    ("a ranks: w1 < w9", "line 7, column 15: unknown world 'w9' in a's order"),
    ("c ranks: w1", "line 7, column 1: unknown agent 'c'"),
    ("b ranks: w1 < w2", "line 7, column 15: w2 is not in b's class of w1"),
])
def test_a_wrong_order_is_refused_at_its_line_and_column_with_the_fix(line, message):
    with pytest.raises(ValueError) as error:
        parse_model(ORDERED.replace("a ranks: w2 < w1 = w3   # w2 the most plausible", line))
    assert str(error.value).startswith(message)


def test_an_order_on_the_events_is_read_and_written_back():
    text = ("event honest: pre p\nevent bluff: pre ~p\nalice ranks: honest < bluff\n"
            "actual: honest\n")
    events = parse_event_model(text)
    assert isinstance(events, RankedEvents) and events.ranks == (("alice", (0, 1)),)
    assert parse_event_model(str(events)) == events
    with pytest.raises(ValueError, match="line 1, column 1: alice's order leaves out bluff"):
        parse_event_model("alice ranks: honest\nevent honest: pre p\nevent bluff: pre ~p\n"
                          "actual: honest\n")


def test_the_cli_revises_a_belief_with_one_liners(capsys):
    """alice-bob: alice sees p, not q. Told softly that ~q, she believes ~q (falsely: w1 has
    q); a conservative upgrade with q puts the best q-world back on top."""
    assert main(["model", ALICE, "--event", "radical:~q", "--check", "B_alice ~q & q",
                 "--event", "conservative:q", "--check", "B_alice q"]) == 0
    out = capsys.readouterr().out
    assert "event radical:~q: 4 worlds (were 4)\n  alice: ⇑¬q; bob: ⇑¬q" in out
    assert "alice ranks: w1 < w2\nalice ranks: w3 < w4\n" in out  # the model after
    assert out.count("belief B_a from each agent's plausibility order") == 1  # after only


@pytest.mark.parametrize(("event", "message"), [
    ("radical:", "'radical:': write radical:F (soft information F"),
    ("radical:p &", "in 'radical:p &': expected a formula after '&'"),
    ("conservative:zz", "unknown atom zz"),
])
def test_a_wrong_upgrade_is_one_line_and_exit_2(capsys, event, message):
    assert main(["model", ALICE, "--event", event]) == 2
    captured = capsys.readouterr()
    assert captured.out == "" and captured.err.count("\n") == 1 and message in captured.err


def test_an_upgrade_of_a_model_with_arrows_is_refused_in_one_line(capsys):
    assert main(["model", str(MODELS / "sally-anne.kripke"), "--event", "radical:basket"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "this model has arrows (a belief model)" in err


# --- the stories, with verdicts worked by hand ------------------------------------------------

def test_the_red_bird_keeps_red_under_radical_and_forgets_it_under_conservative_upgrades():
    """Darwiche and Pearl's red bird. Worlds br, b¬r, ¬br (actual), ¬b¬r, all as plausible.
    Radical: ⇑bird gives {br, b¬r} < {¬br, ¬b¬r}; ⇑red gives br < ¬br < b¬r < ¬b¬r; ⇑¬bird
    gives ¬br < ¬b¬r < br < b¬r: you believe red. Conservative: ↑bird as ⇑bird; ↑red puts br
    alone on top, br < b¬r < {¬br, ¬b¬r}; ↑¬bird puts both not-bird worlds on top, tied:
    neither red nor ¬red believed. Hard information could not tell this story: !bird is
    false at the actual world."""
    radical, conservative = red_bird("radical"), red_bird("conservative")
    levels = [m.level("you").tolist() for m in radical.models()]
    assert levels == [[0, 0, 0, 0], [0, 0, 1, 1], [0, 2, 1, 3], [2, 3, 0, 1]]
    assert [m.level("you").tolist() for m in conservative.models()][2:] == \
        [[0, 1, 2, 2], [1, 2, 0, 0]]
    after_radical, after_conservative = radical.models()[-1], conservative.models()[-1]
    assert after_radical.holds("B_you red & B_you ~bird & ~K_you red")
    assert after_conservative.holds("~B_you red & ~B_you ~red & B_you ~bird")
    assert radical.counts() == [4, 4, 4, 4]  # soft information keeps every world
    with pytest.raises(ValueError, match="false at the actual world"):
        radical.model.announce("bird")


def test_the_whisper_makes_belief_and_the_cup_makes_knowledge():
    """Heads (actual) and tails, tails more plausible for both. Start: Alice believes tails
    (falsely), Bob believes she does not know. ⇑heads: she believes heads, does not know it,
    and Bob's belief survives (the classes did not change). !heads: one world; she knows
    heads and Bob's belief that she does not is false."""
    start, soft, hard = whisper().models()
    assert start.holds("B_alice ~heads & heads & B_bob ~K_alice heads")
    assert soft.holds("B_alice heads & ~K_alice heads & B_bob ~K_alice heads & Sb_alice heads")
    assert hard.holds("K_alice heads & ~B_bob ~K_alice heads")
    assert [m.n_worlds for m in (start, soft, hard)] == [2, 2, 1]


def test_the_bluff_plants_a_false_belief_that_the_completion_revises():
    """Tickets north (actual), south, west, ranks 0 0 0. Claim north ∨ south: 0 0 1. Claim
    south ∨ west (the bluff): 1 0 1, so Bob believes south, falsely, without knowing it, and
    conditional on not south he believes north or west equally. !north: he knows north."""
    start, one, two, done = bluff().models()
    assert [m.ranks("bob").tolist() for m in (start, one, two)] == [[0, 0, 0], [0, 0, 1],
                                                                   [1, 0, 1]]
    assert not one.holds("B_bob south") and one.holds("B_bob ~west")
    assert two.holds("B_bob south & ~south & ~K_bob south & ~B_bob[~south] north")
    assert two.holds("<B_bob[~south]>north & <B_bob[~south]>west")
    assert done.holds("K_bob north & ~B_bob south") and done.n_worlds == 1


def test_the_stories_are_told_by_the_cli(capsys):
    assert main(["puzzle", "red-bird", "--formula", "B_you red"]) == 0
    out = capsys.readouterr().out
    assert "Darwiche and Pearl (1997)" in out
    assert "      4  TRUE    3. Expert: It is not a bird (⇑¬bird)." in out
    assert "upgrade ⇑¬bird: every agent's order changes within each class" in out
    assert main(["puzzle", "red-bird", "--upgrade", "conservative", "--formula",
                 "B_you red"]) == 0
    assert "      4  FALSE   3. Expert: It is not a bird (↑¬bird)." in capsys.readouterr().out
    assert main(["puzzle", "bluff", "--formula", "B_bob south"]) == 0
    out = capsys.readouterr().out
    assert "Spohn (1988)" in out and "      1  FALSE   3. Alice: completes her ticket" in out
    assert main(["puzzle", "whisper", "--formula", "B_bob ~K_alice heads"]) == 0
    assert "van Benthem (2007)" in capsys.readouterr().out


@settings(max_examples=80, deadline=None)
@given(plausibility_models(), st.sampled_from([Believes, SafeBelief, BelievedPossible,
                                               SafePossible]), AGENT, formulas(max_leaves=3))
def test_why_looks_where_the_operator_looks(model, operator, agent, inner):
    """Why? of a belief at the actual world has the value the definitions give and rests on
    worlds the definition quantifies over: the most plausible of the class (B, ⟨B⟩), or those
    at least as plausible (Sb, ⟨Sb⟩)."""
    formula = operator(agent, inner)
    why = model.explain(formula)
    assert why.value == Structure.of(model).values(formula)[model.actual]
    structure = Structure.of(model)
    a, w = str(agent), model.actual
    looked = structure.best(a, structure.access[a][w]) \
        if operator in (Believes, BelievedPossible) else \
        frozenset(v for v in structure.access[a][w] if (v, w) in structure.leq(a))
    ids = {model.world_id(v) for v in looked}
    assert all(child.world in ids for child in why.children)
    assert why.n_worlds == len(looked)


def test_why_names_the_most_plausible_worlds():
    """The bluff after two claims: Bob believes south from the one most plausible ticket,
    and knows nothing from all three."""
    model = bluff().models()[2]
    assert model.explain(parse("B_bob south")).reason.startswith(
        "agent bob finds 1 world the most plausible (“south”), and south holds in every one "
        "of them")
    conditional = model.explain(parse("B_bob[~south] north")).reason
    assert conditional.startswith("agent bob finds 2 worlds the most plausible where ~south "
                                  "holds (“north”, “west”)"), conditional
    assert "~south -> north fails in the world “west”" in conditional


def test_the_tikz_draws_the_levels_most_plausible_on_top():
    """The bluff after two claims, Bob's order: south alone on level 0 (top, starred: what he
    believes), north and west side by side on level 1; the caption says what rows and
    columns are."""
    tikz = to_tikz(bluff().models()[2])
    assert "\\node[world] (w1) at (0.000,0.000) {};" in tikz  # south
    assert "\\node[actual] (w0) at (0.000,1.000) {};" in tikz  # north, the actual world
    assert "\\node[world] (w2) at (1.000,1.000) {};" in tikz  # west
    assert tikz.count("$\\star$};") == 1 and "at (w1.north west) {$\\star$};" in tikz
    assert "{south\\\\level 0}" in tikz and "{north\\\\level 1}" in tikz
    assert "rows: the plausibility levels of bob within each class" in tikz
    assert "level" not in to_tikz(bluff().models()[0])  # no order yet: drawn as before


def test_a_symbolic_model_refuses_an_upgrade_in_one_line():
    """A knowledge structure has no order to change: refused, not taken as nothing."""
    symbolic = to_symbolic(KripkeModel.from_worlds([{"p"}, set()], {"a": [0, 0]}, actual=0))
    with pytest.raises(ValueError, match="a plausibility order to change"):
        symbolic.update(upgrade("radical", Atom("p")))
    events = RankedEvents((Event("e", Atom("p")), Event("f", Not(Atom("p")))), (), "e",
                          ranks=(("a", (0, 1)),))
    with pytest.raises(ValueError, match="list it first"):
        symbolic.update(events)


def test_the_red_bird_starter_says_what_its_comments_say():
    """red < plain < bird_red < bird_plain, actual red: you believe red without knowing it;
    conditional on bird, the best bird world is red; a conservative bird puts bird_red on
    top (believed: bird and red)."""
    model = load_model(starter_models()["red-bird"])
    assert "Darwiche and Pearl" in starter_models()["red-bird"]
    assert model.holds("B_you red & ~K_you red & B_you[bird] red & ~B_you bird")
    after = model.update(load_event_model("conservative:bird", model))
    assert after.holds("B_you bird & B_you red & ~bird")


def test_minimising_keeps_belief_or_is_refused(capsys):
    """A contraction reads classes only: a flat model (S5) is minimised as one, an ordered one
    refused in one line rather than losing its order (B_you ~bird went from true to false)."""
    flat = PlausibilityModel.of(load_model(ALICE))
    assert flat.minimised().holds("K_alice p & ~K_bob p")
    red = str(MODELS / "red-bird.kripke")
    assert main(["model", red, "--check", "B_you ~bird"]) == 0
    capsys.readouterr()
    assert main(["model", red, "--minimise", "--check", "B_you ~bird"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "orders its worlds by plausibility" in err
