"""Boards built on given cities (Silva et al. 2018, §5): the Delaunay triangulation of their
positions, the three edit operations (remove a connection, duplicate one into a double, flip an
edge shared by two triangles), the constraints a board must meet, and the lengths and colours
given to a finished layout.

A layout is a vector of counts over the pairs of cities (0: no connection, 1: one, 2: a
double), so the genetic operators of :mod:`lab.genetic` apply to it as to a deck. Planarity is
geometric: no two connections may cross on the map (a board that only a graph theorist could
redraw without crossings is no board).
"""

from __future__ import annotations

import random
from dataclasses import dataclass, replace
from itertools import combinations

import networkx as nx
import numpy as np
from scipy.spatial import Delaunay

from boards import COLOURS, GREY, Board, Connection

MAX_DEGREE = 10
#: Connections (segments: a double counts twice) for a 36-city board, scaled by the city count.
EDGE_WINDOW_36 = (95, 110)
PENALTY = 100.0  # per broken constraint
MAX_LENGTH = 6


def pair_index(n: int) -> dict[tuple[int, int], int]:
    """Position of each pair (i < j) in a layout vector (the order of ``combinations``)."""
    return {pair: k for k, pair in enumerate(combinations(range(n), 2))}


@dataclass(frozen=True)
class Cities:
    """The fixed part of a board search: positions, and the board they came from (its deck, its
    route points, and the scale that turns map distance into trains). A board from nothing has
    no connections to learn its scale and grey share from: ``scale`` and ``grey`` give them."""

    board: Board
    scale: float | None = None
    grey: float | None = None

    @property
    def n(self) -> int:
        return len(self.board.cities)

    @property
    def points(self) -> np.ndarray:
        return np.array([(c.x, c.y) for c in self.board.cities])

    @property
    def pairs(self) -> list[tuple[int, int]]:
        return list(combinations(range(self.n), 2))

    def window(self) -> tuple[int, int]:
        low, high = EDGE_WINDOW_36
        return round(low * self.n / 36), round(high * self.n / 36)

    def trains_per_unit(self) -> float:
        """Trains per unit of map distance on the original board (its connections' lengths over
        their drawn lengths), so evolved connections are as long as the original's."""
        if self.scale is not None:
            return self.scale
        p = self.points
        index = self.board.city_index
        drawn = sum(float(np.linalg.norm(p[index[c.a]] - p[index[c.b]]))
                    for c in self.board.connections)
        return sum(c.length for c in self.board.connections) / max(drawn, 1e-9)

    def grey_share(self) -> float:
        """The share of the original board's tracks (each half of a double one) that are grey:
        an evolved board gets as many, so it offers as many ways to pay, and its game arc (the
        legal moves, each way to pay one) compares with the original's."""
        if self.grey is not None:
            return self.grey
        return sum(c.colour == GREY for c in self.board.connections) / len(
            self.board.connections)


def delaunay(cities: Cities) -> np.ndarray:
    """The layout of the Delaunay triangulation: one connection per triangle edge."""
    layout = np.zeros(len(cities.pairs), dtype=np.int8)
    index = pair_index(cities.n)
    for simplex in Delaunay(cities.points).simplices:
        for a, b in combinations(sorted(int(v) for v in simplex), 2):
            layout[index[a, b]] = 1
    return layout


def _edges(cities: Cities, layout: np.ndarray) -> list[tuple[int, int]]:
    return [pair for pair, count in zip(cities.pairs, layout, strict=True) if count]


