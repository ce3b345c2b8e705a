"""Event models: the product update on both backends against the textbook definition, the
ready-made events' effect on small models, and the text syntax's errors."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from kripke_strategies import AGENTS, event_models, formulas, models, structures
from textbook import truth_after

from kripke import AnnouncementError, KripkeModel, ModelError, deal_model, parse, symbolic_deal
from kripke.events.model import (
    Event,
    EventModel,
    learn_together,
    learns_whether,
    may_learn,
    private_announcement,
    public_announcement,
    public_assignment,
    secret_flip,
    secret_look,
    shows_card,
)
from kripke.files.eventfile import EventFileError, parse_event_model, ready_made
from kripke.language.formula import Atom, Knows, Not
from kripke.symbolic.structure import SymbolicModel
from kripke.symbolic.translate import to_explicit, to_symbolic


def pointed(model: SymbolicModel, state: dict[Atom, bool]) -> SymbolicModel:
    """The same structure with another actual state."""
    return SymbolicModel(model.vocabulary, model.law,
                         {a: model.observed(a) for a in model.agents}, state,
                         auxiliary=model.auxiliary)


def possible_here(model: KripkeModel, events: EventModel) -> list[str]:
    """The events whose precondition holds at the model's actual world."""
    return [e.name for e in events.events if model.holds(e.precondition)]


@settings(max_examples=120, deadline=None)
@given(models(max_worlds=6), event_models(), formulas(max_leaves=8))
def test_explicit_product_update_agrees_with_the_textbook_definition(model, events, formula):
    """Same pairs (w, e), and every formula has the textbook's value at each of them."""
    expected = truth_after(model, events, formula)
    if events.actual not in possible_here(model, events):
        with pytest.raises(AnnouncementError, match="precondition"):
            model.update(events)
        assume(possible_here(model, events))
        events = events.at(possible_here(model, events)[0])
    product = model.update(events)
    pairs = [model.origin(events, i) for i in product.world_ids.tolist()]
    assert sorted(pairs) == sorted(expected)
    assert product.evaluate(formula).tolist() == [expected[pair] for pair in pairs]
    assert pairs[product.actual] == (model.actual, events.actual)


@settings(max_examples=80, deadline=None)
@given(structures(max_free=3), event_models(), formulas(max_leaves=6), st.data())
def test_symbolic_product_update_agrees_with_the_textbook_definition(model, events, formula,
                                                                     data):
    """The knowledge transformer has as many states as the textbook product has pairs, and at
    the state of any pair (the structure pointed at w, the event model at e) every formula has
    the textbook's value."""
    explicit = to_explicit(model, max_worlds=200)  # world i is state i of model.states()
    states = model.states(max_worlds=200)
    expected = truth_after(explicit, events, formula)
    assume(expected)
    w, e = data.draw(st.sampled_from(sorted(expected)))
    after = pointed(model, states[w]).update(events.at(e))
    assert after.n_worlds == len(expected)
    assert after.holds(formula) == expected[(w, e)]
    assert after.count(formula) == sum(expected.values())


@settings(max_examples=60, deadline=None)
@given(models(max_worlds=6), event_models(), formulas(max_leaves=6), formulas(max_leaves=6))
def test_both_backends_update_a_translated_model_alike(model, events, phi, psi):
    assume(events.actual in possible_here(model, events))
    explicit, symbolic = model.update(events), to_symbolic(model).update(events)
    assert symbolic.n_worlds == explicit.n_worlds
    for f in (phi, psi):
        assert symbolic.holds(f) == explicit.holds(f)
        assert symbolic.count(f) == explicit.count(f)
    # and a second update on top of the first
    again = public_announcement(phi)
    if explicit.holds(phi):
        assert symbolic.update(again).count(psi) == explicit.update(again).count(psi)


