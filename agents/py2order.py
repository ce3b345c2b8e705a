"""Python 2.7's iteration order of string-keyed dicts and sets, and networkx 2.2's graphs and
fewest-hop search on top of it: the order in which the authors' engine (Python 2.7, networkx
2.2) walked its boards, so that the ``engine`` source of ``--strategies`` breaks ties where
the engine broke them rather than in some other order.

Why this is worth emulating: the engine's agents take "the first" of many equal choices (the
first fewest-hop path networkx finds, the first longest free connection, the first colour of
a double they hold most of), and which is first is decided by where Python 2 put each city
name in a hash table. Python 2.7 does not randomise string hashes unless asked (the engine is
not), so the order is a pure function of the names and the order they were inserted; this
module computes it. It models only what the engine does with these tables: insertions, no
deletions, and no dict literals (which CPython pre-sizes).
"""

from __future__ import annotations

import heapq
import itertools
from collections.abc import Callable, Hashable, Iterator
from dataclasses import dataclass, field
from functools import cache, lru_cache

_MASK64 = (1 << 64) - 1
#: CPython's ``PyDict_MINSIZE`` and ``PySet_MINSIZE``.
_MIN_SIZE = 8
#: CPython's ``PERTURB_SHIFT``.
_PERTURB_SHIFT = 5


@cache  # city and colour names repeat at every decision
def str_hash(text: str) -> int:
    """``hash(text)`` of a Python 2.7 byte string on a 64-bit build (the engine read its city
    names from a file, so they were UTF-8 bytes), as an unsigned 64-bit number."""
    data = text.encode("utf-8")
    if not data:
        return 0
    x = (data[0] << 7) & _MASK64
    for byte in data:
        x = ((1000003 * x) & _MASK64) ^ byte
    x ^= len(data)
    return _MASK64 - 1 if x == _MASK64 else x  # -1 is CPython's error value: -2 instead


@cache
def _hash(key: Hashable, upper: bool) -> int:
    if isinstance(key, str):
        return str_hash(key.upper() if upper else key)
    if isinstance(key, int):
        return key & _MASK64
    raise TypeError(f"no Python 2 hash for {type(key).__name__}")


class Py2Order[K: Hashable]:
    """The keys of a Python 2.7 dict or set in its iteration order, for keys only ever
    inserted: open addressing with CPython 2.7's probe sequence, resized to the first power of
    two above four times the keys once two thirds of the table are used. With ``upper``,
    keys are hashed upper case (the engine's city names are; ours are not)."""

    __slots__ = ("_table", "_hashes", "_used", "_order", "_upper")

    def __init__(self, upper: bool = False) -> None:
        self._upper = upper
        self._table: list[K | None] = [None] * _MIN_SIZE
        self._hashes: dict[K, int] = {}
        self._used = 0
        self._order: list[K] | None = []

    @staticmethod
    def _place(table: list[K | None], key: K, h: int) -> None:
        mask = len(table) - 1
        i, perturb = h & mask, h
        while table[i & mask] is not None:
            i = ((i << 2) + i + perturb + 1) & _MASK64
            perturb >>= _PERTURB_SHIFT
        table[i & mask] = key

    def _resize(self, at_least: int) -> None:
        """``dictresize`` / ``set_table_resize``: the first power of two above ``at_least``,
        the keys placed again in the old table's order."""
        size = _MIN_SIZE
        while size <= at_least:
            size <<= 1
        old = [k for k in self._table if k is not None]
        self._table = [None] * size
        for k in old:
            self._place(self._table, k, self._hashes[k])

    def _insert(self, key: K, h: int) -> None:
        self._hashes[key] = h
        self._place(self._table, key, h)
        self._used += 1
        self._order = None

    def add(self, key: K) -> None:
        if key in self._hashes:
            return
        self._insert(key, _hash(key, self._upper))
        if self._used * 3 >= len(self._table) * 2:
            self._resize(4 * self._used)

    def _merge(self, other: Py2Order[K]) -> None:
        """``set_merge``: one resize up front if the other set's keys could crowd the table,
        to twice the keys of both, then the other's keys in its order, no resize after."""
        if not other._used:
            return
        if (self._used + other._used) * 3 >= len(self._table) * 2:
            self._resize((self._used + other._used) * 2)
        for k in other:
            if k not in self._hashes:
                self._insert(k, other._hashes[k])

    def union(self, other: Py2Order[K]) -> Py2Order[K]:
        """``self | other`` of two sets: a copy of ``self`` (a merge into an empty set), then
        ``other`` merged in."""
        out: Py2Order[K] = Py2Order(upper=self._upper)
        out._merge(self)
        out._merge(other)
        return out

    def difference(self, other: Py2Order[K]) -> Py2Order[K]:
        """``self - other`` of two sets: a new set, ``self``'s keys added one by one in its
        order unless ``other`` holds them."""
        out: Py2Order[K] = Py2Order(upper=self._upper)
        for k in self:
            if k not in other:
                out.add(k)
        return out

    def __contains__(self, key: object) -> bool:
        return key in self._hashes

    def __len__(self) -> int:
        return self._used

    def __iter__(self) -> Iterator[K]:
        if self._order is None:
            self._order = [k for k in self._table if k is not None]
        return iter(self._order)


