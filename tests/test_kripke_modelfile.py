"""Models written by hand: the format reads back what it writes, every mistake is named with its
line, column and fix, the exported JSON (also the page's) loads, and the shipped textbook models
say what their comments say."""

from __future__ import annotations

import json
import unicodedata

import numpy as np
import pytest
from hypothesis import assume, example, given, settings
from hypothesis import strategies as st
from kripke_strategies import event_models, models

from agents.model import TTRModel
from app.web.components.exports import game_worlds, listed, model_json
from kripke import (
    KripkeModel,
    ModelError,
    ModelFileError,
    NamedModel,
    deal_model,
    dump_model,
    load_model,
)
from kripke.events.model import learns_whether, may_learn
from kripke.files.eventfile import parse_event_model
from kripke.files.exchange import to_json
from kripke.files.modelfile import parse_model, starter_models
from kripke.puzzles.gallery import GALLERY
from lookalikes.characters import character_problem
from lookalikes.skeleton import confusable_form


def partitions(model: KripkeModel) -> list[set[frozenset[int]]]:
    """Each agent's classes as sets of world indices (keys themselves may be renumbered)."""
    found = []
    for agent in model.agents:
        classes: dict[int, set[int]] = {}
        for i, key in enumerate(model.observation(agent).tolist()):
            classes.setdefault(key, set()).add(i)
        found.append({frozenset(c) for c in classes.values()})
    return found


def valuation(model: KripkeModel) -> dict[str, list[bool]]:
    return {str(a): model.atom_values(a).tolist() for a in model.atoms}


def assert_same(back: KripkeModel, model: KripkeModel, names: list[str]) -> None:
    assert isinstance(back, NamedModel)
    assert back.n_worlds == model.n_worlds
    assert [back.world_name(i) for i in range(back.n_worlds)] == names
    assert back.agents == model.agents  # in order, numbers still numbers
    assert valuation(back) == valuation(model)
    assert partitions(back) == partitions(model)
    assert back.actual == model.actual


# Any text a name may hold: spaces, commas, braces, '#', unicode; quotes, line breaks and
# lookalikes (an invisible character, two scripts, two names alike) cannot be written, and a name
# is read in Unicode's NFC form.
NAME = st.text(min_size=1, max_size=8).filter(
    lambda s: '"' not in s and s.splitlines() == [s] and character_problem(s) is None
    and unicodedata.normalize("NFC", s) == s)


@st.composite
def named_models(draw: st.DrawFn) -> tuple[KripkeModel, list[str]]:
    model = draw(models())
    keep = draw(st.lists(st.booleans(), min_size=model.n_worlds, max_size=model.n_worlds))
    keep[model.actual] = True
    model = model.restrict(np.array(keep))  # world ids with gaps, as after an announcement
    names = draw(st.lists(NAME, min_size=model.n_worlds, max_size=model.n_worlds,
                         unique_by=confusable_form))
    return model, names


BRACES = (KripkeModel.from_worlds([set(), {"p"}, {"q"}], {0: [0, 0, 1], "b": [0, 1, 1]}, 2),
          ["{", "}", "#{a, b}"])  # quoted names that look like the format's own signs


@settings(max_examples=150, deadline=None)
@given(named_models())
@example(BRACES)
def test_a_model_written_out_and_read_back_is_the_same_model(drawn):
    model, names = drawn
    text = dump_model(model, names=lambda _, i: names[i])
    back = load_model(text)
    assert_same(back, model, names)
    assert dump_model(back) == text  # and its own names are written the same way


@settings(max_examples=40, deadline=None)
@given(models())
def test_without_names_worlds_are_named_by_their_ids(model):
    model = model.announce("true")
    back = load_model(dump_model(model))
    assert_same(back, model, [f"w{i}" for i in model.world_ids.tolist()])


def test_names_survive_announcements_and_name_the_worlds_in_exports():
    model = load_model(starter_models()["three-cards"]).announce("~white(a)")
    assert [model.world_name(i) for i in range(model.n_worlds)] == ["rwb", "rbw", "brw", "bwr"]
    assert [w["label"] for w in to_json(model)["worlds"]] == ["rwb", "rbw", "brw", "bwr"]