def crossings(cities: Cities, layout: np.ndarray) -> int:
    """Pairs of connections that cross on the map (touching at a shared city is no crossing)."""
    edges = _edges(cities, layout)
    if len(edges) < 2:
        return 0
    p = cities.points
    e = np.array(edges)
    a, b = p[e[:, 0]], p[e[:, 1]]  # segment ends, one row per connection

    def orient(p1: np.ndarray, p2: np.ndarray, q: np.ndarray) -> np.ndarray:
        d1, d2 = p2 - p1, q - p1
        return np.sign(d1[..., 0] * d2[..., 1] - d1[..., 1] * d2[..., 0])

    A, B = a[:, None, :], b[:, None, :]
    C, D = a[None, :, :], b[None, :, :]
    proper = (orient(A, B, C) * orient(A, B, D) < 0) & (orient(C, D, A) * orient(C, D, B) < 0)
    shared = (e[:, None, 0] == e[None, :, 0]) | (e[:, None, 0] == e[None, :, 1]) | \
        (e[:, None, 1] == e[None, :, 0]) | (e[:, None, 1] == e[None, :, 1])
    return int(np.triu(proper & ~shared, 1).sum())


def degrees(cities: Cities, layout: np.ndarray) -> np.ndarray:
    """Connections (segments) at each city."""
    deg = np.zeros(cities.n, dtype=int)
    for (i, j), count in zip(cities.pairs, layout, strict=True):
        deg[i] += count
        deg[j] += count
    return deg


def connected(cities: Cities, layout: np.ndarray) -> bool:
    graph = nx.Graph()
    graph.add_nodes_from(range(cities.n))
    graph.add_edges_from(_edges(cities, layout))
    return nx.is_connected(graph)


def broken(cities: Cities, layout: np.ndarray) -> list[str]:
    """The constraints ``layout`` breaks, by name (each costs :data:`PENALTY`)."""
    out = []
    if crossings(cities, layout):
        out.append("planar")
    if not connected(cities, layout):
        out.append("connected")
    if degrees(cities, layout).max(initial=0) > MAX_DEGREE:
        out.append("degree")
    low, high = cities.window()
    if not low <= int(layout.sum()) <= high:
        out.append("edge count")
    return out


# ----- the three operations ------------------------------------------------------------------

def remove(rng: random.Random, cities: Cities, layout: np.ndarray) -> np.ndarray:
    """One connection fewer (a double becomes single)."""
    out = layout.copy()
    present = np.flatnonzero(out).tolist()
    if present:
        out[rng.choice(present)] -= 1
    return out


def duplicate(rng: random.Random, cities: Cities, layout: np.ndarray) -> np.ndarray:
    """A single connection becomes a double."""
    out = layout.copy()
    singles = np.flatnonzero(out == 1).tolist()
    if singles:
        out[rng.choice(singles)] = 2
    return out


def _side(p: np.ndarray, a: int, b: int, c: int) -> float:
    (ax, ay), (bx, by), (cx, cy) = p[a], p[b], p[c]
    return float((bx - ax) * (cy - ay) - (by - ay) * (cx - ax))


def _empty_triangle(p: np.ndarray, a: int, b: int, c: int) -> bool:
    """No other city inside the triangle abc."""
    signs = [_side(p, a, b, c), _side(p, b, c, a), _side(p, c, a, b)]
    for k in range(len(p)):
        if k in (a, b, c):
            continue
        inner = [_side(p, a, b, k), _side(p, b, c, k), _side(p, c, a, k)]
        if all(s * i > 0 for s, i in zip(signs, inner, strict=True)):
            return False
    return True


def flippable(cities: Cities, layout: np.ndarray, pair: tuple[int, int]) -> tuple[int, int] | None:
    """The other diagonal of the two triangles sharing the connection ``pair``, if the
    connection lies between two empty triangles of the layout and their quadrilateral is convex
    (so the new diagonal crosses nothing the old one did not)."""
    u, v = pair
    p = cities.points
    index = pair_index(cities.n)
    near: list[set[int]] = [set() for _ in range(cities.n)]
    for a, b in _edges(cities, layout):
        near[a].add(b)
        near[b].add(a)
    sides: dict[bool, list[int]] = {True: [], False: []}
    for w in near[u] & near[v]:
        side = _side(p, u, v, w)
        if side != 0 and _empty_triangle(p, u, v, w):
            sides[side > 0].append(w)
    if len(sides[True]) != 1 or len(sides[False]) != 1:
        return None
    w1, w2 = sides[True][0], sides[False][0]
    if _side(p, w1, w2, u) * _side(p, w1, w2, v) >= 0:  # not convex: the diagonals do not cross
        return None
    new = (min(w1, w2), max(w1, w2))
    return new if layout[index[new]] == 0 else None


