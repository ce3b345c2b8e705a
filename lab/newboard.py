"""A board from nothing, as Smith & Anton's graph optimiser builds one: planar 12-city regions
(every city with 2 to 6 connections, 25 to 30 connections in all), the three whose four-agent
games come nearest the desired win shares joined by six connections per pair of regions, then
the two phases of balancing (:mod:`lab.balance`) on the joined board.

Where the candidates come from. A board is drawn: it needs positions at which no two
connections cross, not only a graph that some drawing could make planar. So a region is a
subgraph of the Delaunay triangulation of seeded random positions (planar where it is drawn),
thinned at random to its connection count while every city keeps at least two; networkx's
``check_planarity`` then confirms each (a check, never a filter that fires). nauty's
``geng``/``planarg`` were the other way the issue offered: they enumerate graphs in canonical
order with no positions, and a seeded sample of the millions of planar 12-vertex graphs with
25-30 edges would have to be drawn from an enumeration of all of them, and drawn afterwards.

What the papers leave open, chosen here: positions fill three boxes of the unit square (two
side by side, one centred below, so each pair of regions meets); lengths are map distance in
the USA board's trains per unit (1 to 6 trains), colours as the board search gives them (its
USA share of grey tracks); a deck is fresh city pairs at least 4 trains apart (as the USA's
least ticket) worth the fewest trains between them (as the deck search values tickets), 15
per region (the fewest a four-player standard game deals from) and 30 on the joined board (as
the USA); the trains each player gets are the USA's 45 scaled by the board's tracks, so a game
uses as much of a board as the USA's does. The joining connections of a pair are the shortest
that cross nothing already drawn: six where they fit, as the paper's, else as many as do.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, replace
from itertools import combinations

import networkx as nx
import numpy as np
from scipy.spatial import Delaunay

from boards import Board, City, Connection, Ticket
from lab.boardgen import Cities, colours, crossings, pair_index
from lab.decks import train_distances

REGION_CITIES = 12
DEGREES = (2, 6)
CONNECTIONS = (25, 30)
JOINS = 6  # connections between each pair of regions (Smith & Anton)
REGION_TICKETS = 15
BOARD_TICKETS = 30
LEAST_TICKET = 4  # trains: the USA deck's least ticket
MAX_LENGTH = 6
#: Where the three regions are drawn: (left, top) of each box, and the box's size.
BOXES = ((0.03, 0.03), (0.53, 0.03), (0.28, 0.46))
BOX = (0.44, 0.37)
#: Least distance between two cities of a region (map units; about one train).
SPACING = 0.05


@dataclass(frozen=True)
class Region:
    """One candidate: its seed, its cities' positions in a unit box, and its connections."""

    seed: int
    points: tuple[tuple[float, float], ...]
    edges: tuple[tuple[int, int], ...]

    def graph(self) -> nx.Graph:
        g = nx.Graph()
        g.add_nodes_from(range(len(self.points)))
        g.add_edges_from(self.edges)
        return g


@dataclass(frozen=True)
class Scale:
    """What a board from nothing borrows from the USA: trains per unit of map distance, the
    share of grey tracks, and the trains each player gets per track of the board."""

    trains_per_unit: float
    grey: float
    trains_per_track: float

    @staticmethod
    def of(board: Board) -> Scale:
        cities = Cities(board)
        tracks = sum(c.length for c in board.connections)
        return Scale(cities.trains_per_unit(), cities.grey_share(),
                     (board.trains or 45) / tracks)


def region(seed: int, tries: int = 1000) -> Region:
    """The region of ``seed`` (see the module's docstring); ValueError if ``tries`` drawings
    give none, which a planar 12-city region with these bounds never needs."""
    rng = random.Random(seed)
    for _ in range(tries):
        points = _spread(rng, REGION_CITIES)
        graph = nx.Graph()
        graph.add_nodes_from(range(REGION_CITIES))
        for simplex in Delaunay(np.array(points)).simplices:
            graph.add_edges_from(combinations(sorted(int(v) for v in simplex), 2))
        if graph.number_of_edges() < CONNECTIONS[0]:
            continue
        _thin(rng, graph, rng.randint(CONNECTIONS[0],
                                      min(CONNECTIONS[1], graph.number_of_edges())))
        if _fits(graph):
            return Region(seed, tuple(points), tuple(sorted(graph.edges)))
    raise ValueError(f"no region for seed {seed} in {tries} drawings")


def _spread(rng: random.Random, n: int) -> list[tuple[float, float]]:
    """``n`` positions in the unit box, no two closer than the spacing (in map units)."""
    least = SPACING / min(BOX)
    points: list[tuple[float, float]] = []
    while len(points) < n:
        p = (rng.random(), rng.random())
        if all(np.hypot(p[0] - q[0], p[1] - q[1]) >= least for q in points):
            points.append(p)
    return points


def _thin(rng: random.Random, graph: nx.Graph, target: int) -> None:
    """Remove connections at random until ``target`` are left, never one whose removal leaves
    a city with fewer than two or cuts the region; connections at a city with more than six go
    first."""
    low, high = DEGREES
    while graph.number_of_edges() > target:
        removable = [e for e in sorted(graph.edges)
                     if graph.degree(e[0]) > low and graph.degree(e[1]) > low]
        crowded = [e for e in removable
                   if graph.degree(e[0]) > high or graph.degree(e[1]) > high]
        for e in _shuffled(rng, crowded or removable):
            graph.remove_edge(*e)
            if nx.is_connected(graph):
                break
            graph.add_edge(*e)
        else:
            return  # nothing can go: the caller finds the count too high and draws again