@settings(max_examples=100, deadline=None)
@given(named_models(), event_models())
def test_world_names_survive_an_event_and_read_back(drawn, events):
    """Worlds keep their names when none splits; split, (w, e) is named "w·e"; either way
    the model written out reads back as the same model."""
    model, names = drawn
    named = NamedModel.named(model, names)
    possible = [e.name for e in events.events if model.holds(e.precondition)]
    assume(possible)
    events = events if events.actual in possible else events.at(possible[0])
    after = named.update(events)
    assert isinstance(after, NamedModel)
    got = [after.world_name(i) for i in range(after.n_worlds)]
    pairs = [model.origin(events, i) for i in after.world_ids.tolist()]
    by_id = dict(zip(model.world_ids.tolist(), names, strict=True))
    if model.splits(events):
        assert [g.rstrip("'") for g in got] == [f"{by_id[w]}·{e}" for w, e in pairs]
    else:
        assert got == [by_id[w] for w, _ in pairs]
    assert_same(load_model(dump_model(after)), after, got)


def test_a_card_shown_names_the_worlds_it_splits_by_world_and_event():
    deal = load_model(starter_models()["three-cards"])
    shown = deal.update(parse_event_model(
        "event red: pre red(a)\nevent white: pre white(a)\nevent blue: pre blue(a)\n"
        "a: {red} {white} {blue}\nb: {red} {white} {blue}\nactual: red"))
    assert shown.world_name() == "rwb"  # one card each: no world splits, names stay
    read = deal.update(learns_whether("c", "red(a) | white(a)"))
    assert read.world_name() == "rwb"
    letter = load_model(starter_models()["alice-bob"]).update(may_learn("bob", "p"))
    assert [letter.world_name(i) for i in range(4)] == ["w1·yes", "w1·skip", "w2·yes",
                                                          "w2·skip"]
    assert "bob: {w1·yes} {w1·skip w3·skip}" in dump_model(letter)


def test_only_a_plain_model_takes_names():
    with pytest.raises(ModelError, match="not a DealModel"):
        NamedModel.named(deal_model(range(3), [1, 1], [[0], [1]]), ["x"] * 6)


def test_dump_refuses_what_it_cannot_write():
    model = KripkeModel.from_worlds([{"p"}, set()], {"a": [0, 0]}, actual=0)
    with pytest.raises(ModelError, match="both named 'x'"):
        dump_model(model, names=lambda _, i: "x")
    with pytest.raises(ModelError, match="holds no '\"' nor line break"):
        dump_model(model, names=lambda _, i: f'w"{i}')
    with pytest.raises(ModelError, match="no actual world"):
        dump_model(model.restrict([1, 0] == np.array([0, 1])))
    with pytest.raises(ModelError, match="agent 'player 1' cannot be written"):
        dump_model(KripkeModel.from_worlds([{"p"}], {"player 1": [0]}, actual=0))


# --- the JSON ttr-kripke exports ------------------------------------------------------------


@settings(max_examples=60, deadline=None)
@given(named_models())
def test_exported_json_loads_with_its_labels_as_names(drawn):
    model, names = drawn
    text = json.dumps(to_json(model, name=lambda _, i: names[i]))
    back = load_model(text)
    assert_same(back, model, names)
    assert back.world_ids.tolist() == model.world_ids.tolist()  # JSON keeps the ids


@pytest.mark.parametrize("key", ["cheryl", "muddy", "russian"])
def test_the_puzzle_pages_model_json_loads_back(key):
    puzzle = GALLERY[key]()
    model = puzzle.models()[1]
    back = load_model(model_json(listed(model), puzzle.describe))
    assert back.n_worlds == model.n_worlds and back.actual == model.actual
    for formula in puzzle.examples:
        assert back.evaluate(formula).tolist() == model.evaluate(formula).tolist()
    assert back.world_label(back.actual) == puzzle.describe(model, model.actual)


