"""``ttr-kripke model FILE``: a teacher's model printed, formulas checked and announcements made
in the order given, with the exit codes of ``check`` and files that load back."""

from __future__ import annotations

import shlex
import subprocess
import sys
from importlib import resources

import pytest

from app.cli.main import main
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
    assert "agent bob considers 2 worlds possible (“w1”, “w3”); p fails in the world “w3”" in out
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
    # name and atoms, as in print, on two lines under the world
    assert "{rwb:\\\\blue(c) red(a)\\\\white(b)}" in tikz.read_text()
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


LETTER = "# Bob reads the letter; Alice sees him read it\nevent yes: pre p\nevent no: pre ~p\n" \
         "bob: {yes} {no}\nactual: yes\n"


def test_an_event_from_a_file_says_what_each_agent_observed(tmp_path, capsys):
    path = tmp_path / "letter.events"
    path.write_text(LETTER)
    assert main(["model", ALICE, "--check", "K_bob p", "--event", str(path),
                 "--check", "K_bob p & K_alice (K_bob p | K_bob ~p)"]) == 1
    out = capsys.readouterr().out
    before, event, after = (out.index(s) for s in (
        "K_bob p: FALSE", f"event {path}: 4 worlds (were 4)\n"
        "  alice: could not tell yes from no; bob: saw yes\n",
        "K_bob p & K_alice (K_bob p | K_bob ~p): TRUE"))
    assert before < event < after
    assert "after the events:" in out and "bob: {w1} {w2} {w3} {w4}" in out


def test_an_event_as_text_splits_worlds_and_names_them_world_and_event(capsys):
    may = "event yes: pre p\nevent no: pre ~p\nevent skip: pre true\nbob: {yes} {no} {skip}\n" \
          "actual: skip"  # Bob may have read the letter; he did not
    assert main(["model", ALICE, "--event", may, "--check", "~K_bob p"]) == 0
    out = capsys.readouterr().out
    assert "event event yes: pre p ...: 8 worlds (were 4)" in out
    assert "  alice: could not tell yes, no and skip apart; bob: saw skip\n" in out
    after = out[out.index("after the events:"):]
    assert "world w1·yes: p q\n" in after and "actual: w1·skip\n" in after
    assert load_model(after[after.index("#"):]).n_worlds == 8  # what it prints reads back


@pytest.mark.parametrize(("event", "check", "seen"), [
    ("learns:bob:p", "K_bob p", "alice: could not tell yes from no; bob: saw yes"),
    ("learns:alice:q", "K_alice q & ~K_bob K_alice q | K_bob (K_alice q | K_alice ~q)",
     "alice: saw yes; bob: could not tell yes from no"),
    ("together:alice,bob:p & q", "C_{alice,bob} (p & q)", "alice: saw yes; bob: saw yes"),
    ("may:bob:~p", "K_bob p & ~K_alice (K_bob p | K_bob ~p)",
     "alice: could not tell yes, no and skip apart; bob: saw no"),
    ("announce:p", "K_bob p", "alice: saw announce; bob: saw announce"),
])
def test_ready_made_events_on_one_line(capsys, event, check, seen):
    assert main(["model", ALICE, "--event", event, "--check", check]) == 0
    assert f"  {seen}\n" in capsys.readouterr().out


def test_a_card_shown_and_events_announcements_in_the_order_given(capsys):
    assert main(["model", CARDS, "--event", "shows:a:b:red(a),white(a),blue(a)",
                 "--announce", "~white(a)", "--check", "K_b red(a) & K_c red(a)"]) == 0
    out = capsys.readouterr().out
    assert ("  a: saw show_red_a; b: saw show_red_a; c: could not tell show_red_a, "
            "show_white_a and show_blue_a apart\n") in out
    assert out.index("event shows") < out.index("announce ~white(a)")
    assert "after the announcements and events:" in out


