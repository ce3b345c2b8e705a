"""The max-score optimiser agrees with brute force, reproduces the paper, keeps game rules."""

from __future__ import annotations

import itertools
import random

import networkx as nx
import pytest

from agents.plots import max_score_plot
from app.cli.main import main
from boards import load_board, parse_board
from maxscore import frequencies, max_score, sweep, ticket_sensitivity
from maxscore.cuts import distances
from maxscore.network import build_network


def _board(cities: int, connections: list[tuple], tickets: list[tuple]):
    """A small board: connections as (a, b, length[, pair]), tickets as (a, b, points)."""
    names = [f"C{i}" for i in range(cities)]
    conns = []
    for c in connections:
        entry = {"a": names[c[0]], "b": names[c[1]], "length": c[2], "colour": "grey"}
        if len(c) > 3:
            entry["pair"] = c[3]
        conns.append(entry)
    return parse_board({
        "format": "ttr-kripke-board", "version": 1, "name": "tiny",
        "cities": [{"name": n, "x": i / cities, "y": 0.5} for i, n in enumerate(names)],
        "connections": conns,
        "tickets": [{"a": names[a], "b": names[b], "points": p} for a, b, p in tickets]})


def _random_board(seed: int):
    rng = random.Random(seed)
    n = rng.randint(5, 7)
    edges = {(i, rng.randrange(i)) for i in range(1, n)}  # a spanning tree keeps it connected
    while len(edges) < n + 3:
        a, b = rng.sample(range(n), 2)
        if (a, b) not in edges and (b, a) not in edges:
            edges.add((a, b))
    conns = [(a, b, rng.choice([1, 2, 3, 4, 5, 6])) for a, b in sorted(edges)]
    a, b, length = conns[0]
    conns.append((a, b, length, 0))  # one double route
    conns[0] = (a, b, length, 0)
    pairs = rng.sample(list(itertools.combinations(range(n), 2)), 4)
    return _board(n, conns, [(a, b, rng.randint(2, 20)) for a, b in pairs])


def _brute(board, trains, *, owned=(), usable=None, tickets=None, penalise=False,
           merge=True) -> int:
    """Best score over every set of buildable connections (owned ones free)."""
    tickets = board.tickets if tickets is None else tickets
    usable = set(range(len(board.connections)) if usable is None else usable)
    groups: dict = {}
    for c in board.connections:
        merged = merge and c.pair is not None
        groups.setdefault(c.pair if merged else ("one", c.id), []).append(c)
    mine, free = [], []
    for segs in groups.values():
        if any(s.id in owned for s in segs):
            mine.append(segs[0])
        elif any(s.id in usable for s in segs):
            free.append(segs[0])
    best = None
    for k in range(len(free) + 1):
        for pick in itertools.combinations(free, k):
            if sum(c.length for c in pick) > trains:
                continue
            g = nx.Graph()
            g.add_nodes_from(board.city_names)
            g.add_edges_from((c.a, c.b) for c in (*mine, *pick))
            score = sum(board.points_for(c.length) for c in (*mine, *pick))
            for t in tickets:
                if nx.has_path(g, t.a, t.b):
                    score += t.points
                elif penalise:
                    score -= t.points
            best = score if best is None else max(best, score)
    return best


@pytest.mark.parametrize("seed", range(6))
def test_agrees_with_brute_force(seed):
    board = _random_board(seed)
    for trains in range(0, 16, 3):
        r = max_score(board, trains)
        assert r.total == _brute(board, trains), (seed, trains)
        assert r.proven and r.bound == r.total
        assert r.trains_used <= trains


def test_unmerged_doubles_agree_with_brute_force():
    board = _random_board(7)
    for trains in (4, 9, 14):
        r = max_score(board, trains, merge_doubles=False)
        assert r.total == _brute(board, trains, merge=False) and r.proven


def test_network_in_two_pieces_beats_any_one_piece():
    # Two cheap tickets far apart: the best network is two separate connections.
    board = _board(4, [(0, 1, 1), (1, 2, 6), (2, 3, 1)], [(0, 1, 10), (2, 3, 10)])
    r = max_score(board, 2)
    assert (r.total, r.ticket_points, r.proven) == (22, 20, True)


@pytest.mark.parametrize("seed", range(4))
def test_in_game_agrees_with_brute_force(seed):
    board = _random_board(seed)
    rng = random.Random(100 + seed)
    ids = list(range(len(board.connections)))
    owned = set(rng.sample(ids[:-1], 2))  # not both segments of the double
    taken = set(rng.sample([i for i in ids if i not in owned], 2))
    usable = [i for i in ids if i not in owned | taken]
    mine = board.tickets[:2]
    for trains in (0, 3, 7):
        r = max_score(board, trains, tickets=mine, usable=usable, owned=owned,
                      penalise_unfinished=True)
        assert r.total == _brute(board, trains, owned=owned, usable=usable, tickets=mine,
                                 penalise=True), (seed, trains)
        assert r.proven
        assert owned <= {c.id for c in r.connections}
        assert not taken & {c.id for c in r.connections}