def test_the_game_pages_model_json_loads_back_and_writes_as_text():
    game = TTRModel(rng=3, players=2, tickets_each=2)
    for _ in range(4):
        game.step()
    worlds = game.state.explicit_worlds
    back = load_model(model_json(game_worlds(game), lambda m, i: m.world_label(i)))
    assert back.n_worlds == worlds.n_worlds and back.agents == worlds.agents
    assert partitions(back) == partitions(worlds)
    first, last = worlds.atoms[0], worlds.atoms[-1]
    formula = f"K_0 {first} | M_1 ~{last} | C {first}"
    assert back.evaluate(formula).tolist() == worlds.evaluate(formula).tolist()
    again = load_model(dump_model(back))
    assert again.evaluate(formula).tolist() == worlds.evaluate(formula).tolist()


def test_a_page_export_of_a_model_too_big_says_so():
    with pytest.raises(ModelFileError, match="holds no model, only the exporter's message: "
                                             "the model has"):
        load_model('{"error": "the model has 63,063,000 worlds, more than ..."}\n')


@pytest.mark.parametrize(("text", "place", "message"), [
    ("{\n  \"format\": \n", "line 3, column 1", "not valid JSON: Expecting value"),
    ('{"format": "something else"}', "format", 'a model\'s JSON has "format": "ttr-kripke model"'),
    ('{"format": "ttr-kripke model", "version": 1, "agents": [], "worlds": [{}]}', "atoms",
     "is missing"),
])
def test_bad_json_is_a_model_file_error(text, place, message):
    """A syntax error at the JSON's own line and column; a content error at its field."""
    with pytest.raises(ModelFileError, match=message) as caught:
        load_model(text)
    assert caught.value.place() == place and str(caught.value).startswith(f"{place}: ")


def test_a_json_content_error_names_the_fields_path_not_a_line(tmp_path):
    data = to_json(parse_model(GOOD))
    data["worlds"][1]["true"] = ["p", 3]
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(data, indent=1))
    with pytest.raises(ModelFileError) as caught:
        load_model(path)
    error = caught.value
    assert (error.line, error.column, error.field) == (None, None, "worlds[1].true[1]")
    assert str(error) == f"{path}: worlds[1].true[1]: 3 (a number) is not an atom; {error.fix}"
    assert "line" not in str(error) and error.fix.startswith("an atom is a name")


# --- mistakes in the hand-written format ------------------------------------------------------

GOOD = """\
agents: a b
world w1: p
world w2: q    # a comment
a: {w1 w2}
b:
actual: w1
"""


def test_the_good_model_reads():
    model = parse_model(GOOD)
    assert model.holds("~K_a p & K_b p") and model.world_label() == "w1"


