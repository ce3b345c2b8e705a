"""The one reader of the two text formats (kripke.files.reader): the same comment rule, words, class
lists and arrow lists in both, and fixes it suggests that read without error themselves, on
the cases of issue 38 and on a seeded corpus of corrupted texts."""

from __future__ import annotations

import random
import re

import pytest

from kripke.errors import TextError
from kripke.events.model import Event, EventModel, EventModelError
from kripke.files import reader
from kripke.files.eventfile import EventFileError, load_event_model, parse_event_model
from kripke.files.modelfile import ModelFileError, parse_model, starter_models
from kripke.language import parser, tokens
from kripke.language.formula import Atom, Not
from kripke.language.parser import FormulaError, parse

MODEL = """agents: a b
world 012: p
world 021:
world 102: p
world 120:
{line}
b: {{012 021 102 120}}
actual: 012
"""


@pytest.mark.parametrize(("line", "hint"), [
    ("a: 012-021, 102-120", "a: {012 021} {102 120}"),
    ("a: (012 021)", "a: {012 021}"),
    ("a: {012 021} 102", "a: {012 021} {102}"),
    ("a: 210", "a: {012 021}"),
])
def test_the_class_hint_names_declared_worlds_and_reads(line, hint):
    with pytest.raises(ModelFileError) as caught:
        parse_model(MODEL.format(line=line))
    assert f"e.g. '{hint}'" in str(caught.value)
    assert parse_model(MODEL.format(line=hint)).n_worlds == 4  # the fix, fed back, reads


def test_a_misspelt_keyword_gets_a_hint_with_a_declared_agent():
    with pytest.raises(ModelFileError, match="'actal' is not on the 'agents:' line"):
        parse_model(MODEL.format(line="a: {012} {021}").replace("actual:", "actal:"))


def test_both_formats_share_one_comment_rule_a_hash_inside_quotes_is_text():
    """The event format had split at the first '#'; now both end a line at a '#' outside a
    quoted name, and an unclosed quote is an error in both."""
    model = parse_model('agents: a\nworld "no #1": p  # a comment\na: {"no #1"}\n'
                        'actual: "no #1"')
    assert model.world_name() == "no #1"
    with pytest.raises(EventFileError, match='quoted name is not closed'):
        parse_event_model('event e: pre "p # an open quote\nactual: e')
    assert parse_event_model("event e: pre p  # a comment\nactual: e  # here").actual == "e"


def test_event_classes_take_commas_as_the_model_format_does():
    events = parse_event_model("event e: pre p\nevent f: pre ~p\na: {e, f}\nactual: e")
    assert events.classes("a") == (("e", "f"),)


EVENTS = [
    "event yes: pre p\nevent no: pre ~p\nalice: {yes} {no}\nactual: yes\n",
    "event move: pre basket\nevent skip: pre true\npost move: basket := false\n"
    "anne: {move} {skip}\nsally: move -> skip\nsally: skip -> skip\nactual: move\n",
]
SALLY = ("agents: sally anne\natoms: basket box\nworld b: basket\nworld x: box\n"
         "sally: b -> b\nsally: x -> b\nanne: {b} {x}\nactual: x\n")
NOISE = [*'{}#":,()-> ', "->", ":=", "world ", "actual:", "a:", "w9"]
#: What a suggested fix must not run into again, on its own line.
SYNTAX = re.compile(r"outside braces|arrow line|second '->'|unknown|not an event name|"
                    r"unexpected|not on the 'agents:' line")


def corrupted(rng: random.Random) -> tuple[str, bool]:
    """A shipped text with one to three random edits, and whether it is an event text."""
    event = rng.random() < 0.3
    text = rng.choice(EVENTS if event else [*starter_models().values(), SALLY])
    for _ in range(rng.randint(1, 3)):
        i = rng.randrange(len(text) + 1)
        if rng.random() < 0.5 and text:
            text = text[:i] + text[i + 1:]
        else:
            text = text[:i] + rng.choice(NOISE) + text[i:]
    return text, event


def test_every_hint_in_a_corpus_of_corrupted_texts_reads_back():
    """Each mistake is placed inside the text, and each suggested line (a class list or an
    arrow line), put in place of the line it is about, reads as a line."""
    rng = random.Random(38)
    hints = 0
    for _ in range(600):
        text, event = corrupted(rng)
        reader = parse_event_model if event else parse_model
        try:
            reader(text)
            continue
        except (ModelFileError, EventFileError) as error:
            mistake = error
        lines = text.splitlines()
        assert 1 <= mistake.line <= max(len(lines), 1) and mistake.column >= 1
        found = re.search(r"e\.g\. '([^']*)'", mistake.message)
        if not found or not re.search(r"outside braces|arrow line|second '->'", mistake.message):
            continue
        hints += 1
        lines[mistake.line - 1] = found.group(1)
        try:
            reader("\n".join(lines))
        except (ModelFileError, EventFileError) as again:
            assert not (again.line == mistake.line and SYNTAX.search(again.message)), \
                (found.group(1), again.message)
    assert hints > 30


