"""Europe's stations at the end of a game: each station lets its owner use one connection of
another player into its city for its tickets. The owner picks, for every station, the
connection (or none) that scores its tickets best; this module makes that pick exactly, by
trying every combination (three stations and a handful of connections each: a few hundred).
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Sequence

from boards import Board, Ticket


def _joined(edges: Iterable[tuple[str, str]], a: str, b: str) -> bool:
    parent: dict[str, str] = {}

    def root(x: str) -> str:
        while parent.get(x, x) != x:
            x = parent[x]
        return x

    for u, v in edges:
        parent[root(u)] = root(v)
    return root(a) == root(b)


def station_choices(board: Board, owner: Sequence[int | None], player: int,
                    cities: Sequence[str]) -> list[list[int | None]]:
    """Per station city, the other players' connections into it the station could borrow
    (``None``: borrow nothing)."""
    return [[None, *(c.id for c in board.connections
                     if city in c.cities and owner[c.id] not in (None, player))]
            for city in cities]


def best_finished(board: Board, owner: Sequence[int | None], player: int,
                  tickets: Sequence[Ticket], cities: Sequence[str]) -> frozenset[int]:
    """The tickets ``player`` finishes with its own connections and the best use of its
    stations in ``cities``: the most ticket points, then the most tickets, then the first
    choice in board order."""
    own = [(c.a, c.b) for c in board.connections if owner[c.id] == player]
    best: tuple[int, int] | None = None
    done: frozenset[int] = frozenset()
    for pick in itertools.product(*station_choices(board, owner, player, cities)):
        edges = own + [board.connections[c].cities for c in pick if c is not None]
        finished = frozenset(t.id for t in tickets if _joined(edges, t.a, t.b))
        net = sum(t.points if t.id in finished else -t.points for t in tickets)
        if best is None or (net, len(finished)) > best:
            best, done = (net, len(finished)), finished
    return done
