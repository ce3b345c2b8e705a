"""Issue 27, item 4: replay plays the game again from the header's settings, seeds and agents and
refuses every line that does not come out as logged, by its number — also the edits the rules
and the Kripke model both accept (formulas swapped, a claim called a block, an announcement that
removed no world deleted, another line-up or seed). A log cut by Ctrl-C replays to its last
whole turn and says it was cut; one that lost its end otherwise is refused."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

import game.state as simplified
from app.cli.main import main


@pytest.fixture(scope="module")
def game(tmp_path_factory) -> list[dict[str, Any]]:
    """A 3-player game with blocks, claims that remove no world and a turn of two
    announcements."""
    path = tmp_path_factory.mktemp("log") / "game.jsonl"
    assert main(["play", "--quiet", "--players", "3", "--agents", "epistemic,baseline,epistemic",
                 "--seed", "3", "--log", str(path)]) == 0
    return [json.loads(line) for line in path.read_text().splitlines()]


def written(tmp_path: Path, lines: list[dict[str, Any]]) -> Path:
    path = tmp_path / "edited.jsonl"
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))
    return path


def refused(tmp_path: Path, lines: list[dict[str, Any]], capsys) -> str:
    """The replay command's one error line for ``lines``."""
    path = written(tmp_path, lines)
    assert main(["replay", str(path)]) == 2
    out, err = capsys.readouterr()
    assert out == "" and err.count("\n") == 1 and "Traceback" not in err, err
    assert str(path) in err
    return err