@pytest.mark.parametrize(("old", "new", "line", "column", "message"), [
    ("{w1 w2}", "{w1 w3}", 4, 8, "unknown world 'w3' in a's classes; declare it with "
                                 "'world w3: ...' or fix the spelling (worlds: w1, w2)"),
    ("{w1 w2}", "{w1} {w2 w1}", 4, 13, "world w1 is in two of a's classes (also at column "
                                       "5); a world belongs to one class"),
    ("actual: w1\n", "", 5, 3, "no actual world; add a line such as 'actual: w1'"),
    ("world w2:", "world w1:", 3, 7, "a second world named w1 (the first is on line 2); give "
                                     "each world its own name"),
    ("w1: p", "w1: K_a", 2, 11, "'K_a' is not an atom"),
    ("w1: p", "w1: p(0", 2, 12, "unexpected '('; close it with ')'"),
    ("b:\n", "", 1, 11, "agent b has no line; write 'b: {w1 w2}' (the worlds"),
    ("a: {", "c: {", 4, 1, "unknown agent 'c': it is not on the 'agents:' line"),
    ("b:\n", "b:\na: {w2}\n", 6, 1, "a second line for agent a (the first is line 4)"),
    ("{w1 w2}", "{w1 w2", 4, 4, "this class is not closed; end it with '}'"),
    ("{w1 w2}", "w1 w2", 4, 4, "'w1' is outside braces: an agent's classes are written in "
                               "braces"),
    ("{w1 w2}", "{w1 {w2}}", 4, 8, "a class inside a class"),
    ("{w1 w2}", "{}", 4, 4, "an empty class {}; remove it"),
    ("agents: a b", "agents: a b a", 1, 13, "agent a is named twice"),
    ("agents: a b", "agents: a world", 1, 11, "an agent cannot be called 'world'"),
    ("agents: a b", "agents: a b-c", 1, 11, "'b-c' cannot name an agent"),
    ("agents: a b", "agents:", 1, 8, "no agents named; name them"),
    ("agents: a b\n", "", 5, 11, "no 'agents:' line"),
    ("world w1: p", "world w1 p", 2, 1, "a world line is 'world', the name, ':' and the atoms"),
    ("world w1: p", "world: p", 2, 6, "a world line needs the world's name"),
    ("b:", "b observes: r", 5, 13, "atom r is true in no world and not listed on an 'atoms:' "
                                   "line"),
    ("b:", "b:\natoms: p", 3, 11, "atom q is not among the atoms on line 6"),
    ("b:", "b:\natoms: p q p", 6, 12, "atom p is listed twice"),
    ("actual: w1", "actual: w9", 6, 9, "the actual world 'w9' is not among the worlds"),
    ("actual: w1", "actual: w1 w2", 6, 12, "'actual:' names one world"),
    ("actual: w1", "actual: w1\nactual: w2", 7, 1, "a second 'actual:' line (the first is "
                                                   "line 6); keep one"),
    ("world w2:", 'world "w 2:', 3, 7, 'this quoted name is not closed'),
    ("b:", "b: {w1} }", 5, 9, "'}' closes no class"),
    ("b:", "b {w1}", 5, 1, "no ':' in this line; a line is one of 'agents: a b'"),
    ("b:", "b: {w1 : w2}", 5, 8, "unexpected ':'"),
    ("b:", 'b: {w1 ""}', 5, 8, 'an empty name ""'),
])
def test_each_mistake_names_its_line_column_and_fix(old, new, line, column, message):
    assert old in GOOD
    with pytest.raises(ModelFileError) as caught:
        load_model(GOOD.replace(old, new, 1))
    error = caught.value
    assert message in error.message
    assert (error.line, error.column) == (line, column), error
    assert str(error) == f"line {line}, column {column}: {error.message}"
    assert "\n" not in str(error)


def test_the_file_name_leads_the_message(tmp_path):
    path = tmp_path / "mine.kripke"
    path.write_text(GOOD.replace("{w1 w2}", "{w1 w3}"))
    with pytest.raises(ModelFileError, match=r"mine.kripke: line 4, column 8: unknown world"):
        load_model(path)


def test_an_agent_numbered_with_a_leading_zero_is_that_number_as_in_formulas():
    model = parse_model("agents: 07\nworld u: p\nworld v:\n7: {u v}\nactual: u\n")
    assert model.agents == (7,) and not model.holds("K_07 p")
    with pytest.raises(ModelFileError, match="agent 7 is named twice"):
        parse_model("agents: 7 07\nworld u:\n7:\nactual: u\n")


def test_missing_worlds_are_classes_of_their_own():
    model = parse_model("agents: a\nworld u:\nworld v:\nworld w:\na: {u v}\nactual: u\n")
    assert partitions(model) == [{frozenset({0, 1}), frozenset({2})}]


def test_atoms_with_arguments_spaces_commas_and_quoted_names_read():
    model = parse_model('agents: 0, 1\natoms: p(0,3) q\nworld "July 16": p(0, 3)\n'
                        'world (1,2):\n0: {"July 16", (1,2)}\n1 observes: p(0,3)\n'
                        'actual: "July 16"   # "quoted" in a comment\n')
    assert model.agents == (0, 1)
    assert model.holds("K_1 p(0,3) & ~K_0 p(0,3) & ~q")
    assert model.world_label() == "July 16" and model.world_name(1) == "(1,2)"


def test_a_path_or_the_text_itself(tmp_path):
    path = tmp_path / "m.kripke"
    path.write_text("\ufeff" + GOOD, encoding="utf-8")  # as Notepad saves it
    assert load_model(path).n_worlds == load_model(str(path)).n_worlds == 2
    with pytest.raises(ModelError, match="no file 'nothere.kripke'; check the path"):
        load_model("nothere.kripke")
    with pytest.raises(ModelFileError, match="line 1, column 1: no ':' in this line"):
        load_model("agents a b")  # a one-line text typed in a box is read as a model
    with pytest.raises(ModelError, match="is not a text file"):
        (tmp_path / "b.kripke").write_bytes(b"\xff\xfe\x00")
        load_model(tmp_path / "b.kripke")


