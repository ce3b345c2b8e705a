"""The textbook graph of a small model: each world a node with its name and true atoms, one edge
per pair of worlds an agent cannot tell apart, in the agent's colour and labelled with it.

The class views of ``app.worlds.layout`` scale to millions of worlds; a logic class, though,
learns Kripke models from this picture, and a teacher who writes a model of five worlds wants
to see the one in the book. So, for up to ``GRAPH_LIMIT`` worlds:

* positions are worked out once per universe (Kamada–Kawai on the graph of all agents' edges,
  deterministic, no seed to drift) and kept, so a world never moves; a world an announcement
  removes fades out where it stood, as in every layout here;
* S5's reflexive loops are left out, as textbooks do; a class of up to ``CLIQUE_LIMIT`` worlds
  is drawn with an edge for every pair, a bigger one as a ring through its worlds (the caption
  says so: a clique of 40 is a smear, not a picture);
* several agents on one pair get one curve each, side by side; an edge that would run through
  another world is bent around it; each edge's label goes where it overlaps no node, name or
  other label;
* a world's name and atoms go under it, as in the book, unless a line runs through them
  there (a vertical edge leaving the world): then above, beside or on a diagonal, where
  nothing crosses or touches them, the picture grown to hold them; placed once, so they stay
  put as worlds go;
* the actual world is doubly circled.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Collection, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, replace
from itertools import pairwise
from typing import Any

import networkx as nx
import numpy as np

from app.worlds.geometry import clear_bend, curve_point, level_places
from app.worlds.layout import (
    FONT,
    GOING,
    GONE,
    LOOP_R,
    Link,
    Mark,
    Marking,
    Names,
    Picture,
    PlainNames,
    Text,
    _plural,
    _Positioned,
    _private,
    text_width,
)
from kripke.events.model import EventModel
from kripke.factory import arrows_model
from kripke.language.formula import Agent
from kripke.parts import Drawn, Leveled

#: The most worlds the graph draws: past it edges and labels no longer read on a projector.
GRAPH_LIMIT = 40
#: A class of at most this many worlds gets an edge per pair (6 for 4); bigger, a ring.
CLIQUE_LIMIT = 4
NODE_R = 11.0
#: Characters of true atoms per line under a node (more wrap onto further lines).
ATOM_LINE = 14
MARGIN = 16.0
#: The shape (width / height) of a screen or a slide, which a product's layers are stacked to
#: come near.
ASPECT = 1.4
#: Units between the parallel curves of several agents on one pair of worlds.
FAN = 9.0
#: A graph of a few worlds is spread over at least this many units: shown at up to 1.5
#: times its size, its names would otherwise stay small on a projector.
SPAN = 330.0
#: Up to this many worlds the layout tries three starts and keeps the one with fewest crossings.
RESTARTS = 16
PLAIN = Marking()  # no viewer, no formula, nothing ringed


def too_big(model: Drawn) -> str | None:
    """Why ``model`` gets no graph (None: it does)."""
    if model.n_worlds > GRAPH_LIMIT:
        return (f"The graph draws up to {GRAPH_LIMIT} worlds; this model has "
                f"{model.n_worlds:,}: announce something first, or use the class view.")
    return None


def _unit_positions(universe: Drawn) -> dict[int, tuple[float, float]]:
    """Kamada–Kawai positions of the worlds (by id), edges for every pair some agent cannot
    tell apart; worlds in different components are kept one step further apart than the
    farthest pair within one, so a disconnected model is not flung to the corners. The
    optimisation has local minima (a square drawn as a bow tie), so it starts from a few
    deterministic places and keeps the drawing with the fewest crossings."""
    graph = relation_graph(universe)
    nodes = list(graph.nodes)
    if len(nodes) == 1:
        return {nodes[0]: (0.0, 0.0)}
    hops = dict(nx.all_pairs_shortest_path_length(graph))
    far = max((d for row in hops.values() for d in row.values()), default=1) + 1
    dist = {a: {b: hops[a].get(b, far) for b in nodes} for a in nodes}
    edges = [(a, b) for a, b in graph.edges]
    best: tuple[int, dict[int, tuple[float, float]]] | None = None
    # more starts only where they are cheap (about 0.3 s each at 40 worlds, and a big graph
    # crosses anyway)
    for order in _orders(graph, nodes)[:3 if len(nodes) <= RESTARTS else 1]:
        start = {w: (math.cos(2 * math.pi * i / len(order)),
                     math.sin(2 * math.pi * i / len(order))) for i, w in enumerate(order)}
        pos = nx.kamada_kawai_layout(graph, dist=dist, pos=start)
        placed = {int(w): (float(p[0]), float(p[1])) for w, p in pos.items()}
        cost = _crossings(placed, edges)
        if best is None or cost < best[0]:
            best = (cost, placed)
        if cost == 0:
            break
    assert best is not None
    return best[1]


def relation_graph(model: Drawn) -> nx.Graph:
    """The worlds (by id, in order) and an undirected edge per pair some agent's relation
    joins, either way, in the order of the pairs: read from the model's listing, whose arrows
    an S5 model and a belief model both give."""
    listing = model.listing(model.n_worlds)
    ids = list(listing.ids)
    graph = nx.Graph()
    graph.add_nodes_from(ids)
    pairs = {(min(w, v), max(w, v)) for arrows in listing.arrows for w, v in arrows if w != v}
    graph.add_edges_from((ids[w], ids[v]) for w, v in sorted(pairs))
    return graph


def _orders(graph: nx.Graph, nodes: list[int]) -> list[list[int]]:
    """Orders to set the worlds around a circle before optimising: as listed, depth first
    (a cycle stays a cycle), breadth first."""
    dfs = [w for c in nx.connected_components(graph)
           for w in nx.dfs_preorder_nodes(graph, min(c))]
    bfs = [w for c in nx.connected_components(graph)
           for w in [min(c), *(v for _, v in nx.bfs_edges(graph, min(c)))]]
    return [dfs, nodes, bfs]


def _crossings(pos: dict[int, tuple[float, float]], edges: list[tuple[int, int]]) -> int:
    """Pairs of edges that cross, and three times each edge that runs through a world."""
    def side(p, q, r) -> float:
        return (q[0] - p[0]) * (r[1] - p[1]) - (q[1] - p[1]) * (r[0] - p[0])

    span = max(max(p[0] for p in pos.values()) - min(p[0] for p in pos.values()),
               max(p[1] for p in pos.values()) - min(p[1] for p in pos.values()), 1e-9)
    near = span * 0.04
    cost = 0
    for i, (a, b) in enumerate(edges):
        p, q = pos[a], pos[b]
        for c, d in edges[i + 1:]:
            if len({a, b, c, d}) < 4:
                continue
            r, s = pos[c], pos[d]
            if side(p, q, r) * side(p, q, s) < 0 and side(r, s, p) * side(r, s, q) < 0:
                cost += 1
        length = math.dist(p, q) or 1e-9
        for w, o in pos.items():
            if w in (a, b):
                continue
            t = ((o[0] - p[0]) * (q[0] - p[0]) + (o[1] - p[1]) * (q[1] - p[1])) / length ** 2
            if 0 < t < 1 and abs(side(p, q, o)) / length < near:
                cost += 3
    return cost


def _spread(pos: dict[int, tuple[float, float]], spacing: float) -> dict[int, tuple[float, float]]:
    """Scaled so the closest two worlds are ``spacing`` apart (room for their labels), then
    nudged apart where a pair is still too close."""
    ids = sorted(pos)
    pairs = [(a, b) for i, a in enumerate(ids) for b in ids[i + 1:]]
    if not pairs:
        return {w: (0.0, 0.0) for w in ids}
    closest = min(math.dist(pos[a], pos[b]) for a, b in pairs)
    scale = spacing / max(closest, 1e-6)
    typical = sorted(math.dist(pos[a], pos[b]) for a, b in pairs)[len(pairs) // 2]
    scale = min(scale, 2.6 * spacing / max(typical, 1e-6))  # a few worlds: not spread thin
    out = {w: [pos[w][0] * scale, pos[w][1] * scale] for w in ids}
    for _ in range(60):
        moved = False
        for a, b in pairs:
            (xa, ya), (xb, yb) = out[a], out[b]
            d = math.hypot(xb - xa, yb - ya)
            if d < spacing - 0.5:
                ux, uy = ((xb - xa) / d, (yb - ya) / d) if d > 1e-6 else (1.0, 0.0)
                push = (spacing - d) / 2
                out[a] = [xa - ux * push, ya - uy * push]
                out[b] = [xb + ux * push, yb + uy * push]
                moved = True
        if not moved:
            break
    return {w: (p[0], p[1]) for w, p in out.items()}


@dataclass(frozen=True)
class _Box:
    left: float
    top: float
    right: float
    bottom: float

    def hits(self, other: _Box, pad: float = 3.0) -> bool:
        """Whether the two overlap or come closer than ``pad`` (text must not touch)."""
        return (min(self.right, other.right) - max(self.left, other.left) > -pad and
                min(self.bottom, other.bottom) - max(self.top, other.top) > -pad)


def _line_box(x: float, base: float, anchor: str, line: str) -> _Box:
    """The box a line of text at (``x``, baseline ``base``) covers."""
    w = text_width(line)
    left = x if anchor == "start" else x - w if anchor == "end" else x - w / 2
    return _Box(left, base - FONT, left + w, base + 3)


#: The places next to a world tried first for its name (under, above, beside, the diagonals,
#: at three distances), each clear of the world's circle by construction.
NEAR = 24
#: Straight pieces per edge curve (and per loop's circle) when testing what crosses a name.
PIECES = 16


def _segments(links: Sequence[Link]) -> tuple[np.ndarray, np.ndarray]:
    """Every link as straight pieces (``x0 y0 x1 y1`` per row), its arrowheads' outlines too, and
    the link each piece belongs to."""
    rows: list[tuple[float, ...]] = []
    owner: list[int] = []
    for k, link in enumerate(links):
        if link.loop:
            cx, cy = link.x2, link.y2
            points = [(cx + LOOP_R * math.cos(2 * math.pi * i / PIECES),
                       cy + LOOP_R * math.sin(2 * math.pi * i / PIECES))
                      for i in range(PIECES + 1)]
        else:
            points = [curve_point((link.x1, link.y1), (link.x2, link.y2), link.bend, i / PIECES)
                      for i in range(PIECES + 1)]
        rows += [(*p, *q) for p, q in pairwise(points)]
        # and its heads' outlines: a head on a name hides letters as a line does
        rows += [(*p, *q) for head in link.heads() for p, q in pairwise((*head, head[0]))]
        owner += [k] * (len(rows) - len(owner))
    return np.array(rows, dtype=float).reshape(-1, 4), np.array(owner, dtype=int)


def _clearest(places: Iterable[_Box], taken: Sequence[_Box], segments: np.ndarray) -> _Box:
    """The first of ``places`` that touches none of ``taken`` and that no piece of
    ``segments`` crosses; failing that, the one touching fewest, then crossed least."""
    best: tuple[tuple[int, int], _Box] | None = None
    for box in places:
        score = (sum(box.hits(other) for other in taken), int(_crosses(segments, box).sum()))
        if best is None or score < best[0]:
            best = (score, box)
        if score == (0, 0):
            break
    assert best is not None
    return best[1]


def _crosses(segments: np.ndarray, box: _Box) -> np.ndarray:
    """Which pieces pass through ``box`` (Liang–Barsky: the part of each piece inside every
    one of the box's four half-planes is not empty)."""
    x0, y0, x1, y1 = segments.T
    dx, dy = x1 - x0, y1 - y0
    start, end = np.zeros(len(segments)), np.ones(len(segments))
    inside = np.ones(len(segments), dtype=bool)
    for p, q in ((-dx, x0 - box.left), (dx, box.right - x0), (-dy, y0 - box.top),
                 (dy, box.bottom - y0)):
        flat = p == 0
        inside &= ~(flat & (q < 0))
        ratio = np.divide(q, p, out=np.zeros_like(q), where=~flat)
        start = np.where(~flat & (p < 0), np.maximum(start, ratio), start)
        end = np.where(~flat & (p > 0), np.minimum(end, ratio), end)
    return inside & (start <= end)


class GraphLayout(_Positioned):
    """Every world of a small model a node at a fixed place, every edge drawn.

    ``label(model, index)`` names a world (default ``w`` and its id); with ``atoms`` the atoms
    true in it are written under its name, or with ``under(model, index)`` those lines (an
    event's precondition and assignments). ``names`` gives the hover texts and agents' names.
    ``positions`` (by world id) are kept as they are, only scaled so the closest two worlds
    have room for their names: a product update's layers (:func:`layered`) stay layers, each
    named above it when ``layers`` says which worlds each event's holds. A drawing spanning
    less than ``least`` units is spread to it (a few worlds, read from afar).
    """

    def __init__(self, universe: Drawn, focus: Agent, names: Names | None = None, *,
                 # a caller's namer takes the kind of model it passes
                 label: Callable[[Any, int], str] | None = None,
                 atoms: bool = True,
                 positions: Mapping[int, tuple[float, float]] | None = None,
                 under: Callable[[Drawn, int], list[str]] | None = None,
                 least: float = SPAN,
                 layers: Mapping[str, Collection[int]] | None = None) -> None:
        reason = too_big(universe)
        if reason is not None:
            raise ValueError(reason)
        self.universe, self.focus, self.radius = universe, focus, NODE_R
        self.names = names or PlainNames()
        # how a world is named: a caller keeps a layout only for a model named the same way
        self.label = label
        self._atoms, self._under = atoms, under
        self.lines = self._lines_of(universe)
        widest = max(text_width(t) for lines in self.lines.values() for t in lines)
        deepest = max(len(lines) for lines in self.lines.values())
        spacing = max(widest + 34, 2 * NODE_R + 14 + deepest * (FONT + 2) + 22, 84.0)
        self.leveled = False
        if not positions and isinstance(universe, Leveled) and not universe.is_flat():
            # an order at the start: the focus agent's classes in columns, its levels in rows
            self.leveled = True
            positions = level_places(universe.world_ids.tolist(),
                                     universe.observation(focus).tolist(),
                                     universe.level(focus).tolist())
        if positions:  # kept as given (a product's layers), only scaled to the names' room
            closest = min((math.dist(p, q) for i, p in enumerate(positions.values())
                           for q in list(positions.values())[i + 1:]), default=1.0)
            placed = {w: (x * spacing / max(closest, 1e-6), y * spacing / max(closest, 1e-6))
                      for w, (x, y) in positions.items()}
        else:
            placed = _spread(_unit_positions(universe), spacing)
        xs = [p[0] for p in placed.values()]
        ys = [p[1] for p in placed.values()]
        span = max(max(xs) - min(xs), max(ys) - min(ys))
        if 0 < span < least:
            placed = {w: (x * least / span, y * least / span) for w, (x, y) in placed.items()}
            xs = [p[0] for p in placed.values()]
            ys = [p[1] for p in placed.values()]
        # room for loops and their names around the outer worlds, where arrows may loop
        loops = 0.0 if universe.frame_class() == "S5" else 2.9 * LOOP_R + FONT + 8
        left = MARGIN + max(widest / 2 - NODE_R, loops, 0) + NODE_R
        # a product's layers are named above them ("event yes"): room for a line of text
        top = MARGIN + NODE_R + 4 + max(loops, FONT + 8 if layers else 0)
        self.pos = {w: (x - min(xs) + left, y - min(ys) + top) for w, (x, y) in placed.items()}
        self.width = max(xs) - min(xs) + 2 * left
        self.height = max(ys) - min(ys) + top + NODE_R + deepest * (FONT + 2) + MARGIN + 6
        self.layers = {event: list(ids) for event, ids in (layers or {}).items() if ids}
        self.headings: list[Text] = []  # placed with the names, clear of them
        self.names_at = self._place_names()

    def _lines_of(self, model: Drawn) -> dict[int, list[str]]:
        """Each world's lines by id, as this layout writes them: its name, then its atoms
        (or the ``under`` lines) in ``model``."""
        lines: dict[int, list[str]] = {}
        # a plausibility order: the focus agent's level after each name, a star on the worlds
        # it believes in, written in the name's line so they are placed with it, clear of the
        # rest (drawn apart, the star sat on names above the world)
        order = model if isinstance(model, Leveled) and not model.is_flat() else None
        level = order.level(self.focus).tolist() if order is not None else []
        believed = set(order.best(self.focus).tolist()) \
            if order is not None and model.actual is not None else set()
        listing = model.listing(model.n_worlds)
        for i, wid in enumerate(listing.ids):
            name = self.label(model, i) if self.label else f"w{wid}"
            if order is not None:
                name += f" ({level[i]}){' ★' if i in believed else ''}"
            true = [str(a) for a in listing.atoms if a in listing.true[i]]
            below = (self._under(model, i) if self._under else
                     _wrap_atoms(true) if self._atoms else [])
            lines[wid] = [name, *below]
        return lines

    def draws(self, model: Drawn) -> bool:
        """Whether this layout draws ``model`` truly: it places every world of it, and each
        world's name and atoms there are the ones it wrote. A factual change that splits no
        world keeps every id but not the atoms (a flipped coin), so ids alone do not say."""
        lines = self._lines_of(model)
        return all(self.lines.get(wid) == written for wid, written in lines.items())

    def _place_names(self) -> dict[int, list[tuple[float, float, str]]]:
        """Where each world's name and atoms go (per line: x, baseline, anchor), worked out
        once from every edge and loop of the universe, so a name never moves as worlds go.

        Under its node, unless it would touch a node or another name there, or an edge or
        loop runs through it (a vertical edge leaving a world crossed its name, "t" read as
        "+"): then above, right, left or on a diagonal, the first place nothing touches or
        crosses, else one that touches nothing and is crossed least."""
        edges = self._edges(self.universe)
        links, _ = self._edge_links(edges, lambda wid: NODE_R + 1.5)
        nodes = {w: _Box(x - NODE_R - 2, y - NODE_R - 2, x + NODE_R + 2, y + NODE_R + 2)
                 for w, (x, y) in self.pos.items()}
        taken = list(nodes.values())
        for wid, agent, actual in edges.loops:
            link, _label = self._loop(wid, agent, actual, NODE_R + 1.5, links, taken)
            links.append(link)
        segments, owner = _segments(links)
        placed: dict[int, list[tuple[float, float, str]]] = {}
        for wid, lines in self.lines.items():
            best: tuple[tuple[int, int, int, int], list[tuple[float, float, str]],
                        list[_Box]] | None = None
            for rank, place in enumerate(self._name_places(wid, len(lines))):
                boxes = [_line_box(x, base, anchor, line)
                         for (x, base, anchor), line in zip(place, lines, strict=True)]
                outside = any(b.left < 0 or b.top < 0 or b.right > self.width or
                              b.bottom > self.height for b in boxes)
                crossed = len({int(k) for b in boxes for k in owner[_crosses(segments, b)]})
                # its own node's square is no obstacle: the places keep clear of its circle
                hits = sum(b.hits(other) for b in boxes for other in taken
                           if other is not nodes[wid])
                # the places round a hub, further out, may come back over their own world
                hits += sum(b.hits(nodes[wid], pad=0.0) for b in boxes) * (rank >= NEAR)
                # text on text is unreadable, a crossed name hard to read: the first worse;
                # the picture grows to fit a name outside it
                score = (hits, crossed, int(outside), rank)
                if best is None or score < best[0]:
                    best = (score, place, boxes)
            assert best is not None
            placed[wid] = best[1]
            taken += best[2]
        self.headings = [self._heading(event, ids, placed, taken, segments)
                         for event, ids in self.layers.items()]
        return self._fit(placed, taken)

    def _heading(self, event: str, ids: list[int], placed: Mapping[int, list[tuple[float,
                 float, str]]], taken: list[_Box], segments: np.ndarray) -> Text:
        """A layer's name ("event yes") above its worlds, their names and loops, where it
        touches no other text or world and no line crosses it: the first such place going up
        (or a little to the side), else the least crowded; its box joins ``taken``."""
        text = f"event {event}"
        width = text_width(text)
        centre = sum(self.pos[w][0] for w in ids) / len(ids)
        tops = [self.pos[w][1] - NODE_R - 6 for w in ids]
        tops += [base - FONT for w in ids for _, base, _ in placed[w]]
        start = min(tops) - 6
        box = _clearest((_Box(centre + shift - width / 2, start - 5 * j - FONT,
                              centre + shift + width / 2, start - 5 * j + 3)
                         for j in range(20) for shift in (0.0, -width / 2, width / 2)),
                        taken, segments)
        taken.append(box)
        return Text((box.left + box.right) / 2, box.bottom - 3, text, role="heading")

    def _fit(self, placed: dict[int, list[tuple[float, float, str]]], boxes: list[_Box]
             ) -> dict[int, list[tuple[float, float, str]]]:
        """The picture grown (and everything in it moved) so that every name placed beside
        or above its world, past the edge, is inside it."""
        dx = max(0.0, 4 - min(b.left for b in boxes))
        dy = max(0.0, 4 - min(b.top for b in boxes))
        self.width = max(self.width, max(b.right for b in boxes) + 4) + dx
        self.height = max(self.height, max(b.bottom for b in boxes) + 4) + dy
        if dx or dy:
            self.pos = {w: (x + dx, y + dy) for w, (x, y) in self.pos.items()}
            self.headings = [replace(t, x=t.x + dx, y=t.y + dy) for t in self.headings]
        return {w: [(x + dx, base + dy, anchor) for x, base, anchor in lines]
                for w, lines in placed.items()}

    def _name_places(self, wid: int, n: int) -> list[list[tuple[float, float, str]]]:
        """The places a world's ``n`` lines may go, the preferred first: under the node (as
        textbooks write them), above, right, left, then the four diagonals; then the same a
        little further out."""
        x, y = self.pos[wid]
        step, d = FONT + 2, NODE_R * 0.75 + 2
        middle = y - n * step / 2 + FONT - 1  # the first baseline of lines centred on y

        def lines(x0: float, first: float, anchor: str) -> list[tuple[float, float, str]]:
            return [(x0, first + j * step, anchor) for j in range(n)]

        places: list[list[tuple[float, float, str]]] = []
        # clear of the actual world's second ring (4 units out) too; then, in a crowd, a
        # little further out, between the lines there
        for far in (0.0, 8.0, 16.0):
            below, above = y + NODE_R + 4 + FONT + far, y - NODE_R - 9 - (n - 1) * step - far
            e = d + far * 0.7
            places += [lines(x, below, "middle"), lines(x, above, "middle"),
                       lines(x + NODE_R + 8 + far, middle, "start"),
                       lines(x - NODE_R - 8 - far, middle, "end"),
                       lines(x + e, y + e + FONT + 2, "start"),
                       lines(x - e, y + e + FONT + 2, "end"),
                       lines(x + e, y - e - 6 - (n - 1) * step, "start"),
                       lines(x - e, y - e - 6 - (n - 1) * step, "end")]
        # a hub many edges reach from every side: any way round it, further out
        width = max(text_width(t) for t in self.lines[wid])
        for far in (22.0, 34.0, 46.0):
            for k in range(16):
                a = math.tau * k / 16
                c, s = math.cos(a), math.sin(a)
                # the box's edge, where the ray from its middle leaves it, ``far`` out
                out = far + min(width / 2 / max(abs(c), 1e-9), n * step / 2 / max(abs(s), 1e-9))
                cx, cy = x + c * out, y + s * out
                places.append(lines(cx, cy - n * step / 2 + FONT - 1, "middle"))
        return places

    def _name_sides(self) -> tuple[tuple[int, float, float], ...]:
        """Per world id, the way from it to the middle of its name and atoms."""
        out = []
        for wid, at in self.names_at.items():
            boxes = [_line_box(x, base, anchor, line)
                     for (x, base, anchor), line in zip(at, self.lines[wid], strict=True)]
            mx = (min(b.left for b in boxes) + max(b.right for b in boxes)) / 2
            my = (min(b.top for b in boxes) + max(b.bottom for b in boxes)) / 2
            out.append((wid, mx - self.pos[wid][0], my - self.pos[wid][1]))
        return tuple(out)

    def _label_texts(self, model: Drawn) -> tuple[list[Text], list[_Box]]:
        """Each world's name and atoms where :meth:`_place_names` put them; a removed
        world's too, pale (the class sees what went)."""
        present = set(model.world_ids.tolist())
        texts, boxes = [], []
        for wid, lines in self.lines.items():
            for j, (line, (x, base, anchor)) in enumerate(
                    zip(lines, self.names_at[wid], strict=True)):
                role = ("node" if j == 0 else "atoms") if wid in present else "ghost"
                texts.append(Text(x, base, line, anchor, role))
                boxes.append(_line_box(x, base, anchor, line))
        return texts, boxes

    def _edges(self, model: Drawn) -> _Edges:
        """The drawn edges of the current model, read from each agent's arrows. An S5 model
        (knowledge) as a textbook draws it: a line per pair of worlds in a class, no heads, no
        loops, a big class as a ring. Any other: an arrow per pair, one line with a head at
        each end for a pair of opposite arrows, and loops unless the agent's relation is
        reflexive (then every world has one, and textbooks leave them out)."""
        listing = model.listing(model.n_worlds)
        ids = list(listing.ids)
        found = _Edges({}, [], set(), False, not listing.partitions, {})
        for k, agent in enumerate(listing.agents):
            if found.directed:
                self._arrows(found, agent, list(listing.arrows[k]), ids, listing.actual,
                             "reflexive" in listing.properties[k])
                continue
            reached = listing.reached(k)
            classes: dict[tuple[int, ...], list[int]] = {}
            for wid, key in zip(ids, reached, strict=True):
                classes.setdefault(key, []).append(wid)
            actual_key = None if listing.actual is None else reached[listing.actual]
            for key, members in classes.items():
                if len(members) < 2:
                    continue
                if len(members) <= CLIQUE_LIMIT:
                    pairs = [(a, b) for i, a in enumerate(members) for b in members[i + 1:]]
                else:
                    found.ringed = True
                    cx = sum(self.pos[w][0] for w in members) / len(members)
                    cy = sum(self.pos[w][1] for w in members) / len(members)
                    ring = sorted(members, key=lambda w: math.atan2(self.pos[w][1] - cy,
                                                                    self.pos[w][0] - cx))
                    pairs = [(ring[i], ring[(i + 1) % len(ring)]) for i in range(len(ring))]
                for a, b in pairs:
                    pair = (min(a, b), max(a, b))
                    found.pairs.setdefault(pair, []).append((agent, False, False))
                    if key == actual_key:
                        found.actual.add((*pair, str(agent)))
        return found

    @staticmethod
    def _arrows(found: _Edges, agent: Agent, arrows: list[tuple[int, int]], ids: list[int],
                actual: int | None, reflexive: bool) -> None:
        """One agent's arrows into ``found``: per pair of world ids (lower first), whether a
        head points at the higher and at the lower; its loops unless ``reflexive``. An
        arrow leaving the actual world is drawn stronger, as the actual class is."""
        found.reflexive[str(agent)] = reflexive
        given = set(arrows)
        for w, v in arrows:
            if w == v:
                if not reflexive:
                    found.loops.append((ids[w], agent, w == actual))
                continue
            if (v, w) in given and v < w:
                continue  # drawn with (v, w), one line with two heads
            a, b = ids[w], ids[v]
            both = (v, w) in given
            pair = (min(a, b), max(a, b))
            found.pairs.setdefault(pair, []).append(
                (agent, both or b == pair[1], both or b == pair[0]))
            if actual is not None and (w == actual or (both and v == actual)):
                found.actual.add((*pair, str(agent)))

    def _bend(self, a: int, b: int, fan: list[float]) -> float:
        """No bend, unless the straight edge (or one of the ``fan`` of parallel curves beside
        it) would run through another world: then the least bend, either side, whose curves
        keep clear of every other world (a link through a world would show one that does not
        exist)."""
        others = [p for w, p in self.pos.items() if w not in (a, b)]
        return clear_bend(self.pos[a], self.pos[b], others, NODE_R + 6, fan)

    def picture(self, model: Drawn, marking: Marking = PLAIN) -> Picture:
        marks, drawn = self._marks(model, marking)
        marks = [m if m.state in (GONE, GOING) else _node(m) for m in marks]
        texts, taken = self._label_texts(model)
        texts += self.headings
        taken += [_line_box(t.x, t.y, t.anchor, t.text) for t in self.headings]
        names = list(taken)  # every text placed so far: a loop covers none of them
        taken += [_Box(x - NODE_R - 2, y - NODE_R - 2, x + NODE_R + 2, y + NODE_R + 2)
                  for x, y in self.pos.values()]
        edges = self._edges(model)
        actual_id = None if model.actual is None else int(model.world_ids[model.actual])

        def rim(wid: int) -> float:  # where a head's tip stops: the node, or its double ring
            return NODE_R + (4.0 if wid == actual_id and marking.viewer is None else 0.0) + 1.5

        links, labels = self._edge_links(edges, rim)
        segments, owner = _segments(links)
        pair = np.array([(k.x1, k.y1, k.x2, k.y2) for k in links], dtype=float).reshape(-1, 4)
        for (x1, y1, x2, y2, base), who in labels:
            # the other pairs' curves: a label may sit on its own pair's, not across another's
            others = segments[~np.all(pair[owner] == (x1, y1, x2, y2), axis=1)]
            texts += self._edge_label(x1, y1, x2, y2, base, who, taken, others)
            names.append(taken[-1])
        for wid, agent, actual in edges.loops:
            link, label = self._loop(wid, agent, actual, rim(wid), links, taken, names)
            names.append(taken[-1])
            links.append(link)
            texts.append(label)
        agents_seen = {str(k.agent): k.agent for k in links}
        # in the model's order, as the page's legend and the PNG's key list them
        agents = tuple(a for a in model.agents if str(a) in agents_seen)
        every = (f"{'All ' * (model.n_worlds != 1)}{_plural(model.n_worlds, 'world')} drawn "
                 "as a graph")
        if edges.directed:
            caption = (f"{every}: an arrow in an agent's colour, labelled with it, from a world "
                       "to each world the agent considers possible there; a line with a head "
                       "at both ends is two arrows, one each way. "
                       + _loop_caption(model, edges, self.names))
        else:
            caption = (f"{every}: an edge in an agent's colour, labelled with it, joins two "
                       "worlds it cannot tell apart (the loop from each world to itself is "
                       "left out)")
        if edges.ringed:
            caption += (f"; a class of more than {CLIQUE_LIMIT} worlds is drawn as a ring "
                        "through its worlds, not an edge for every pair (any two worlds on one "
                        "agent's ring are indistinguishable to it)")
        if isinstance(model, Leveled) and not model.is_flat():
            focus = self.names.agent(self.focus)
            layered = "; the rows are the levels it started with, 0 on top" \
                if self.leveled else ""
            caption += (f". The number after a world's name is its plausibility level in {focus}'s "
                        f"class (0 the most plausible{layered}); ★ marks the worlds {focus} "
                        "believes in at the actual world (B: the most plausible of the class), "
                        f"while {focus} knows only what holds in the whole class (K)")
        picture = _private(Picture(self.width, self.height, tuple(marks), (), tuple(links),
                                   tuple(texts), caption, drawn, agents, self._name_sides()),
                           marking.viewer)
        # say what the picture shows: in an agent's view no world is marked actual
        if any(m.actual for m in picture.marks):
            ending = ". The actual world is doubly circled."
        elif marking.viewer is not None:
            ending = (f". No world is marked actual: {self.names.agent(marking.viewer)} cannot "
                      "tell the actual world from the others of its class.")
        else:
            ending = "."
        return replace(picture, caption=caption + ending)

    def _edge_links(self, edges: _Edges, rim: Callable[[int], float]
                    ) -> tuple[list[Link], list[tuple[tuple[float, float, float, float, float],
                                                       list[Agent]]]]:
        """The curves of ``edges``' pairs (several agents on a pair side by side, bent round
        other worlds), and per pair where its agents' names go along it: (the ends and the
        bend of the middle curve) and the agents."""
        links: list[Link] = []
        labels = []
        for (a, b), who in sorted(edges.pairs.items()):
            (x1, y1), (x2, y2) = self.pos[a], self.pos[b]
            fan = [(k - (len(who) - 1) / 2) * FAN for k in range(len(who))]
            base = self._bend(a, b, fan)
            for (agent, to_b, to_a), offset in zip(who, fan, strict=True):
                links.append(Link(agent, x1, y1, x2, y2, (a, b, str(agent)) in edges.actual,
                                  bend=base + offset, edge=True, head=rim(b) if to_b else 0.0,
                                  tail=rim(a) if to_a else 0.0))
            labels.append(((x1, y1, x2, y2, base), [w[0] for w in who]))
        return links, labels

    def _loop(self, wid: int, agent: Agent, actual: bool, rim: float, links: list[Link],
              taken: list[_Box], names: Sequence[_Box] = ()) -> tuple[Link, Text]:
        """A loop on a world: a small circle outside it, above it if there is room, else on
        the side farthest from other worlds, the edges and the loops already there (not
        below it, where names go first), and the agent's name beyond it. A loop never covers
        one of the worlds' ``names``: if every side but below would, below."""
        x, y = self.pos[wid]
        crowd = [p for w, p in self.pos.items() if w != wid]
        crowd += [(k.x2, k.y2) if k.loop else
                  curve_point((k.x1, k.y1), (k.x2, k.y2), k.bend, t / 20)
                  for k in links for t in ([0] if k.loop else range(1, 20))]
        width = text_width(str(agent))

        def placed(ux: float, uy: float) -> tuple[tuple[float, float], _Box]:
            """The loop's centre, and its name's box beyond it, clear of the circle and the
            head on it whichever way the loop points."""
            centre = (x + ux * (rim + LOOP_R * 0.45), y + uy * (rim + LOOP_R * 0.45))
            far = rim + LOOP_R * 1.45 + 5 + abs(ux) * width / 2 + abs(uy) * FONT * 0.6
            lx, ly = x + ux * far, y + uy * far + FONT / 3
            return centre, _Box(lx - width / 2, ly - FONT, lx + width / 2, ly + 3)

        best: tuple[float, float, float] | None = None
        for sides in ((-90, -55, -125, -20, -160, 0, 180), (90, 55, 125, 20, 160)):
            for degrees in sides:
                a = math.radians(degrees)
                ux, uy = math.cos(a), math.sin(a)
                (cx, cy), label = placed(ux, uy)
                # enough room is enough: then the earlier side (above first) is kept
                room = min(min((math.dist((cx, cy), p) for p in crowd), default=1e9),
                           2 * NODE_R)
                circle = _Box(cx - LOOP_R, cy - LOOP_R, cx + LOOP_R, cy + LOOP_R)
                if any(circle.hits(name, pad=1.0) or label.hits(name) for name in names):
                    room = -1.0
                if best is None or room > best[0] + 1e-6:
                    best = (room, ux, uy)
            if best is not None and best[0] >= 0:
                break
        assert best is not None
        centre, label = placed(best[1], best[2])
        taken.append(label)
        lx, ly = (label.left + label.right) / 2, label.bottom - 3
        return (Link(agent, x, y, *centre, actual, edge=True, head=rim, loop=True),
                Text(lx, ly, str(agent), "middle", "edge", agent))

    def _edge_label(self, x1: float, y1: float, x2: float, y2: float, bend: float,
                    who: list[Agent], taken: list[_Box], others: np.ndarray) -> list[Text]:
        """The agents' names on the edge, each in its colour, where they hide nothing: the
        first place along the curve whose box overlaps no node, name or earlier label and
        which no other edge (``others``, as straight pieces) crosses."""
        words = [str(a) for a in who]
        width = text_width(",".join(words))
        length = math.hypot(x2 - x1, y2 - y1) or 1.0
        nx_, ny = -(y2 - y1) / length, (x2 - x1) / length  # across the edge

        def around() -> Iterator[_Box]:  # along the curve first, then beside it
            for off in (0.0, 11.0, -11.0, 20.0, -20.0):
                for t in (0.5, 0.4, 0.6, 0.32, 0.68, 0.25, 0.75, 0.18, 0.82):
                    x, y = curve_point((x1, y1), (x2, y2), bend, t)
                    x, y = x + nx_ * off, y + ny * off
                    yield _Box(x - width / 2 - 1, y - FONT / 2 - 2, x + width / 2 + 1,
                               y + FONT / 2 + 1)

        box = _clearest(around(), taken, others)
        taken.append(box)
        texts, at = [], box.left + 1
        for k, (word, agent) in enumerate(zip(words, who, strict=True)):
            shown = word + ("," if k < len(words) - 1 else "")
            texts.append(Text(at, box.bottom - 3, shown, "start", "edge", agent))
            at += text_width(shown)
        return texts


@dataclass
class _Edges:
    """What a graph draws of a model's relations (filled by :meth:`GraphLayout._edges`)."""

    #: per pair of world ids (lower first): (agent, a head at the higher, at the lower)
    pairs: dict[tuple[int, int], list[tuple[Agent, bool, bool]]]
    loops: list[tuple[int, Agent, bool]]  # (world id, agent, leaves the actual world)
    actual: set[tuple[int, int, str]]  # the pairs drawn stronger, per agent
    ringed: bool  # some class drawn as a ring
    directed: bool  # arrows (a belief model) rather than an S5 model's lines
    reflexive: dict[str, bool]  # per agent (by name), whether its loops are left out


def _loop_caption(model: Drawn, edges: _Edges, names: Names) -> str:
    """Which loop convention the picture follows, for the agents that have loops (an agent
    with none, after an announcement took its worlds, is not said to have them drawn), and
    the frame class."""
    looped = {str(agent) for _, agent, _ in edges.loops}
    left = [names.agent(a) for a in model.agents if edges.reflexive.get(str(a))]
    drawn = [names.agent(a) for a in model.agents
             if not edges.reflexive.get(str(a)) and str(a) in looped]
    parts = []
    if drawn:
        parts.append(f"drawn for {_and(drawn)}, not reflexive")
    if left:
        parts.append(f"left out for {_and(left)}, as textbooks do for a reflexive relation (a "
                     "loop on every world)")
    loops = (f"Loops (a world possible from itself): {'; '.join(parts)}. " if parts else
             "No loops: no world is possible from itself. ")
    classes = ", ".join(f"{names.agent(a)} {model.frame_class(a)}" for a in model.agents)
    return f"{loops}Frame class {model.frame_class()} ({classes})"


def _and(words: list[str]) -> str:
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]