@lru_cache(maxsize=1 << 16)
def py2_order(keys: tuple[str, ...], upper: bool = True) -> tuple[str, ...]:
    """``keys``, inserted in this order, in the order Python 2.7 iterates them (kept: the same
    neighbourhoods recur at every decision of a game)."""
    out: Py2Order[str] = Py2Order(upper=upper)
    for k in keys:
        out.add(k)
    return tuple(out)


@dataclass
class Py2Graph:
    """A networkx 2.2 ``Graph`` or ``MultiGraph`` of city names as the engine built it: the
    nodes, each node's neighbours, and each pair's edges (the segment ids, or ``None`` for an
    edge that stands for the player's own connection). It records the order of insertion
    and hands out networkx's order of iteration."""

    multi: bool
    _nodes: dict[str, None] = field(default_factory=dict)
    _adj: dict[str, dict[str, None]] = field(default_factory=dict)
    _data: dict[frozenset[str], list[int | None]] = field(default_factory=dict)

    def add_node(self, city: str) -> None:
        if city not in self._adj:
            self._nodes[city] = None
            self._adj[city] = {}

    def add_edge(self, a: str, b: str, segment: int | None = None) -> None:
        """``add_edge(a, b)``: a MultiGraph adds a key (0, 1, ...: Python 2 iterates small
        ints in order), a Graph overwrites the one edge of the pair."""
        self.add_node(a)
        self.add_node(b)
        self._adj[a][b] = None
        self._adj[b][a] = None
        edges = self._data.setdefault(frozenset((a, b)), [])
        if self.multi or not edges:
            edges.append(segment)
        else:
            edges[0] = segment

    def __contains__(self, city: str) -> bool:
        return city in self._adj

    @property
    def nodes(self) -> tuple[str, ...]:
        """``iter(G)``."""
        return py2_order(tuple(self._nodes))

    def neighbours(self, city: str) -> tuple[str, ...]:
        """``iter(G[city])``."""
        return py2_order(tuple(self._adj[city]))

    def edges_of(self, a: str, b: str) -> list[int | None]:
        return self._data.get(frozenset((a, b)), [])

    def edges(self) -> Iterator[tuple[str, str]]:
        """``G.edges()``: each pair once per key, from the node networkx meets first."""
        seen: set[str] = set()
        for a in self.nodes:
            for b in self.neighbours(a):
                if b not in seen:
                    for _ in self.edges_of(a, b):
                        yield a, b
            seen.add(a)


def fewest_hops(graph: Py2Graph, source: str, target: str) -> list[str] | None:
    """``nx.shortest_path(graph, source, target)`` without weights, as networkx 2.2 finds it
    (``bidirectional_shortest_path``: the smaller fringe grows a level at a time, and the
    first node both searches have reached joins the two halves), ``None`` if none."""
    if source not in graph or target not in graph:
        return None
    pred: dict[str, str | None] = {source: None}
    succ: dict[str, str | None] = {target: None}
    meet: str | None = source if source == target else None
    forward, reverse = [source], [target]
    while meet is None and forward and reverse:
        if len(forward) <= len(reverse):
            level, forward = forward, []
            for v in level:
                for w in graph.neighbours(v):
                    if w not in pred:
                        forward.append(w)
                        pred[w] = v
                    if w in succ:
                        meet = w
                        break
                if meet is not None:
                    break
        else:
            level, reverse = reverse, []
            for v in level:
                for w in graph.neighbours(v):
                    if w not in succ:
                        succ[w] = v
                        reverse.append(w)
                    if w in pred:
                        meet = w
                        break
                if meet is not None:
                    break
    if meet is None:
        return None
    path: list[str] = []
    node: str | None = meet
    while node is not None:
        path.append(node)
        node = pred[node]
    path.reverse()
    node = succ[path[-1]]
    while node is not None:
        path.append(node)
        node = succ[node]
    return path


def cheapest_path(graph: Py2Graph, source: str, target: str,
                  weight: Callable[[str, str], float]) -> list[str] | None:
    """``nx.dijkstra_path(graph, source, target)`` as networkx 2.2 finds it: a heap ordered
    by distance, then by the order of the pushes; neighbours in the graph's order; a node's
    path set only when a strictly shorter one is found, so ties keep the first. ``weight``
    gives a pair's weight (a MultiGraph's: the least of its edges'). ``None`` if no path."""
    if source not in graph or target not in graph:
        return None
    if source == target:
        return [source]
    dist: dict[str, float] = {}
    seen: dict[str, float] = {source: 0}
    paths: dict[str, list[str]] = {source: [source]}
    pushes = itertools.count()
    fringe: list[tuple[float, int, str]] = [(0, next(pushes), source)]
    while fringe:
        d, _, v = heapq.heappop(fringe)
        if v in dist:
            continue
        dist[v] = d
        if v == target:
            return paths[v]
        for u in graph.neighbours(v):
            vu = d + weight(v, u)
            if u not in dist and (u not in seen or vu < seen[u]):
                seen[u] = vu
                heapq.heappush(fringe, (vu, next(pushes), u))
                paths[u] = paths[v] + [u]
    return None
