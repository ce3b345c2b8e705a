"""Issue 44, item 8: names. A name a user writes (a world's, an agent's, an atom's, a city's, a
belief JSON label, route's arguments) holds nothing a reader cannot see, looks like no other
name of its kind in any pair of scripts, is shown escaped in every message, and is drawn by
pdflatex in any script. Through the real command line (one line, exit 2, no raw control
character) and the functions under it."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from importlib.resources import files

import pytest

from app.worlds.tikz import latex, to_tikz
from boards import BoardError, load_board
from kripke.explicit.belief import BeliefModel
from kripke.explicit.model import KripkeModel
from kripke.files.modelfile import ModelFileError, NamedModel, dump_model, load_model, parse_model
from lookalikes.characters import character_problem, invisible, shown
from lookalikes.skeleton import confusable_form, first_lookalike


def cli(*argv: str, cwd=None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "app.cli", *argv], capture_output=True,
                          text=True, timeout=120, cwd=cwd)


def refused(done: subprocess.CompletedProcess[str]) -> str:
    """The one line a refused command prints: exit 2, nothing on stdout, and no character a
    terminal would obey or hide (ESC, BEL, NUL, a zero-width space, a filler)."""
    assert done.returncode == 2, (done.returncode, done.stdout[-500:], done.stderr[-2000:])
    assert done.stdout == ""
    assert done.stderr.count("\n") == 1, done.stderr
    line = done.stderr[:-1]
    assert line.isprintable() and not any(invisible(c) for c in line), ascii(line)
    return line


# --- which characters a name may hold -------------------------------------------------------

@pytest.mark.parametrize(("name", "said"), [
    ("w2\x1b]0;owned\x07\x1b[2J", "holds a control character (U+001B); remove it"),
    ("w\x00", "holds a control character (U+0000)"),
    ("w\u200b1", "holds an invisible character (U+200B ZERO WIDTH SPACE); remove it"),
    ("w\u034f1", "holds an invisible character (U+034F COMBINING GRAPHEME JOINER)"),
    ("w1\ufe0f", "holds an invisible character (U+FE0F VARIATION SELECTOR-16)"),
    ("\u3164", "holds an invisible character (U+3164 HANGUL FILLER)"),
    ("w\u2800", "holds an invisible character (U+2800 BRAILLE PATTERN BLANK)"),
    ("July\u00a016", "holds a space other than ' ' (U+00A0 NO-BREAK SPACE); write a plain space"),
    ("w1 ", "starts or ends with a space, which no reader sees; remove it"),
    (" w1", "starts or ends with a space"),
    ("w\uff11", "holds '\uff11' U+FF11 FULLWIDTH DIGIT ONE, another way of drawing '1'; write "
                "'w1'"),
    ("P\u0430ris", "mixes Cyrillic and Latin letters in a word"),
])
def test_a_name_holding_what_a_reader_cannot_see_is_refused_with_the_fix(name, said):
    problem = character_problem(name)
    assert problem is not None and said in problem
    assert problem.isprintable() and "\u3164" not in problem and "\u2800" not in problem


@pytest.mark.parametrize("name", ["w1", "July 16", "café", "Москва", "Αθήνα", "東京",
                                  "Ͱ·e0", "{", "#{a, b}", "$\\x$"])
def test_names_in_one_script_a_word_are_taken(name):
    assert character_problem(name) is None


def test_a_name_in_a_message_is_escaped_and_cut():
    assert shown("w\x1b[2J\u3164") == "'w\\x1b[2J\\u3164'"
    assert shown("it's a\\b") == "'it\\'s a\\\\b'"
    assert shown("x" * 1000) == "'" + "x" * 40 + "'…"


# --- names that look alike ----------------------------------------------------------------

@pytest.mark.parametrize(("one", "other"), [
    ("a", "\u0430"),            # Latin a, Cyrillic а: each a whole word in one script
    ("A", "\u0410"),
    ("o", "\u03bf"),            # Greek omicron
    ("w1", "w\uff11"),          # fullwidth one (NFKC)
    ("w1", "wl"),               # digit one, small L
    ("modern", "rnodern"),
    ("North", "\u039dorth"),    # Greek capital nu
    ("July 16", "July  16"),
])
def test_names_a_reader_cannot_tell_apart_have_one_confusable_form(one, other):
    assert confusable_form(one) == confusable_form(other)
    assert first_lookalike([one, "z", other]) == (other, one)


def test_the_confusable_form_of_a_form_is_itself():
    """Unicode's skeleton maps each prototype to itself; the table read back from the
    two-way data keeps that for every character it holds."""
    from lookalikes.skeleton import prototypes

    table = prototypes()
    assert len(table) > 6000
    assert all(confusable_form(confusable_form(c)) == confusable_form(c) for c in table)


@pytest.mark.parametrize(("one", "other"), [("w1", "w2"), ("café", "cafe"), ("a", "b"),
                                            ("Москва", "Moskva")])
def test_names_that_look_different_have_different_forms(one, other):
    assert confusable_form(one) != confusable_form(other)
    assert first_lookalike([one, other, one]) is None  # a repeat is no lookalike


@pytest.mark.parametrize(("second", "said"), [
    ("\u0430", "world '\u0430' looks like 'a' ('\u0430' U+0430 CYRILLIC SMALL LETTER A for 'a' "
               "U+0061 LATIN SMALL LETTER A), the world on line 2; a reader cannot tell them "
               "apart, so rename one"),
    ("w\uff11", "holds '\uff11' U+FF11 FULLWIDTH DIGIT ONE"),
])
def test_a_world_that_looks_like_another_is_refused_where_it_is(second, said):
    with pytest.raises(ModelFileError, match=re.escape(said)) as e:
        parse_model(f'agents: b\nworld a:\nworld "{second}":\nb:\nactual: a\n')
    assert (e.value.line, e.value.column) == (3, 7)


def test_a_class_naming_a_lookalike_of_a_world_says_which_world_it_is_not():
    with pytest.raises(ModelFileError, match="in b's classes, but is not the declared world "
                                             "'a'; write 'a'") as e:
        parse_model("agents: b\nworld a:\nworld c:\nb: {\u0430 c}\nactual: a\n")
    assert (e.value.line, e.value.column) == (4, 5)


def test_agents_and_atoms_that_look_alike_are_refused():
    with pytest.raises(ModelFileError, match="agent 'al' looks like 'a1'"):
        parse_model("agents: a1 al\nworld w:\na1:\nal:\nactual: w\n")
    with pytest.raises(ModelFileError, match="atom 'pl' looks like 'p1'") as e:
        parse_model("agents: a\nworld w: p1\nworld v: pl\na:\nactual: w\n")
    assert (e.value.line, e.value.column) == (3, 10)


def test_a_model_whose_names_look_alike_is_not_written():
    model = NamedModel.named(KripkeModel.from_worlds([set(), set()], {"a": [0, 1]}, 0),
                             ["a", "\u0430"])
    with pytest.raises(ValueError, match="looks like"):
        dump_model(model)


# --- through the command line -----------------------------------------------------------------

HOSTILE = {
    "escape": "w2\x1b]0;owned\x07\x1b[2J",
    "nul": "w2\x00",
    "combining grapheme joiner": "w\u034f2",
    "variation selector": "w2\ufe0f",
    "hangul filler": "w2\u3164",
    "braille blank": "w\u28002",
    "no-break space": "w\u00a02",
    "trailing space": "w2 ",
    "fullwidth": "w\uff12",
}


@pytest.mark.parametrize("name", HOSTILE.values(), ids=HOSTILE.keys())
def test_the_model_command_refuses_a_hostile_world_name_on_one_clean_line(name, tmp_path):
    path = tmp_path / "m.kripke"
    path.write_text(f'agents: a\nworld w1: p\nworld "{name}":\na: {{w1 "{name}"}}\n'
                    "actual: w1\n", encoding="utf-8")
    line = refused(cli("model", str(path)))
    assert "line 3, column 7" in line and ("remove it" in line or "write" in line)


def test_a_hostile_name_in_a_line_that_is_wrong_for_another_reason_is_shown_escaped(tmp_path):
    path = tmp_path / "m.kripke"
    path.write_text('agents: a\nworld w1:\na: "w2\x1b]0;owned\x07" {w1}\nactual: w1\n',
                    encoding="utf-8")
    line = refused(cli("model", str(path)))
    assert "line 3, column 4: 'w2\\x1b]0;owned\\x07' is outside braces" in line


@pytest.mark.parametrize(("latin", "lookalike"), [("a", "\u0430"), ("o", "\u03bf"),
                                                  ("w1", "w\uff11")])
def test_the_model_command_refuses_two_worlds_that_look_alike(latin, lookalike, tmp_path):
    path = tmp_path / "m.kripke"
    path.write_text(f'agents: b\nworld {latin}:\nworld "{lookalike}":\nb:\nactual: {latin}\n',
                    encoding="utf-8")
    line = refused(cli("model", str(path)))
    assert "line 3, column 7" in line
    assert "looks like" in line or "another way of drawing" in line


def belief_json(labels: list[str]) -> str:
    return json.dumps({"format": "ttr-kripke model", "version": 1, "agents": ["a"],
                       "atoms": [], "actual": 0,
                       "worlds": [{"id": i, "label": label, "true": []}
                                  for i, label in enumerate(labels)],
                       "relations": [[[0, 1], [1, 0]]]})


@pytest.mark.parametrize(("labels", "said"), [
    (["w1", "w\u200b1"], 'worlds[1].label: \'w\\u200b1\' holds an invisible character'),
    (["w1", "w\n1"], "holds a control character (U+000A)"),
    (["w1", 'say "hi"'], "holds '\"', which no world's name may"),
    (["w1", "w1"], "is also the label of worlds[0]"),
    (["w1", "wl"], "'wl' looks like 'w1'"),
    (["a", "\u0430"], "looks like 'a'"),
])
def test_belief_json_labels_are_read_by_the_text_formats_rule(labels, said, tmp_path):
    path = tmp_path / "m.json"
    path.write_text(belief_json(labels), encoding="utf-8")
    assert said in refused(cli("model", str(path)))


def test_belief_json_labels_that_are_names_are_kept():
    model = load_model(belief_json(["Москва", "東京"]))
    assert isinstance(model, BeliefModel) and model.world_name(1) == "東京"


def board_with(names: list[str]) -> dict:
    data = json.loads(files("boards").joinpath("data", "usa.json").read_text(encoding="utf-8"))
    renamed = dict(zip([c["name"] for c in data["cities"]], names, strict=False))
    for city in data["cities"]:
        city["name"] = renamed.get(city["name"], city["name"])
    for part in (*data["connections"], *data["tickets"]):
        part["a"], part["b"] = renamed.get(part["a"], part["a"]), renamed.get(part["b"],
                                                                                part["b"])
    return data


@pytest.mark.parametrize(("names", "said"), [
    (["A", "\u0410"], "'\u0410' looks like 'A'"),                     # Latin A, Cyrillic А
    (["TAXI", "\u0422\u0410\u0425\u0406"], "looks like 'TAXI'"),  # ТАХІ, all Cyrillic
    (["Par\x1b[2Jis"], "holds a control character (U+001B)"),
    (["Paris\u3164"], "holds an invisible character (U+3164 HANGUL FILLER)"),
    (["Paris "], "starts or ends with a space"),
])
def test_a_board_whose_city_names_hide_or_look_alike_is_refused(names, said, tmp_path):
    path = tmp_path / "b.json"
    path.write_text(json.dumps(board_with(names)), encoding="utf-8")
    with pytest.raises(BoardError, match="a city name must be printable text|looks like"):
        load_board(path)
    line = refused(cli("route", "x", "y", "--board", str(path)))
    assert said in line


def test_route_finds_a_city_typed_in_a_script_that_looks_the_same(tmp_path):
    path = tmp_path / "b.json"
    path.write_text(json.dumps(board_with(["A", "North"])), encoding="utf-8")
    latin = cli("route", "A", "North", "--board", str(path))
    cyrillic = cli("route", "\u0410", "North", "--board", str(path))  # a Cyrillic А
    assert latin.returncode == 0 and ": A to North takes" in latin.stdout
    assert cyrillic.returncode == 0 and cyrillic.stdout == latin.stdout


@pytest.mark.parametrize(("typed", "said"), [
    ("Par\x1b]0;owned\x07is", "the city name 'Par\\x1b]0;owned\\x07is' holds a control "
                              "character (U+001B)"),
    ("Pa\u200bris", "holds an invisible character (U+200B ZERO WIDTH SPACE)"),
    ("x" * 100_000, "no city '" + "x" * 60 + "'… on europe24"),
])
def test_route_refuses_a_hostile_city_name_on_one_short_line(typed, said):
    line = refused(cli("route", typed, "Wien"))
    assert said in line and len(line) < 400


# --- TikZ in any script -------------------------------------------------------------------

NAMES = ["Αθήνα", "Москва", "東京", "café naïve Łódź ą", "$\\x$", "{", "%", "\\", "#", "&",
         "_", "^", "~", "x: [1pt] y", 'a<b>|"c', "x--y", "ά", "Ω: ω"]


def test_latex_draws_every_script_in_ascii():
    assert latex("Москва") == r"\textsc{u+041c}\,\textsc{u+043e}\,\textsc{u+0441}\," \
                              r"\textsc{u+043a}\,\textsc{u+0432}\,\textsc{u+0430}"
    assert latex("Αθήνα") == r"$\mathrm{A}$$\theta$$\acute{\eta}$$\nu$$\alpha$"
    assert latex("naïve Łódź") == r"na\"{\i{}}ve \L{}\'{o}d\'{z}"
    assert latex("a<b|c") == r"a\textless{}b\textbar{}c"
    assert all(latex(name).isascii() for name in NAMES)


def compiled(text: str, pdflatex: str, folder, name: str) -> None:
    (folder / f"{name}.tex").write_text(text, encoding="utf-8")
    run = subprocess.run([pdflatex, "-interaction=nonstopmode", "-halt-on-error",
                          f"{name}.tex"], cwd=folder, capture_output=True, text=True,
                         timeout=120)
    assert run.returncode == 0, run.stdout[-2000:]
    assert "Missing character" not in (folder / f"{name}.log").read_text(errors="replace")


def test_tikz_of_greek_cyrillic_cjk_and_hostile_names_compiles(pdflatex, tmp_path):
    n = len(NAMES)
    model = NamedModel.named(KripkeModel.from_worlds(
        [{"p"} if i % 2 else set() for i in range(n)],
        {"a": [i // 2 for i in range(n)], "b": [i % 3 for i in range(n)]}, 0), NAMES)
    text = to_tikz(model, title="Москва: ¬K_a p ∧ 東京 50% & #1",
                   agent_names={"a": "Алиса $\\x$", "b": "#&%_^~"})
    assert "{x:\\\\{}[1pt] y}" in text  # a name's second line, not a length after \\
    compiled(text, pdflatex, tmp_path, "s5")
    belief = BeliefModel.of([{"p"}] * n, {"a": [(i, (i + 1) % n) for i in range(n)],
                                          "b": [(i, i) for i in range(0, n, 3)]},
                            actual=0, names=NAMES)
    compiled(to_tikz(belief, agent_names={"a": "Ω", "b": "中"}), pdflatex, tmp_path, "belief")


def test_the_model_command_writes_tikz_of_any_script_that_compiles(pdflatex, tmp_path):
    (tmp_path / "m.kripke").write_text(
        'agents: a\nworld "Москва": p\nworld 東京:\nworld "Αθήνα":\nworld "$\\x$ {%}":\n'
        'a: {"Москва" 東京} {"Αθήνα" "$\\x$ {%}"}\nactual: 東京\n', encoding="utf-8")
    done = cli("model", "m.kripke", "--tikz", "m.tex", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    text = (tmp_path / "m.tex").read_text(encoding="utf-8")
    assert r"\textsc{u+6771}\,\textsc{u+4eac}" in text  # 東京
    compiled(text, pdflatex, tmp_path, "m")


def test_json_agents_and_atoms_that_look_alike_are_refused_as_in_the_text_format():
    from kripke.files.exchange import from_json

    data = {"format": "ttr-kripke model", "version": 1, "agents": ["a1", "al"], "atoms": [],
            "actual": 0, "worlds": [{"id": 0, "true": []}], "observations": [[0], [0]]}
    with pytest.raises(ValueError, match=r"^agents\[1\]: 'al' looks like 'a1'.*agents\[0\]"):
        from_json(data)
    with pytest.raises(ValueError, match=r"^atoms\[1\]: 'pl' looks like 'p1'"):
        from_json(data | {"agents": ["a"], "atoms": ["p1", "pl"], "observations": [[0]]})
