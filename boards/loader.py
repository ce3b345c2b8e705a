"""Read and validate board files (format documented in ``boards/FORMAT.md``).

Every problem is reported as one :class:`BoardError` naming the file, the entry and what is
wrong, because a board author fixes files by hand and needs to know where to look.
"""

from __future__ import annotations

import difflib
import json
from collections import defaultdict
from collections.abc import Callable
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import Any, TypeGuard

import networkx as nx

from boards.board import (
    COLOURS,
    DEFAULT_ROUTE_POINTS,
    GREY,
    Board,
    City,
    Connection,
    Ticket,
    city_key,
)
from lookalikes.characters import character_problem, escaped, invisible, shown
from lookalikes.skeleton import confusable_form, looks_like

FORMAT_NAME = "ttr-kripke-board"
FORMAT_VERSION = 1
MAX_LENGTH = 8
#: Bounds on what a board file may hold: far above any published map (USA: 36 cities, 100
#: connections, 30 tickets, 12 kB), far below what stalls a machine (a million cities took
#: 33 s and 1.6 GB to load). A message is also cut to one readable line.
MAX_FILE_BYTES = 2_000_000
MAX_CITIES, MAX_CONNECTIONS, MAX_TICKETS = 1_000, 5_000, 5_000
#: Points a ticket or a connection is worth at most: published tickets give up to 22; 10³⁰ was
#: taken and a batch's plot then failed in numpy's histogram.
MAX_POINTS = 1_000
#: Trains each at most, as ``--trains`` takes: 10³⁰ was taken and played.
MAX_TRAINS = 999
MAX_MESSAGE = 400

#: The fields each part of a board file may have. Anything else is refused, because a misspelt
#: optional field (``"color"``, ``"ferries"``) would otherwise be silently ignored.
TOP_FIELDS = ("format", "version", "name", "title", "source", "trains", "route_points",
              "cities", "connections", "tickets")
CITY_FIELDS = ("name", "x", "y")
CONNECTION_FIELDS = ("a", "b", "length", "colour", "ferry", "tunnel", "pair")
TICKET_FIELDS = ("a", "b", "points")


class BoardError(ValueError):
    """A board file that cannot be used; the message says where and how to fix it."""

    def __init__(self, source: str, entry: str, problem: str):
        self.source, self.entry, self.problem = source, entry, problem
        super().__init__(_printable(f"{source}: {entry}: {problem}"))


def _printable(text: str) -> str:
    """A message as one terminal line: control characters and direction marks (a NUL or a
    right-to-left mark in a city name) escaped, and a very long message cut in the middle."""
    text = "".join(escaped(ch) if invisible(ch) or not ch.isprintable() else ch for ch in text)
    if len(text) > MAX_MESSAGE:
        text = f"{text[:MAX_MESSAGE - 100]} … {text[-90:]}"
    return text


def builtin_boards() -> list[str]:
    """Names of the boards shipped with the package."""
    data = resources.files("boards") / "data"
    return sorted(p.name.removesuffix(".json") for p in data.iterdir() if p.name.endswith(".json"))


def load_board(name_or_path: str | Path) -> Board:
    """Load a shipped board by name (``europe24``, ``usa``) or a board file by path."""
    return _load_text(*_read(name_or_path))


@lru_cache(maxsize=16)
def _load_text(text: str, source: str) -> Board:
    """Parse and validate once per distinct file content: a batch starts thousands of games on
    one board, and boards are immutable, so they can be shared."""
    try:
        raw = json.loads(text)
    except json.JSONDecodeError as e:
        raise BoardError(source, f"line {e.lineno} column {e.colno}",
                         f"not valid JSON: {e.msg}") from None
    except RecursionError:
        raise BoardError(source, "document", "nested too deeply to be a board; see "
                         "boards/FORMAT.md for its shape") from None
    except ValueError:  # Python refuses integers of more than 4,300 digits
        raise BoardError(source, "document", "holds a number of thousands of digits; lengths, "
                         "points and positions are small numbers") from None
    return parse_board(raw, source)