@settings(max_examples=150, deadline=None)
@given(models(max_worlds=6), formulas(max_leaves=6), formulas(max_leaves=6))
def test_a_one_event_model_is_the_public_announcement(model, phi, psi):
    event = public_announcement(phi)
    if not model.holds(phi):
        with pytest.raises(AnnouncementError):
            model.update(event)
        with pytest.raises(AnnouncementError):
            to_symbolic(model).update(event)
        return
    announced, updated = model.announce(phi), model.update(event)
    assert updated.world_ids.tolist() == announced.world_ids.tolist()
    assert updated.actual == announced.actual
    assert updated.evaluate(psi).tolist() == announced.evaluate(psi).tolist()
    symbolic = to_symbolic(model)
    updated_symbolic = symbolic.update(event)
    assert len(updated_symbolic.vocabulary) == len(symbolic.vocabulary)  # no variable added
    assert updated_symbolic.count(psi) == symbolic.announce(phi).count(psi)
    assert updated_symbolic.holds(psi) == announced.holds(psi)


@settings(max_examples=40, deadline=None)
@given(models(max_worlds=6), event_models(), formulas(max_leaves=6), st.sampled_from(AGENTS))
def test_knowledge_after_an_update_is_still_s5(model, events, phi, a):
    assume(events.actual in possible_here(model, events))
    after = model.update(events)
    for law in (f"K_{a} ({phi}) -> ({phi})", f"K_{a} ({phi}) -> K_{a} K_{a} ({phi})",
                f"~K_{a} ({phi}) -> K_{a} ~K_{a} ({phi})"):
        assert after.evaluate(law).all()


# --- the ready-made events on small models -------------------------------------------------------

LETTER = KripkeModel.from_worlds([{"p"}, set()], {"alice": [0, 0], "bob": [0, 0]}, actual=0)


@pytest.mark.parametrize("backend", [lambda m: m, to_symbolic], ids=["explicit", "symbolic"])
def test_alice_reads_the_letter_and_bob_sees_her_read_it(backend):
    after = backend(LETTER).update(learns_whether("alice", "p"))
    assert after.n_worlds == 2
    assert after.holds("K_alice p")
    assert not after.holds("K_bob p | K_bob ~p")  # Bob does not learn what it says,
    assert after.holds("K_bob (K_alice p | K_alice ~p)")  # but knows that she knows,
    assert after.holds("C (K_alice p | K_alice ~p)")  # and that is common knowledge


@pytest.mark.parametrize("backend", [lambda m: m, to_symbolic], ids=["explicit", "symbolic"])
def test_alice_may_have_read_the_letter(backend):
    after = backend(LETTER).update(may_learn("alice", "p"))
    assert after.n_worlds == 4
    assert after.holds("K_alice p")
    assert not after.holds("K_bob (K_alice p | K_alice ~p)")
    assert after.holds("M_bob ~(K_alice p | K_alice ~p)")
    skipped = backend(LETTER).update(may_learn("alice", "p", learns=False))
    assert not skipped.holds("K_alice p | K_alice ~p")
    assert skipped.holds("M_alice M_bob K_alice p")


THREE = KripkeModel.from_worlds([{"p", "q"}, {"p"}, {"q"}, set()],
                                {"a": [0] * 4, "b": [0] * 4, "c": [0] * 4}, actual=1)


@pytest.mark.parametrize("backend", [lambda m: m, to_symbolic], ids=["explicit", "symbolic"])
def test_two_learn_together_and_the_third_sees_that_they_do(backend):
    after = backend(THREE).update(learn_together(["a", "b"], "p"))
    assert after.n_worlds == 4
    assert after.holds("K_a p & K_b p & K_a K_b p & C_{a,b} p")
    assert not after.holds("K_c p | K_c ~p")
    assert after.holds("K_c C_{a,b} (p | ~p) & K_c (K_a p | K_a ~p)")
    assert not after.holds("K_a q | K_a ~q")  # they learnt p, nothing about q


