"""Read and validate board files (format documented in ``boards/FORMAT.md``).

Every problem is reported as one :class:`BoardError` naming the file, the entry and what is
wrong, because a board author fixes files by hand and needs to know where to look.
"""

from __future__ import annotations

import json
from collections import Counter
from importlib import resources
from pathlib import Path
from typing import Any

import networkx as nx

from boards.model import COLOURS, DEFAULT_ROUTE_POINTS, GREY, Board, City, Connection, Ticket

FORMAT_NAME = "ttr-kripke-board"
FORMAT_VERSION = 1
MAX_LENGTH = 8


class BoardError(ValueError):
    """A board file that cannot be used; the message says where and how to fix it."""

    def __init__(self, source: str, entry: str, problem: str):
        self.source, self.entry, self.problem = source, entry, problem
        super().__init__(f"{source}: {entry}: {problem}")


def builtin_boards() -> list[str]:
    """Names of the boards shipped with the package."""
    data = resources.files("boards") / "data"
    return sorted(p.name.removesuffix(".json") for p in data.iterdir() if p.name.endswith(".json"))


def load_board(name_or_path: str | Path) -> Board:
    """Load a shipped board by name (``europe24``, ``usa``) or a board file by path."""
    text, source = _read(name_or_path)
    try:
        raw = json.loads(text)
    except json.JSONDecodeError as e:
        raise BoardError(source, f"line {e.lineno} column {e.colno}", f"not valid JSON: {e.msg}")
    return parse_board(raw, source)


def _read(name_or_path: str | Path) -> tuple[str, str]:
    path = Path(name_or_path)
    if path.suffix == ".json" or path.exists():
        if not path.is_file():
            raise BoardError(str(path), "file", "no such board file; give a path to a .json board "
                             f"file or one of the shipped boards: {', '.join(builtin_boards())}")
        return path.read_text(encoding="utf-8"), str(path)
    name = str(name_or_path)
    if name not in builtin_boards():
        raise BoardError(name, "board", "unknown board; choose one of "
                         f"{', '.join(builtin_boards())} or give a path to a .json board file")
    ref = resources.files("boards") / "data" / f"{name}.json"
    return ref.read_text(encoding="utf-8"), f"{name} ({ref})"


def parse_board(raw: Any, source: str = "<board>") -> Board:
    """Validate a decoded board document and build the :class:`Board`."""

    def fail(entry: str, problem: str) -> BoardError:
        return BoardError(source, entry, problem)

    if not isinstance(raw, dict):
        raise fail("document", "the top level must be a JSON object")
    if raw.get("format") != FORMAT_NAME:
        raise fail("format", f'must be "{FORMAT_NAME}"')
    if raw.get("version") != FORMAT_VERSION:
        raise fail("version", f"unsupported version {raw.get('version')!r}; this reader knows "
                   f"version {FORMAT_VERSION}")
    for key in ("name", "cities", "connections", "tickets"):
        if key not in raw:
            raise fail(key, "missing")

    route_points = _route_points(raw.get("route_points"), fail)
    cities = _cities(raw["cities"], fail)
    names = {c.name for c in cities}
    connections = _connections(raw["connections"], names, route_points, fail)
    tickets = _tickets(raw["tickets"], names, fail)
    _check_connected(cities, connections, tickets, fail)

    return Board(name=str(raw["name"]), title=str(raw.get("title", raw["name"])),
                 version=FORMAT_VERSION, source=str(raw.get("source", "")), cities=cities,
                 connections=connections, tickets=tickets, route_points=route_points)


def _route_points(raw: Any, fail) -> dict[int, int]:
    if raw is None:
        return dict(DEFAULT_ROUTE_POINTS)
    if not isinstance(raw, dict):
        raise fail("route_points", "must be an object mapping length to points, e.g. {\"1\": 1}")
    table = {}
    for k, v in raw.items():
        if not (str(k).isdigit() and isinstance(v, int) and v >= 0):
            raise fail(f"route_points[{k!r}]", "lengths and points must be whole numbers >= 0")
        table[int(k)] = v
    return table


def _cities(raw: Any, fail) -> tuple[City, ...]:
    if not isinstance(raw, list) or not raw:
        raise fail("cities", "must be a non-empty list")
    out, seen = [], set()
    for i, c in enumerate(raw):
        entry = f"cities[{i}]"
        if not isinstance(c, dict) or not isinstance(c.get("name"), str) or not c["name"]:
            raise fail(entry, 'needs a "name" string')
        entry = f"cities[{i}] ({c['name']})"
        if c["name"] in seen:
            raise fail(entry, "duplicate city name")
        seen.add(c["name"])
        x, y = c.get("x"), c.get("y")
        if not all(isinstance(v, int | float) and 0 <= v <= 1 for v in (x, y)):
            raise fail(entry, '"x" and "y" must be numbers from 0 to 1 (drawing position, y down)')
        out.append(City(c["name"], float(x), float(y)))
    return tuple(out)


