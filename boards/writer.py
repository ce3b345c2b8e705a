"""A board back to its file: the document ``boards.parse_board`` reads, and the text the shipped
files use (one city, connection or ticket per line). The design lab writes the decks and boards
it evolves this way, so ``play``, ``batch``, ``metrics`` and the app load them like any other.
"""

from __future__ import annotations

import json
from typing import Any

from boards.board import DEFAULT_ROUTE_POINTS, Board
from boards.loader import FORMAT_NAME, FORMAT_VERSION, parse_board


def board_document(board: Board) -> dict[str, Any]:
    """The board as a format-1 document; defaults (no ferry, no tunnel, no pair, the rulebook's
    points) are left out, as the shipped files leave them out."""
    doc: dict[str, Any] = {"format": FORMAT_NAME, "version": FORMAT_VERSION, "name": board.name,
                           "title": board.title, "source": board.source}
    if board.trains is not None:
        doc["trains"] = board.trains
    if board.route_points != DEFAULT_ROUTE_POINTS:
        doc["route_points"] = {str(k): v for k, v in sorted(board.route_points.items())}
    doc["cities"] = [{"name": c.name, "x": c.x, "y": c.y} for c in board.cities]
    connections = []
    for c in board.connections:
        row: dict[str, Any] = {"a": c.a, "b": c.b, "length": c.length, "colour": c.colour}
        if c.ferry:
            row["ferry"] = c.ferry
        if c.tunnel:
            row["tunnel"] = True
        if c.pair is not None:
            row["pair"] = c.pair
        connections.append(row)
    doc["connections"] = connections
    doc["tickets"] = [{"a": t.a, "b": t.b, "points": t.points} for t in board.tickets]
    return doc


def problem(board: Board) -> str | None:
    """What the loader would refuse in ``board``, or None: a board built in code (a search's
    candidate) meets the rules a board file meets, so nothing plays a board no file could hold."""
    try:
        parse_board(board_document(board), board.name)
    except ValueError as e:
        return str(e)
    return None


def dumps(doc: dict[str, Any]) -> str:
    """JSON with one city, connection or ticket per line, so diffs and hand edits stay easy."""
    parts = []
    for key, value in doc.items():
        if isinstance(value, list):
            rows = ",\n".join(f"    {json.dumps(v, ensure_ascii=False)}" for v in value)
            parts.append(f"  {json.dumps(key)}: [\n{rows}\n  ]")
        else:
            parts.append(f"  {json.dumps(key)}: {json.dumps(value, ensure_ascii=False)}")
    return "{\n" + ",\n".join(parts) + "\n}\n"
