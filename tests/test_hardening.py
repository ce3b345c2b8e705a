"""The issue's hostile inputs, each exactly as reported: one line naming the problem and the fix,
exit code 2, no traceback, and no work started (nothing printed, no file touched) — or, where
the input is fine, the data kept."""

from __future__ import annotations

import pytest

from app.cli import main


def fails(argv: list[str], capsys: pytest.CaptureFixture[str]) -> str:
    """The one error line ``argv`` gets; asserts exit code 2 and that no game was played."""
    with pytest.raises(SystemExit) as exit_info:
        raise SystemExit(main(argv))
    assert exit_info.value.code == 2
    out, err = capsys.readouterr()
    assert out == "", "work started before the input was checked"
    assert "Traceback" not in err
    assert err.count("\n") == 1, err
    return err


@pytest.mark.parametrize(("argv", "message"), [
    (["play", "--players", "1180591620717411303424"],
     "argument --players: must be 2 to 5, got 1,180,591,620,717,411,303,424"),
    (["play", "--players", "100000000"], "argument --players: must be 2 to 5"),
    (["play", "--players", "-1"], "argument --players: must be 2 to 5, got -1"),
    (["play", "--players", "١"], "argument --players: must be a whole number 2 to 5, got '١'"),
    (["play", "--seed", "-1"], "argument --seed: must be from 0 to"),
    (["play", "--seed", "9" * 5000], "argument --seed: must be a whole number from 0 to "
                                     "9,223,372,036,854,775,807, got a 5,000-digit number"),
    (["play", "--tickets", "0"], "argument --tickets: must be from 1 to 99, got 0"),
    (["play", "--trains", "1000000000"], "argument --trains: must be from 1 to 999"),
])
def test_cli_numbers_are_checked_and_named(argv, message, capsys):
    assert message in fails(argv, capsys)


def test_help_gives_the_player_range_that_runs(capsys):
    with pytest.raises(SystemExit):
        main(["play", "--help"])
    assert "2 to 5" in capsys.readouterr().out
    assert main(["play", "--quiet", "--players", "5", "--seed", "1"]) == 0


@pytest.mark.parametrize(("where", "message"), [
    ("missing/game.jsonl", "does not exist; create it or choose another --log"),
    (".", "is a folder; give --log a file name inside it"),
    ("/proc/version", "/proc/version exists; choose another --log or add --overwrite"),
])
def test_play_log_path_refused_before_the_game(where, message, tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert message in fails(["play", "--quiet", "--log", where], capsys)


def test_play_log_into_proc_is_refused_even_with_overwrite(capsys):
    assert "cannot write in /proc" in fails(
        ["play", "--quiet", "--log", "/proc/version", "--overwrite"], capsys)


def test_play_log_keeps_an_existing_log_unless_overwrite(tmp_path, capsys):
    log = tmp_path / "game.jsonl"
    log.write_text("my notes\n")
    assert "exists; choose another --log or add --overwrite" in fails(
        ["play", "--quiet", "--log", str(log)], capsys)
    assert log.read_text() == "my notes\n"
    assert main(["play", "--quiet", "--log", str(log), "--overwrite"]) == 0
    assert log.read_text().startswith('{"format": "ttr-kripke-log"')
    assert [p.name for p in tmp_path.iterdir()] == ["game.jsonl"]  # no temporary file left
