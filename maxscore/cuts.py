"""What a budget rules out, from shortest distances alone.

No formulation's LP relaxation can see the budget well: half of a network twice the budget is a
fractional point of every formulation, and it finishes half of every ticket in it. Small budgets
suffer most (at 10 trains the bound stays near 60 when the optimum is near 30). Distances say
what no network within the budget can do, and every such fact cuts those half-networks off:

* a ticket whose cities lie further apart than the budget is never finished;
* two tickets whose cheapest joint network (a Steiner tree on their four cities, or two separate
  paths when pieces may be apart) costs more than the budget are never both finished;
* in a one-piece network, a city too far from a ticket is never in a tree that finishes it.
"""

from __future__ import annotations

import networkx as nx
import numpy as np

from maxscore.network import Network


def distances(net: Network) -> np.ndarray:
    """Trains needed between every two cities (owned edges are free): Floyd–Warshall, as the
    boards are small and free edges need no special case."""
    dist = np.full((net.n, net.n), np.inf)
    np.fill_diagonal(dist, 0)
    for e in net.edges:
        dist[e.u, e.v] = dist[e.v, e.u] = min(dist[e.u, e.v], e.cost)
    for k in range(net.n):
        dist = np.minimum(dist, dist[:, k, None] + dist[None, k, :])
    return dist


def steiner4(dist: np.ndarray, a: int, b: int, c: int, d: int) -> float:
    """Cheapest tree joining four cities: one of three pairings, joined by a path u–v."""
    best = np.inf
    for (p, q), (r, s) in (((a, b), (c, d)), ((a, c), (b, d)), ((a, d), (b, c))):
        f = dist[p] + dist[q]
        g = dist[r] + dist[s]
        best = min(best, float(np.min(f[:, None] + dist + g[None, :])))
    return best


def unreachable_tickets(net: Network, dist: np.ndarray, trains: int) -> list[int]:
    return [t for t, ticket in enumerate(net.tickets)
            if dist[net.ticket_ends(ticket)] > trains]


def ticket_conflicts(net: Network, dist: np.ndarray, trains: int,
                     one_piece: bool) -> list[tuple[int, int]]:
    """Pairs of tickets no network within ``trains`` finishes together."""
    ends = [net.ticket_ends(t) for t in net.tickets]
    alive = [t for t in range(len(ends)) if dist[ends[t]] <= trains]
    out = []
    for i, t in enumerate(alive):
        for u in alive[i + 1:]:
            cost = steiner4(dist, *ends[t], *ends[u])
            if not one_piece:
                cost = min(cost, dist[ends[t]] + dist[ends[u]])
            if cost > trains:
                out.append((t, u))
    return out


def exclusive_groups(conflicts: list[tuple[int, int]]) -> list[list[int]]:
    """Maximal sets of tickets that pairwise conflict: at most one of each is finished.

    One row per maximal clique is far stronger than a row per pair: half of each of ten
    mutually exclusive tickets satisfies every pair row but not the clique row.
    """
    g = nx.Graph(conflicts)
    return [sorted(c) for c in nx.find_cliques(g)]


def ticket_city_conflicts(net: Network, dist: np.ndarray, trains: int) -> list[tuple[int, int]]:
    """(ticket, city) pairs: no tree within ``trains`` finishes the ticket and reaches the city.

    Only for one-piece networks, where every tree city shares the tree with every finished
    ticket. A city that conflicts with every ticket is never in the tree at all.
    """
    out = []
    for t, ticket in enumerate(net.tickets):
        s, d = net.ticket_ends(ticket)
        via = dist[s] + dist[d]  # joining s and d through u, then u to the city
        reach = np.min(via[:, None] + dist, axis=0)
        out += [(t, v) for v in range(net.n) if reach[v] > trains]
    return out
