"""The teaching commands: ``ttr-kripke puzzle`` tells a story with its counts, ``check
--explain`` says why; files they write parse back."""

from __future__ import annotations

import json
import re

import pytest

from app.cli.main import main
from kripke.files.exchange import from_json


def counts(out: str) -> list[int]:
    return [int(m.group(1).replace(",", "")) for m in re.finditer(r"^ *([\d,]+)  ", out, re.M)]


@pytest.mark.parametrize(("argv", "expected", "answer"), [
    (["muddy", "--children", "4"], [16, 15, 11, 5, 1, 1], "muddy: 0, 1, 2, 3"),
    (["muddy", "--children", "4", "--muddy", "1,2,3"], [16, 15, 11, 5, 1], "muddy: 1, 2, 3"),
    (["cheryl"], [10, 5, 3, 1], "July 16"),
    (["sum-product"], [2352, 145, 86, 1], "x = 4, y = 13"),
    (["russian"], [140, 20, 3], "Alice 012, Bob 345, Cath 6"),
    (["consecutive"], [16, 14, 10, 4, 4], "Anne 2, Bill 3"),
    (["attack", "--messengers", "2"], [3, 3, 3, 2], "2 messengers got through"),
    (["dining", "--payer", "0"], [32, 16, 8, 2], "the NSA paid"),
    (["cards"], [6, 6, 6], "Anne 0, Bill 1, Cath 2"),
    (["cards", "--deal", "120"], [6, 6, 6], "Anne 1, Bill 2, Cath 0"),
    (["letter"], [2, 2, 2], "the letter says p; Alice has read it"),
    (["letter", "--away", "--says", "not-p"], [2, 4, 2],
     "the letter says not p; Alice has read it"),
])
def test_puzzle_prints_the_worlds_after_each_step_and_the_answer(argv, expected, answer,
                                                                  capsys):
    assert main(["puzzle", *argv]) == 0
    out = capsys.readouterr().out
    assert counts(out) == expected
    assert f"actual world: {answer}" in out


def test_puzzle_evaluates_a_formula_after_each_step_and_explains_it(capsys):
    assert main(["puzzle", "cheryl", "--formula", "K_albert d_July_16", "--explain",
                 "--steps", "2"]) == 0
    out = capsys.readouterr().out
    values = re.findall(r"^ *\d+  (TRUE|FALSE) ", out, re.M)
    assert values == ["FALSE", "FALSE", "TRUE"]  # Albert knows once Bernard has spoken
    assert "TRUE   K_albert d_July_16  [world July 16] Albert considers 1 world" in out


def test_puzzle_writes_json_that_reads_back_and_tikz(tmp_path, capsys):
    data, tikz = tmp_path / "m.json", tmp_path / "m.tex"
    assert main(["puzzle", "russian", "--steps", "1", "--json", str(data), "--tikz",
                 str(tikz)]) == 0
    model = from_json(json.loads(data.read_text()))
    assert model.n_worlds == 20 and model.holds("K_b (a0 & a1 & a2)")
    assert tikz.read_text().startswith("% A Kripke model drawn by ttr-kripke")
    assert [p.name for p in tmp_path.iterdir()] != [] and not list(tmp_path.glob(".*tmp"))


def test_puzzle_prints_each_event_model_it_updates_with(capsys):
    assert main(["puzzle", "cards", "--steps", "1", "--formula",
                 "K_c (K_b a0 | K_b a1 | K_b a2)"]) == 0
    out = capsys.readouterr().out
    assert re.findall(r"^ *\d+  (TRUE|FALSE) ", out, re.M) == ["FALSE", "TRUE"]
    assert "event show0: pre a0" in out and "b: {show0} {show1} {show2}" in out
    assert "actual: show0" in out


def test_puzzle_counts_the_safe_russian_cards_announcements(capsys):
    assert main(["puzzle", "russian", "--safe"]) == 0
    assert "Alice's safe announcements: 102 of 1,290 candidate lists" in capsys.readouterr().out


@pytest.mark.parametrize(("argv", "message"), [
    (["puzzle", "muddy", "--children", "9"], "argument --children: must be 1 to 8, got 9"),
    (["puzzle", "muddy", "--muddy", "a,b"], "--muddy takes child numbers"),
    (["puzzle", "dining", "--coins", "HXT"], "--coins takes three letters H or T"),
    (["puzzle", "cheryl", "--formula", "K_x d_July_16"], "unknown agent 'x'"),
    (["puzzle", "cheryl", "--explain"], "--explain needs a --formula"),
    (["puzzle", "cheryl", "--formula", "K_albert ("], "bad formula: line 1, column 11"),
    (["puzzle", "riddle"], "invalid choice: 'riddle'"),
    (["puzzle", "cards", "--deal", "0123"], "--deal gives the cards 0, 1, 2"),
    (["puzzle", "letter", "--says", "q"], "invalid choice: 'q'"),
    (["puzzle", "cheryl", "--json", "/nonexistent/dir/m.json"],
     "folder /nonexistent/dir does not exist; create it or choose another --json"),
])
def test_puzzle_bad_input_is_one_line_with_code_2(argv, message, capsys):
    with pytest.raises(SystemExit) as caught:
        raise SystemExit(main(argv))
    assert caught.value.code == 2
    err = capsys.readouterr().err
    assert message in err
    # one line, but for a formula: the parser's excerpt and caret under it
    assert err.count("\n") == (3 if "bad formula" in message else 1)


def test_check_explain_names_a_counterexample_and_calls_a_false_announcement_vacuous(capsys):
    # The default game (seed 30): player 1 holds 7 and 12, and after turn 10 agent 0 still
    # considers a world where player 1 holds ticket 2.
    assert main(["check", "K_0 ~p(1,2)", "--turn", "10", "--explain"]) == 1
    out = capsys.readouterr().out
    assert ("agent 0 considers 2 worlds possible (“0:{10,15} 1:{2,7} 2:{12,14}”, "
            "“0:{10,15} 1:{7,12} 2:{2,14}”); ~p(1,2) fails in the world "
            "“0:{10,15} 1:{2,7} 2:{12,14}”") in out
    assert main(["check", "[!p(0,2)] K_1 p(0,2)", "--explain"]) == 0
    out = capsys.readouterr().out
    assert "true only vacuously" in out.splitlines()[2]


def test_check_explains_a_symbolic_game_as_it_explains_the_same_game_listed(capsys):
    """The explanation is the model's own, whichever backend holds it: a symbolic game lists
    its deals from its law (no announcement replayed) and cites the same worlds."""
    said = []
    for backend in ("explicit", "symbolic"):
        assert main(["check", "K_0 ~p(1,2)", "--turn", "10", "--backend", backend,
                     "--explain"]) == 1
        said.append(capsys.readouterr().out)
    assert said[0] == said[1] and "fails in the world “0:{10,15} 1:{2,7} 2:{12,14}”" in said[1]
