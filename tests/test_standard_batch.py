"""The standard batch: the papers' table from the command line, its statistics, and the
win-rate distance of the design note."""

from __future__ import annotations

import csv

import pytest

from agents.kinds import seat_jobs
from agents.standard_batch import distance, summarise, wilson
from agents.standard_game import StandardSpec, play_standard_game
from app.cli.main import main


def test_the_distance_is_the_notes_example_and_one_at_worst():
    assert distance((0.35, 0.4, 0.25), (0.34, 0.38, 0.28)) == pytest.approx(0.04)
    assert distance((0.25,) * 4, (1, 0, 0, 0)) == pytest.approx(1.0)
    assert distance((0.25,) * 4, (0.25,) * 4) == 0


def test_a_batch_of_one_kind_prints_its_table(capsys, tmp_path):
    assert main(["batch", "--board", "usa", "--rules", "standard", "--agents", "ha,ha",
                 "--games", "2", "--csv", str(tmp_path / "b.csv"), "--no-progress"]) == 0
    out = capsys.readouterr().out
    assert "\nha         4     0.5000" in out  # per seat: one of the two wins each game
    assert "distance to (1): 0.000" in out


def test_wilson_intervals_hold_the_ratio_and_stay_in_zero_one():
    low, high = wilson(50, 100)
    assert low < 0.5 < high and high - low == pytest.approx(0.192, abs=0.002)
    assert wilson(0, 40)[0] == 0 and wilson(40, 40)[1] == pytest.approx(1)


def test_rotation_seats_every_agent_everywhere_and_the_summary_counts_seats():
    spec = StandardSpec()
    results = [play_standard_game(*job) for job in seat_jobs(spec, range(8))]
    assert [r.lineup[0] for r in results] == ["osta", "ha", "lrja", "pa"] * 2
    summary = summarise(results, (0.25,) * 4, resamples=200)
    assert [k.kind for k in summary.kinds] == ["osta", "pa", "lrja", "ha"]
    assert all(k.seats == 8 for k in summary.kinds)
    assert sum(k.win_ratio for k in summary.kinds) == pytest.approx(1)
    assert summary.distance.low <= summary.distance.measured <= summary.distance.high
    assert summary.distance.published_table1 == pytest.approx(0.3533, abs=1e-4)


def test_the_game_arc_counts_every_legal_move_at_each_turn_start():
    result = play_standard_game(StandardSpec(record_arc=True), 3)
    assert len(result.arc) == result.turns
    assert min(result.arc) >= 1 and max(result.arc) > 20


def test_batch_standard_prints_the_papers_table(capsys, tmp_path):
    out_csv = tmp_path / "games.csv"
    assert main(["batch", "--board", "usa", "--rules", "standard", "--agents",
                 "osta,pa,lrja,ha", "--games", "8", "--rotate-seats", "--csv", str(out_csv),
                 "--no-progress", "--seed", "0"]) == 0
    out = capsys.readouterr().out
    assert "win ratio" in out and "0.2025" in out and "0.4605" in out
    assert "win-rate distance to (0.25, 0.25, 0.25, 0.25)" in out
    assert "Table 2 gives 0.212" in out
    rows = list(csv.DictReader(out_csv.open()))
    assert len(rows) == 8 and {r["kind_0"] for r in rows} == {"osta", "pa", "lrja", "ha"}
    for r in rows:
        assert sum(float(r[f"win_{p}"]) for p in range(4)) == pytest.approx(1)


@pytest.mark.parametrize(("extra", "message"), [
    (["--desired", "0.5,0.5"], "--desired needs 4 shares"),
    (["--desired", "a,b,c,d"], "comma-separated shares"),
    (["--desired", "0.5,0.5,0.5,0.5"], "summing to 1"),
    (["--agents", "osta,epistemic"], "unknown agent kind 'epistemic'"),
    (["--plot", "x.png"], "--plot draws simplified-game batches"),
])
def test_bad_standard_batch_options_are_one_line_and_exit_2(extra, message, capsys, tmp_path):
    argv = ["batch", "--board", "usa", "--rules", "standard", "--games", "2",
            "--csv", str(tmp_path / "b.csv"), *extra]
    if "--agents" not in extra:
        argv += ["--agents", "osta,pa,lrja,ha"]
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1


def test_rotate_seats_needs_the_standard_rules(capsys, tmp_path):
    assert main(["batch", "--rotate-seats", "--games", "1", "--csv",
                 str(tmp_path / "b.csv")]) == 2
    assert "--rules standard" in capsys.readouterr().err