def _read(name_or_path: str | Path) -> tuple[str, str]:
    path = Path(name_or_path)
    if path.suffix == ".json" or path.is_file():  # a folder named "usa" is not a board file
        if not path.is_file():
            raise BoardError(str(path), "file", "no such board file; give a path to a .json board "
                             f"file or one of the shipped boards: {', '.join(builtin_boards())}")
        return _decode(path), str(path)
    name = str(name_or_path)
    if name not in builtin_boards():
        raise BoardError(name, "board", "unknown board; choose one of "
                         f"{', '.join(builtin_boards())} or give a path to a .json board file")
    ref = resources.files("boards") / "data" / f"{name}.json"
    return ref.read_text(encoding="utf-8"), f"{name} ({ref})"


def _decode(path: Path) -> str:
    """The file's text, checked for size before it is read and for UTF-8 as it is."""
    source = str(path)
    try:
        size = path.stat().st_size
        if size > MAX_FILE_BYTES:
            raise BoardError(source, "file", f"{size:,} bytes is too big for a board file (at "
                             f"most {MAX_FILE_BYTES:,}); is this a board?")
        data = path.read_bytes()
    except OSError as e:
        raise BoardError(source, "file", f"cannot be read ({e.strerror})") from None
    try:
        return data.decode("utf-8-sig")  # Notepad starts a UTF-8 file with a byte-order mark
    except UnicodeDecodeError as e:
        raise BoardError(source, f"byte {e.start}", "not UTF-8 text; save the file as UTF-8") \
            from None


def parse_board(raw: Any, source: str = "<board>") -> Board:
    """Validate a decoded board document and build the :class:`Board`."""

    def fail(entry: str, problem: str) -> BoardError:
        return BoardError(source, entry, problem)

    if not isinstance(raw, dict):
        raise fail("document", "the top level must be a JSON object")
    if raw.get("format") != FORMAT_NAME:
        raise fail("format", f'is {raw.get("format")!r}; must be "{FORMAT_NAME}" (is this a '
                   "board file?)")
    version = raw.get("version")
    if type(version) is not int or version != FORMAT_VERSION:  # 1.0 and true are not 1
        raise fail("version", f"unsupported version {version!r}; this reader knows version "
                   f"{FORMAT_VERSION} (see boards/FORMAT.md)")
    _check_fields(raw, TOP_FIELDS, "document", fail)
    for key in ("name", "cities", "connections", "tickets"):
        if key not in raw:
            raise fail(key, "missing; see boards/FORMAT.md for the required fields")
    if not isinstance(raw["name"], str) or not raw["name"]:
        raise fail("name", "must be a non-empty string")
    for key in ("title", "source"):
        if not isinstance(raw.get(key, ""), str):
            raise fail(key, "must be a string")

    trains = raw.get("trains")
    if trains is not None and not (_is_whole(trains) and 1 <= trains <= MAX_TRAINS):
        raise fail("trains", f"bad trains {trains!r}; the trains each player starts with, a "
                   f"whole number from 1 to {MAX_TRAINS} (or leave it out)")
    route_points = _route_points(raw.get("route_points"), fail)
    cities = _cities(raw["cities"], fail)
    names = {c.name for c in cities}
    connections = _connections(raw["connections"], names, route_points, fail)
    tickets = _tickets(raw["tickets"], names, fail)
    _check_connected(cities, connections, tickets, fail)

    return Board(name=raw["name"], title=raw.get("title", raw["name"]),
                 version=FORMAT_VERSION, source=raw.get("source", ""), cities=cities,
                 connections=connections, tickets=tickets, route_points=route_points,
                 trains=trains)


Fail = Callable[[str, str], BoardError]


def _is_whole(value: object) -> TypeGuard[int]:
    """An int that is not a bool (JSON true would otherwise pass as 1)."""
    return isinstance(value, int) and not isinstance(value, bool)


def _is_fraction(value: object) -> TypeGuard[float]:
    """A number from 0 to 1 that is not a bool."""
    return isinstance(value, int | float) and not isinstance(value, bool) and 0 <= value <= 1


def _check_fields(entry_raw: dict, allowed: tuple[str, ...], entry: str, fail: Fail) -> None:
    for key in entry_raw:
        if key not in allowed:
            close = difflib.get_close_matches(str(key), allowed, n=1)
            hint = f'did you mean "{close[0]}"?' if close else f"allowed: {', '.join(allowed)}"
            raise fail(entry, f"unknown field {key!r}; {hint}")


