"""The ttr-kripke command line: readable output, one-line errors with exit code 2."""

from __future__ import annotations

import csv

import networkx as nx
import pytest

from app.cli.main import main
from app.web.components.session import DEFAULT_SEED
from boards import load_board


def test_play_prints_announcements_and_a_summary(capsys, tmp_path):
    log = tmp_path / "game.jsonl"
    assert main(["play", "--board", "europe24", "--players", "3", "--tickets", "2", "--seed",
                 "7", "--agents", "epistemic", "--log", str(log)]) == 0
    out = capsys.readouterr().out
    assert "announce (claim) p(" in out
    assert "game over after" in out
    for p in range(3):
        assert f"\n{p}       epistemic" in out
    assert log.exists() and log.read_text().count("\n") > 10


def test_replay_names_the_seed_play_was_given_and_play_counts_deals(capsys, tmp_path):
    """The log keeps the seed given (model_seed) and its deal's own (seed); replay reported the
    second, so a game played with --seed 30 replayed as seed 2315337690 (issue 23)."""
    log = tmp_path / "game.jsonl"
    assert main(["play", "--seed", "30", "--log", str(log)]) == 0
    out = capsys.readouterr().out
    counts = [line for line in out.splitlines() if "→" in line]
    assert counts and all(line.endswith(" deals") for line in counts)
    assert "seed 30\n" in out and "possible deals: 90 when dealt" in out
    assert main(["replay", str(log)]) == 0
    out = capsys.readouterr().out
    assert "3 players, seed 30: replayed" in out and "possible deals at the end:" in out


def test_play_summary_parts_add_up(capsys):
    assert main(["play", "--quiet", "--seed", "3"]) == 0
    rows = [line.split() for line in capsys.readouterr().out.splitlines()
            if line[:1].isdigit() and "baseline" in line]
    assert len(rows) == 3
    for row in rows:
        score, routes, plus, minus = map(int, row[2:6])
        assert score == routes + plus - minus


@pytest.mark.parametrize(("argv", "message"), [
    (["play", "--players", "nine"], "--players: must be a whole number 2 to 5, got 'nine'"),
    (["play", "--agents", "epistemic,baseline"], "2 agent kinds given for 3 players"),
    (["play", "--board", "atlantis"], "unknown board"),
    (["play", "--tickets", "0"], "--tickets: must be from 1 to 99, got 0"),
    (["play", "--bogus"], "unrecognized arguments: --bogus"),
    (["check", "K_0 (p(0,1) &"], "line 1, column 14: expected a formula"),
    (["batch", "--games", "0"], "--games: must be from 1 to 100,000, got 0"),
])
def test_bad_options_get_one_line_and_exit_code_2(argv, message, capsys):
    with pytest.raises(SystemExit) as exit_info:
        code = main(argv)
        raise SystemExit(code)
    assert exit_info.value.code == 2
    err = capsys.readouterr().err
    assert message in err
    assert "Traceback" not in err


def test_check_evaluates_at_the_actual_world_after_a_turn(capsys):
    assert main(["check", "p(0,0) | !p(0,0)", "--turn", "4", "--seed", "2"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("after turn 4: ") and "TRUE" in out
    assert main(["check", "p(0,0) & !p(0,0)", "--seed", "2"]) == 1


def test_check_refuses_a_turn_after_the_end(capsys):
    assert main(["check", "p(0,0)", "--turn", "100000", "--seed", "2"]) == 2
    assert "the game ended after turn" in capsys.readouterr().err


def test_batch_writes_a_row_per_game_and_will_not_overwrite(tmp_path, capsys):
    out = tmp_path / "games.csv"
    png = tmp_path / "plot.png"
    argv = ["batch", "--games", "6", "--workers", "2", "--csv", str(out), "--plot", str(png),
            "--agents", "epistemic,baseline,baseline", "--no-progress"]
    assert main(argv) == 0
    rows = list(csv.DictReader(out.open()))
    assert sorted(int(r["seed"]) for r in rows) == list(range(DEFAULT_SEED, DEFAULT_SEED + 6))
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    table = capsys.readouterr().out
    assert "win rate" in table and "baseline" in table and "epistemic" in table
    assert main(argv) == 2
    assert "exists; choose another --csv or add --overwrite" in capsys.readouterr().err


def test_a_reader_that_stops_early_gets_no_traceback():
    """``ttr-kripke play | head -1``: the pipe closes under the game's output."""
    import subprocess
    import sys

    proc = subprocess.Popen([sys.executable, "-m", "app.cli", "play", "--seed", "3"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    proc.stdout.close()  # before the game has printed anything
    err = proc.stderr.read().decode()
    assert proc.wait(timeout=60) == 141
    assert "Traceback" not in err and "BrokenPipeError" not in err


def test_the_console_script_runs_the_same_main_as_python_m_app_cli():
    """``ttr-kripke`` (pyproject's script) and ``python -m app.cli`` are one command line: a
    move of ``main`` that leaves the script behind fails here, not on a fresh install."""
    import importlib
    import tomllib
    from pathlib import Path

    pyproject = Path(__file__).resolve().parent.parent / "pyproject.toml"
    target = tomllib.loads(pyproject.read_text())["project"]["scripts"]["ttr-kripke"]
    module, _, name = target.partition(":")
    assert getattr(importlib.import_module(module), name) is main  # python -m: test above


def _trains(line: str) -> int:
    return int(line.rsplit("(", 1)[1].split()[0])


def test_route_gives_the_fewest_trains_and_every_other_way_as_short(capsys):
    board = load_board("usa")
    graph = nx.Graph()
    for c in board.connections:
        graph.add_edge(c.a, c.b, length=c.length)
    fewest = nx.shortest_path_length(graph, "New York", "Los Angeles", weight="length")
    assert main(["route", "--board", "usa", "new york", "Los Angeles"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].endswith(f"New York to Los Angeles takes {fewest} trains at the fewest")
    ideal = next(line for line in lines if line.startswith("ideal route: New York "))
    others = [line.strip() for line in lines if line.startswith("  New York ")]
    assert others and "other routes as short" in " ".join(lines)
    assert all(_trains(line) == fewest for line in [ideal, *others])
    routes = [line.split(" (")[0].removeprefix("ideal route: ") for line in [ideal, *others]]
    assert all(r.endswith(" Los Angeles") for r in routes)
    assert len(set(routes)) == len(routes)  # the halves of a double are not two routes


def test_route_names_the_closest_cities_for_a_misspelt_one(capsys):
    assert main(["route", "Pari", "Wien"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "no city 'Pari' on europe24" in err and "Paris" in err
    assert "Traceback" not in err
