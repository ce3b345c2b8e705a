"""The lab's metrics on hand-made games and boards with values worked out by hand: the game arc
and its triangle, city undesirability, win ratios and the win-rate distance, deck statistics."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import numpy as np
import pytest
from positions import CONN, tiny_board

from lab.decks import (
    city_pairs,
    deck_bits,
    deck_distance,
    deck_stats,
    train_distances,
    with_deck,
)
from lab.games import LabGame
from lab.metrics import Arc, ArcTally, Tally, triangle_area


def mean_arc(arcs: Iterable[Sequence[int]]) -> Arc:
    """The arc of many games (each a sequence of move counts, one per turn)."""
    tally = ArcTally()
    for arc in arcs:
        tally.add(arc)
    return tally.arc()

def test_the_triangle_through_first_turn_peak_and_last_turn():
    assert triangle_area((1, 0), (3, 4), (5, 0)) == 8
    assert triangle_area((1, 2), (2, 2), (3, 2)) == 0  # flat: no arc at all


def test_the_arc_averages_the_games_still_running_up_to_the_median_length():
    arc = mean_arc([[10, 40, 20, 5], [20, 60, 30], [30, 50], [40]])
    # turn 1: all four games; turn 2: three; turn 3: two (half) and turn 4: one (cut off)
    assert arc.moves == (25, 50, 25) and arc.games == (4, 3, 2)
    assert (arc.peak, arc.peak_turn) == (50, 2)
    assert arc.area == triangle_area((1, 25), (2, 50), (3, 25)) == 25


def game(seed, lineup, scores, wins, claimed, arc=(1,)):
    return LabGame(seed, lineup, len(arc), "trains", scores, wins, arc, claimed)


def test_undesirability_counts_games_in_which_no_claim_touched_a_city():
    board = tiny_board()  # cities A..H
    tally = Tally(board, ("x", "y"))
    tally.add(game(0, ("x", "y"), (3, 1), (1, 0), (CONN["AB"], CONN["GH"])))  # A B G H
    tally.add(game(1, ("y", "x"), (2, 2), (0.5, 0.5), (CONN["AB"], CONN["CE"])))  # A B C E
    tally.add(game(2, ("x", "y"), (0, 5), (0, 1), ()))
    m = tally.metrics()
    untouched = dict(zip(m.city_names, m.untouched, strict=True))
    assert untouched == {"A": 1, "B": 1, "C": 2, "D": 3, "E": 2, "F": 3, "G": 2, "H": 2}
    assert m.undesirability_variance == pytest.approx(np.var([1, 1, 2, 3, 2, 3, 2, 2]))
    assert m.least_desirable(2) == [("D", 3), ("F", 3)]
    assert m.most_desirable(2) == [("A", 1), ("B", 1)]


def test_win_ratios_share_ties_and_the_distance_is_smith_and_antons():
    tally = Tally(tiny_board(), ("x", "y"))
    tally.add(game(0, ("x", "y"), (3, 1), (1, 0), ()))
    tally.add(game(1, ("y", "x"), (2, 2), (0.5, 0.5), ()))
    tally.add(game(2, ("x", "y"), (0, 5), (0, 1), ()))
    tally.add(game(3, ("y", "x"), (1, 4), (0, 1), ()))
    m = tally.metrics(desired=(0.5, 0.5))
    x, y = m.kinds
    assert (x.kind, x.seats, x.win_ratio, x.score) == ("x", 4, 2.5 / 4, 9 / 4)
    assert (y.kind, y.win_ratio, y.score) == ("y", 1.5 / 4, 9 / 4)
    assert x.low < x.win_ratio < x.high
    # |0.5 - 0.625| + |0.5 - 0.375| over 2 - 2 * 0.5
    assert m.distance == pytest.approx(0.25)
    assert m.distance_low <= m.distance <= m.distance_high
    assert m.mean_turns == 1 and m.end_reasons == {"trains": 1.0}


def test_no_game_is_an_error_not_a_division_by_zero():
    with pytest.raises(ValueError, match="no game"):
        Tally(tiny_board(), ("x",)).metrics()


def test_deck_statistics_and_the_distance_between_decks():
    board = tiny_board()
    stats = deck_stats(board)
    assert (stats.tickets, stats.cities) == (12, 8)
    assert stats.average_value == pytest.approx(sum(t.points for t in board.tickets) / 12)
    assert deck_distance(board, board) == 0
    # a deck of one ticket A-D: per-city counts differ from the tiny deck's by (its - 1) at A
    # and D and by its count everywhere else
    bits = np.zeros(len(city_pairs(board)), dtype=np.int8)
    bits[city_pairs(board).index((0, 3))] = 1
    one = with_deck(board, bits)
    assert [(t.a, t.b, t.points) for t in one.tickets] == [("A", "D", 4)]
    counts = {c: 0 for c in "ABCDEFGH"}
    for t in board.tickets:
        counts[t.a] += 1
        counts[t.b] += 1
    counts["A"] -= 1
    counts["D"] -= 1
    assert deck_distance(board, one) == pytest.approx(np.sqrt(sum(v * v for v in
                                                                  counts.values())))


def test_an_evolved_ticket_is_worth_the_fewest_trains_between_its_cities():
    board = tiny_board()
    dist = train_distances(board)
    names = board.city_names
    assert dist[names.index("A"), names.index("D")] == 4  # A-B-D, A-C-D or A-D
    assert dist[names.index("A"), names.index("H")] == 8  # A-B-H
    assert dist[names.index("C"), names.index("E")] == 4  # C-D-E beats the 5-long C-E
    same = with_deck(board, deck_bits(board))
    assert {frozenset((t.a, t.b)) for t in same.tickets} == {
        frozenset((t.a, t.b)) for t in board.tickets}


def test_a_kind_in_several_seats_is_measured_by_its_share_of_the_games_won():
    tally = Tally(tiny_board(), ("x", "y"))
    tally.add(game(0, ("x", "y", "y"), (3, 1, 0), (1, 0, 0), ()))
    tally.add(game(1, ("y", "x", "y"), (0, 1, 4), (0, 0, 1), ()))
    tally.add(game(2, ("y", "y", "x"), (5, 2, 0), (1, 0, 0), ()))
    m = tally.metrics()
    assert m.desired == pytest.approx((1 / 3, 2 / 3))  # no edge: wins follow the seats
    x, y = m.kinds
    assert (x.win_ratio, y.win_ratio) == (1 / 3, 2 / 6)  # per seat: exactly fair
    assert m.distance == pytest.approx(0)  # x won 1 game of 3, y 2 of 3


def test_metrics_prints_and_writes_the_batch_and_ctrl_c_keeps_the_games_done(
        tmp_path, capsys, monkeypatch):
    import json

    from positions import tiny_board_dict

    import lab.batch
    from app.cli.main import main
    from boards.writer import dumps

    board = tmp_path / "tiny.json"
    board.write_text(dumps(tiny_board_dict()), encoding="utf-8")
    argv = ["metrics", "--board", str(board), "--rules", "simplified", "--agents",
            "baseline,random", "--games", "6", "--workers", "0", "--no-progress"]
    assert main([*argv, "--out", str(tmp_path / "m")]) == 0
    text = capsys.readouterr().out
    assert "game arc over 6 games" in text and "win-rate distance" in text
    summary = json.loads((tmp_path / "m.json").read_text())
    rows = (tmp_path / "m-games.csv").read_text().splitlines()
    assert summary["games"] == 6 and len(rows) == 7 and rows[0].startswith("seed,turns,")
    untouched = summary["undesirability"]["untouched"]
    assert sorted(untouched) == list("ABCDEFGH") and all(0 <= n <= 6 for n in untouched.values())
    assert all((tmp_path / f"m-{p}.png").read_bytes()[:4] == b"\x89PNG" for p in ("arc", "cities"))
    assert "gameplay (agents.gameplay" in text and summary["gameplay"]["games"] == 6
    assert summary["gameplay"]["turns_median"] <= max(int(r.split(",")[1]) for r in rows[1:])

    play = lab.batch.play_lab_game

    def stop_at_seed_4(spec, seed):
        if seed == 4:
            raise KeyboardInterrupt
        return play(spec, seed)

    monkeypatch.setattr(lab.batch, "play_lab_game", stop_at_seed_4)
    assert main([*argv, "--out", str(tmp_path / "cut")]) == 130
    assert "interrupted: 4 of 6 games kept in" in capsys.readouterr().err
    assert (tmp_path / "cut-games.csv").read_text().splitlines() == rows[:5]  # the same games
    assert not (tmp_path / "cut.json").exists()  # no summary of a batch that did not finish


def test_one_agent_kind_has_no_win_rate_distance_and_the_summary_stays_json(tmp_path, capsys):
    import json

    from app.cli.main import main

    assert main(["metrics", "--board", "europe24", "--rules", "simplified", "--agents",
                 "baseline", "--players", "3", "--games", "3", "--workers", "0",
                 "--no-progress", "--out", str(tmp_path / "one")]) == 0
    assert "win-rate distance: none (one agent kind" in capsys.readouterr().out
    summary = json.loads((tmp_path / "one.json").read_text(),
                         parse_constant=lambda name: pytest.fail(f"{name} in the JSON"))
    assert summary["distance"] is None
    low, high = summary["undesirability"]["variance_interval"]
    assert 0 <= low <= high


@pytest.mark.parametrize(("extra", "message"), [
    (["--board", "nowhere"], "unknown board"),
    (["--agents", "osta,nobody"], "unknown agent kind 'nobody'"),
    (["--desired", "0.5,0.5"], "--desired needs 4 shares"),
    (["--games", "0"], "argument --games: must be from 1 to 100,000, got 0"),
    (["--players", "3"], "--players goes with one kind"),
    (["--scheduler", "http://x:1"], "tcp://HOST:8786"),
    (["--out", "missing/m"], "does not exist; create it"),
])
def test_bad_metrics_options_are_one_line_and_exit_2(extra, message, tmp_path, capsys,
                                                     monkeypatch):
    from app.cli.main import main

    monkeypatch.chdir(tmp_path)
    with pytest.raises(SystemExit) as code:  # argparse's refusals exit, the command's return
        raise SystemExit(main(["metrics", "--workers", "0", "--games", "2", *extra]))
    assert code.value.code == 2
    err = capsys.readouterr().err
    assert message in err and len(err.strip().splitlines()) == 1
    assert not list(tmp_path.iterdir())  # nothing written


def test_the_lab_plays_the_simplified_game_the_gameplay_report_plays():
    """The lab steps the model itself (to count moves at each turn); the game and what the
    gameplay report measures of it are the report's own, seed by seed."""
    from agents.gameplay import game_stats
    from lab.games import LabSpec, play_lab_game

    spec = LabSpec(rules="simplified", board="europe24",
                   lineup=("epistemic", "baseline", "baseline"))
    for seed in range(3):
        game = play_lab_game(spec, seed)
        assert game.gameplay == game_stats(spec.simplified(), seed)
        assert game.turns == game.gameplay.turns == len(game.arc)


def test_a_smoothed_arc_keeps_a_trend_and_damps_a_one_turn_spike():
    from lab.metrics import Arc

    rising = Arc(tuple(float(t) for t in range(1, 21)), (1,) * 20)
    smooth = rising.smoothed(5)
    assert smooth.moves[2:-2] == rising.moves[2:-2]  # a straight line stays where it is
    spiky = Arc((10.0,) * 9 + (100.0,) + (10.0,) * 10, (1,) * 20)
    assert spiky.smoothed(9).peak < 25 < spiky.peak
    assert spiky.smoothed(9).area < spiky.area / 4
    assert spiky.smoothed(1) is spiky
