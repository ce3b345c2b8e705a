"""The shipped boards carry the published facts, and broken board files are refused helpfully.

The facts are those of the checked data in ``../shared/data`` (see its README); the tests that
compare with the data itself skip when that folder is absent (set ``TTR_SHARED_DATA`` to point
elsewhere).
"""

from __future__ import annotations

import copy
import json
import os
from collections import Counter
from itertools import combinations
from pathlib import Path

import networkx as nx
import pytest

from boards import COLOURS, GREY, BoardError, builtin_boards, load_board, parse_board
from boards.loader import FORMAT_VERSION
from boards.tools.europe_cut import Cut, bridgeless, candidate_cuts, choose_cut, choose_deck
from boards.tools.make_boards import EUROPE24_RECORD, Europe, dumps, europe24_board, usa_board
from game.paths import shortest_paths

REPO = Path(__file__).resolve().parent.parent
DATA = Path(os.environ.get("TTR_SHARED_DATA", REPO.parent / "shared" / "data"))
needs_data = pytest.mark.skipif(not (DATA / "europe_map.json").is_file(),
                                reason=f"shared map data not found at {DATA}")


def _segments_between(board) -> Counter:
    return Counter(frozenset(c.cities) for c in board.connections)


def _simple_graph(board) -> nx.Graph:
    g = nx.Graph()
    g.add_nodes_from(board.city_names)
    g.add_edges_from((c.a, c.b, {"length": c.length}) for c in board.connections)
    return g


# --- the shipped USA board -------------------------------------------------------------------

def test_both_boards_are_shipped():
    assert builtin_boards() == ["europe24", "usa"]


def test_usa_has_the_published_counts():
    usa = load_board("usa")
    assert len(usa.cities) == 36
    assert len(usa.connections) == 100
    assert len(_segments_between(usa)) == 78
    assert len(usa.tickets) == 30
    assert sum(t.points for t in usa.tickets) == 349


def test_usa_colours_are_balanced_as_published():
    usa = load_board("usa")
    spaces, segments = Counter(), Counter()
    for c in usa.connections:
        spaces[c.colour] += c.length
        segments[c.colour] += 1
    for colour in COLOURS:
        assert (spaces[colour], segments[colour]) == (27, 7), colour
    assert (spaces[GREY], segments[GREY]) == (93, 44)
    assert sum(spaces.values()) == 309


def test_usa_doubles_are_22_pairs_of_equal_length_segments():
    usa = load_board("usa")
    by_pair: dict[int, list] = {}
    for c in usa.connections:
        if c.pair is not None:
            by_pair.setdefault(c.pair, []).append(c)
    assert len(by_pair) == 22
    assert all(len(segs) == 2 and segs[0].cities == segs[1].cities
               and segs[0].length == segs[1].length for segs in by_pair.values())
    doubled = {k for k, n in _segments_between(usa).items() if n == 2}
    assert doubled == {frozenset(segs[0].cities) for segs in by_pair.values()}
    # Salt Lake City–San Francisco is 5 long: the data README's one correction.
    slc = next(c for c in usa.connections
               if set(c.cities) == {"Salt Lake City", "San Francisco"})
    assert slc.length == 5


def test_usa_has_plain_connections_and_the_rulebook_points():
    usa = load_board("usa")
    assert not any(c.ferry or c.tunnel for c in usa.connections)
    assert usa.route_points == {1: 1, 2: 2, 3: 4, 4: 7, 5: 10, 6: 15}


def test_usa_is_drawn_with_y_pointing_down():
    usa = load_board("usa")
    # Seattle is north of (above) Los Angeles, Miami south-east of Seattle.
    assert usa.city("Seattle").y < usa.city("Los Angeles").y
    assert usa.city("Miami").y > usa.city("Seattle").y
    assert usa.city("Miami").x > usa.city("Seattle").x


# --- the shipped europe24 board --------------------------------------------------------------

