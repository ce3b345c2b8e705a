"""Belief in the texts a teacher writes and the files ttr-kripke writes: arrows in the model
format, arrows and assignments in the event format, relations in the JSON, the ready-made
belief events on one line, the puzzles told with them, and the command line."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from kripke_strategies import belief_models, general_event_models

from app.cli.main import main
from kripke import ModelError, load_model
from kripke.explicit.belief import BeliefModel
from kripke.files.eventfile import EventFileError, load_event_model, parse_event_model
from kripke.files.exchange import from_json, to_json
from kripke.files.modelfile import ModelFileError, dump_model, parse_model
from kripke.puzzles.gallery import GALLERY, ice_cream, sally_anne, secret_coin

SALLY = """# Sally believes the marble is in the basket; it is in the box
agents: sally anne
atoms: basket box
world b: basket
world x: box
sally: b -> b
sally: x -> b
anne: {b} {x}
actual: x
"""


def same(a: BeliefModel, b: BeliefModel) -> bool:
    """The same worlds in order (names, ids, atoms), arrows and actual world."""
    return (a.names == b.names and a.agents == b.agents and a.actual == b.actual and
            all(a.atom_values(p).tolist() == b.atom_values(p).tolist() for p in a.atoms) and
            set(a.atoms) == set(b.atoms) and
            all(a.arrows(agent) == b.arrows(agent) for agent in a.agents))


def test_arrows_in_the_model_format_make_a_false_belief():
    model = parse_model(SALLY)
    assert isinstance(model, BeliefModel)
    assert model.holds("K_sally basket & ~basket & K_anne K_sally basket")
    assert model.frame_class() == "KD45"
    assert same(parse_model(dump_model(model)), model)


@settings(max_examples=80, deadline=None)
@given(belief_models())
def test_random_belief_models_read_back_from_the_text_and_from_json(model):
    """From the text: a model whose every relation is S5 is written as classes and read back
    as an S5 model (classes keep meaning S5), the same worlds and relations."""
    text = parse_model(dump_model(model))
    assert same(text if isinstance(text, BeliefModel) else text.to_belief(), model)
    back = from_json(json.loads(json.dumps(to_json(model))))
    assert isinstance(back, BeliefModel)
    assert same(back, model)
    assert back.world_ids.tolist() == model.world_ids.tolist()


@pytest.mark.parametrize(("text", "message"), [
    ("agents: a\nworld w1:\na: w1 -> w9\nactual: w1",
     "line 3, column 10: unknown world 'w9' in a's arrows; declare it with 'world w9: ...'"),
    ("agents: a\nworld w1:\na: {w1}\na: w1 -> w1\nactual: w1",
     "line 4, column 1: agent a has classes on line 3 and arrows here"),
    ("agents: a\nworld w1:\na observes: p\na: w1 -> w1\nactual: w1",
     "line 3, column 13: atom p is true in no world"),
    ("agents: a\natoms: p\nworld w1:\na observes: p\na: w1 -> w1\nactual: w1",
     "line 5, column 1: agent a has 'observes:' on line 4 and arrows here"),
    ("agents: a\nworld w1:\nworld w2:\na: w1 w2 -> w1\nactual: w1",
     "line 4, column 7: an arrow line is 'a: w1 -> w2', one world before '->'"),
])
def test_mistakes_with_arrows_name_their_line_column_and_fix(text, message):
    with pytest.raises(ModelFileError) as caught:
        parse_model(text)
    assert str(caught.value).startswith(message)


def test_a_world_without_arrows_is_read_and_warned_of_not_refused(capsys, tmp_path):
    path = tmp_path / "dead.kripke"
    path.write_text("agents: a\nworld w1: p\nworld w2:\na: w1 -> w2\nactual: w1\n")
    assert main(["model", str(path), "--check", "K_a ~p"]) == 0
    out = capsys.readouterr().out
    assert "warning: a has no arrow from w2, so a's relation is not serial" in out
    assert "frame class: K (a K)" in out


EVENTS = """event move: pre basket
event skip: pre true
post move: basket := false, box := true
anne: {move} {skip}
sally: move -> skip
sally: skip -> skip
actual: move
"""


def test_the_event_format_takes_arrows_and_assignments_and_reads_back():
    events = parse_event_model(EVENTS)
    assert parse_event_model(str(events)) == events
    start = parse_model(SALLY.replace("actual: x", "actual: b").replace(
        "sally: x -> b", "sally: x -> x"))
    after = start.update(events)
    assert after.holds("~basket & box & K_sally basket & K_anne ~basket")


@settings(max_examples=60, deadline=None)
@given(general_event_models())
def test_random_general_event_models_read_back_from_their_text(events):
    assert parse_event_model(str(events)) == events


@pytest.mark.parametrize(("text", "message"), [
    ("event e: pre p\npost e: p = q\nactual: e",
     "line 2, column 9: an assignment is 'atom := formula'"),
    ("event e: pre p\npost f: p := q\nactual: e", "line 2, column 6: no event is named 'f'"),
    ("event e: pre p\na: e -> g\nactual: e", "line 2, column 9: no event is named 'g'"),
    ("event e: pre p\na: {e}\na: e -> e\nactual: e",
     "line 3, column 1: agent a has both classes and arrows (its classes on line 2, arrows "
     "here)"),
    ("event e: pre p\npost e: rain := true\nactual: e",
     "line 2, column 9: atom rain is not the model's (its atoms: p, q)"),
])
def test_mistakes_in_an_event_text_name_their_line_column_and_fix(text, message):
    model = load_model("kripke/models/alice-bob.kripke")
    with pytest.raises(EventFileError) as caught:
        load_event_model(text, model)
    assert str(caught.value).startswith(message)


def test_ready_made_belief_events_on_one_line():
    model = load_model("kripke/models/alice-bob.kripke")
    after = model.update(load_event_model("private:alice:q", model))
    assert after.holds("K_alice q & K_bob (~K_alice q & ~K_alice ~q)")
    flipped = model.update(load_event_model("flip:bob:p", model))
    assert flipped.holds("~p & K_alice p & ~K_bob ~p")  # alice believes nothing changed
    assert model.update(load_event_model("set:p:~p", model)).holds("~p & K_alice ~p")
    with pytest.raises(ModelError, match="flip toggles an atom"):
        load_event_model("flip:a:p & q", model)


def test_the_command_line_applies_a_private_announcement_and_minimises(capsys):
    code = main(["model", "kripke/models/alice-bob.kripke", "--event", "private:alice:q",
                 "--check", "K_alice q & K_bob ~K_alice ~q", "--minimise"])
    out = capsys.readouterr().out
    assert code == 0
    assert "event private:alice:q: 6 worlds (were 4)" in out
    assert "alice: saw learn; bob: believes skip happened" in out
    assert "minimised: 6 worlds; 6 up to bisimulation" in out
    assert "frame class: KD45 (alice S5, bob KD45)" in out


def test_explain_says_why_on_a_belief_model(capsys):
    """--explain on the model after a private announcement: Bob's belief read on his arrows,
    which lead to the worlds where nothing happened."""
    code = main(["model", "kripke/models/alice-bob.kripke", "--event", "private:alice:q",
                 "--check", "K_bob ~K_alice q", "--explain"])
    out = capsys.readouterr().out
    assert code == 0
    assert "not yet" not in out
    assert "TRUE   K_bob ~K_alice q  [world w1·learn] agent bob considers 2 worlds " \
           "possible (“w1·skip”, “w3·skip”), and ~K_alice q holds in every one of them" in out
    # both of Bob's worlds explained, each by its name (not its id: 1 and 5 of 4 worlds)
    assert "  TRUE   ~K_alice q  [world w1·skip] its negation K_alice q is false" in out
    assert "  TRUE   ~K_alice q  [world w3·skip] its negation K_alice q is false" in out


def test_explain_tells_the_false_belief_of_the_sally_anne_puzzle(capsys):
    assert main(["puzzle", "sally-anne", "--formula", "B_sally basket & ~basket",
                 "--explain"]) == 0
    out = capsys.readouterr().out
    # the formula as typed (B, not K), the worlds by name, the agents as the story names them
    assert "(value: B_sally basket & ~basket at the actual world)" in out
    assert "TRUE   B_sally basket  [world w·move: the marble is in the box" in out
    assert "Sally considers 1 world possible (“w·skip”), and basket holds in every " \
        "one" in out
    assert "TRUE   basket  [world w·skip: the marble is in the basket" in out


#: Bolander's Sally seen from the other side: the actual world has the marble in the basket
#: and Sally's arrow stays there, but Anne's arrow leads to a world without it.
MOVED = """agents: sally anne
atoms: basket
world seen: basket
world moved:
sally: seen -> seen
sally: moved -> seen
anne: seen -> moved
anne: moved -> moved
actual: seen
"""


def test_explain_gives_the_path_of_arrows_to_where_a_common_belief_fails(tmp_path, capsys):
    """C_{sally,anne} basket is false in a world where basket holds and C_sally basket is
    true: the reason is Anne's arrow to "moved", where basket fails, and the command says
    so (it said "fails in this very world")."""
    path = tmp_path / "moved.kripke"
    path.write_text(MOVED)
    assert main(["model", str(path), "--check", "C_{sally,anne} basket", "--check",
                 "C_sally basket", "--explain"]) == 1
    out = capsys.readouterr().out
    assert "C_{sally,anne} basket: FALSE at the actual world (seen)" in out
    assert ("FALSE  C_{sally,anne} basket  [world seen] from here, agent anne considers "
            "possible the world “moved”, and basket fails there (C needs it in every world "
            "the group can reach in one step or more)") in out
    assert "  FALSE  basket  [world moved] basket is false in this world" in out
    assert "TRUE   C_sally basket  [world seen] basket holds in every world the group can " \
        "reach from here (1)" in out
    assert "this very world" not in out


def test_explain_on_the_sally_anne_file_names_annes_arrow_back_to_the_box(capsys):
    assert main(["model", "kripke/models/sally-anne.kripke", "--check",
                 "C_{sally,anne} basket", "--explain"]) == 1
    out = capsys.readouterr().out
    assert "[world box] from here, agent anne considers possible this very world, and " \
        "basket fails there" in out


def test_puzzle_explain_prints_belief_as_typed_with_every_world_by_name(capsys):
    assert main(["puzzle", "ice-cream", "--formula", "B_john B_mary park", "--explain"]) == 0
    out = capsys.readouterr().out
    assert "(value: B_john B_mary park at the actual world)" in out
    assert "K_john" not in out and "K_mary" not in out
    assert ("TRUE   B_john B_mary park  [world park·told: the van is at the church; Mary "
            "believes park: no] John considers 1 world possible (“park·untold”), and B_mary "
            "park holds in every one of them") in out
    assert ("  TRUE   B_mary park  [world park·untold: the van is at the church; Mary believes "
            "park: yes] Mary considers 1 world possible (“park·skip”)") in out


def test_the_command_line_writes_a_belief_models_tikz_with_its_arrows(tmp_path, capsys):
    """After an event with arrows the model is a belief model: its JSON and its TikZ are both
    written, the TikZ drawing each of the agents' arrows (``->``) as the page does."""
    data, tikz = tmp_path / "m.json", tmp_path / "m.tex"
    assert main(["model", "kripke/models/alice-bob.kripke", "--event", "private:alice:q",
                 "--json", str(data), "--tikz", str(tikz)]) == 0
    capsys.readouterr()
    assert data.exists() and "->" in tikz.read_text()