def _node(mark: Mark) -> Mark:
    """A world drawn as a textbook node (a circle to write beside, doubly circled when
    actual) rather than the class views' dot and star."""
    return replace(mark, node=True)


def _wrap_words(text: str, width: int = 2 * ATOM_LINE) -> list[str]:
    """A line of text broken at spaces into lines of about ``width`` characters."""
    lines: list[str] = []
    for word in text.split(" "):
        if lines and len(lines[-1]) + 1 + len(word) <= width:
            lines[-1] += " " + word
        else:
            lines.append(word)
    return lines


def _wrap_atoms(true: list[str]) -> list[str]:
    """The atoms true in a world, a few per line; '∅' when none is."""
    return _wrap_words(" ".join(true), ATOM_LINE) if true else ["∅"]



def layered(before: Mapping[int, tuple[float, float]], old: Drawn, events: EventModel,
            after: Drawn) -> dict[int, tuple[float, float]]:
    """Where the worlds of ``after = old.update(events)`` go, given where ``old``'s worlds
    were (``before``, by id): as a textbook draws a product update, one layer per event, a
    copy of the old picture, each world (w, e) at w's place in e's layer; so the update reads
    as the product it is and a world never wanders off from its origin. The layers are set
    in a grid (down, across, or two by two for three or four), whichever gives the picture
    the shape nearest a screen's or a slide's (``ASPECT``), a gap wider than the old
    picture's closest pair between them. When
    no world splits, every world keeps its place."""
    if not old.splits(events):
        return {w: before[w] for w in after.world_ids.tolist()}
    xs = [p[0] for p in before.values()]
    ys = [p[1] for p in before.values()]
    points = list(before.values())
    # layers further apart than any two worlds within one, so each reads as a whole
    gap = 1.6 * min((math.dist(p, q) for i, p in enumerate(points) for q in points[i + 1:]),
                    default=SPAN / 3)
    origins = {w: old.origin(events, w) for w in after.world_ids.tolist()}
    used = [e for e in events.names if any(name == e for _, name in origins.values())]
    width, height, m = max(xs) - min(xs) + gap, max(ys) - min(ys) + gap, len(used)
    # a grid of layers, row by row: as many across as brings the whole nearest the shape
    across = min(range(1, m + 1), key=lambda c: (
        abs(math.log(c * width / (math.ceil(m / c) * height) / ASPECT)), c))
    out = {}
    for w, (origin, event) in origins.items():
        x, y = before[origin]
        row, column = divmod(used.index(event), across)
        out[w] = (x + column * width, y + row * height)
    return out