def test_europe24_is_the_simplified_board_of_the_design():
    board = load_board("europe24")
    assert len(board.cities) == 24
    assert len(board.tickets) == 16
    assert not any(c.tunnel for c in board.connections)
    assert all(c.pair is None for c in board.connections)
    assert max(_segments_between(board).values()) == 1
    assert nx.is_connected(_simple_graph(board))
    assert board.route_points[8] == 21
    assert board.trains == json.loads(EUROPE24_RECORD.read_text(encoding="utf-8"))["trains"]


def test_europe24_has_no_bridge_and_no_dead_end():
    # A claim or a block makes a ticket longer, never impossible at one stroke.
    g = _simple_graph(load_board("europe24"))
    assert list(nx.bridges(g)) == []
    assert min(d for _, d in g.degree) >= 2


def test_europe24_every_ticket_has_two_edge_disjoint_routes():
    board = load_board("europe24")
    g = _simple_graph(board)
    for t in board.tickets:
        routes = list(nx.edge_disjoint_paths(g, t.a, t.b))
        assert len(routes) >= 2, t


def test_usa_starts_players_with_the_published_45_trains():
    assert load_board("usa").trains == 45


def test_europe24_every_ticket_can_be_finished_by_one_player():
    board = load_board("europe24")
    g = _simple_graph(board)
    for t in board.tickets:
        assert nx.shortest_path_length(g, t.a, t.b, weight="length") <= 45, t


def test_europe24_tickets_cross_and_have_detours():
    # The reason the cut was chosen: claims on shared connections are ambiguous, blocks are
    # possible, and the graph is not a tree, so a block costs a detour instead of a ticket.
    board = load_board("europe24")
    unclaimed = [None] * len(board.connections)
    paths = [shortest_paths(board, unclaimed, None, t.a, t.b).connections for t in board.tickets]
    crossing = sum(bool(p & q) for p, q in combinations(paths, 2))
    assert crossing >= 40
    assert len(board.connections) >= len(board.cities) + 5
    used = Counter(c for p in paths for c in p)
    assert min(used.values()) == 1  # some claims name a single ticket


@needs_data
def test_europe24_uses_only_real_connections_and_tickets():
    data = json.loads((DATA / "europe_map.json").read_text(encoding="utf-8"))
    board = load_board("europe24")
    real = {}
    for r in data["routes"]:
        colour = "grey" if r["color"] == "gray" else r["color"]
        real.setdefault(frozenset((r["a"], r["b"])), set()).add(
            (r["length"], colour, r["ferry_locomotives"], r["tunnel"]))
    for c in board.connections:
        assert (c.length, c.colour, c.ferry, False) in real[frozenset(c.cities)], str(c)
    regular = {(t["a"], t["b"], t["points"]) for t in data["tickets"] if not t["long"]}
    assert {(t.a, t.b, t.points) for t in board.tickets} <= regular
    positions = {c["name"]: c["board_xy_pct"] for c in data["cities"]}
    for city in board.cities:
        x, y = positions[city.name]
        assert (city.x, city.y) == pytest.approx((x / 100, y / 100), abs=1e-4)


@needs_data
def test_europe24_keeps_every_real_non_tunnel_connection_inside_the_cut():
    data = json.loads((DATA / "europe_map.json").read_text(encoding="utf-8"))
    board = load_board("europe24")
    names = set(board.city_names)
    inside = {frozenset((r["a"], r["b"])) for r in data["routes"]
              if not r["tunnel"] and r["a"] in names and r["b"] in names}
    assert set(_segments_between(board)) == inside


@needs_data
@pytest.mark.parametrize("name, build", [("usa", usa_board), ("europe24", europe24_board)])
def test_shipped_files_are_exactly_what_make_boards_writes(name, build):
    shipped = (REPO / "boards" / "data" / f"{name}.json").read_text(encoding="utf-8")
    assert dumps(build(DATA)) == shipped