def _route_points(raw: Any, fail: Fail) -> dict[int, int]:
    if raw is None:
        return dict(DEFAULT_ROUTE_POINTS)
    if not isinstance(raw, dict):
        raise fail("route_points", "must be an object mapping length to points, e.g. {\"1\": 1}")
    table = {}
    for k, v in raw.items():
        # ASCII digits only: "²" is a digit int() refuses, and "١" (an Arabic one) silently
        # overrode length 1
        key = str(k)
        if not (key.isascii() and key.isdigit() and 1 <= int(key) <= MAX_LENGTH and _is_whole(v)
                and 0 <= v <= MAX_POINTS and int(key) not in table):
            raise fail(f"route_points[{k!r}]", f"lengths must be whole numbers from 1 to "
                       f"{MAX_LENGTH} in ASCII digits, each once, and points whole numbers from "
                       f"0 to {MAX_POINTS:,}")
        table[int(key)] = v
    return table


def _cities(raw: Any, fail: Fail) -> tuple[City, ...]:
    if not isinstance(raw, list) or not raw:
        raise fail("cities", "must be a non-empty list")
    if len(raw) > MAX_CITIES:
        raise fail("cities", f"{len(raw):,} cities; a board holds at most {MAX_CITIES:,}")
    out, seen, forms = [], dict[str, str](), dict[str, str]()
    for i, c in enumerate(raw):
        entry = f"cities[{i}]"
        if not isinstance(c, dict) or not isinstance(c.get("name"), str) or not c["name"]:
            raise fail(entry, 'needs a "name" string')
        entry = f"cities[{i}] ({c['name']})"
        if problem := character_problem(c["name"]):  # a NUL, a direction mark, "Pаris"
            raise fail(entry, f"a city name must be printable text, each word in one script: "
                       f"{problem}")
        _check_fields(c, CITY_FIELDS, entry, fail)
        if (key := city_key(c["name"])) in seen:
            same = seen[key]
            raise fail(entry, "duplicate city name" if same == c["name"] else
                       f"the same name as city {shown(same)} but for case, spaces or accents' "
                       "encoding; a reader could not tell them apart, so rename one")
        seen[key] = c["name"]
        if (form := confusable_form(c["name"])) in forms:  # "ТАХІ" in Cyrillic beside "TAXI"
            raise fail(entry, f"{looks_like(c['name'], forms[form])}, a city of the board; a "
                       "reader could not tell them apart, so rename one")
        forms[form] = c["name"]
        x, y = c.get("x"), c.get("y")
        if not (_is_fraction(x) and _is_fraction(y)):
            raise fail(entry, '"x" and "y" must be numbers from 0 to 1 (drawing position, y down)')
        out.append(City(c["name"], float(x), float(y)))
    return tuple(out)


def _connections(raw: Any, names: set[str], route_points: dict[int, int],
                 fail: Fail) -> tuple[Connection, ...]:
    if not isinstance(raw, list) or not raw:
        raise fail("connections", "must be a non-empty list")
    if len(raw) > MAX_CONNECTIONS:
        raise fail("connections", f"{len(raw):,} connections; a board holds at most "
                   f"{MAX_CONNECTIONS:,}")
    out: list[Connection] = []
    between: dict[frozenset[str], list[Connection]] = defaultdict(list)
    for i, c in enumerate(raw):
        if not isinstance(c, dict):
            raise fail(f"connections[{i}]", "must be an object")
        entry = f"connections[{i}] ({c.get('a')}–{c.get('b')})"
        _check_fields(c, CONNECTION_FIELDS, entry, fail)
        for end in ("a", "b"):
            if not isinstance(c.get(end), str) or c[end] not in names:
                raise fail(entry, f"unknown city {c.get(end)!r}; add it to \"cities\" or fix the "
                           "spelling")
        if c["a"] == c["b"]:
            raise fail(entry, "a connection must join two different cities")
        length = c.get("length")
        if not _is_whole(length) or not 1 <= length <= MAX_LENGTH:
            raise fail(entry, f"bad length {length!r}; must be a whole number from 1 to "
                       f"{MAX_LENGTH}")
        if length not in route_points:
            raise fail(entry, f"length {length} has no entry in route_points; add one")
        colour = c.get("colour")
        if colour not in COLOURS and colour != GREY:
            raise fail(entry, f"bad colour {colour!r}; use one of {', '.join(COLOURS)} or {GREY}")
        ferry = c.get("ferry", 0)
        if not _is_whole(ferry) or not 0 <= ferry <= length:
            raise fail(entry, f"bad ferry {ferry!r}; the number of locomotives a ferry needs, "
                       "from 0 (not a ferry) to the length")
        tunnel = c.get("tunnel", False)
        if not isinstance(tunnel, bool):
            raise fail(entry, '"tunnel" must be true or false')
        pair = c.get("pair")
        if pair is not None and not _is_whole(pair):
            raise fail(entry, '"pair" must be a whole number shared by the two segments of a '
                       "double connection, or absent")
        conn = Connection(i, c["a"], c["b"], length, colour, ferry, tunnel, pair)
        same = between[frozenset(conn.cities)]
        if same and (pair is None or len(same) > 1 or same[0].pair != pair):
            raise fail(entry, f"duplicate connection between these cities (also connections"
                       f"[{same[0].id}]); a double connection is exactly two segments with the "
                       'same "pair" number')
        same.append(conn)
        out.append(conn)
    _check_pairs(out, fail)
    return tuple(out)