def event_graph(events: EventModel, agents: Sequence[Agent], names: Names | None = None
                ) -> Picture:
    """The event model drawn as a textbook draws one beside the model it will update: each
    event a node with its precondition and assignments under it, the actual event doubly
    circled, each agent's view of the events as a model's relation is drawn (lines for
    partitions, arrows where an agent believes another event happened). Drawn as the model
    of events it is, so the picture reads like the worlds' beside it."""
    m = len(events.events)
    index = {name: k for k, name in enumerate(events.names)}
    shown = arrows_model(
        [set() for _ in range(m)],
        {a: [(index[e], index[f]) for e, f in sorted(events.relation(a))] for a in agents},
        index[events.actual], names=list(events.names))

    def under(_: Drawn, k: int) -> list[str]:  # wrapped: the picture stays narrow
        event = events.events[k]
        return [line for text in (f"pre: {event.precondition.unicode()}",
                                  *(f"{atom} := {value.unicode()}" for atom, value in event.post))
                for line in _wrap_words(text)]

    # the events around a circle (two side by side), close: it sits beside the model
    places = {k: (math.cos(2 * math.pi * k / m + (math.pi if m == 2 else math.pi / 2)),
                  math.sin(2 * math.pi * k / m + (math.pi if m == 2 else math.pi / 2)))
              for k in range(m)} if m > 1 else None
    layout = GraphLayout(shown, agents[0], names, label=lambda mm, k: mm.world_name(k),
                         under=under, positions=places, least=0.0)
    picture = layout.picture(shown)
    views = ("lines join events an agent cannot tell apart" if shown.frame_class() == "S5"
             else "an arrow leads to the events an agent thinks possible when one happens")
    return replace(picture, caption=(
        f"The event model, {_plural(m, 'event')}: pre is where one can happen, := what it "
        f"changes; {views}; the actual event doubly circled."))


def graph_positions(model: Drawn, label: Callable[[Drawn, int], str] | None = None
                    ) -> dict[int, tuple[float, float]] | None:
    """The textbook graph's places of the worlds (by id; each named by ``label``, default its
    ``world_label``, with its atoms under it, so names get their room), for a drawing made
    elsewhere (the TikZ of the command line); None past ``GRAPH_LIMIT`` worlds."""
    if too_big(model) is not None:
        return None
    return GraphLayout(model, model.agents[0],
                       label=label or (lambda m, i: m.world_label(i))).pos