@needs_data
@pytest.mark.slow
def test_the_recorded_europe24_cut_is_one_the_structural_search_finds():
    # The search's first stage is deterministic; its second (games) chose among these.
    europe = Europe(DATA)
    record = json.loads(EUROPE24_RECORD.read_text(encoding="utf-8"))
    found = candidate_cuts(europe.graph, europe.tickets)
    assert tuple(sorted(record["cities"])) in {cut.cities for cut in found}
    assert all(bridgeless(europe.graph, cut.cities) and len(cut.cities) == 24
               and len(cut.tickets) == 16 for cut in found)


def test_the_structural_search_keeps_only_bridgeless_cuts_holding_a_deck():
    g = nx.complete_graph("ABCDE")  # every city set is bridgeless on the way down
    nx.set_edge_attributes(g, 2, "length")
    tickets = [("A", "B", 4), ("B", "C", 5), ("D", "E", 6)]
    found = candidate_cuts(g, tickets, size=3, deck=2)
    for cut in found:
        assert bridgeless(g, cut.cities) and len(cut.cities) == 3 and len(cut.tickets) == 2
    assert [cut.cities for cut in found] == [("A", "B", "C")]  # the one triangle with two
    assert candidate_cuts(g, tickets, size=3, deck=3) == []
    g.remove_edges_from([("A", "C")])  # A now hangs on B alone inside A–B–C: a bridge
    assert candidate_cuts(g, tickets, size=3, deck=2) == []


def test_choose_cut_keeps_the_best_of_each_stage_by_its_evaluator():
    cuts = [Cut((name,), (), 0, 0, n) for n, name in enumerate("abcde")]
    asked = []

    def by_connections(cut):
        return cut.connections, None

    def last_stage(cut):
        asked.append(cut.cities)
        return -cut.connections, f"kept {cut.cities[0]}"

    ranked = choose_cut(cuts, [(3, by_connections), (2, last_stage)])
    assert asked == [("e",), ("d",), ("c",)]  # the second stage sees only the first's best 3
    assert [(cut.cities, kept) for cut, _, kept in ranked] == [(("c",), "kept c"),
                                                                (("d",), "kept d")]


def test_the_deck_keeps_every_point_value_it_can_and_the_extremes():
    values = [5, 5, 6, 7, 7, 8, 8, 8, 9, 10, 12, 13]
    tickets = [(f"A{i}", f"B{i}", p) for i, p in enumerate(values)]
    assert [p for _a, _b, p in choose_deck(tickets, 9)] == [5, 5, 6, 7, 8, 9, 10, 12, 13]
    assert [p for _a, _b, p in choose_deck(tickets, 6)] == [5, 6, 7, 10, 12, 13]
    assert choose_deck(tickets[:4], 6) == tuple(tickets[:4])


# --- broken board files ----------------------------------------------------------------------

VALID = {
    "format": "ttr-kripke-board", "version": FORMAT_VERSION, "name": "triangle",
    "cities": [{"name": "A", "x": 0.1, "y": 0.1}, {"name": "B", "x": 0.9, "y": 0.1},
               {"name": "C", "x": 0.5, "y": 0.9}, {"name": "D", "x": 0.5, "y": 0.5}],
    "connections": [{"a": "A", "b": "B", "length": 2, "colour": "red"},
                    {"a": "B", "b": "C", "length": 3, "colour": "grey", "ferry": 1},
                    {"a": "C", "b": "D", "length": 1, "colour": "blue", "tunnel": True},
                    {"a": "A", "b": "D", "length": 4, "colour": "white", "pair": 7},
                    {"a": "A", "b": "D", "length": 4, "colour": "black", "pair": 7}],
    "tickets": [{"a": "A", "b": "C", "points": 5}, {"a": "B", "b": "D", "points": 4}],
}


def _write(tmp_path: Path, doc_or_text) -> Path:
    path = tmp_path / "broken.json"
    text = doc_or_text if isinstance(doc_or_text, str) else json.dumps(doc_or_text)
    path.write_text(text, encoding="utf-8")
    return path


def _refused(tmp_path: Path, doc_or_text) -> tuple[Path, BoardError]:
    path = _write(tmp_path, doc_or_text)
    with pytest.raises(BoardError) as info:
        load_board(path)
    assert str(info.value).startswith(f"{path}: {info.value.entry}: ")
    return path, info.value