def test_an_assignment_to_an_unknown_atom_is_refused_before_any_output(capsys):
    assert main(["model", "kripke/models/alice-bob.kripke", "--event", "flip:alice:zz"]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert "unknown atom zz" in captured.err


# --- the puzzles ------------------------------------------------------------------------------

def test_sally_anne_counts_and_verdicts():
    """Issue 43: the marble goes into the basket by a factual change (Bolander 2014), not by an
    announcement of true in a world where it already was; the counts stay 1, 1, 2."""
    puzzle = sally_anne()
    assert puzzle.counts() == [1, 1, 2]
    start, put, end = puzzle.models()
    assert start.holds("~basket & ~box & C ~basket")
    assert puzzle.steps[0].event is not None and puzzle.steps[0].formula is None
    assert {str(a) for a, _ in puzzle.steps[0].event.actual_event.post} == {"basket", "box"}
    assert put.holds("basket & ~box & C (basket & ~box)")  # both saw it: common knowledge
    assert end.holds("K_sally basket") and not end.holds("basket")
    assert end.holds("K_anne (~basket & K_sally basket)")
    assert isinstance(end, BeliefModel)
    assert end.frame_class("sally") == "KD45" and end.frame_class("anne") == "S5"


def test_the_secret_coin_counts_and_verdicts():
    looked, flipped = secret_coin().models()[1:]
    assert [looked.n_worlds, flipped.n_worlds] == [4, 8]
    assert looked.holds("K_a heads & K_b ~(K_a heads | K_a ~heads)")
    assert flipped.holds("~heads & K_a ~heads & K_b ~(K_a heads | K_a ~heads)")
    assert flipped.holds("~K_b heads & ~K_b ~heads")
    assert isinstance(flipped, BeliefModel)
    assert flipped.minimised().n_worlds == 4 and flipped.frame_class() == "KD45"


def test_the_ice_cream_van_is_a_second_order_false_belief():
    puzzle = ice_cream()
    assert puzzle.counts() == [1, 1, 3]
    end = puzzle.models()[-1]
    assert end.holds("~park & B_mary ~park & B_john ~park")
    assert end.holds("B_john B_mary park & ~B_mary park")


@pytest.mark.parametrize("name", ["sally-anne", "coin", "ice-cream"])
def test_the_belief_puzzles_are_told_on_the_command_line(name, capsys):
    assert name in GALLERY
    assert main(["puzzle", name]) == 0
    out = capsys.readouterr().out
    assert "frame class: KD45" in out
