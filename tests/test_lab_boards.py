"""Board evolution's geometry on hand-made cities: the Delaunay start, each operation (remove,
duplicate, flip), the constraints (planar, connected, degree, connection count), and lengths
and colours that make a board every command loads."""

from __future__ import annotations

import random
from itertools import combinations
from pathlib import Path

import numpy as np
import pytest
from layouts import original_layout

import boards
from app.cli.main import main
from boards import COLOURS, GREY, load_board, parse_board
from boards.writer import board_document, dumps
from lab.boardgen import (
    Cities,
    broken,
    colours,
    crossings,
    degrees,
    delaunay,
    duplicate,
    flip,
    flippable,
    layout_board,
    lengths,
    pair_index,
    remove,
)


def cities(points: dict[str, tuple[float, float]]) -> Cities:
    """A board of these cities joined in a chain (the file format wants a connected board)."""
    names = list(points)
    doc = {"format": "ttr-kripke-board", "version": 1, "name": "hand",
           "cities": [{"name": n, "x": x, "y": y} for n, (x, y) in points.items()],
           "connections": [{"a": a, "b": b, "length": 2, "colour": "red"}
                           for a, b in zip(names, names[1:], strict=False)],
           "tickets": [{"a": names[0], "b": names[-1], "points": 5}]}
    return Cities(parse_board(doc))


SQUARE = cities({"A": (0.1, 0.1), "B": (0.9, 0.1), "C": (0.9, 0.9), "D": (0.1, 0.9),
                 "M": (0.5, 0.5)})
IDX = pair_index(5)
A, B, C, D, M = range(5)