# --- the textbook models that ship with the package ---------------------------------------------


def test_three_textbook_models_ship_and_say_what_their_comments_say():
    starters = starter_models()
    assert set(starters) >= {"alice-bob", "muddy-children", "three-cards"}
    alice = load_model(starters["alice-bob"])
    assert alice.holds("K_alice p & ~K_bob p") and alice.holds("K_bob q & ~K_alice q")
    muddy = load_model(starters["muddy-children"])
    assert muddy.n_worlds == 8 and muddy.world_label() == "110"
    nobody = "~(K_a ma | K_a ~ma) & ~(K_b mb | K_b ~mb) & ~(K_c mc | K_c ~mc)"
    muddy = muddy.announce("ma | mb | mc")
    assert not muddy.holds("K_a ma | K_b mb")
    assert muddy.announce(nobody).holds("K_a ma & K_b mb & ~(K_c mc | K_c ~mc)")
    cards = load_model(starters["three-cards"])
    assert cards.n_worlds == 6 and cards.holds("K_a red(a) & ~K_a white(b)")
    assert cards.holds("[!~white(a)] K_c red(a)") and not cards.holds("K_c red(a)")


def test_belief_starters_ship_with_their_sources_and_say_what_their_comments_say():
    starters = starter_models()
    for name in ("sally-anne", "secret-coin", "kd45-belief"):
        comment = "".join(line for line in starters[name].splitlines() if line.startswith("#"))
        assert any(year in comment for year in ("1985", "1995", "1998")), name  # its source
    sally = load_model(starters["sally-anne"])
    assert sally.frame_class("sally") == "KD45" and sally.frame_class("anne") == "S5"
    assert sally.holds("K_sally basket & ~basket & K_anne (K_sally basket & box)")
    coin = load_model(starters["secret-coin"])
    assert coin.holds("K_a heads & ~K_b heads & K_b ~(K_a heads | K_a ~heads)")
    assert coin.frame_class() == "KD45" and not coin.holds("K_b heads | K_b ~heads")
    rain = load_model(starters["kd45-belief"])
    assert rain.frame_class("ann") == "KD45" and "reflexive" not in rain.properties("ann")
    assert rain.holds("B_ann ~rain & rain & B_ann B_ann ~rain & B_bob B_ann ~rain")


# --- never a traceback --------------------------------------------------------------------------

PIECES = ["agents:", "atoms:", "world", "actual:", "observes", "a", "b", "0", "w1", "w2", ":",
          "{", "}", ",", '"', "#", "p", "q(0,1)", "(", ")", "K_a", " ", " ", "\t", "\n", "\n",
          "é", "\u2028"]


@settings(max_examples=400, deadline=None)
@given(st.lists(st.sampled_from(PIECES), max_size=40).map("".join))
def test_any_text_reads_as_a_model_or_fails_with_its_place(text):
    try:
        model = load_model(text + "\n")
    except ModelFileError as e:  # a place: a line and column, or a JSON field's path ('{}')
        assert (e.line is not None and e.line >= 1 and e.column >= 1) or e.field, str(e)
        assert "\n" not in str(e)
    else:
        assert load_model(dump_model(model)).n_worlds == model.n_worlds


JSON_VALUES = st.recursive(st.none() | st.booleans() | st.integers() | st.text(max_size=4),
                           lambda inner: st.lists(inner, max_size=3)
                           | st.dictionaries(st.text(max_size=4), inner, max_size=3),
                           max_leaves=6)


@settings(max_examples=200, deadline=None)
@given(st.sampled_from(["agents", "atoms", "actual", "worlds", "observations", "version"]),
       JSON_VALUES)
@example("observations", [[[1], [2, 3], 0, 0], [0, 0, 0, 0]])  # ragged: numpy's ValueError
@example("worlds", [{"id": 10**30, "true": []}])
def test_a_damaged_json_export_fails_with_a_model_file_error(field, value):
    data = to_json(load_model(starter_models()["alice-bob"]))
    data[field] = value
    try:
        load_model(json.dumps(data))
    except ModelFileError as e:  # a field's error: its path, no line and column
        assert (e.line, e.column) == (None, None) and not str(e).startswith("line ")