@pytest.mark.parametrize("backend", [lambda m: m, to_symbolic], ids=["explicit", "symbolic"])
def test_a_public_announcement_event_tells_everyone(backend):
    after = backend(THREE).update(public_announcement("p & ~q"))
    assert after.n_worlds == 1
    assert after.holds("C (p & ~q)")


def test_showing_a_card_from_a_hand_of_two_splits_the_deal():
    """Cluedo: a holds two of the four cards; b sees which one she shows, c only that she
    shows one. Each deal becomes one world per card a holds (and could have shown)."""
    deal = deal_model(range(4), [2, 1, 1], [[0, 1], [2], [3]], agents="abc")
    show = shows_card("a", "b", range(4), 1)
    for model in (deal, symbolic_deal(range(4), [2, 1, 1], [[0, 1], [2], [3]], agents="abc")):
        after = model.update(show)
        assert after.n_worlds == 2 * deal.n_worlds  # 12 deals, two ways each to show
        assert after.holds("K_b p(a,1)") and not after.holds("K_b p(a,0)")
        assert not after.holds("K_c p(a,1) | K_c ~p(a,1)")
        assert after.holds("K_c (K_b p(a,0) | K_b p(a,1) | K_b p(a,2))")  # b learnt a card
    explicit = deal.update(show)
    assert deal.origin(show, explicit.world_id(explicit.actual)) == (
        deal.world_id(deal.actual), "show1")


def test_worlds_keep_their_ids_unless_they_split():
    """Where at most one event can happen at each world, the update keeps every world's id
    (as an announcement does: a drawing keeps the world where it was); where worlds split,
    each pair gets an id of its own."""
    deal = deal_model(range(3), [1, 1, 1], [[0], [1], [2]], agents="abc")
    shown = deal.update(shows_card("a", "b", range(3), 0))
    assert shown.world_ids.tolist() == deal.world_ids.tolist()
    assert [deal.origin(shows_card("a", "b", range(3), 0), i)[1]
            for i in shown.world_ids.tolist()] == ["show0", "show0", "show1", "show1",
                                                    "show2", "show2"]
    away = LETTER.update(may_learn("alice", "p"))
    assert away.world_ids.tolist() == [0, 2, 4, 5]  # (p, yes) (p, skip) (~p, no) (~p, skip)
    assert [LETTER.origin(may_learn("alice", "p"), i) for i in away.world_ids.tolist()] == \
        [(0, "yes"), (0, "skip"), (1, "no"), (1, "skip")]


def test_an_update_the_actual_world_refuses_is_refused_on_both_backends():
    lie = learns_whether("alice", "p", holds=False)  # the letter says p, not ~p
    for model in (LETTER, to_symbolic(LETTER)):
        with pytest.raises(AnnouncementError, match="'no'.*~p.*false at the actual world"):
            model.update(lie)
    with pytest.raises(ModelError, match="agent 'zoe'.*does not have"):
        LETTER.update(learns_whether("zoe", "p"))


def test_the_event_model_checks_its_partitions():
    yes, no = Event("yes", Atom("p")), Event("no", Not(Atom("p")))
    with pytest.raises(ModelError, match="leaves out no"):  # the constructor takes whole ones
        EventModel((yes, no), (("a", (("yes",),)),), "yes")
    with pytest.raises(ModelError, match=r"no event is named 'maybe' \(in a's classes\)"):
        EventModel((yes, no), (("a", (("yes", "no", "maybe"),)),), "yes")
    with pytest.raises(ModelError, match="two events are both named 'e'"):
        EventModel.of([("e", "p"), ("e", "q")])
    with pytest.raises(ModelError, match="no event is named 'f', the actual event"):
        EventModel.of({"e": "p"}, actual="f")
    with pytest.raises(ModelError, match="event name 'read p'"):  # text could not say it
        EventModel.of({"read p": "p"})
    with pytest.raises(ModelError, match="agent 'actual' cannot be written"):
        EventModel.of({"r": "p"}, {"actual": [["r"]]})
    with pytest.raises(ModelError, match="not one of the cards"):
        shows_card("a", "b", [0, 1], 2)