def _broken(change) -> dict:
    doc = copy.deepcopy(VALID)
    change(doc)
    return doc


def test_the_example_in_format_md_loads():
    text = (REPO / "boards" / "FORMAT.md").read_text(encoding="utf-8")
    example = text.split("```json\n", 1)[1].split("```", 1)[0]
    board = parse_board(json.loads(example), "boards/FORMAT.md example")
    assert [c.pair for c in board.connections] == [None, None, 1, 1, None]
    assert board.connections[1].ferry == 1 and board.connections[4].tunnel


def test_the_valid_example_loads_with_its_defaults(tmp_path):
    board = load_board(_write(tmp_path, VALID))
    assert board.title == "triangle" and board.source == ""
    assert [c.ferry for c in board.connections] == [0, 1, 0, 0, 0]
    assert [c.tunnel for c in board.connections] == [False, False, True, False, False]
    assert [c.pair for c in board.connections] == [None, None, None, 7, 7]
    assert board.route_points[8] == 21


@pytest.mark.parametrize("change, entry, problem", [
    (lambda d: d["connections"][1].update(b="Zed"), "connections[1] (B–Zed)",
     "unknown city 'Zed'"),
    (lambda d: d["tickets"][0].update(a="Atlantis"), "tickets[0] (Atlantis–C)",
     "unknown city 'Atlantis'"),
    (lambda d: d["connections"][0].update(length=9), "connections[0] (A–B)", "bad length 9"),
    (lambda d: d["connections"][0].update(length=0), "connections[0] (A–B)", "bad length 0"),
    (lambda d: d["connections"][0].update(length="2"), "connections[0] (A–B)",
     "bad length '2'"),
    (lambda d: d["connections"][0].update(length=True), "connections[0] (A–B)",
     "bad length True"),
    (lambda d: d["connections"][0].update(colour="gray"), "connections[0] (A–B)",
     "bad colour 'gray'"),
    (lambda d: d["connections"][0].update(colour="purple"), "connections[0] (A–B)",
     "bad colour 'purple'"),
    (lambda d: d["connections"][1].update(ferry=4), "connections[1] (B–C)", "bad ferry 4"),
    (lambda d: d["cities"].append({"name": "B", "x": 0.2, "y": 0.3}), "cities[4] (B)",
     "duplicate city name"),
    (lambda d: d["connections"].append({"a": "B", "b": "A", "length": 2, "colour": "blue"}),
     "connections[5] (B–A)", "duplicate connection between these cities"),
    (lambda d: d["connections"].append({"a": "D", "b": "A", "length": 4, "colour": "red"}),
     "connections[5] (D–A)", "duplicate connection between these cities"),
    (lambda d: d["connections"][4].update(pair=8), "connections[4] (A–D)",
     "duplicate connection between these cities"),
    (lambda d: d["connections"][4].update(length=3), "connections[3] (A–D)",
     "must have the same length"),
    (lambda d: d["connections"][0].update(pair=1), "connections[0] (A–B)",
     "pair 1 must join exactly two segments"),
    (lambda d: d["tickets"].append({"a": "C", "b": "A", "points": 9}), "tickets[2] (C–A)",
     "duplicate ticket between these cities"),
    (lambda d: d["tickets"][1].update(points=0), "tickets[1] (B–D)", "bad points 0"),
    (lambda d: d["cities"][2].update(y=1.5), "cities[2] (C)", '"x" and "y" must be numbers'),
    (lambda d: d["connections"][0].update(color="red"), "connections[0] (A–B)",
     "unknown field 'color'; did you mean \"colour\"?"),
    (lambda d: d.update(conections=[]), "document", "unknown field 'conections'"),
    (lambda d: d.pop("tickets"), "tickets", "missing"),
    (lambda d: d.update(name=""), "name", "must be a non-empty string"),
    (lambda d: d.update(route_points={"1": 1, "2": 2, "3": 4}), "connections[3] (A–D)",
     "length 4 has no entry in route_points"),
    (lambda d: d.update(format="ttr-board"), "format", "must be \"ttr-kripke-board\""),
    (lambda d: d.update(version=2), "version", "unsupported version 2"),
    (lambda d: d.update(version=True), "version", "unsupported version True"),
    (lambda d: d.update(trains=0), "trains", "bad trains 0"),
    (lambda d: d.update(trains=12.5), "trains", "bad trains 12.5"),
    (lambda d: d.update(trains=True), "trains", "bad trains True"),
])
def test_a_broken_board_file_is_refused_naming_file_entry_and_problem(tmp_path, change, entry,
                                                                        problem):
    path, err = _refused(tmp_path, _broken(change))
    assert (err.source, err.entry) == (str(path), entry)
    assert problem in err.problem


