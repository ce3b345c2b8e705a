"""A quick good network for a budget, to seed the solver with an incumbent.

Greedy by value per train: repeatedly add the cheapest path (edges already built are free) that
finishes the ticket with the best gain per new train, then spend what is left on the edges worth
most on their own (an exact knapsack: the budget is small). Each ticket is tried as the first
one, because the first choice decides where the network grows.
"""

from __future__ import annotations

import networkx as nx

from maxscore.network import Network


def greedy(net: Network, trains: int) -> tuple[int, ...]:
    """The best network (edge indices) the greedy finds within ``trains``."""
    best: tuple[int, ...] = fill(net, set(), trains)
    best_value = net.gain(best)
    for first in range(len(net.tickets)):
        chosen = _grow(net, trains, first)
        value = net.gain(chosen)
        if value > best_value:
            best, best_value = chosen, value
    return best


def _grow(net: Network, trains: int, first: int) -> tuple[int, ...]:
    chosen: set[int] = set()
    left = trains
    order = [first]
    while True:
        g = nx.Graph()
        g.add_nodes_from(range(net.n))
        for k, e in enumerate(net.edges):
            w = 0 if (k in chosen or e.owned) else e.length
            if not g.has_edge(e.u, e.v) or g[e.u][e.v]["w"] > w:
                g.add_edge(e.u, e.v, w=w, k=k)
        done = set(net.score(chosen)[2])
        best, best_rate = None, 0.0
        candidates = order or range(len(net.tickets))
        for t in candidates:
            ticket = net.tickets[t]
            if ticket in done:
                continue
            s, d = net.ticket_ends(ticket)
            try:
                path = nx.dijkstra_path(g, s, d, weight="w")
            except nx.NetworkXNoPath:
                continue
            new = {g[p][q]["k"] for p, q in zip(path, path[1:], strict=False)} - chosen
            cost = sum(net.edges[k].cost for k in new)
            if cost > left:
                continue
            gain = net.gain(chosen | new) - net.gain(chosen)
            rate = gain / max(cost, 1)
            if rate > best_rate:
                best, best_rate = new, rate
        order = []
        if best is None:
            return fill(net, chosen, left)
        chosen |= best
        left -= sum(net.edges[k].cost for k in best)


def fill(net: Network, chosen: set[int], left: int) -> tuple[int, ...]:
    """Spend ``left`` trains on the free-standing edges worth most (0/1 knapsack)."""
    items = [k for k, e in enumerate(net.edges) if k not in chosen and not e.owned]
    table: list[tuple[int, tuple[int, ...]]] = [(0, ())] * (left + 1)
    for k in items:
        e = net.edges[k]
        for cap in range(left, e.length - 1, -1):
            value, picked = table[cap - e.length]
            if value + e.points > table[cap][0]:
                table[cap] = (value + e.points, picked + (k,))
    return tuple(sorted(chosen | set(table[left][1])))