# --- the text syntax ---------------------------------------------------------------------------

@pytest.mark.parametrize("events", [
    learns_whether("alice", "p"), may_learn(0, "K_1 q", learns=False),
    shows_card(0, 1, range(3), 2), learn_together("ab", "p | q", holds=False),
    public_announcement("[!p] K_a p"),
])
def test_an_event_model_writes_text_that_reads_back_equal(events):
    assert parse_event_model(str(events)) == events


def test_a_hand_written_event_model_updates_like_the_ready_made_one():
    text = """
    # Alice reads the letter; Bob sees her read it
    event yes: pre p      # the letter says p
    event no:  pre ~p
    alice: {yes} {no}
    actual: yes
    """
    events = parse_event_model(text)
    assert events == learns_whether("alice", "p")
    assert events.classes("bob") == (("yes", "no"),)
    assert LETTER.update(events).holds("K_bob (K_alice p | K_alice ~p)")


def test_lines_come_in_any_order_and_an_event_left_out_is_a_class_of_its_own():
    events = parse_event_model("actual: no\nalice: {yes}\nevent yes: pre p\n"
                               "event no: pre ~p\nbob:")
    assert events.classes("alice") == events.classes("bob") == (("yes",), ("no",))
    assert events.classes("carol") == (("yes", "no"),)  # no line: tells none apart
    assert events == EventModel.of({"yes": "p", "no": "~p"}, {"alice": [["yes"]], "bob": []},
                                   actual="no")


@pytest.mark.parametrize(("text", "where", "message"), [
    ("event yes: pre p &\nactual: yes", (1, 19), "expected a formula after '&'"),
    ("event yes pre p\nactual: yes", (1, 11), "expected ':' after the event name 'yes'"),
    ("event : pre p", (1, 7), "an event line is 'event', its name"),
    ("event y: p\nactual: y", (1, 10), "expected 'pre'"),
    ("event y: pre p\nevent y: pre q\nactual: y", (2, 7),
     "two events are both named 'y' (the first on line 1)"),
    ("a: {y}\nevent x: pre p\nactual: x", (1, 5),
     "no event is named 'y' (in a's classes); the events are x"),
    ("event y: pre p\na: {y} z\nactual: y", (2, 8), "'z' is outside braces"),
    ("event y: pre p\na: {y\nactual: y", (2, 4), "not closed"),
    ("event y: pre p\na: {y {y}}\nactual: y", (2, 7), "a class inside a class"),
    ("event y: pre p\na: {} {y}\nactual: y", (2, 4), "an empty class"),
    ("event y: pre p\na: {y y}\nactual: y", (2, 7), "'y' is in two of agent a's classes"),
    ("event y: pre p\na: {y}\na: {y}\nactual: y", (3, 1),
     "agent a has two lists of classes (the first on line 2)"),
    ("event y: pre p\nactual: n", (2, 9), "no event is named 'n'"),
    ("event y: pre p\nactual: y z", (2, 11), "'actual:' names one event"),
    ("event y: pre p\nactual: y\nactual: y", (3, 1), "already named on line 2"),
    ("event y: pre p", (1, 15), "no 'actual:' line"),
    ("# nothing\n", (1, 10), "no events"),
    ("hello", (1, 1), "cannot read this line"),
    ("a: {y-1}", (1, 5), "'y-1' is not an event name"),
    ("event y: pre p\nb: y -> z\nactual: y", (2, 9), "no event is named 'z'"),
    ("event y: pre p\nb: y z -> y\nactual: y", (2, 6), "one event before '->'"),
    ("event y: pre p\nb: {y}\nb: y -> y\nactual: y", (3, 1),
     "has both classes and arrows (its classes on line 2, arrows here)"),
    ("event y: pre p\npost y: p = q\nactual: y", (2, 9), "an assignment is 'atom := formula'"),
    ("event y: pre p\npost y: p & q := q\nactual: y", (2, 9), "is not an atom"),
    ("event y: pre p\npost y: q := (p\nactual: y", (2, 16), "expected ')'"),
    ("event y: pre p\npost n: q := p\nactual: y", (2, 6), "no event is named 'n'"),
])
def test_event_text_errors_name_line_column_and_the_fix(text, where, message):
    with pytest.raises(EventFileError) as caught:
        parse_event_model(text, source="read.events")
    assert (caught.value.line, caught.value.column) == where
    assert message in caught.value.message
    assert str(caught.value) == f"read.events: line {where[0]}, column {where[1]}: " \
        f"{caught.value.message}"
    assert isinstance(caught.value, ModelError)