def copied(game: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return json.loads(json.dumps(game))


def first(lines: list[dict[str, Any]], test) -> int:
    """The index (0-based; its line number is one more) of the first line that passes."""
    return next(i for i, line in enumerate(lines) if i and test(line))


def test_the_game_as_logged_replays(game, tmp_path, capsys):
    assert main(["replay", str(written(tmp_path, game))]) == 0
    assert f"replayed {game[0]['final']['turn']} turns as logged" in capsys.readouterr().out


def test_two_announcements_formulas_swapped_are_refused_by_line(game, tmp_path, capsys):
    lines = copied(game)
    i = first(lines, lambda line: len({a["formula"] for a in line.get("announcements", [])}) > 1)
    made = lines[i]["announcements"]
    made[0]["formula"], made[1]["formula"] = made[1]["formula"], made[0]["formula"]
    assert f"line {i + 1}: announcement 1's formula is" in refused(tmp_path, lines, capsys)


@pytest.mark.parametrize(("was", "now"), [("block", "claim"), ("claim", "block")])
def test_a_claim_called_a_block_or_back_is_refused_by_line(game, tmp_path, capsys, was, now):
    lines = copied(game)
    i = first(lines, lambda line: any(a["kind"] == was for a in line.get("announcements", [])))
    next(a for a in lines[i]["announcements"] if a["kind"] == was)["kind"] = now
    assert f"line {i + 1}: announcement 1's kind is '{now}' in the log, '{was}' in the replay" \
        in refused(tmp_path, lines, capsys)


def test_deleting_an_announcement_that_removed_no_world_is_refused(game, tmp_path, capsys):
    lines = copied(game)
    i = first(lines, lambda line: any(a["worlds_before"] == a["worlds_after"]
                                      for a in line.get("announcements", [])))
    lines[i]["announcements"] = [a for a in lines[i]["announcements"]
                                 if a["worlds_before"] != a["worlds_after"]]
    assert f"line {i + 1}: 0 announcements in the log, 1 in the replay (an announcement is " \
           "missing or edited)" in refused(tmp_path, lines, capsys)


def test_a_turns_worlds_before_edited_is_refused(game, tmp_path, capsys):
    lines = copied(game)
    i = first(lines, lambda line: "worlds_before" in line)
    lines[i]["worlds_before"] += 1
    assert f"line {i + 1}: worlds_before is {lines[i]['worlds_before']} in the log" in \
        refused(tmp_path, lines, capsys)


def test_another_model_seed_in_the_header_is_refused_on_line_1(game, tmp_path, capsys):
    lines = copied(game)
    lines[0]["model_seed"] = 4
    assert "line 1: seed is 1022050301 in the log" in refused(tmp_path, lines, capsys)


def test_another_line_up_in_the_header_is_refused_where_play_differs(game, tmp_path, capsys):
    lines = copied(game)
    lines[0]["agents"] = ["baseline", "epistemic", "epistemic"]
    err = refused(tmp_path, lines, capsys)
    assert "replay diverges at event" in err and "line 1)" in err
    assert int(err.split(": line ")[1].split(":")[0]) > 1


def test_a_log_that_lost_its_end_but_keeps_final_is_refused_where_it_ends(game, tmp_path,
                                                                           capsys):
    lines = copied(game)[:40]
    assert "line 41: the log ends at turn" in refused(tmp_path, lines, capsys)


def test_a_log_without_final_and_cut_says_it_was_cut(game, tmp_path, capsys):
    lines = copied(game)[:40]
    del lines[0]["final"]
    assert main(["replay", str(written(tmp_path, lines))]) == 0
    out = capsys.readouterr().out
    assert "as logged" in out and "the log was cut at line 41" in out


def test_play_stopped_by_ctrl_c_inside_a_turn_logs_a_cut_game_that_replays(tmp_path, capsys,
                                                                            monkeypatch):
    """Ctrl-C after a turn's actions but before its announcements: the log keeps the whole
    turns before it (it was refused as edited: its final counted the half turn)."""
    announced = simplified.completions  # asked at the end of every turn, before announcing
    calls = 0

    def stopped_at_turn_10(*args):
        nonlocal calls
        calls += 1
        if calls == 10:
            raise KeyboardInterrupt
        return announced(*args)

    monkeypatch.setattr(simplified, "completions", stopped_at_turn_10)
    log = tmp_path / "game.jsonl"
    assert main(["play", "--quiet", "--players", "3", "--seed", "3", "--log", str(log)]) == 130
    assert "keeps the 9 whole turns played" in capsys.readouterr().err
    monkeypatch.undo()
    from agents.log import replay_log

    replayed = replay_log(log)
    assert replayed.state.turn == 9 and replayed.cut_at == len(log.read_text().splitlines()) + 1
    assert main(["replay", str(log)]) == 0
    assert "replayed 9 turns as logged\nthe log was cut at line" in capsys.readouterr().out


def test_a_log_that_is_not_utf8_names_its_file_and_line(game, tmp_path, capsys):
    path = written(tmp_path, game)
    data = path.read_bytes().split(b"\n")
    data[2] = data[2].replace(b"index", b"ind\xffx", 1)
    path.write_bytes(b"\n".join(data))
    assert main(["replay", str(path)]) == 2
    err = capsys.readouterr().err
    assert f"{path}: line 3: not UTF-8 text (byte 0xff" in err and err.count("\n") == 1


@pytest.mark.parametrize("name", ["simplified-2p-baseline", "simplified-3p-mixed",
                                  "simplified-4p-epistemic"])
def test_the_stored_logs_still_replay(name, capsys):
    log = Path(__file__).parent / "data" / "logs" / f"{name}.jsonl"
    assert main(["replay", str(log)]) == 0
    assert "as logged" in capsys.readouterr().out


STANDARD_LOG = Path(__file__).parent / "data" / "logs" / "standard-usa-4p.jsonl"


def test_a_standard_games_log_replays_with_its_strategy_agents(capsys):
    """It was refused with 'hand sizes (3, 3, 3, 3) do not fit 0 cards', naming no line."""
    assert main(["replay", str(STANDARD_LOG)]) == 0
    out = capsys.readouterr().out
    assert "USA, 4 players" in out and "turns as logged" in out


def test_a_standard_log_with_its_agents_swapped_is_refused_by_line(tmp_path, capsys):
    lines = [json.loads(line) for line in STANDARD_LOG.read_text().splitlines()]
    lines[0]["agents"] = ["pa", "osta", "lrja", "ha"]
    err = refused(tmp_path, lines, capsys)
    assert "replay diverges at event" in err and int(err.split(": line ")[1].split(":")[0]) > 1



def test_a_version_2_log_is_refused_in_one_line_saying_why(tmp_path, capsys):
    """Version 2 logs wrote a declared block as its claim (the block only in the turn's
    announcement) and were played by a random player that was not uniform over the legal
    actions: refused before replaying, with the reason."""
    log = tmp_path / "old.jsonl"
    lines = (Path(__file__).parent / "data" / "logs" / "simplified-4p-epistemic.jsonl"
             ).read_text(encoding="utf-8").splitlines()
    lines[0] = lines[0].replace('"version": 3', '"version": 2')
    log.write_text("\n".join(lines) + "\n", encoding="utf-8")
    assert main(["replay", str(log)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "log version 2 is not 3" in err
    assert "declared block was logged as the action taken" in err