def flip(rng: random.Random, cities: Cities, layout: np.ndarray) -> np.ndarray:
    """Replace a connection shared by two triangles with the other diagonal of their
    quadrilateral (the layout as it was if no connection can be flipped)."""
    index = pair_index(cities.n)
    present = _edges(cities, layout)
    rng.shuffle(present)
    for pair in present:
        new = flippable(cities, layout, pair)
        if new is not None:
            out = layout.copy()
            out[index[pair]] = 0
            out[index[new]] = 1
            return out
    return layout.copy()


OPERATIONS = (remove, duplicate, flip)


def mutate(rng: random.Random, cities: Cities, layout: np.ndarray) -> np.ndarray:
    """One operation, chosen at random."""
    return rng.choice(OPERATIONS)(rng, cities, layout)


# ----- from a layout to a board --------------------------------------------------------------

def lengths(cities: Cities, layout: np.ndarray) -> dict[tuple[int, int], int]:
    """Each connection's length: its drawn length in the original board's trains per unit,
    rounded, from 1 to :data:`MAX_LENGTH`."""
    p, scale = cities.points, cities.trains_per_unit()
    return {(i, j): min(MAX_LENGTH, max(1, round(float(np.linalg.norm(p[i] - p[j])) * scale)))
            for i, j in _edges(cities, layout)}


def colours(cities: Cities, layout: np.ndarray) -> dict[tuple[int, int], list[str]]:
    """Each connection's colours (two for a double). The shortest tracks are grey, as many as
    the original board's share (:meth:`Cities.grey_share`; the printed boards make their short
    connections grey); the others, longest first, take the least used colour none of the
    connections at their cities has, grey only when all eight are taken there, so no two
    connections at a city share a colour where avoidable."""
    length = lengths(cities, layout)
    index = pair_index(cities.n)
    edges = _edges(cities, layout)
    tracks = sum(int(layout[index[e]]) for e in edges)
    greys = round(cities.grey_share() * tracks)
    out: dict[tuple[int, int], list[str]] = {e: [] for e in edges}
    for e in sorted(edges, key=lambda e: (length[e], e)):
        for _ in range(min(int(layout[index[e]]), greys)):
            out[e].append(GREY)
            greys -= 1
    at_city: list[set[str]] = [set() for _ in range(cities.n)]
    used = dict.fromkeys(COLOURS, 0)
    for i, j in sorted(edges, key=lambda e: (-length[e], e)):
        for _ in range(int(layout[index[i, j]]) - len(out[i, j])):
            free = [c for c in COLOURS if c not in at_city[i] | at_city[j]]
            colour = min(free, key=lambda c: (used[c], COLOURS.index(c))) if free else GREY
            if colour != GREY:
                used[colour] += 1
                at_city[i].add(colour)
                at_city[j].add(colour)
            out[i, j].append(colour)
    return out


def layout_board(cities: Cities, layout: np.ndarray, name: str, title: str) -> Board:
    """The board of a layout: the cities, the connections with their lengths and colours
    (doubles numbered 1, 2, ...), the original deck."""
    names = cities.board.city_names
    length, colour = lengths(cities, layout), colours(cities, layout)
    connections: list[Connection] = []
    doubles = 0
    for pair in sorted(length):
        i, j = pair
        pair_no = None
        if len(colour[pair]) == 2:
            doubles += 1
            pair_no = doubles
        for c in colour[pair]:
            connections.append(Connection(len(connections), names[i], names[j], length[pair], c,
                                          pair=pair_no))
    return replace(cities.board, name=name, title=title, connections=tuple(connections),
                   source=f"{cities.board.name}'s cities and deck; connections bred by "
                          "ttr-kripke evolve board")