def test_preconditions_may_be_epistemic():
    """"Bob learns whether Alice knows p": an event model's preconditions are any formulas,
    evaluated in the model before the update."""
    events = learns_whether("bob", Knows("alice", Atom("p")))
    model = LETTER.update(may_learn("alice", "p"))
    for m in (model, to_symbolic(LETTER).update(may_learn("alice", "p"))):
        after = m.update(events)
        assert after.holds("K_bob K_alice p")
        assert after.holds("K_bob p")  # knowing that she knows p, he knows p
    assert np.all(model.update(events).evaluate(parse("K_bob K_alice p") >> Atom("p")))
    assert model.update(learns_whether("bob", Not(Knows("alice", Atom("p"))), holds=False)
                        ).holds("K_bob K_alice p")


def test_a_card_shown_in_a_five_by_four_symbolic_deal_without_listing_a_deal():
    """305,540,235,000 deals; player 0 shows player 1 one of its four cards: four worlds per
    deal, counted, never listed (new variables above the deal's keep the law small)."""
    deal = symbolic_deal(range(20), [4] * 5, [range(4 * i, 4 * i + 4) for i in range(5)])
    after = deal.update(shows_card(0, 1, range(20), 2))
    assert after.n_worlds == 4 * deal.n_worlds == 1_222_160_940_000
    assert after.holds("K_1 p(0,2)") and not after.holds("K_2 p(0,2) | K_2 ~p(0,2)")
    assert len(after.law) < 10 * len(deal.law)


@pytest.mark.parametrize("events", [
    secret_flip("a", "heads", ["b"]), secret_look("a", "heads", ["b", "c"]),
    private_announcement("b", "p & q", ["a"]), public_assignment("q", "~p | q")])
def test_the_event_text_reads_arrows_and_assignments_back(events):
    """The text ``str`` writes (arrows 'b: e -> f', assignments 'post e: p := φ') reads back
    to the same event model, so a page's box takes what the ready-made events are."""
    assert parse_event_model(str(events)) == events


def test_the_secret_coin_is_flipped_by_a_one_line_event():
    coin = KripkeModel.from_worlds([{"heads"}, set()], {"a": [0, 0], "b": [0, 0]}, actual=0)
    looked = coin.update(ready_made("secret:a:heads", coin))
    assert looked.holds("K_a heads & ~K_b heads & K_b ~(K_a heads | K_a ~heads)")
    flipped = looked.update(ready_made("flip:a:heads", looked))
    assert flipped.holds("~heads & K_a ~heads & B_b ~(K_a heads | K_a ~heads)")
    told = coin.update(ready_made("private:a:heads", coin))
    assert told.holds("K_a heads & ~K_b heads & B_b ~K_a heads")
    assert coin.update(ready_made("set:heads:false", coin)).holds("C ~heads")  # in every world
    with pytest.raises(ModelError, match="flip toggles an atom"):
        ready_made("flip:a:heads & heads", coin)
    with pytest.raises(ModelError, match="needs the model"):
        ready_made("secret:a:heads")
