"""A board from nothing (``balance --from-nothing``): planar regions within the bounds the
paper gives, joined by six connections per pair with nothing crossing, and the whole run from
regions to the balanced board."""

from __future__ import annotations

import csv
import json

import networkx as nx
import numpy as np
import pytest
from layouts import original_layout

from app.cli.main import main
from boards import load_board, parse_board
from boards.writer import board_document, dumps
from lab.boardgen import Cities, crossings
from lab.newboard import CONNECTIONS, DEGREES, JOINS, REGION_CITIES, Scale, joined, region


@pytest.mark.parametrize("seed", range(25))
def test_a_region_is_planar_where_it_is_drawn_and_within_the_papers_bounds(seed):
    r = region(seed)
    g = r.graph()
    degrees = [d for _, d in g.degree]
    assert g.number_of_nodes() == REGION_CITIES and nx.is_connected(g)
    assert CONNECTIONS[0] <= g.number_of_edges() <= CONNECTIONS[1]
    assert DEGREES[0] <= min(degrees) and max(degrees) <= DEGREES[1]
    assert nx.check_planarity(g)[0]
    assert region(seed) == r  # the seed alone decides it
    points = np.array(r.points)
    gaps = [np.linalg.norm(a - b) for i, a in enumerate(points) for b in points[i + 1:]]
    assert min(gaps) > 0


@pytest.mark.parametrize("seeds", [(3, 8, 11), (34, 145, 195), (0, 1, 2)])
def test_three_regions_join_into_one_board_with_up_to_six_connections_per_pair_uncrossed(seeds):
    regions = [region(s) for s in seeds]
    board = joined(regions, Scale.of(load_board("usa")), seed=5)
    assert parse_board(json.loads(dumps(board_document(board)))) == board  # a board file
    cities = Cities(board)
    assert crossings(cities, original_layout(cities)) == 0
    region_of = {c.name: c.name[0] for c in board.cities}
    between = [frozenset((region_of[c.a], region_of[c.b])) for c in board.connections
               if region_of[c.a] != region_of[c.b]]
    counts = {pair: between.count(pair) for pair in set(between)}
    assert set(counts) == {frozenset("AB"), frozenset("AC"), frozenset("BC")}
    assert all(4 <= n <= JOINS for n in counts.values())
    assert len(board.connections) == sum(len(r.edges) for r in regions) + len(between)
    assert len(board.tickets) == 30 and min(t.points for t in board.tickets) >= 4
    assert board.trains is not None and 20 <= board.trains <= 60


def test_balance_from_nothing_screens_regions_joins_the_best_three_and_balances_them(
        tmp_path, capsys):
    out = tmp_path / "new"
    argv = ["balance", "--from-nothing", "--candidates", "4", "--screen-games", "4",
            "--games", "1", "--max-games", "1", "--finest", "100", "--confirm", "4",
            "--random-boards", "1", "--workers", "0", "--no-progress", "--out", str(out),
            # a small screen: the default 31 boards in 3 rounds took 56 s of the suite's
            # CPU here, and the screen has tests of its own (test_lab_evolve)
            "--screen", "3", "--rounds", "1"]
    assert main(argv) == 0
    with open(f"{out}-regions.csv", newline="") as f:
        rows = list(csv.DictReader(f))
    assert len(rows) == 4 and [r["chosen"] for r in rows] == ["1", "1", "1", "0"]
    distances = [float(r["distance"]) for r in rows]
    assert distances == sorted(distances)  # the nearest three are the ones chosen
    new = load_board(f"{out}-new.json")
    assert sorted({c.name[0] for c in new.cities}) == ["A", "B", "C"]
    balanced = load_board(f"{out}-board.json")
    assert balanced.city_names == new.city_names
    table = capsys.readouterr().out
    assert all(label in table for label in ("new board", "balanced", "random 1"))
    capsys.readouterr()
    assert main([*argv, "--resume"]) == 0  # nothing left: the same board again