def _connections(raw: Any, names: set[str], route_points: dict[int, int],
                 fail) -> tuple[Connection, ...]:
    if not isinstance(raw, list) or not raw:
        raise fail("connections", "must be a non-empty list")
    out: list[Connection] = []
    seen: Counter = Counter()
    for i, c in enumerate(raw):
        if not isinstance(c, dict):
            raise fail(f"connections[{i}]", "must be an object")
        entry = f"connections[{i}] ({c.get('a')}–{c.get('b')})"
        for end in ("a", "b"):
            if c.get(end) not in names:
                raise fail(entry, f"unknown city {c.get(end)!r}; add it to \"cities\" or fix the "
                           "spelling")
        if c["a"] == c["b"]:
            raise fail(entry, "a connection must join two different cities")
        length = c.get("length")
        if not isinstance(length, int) or isinstance(length, bool) or not 1 <= length <= MAX_LENGTH:
            raise fail(entry, f"bad length {length!r}; must be a whole number from 1 to {MAX_LENGTH}")
        if length not in route_points:
            raise fail(entry, f"length {length} has no entry in route_points")
        colour = c.get("colour")
        if colour not in COLOURS and colour != GREY:
            raise fail(entry, f"bad colour {colour!r}; use one of {', '.join(COLOURS)} or {GREY}")
        ferry = c.get("ferry", 0)
        if not isinstance(ferry, int) or isinstance(ferry, bool) or not 0 <= ferry <= length:
            raise fail(entry, f"bad ferry {ferry!r}; the number of locomotives a ferry needs, "
                       "from 0 (not a ferry) to the length")
        tunnel = c.get("tunnel", False)
        if not isinstance(tunnel, bool):
            raise fail(entry, '"tunnel" must be true or false')
        pair = c.get("pair")
        if pair is not None and (not isinstance(pair, int) or isinstance(pair, bool)):
            raise fail(entry, '"pair" must be a whole number shared by the two segments of a '
                       "double connection, or absent")
        key = (frozenset((c["a"], c["b"])), pair)
        if pair is None and seen[key]:
            raise fail(entry, "duplicate connection between these cities; give both segments of a "
                       'double connection the same "pair" number')
        seen[key] += 1
        out.append(Connection(i, c["a"], c["b"], length, colour, ferry, tunnel, pair))
    pairs = Counter(c.pair for c in out if c.pair is not None)
    for c in out:
        if c.pair is not None:
            mates = [d for d in out if d.pair == c.pair]
            if pairs[c.pair] != 2 or {d.cities for d in mates} - {c.cities, c.cities[::-1]}:
                raise fail(f"connections[{c.id}] ({c.a}–{c.b})", f"pair {c.pair} must join "
                           "exactly two segments between the same two cities")
    return tuple(out)


def _tickets(raw: Any, names: set[str], fail) -> tuple[Ticket, ...]:
    if not isinstance(raw, list):
        raise fail("tickets", "must be a list")
    out, seen = [], set()
    for i, t in enumerate(raw):
        if not isinstance(t, dict):
            raise fail(f"tickets[{i}]", "must be an object")
        entry = f"tickets[{i}] ({t.get('a')}–{t.get('b')})"
        for end in ("a", "b"):
            if t.get(end) not in names:
                raise fail(entry, f"unknown city {t.get(end)!r}; add it to \"cities\" or fix the "
                           "spelling")
        if t["a"] == t["b"]:
            raise fail(entry, "a ticket must join two different cities")
        pts = t.get("points")
        if not isinstance(pts, int) or isinstance(pts, bool) or pts <= 0:
            raise fail(entry, f"bad points {pts!r}; must be a whole number above 0")
        key = frozenset((t["a"], t["b"]))
        if key in seen:
            raise fail(entry, "duplicate ticket between these cities")
        seen.add(key)
        out.append(Ticket(i, t["a"], t["b"], pts))
    return tuple(out)


def _check_connected(cities, connections, tickets, fail) -> None:
    g = nx.Graph()
    g.add_nodes_from(c.name for c in cities)
    g.add_edges_from((c.a, c.b) for c in connections)
    for t in tickets:
        if not nx.has_path(g, t.a, t.b):
            raise fail(f"tickets[{t.id}] ({t.a}–{t.b})", "unreachable: no path of connections "
                       "joins its cities")
    if not nx.is_connected(g):
        parts = sorted(nx.connected_components(g), key=len)
        raise fail("connections", "the board is disconnected; these cities cannot be reached from "
                   f"the rest: {', '.join(sorted(parts[0]))}")
