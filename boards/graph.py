"""Shortest paths on a graph of numbered cities, keeping every equally short path.

The one definition of "a connection on a shortest path" that the game's public paths
(``game.paths``) and the board-cut search (``boards.tools.europe_cut``) share. It knows nothing of
owners or players: the caller gives each edge a cost, or ``None`` where the edge cannot be used.
An edge lies on a shortest path from a to b exactly when, in one of its directions,
``dist(a, tail) + cost + dist(head, b)`` equals the shortest distance: ties are real, and every
tied path counts.
"""

from __future__ import annotations

import heapq
from collections.abc import Sequence

INF = float("inf")

#: Per city: (edge id, the city at its other end) for every edge touching it.
type Adjacency = list[list[tuple[int, int]]]
#: (tail city, edge id, head city): one direction of an edge.
type Arc = tuple[int, int, int]


def adjacency(n_cities: int, ends: Sequence[tuple[int, int]]) -> Adjacency:
    """The adjacency lists of ``n_cities`` cities joined by edges ``ends[e] = (u, v)``."""
    adj: Adjacency = [[] for _ in range(n_cities)]
    for e, (u, v) in enumerate(ends):
        adj[u].append((e, v))
        adj[v].append((e, u))
    return adj


def distances(adj: Adjacency, cost: Sequence[float | None], source: int,
              target: int | None = None) -> list[float]:
    """Dijkstra from ``source``; ``cost[e] is None`` means edge e cannot be used. With a
    ``target``, distances are exact only up to the target's (farther cities cannot lie on a
    shortest path to it, so the search stops there)."""
    dist = [INF] * len(adj)
    dist[source] = 0
    heap: list[tuple[float, int]] = [(0, source)]
    pop, push = heapq.heappop, heapq.heappush
    while heap:
        d, city = pop(heap)
        if target is not None and d > dist[target]:
            break
        if d > dist[city]:
            continue
        for e, nxt in adj[city]:
            w = cost[e]
            if w is None:
                continue
            nd = d + w
            if nd < dist[nxt]:
                dist[nxt] = nd
                push(heap, (nd, nxt))
    return dist


def tight_arcs(ends: Sequence[tuple[int, int]], cost: Sequence[float | None],
               from_a: Sequence[float], from_b: Sequence[float], total: float) -> list[Arc]:
    """Every edge direction on some shortest path from a to b, in edge order (u→v before v→u).

    ``from_a`` and ``from_b`` are distances from a and from b (exact up to ``total``, the
    distance between them). A zero-cost edge can be tight as a detour that leaves a city and
    comes back; the caller keeps only the arcs that lie on a path (see ``game.paths``).
    """
    out: list[Arc] = []
    for e, (u, v) in enumerate(ends):
        w = cost[e]
        if w is None:
            continue
        if from_a[u] + w + from_b[v] == total:
            out.append((u, e, v))
        if from_a[v] + w + from_b[u] == total:
            out.append((v, e, u))
    return out
