"""Public shortest paths: what every player can compute about every other player's tickets.

For player i and ticket t a connection costs its length, nothing if i owns it, and cannot be used
if someone else owns it. All equally short paths count, because agents break ties at random and an
observer must allow for every one of them.
"""

from __future__ import annotations

import heapq
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from boards.model import Board, Connection, Ticket

INF = float("inf")


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


_ADJ_CACHE: dict[int, tuple[Board, list[list[tuple[int, int, int]]]]] = {}


def adjacency(board: Board) -> list[list[tuple[int, int, int]]]:
    """Per city index, its (connection id, other city index, length) triples; cached per board
    because paths are asked for on every turn of thousands of games."""
    cached = _ADJ_CACHE.get(id(board))
    if cached is None or cached[0] is not board:
        index = board.city_index
        adj: list[list[tuple[int, int, int]]] = [[] for _ in board.cities]
        for c in board.connections:
            adj[index[c.a]].append((c.id, index[c.b], c.length))
            adj[index[c.b]].append((c.id, index[c.a], c.length))
        cached = _ADJ_CACHE[id(board)] = (board, adj)
    return cached[1]


def _dijkstra(adj, source: int, target: int, owner: Sequence[int | None],
              player: int | None) -> list[float]:
    """Distances from ``source``, exact up to the distance of ``target`` (farther cities cannot
    lie on a shortest path, so the search stops there)."""
    dist = [INF] * len(adj)
    dist[source] = 0
    heap = [(0, source)]
    pop, push = heapq.heappop, heapq.heappush
    while heap:
        d, city = pop(heap)
        if d > dist[target]:
            break
        if d > dist[city]:
            continue
        for cid, nxt, length in adj[city]:
            who = owner[cid]
            if who is None:
                nd = d + length
            elif who == player:
                nd = d
            else:
                continue
            if nd < dist[nxt]:
                dist[nxt] = nd
                push(heap, (nd, nxt))
    return dist


def shortest_paths(board: Board, owner: Sequence[int | None], player: int | None, a: str,
                   b: str) -> ShortestPaths | None:
    """All shortest paths between ``a`` and ``b`` for ``player`` given who owns what
    (``player=None``: only unclaimed connections count). ``None`` when ``a`` and ``b`` are
    cut off from each other."""
    adj, index = adjacency(board), board.city_index
    ia, ib = index[a], index[b]
    from_a = _dijkstra(adj, ia, ib, owner, player)
    total = from_a[ib]
    if total == INF:
        return None
    from_b = _dijkstra(adj, ib, ia, owner, player)
    on_path: set[int] = set()
    tight: list[tuple[str, int, str]] = []
    for conn in board.connections:
        who = owner[conn.id]
        if who is not None and who != player:
            continue
        w = conn.length if who is None else 0
        u, v = index[conn.a], index[conn.b]
        if from_a[u] + w + from_b[v] == total:
            on_path.add(conn.id)
            tight.append((conn.a, conn.id, conn.b))
        if from_a[v] + w + from_b[u] == total:
            on_path.add(conn.id)
            tight.append((conn.b, conn.id, conn.a))
    # A free (own) connection can be tight as a detour that leaves a city and comes back to it;
    # keep only those that lie on a path. (A connection that costs trains is always on one.)
    free = {cid for _, cid, _ in tight if owner[cid] is not None}
    if free:
        found = ShortestPaths(a, b, int(total), frozenset(), tuple(tight))
        on_path = (on_path - free) | {c for path in found.paths() for c in path if c in free}
    return ShortestPaths(a, b, int(total), frozenset(on_path), tuple(tight))


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
