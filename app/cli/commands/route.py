"""``ttr-kripke route A B``: the ideal route between two cities, and every route as short.

The route-finding write-ups' "ideal unclaimed route": the fewest trains over unclaimed
connections, ties broken by fewer connections, then by the lowest connection ids
(``game.paths.ideal_route``). The other routes of the same number of trains follow, because ties
are real: a player may take any of them, and an observer must allow for every one.
"""

from __future__ import annotations

import argparse
import difflib

from app.cli.main import UsageError
from boards import Board, Connection, load_board
from game.fields import shown
from game.paths import ideal_route, shortest_paths

NAME = "route"
HELP = "the fewest trains between two cities over unclaimed connections, and every route as short"
SHOWN = 10  # alternatives listed before "and N more"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("a", metavar="FROM", help="a city of the board, e.g. Paris")
    parser.add_argument("b", metavar="TO", help="another city of the board")
    parser.add_argument("--board", default="europe24",
                        help="a shipped board (europe24, usa) or a board file (default europe24)")


def city(board: Board, name: str) -> str:
    """The board's spelling of ``name`` (case, spaces and Unicode normal form do not matter:
    the loader refuses a board on which that would pick one of two), or a ``UsageError``
    naming the closest cities."""
    if (found := board.find_city(name)) is not None:
        return found
    # a city's name is short: its first hundred characters find the closest as well
    close = difflib.get_close_matches(name[:100], board.city_names, n=3, cutoff=0.0)
    raise UsageError(f"no city {shown(name, 60)} on {board.name}; the closest are "
                     f"{', '.join(close)}")


def cities(start: str, connections: tuple[Connection, ...]) -> tuple[str, ...]:
    """The cities a route passes, from ``start``."""
    out = [start]
    for c in connections:
        out.append(c.other(out[-1]))
    return tuple(out)


def route_text(start: str, connections: tuple[Connection, ...]) -> str:
    """``Paris –4– München –3– Wien (7 trains, 2 connections)``: each connection's length
    between the cities it joins; ``=4=`` marks a double connection (either segment will do)."""
    text = start
    for c, here in zip(connections, cities(start, connections)[1:], strict=True):
        mark = "=" if c.pair is not None else "–"
        text += f" {mark}{c.length}{mark} {here}"
    trains = sum(c.length for c in connections)
    return f"{text} ({trains} trains, {len(connections)} connection{'s' * (len(connections) != 1)})"


def run(args: argparse.Namespace) -> int:
    board = load_board(args.board)
    a, b = city(board, args.a), city(board, args.b)
    if a == b:
        raise UsageError(f"{a} is both ends; name two different cities")
    unclaimed = [None] * len(board.connections)
    ideal = ideal_route(board, a, b, unclaimed)
    found = shortest_paths(board, unclaimed, None, a, b)
    if ideal is None or found is None:
        print(f"{board.title}: no route joins {a} and {b}")
        return 1
    print(f"{board.title}: {a} to {b} takes {found.cost} trains at the fewest")
    print(f"ideal route: {route_text(a, ideal)}")
    # one line per way through the cities: the two segments of a double make no second route
    seen = {cities(a, ideal)}
    others = []
    for path in sorted(found.paths(), key=lambda p: (len(p), sorted(p))):
        route = tuple(board.connections[c] for c in path)
        if (through := cities(a, route)) not in seen:
            seen.add(through)
            others.append(route)
    if others:
        print(f"{len(others)} other route{'s' * (len(others) != 1)} as short:")
        for route in others[:SHOWN]:
            print(f"  {route_text(a, route)}")
        if len(others) > SHOWN:
            print(f"  and {len(others) - SHOWN} more")
    else:
        print("no other route is as short")
    if any(c.pair is not None for route in (ideal, *others[:SHOWN]) for c in route):
        print("=n= is a double connection: either of its two segments will do")
    return 0