def _check_pairs(connections: list[Connection], fail: Fail) -> None:
    """Each pair number joins exactly two segments between the same two cities, alike but for
    colour (the rules treat the two as the same route)."""
    by_pair: dict[int, list[Connection]] = defaultdict(list)
    for c in connections:
        if c.pair is not None:
            by_pair[c.pair].append(c)
    for pair, segments in by_pair.items():
        first = segments[0]
        entry = f"connections[{first.id}] ({first.a}–{first.b})"
        if len(segments) != 2 or set(segments[1].cities) != set(first.cities):
            raise fail(entry, f"pair {pair} must join exactly two segments between the same two "
                       f"cities; it has {len(segments)}")
        second = segments[1]
        if (first.length, first.ferry, first.tunnel) != (second.length, second.ferry,
                                                         second.tunnel):
            raise fail(entry, f"the two segments of pair {pair} must have the same length, "
                       "ferry and tunnel")


def _tickets(raw: Any, names: set[str], fail: Fail) -> tuple[Ticket, ...]:
    if not isinstance(raw, list):
        raise fail("tickets", "must be a list")
    if len(raw) > MAX_TICKETS:
        raise fail("tickets", f"{len(raw):,} tickets; a board holds at most {MAX_TICKETS:,}")
    out, seen = [], set()
    for i, t in enumerate(raw):
        if not isinstance(t, dict):
            raise fail(f"tickets[{i}]", "must be an object")
        entry = f"tickets[{i}] ({t.get('a')}–{t.get('b')})"
        _check_fields(t, TICKET_FIELDS, entry, fail)
        for end in ("a", "b"):
            if not isinstance(t.get(end), str) or t[end] not in names:
                raise fail(entry, f"unknown city {t.get(end)!r}; add it to \"cities\" or fix the "
                           "spelling")
        if t["a"] == t["b"]:
            raise fail(entry, "a ticket must join two different cities")
        pts = t.get("points")
        if not _is_whole(pts) or not 1 <= pts <= MAX_POINTS:
            raise fail(entry, f"bad points {pts!r}; must be a whole number from 1 to "
                       f"{MAX_POINTS:,}")
        key = frozenset((t["a"], t["b"]))
        if key in seen:
            raise fail(entry, "duplicate ticket between these cities")
        seen.add(key)
        out.append(Ticket(i, t["a"], t["b"], pts))
    return tuple(out)


def _check_connected(cities: tuple[City, ...], connections: tuple[Connection, ...],
                     tickets: tuple[Ticket, ...], fail: Fail) -> None:
    g = nx.Graph()
    g.add_nodes_from(c.name for c in cities)
    g.add_edges_from((c.a, c.b) for c in connections)
    for t in tickets:
        if not nx.has_path(g, t.a, t.b):
            raise fail(f"tickets[{t.id}] ({t.a}–{t.b})", "unreachable: no path of connections "
                       "joins its cities")
    if not nx.is_connected(g):
        parts = sorted(nx.connected_components(g), key=len)
        few = sorted(parts[0])
        more = f" and {len(few) - 5:,} more" if len(few) > 5 else ""
        raise fail("connections", "the board is disconnected; these cities cannot be reached from "
                   f"the rest: {', '.join(few[:5])}{more}")