def test_owned_connections_are_free_and_others_unusable():
    board = _board(3, [(0, 1, 6), (1, 2, 2), (0, 2, 1)], [(0, 2, 9)])
    # The player owns the 6: it scores 15 without trains, and with no trains left the
    # ticket stays unfinished and counts minus.
    r = max_score(board, 0, tickets=board.tickets, owned=[0], penalise_unfinished=True)
    assert (r.connection_points, r.ticket_points) == (15, -9)
    # Someone else holds the 1-train shortcut: the ticket needs the 2 through C1.
    r = max_score(board, 2, tickets=board.tickets, owned=[0], usable=[1],
                  penalise_unfinished=True)
    assert (r.connection_points, r.ticket_points) == (17, 9)
    assert {c.id for c in r.connections} == {0, 1}


def test_owned_connection_brings_a_ticket_within_reach():
    # Only the owned 6 makes the ticket reachable with 1 train: distance cuts must see it free.
    board = _board(5, [(0, 1, 6), (3, 4, 1), (1, 2, 1), (2, 3, 4), (3, 0, 4)], [(0, 2, 9)])
    r = max_score(board, 1, tickets=board.tickets, owned=[0], penalise_unfinished=True)
    assert (r.connection_points, r.ticket_points, r.proven) == (16, 9, True)
    net = build_network(board, owned=[0])
    assert distances(net)[net.ticket_ends(board.tickets[0])] == 1


@pytest.mark.parametrize("bad, message", [
    (dict(trains=-1), "trains"), (dict(trains=2.5), "trains"), (dict(trains=True), "trains"),
    (dict(trains=5, owned=[99]), "owned"), (dict(trains=5, usable=[-1]), "usable"),
    (dict(trains=5, time_limit=0), "time limit"),
])
def test_bad_input_is_a_clear_error(bad, message):
    board = _board(2, [(0, 1, 1)], [(0, 1, 3)])
    with pytest.raises(ValueError, match=message):
        max_score(board, **bad)


@pytest.mark.parametrize("argv", [
    ["max-score", "--board", "atlantis"], ["max-score", "--trains", "-3"],
    ["max-score", "--sweep", "9:1"], ["max-score", "--sweep", "x"],
    ["max-score", "--plot", "a.png"],
    ["max-score", "--sweep", "1:3", "--tickets", "0"],  # a sweep has no game position
    ["max-score", "--owned", "3", "--sensitivity"],
])
def test_cli_rejects_bad_input_with_exit_2(argv, capsys):
    with pytest.raises(SystemExit) as exit_info:  # argparse's own errors exit from inside
        raise SystemExit(main(argv))
    assert exit_info.value.code == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "error" in err


def test_cli_prints_the_answer(capsys):
    assert main(["max-score", "--board", "usa", "--trains", "6"]) == 0
    out = capsys.readouterr().out
    assert "15 points = 15 from connections + 0 from tickets (proven optimal" in out


def test_cli_in_game_position(capsys):
    board = load_board("europe24")
    longest = max(board.connections, key=lambda c: c.length)
    assert main(["max-score", "--board", "europe24", "--trains", "0", "--tickets", "0",
                 "--owned", str(longest.id)]) == 0
    out = capsys.readouterr().out
    points = board.points_for(longest.length)
    assert f"{points - board.tickets[0].points} points = {points} from connections" in out
    assert main(["max-score", "--board", "europe24", "--owned", "x"]) == 2


def test_sweep_sensitivity_and_frequencies(tmp_path):
    board = load_board("usa")
    results = sweep(board, range(1, 9))
    assert [r.total for r in results] == [max_score(board, b).total for b in range(1, 9)]
    assert all(r.proven for r in results)
    assert [r.total for r in sweep(board, range(1, 9), workers=2)] == [r.total for r in results]
    max_score_plot(results, tmp_path / "curve.png", "USA")
    assert (tmp_path / "curve.png").read_bytes()[:4] == b"\x89PNG"
    tickets, connections = frequencies(results)
    assert sum(tickets.values()) == sum(len(r.tickets) for r in results)
    losses = ticket_sensitivity(board, results[-1])
    assert {x.ticket for x in losses} == set(results[-1].tickets)
    assert all(0 <= x.loss <= x.ticket.points for x in losses)


def test_europe24_small_budget():
    r = max_score(load_board("europe24"), 12)
    assert r.proven and r.trains_used <= 12 and r.total > 0


@pytest.mark.slow
def test_usa_45_trains_is_285_with_223_from_tickets():
    """The paper's result (Schaefer & Schaefer), proven with open-source solvers."""
    r = max_score(load_board("usa"), 45)
    assert (r.total, r.ticket_points, r.connection_points) == (285, 223, 62)
    assert r.proven and r.bound == 285
    assert r.trains_used <= 45