def test_a_board_may_carry_its_default_trains(tmp_path):
    assert load_board(_write(tmp_path, VALID)).trains is None
    assert load_board(_write(tmp_path, {**VALID, "trains": 12})).trains == 12


def test_the_fingerprint_names_what_play_depends_on_only():
    board = parse_board(VALID)
    moved = copy.deepcopy(VALID)
    moved["cities"][0]["x"], moved["title"], moved["trains"] = 0.3, "Moved", 20
    assert parse_board(moved).fingerprint == board.fingerprint
    for change in (lambda d: d["connections"][0].update(length=3),
                   lambda d: d["connections"][0].update(colour="blue"),
                   lambda d: d["tickets"][0].update(points=6),
                   lambda d: d["connections"].reverse()):
        assert parse_board(_broken(change)).fingerprint != board.fingerprint


def test_a_disconnected_board_names_the_cut_off_cities(tmp_path):
    def cut_off(d):
        d["cities"] += [{"name": "X", "x": 0.0, "y": 1.0}, {"name": "Y", "x": 1.0, "y": 1.0}]
        d["connections"].append({"a": "X", "b": "Y", "length": 1, "colour": "pink"})

    path, err = _refused(tmp_path, _broken(cut_off))
    assert (err.source, err.entry) == (str(path), "connections")
    assert "disconnected" in err.problem and "X, Y" in err.problem


def test_a_ticket_no_path_can_finish_is_refused(tmp_path):
    def strand(d):
        d["cities"] += [{"name": "X", "x": 0.0, "y": 1.0}, {"name": "Y", "x": 1.0, "y": 1.0}]
        d["connections"].append({"a": "X", "b": "Y", "length": 1, "colour": "pink"})
        d["tickets"].append({"a": "A", "b": "Y", "points": 3})

    path, err = _refused(tmp_path, _broken(strand))
    assert (err.source, err.entry) == (str(path), "tickets[2] (A–Y)")
    assert "unreachable" in err.problem


def test_bad_json_names_the_line_and_column(tmp_path):
    text = json.dumps(VALID, indent=1).replace('"name": "triangle"', '"name": triangle', 1)
    path, err = _refused(tmp_path, text)
    line = next(i for i, s in enumerate(text.splitlines(), 1) if "triangle" in s)
    assert err.source == str(path)
    assert err.entry.startswith(f"line {line} column ")
    assert "not valid JSON" in err.problem


def test_a_missing_board_file_is_named(tmp_path):
    path = tmp_path / "nowhere.json"
    with pytest.raises(BoardError) as info:
        load_board(path)
    assert (info.value.source, info.value.entry) == (str(path), "file")
    assert "no such board file" in info.value.problem


def test_a_folder_named_like_a_board_does_not_hide_the_shipped_board(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "usa").mkdir()
    assert load_board("usa").name == "usa"


def test_an_unknown_board_name_lists_the_shipped_ones():
    with pytest.raises(BoardError) as info:
        load_board("atlantis")
    assert (info.value.source, info.value.entry) == ("atlantis", "board")
    assert "unknown board" in info.value.problem and "europe24, usa" in info.value.problem
    assert str(info.value).startswith("atlantis: board: unknown board")