def _shuffled[T](rng: random.Random, items: Sequence[T]) -> list[T]:
    out = list(items)
    rng.shuffle(out)
    return out


def _fits(graph: nx.Graph) -> bool:
    degrees = [d for _, d in graph.degree]
    return (CONNECTIONS[0] <= graph.number_of_edges() <= CONNECTIONS[1]
            and DEGREES[0] <= min(degrees) and max(degrees) <= DEGREES[1]
            and nx.is_connected(graph) and nx.check_planarity(graph)[0])


def _placed(r: Region, box: int) -> list[tuple[float, float]]:
    (left, top), (w, h) = BOXES[box], BOX
    return [(round(left + x * w, 4), round(top + y * h, 4)) for x, y in r.points]


def _board(name: str, title: str, cities: Sequence[City], edges: Sequence[tuple[int, int]],
           scale: Scale, rng: random.Random, tickets: int) -> Board:
    """A board of these cities and connections: lengths, colours, a deck and trains as the
    module's docstring says."""
    empty = Board(name, title, 1, "ttr-kripke new-board", tuple(cities), (), ())
    n = len(cities)
    index = pair_index(n)
    layout = np.zeros(n * (n - 1) // 2, dtype=np.int8)
    for i, j in edges:
        layout[index[min(i, j), max(i, j)]] = 1
    place = Cities(empty, scale.trains_per_unit, scale.grey)
    colour = colours(place, layout)
    p = place.points
    connections: list[Connection] = []
    for i, j in sorted((min(e), max(e)) for e in edges):
        length = min(MAX_LENGTH, max(1, round(float(np.linalg.norm(p[i] - p[j]))
                                              * scale.trains_per_unit)))
        connections.append(Connection(len(connections), cities[i].name, cities[j].name,
                                      length, colour[i, j][0]))
    board = replace(empty, connections=tuple(connections))
    tracks = sum(c.length for c in connections)
    return replace(board, tickets=deck(board, rng, tickets),
                   trains=max(3, round(scale.trains_per_track * tracks)))


def deck(board: Board, rng: random.Random, size: int) -> tuple[Ticket, ...]:
    """``size`` city pairs at least :data:`LEAST_TICKET` trains apart (all of them if fewer),
    each worth the fewest trains between its cities."""
    far = train_distances(board)
    names = board.city_names
    pairs = [(i, j) for i, j in combinations(range(len(names)), 2) if far[i, j] >= LEAST_TICKET]
    chosen = sorted(rng.sample(pairs, min(size, len(pairs))))
    return tuple(Ticket(k, names[i], names[j], int(far[i, j])) for k, (i, j) in enumerate(chosen))


def region_board(r: Region, scale: Scale, letter: str = "R", box: int = 0) -> Board:
    """A region on its own: a playable 12-city board (its cities named A1, A2, ...)."""
    cities = [City(f"{letter}{k + 1}", x, y) for k, (x, y) in enumerate(_placed(r, box))]
    return _board(f"region-{r.seed}", f"Region {r.seed}", cities, r.edges, scale,
                  random.Random(r.seed), REGION_TICKETS)


def joined(regions: Sequence[Region], scale: Scale, seed: int) -> Board:
    """The three regions drawn in their boxes (named A, B, C in ``regions``' order), joined by
    up to :data:`JOINS` connections per pair, taken in turn: each the shortest between the two
    regions that crosses nothing already drawn (:func:`lab.boardgen.crossings`). The paper
    joins graphs; a drawn board often has room for fewer: straight connections between two
    regions that cross neither each other nor the regions' own can only reach the cities on
    the sides the regions turn to each other (4 to 6 per pair in 60 triples of regions)."""
    cities: list[City] = []
    edges: list[tuple[int, int]] = []
    for box, (r, letter) in enumerate(zip(regions, "ABC", strict=True)):
        first = len(cities)
        cities += [City(f"{letter}{k + 1}", x, y) for k, (x, y) in enumerate(_placed(r, box))]
        edges += [(first + i, first + j) for i, j in r.edges]
    empty = Board("new", "New board", 1, "ttr-kripke new-board", tuple(cities), (), ())
    place = Cities(empty, scale.trains_per_unit, scale.grey)
    index, p = pair_index(len(cities)), place.points
    layout = np.zeros(len(index), dtype=np.int8)
    for i, j in edges:
        layout[index[i, j]] = 1
    spans = [sorted(((i, j) for i in range(a * REGION_CITIES, (a + 1) * REGION_CITIES)
                     for j in range(b * REGION_CITIES, (b + 1) * REGION_CITIES)),
                    key=lambda e: (float(np.linalg.norm(p[e[0]] - p[e[1]])), e))
             for a, b in combinations(range(len(regions)), 2)]
    for _ in range(JOINS):  # one connection per pair of regions in turn, so none is crowded out
        for span in spans:
            for i, j in span:
                if layout[index[i, j]]:
                    continue
                layout[index[i, j]] = 1
                if not crossings(place, layout):
                    edges.append((i, j))
                    break
                layout[index[i, j]] = 0
    name = f"new-{seed}"
    return _board(name, f"New board {seed} (regions {', '.join(str(r.seed) for r in regions)})",
                  cities, edges, scale, random.Random(seed), BOARD_TICKETS)