def test_an_event_that_cannot_happen_is_refused_in_one_line(capsys):
    assert main(["model", ALICE, "--event", LETTER.replace("actual: yes", "actual: no")]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1
    assert "cannot update with event 'no': its precondition ~p is false at the actual world" \
        in err
    assert main(["model", CARDS, "--event", "shows:a:b:white(a),blue(a)"]) == 2  # a holds red
    assert "precondition white(a) is false" in capsys.readouterr().err


@pytest.mark.parametrize(("event", "message"), [
    ("event yes: pre p\nbob: {yes\nactual: yes", "line 2, column 6: this class is not closed"),
    ("event yes: pre p\nactual: nope", "line 2, column 9: no event is named 'nope'"),
    ("event yes: pre zz\nactual: yes", "unknown atom zz"),
    ("event yes: pre p\ncarol: {yes}\nactual: yes", "names agent 'carol', which the model"),
    ("learns:bob", "'learns:bob': write learns:A:F (A learns whether F"),
    ("learns:bob:p &", "in 'learns:bob:p &': expected a formula after '&'"),
    ("tells:bob:p", "'tells:bob:p' is no ready-made event; write one of announce:F, learns:A:F"),
    ("shows:alice:bob:~p", "the cards are atoms"),
    ("missing.events", "no file 'missing.events'; check the path (or pass the event model's"),
])
def test_a_bad_event_is_one_line_with_code_2_and_no_output(tmp_path, capsys, event, message):
    assert main(["model", ALICE, "--event", event]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert message in captured.err and captured.err.count("\n") == 1


def test_an_event_file_error_names_the_file_line_and_column(tmp_path, capsys):
    path = tmp_path / "bad.events"
    path.write_text("event yes: pre p\nevent no pre ~p\nactual: yes\n")
    assert main(["model", ALICE, "--event", str(path)]) == 2
    assert f"{path}: line 2, column 10: expected ':' after the event name 'no'" in \
        capsys.readouterr().err


def test_the_help_lists_the_ready_made_events_and_its_example_runs(capsys):
    with pytest.raises(SystemExit):
        main(["model", "--help"])
    out = capsys.readouterr().out
    for form in ("learns:A:F", "together:A,B:F", "may:A:F", "shows:A:B:F1,F2,...",
                 "announce:F"):
        assert form in out
    example = shlex.split(out[out.index("  ttr-kripke model "):].split("\n")[0])
    assert main(example[1:]) == 0


REFERENCE_RUNS = {
    "S5, announced": [CARDS, "--announce", "~white(a)", "--check", "K_c red(a)",
                      "--check", "C_{abc} (red(a) | blue(a))"],
    "an event with arrows": [str(MODELS / "alice-bob.kripke"), "--event", "private:alice:q",
                             "--check", "K_alice q & ~K_bob K_alice q", "--check", "M_bob p"],
    "an upgrade and belief": [str(MODELS / "red-bird.kripke"), "--check", "B_you ~bird",
                              "--event", "radical:bird", "--check", "B_you bird",
                              "--check", "Sb_you red"],
    "a belief model, symbolic": [str(MODELS / "sally-anne.kripke"), "--symbolic",
                                 "--check", "B_sally basket", "--check", "C ~basket"],
}


@pytest.mark.parametrize("name", REFERENCE_RUNS)
def test_reference_replays_the_steps_and_agrees_after_each_check(name, capsys):
    """Every --check followed by the reference checker's line, which says what it found;
    the exit code stays check's."""
    args = REFERENCE_RUNS[name]
    code = main(["model", *args])
    assert main(["model", *args, "--reference"]) == code
    out = capsys.readouterr().out
    said = [line for line in out.splitlines() if line.startswith("  the reference checker")]
    checks = [line for line in out.splitlines() if line not in said
              and (": TRUE at" in line or ": FALSE at" in line)]
    assert len(checks) == 2 * len(said) and said  # each check twice, the lines once
    for check, line in zip(checks[len(said):], said, strict=True):
        value = "TRUE" if ": TRUE at" in check else "FALSE"
        count = check[check.index("it holds in ") + len("it holds in "):].replace(" worlds", "")
        assert line == (f"  the reference checker agrees: {value} at the actual world, in "
                        f"{count} worlds")


def test_a_disagreement_is_said_and_exits_3(monkeypatch, capsys):
    """Were the reference to find another value (here made to), the line says so and the
    exit code is 3, whatever the checks found."""
    from kripke.reference import Structure

    monkeypatch.setattr(Structure, "holds", lambda self, formula: False)
    assert main(["model", ALICE, "--reference", "--check", "K_alice p"]) == 3
    out = capsys.readouterr().out
    assert ("  the reference checker DISAGREES: it finds FALSE at the actual world, in 2 of 4 "
            "worlds (a bug: please report it with this model and these steps)") in out


def test_what_the_reference_cannot_replay_is_refused_in_one_line(tmp_path, capsys):
    from kripke import KripkeModel, dump_model

    big = tmp_path / "big.kripke"
    big.write_text(dump_model(KripkeModel.from_worlds(
        [{"p"} if i % 2 else set() for i in range(301)], {"a": [i % 7 for i in range(301)]},
        actual=0, atoms=["p"])))
    refused = {
        (str(big), "--check", "p"): "--reference reads at most 300 worlds and the model has 301",
        (str(MODELS / "russian-cards.kripke"), "--event", "shows:a:b:a0,a1,a2",
         "--check", "a0"): "the model may reach 420",
        (ALICE, "--minimise", "--check", "p"): "drop --minimise",
        (str(MODELS / "red-bird.kripke"), "--event", "shift:bird", "--check", "red"):
            "has no rank shift",
    }
    for args, message in refused.items():
        code = main(["model", *args, "--reference"])
        out, err = capsys.readouterr()
        assert code == 2 and out == "" and err.count("\n") == 1 and message in err
