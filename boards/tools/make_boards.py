"""Write the shipped board files from the checked published map data.

Run as ``python -m boards.tools.make_boards DATA_DIR`` with the shared data folder (``usa_map.json``
and ``europe_map.json``). The boards are product data and are committed; this tool exists so
that anyone can see, and repeat, exactly how they were made. It reads nothing but DATA_DIR and
the recorded europe24 cut (``europe24_cut.json`` beside it, written by the search
``python -m lab.europe24_search DATA_DIR --write``, which plays games and so lives outside
``boards``), writes only ``boards/data/*.json``, and gives the same bytes on every run.
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import networkx as nx

from boards.loader import FORMAT_NAME, FORMAT_VERSION, parse_board
from boards.tools.europe_cut import TicketRow, choose_deck
from boards.writer import dumps

OUT_DIR = Path(__file__).parent.parent / "data"
#: The europe24 cut the search chose: its cities and default trains, and what it measured.
EUROPE24_RECORD = Path(__file__).parent / "europe24_cut.json"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m boards.tools.make_boards", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("data_dir", type=Path, help="folder holding usa_map.json and "
                        "europe_map.json")
    args = parser.parse_args(argv)
    data_dir = args.data_dir.resolve()
    for name, doc in (("usa", usa_board(data_dir)), ("europe24", europe24_board(data_dir))):
        board = parse_board(doc, f"generated {name}")  # never write a board the loader refuses
        path = OUT_DIR / f"{name}.json"
        path.write_text(dumps(doc), encoding="utf-8")
        print(f"{path}: {len(board.cities)} cities, {len(board.connections)} connections, "
              f"{len(board.tickets)} tickets")
    return 0


def usa_board(data_dir: Path) -> dict[str, Any]:
    """The whole original USA map, doubles kept as pairs of segments."""
    data, source = _read(data_dir, "usa_map.json")
    pairs = _double_numbers(data["routes"])
    cities = [{"name": c["name"], "x": _coord(c["board_xy_norm"][0]),
               "y": _coord(1 - c["board_xy_norm"][1])}  # the data's y points up, ours down
              for c in data["cities"]]
    connections = [_connection(r, pairs.get(r["pair_id"]) if r["double"] else None)
                   for r in data["routes"]]
    tickets = [{"a": t["a"], "b": t["b"], "points": t["points"]} for t in data["tickets"]]
    return _document("usa", "USA", source, data, cities, connections, tickets,
                     data["rules"]["trains_per_player"])  # the rulebook's 45


def europe24_board(data_dir: Path) -> dict[str, Any]:
    """The recorded cut of the Europe map (see :data:`EUROPE24_RECORD`)."""
    record = json.loads(EUROPE24_RECORD.read_text(encoding="utf-8"))
    return Europe(data_dir).board(record["cities"], record["trains"])


class Europe:
    """The Europe map as the simplified game may use it: no tunnels, the first segment of each
    double, the regular (not long) tickets. Both this tool and the cut search make boards
    from it, so a searched cut plays exactly as the shipped file would."""

    def __init__(self, data_dir: Path):
        self.data, self.source = _read(data_dir, "europe_map.json")
        kept: dict[frozenset[str], dict] = {}
        for r in self.data["routes"]:  # the first segment of a double is the one kept
            if not r["tunnel"]:
                kept.setdefault(frozenset((r["a"], r["b"])), r)
        self.routes = list(kept.values())
        self.graph = nx.Graph()
        self.graph.add_edges_from((r["a"], r["b"], {"length": r["length"]}) for r in self.routes)
        self.tickets: list[TicketRow] = [
            (t["a"], t["b"], t["points"]) for t in self.data["tickets"]
            if not t["long"] and t["a"] in self.graph and t["b"] in self.graph]

    def board(self, chosen_cities: Iterable[str], trains: int) -> dict[str, Any]:
        """The europe24 board document of a cut: its cities, every usable connection among
        them, and the deck ``choose_deck`` takes from the regular tickets inside."""
        chosen = set(chosen_cities)
        cities = [{"name": c["name"], "x": _coord(c["board_xy_pct"][0] / 100),
                   "y": _coord(c["board_xy_pct"][1] / 100)}
                  for c in self.data["cities"] if c["name"] in chosen]
        connections = [_connection(r, None) for r in self.routes
                       if r["a"] in chosen and r["b"] in chosen]
        inside = [t for t in self.tickets if t[0] in chosen and t[1] in chosen]
        deck = set(choose_deck(inside))
        tickets = [{"a": a, "b": b, "points": p} for a, b, p in self.tickets if (a, b, p) in deck]
        note = (f"; cut to {len(chosen)} cities by python -m lab.europe24_search, written by "
                f"boards/tools/make_boards.py (tunnels dropped, one segment per double, no "
                f"bridge, {len(tickets)} of the {len(inside)} regular tickets inside)")
        return _document("europe24", "Europe 24 (simplified)", self.source + note, self.data,
                         cities, connections, tickets, trains)


def _read(data_dir: Path, filename: str) -> tuple[dict[str, Any], str]:
    """The data file and the citation for it: map, file, and the data's own sources."""
    data = json.loads((data_dir / filename).read_text(encoding="utf-8"))
    cited = f"{data_dir.parent.name}/{data_dir.name}/{filename}"
    return data, f"{data['map']}: {cited} (checked published data; see its README and sources)"


def _double_numbers(routes: list[dict]) -> dict[int, int]:
    """Number the doubles 1, 2, ... in the data's order (not 0, which reads as 'no pair')."""
    numbers: dict[int, int] = {}
    for r in routes:
        if r["double"] and r["pair_id"] not in numbers:
            numbers[r["pair_id"]] = len(numbers) + 1
    return numbers


def _connection(route: dict, pair: int | None) -> dict[str, Any]:
    """A board connection from a data route; defaults (no ferry, no tunnel, no pair) omitted."""
    out: dict[str, Any] = {"a": route["a"], "b": route["b"], "length": route["length"],
                           "colour": "grey" if route["color"] == "gray" else route["color"]}
    if route.get("ferry_locomotives"):
        out["ferry"] = route["ferry_locomotives"]
    if route.get("tunnel"):
        out["tunnel"] = True
    if pair is not None:
        out["pair"] = pair
    return out


def _coord(value: float) -> float:
    return round(value, 4)


def _document(name: str, title: str, source: str, data: dict, cities: list, connections: list,
              tickets: list, trains: int) -> dict[str, Any]:
    return {"format": FORMAT_NAME, "version": FORMAT_VERSION, "name": name, "title": title,
            "source": source, "trains": trains, "route_points": data["route_points"],
            "cities": cities, "connections": connections, "tickets": tickets}


if __name__ == "__main__":
    raise SystemExit(main())
