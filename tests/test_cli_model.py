"""``ttr-kripke model FILE``: a teacher's model printed, formulas checked and announcements made
in the order given, with the exit codes of ``check`` and files that load back."""

from __future__ import annotations

import subprocess
import sys
from importlib import resources

import pytest

from app.cli import main
from kripke import load_model

MODELS = resources.files("kripke") / "models"
ALICE = str(MODELS / "alice-bob.kripke")
CARDS = str(MODELS / "three-cards.kripke")


def test_prints_the_model_in_its_own_format(capsys):
    assert main(["model", ALICE]) == 0
    out = capsys.readouterr().out
    assert "world w1: p q\n" in out and "alice: {w1 w2} {w3 w4}\n" in out
    assert "bob: {w1 w3} {w2 w4}\n" in out and "actual: w1\n" in out
    assert load_model(out).n_worlds == 4  # what it prints is a model file


def test_checks_true_exit_0_and_false_exit_1(capsys):
    assert main(["model", ALICE, "--check", "K_alice p & ~K_bob p"]) == 0
    assert ("K_alice p & ~K_bob p: TRUE at the actual world (w1); it holds in 2 of 4 worlds"
            in capsys.readouterr().out)
    assert main(["model", ALICE, "--check", "K_alice p", "--check", "K_alice q"]) == 1
    out = capsys.readouterr().out
    assert "K_alice p: TRUE" in out and "K_alice q: FALSE" in out


def test_announcements_and_checks_run_in_the_order_given(capsys):
    assert main(["model", CARDS, "--check", "K_c red(a)", "--announce", "~white(a)",
                 "--check", "K_c red(a)"]) == 1  # false before, true after
    out = capsys.readouterr().out
    first, announced, second = (out.index(s) for s in (
        "K_c red(a): FALSE", "announce ~white(a): 4 of 6 worlds left", "K_c red(a): TRUE"))
    assert first < announced < second
    after = out[out.index("after the announcements:"):]
    assert "world wrb" not in after and "c: {rwb} {rbw brw} {bwr}" in after


def test_an_announcement_false_at_the_actual_world_is_refused_in_one_line(capsys):
    assert main(["model", ALICE, "--announce", "~p"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1
    assert "cannot announce ~p: it is false at the actual world" in err


def test_explain_says_why_and_needs_a_check(capsys):
    assert main(["model", ALICE, "--check", "K_bob p", "--explain"]) == 1
    out = capsys.readouterr().out
    assert "agent bob considers 2 worlds possible; p fails in world 2 (w3)" in out
    assert main(["model", ALICE, "--explain"]) == 2
    assert "--explain says why a --check has its value: add --check F" in \
        capsys.readouterr().err


def test_a_vacuous_announcement_formula_gets_its_note(capsys):
    assert main(["model", ALICE, "--check", "[!~p] false"]) == 0
    assert "~p is false at the actual world, so it cannot be announced there" in \
        capsys.readouterr().out


def test_writes_json_and_tikz_of_the_model_after_the_announcements(tmp_path, capsys):
    data, tikz = tmp_path / "m.json", tmp_path / "m.tex"
    argv = ["model", CARDS, "--announce", "~white(a)", "--json", str(data), "--tikz", str(tikz)]
    assert main(argv) == 0
    back = load_model(data)
    assert back.n_worlds == 4 and back.world_label() == "rwb" and back.holds("K_c red(a)")
    assert tikz.read_text().startswith("% A Kripke model drawn by ttr-kripke")
    assert "{rwb: blue(c) red(a) white(b)}" in tikz.read_text()  # name and atoms, as in print
    capsys.readouterr()
    assert main(argv) == 2  # files exist: refused before any work
    assert "exists; choose another --json or add --overwrite" in capsys.readouterr().err
    assert main([*argv, "--overwrite"]) == 0
    assert main(["model", str(data), "--check", "K_c red(a)"]) == 0  # the JSON loads


@pytest.mark.parametrize(("text", "argv", "message"), [
    ("agents: a\nworld w1:\na: {w1 w2}\nactual: w1\n", [],
     "line 3, column 8: unknown world 'w2' in a's classes"),
    ("agents: a\nworld w1: p\na:\nactual: w1\n", ["--check", "K_a ("], "bad formula: "),
    ("agents: a\nworld w1: p\na:\nactual: w1\n", ["--check", "K_x p"], "unknown agent 'x'"),
    ("agents: a\nworld w1: p\na:\nactual: w1\n", ["--announce", "q"], "unknown atom q"),
    ("{not json", [], "line 1, column 2: not valid JSON"),
])
def test_bad_input_is_one_line_with_code_2_and_no_output(tmp_path, capsys, text, argv, message):
    path = tmp_path / "bad.kripke"
    path.write_text(text)
    assert main(["model", str(path), *argv]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""  # refused before anything is printed
    assert captured.err.startswith("ttr-kripke model: error: ") and message in captured.err
    if "formula" not in message:
        assert captured.err.count("\n") == 1


def test_a_missing_file_exits_2_without_a_traceback(tmp_path):
    done = subprocess.run([sys.executable, "-m", "app.cli", "model", str(tmp_path / "no.kripke")],
                          capture_output=True, text=True, check=False)
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert done.stderr.count("\n") == 1 and "no file" in done.stderr
    assert main(["model", "notes.txt"]) == 2  # any name is a file name here


def test_a_json_model_without_an_actual_world_is_refused(tmp_path, capsys):
    path = tmp_path / "m.json"
    assert main(["model", ALICE, "--json", str(path)]) == 0
    path.write_text(path.read_text().replace('"actual": 0', '"actual": null'))
    capsys.readouterr()
    assert main(["model", str(path)]) == 2
    assert "names no actual world; name one" in capsys.readouterr().err


def test_a_model_too_big_to_list_is_summed_up_in_one_line(tmp_path, capsys):
    path = tmp_path / "muddy.json"
    assert main(["puzzle", "muddy", "--children", "8", "--steps", "0", "--json", str(path)]) == 0
    capsys.readouterr()
    assert main(["model", str(path), "--check", "~K_0 m0"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("256 worlds (more than 200 to list), agents 0 1 2 3 4 5 6 7, 8 atoms;")
    assert "\nworld " not in out  # no world listed