def test_each_reader_says_line_column_problem_and_fix_the_same_way():
    """One error for the three readers: the formula's, the model file's and the event
    file's carry the same fields and print their first line alike."""
    errors = []
    for read, text in [(parse, "p &\n  & q"), (parse_model, "agents: a\nworld w1:\na: {w1"),
                       (parse_event_model, "event e: pre p\nactual: f")]:
        with pytest.raises(TextError) as caught:
            read(text)
        errors.append(caught.value)
    formula, model, event = errors
    assert isinstance(formula, FormulaError) and isinstance(model, ModelFileError)
    assert isinstance(event, EventFileError)
    assert [(e.line, e.column) for e in errors] == [(2, 3), (3, 4), (2, 9)]
    for error in errors:
        assert error.problem and error.fix and error.message == f"{error.problem}; {error.fix}"
        assert str(error).splitlines()[0] == f"line {error.line}, column {error.column}: " \
            f"{error.message}"


def test_a_formula_error_in_a_file_names_the_files_line_and_column(tmp_path):
    path = tmp_path / "letter.events"
    path.write_text("# a letter\nevent yes: pre p\nevent no: pre ~p &  # open\nactual: yes\n")
    with pytest.raises(EventFileError) as caught:
        load_event_model(path)
    error = caught.value
    # the end of the precondition on line 3, before the comment: not 'position 4' of '~p &'
    assert (error.source, error.line, error.column) == (str(path), 3, 19)
    assert str(error) == (f"{path}: line 3, column 19: expected a formula after '&', found "
                          "end of input (in the precondition); add a formula at the end")
    with pytest.raises(EventFileError) as caught:
        parse_event_model("event e: pre p\npost e: p := q @ r\nactual: e")
    assert (caught.value.line, caught.value.column) == (2, 16)


def test_a_hash_inside_a_quoted_name_on_the_agents_line_is_no_comment():
    """The agents line was split at any '#' to find the names a fix suggests; every line
    now has the one rule: a '#' inside quotes is text."""
    text = 'agents: a # b\nworld "w#1": p\nworld w2:\na: {"w#1" w2}\nactual: "w#1"\n'
    model = parse_model(text)
    assert model.agents == ("a",) and model.world_name() == "w#1"
    with pytest.raises(ModelFileError, match='e.g. \'a: {"w#1" w2}\''):
        parse_model(text.replace('a: {"w#1" w2}', 'a: "w#1" w2'))


def test_the_tokenizer_reads_each_line_once(monkeypatch):
    """Each line of a text goes through the one tokenizer once (a formula in place of its
    line's rest): no line is scanned again to find names or comments."""
    calls: list[int] = []
    formulas: list[int] = []
    real_line, real_formula = tokens.line_tokens, tokens.formula_tokens

    def line_spy(text, number, *rest, **named):
        calls.append(number)
        return real_line(text, number, *rest, **named)

    def formula_spy(formula, *rest, **named):
        formulas.append(formula.line)
        return real_formula(formula, *rest, **named)

    monkeypatch.setattr(reader, "line_tokens", line_spy)
    monkeypatch.setattr(parser, "formula_tokens", formula_spy)
    parse_model("# a comment\nagents: a b\nworld w1: p\n\nworld w2:\na: {w1 w2}\nb:\n"
                "actual: w1\n")
    assert calls == [1, 2, 3, 4, 5, 6, 7, 8]  # blank and comment lines too, once
    calls.clear()
    parse_event_model("event yes: pre p & q\nevent no: pre ~(p & q)\na: {yes} {no}\n"
                      "actual: yes  # it happens\npost no: p := q, q(0, 1) := C_{a,b} p\n")
    assert calls == [3, 4] and formulas == [1, 2, 5]  # a post line's assignments: one pass


@pytest.mark.parametrize(("text", "built"), [
    ("event y: pre p\na: {y y}\nactual: y",
     lambda: EventModel((Event("y", Atom("p")),), (("a", (("y", "y"),)),), "y")),
    ("event y: pre p\nactual: n", lambda: EventModel((Event("y", Atom("p")),), (), "n")),
    ("event y: pre p\nb: y -> z\nactual: y",
     lambda: EventModel((Event("y", Atom("p")),), (), "y", (("b", (("y", "z"),)),))),
    ("event y: pre p\npost y: q := p, q := ~p\nactual: y",
     lambda: EventModel((Event("y", Atom("p"), ((Atom("q"), Atom("p")),
                                                (Atom("q"), Not(Atom("p"))))),), (), "y")),
])
def test_an_event_model_is_checked_once_the_file_places_the_models_own_error(text, built):
    """The event file does not check again what an event model checks: it places the
    model's own error, in its own words, where the name it is about is written."""
    with pytest.raises(EventModelError) as constructed:
        built()
    with pytest.raises(EventFileError) as read:
        parse_event_model(text)
    assert read.value.message == str(constructed.value)
    assert read.value.line == 2 and read.value.column > 1
