"""Choose which cities of the Europe map form the 24-city board, and which tickets it deals.

The simplified game needs a small board that plays like the real one and stays worth watching:
real tickets only, normal and ferry connections, and no bridge (no connection whose loss splits
the board, hence no dead-end city either), so that a claim or a block makes a ticket longer
rather than impossible. The search has two stages:

1. **Structure** (:func:`candidate_cuts`, deterministic): a bridgeless cut lies inside one
   bridgeless component of the map, so the search starts from the largest one and removes one
   city at a time, keeping the ``beam`` best cuts that stay connected and bridgeless and hold at
   least a deck of real tickets (best: most tickets inside, then :attr:`Cut.interest`); then it
   adds every such cut one swap (a city out, another in) away from those. (So it finds the cuts
   that the map can be pared down to without ever leaving a bridge, and their neighbours.) No
   random numbers, every tie broken by city names.
2. **Play** (:func:`choose_cut`): the candidates are ranked by evaluators the caller passes,
   stage by stage keeping the best few, so that cheap screens come first and long measurements
   last. Boards know nothing of games: ``lab.europe24_search`` passes evaluators that play
   seeded games through the gameplay report, and records the winner for ``make_boards``.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from itertools import combinations
from typing import Any

import networkx as nx
import numpy as np
from scipy.sparse.csgraph import shortest_path

from boards.graph import tight_arcs

CUT_SIZE = 24
DECK_SIZE = 16

#: (city, city, points) of a real ticket
TicketRow = tuple[str, str, int]


@dataclass(frozen=True)
class Cut:
    """A chosen city set with its deck and the structural score that ordered the search."""

    cities: tuple[str, ...]
    tickets: tuple[TicketRow, ...]
    inside: int  # real tickets with both cities in the cut (the deck is a subset)
    overlap: int  # pairs of deck tickets whose shortest paths share a connection
    connections: int  # connections among the cut's cities

    @property
    def interest(self) -> int:
        """Overlapping ticket pairs plus connections: crossings and detours, both wanted.

        Overlap makes a claim ambiguous (it names several tickets) and makes blocks possible;
        each extra connection is a detour that keeps a blocked ticket alive at a cost.
        """
        return self.overlap + self.connections

    @property
    def order(self) -> tuple[int, int]:
        """The structural order of the search: most tickets inside, then most interest."""
        return (self.inside, self.interest)


def bridgeless(graph: nx.Graph, cities: Iterable[str]) -> bool:
    """Whether the cities with the connections among them form one piece without a bridge
    (every connection lies on a cycle; so no city is a dead end)."""
    sub = graph.subgraph(cities)
    return sub.number_of_nodes() > 0 and nx.is_connected(sub) and not nx.has_bridges(sub)


def candidate_cuts(graph: nx.Graph, tickets: Sequence[TicketRow], size: int = CUT_SIZE,
                   deck: int = DECK_SIZE, beam: int = 30) -> list[Cut]:
    """Every cut the structural stage reaches (see the module docstring), best first.

    ``graph`` holds only the connections the board may use, each edge with a ``length``;
    ``tickets`` the real tickets a deck may take.
    """
    search = _Search(graph, tickets, size, deck)
    core = max(sorted(nx.k_edge_components(graph, 2), key=sorted), key=len)
    frontier = [frozenset(core)]
    while len(frontier[0]) > size:
        smaller = {cities - {city} for cities in frontier for city in cities}
        frontier = search.best(smaller)[:beam]
        if not frontier:
            return []
    found = set(frontier)
    found |= {(cities - {out}) | {new} for cities in frontier for out in cities
              for new in core - cities}
    return [search.cut(cities) for cities in search.best(found)]


def choose_cut(candidates: Sequence[Cut],
               stages: Sequence[tuple[int, Callable[[Cut], tuple[Any, Any]]]],
               ) -> list[tuple[Cut, Any, Any]]:
    """Rank ``candidates`` stage by stage: each stage is (how many to keep, evaluator); the
    evaluator returns (a key, higher is better; anything to keep with it). The last stage's
    ranking comes back as (cut, key, kept), best first; ties keep the structural order."""
    ranked = [(cut, None, None) for cut in candidates]
    for keep, evaluate in stages:
        scored = [(cut, *evaluate(cut)) for cut, _, _ in ranked]
        ranked = sorted(scored, key=lambda entry: entry[1], reverse=True)[:keep]
    return ranked


def choose_deck(tickets: Iterable[TicketRow], deck: int = DECK_SIZE) -> tuple[TicketRow, ...]:
    """Take ``deck`` tickets keeping as many different point values as possible.

    A spread of values keeps the deck like the real one, where short cheap tickets and long
    valuable ones are dealt together. Tickets are dropped one at a time from the most common
    value; among equally common values, from the one nearest the median, so the extremes stay;
    within a value, the alphabetically last ticket goes.
    """
    kept = sorted(tickets, key=lambda t: (t[2], t[0], t[1]))
    while len(kept) > deck:
        counts = Counter(t[2] for t in kept)
        median = kept[len(kept) // 2][2]
        value = max(counts, key=lambda v: (counts[v], -abs(v - median), -v))
        del kept[max(i for i, t in enumerate(kept) if t[2] == value)]
    return tuple(kept)


class _Search:
    """Cuts of one graph and ticket list: which city sets qualify, and their scores (cached)."""

    def __init__(self, graph: nx.Graph, tickets: Sequence[TicketRow], size: int, deck: int):
        self.graph, self.tickets, self.size, self.deck = graph, list(tickets), size, deck
        self._cuts: dict[frozenset[str], Cut | None] = {}

    def best(self, city_sets: Iterable[frozenset[str]]) -> list[frozenset[str]]:
        """The qualifying sets among ``city_sets``, best first (ties: by city names)."""
        qualified = [cut for cities in city_sets if (cut := self._qualified(cities)) is not None]
        qualified.sort(key=lambda cut: (-cut.inside, -cut.interest, cut.cities))
        return [frozenset(cut.cities) for cut in qualified]

    def cut(self, cities: frozenset[str]) -> Cut:
        found = self._qualified(cities)
        assert found is not None, "only qualifying sets are asked for"
        return found

    def _qualified(self, cities: frozenset[str]) -> Cut | None:
        """The cut's score, or None unless it holds a deck and is bridgeless."""
        if cities not in self._cuts:
            inside = [t for t in self.tickets if t[0] in cities and t[1] in cities]
            if len(inside) < self.deck or not bridgeless(self.graph, cities):
                self._cuts[cities] = None
            else:
                sub = self.graph.subgraph(cities)
                deck = choose_deck(inside, self.deck)
                self._cuts[cities] = Cut(tuple(sorted(cities)), deck, len(inside),
                                         _overlap(sub, deck), sub.number_of_edges())
        return self._cuts[cities]


def _overlap(sub: nx.Graph, deck: Sequence[TicketRow]) -> int:
    """Pairs of deck tickets whose shortest paths share a connection (``boards.graph``'s rule,
    on all-pairs distances computed once per cut)."""
    names = sorted(sub)
    index = {c: i for i, c in enumerate(names)}
    edges = [(index[u], index[v], w) for u, v, w in sub.edges(data="length")]
    ends = [(u, v) for u, v, _ in edges]
    cost = [w for _, _, w in edges]
    weights = np.zeros((len(names), len(names)))
    for u, v, w in edges:
        weights[u, v] = weights[v, u] = w
    dist = shortest_path(weights, method="D", directed=False).tolist()
    on_path = []
    for a, b in ((index[t[0]], index[t[1]]) for t in deck):
        on_path.append({e for _, e, _ in tight_arcs(ends, cost, dist[a], dist[b], dist[a][b])})
    return sum(bool(p & q) for p, q in combinations(on_path, 2))
