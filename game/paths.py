"""Public shortest paths: what every player can compute about every other player's tickets.

For player i and ticket t a connection costs its length, nothing if i owns it, and cannot be used
if someone else owns it. All equally short paths count, because agents break ties at random and an
observer must allow for every one of them.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from boards import Board, Connection, Ticket
from boards.graph import INF, Adjacency, adjacency, distances, tight_arcs


@dataclass(frozen=True)
class ShortestPaths:
    """Every equally short path for one player between two cities."""

    a: str
    b: str
    cost: int  # trains still needed (own connections cost nothing)
    connections: frozenset[int]  # on at least one shortest path
    _tight: tuple[tuple[str, int, str], ...]  # (from city, connection id, to city), a → b

    def paths(self, limit: int = 10_000) -> Iterator[tuple[int, ...]]:
        """Each shortest path as connection ids from ``a`` to ``b`` (at most ``limit``)."""
        out: dict[str, list[tuple[int, str]]] = {}
        for u, cid, v in self._tight:
            out.setdefault(u, []).append((cid, v))
        count = 0
        start = (self.a, (), frozenset([self.a]))
        stack: list[tuple[str, tuple[int, ...], frozenset[str]]] = [start]
        while stack and count < limit:
            city, path, seen = stack.pop()
            if city == self.b:
                count += 1
                yield path
                continue
            for cid, nxt in reversed(out.get(city, [])):
                if nxt not in seen:  # zero-cost own connections could otherwise loop
                    stack.append((nxt, path + (cid,), seen | {nxt}))


@dataclass(frozen=True)
class _BoardGraph:
    """A board as numbered cities and edges, for ``boards.graph``."""

    ends: tuple[tuple[int, int], ...]  # per connection id: its two city indices
    lengths: tuple[int, ...]  # per connection id
    adj: Adjacency


_GRAPHS: dict[int, tuple[Board, _BoardGraph]] = {}


def _graph(board: Board) -> _BoardGraph:
    """The board's graph, cached per board because paths are asked for on every turn of
    thousands of games."""
    cached = _GRAPHS.get(id(board))
    if cached is None or cached[0] is not board:
        index = board.city_index
        ends = tuple((index[c.a], index[c.b]) for c in board.connections)
        graph = _BoardGraph(ends, tuple(c.length for c in board.connections),
                            adjacency(len(board.cities), ends))
        cached = _GRAPHS[id(board)] = (board, graph)
    return cached[1]


def shortest_paths(board: Board, owner: Sequence[int | None], player: int | None, a: str,
                   b: str) -> ShortestPaths | None:
    """All shortest paths between ``a`` and ``b`` for ``player`` given who owns what
    (``player=None``: only unclaimed connections count). ``None`` when ``a`` and ``b`` are
    cut off from each other."""
    graph, index, names = _graph(board), board.city_index, board.city_names
    cost = [length if who is None else 0 if who == player else None
            for length, who in zip(graph.lengths, owner, strict=True)]
    ia, ib = index[a], index[b]
    from_a = distances(graph.adj, cost, ia, ib)
    total = from_a[ib]
    if total == INF:
        return None
    from_b = distances(graph.adj, cost, ib, ia)
    arcs = tight_arcs(graph.ends, cost, from_a, from_b, total)
    tight = tuple((names[u], cid, names[v]) for u, cid, v in arcs)
    on_path = {cid for _, cid, _ in arcs}
    # A free (own) connection can be tight as a detour that leaves a city and comes back to it;
    # keep only those that lie on a path. (A connection that costs trains is always on one.)
    free = {cid for cid in on_path if owner[cid] is not None}
    if free:
        found = ShortestPaths(a, b, int(total), frozenset(), tight)
        on_path = (on_path - free) | {c for path in found.paths() for c in path if c in free}
    return ShortestPaths(a, b, int(total), frozenset(on_path), tight)


def ticket_paths(board: Board, owner: Sequence[int | None], player: int,
                 ticket: Ticket) -> ShortestPaths | None:
    """The public shortest paths of ``player`` for ``ticket`` (see module docstring)."""
    return shortest_paths(board, owner, player, ticket.a, ticket.b)


def ideal_route(board: Board, a: str, b: str,
                owner: Sequence[int | None] | None = None) -> tuple[Connection, ...] | None:
    """The "ideal unclaimed route" of the route-finding write-ups: the fewest trains between two
    cities over unclaimed connections only, ties broken by fewer connections, then by the lowest
    connection ids. ``None`` when the claimed connections cut the cities apart."""
    owner = owner if owner is not None else [None] * len(board.connections)
    found = shortest_paths(board, owner, None, a, b)
    if found is None:
        return None
    best = min(found.paths(), key=lambda path: (len(path), sorted(path)))
    return tuple(board.connections[c] for c in best)