def layout(*edges: tuple[int, int], n: int = 5) -> np.ndarray:
    out = np.zeros(n * (n - 1) // 2, dtype=np.int8)
    for a, b in edges:
        out[pair_index(n)[min(a, b), max(a, b)]] += 1
    return out


def test_delaunay_of_a_square_with_its_centre_is_the_sides_and_the_spokes():
    got = delaunay(SQUARE)
    assert (got == layout((A, B), (B, C), (C, D), (D, A), (A, M), (B, M), (C, M), (D, M))).all()
    assert crossings(SQUARE, got) == 0


def test_crossing_diagonals_are_seen_and_a_shared_city_is_not_a_crossing():
    assert crossings(SQUARE, layout((A, C), (B, D))) == 1
    assert crossings(SQUARE, layout((A, C), (A, B), (B, D))) == 1
    assert crossings(SQUARE, layout((A, M), (M, C), (B, M))) == 0


def test_remove_and_duplicate_change_one_connection_by_one():
    start = delaunay(SQUARE)
    rng = random.Random(0)
    fewer = remove(rng, SQUARE, start)
    assert int(fewer.sum()) == 7 and int(np.abs(fewer - start).sum()) == 1
    double = duplicate(rng, SQUARE, start)
    assert int(double.sum()) == 9 and int((double == 2).sum()) == 1
    assert int(duplicate(rng, SQUARE, layout((A, B), (A, B))).sum()) == 2  # only singles double


def test_flip_swaps_the_diagonal_of_a_convex_quadrilateral_only():
    square = cities({"A": (0.1, 0.1), "B": (0.9, 0.1), "C": (0.9, 0.9), "D": (0.1, 0.9)})
    ac = layout((0, 1), (1, 2), (2, 3), (3, 0), (0, 2), n=4)
    assert flippable(square, ac, (0, 2)) == (1, 3)
    assert flippable(square, ac, (0, 1)) is None  # a side: one triangle only
    flipped = flip(random.Random(0), square, ac)
    assert (flipped == layout((0, 1), (1, 2), (2, 3), (3, 0), (1, 3), n=4)).all()
    # a dart (D pushed inside): the quadrilateral is not convex, the diagonal cannot flip
    dart = cities({"A": (0.1, 0.1), "B": (0.9, 0.1), "C": (0.9, 0.9), "D": (0.6, 0.4)})
    assert flippable(dart, layout((0, 1), (1, 2), (2, 3), (3, 0), (1, 3), n=4), (1, 3)) is None


def test_each_constraint_is_named_when_broken():
    assert broken(SQUARE, delaunay(SQUARE)) == ["edge count"]  # 8 is above 5 cities' window
    assert SQUARE.window() == (13, 15)
    usa = Cities(load_board("usa"))
    assert usa.window() == (95, 110) and broken(usa, original_layout(usa)) == []
    start = delaunay(usa)
    assert broken(usa, start) == []  # the triangulation: planar, connected, 96 connections
    names = usa.board.city_names
    crossed = start.copy()
    crossed[pair_index(36)[tuple(sorted((names.index("Seattle"), names.index("Miami"))))]] = 1
    assert crossings(usa, crossed) > 0 and broken(usa, crossed) == ["planar"]
    cut = start.copy()
    for k, (i, j) in enumerate(combinations(range(36), 2)):
        if 0 in (i, j):
            cut[k] = 0  # city 0 alone
    assert "connected" in broken(usa, cut)
    hub = start.copy()
    for k, (i, _j) in enumerate(combinations(range(36), 2)):
        if i == 5 and start[k]:
            hub[k] = 2
    assert degrees(usa, hub)[5] > 10 and "degree" in broken(usa, hub)


def test_a_layout_that_breaks_a_constraint_plays_no_game_and_ranks_below_every_valid_one():
    """Its penalty alone is its fitness: added to an arc area in the thousands, a board with
    crossing connections could lead the population (one did, in a run on the USA)."""
    from lab.cluster import Workers
    from lab.evolve_board import BoardProblem
    from lab.games import LabSpec
    from lab.genetic import evaluate

    problem = BoardProblem(LabSpec())
    usa = problem.cities
    names = usa.board.city_names
    crossed = problem.start.copy()
    crossed[pair_index(36)[tuple(sorted((names.index("Seattle"), names.index("Miami"))))]] = 1
    assert problem.game(crossed) is None and problem.game(problem.start) is not None
    (valid, played), (bad, none) = evaluate(problem, [problem.start, crossed], range(2),
                                            Workers(None, 1, "in-process"))
    assert none is None and played is not None
    assert bad == -100 and valid > 0


def test_lengths_follow_the_map_and_colours_differ_around_every_city_the_short_ones_grey():
    usa = Cities(load_board("usa"))
    start = delaunay(usa)
    length = lengths(usa, start)
    assert set(length.values()) <= set(range(1, 7))
    # the original board's own layout gets lengths within one train of the printed ones
    printed = {tuple(sorted((usa.board.city_index[c.a], usa.board.city_index[c.b]))): c.length
               for c in usa.board.connections}
    ours = lengths(usa, original_layout(usa))
    off = [abs(ours[pair] - n) for pair, n in printed.items()]
    assert sum(d <= 1 for d in off) >= 0.95 * len(off) and max(off) <= 2
    paint = colours(usa, start)
    for city in range(36):
        around = [c for (i, j), cs in paint.items() if city in (i, j) for c in cs if c != GREY]
        assert len(around) == len(set(around)), f"two connections at city {city} share a colour"
    assert {c for cs in paint.values() for c in cs} <= {*COLOURS, GREY}
    # as many grey tracks as the printed board (44 of 100), the shortest ones
    tracks = [(length[pair], c) for pair, cs in paint.items() for c in cs]
    assert abs(sum(c == GREY for _, c in tracks) - 0.44 * len(tracks)) <= 0.5
    assert max(n for n, c in tracks if c == GREY) <= min(n for n, c in tracks if c != GREY)


@pytest.mark.parametrize("name", ["usa", "europe24"])
def test_a_board_written_back_is_its_shipped_file_byte_for_byte(name):
    """What the lab writes for an evolved board keeps every field a board file may carry (the
    default trains among them): the shipped files come back exactly."""
    shipped = load_board(name)
    text = (Path(boards.__file__).parent / "data" / f"{name}.json").read_text(encoding="utf-8")
    assert dumps(board_document(shipped)) == text
    assert shipped.trains is not None  # the field the writer must not drop


def test_a_bred_board_is_a_board_file_the_loader_takes(tmp_path):
    usa = Cities(load_board("usa"))
    start = duplicate(random.Random(3), usa, delaunay(usa))
    board = layout_board(usa, start, "usa-test", "bred")
    path = tmp_path / "bred.json"
    path.write_text(dumps(board_document(board)), encoding="utf-8")
    again = load_board(path)
    assert again.connections == board.connections and again.tickets == load_board("usa").tickets
    assert len(again.double_mates) == 2  # the double's two segments
    # the app and play take it as they take any board file
    from agents.model import TTRModel
    from app.web.components.board import board_svg

    model = TTRModel(board=str(path), players=3, agent_kinds="baseline", rng=1)
    model.run()
    picture = board_svg(model)
    assert all(name in picture for name in again.city_names)
    assert picture.count("data-connection=") == len(again.connections)


@pytest.mark.slow
def test_evolve_board_writes_the_board_its_picture_and_the_arcs(tmp_path, capsys):
    out = tmp_path / "b"
    assert main(["evolve", "board", "--cities", "usa", "--population", "2", "--generations",
                 "1", "--games", "1", "--confirm", "1", "--workers", "0", "--out", str(out),
                 "--no-progress"]) == 0
    board = load_board(tmp_path / "b-board.json")
    assert board.city_names == load_board("usa").city_names
    for name in ("b-board.png", "b-arcs.png", "b.png"):
        assert (tmp_path / name).read_bytes()[:4] == b"\x89PNG"
    text = capsys.readouterr().out
    assert "random" in text and "evolved" in text and "original" in text
