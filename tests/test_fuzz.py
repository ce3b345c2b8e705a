"""Fuzzing the parts a stranger's input reaches: the formula parser, the board loader (mutated
valid boards), game logs (mutated valid logs) and the command line's numbers. Each must answer
with the project's own error, one that says where (a position, an entry, a line), or work;
never another exception.

CI runs a bounded number of examples per test (``TTR_FUZZ_EXAMPLES``, default 60). To run it
long, e.g. overnight::

    TTR_FUZZ_EXAMPLES=100000 .venv/bin/python -m pytest tests/test_fuzz.py -q
"""

from __future__ import annotations

import copy
import json
import os
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from app.cli.main import main
from boards.loader import BoardError, _load_text, parse_board
from kripke.language.parser import FormulaError, parse

EXAMPLES = int(os.environ.get("TTR_FUZZ_EXAMPLES", "60"))
fuzz = settings(max_examples=EXAMPLES, deadline=None,
                suppress_health_check=[HealthCheck.function_scoped_fixture,
                                       HealthCheck.too_slow])
BOARD = json.loads((Path(__file__).parents[1] / "boards" / "data" / "europe24.json")
                   .read_text(encoding="utf-8"))

#: Pieces of formulas, right and wrong, so that most examples get past the first character.
TOKENS = ["K_", "C_", "E_", "{", "}", "p(", ")", "(", ",", "&", "|", "!", "->", "<->", "T",
          "F", " ", "0", "1", "12", "9" * 40, "-", "x", "²", "١", "\x00", "\u200f", "[", "]"]
JSON = st.recursive(st.none() | st.booleans() | st.integers() | st.floats(allow_nan=True)
                    | st.text(max_size=8),
                    lambda inner: st.lists(inner, max_size=3)
                    | st.dictionaries(st.text(max_size=6), inner, max_size=3),
                    max_leaves=6)


@fuzz
@given(st.lists(st.sampled_from(TOKENS), max_size=25).map("".join) | st.text(max_size=40))
def test_parser_answers_with_a_formula_or_its_line_and_column(text):
    try:
        parse(text)
    except FormulaError as e:
        lines = text.split("\n")
        assert e.line is not None and e.column is not None and 1 <= e.line <= len(lines)
        assert 1 <= e.column <= len(lines[e.line - 1]) + 1 and e.fix


def mutate(doc: Any, data: st.DataObject) -> Any:
    """``doc`` with one part replaced by arbitrary JSON, or a key or list item removed."""
    doc = copy.deepcopy(doc)
    parent, key = None, None
    node = doc
    while isinstance(node, dict | list) and node and data.draw(st.booleans()):
        keys = list(node) if isinstance(node, dict) else list(range(len(node)))
        parent, key = node, data.draw(st.sampled_from(keys))
        node = node[key]
    if parent is None:
        return data.draw(JSON)
    if data.draw(st.booleans()):
        del parent[key]
    else:
        parent[key] = data.draw(JSON)
    return doc


@fuzz
@given(st.data())
def test_board_loader_answers_with_a_board_or_its_entry(data):
    doc = BOARD
    for _ in range(data.draw(st.integers(1, 3))):
        doc = mutate(doc, data)
    try:
        parse_board(doc, "fuzzed.json")
    except BoardError as e:
        assert e.source == "fuzzed.json" and e.entry


@fuzz
@given(st.data())
def test_board_text_with_bytes_changed(data):
    text = json.dumps(BOARD, indent=1, ensure_ascii=False)
    at = data.draw(st.integers(0, len(text) - 1))
    text = text[:at] + data.draw(st.text(max_size=4)) + text[at + data.draw(st.integers(0, 4)):]
    try:
        _load_text(text, "fuzzed.json")
    except BoardError as e:
        assert e.entry


@pytest.fixture(scope="module")
def game_log(tmp_path_factory) -> list[str]:
    path = tmp_path_factory.mktemp("log") / "game.jsonl"
    assert main(["play", "--quiet", "--seed", "5", "--log", str(path)]) == 0
    return path.read_text().splitlines()


@fuzz
@given(data=st.data())
def test_a_mutated_log_replays_or_is_refused_with_its_line(data, game_log, tmp_path):
    from agents.log import replay

    lines = list(game_log)
    number = data.draw(st.integers(0, len(lines) - 1))
    if data.draw(st.booleans()):
        lines[number] = json.dumps(mutate(json.loads(lines[number]), data))
    else:
        lines[number] = data.draw(st.sampled_from(["", "{", "[]", "1", "[" * 5000, "null"]))
    path = tmp_path / "fuzzed.jsonl"
    path.write_text("\n".join(lines) + "\n")
    try:
        replay(path)
    except ValueError as e:
        message = str(e)
        assert message.startswith(f"{path}: ") and any(
            where in message for where in ("line ", "event ")), message


NUMBER_OPTIONS = ["--players", "--tickets", "--trains", "--seed"]


@fuzz
@given(option=st.sampled_from(NUMBER_OPTIONS),
       value=st.text(max_size=30) | st.integers().map(str))
def test_a_number_option_is_checked_before_any_work(option, value, capsys):
    from app.cli.main import build_parser

    try:
        args = build_parser().parse_args(["play", option, value])
    except SystemExit as e:
        assert e.code == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and f"argument {option}: " in err
    else:
        assert isinstance(getattr(args, option[2:]), int)
