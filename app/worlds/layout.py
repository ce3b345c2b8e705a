"""Where each world of a Kripke model is drawn: pure Python, no browser, no Solara.

An S5 relation is a partition, so the picture draws each class as a *region* rather than a
clique of edges (see ``shared/design/worlds-view.md``):

* ``ClassGrid`` (every world drawn): one column per class of the agent in focus, one row per
  class of a second agent, a world in the cell of its two classes. The focus agent's classes
  are the columns, the second agent's the rows, and each further agent's classes are drawn as
  a chain of short lines through their worlds. For a deal model with three players this is the
  deal grid: a 15 × 15 grid with 90 filled cells for 3 × 2. When the second agent's class is
  fixed by the first's (two players), the columns are wrapped into lines of boxes instead.
* ``ClassTiles`` (too many worlds to draw one by one): the focus agent's classes as tiles
  (grouped when there are too many to read one by one), the actual world's class opened into
  the next agent's classes, and so on until a part small enough to draw world by world. In a
  player's view only the player's own class is opened: which of the others is the actual one
  it does not know, so the picture does not say either.
* ``FixedPositions``: coordinates given by the caller (a puzzle's own geometry, such as the
  muddy children's cube), the focus agent's classes boxed.

A layout is made once per model and agent in focus and then asked for a ``Picture`` of each
later (announced) model: positions belong to the layout, so a world never moves, and a world
the last update removed is marked ``going`` so the renderer can fade it out where it stood.
Renderers (``app.worlds.svg``) only draw what a ``Picture`` lists. A layout fits the box
``width`` × ``height`` (in CSS pixels at the size the page draws it at 1280 × 800), so the
picture and the board both fit the first screen there.

What a summary asks of a model too big to list, it asks the model (``kripke.parts``): class
sizes inside the opened classes, a small part's worlds listed, a formula's values there; the
explicit model answers from its arrays, a symbolic deal from its diagrams, and the two pictures
are the same.
"""

from __future__ import annotations

import math
from collections.abc import Collection, Mapping, Sequence
from dataclasses import InitVar, dataclass, field, replace
from typing import Any, Protocol

import numpy as np

from app.worlds.geometry import bend_control
from kripke.interface import EpistemicModel
from kripke.language.formula import Agent
from kripke.parts import ClassCounts, Drawn, Partitioned, Values

#: Either backend, as a picture takes it: a summary asks it only what ``kripke.parts`` says.
type AnyModel = ClassCounts[Any]
#: The actual classes a summary has opened, in order, each agent with its class's key.
type Opened = dict[Agent, int]

#: Nominal size of a picture in CSS pixels: about what the worlds card gets at 1280 × 800, so
#: that a 12-unit font is drawn at 11 px or more there (the SVG scales with its card) and the
#: picture fits beside the board on the first screen.
WIDTH = 560.0
HEIGHT = 470.0
FONT = 12.0
CHAR = 7.0  # width of one character of FONT, a little generous for digits and spaces
#: Above this many worlds a model is summarised by classes instead of drawn world by world.
DRAWN_LIMIT = 300
#: A summary opens the actual class level by level until at most this many worlds remain.
OPEN_LIMIT = 100
#: A level of a summary with more classes than this draws them in groups, one tile each: a
#: tile must be big enough (40 units) to carry its number at a legible size.
TILE_LIMIT = 28
TILE = 40.0  # smallest side of a tile that carries its number
#: A wrapped grid with more one-world boxes than this draws them as plain dots, unlabelled.
LABELLED_BOXES = 24
#: A drawing with more chain segments than this (muddy children with 8: 896; Russian cards:
#: 238; Sum and Product seen by P: 135) draws only the actual world's chains: the rest would
#: hide the worlds and their names.
LINK_LIMIT = 120

#: What became of a world: still possible, ruled out by the viewer, removed earlier, removed by
#: the last update (to fade out).
LIVE, FADED, GONE, GOING = "live", "faded", "gone", "going"


class Names(Protocol):
    """How a picture names things; the app names players and tickets, puzzles their own."""

    #: what an agent's class is called in headings ("hands") and a part of one ("ticket")
    classes: str
    part: str
    #: how an agent comes by its class, in headings and hovers: a player "holds" its hand, an
    #: agent of a model written by hand "sees" what it observes
    verb: str

    def agent(self, agent: Agent) -> str: ...

    def hand(self, model: AnyModel, agent: Agent, key: int) -> tuple[str, ...]:
        """Short parts naming an agent's class (a deal: the ticket ids of the hand)."""
        ...

    def world(self, model: Any, index: int) -> str:  # any listed model (Drawn)
        """Hover text for a world: what is true there (a deal: who holds what)."""
        ...


class PlainNames:
    """Names from the model alone: a deal model's cards, else class numbers and atoms."""

    classes = "classes"
    part = "card"
    verb = "holds"

    def agent(self, agent: Agent) -> str:
        return f"agent {agent}"

    def hand(self, model: AnyModel, agent: Agent, key: int) -> tuple[str, ...]:
        return model.class_name(agent, key) or (f"#{key}",)

    def world(self, model: Partitioned, index: int) -> str:
        return model.world_label(index)


@dataclass(frozen=True)
class Mark:
    """A world, or a tile standing for ``worlds`` worlds of some classes (``tile``)."""

    key: str  # stable across pictures: "w<world id>" or "c<level>:<class key>"
    x: float
    y: float
    r: float  # radius of a world; half the side of a tile's filled square
    state: str  # LIVE, FADED, GONE or GOING
    title: str
    actual: bool = False
    worlds: int = 1
    holds: int | None = None  # worlds where the formula holds (None: no formula)
    highlight: bool = False
    tile: bool = False
    slot: float = 0.0  # a tile's full side: its area shows the share still possible
    node: bool = False  # a textbook graph's node: a circle, doubly circled when actual
    #: plausibility (``app.worlds.ranks``): the world's level within the class of the agent
    #: in focus (0 the most plausible; None: no order drawn), and whether that agent believes
    #: in it ("believed") or did until this step ("dropped", a belief the facts revised)
    level: int | None = None
    belief: str = ""


@dataclass(frozen=True)
class Region:
    """A class drawn as a box: the worlds inside it are the ones ``agent`` cannot tell apart."""

    agent: Agent
    x: float
    y: float
    w: float
    h: float
    actual: bool  # the class of the actual world
    kind: str  # "column", "row", "box" or "panel"
    title: str = ""


@dataclass(frozen=True)
class Link:
    """One segment of the chain through a class of an agent that has no region, or one edge
    of the textbook graph (``app.worlds.graph``)."""

    agent: Agent
    x1: float
    y1: float
    x2: float
    y2: float
    actual: bool
    bend: float = 0.0  # a curve: its control point this far off the middle, left of travel
    edge: bool = False  # a textbook graph's edge: drawn at full strength
    # an arrow (a belief model's graph): a head where the curve meets the rim of the world at
    # (x2, y2) (``head``, that rim's radius; 0: none), and at (x1, y1) (``tail``), so a head
    # never hides under a world
    head: float = 0.0
    tail: float = 0.0
    # a loop (a world possible from itself): a circle of radius LOOP_R around (x2, y2), outside
    # the world at (x1, y1), its head on that world's rim (radius ``head``)
    loop: bool = False

    def control(self) -> tuple[float, float]:
        """The control point of the link's quadratic curve (the middle when not bent)."""
        return bend_control(self.x1, self.y1, self.x2, self.y2, self.bend)

    def heads(self) -> list[tuple[tuple[float, float], ...]]:
        """The arrowheads as triangles (tip first), for every drawing of the picture alike."""
        if self.loop:
            return [_triangle(*_loop_entry(self))] if self.head else []
        found = []
        if self.head:
            found.append(_triangle(*self._meets(self.head, True)))
        if self.tail:
            found.append(_triangle(*self._meets(self.tail, False)))
        return found

    def _meets(self, rim: float, end: bool) -> tuple[tuple[float, float], tuple[float, float]]:
        """Where the curve meets the rim around one of its ends, and its direction there
        (towards that end): bisection along the curve, a few dozen points at most."""
        c = self.control()
        p0, p2 = (self.x1, self.y1), (self.x2, self.y2)
        centre = p2 if end else p0

        def at(t: float) -> tuple[float, float]:
            u = 1 - t
            return (u * u * p0[0] + 2 * u * t * c[0] + t * t * p2[0],
                    u * u * p0[1] + 2 * u * t * c[1] + t * t * p2[1])

        inside, outside = (1.0, 0.5) if end else (0.0, 0.5)
        for _ in range(30):
            middle = (inside + outside) / 2
            if math.dist(at(middle), centre) < rim:
                inside = middle
            else:
                outside = middle
        t = outside
        dx = 2 * (1 - t) * (c[0] - p0[0]) + 2 * t * (p2[0] - c[0])
        dy = 2 * (1 - t) * (c[1] - p0[1]) + 2 * t * (p2[1] - c[1])
        sign = 1.0 if end else -1.0
        return at(t), (sign * dx, sign * dy)


#: An arrowhead's length and half width, and a loop's radius, in picture units.
HEAD_LENGTH, HEAD_HALF, LOOP_R = 8.0, 3.6, 7.0


def _triangle(tip: tuple[float, float], direction: tuple[float, float]
              ) -> tuple[tuple[float, float], ...]:
    length = math.hypot(*direction) or 1.0
    ux, uy = direction[0] / length, direction[1] / length
    bx, by = tip[0] - ux * HEAD_LENGTH, tip[1] - uy * HEAD_LENGTH
    return (tip, (bx - uy * HEAD_HALF, by + ux * HEAD_HALF),
            (bx + uy * HEAD_HALF, by - ux * HEAD_HALF))


def _loop_entry(k: Link) -> tuple[tuple[float, float], tuple[float, float]]:
    """Where a loop's circle enters the world's rim, and the way it goes there (into the
    world): the two circles' crossing on one side, the loop's tangent there."""
    cx, cy, px, py, rim = k.x1, k.y1, k.x2, k.y2, k.head
    d = math.hypot(px - cx, py - cy) or 1.0
    ux, uy = (px - cx) / d, (py - cy) / d
    x = (d * d + rim * rim - LOOP_R * LOOP_R) / (2 * d)
    h = math.sqrt(max(rim * rim - x * x, 0.0))
    qx, qy = cx + ux * x - uy * h, cy + uy * x + ux * h
    tx, ty = -(qy - py), qx - px  # a tangent of the loop at q
    if tx * (cx - qx) + ty * (cy - qy) < 0:
        tx, ty = -tx, -ty
    return (qx, qy), (tx, ty)


@dataclass(frozen=True)
class Text:
    x: float
    y: float
    text: str
    anchor: str = "middle"  # "start", "middle", "end"
    role: str = "axis"  # "axis", "heading", "count", "ghost" (a removed world's name); a
    # graph's "node", "atoms", "edge"
    agent: Agent | None = None  # coloured as this agent's


@dataclass(frozen=True)
class Picture:
    width: float
    height: float
    marks: tuple[Mark, ...]
    regions: tuple[Region, ...]
    links: tuple[Link, ...]
    texts: tuple[Text, ...]
    caption: str  # exactly what is drawn
    drawn_worlds: int  # worlds drawn one by one (live or faded)
    agents: tuple[Agent, ...] = ()  # agents whose colour appears (regions, links)
    #: per world id, the way from the world to its name (a graph's: below, above, beside),
    #: so a slide writes each name on the same side as the page
    name_sides: tuple[tuple[int, float, float], ...] = ()

    def moved(self, dx: float, dy: float) -> Picture:
        """The same picture shifted, to place it inside another."""
        return Picture(
            self.width, self.height,
            tuple(_shift(m, dx, dy) for m in self.marks),
            tuple(_shift(r, dx, dy) for r in self.regions),
            tuple(replace(k, x1=k.x1 + dx, y1=k.y1 + dy, x2=k.x2 + dx, y2=k.y2 + dy)
                  for k in self.links),
            tuple(_shift(t, dx, dy) for t in self.texts),
            self.caption, self.drawn_worlds, self.agents, self.name_sides)


def _shift(item, dx: float, dy: float):
    return replace(item, x=item.x + dx, y=item.y + dy)


def text_width(text: str) -> float:
    return len(text) * CHAR


def wrap(text: str, width: float) -> list[str]:
    """Words in lines of at most ``width`` pixels: an SVG text does not wrap by itself."""
    lines: list[str] = []
    for word in text.split():
        if lines and text_width(lines[-1] + " " + word) <= width:
            lines[-1] += " " + word
        else:
            lines.append(word)
    return lines


def _plural(n: int, word: str) -> str:
    return f"{n:,} {word}{'s' * (n != 1)}"


def short(n: int) -> str:
    """A count in at most five characters, for a tile: 9,999, 34.7k, 15.8M."""
    if n < 10_000:
        return f"{n:,}"
    if n < 999_500:
        return f"{n / 1e3:.1f}k" if n < 99_950 else f"{n / 1e3:.0f}k"
    return f"{n / 1e6:.1f}M" if n < 99_950_000 else f"{n / 1e6:.0f}M"


@dataclass(frozen=True)
class Marking:
    """What a picture marks on top of positions: the viewer's class, a formula, highlights.

    With a ``viewer`` the picture is that player's view: worlds outside its class are faded,
    and only its own class is marked as the actual one (it does not know the others', so
    neither does the picture: no star on the actual world, no outline on another agent's
    actual class).
    """

    viewer: Agent | None = None
    values: Values | None = None  # the formula's values in the current model (kripke.parts)
    highlight: Collection[int] = ()  # world ids to ring (a counterexample)


class WorldsLayout(Protocol):
    focus: Agent

    def picture(self, model: Any, marking: Marking = Marking()) -> Picture:
        """The picture of ``model``, a model this layout was made for or an update of it."""
        ...


def _after(agents: Sequence[Agent], focus: Agent) -> list[Agent]:
    """The agents after ``focus``, in the model's order, wrapping around."""
    i = list(agents).index(focus)
    return [*agents[i + 1:], *agents[:i]]


def _same(a: Agent | None, b: Agent | None) -> bool:
    return a is not None and b is not None and str(a) == str(b)


def _private(picture: Picture, viewer: Agent | None) -> Picture:
    """In a player's view, the actual world is marked only as far as the viewer knows it: its
    own class, not another agent's (and no star on a world)."""
    if viewer is None:
        return picture
    return replace(
        picture,
        regions=tuple(r if _same(r.agent, viewer) or not r.actual else replace(r, actual=False)
                      for r in picture.regions),
        links=tuple(k if _same(k.agent, viewer) or not k.actual else replace(k, actual=False)
                    for k in picture.links),
        texts=tuple(t if t.role != "axis" or t.agent is None or _same(t.agent, viewer)
                    else replace(t, agent=None) for t in picture.texts),
        marks=tuple(replace(m, actual=False) if m.actual and not m.tile else m
                    for m in picture.marks))


class _Positioned:
    """Shared by the layouts that place every world of a universe at a fixed point."""

    universe: Drawn
    names: Names
    focus: Agent
    pos: dict[int, tuple[float, float]]  # world id -> centre
    radius: float
    _shown: frozenset[int] | None = None  # world ids live in the last picture

    def _going(self, model: Drawn) -> frozenset[int]:
        """Worlds live in the last picture and gone from this one: they fade out now."""
        now = frozenset(model.world_ids.tolist())
        going = frozenset() if self._shown is None else self._shown - now
        self._shown = now
        return going

    def _marks(self, model: Drawn, marking: Marking) -> tuple[list[Mark], int]:
        u = self.universe
        present = {int(w): i for i, w in enumerate(model.world_ids)}
        seen = (None if marking.viewer is None or model.actual is None
                else model.possible_worlds(marking.viewer))
        seen_ids = None if seen is None else set(model.world_ids[seen].tolist())
        removed, highlight = self._going(model), set(marking.highlight)
        # where the formula holds, by id: the model's own restriction, never its values read
        held = (None if marking.values is None
                else set(model.restrict(marking.values).world_ids.tolist()))
        actual_id = None if model.actual is None else int(model.world_ids[model.actual])
        marks, drawn = [], 0
        for index, wid in enumerate(u.world_ids.tolist()):
            if wid not in self.pos:
                continue
            x, y = self.pos[wid]
            deal = self.names.world(u, index)
            i = present.get(wid)
            if i is None:
                state = GOING if wid in removed else GONE
                marks.append(Mark(f"w{wid}", x, y, self.radius, state,
                                  f"world {wid}: removed\n{deal}"))
                continue
            drawn += 1
            holds = None if held is None else int(wid in held)
            state = FADED if seen_ids is not None and wid not in seen_ids else LIVE
            actual = wid == actual_id and marking.viewer is None
            title = f"world {wid}{' (the actual world)' if actual else ''}\n{deal}"
            if holds is not None:
                title += f"\nformula: {'true' if holds else 'false'} here"
            if state == FADED and marking.viewer is not None:
                title += f"\n{self.names.agent(marking.viewer)} has ruled it out"
            marks.append(Mark(f"w{wid}", x, y, self.radius, state, title, actual=actual,
                              holds=holds, highlight=wid in highlight))
        return marks, drawn

    def _chains(self, model: Partitioned, agents: Sequence[Agent]) -> list[Link]:
        """A chain through each class of each agent: as few lines as a class can be drawn
        with, still joining every world of it; redrawn through what is left of the class."""
        links = []
        ids = model.world_ids.tolist()
        for agent in agents:
            keys = model.observation(agent)
            actual_key = None if model.actual is None else int(keys[model.actual])
            classes: dict[int, list[tuple[float, float]]] = {}
            for i, wid in enumerate(ids):
                if wid in self.pos:
                    classes.setdefault(int(keys[i]), []).append(self.pos[wid])
            for key, points in classes.items():
                points.sort()
                links += [Link(agent, a[0], a[1], b[0], b[1], key == actual_key)
                          for a, b in zip(points, points[1:], strict=False)]
        return links


class ClassGrid(_Positioned):
    """Columns: the focus agent's classes; rows: the next agent's; every world drawn.

    Made from the model as first built (``universe``), so later models of the same game draw
    their worlds at the same points and the removed ones as ghosts where they stood. The grid
    fits ``width`` × ``height``: its cells shrink to fit the height (never below what a dot
    needs), so a 15 × 15 deal grid stands beside the board on a 1280 × 800 screen.
    """

    universe: Partitioned  # partitions: the class views draw no belief model

    def __init__(self, universe: Partitioned, focus: Agent, names: Names | None = None, *,
                 rows: Agent | None = None, width: float = WIDTH,
                 height: float = HEIGHT) -> None:
        self.universe, self.focus, self.width = universe, focus, width
        self.names = names or PlainNames()
        # agents with one class here (the levels a summary has already opened) say nothing
        others = [a for a in _after(universe.agents, focus)
                  if len(set(universe.observation(a).tolist())) > 1]
        self.rows = rows if rows is not None else (others[0] if others else None)
        ka = universe.observation(focus)
        self.cols = sorted(set(ka.tolist()))
        kb = universe.observation(self.rows) if self.rows is not None else np.zeros_like(ka)
        pairs = set(zip(ka.tolist(), kb.tolist(), strict=True))
        # the second agent's class is fixed by the first's (two players): wrap the columns;
        # a grid too big to read and mostly empty (Russian cards: 140 deals in 35 × 35
        # cells) is wrapped too, each world named by the second agent's class
        n_rows = len(set(kb.tolist()))
        self.sparse = (len(pairs) > len(self.cols) and n_rows > TILE_LIMIT
                       and len(pairs) < 0.25 * len(self.cols) * n_rows)
        self.wrapped = len(pairs) == len(self.cols) or self.sparse
        self.chained = [a for a in others if a != self.rows or self.wrapped]
        self.pos = {}
        self.regions: list[Region] = []
        self.texts: list[Text] = []
        self.world_names: dict[int, Text] = {}  # a name under each world (named boxes)
        if self.sparse:
            self._named_boxes(ka, kb, height)
        elif self.wrapped:
            self._wrap(ka, height)
        else:
            self._grid(ka, kb, height)

    def _label(self, agent: Agent, key: int) -> tuple[str, ...]:
        return self.names.hand(self.universe, agent, key)

    def _cell_points(self, cx: float, cy: float, cell: float, n: int, order: int,
                     ) -> tuple[float, float]:
        q = math.ceil(math.sqrt(n))
        step = cell / q
        row, col = divmod(order, q)
        rows = math.ceil(n / q)
        return (cx - cell / 2 + step * (col + 0.5),
                cy - step * rows / 2 + step * (row + 0.5))

    def _grid(self, ka: np.ndarray, kb: np.ndarray, height: float) -> None:
        assert self.rows is not None  # without a second agent the columns are wrapped
        u, rows, row_agent = self.universe, sorted(set(kb.tolist())), self.rows
        col_of = {k: i for i, k in enumerate(self.cols)}
        row_of = {k: i for i, k in enumerate(rows)}
        col_labels = {k: self._label(self.focus, k) for k in self.cols}
        row_labels = {k: " ".join(self._label(row_agent, k)) for k in rows}
        lines = max(len(v) for v in col_labels.values())
        left = max(text_width(t) for t in row_labels.values()) + 10
        fname, rname = self.names.agent(self.focus), self.names.agent(row_agent)
        heads = [f"columns: what {fname} {self.names.verb}",
                 f"rows: what {rname} {self.names.verb}"]
        cells: dict[tuple[int, int], list[int]] = {}
        for wid, a, b in zip(u.world_ids.tolist(), ka.tolist(), kb.tolist(), strict=True):
            cells.setdefault((a, b), []).append(wid)
        q = math.ceil(math.sqrt(max(len(v) for v in cells.values())))
        wide = min((self.width - left - 4) / len(self.cols), 44.0)
        for stacked in (False, True):  # the axis titles side by side, else one under the other
            top = lines * (FONT + 2) + 10 + (2 if stacked else 1) * (FONT + 4) + 2
            # fit the height, but never below what a dot and the row labels need
            cell = max(min(wide, (height - top - 4) / len(rows)), q * 7.0, FONT + 2)
            if text_width(heads[0]) + text_width(heads[1]) + 16 <= left + cell * len(
                    self.cols):
                break
        grid_w = left + cell * len(self.cols)
        x0 = max((self.width - grid_w) / 2, 0.0)  # a narrow grid stands in the middle
        left += x0
        self.radius = max(min(cell / q / 2 - 2.5, 8.0), 2.0)
        for (a, b), wids in cells.items():
            cx = left + cell * (col_of[a] + 0.5)
            cy = top + cell * (row_of[b] + 0.5)
            for order, wid in enumerate(wids):
                self.pos[wid] = self._cell_points(cx, cy, cell, len(wids), order)
        actual = u.actual
        a_actual = None if actual is None else int(ka[actual])
        b_actual = None if actual is None else int(kb[actual])
        col_text = max(text_width(p) for v in col_labels.values() for p in v) <= cell - 2
        for k in self.cols:
            x = left + cell * col_of[k]
            self.regions.append(Region(self.focus, x, top, cell, cell * len(rows),
                                       k == a_actual, "column",
                                       f"{fname} {self.names.verb} {' '.join(col_labels[k])}: "
                                       f"{fname} cannot tell these worlds apart"))
            for j, part in enumerate(col_labels[k] if col_text else ()):
                self.texts.append(Text(x + cell / 2, top - 8 - (lines - 1 - j) * (FONT + 2),
                                       part, agent=self.focus if k == a_actual else None))
        for k in rows:
            y = top + cell * row_of[k]
            self.regions.append(Region(row_agent, left, y, cell * len(self.cols), cell,
                                       k == b_actual, "row",
                                       f"{rname} {self.names.verb} {row_labels[k]}: {rname} "
                                       "cannot tell these worlds apart"))
            self.texts.append(Text(left - 6, y + cell / 2 + FONT / 3, row_labels[k], "end",
                                   agent=row_agent if k == b_actual else None))
        self.texts.append(Text(x0, FONT, heads[0], "start", "heading", self.focus))
        if stacked:
            self.texts.append(Text(x0, 2 * FONT + 4, heads[1], "start", "heading",
                                   row_agent))
        else:
            self.texts.append(Text(left + cell * len(self.cols), FONT, heads[1], "end",
                                   "heading", row_agent))
        self.height = top + cell * len(rows) + 4
        self.fits = grid_w <= self.width + 0.5 and self.height <= height + 0.5

    def _wrap(self, ka: np.ndarray, height: float) -> None:
        u = self.universe
        labels = {k: " ".join(self._label(self.focus, k)) for k in self.cols}
        members: dict[int, list[int]] = {}
        for wid, a in zip(u.world_ids.tolist(), ka.tolist(), strict=True):
            members.setdefault(a, []).append(wid)
        most = max(len(v) for v in members.values())
        # many one-world boxes: labels would fill the screen; hover names each world
        labelled = most > 1 or len(self.cols) <= LABELLED_BOXES
        q = math.ceil(math.sqrt(most))
        if labelled:
            slot = max(max(text_width(t) for t in labels.values()) + 12, 34.0, q * 16.0)
        else:
            slot = max(min(math.sqrt(self.width * (height - FONT - 10) / len(self.cols)),
                           28.0), 12.0)
        per_line = max(int(self.width // slot), 1)
        slot = self.width / per_line
        inner = min(slot - 10, q * 18.0) if labelled else slot - 6
        self.radius = max(min(inner / q / 2 - 2.5, 8.0), 2.0)
        head = FONT + 8 if labelled else 0.0
        box_h = head + inner + 6
        top = FONT + 10
        a_actual = None if u.actual is None else int(ka[u.actual])
        for i, k in enumerate(self.cols):
            x, y = self._class_box(i, k, per_line, slot, top, box_h, labels[k], a_actual,
                                   labelled)
            cx, cy = x + (slot - 4) / 2, y + head + inner / 2 + 3
            for order, wid in enumerate(members[k]):
                self.pos[wid] = self._cell_points(cx, cy, inner, len(members[k]), order)
        fname = self.names.agent(self.focus)
        heading = (f"boxes: what {fname} {self.names.verb}" if labelled else
                   f"one box per hand of {fname}, one world each (hover for the deal)")
        self.texts.append(Text(2, FONT, heading, "start", "heading", self.focus))
        lines = math.ceil(len(self.cols) / per_line)
        self.height = top + lines * (box_h + 6)
        self.fits = self.height <= height + 0.5

    def _class_box(self, i: int, k: int, per_line: int, slot: float, top: float,
                   box_h: float, label: str, a_actual: int | None,
                   labelled: bool) -> tuple[float, float]:
        """The ``i``-th box, for the focus agent's class ``k``, in rows of ``per_line``: its
        region (with the hover that says what it is) and, if ``labelled``, its label; returns
        its corner, where the caller places the class's worlds."""
        line, col = divmod(i, per_line)
        x, y = col * slot + 2, top + line * (box_h + 6)
        fname = self.names.agent(self.focus)
        self.regions.append(Region(self.focus, x, y, slot - 4, box_h, k == a_actual, "box",
                                   f"{fname} {self.names.verb} {label}: {fname} cannot tell "
                                   "these worlds apart"))
        if labelled:
            self.texts.append(Text(x + (slot - 4) / 2, y + FONT + 2, label,
                                   agent=self.focus if k == a_actual else None))
        return x, y

    def _named_boxes(self, ka: np.ndarray, kb: np.ndarray, height: float) -> None:
        """A box per class of the focus agent in lines, each world in it drawn over the name
        of the second agent's class it is in (what tells the worlds of a box apart)."""
        assert self.rows is not None
        u = self.universe
        members: dict[int, list[tuple[int, int]]] = {}
        for wid, a, b in zip(u.world_ids.tolist(), ka.tolist(), kb.tolist(), strict=True):
            members.setdefault(a, []).append((wid, b))

        def joined(parts: tuple[str, ...]) -> str:
            return "".join(parts) if all(len(p) == 1 for p in parts) else " ".join(parts)

        labels = {k: " ".join(self._label(self.focus, k)) for k in self.cols}
        names = {b: joined(self._label(self.rows, b)) for b in set(kb.tolist())}
        q = math.ceil(math.sqrt(max(len(v) for v in members.values())))
        self.radius = 6.0
        cell_w = max(2 * self.radius + 4, max(name_width(t) for t in names.values()) + 6)
        cell_h = 2 * self.radius + FONT + 6
        inner_rows = math.ceil(max(len(v) for v in members.values()) / q)
        box_w = max(q * cell_w, max(text_width(t) for t in labels.values())) + 8
        head = FONT + 8
        box_h = head + inner_rows * cell_h + 2
        per_line = max(int(self.width // (box_w + 4)), 1)
        slot = self.width / per_line
        top = FONT + 10
        a_actual = None if u.actual is None else int(ka[u.actual])
        rname = self.names.agent(self.rows)
        for i, k in enumerate(self.cols):
            x, y = self._class_box(i, k, per_line, slot, top, box_h, labels[k], a_actual, True)
            left = x + (slot - 4 - q * cell_w) / 2
            for order, (wid, b) in enumerate(sorted(members[k], key=lambda m: names[m[1]])):
                row, c = divmod(order, q)
                cx = left + (c + 0.5) * cell_w
                cy = y + head + row * cell_h + self.radius + 2
                self.pos[wid] = (cx, cy)
                self.world_names[wid] = Text(cx, cy + self.radius + FONT + 1, names[b],
                                             role="count")
        fname = self.names.agent(self.focus)
        self.texts.append(Text(2, FONT, f"boxes: what {fname} {self.names.verb}; under "
                               f"each world, what {rname} {self.names.verb}", "start",
                               "heading", self.focus))
        self.height = top + math.ceil(len(self.cols) / per_line) * (box_h + 6)
        self.fits = self.height <= height + 0.5

    def picture(self, model: Partitioned, marking: Marking = Marking()) -> Picture:
        marks, drawn = self._marks(model, marking)
        links, few = _few(self._chains(model, self.chained))
        fname = self.names.agent(self.focus)
        total = _plural(model.n_worlds, "world")
        if self.wrapped:
            what = f"All {total} drawn; a box holds the worlds {fname} cannot tell apart"
        elif self.rows is not None:
            rname = self.names.agent(self.rows)
            what = (f"All {total} drawn; a column holds the worlds {fname} cannot tell apart, "
                    f"a row those {rname} cannot")
        if self.chained and links:
            what += ", a line joins those " + " and ".join(
                self.names.agent(a) for a in self.chained) + " cannot"
        agents = (self.focus, *(() if self.wrapped else (self.rows,)), *self.chained)
        return _private(Picture(self.width, self.height, tuple(marks), tuple(self.regions),
                                tuple(links), (*self.texts, *_names_of(marks, self.world_names)),
                                what + "." + few, drawn, agents), marking.viewer)


class FixedPositions(_Positioned):
    """Worlds at the caller's coordinates (a puzzle's geometry), in units of about one world's
    spacing, scaled to fit ``width`` × ``height`` (at most ``scale`` pixels a unit): a puzzle of
    256 worlds is drawn at the size the page shows it, not shrunk from a strip ten screens wide.
    The focus agent's classes are boxed, the other agents' classes chained; ``labels`` (world id
    to a short name) are written beside their worlds where each fits clear of every other world
    and label (see ``place_labels``), else none is and the caption says to hover."""

    universe: Partitioned  # partitions: the class views draw no belief model
    width: float
    height: float

    def __init__(self, universe: Partitioned, focus: Agent,
                 positions: Mapping[int, tuple[float, float]], names: Names | None = None, *,
                 labels: Mapping[int, str] | None = None, width: float = WIDTH,
                 height: float = HEIGHT, scale: float = 60.0, radius: float = 7.0) -> None:
        self.universe, self.focus = universe, focus
        self.names = names or PlainNames()
        self.labels: dict[int, Text] = {}
        if labels:  # fitted leaving room for the names at the right
            room = max(name_width(t) for t in labels.values())
            self._fit(positions, width - room, height - FONT, scale, radius)
            placed = place_labels(self.pos, self.radius, labels, self._bigger())
            if placed is not None:  # names sticking out at the left or top: all moves over
                boxes = [text_box(t) for t in placed.values()]
                dx = max(2 - min(b[0] for b in boxes), 0.0)
                dy = max(2 - min(b[1] for b in boxes), 0.0)
                self.pos = {w: (x + dx, y + dy) for w, (x, y) in self.pos.items()}
                self.labels = {w: _shift(t, dx, dy) for w, t in placed.items()}
                self.width = max(self.width + dx, max(b[2] for b in boxes) + dx + 4)
                self.height = max(self.height + dy, max(b[3] for b in boxes) + dy + 4)
        if not self.labels:
            self._fit(positions, width, height, scale, radius)
        self.unlabelled = bool(labels) and not self.labels
        self.chained = _after(universe.agents, focus)

    def _fit(self, positions: Mapping[int, tuple[float, float]], width: float, height: float,
             scale: float, radius: float) -> None:
        """Positions in pixels, as big as fits ``width`` × ``height`` up to ``scale`` a unit,
        and a radius that keeps each world clear of its nearest neighbour."""
        xs = [p[0] for p in positions.values()]
        ys = [p[1] for p in positions.values()]
        pad = 16.0  # a box's margin around its worlds, and the star's
        span_x, span_y = max(xs) - min(xs), max(ys) - min(ys)
        scale = min(scale, (width - 2 * pad) / max(span_x, 1e-9),
                    (height - 2 * pad) / max(span_y, 1e-9))
        self.pos = {int(w): (pad + (x - min(xs)) * scale, pad + (y - min(ys)) * scale)
                    for w, (x, y) in positions.items()}
        points = np.array(list(self.pos.values()))
        gaps = np.hypot(*(points[:, None, :] - points[None, :, :]).transpose(2, 0, 1))
        np.fill_diagonal(gaps, np.inf)
        nearest = float(gaps.min()) if len(points) > 1 else 3 * radius
        self.radius = max(min(radius, nearest / 3), 3.0)
        self.width, self.height = span_x * scale + 2 * pad, span_y * scale + 2 * pad

    def _bigger(self) -> dict[int, float]:
        """The actual world is drawn bigger (with its star): labels keep clear of that."""
        actual = self.universe.actual
        if actual is None:
            return {}
        return {int(self.universe.world_ids[actual]): _actual_radius(self.radius)}

    def picture(self, model: Partitioned, marking: Marking = Marking()) -> Picture:
        marks, drawn = self._marks(model, marking)
        keys = self.universe.observation(self.focus)
        actual = None if self.universe.actual is None else int(keys[self.universe.actual])
        boxes: dict[int, list[tuple[float, float]]] = {}
        for wid, k in zip(self.universe.world_ids.tolist(), keys.tolist(), strict=True):
            if wid in self.pos:
                boxes.setdefault(int(k), []).append(self.pos[wid])
        pad = self.radius + 5
        regions = tuple(
            Region(self.focus, min(p[0] for p in pts) - pad, min(p[1] for p in pts) - pad,
                   max(p[0] for p in pts) - min(p[0] for p in pts) + 2 * pad,
                   max(p[1] for p in pts) - min(p[1] for p in pts) + 2 * pad,
                   k == actual, "box") for k, pts in boxes.items())
        links, few = _few(self._chains(model, self.chained))
        texts = _names_of(marks, self.labels)
        hover = " Too many to name each: hover a world for its name." if self.unlabelled else ""
        return _private(Picture(
            self.width, self.height, tuple(marks), regions, tuple(links), texts,
            f"{'All ' * (model.n_worlds != 1)}{_plural(model.n_worlds, 'world')} drawn; a box "
            f"holds the worlds {self.names.agent(self.focus)} cannot tell apart.{few}{hover}",
            drawn,
            (self.focus, *self.chained)), marking.viewer)


#: The shape of the box a picture is drawn in (width over height), for layouts that wrap.
ASPECT = WIDTH / HEIGHT
#: A drawing by classes in units of the columns' spacing: a column's rows (its worlds' names
#: go beside them, not under, so Sum and Product's 25-world columns stay short), and the gap
#: between two bands of columns.
ROW, BAND_GAP = 0.3, 0.45
#: Columns a band at most: a world and its name ("10,43") beside it need a tenth of the width.
COLUMNS = 10


def class_columns(model: Partitioned, focus: Agent) -> dict[int, tuple[float, float]]:
    """Each class of ``focus`` a column of its worlds, the columns in bands: how a model too
    big to draw at first (Sum and Product) is drawn once the story has cut it down, where a
    grid of two agents' classes would be a hundred rows tall. As many columns a band as fill
    the picture's box best (``COLUMNS`` at most); with more than one band the tallest classes
    come first, so the many one-world classes (P's products) share short bands."""
    keys = model.observation(focus)
    columns: dict[int, list[int]] = {}
    for world, key in zip(model.world_ids.tolist(), keys.tolist(), strict=True):
        columns.setdefault(key, []).append(world)

    def bands(per: int) -> list[list[list[int]]]:
        order = sorted(columns) if per >= len(columns) else sorted(
            columns, key=lambda k: (-len(columns[k]), k))
        ordered = [columns[k] for k in order]
        return [ordered[i:i + per] for i in range(0, len(ordered), per)]

    def size(per: int) -> tuple[float, float]:
        cut = bands(per)
        return (min(per, len(columns)) - 0.25,  # the last column's names stick out
                sum(ROW * (max(map(len, b)) - 1) for b in cut) + BAND_GAP * (len(cut) - 1))

    per = min(range(1, min(len(columns), COLUMNS) + 1),
              key=lambda p: max(size(p)[0] / ASPECT, size(p)[1]))
    positions, top = {}, 0.0
    for band in bands(per):
        for x, worlds in enumerate(band):
            for y, world in enumerate(worlds):
                positions[world] = (float(x), top + ROW * y)
        top += ROW * (max(map(len, band)) - 1) + BAND_GAP
    return positions


def _few(links: list[Link]) -> tuple[list[Link], str]:
    """The chains, or only the actual world's when there are so many they would hide the
    worlds (muddy children with 8: 896 segments), and what the caption says of it."""
    if len(links) <= LINK_LIMIT:
        return links, ""
    return [k for k in links if k.actual], (
        " Lines join only the worlds another agent cannot tell from the ★ world (all of them "
        "would hide the worlds).")


def _names_of(marks: Sequence[Mark], names: Mapping[int, Text]) -> tuple[Text, ...]:
    """Each drawn world's name; a removed world's pale, so the class sees what went."""
    return tuple(replace(names[int(m.key[1:])], role="ghost") if m.state == GONE
                 else names[int(m.key[1:])] for m in marks if int(m.key[1:]) in names)


def _actual_radius(radius: float) -> float:
    """The radius the actual world is drawn at (``app.worlds.svg`` stars it on a bigger disc)."""
    return max(radius * 1.35, 8.0)


def name_width(text: str) -> float:
    """Width of a world's name at the 11 px of a ``count`` text, a little generous: a digit is
    0.64 em in the sans-serif fonts the page gets, a comma or space half that."""
    em = {",": 0.34, ".": 0.34, " ": 0.34, "–": 0.56}
    return 2 + 11 * sum(em.get(c, 0.64 if c.isdigit() else 0.74 if c.isupper() else 0.62)
                        for c in text)


def text_box(t: Text) -> tuple[float, float, float, float]:
    """A name's box (left, top, right, bottom) as ``name_width`` estimates it."""
    w = name_width(t.text)
    left = t.x - {"start": 0.0, "middle": w / 2, "end": w}[t.anchor]
    return left, t.y - 10, left + w, t.y + 3


#: Where a world's name may go: under it, right of it, left of it, above it.
BELOW, RIGHT, LEFT, ABOVE = range(4)


def place_labels(pos: Mapping[int, tuple[float, float]], radius: float,
                 labels: Mapping[int, str], bigger: Mapping[int, float] | None = None,
                 ) -> dict[int, Text] | None:
    """A name for every world, all on the same side where they can be (under them, else to
    the right), so the eye learns where to look; a world whose name does not fit there gets
    the first other side where it does. None if some world has no place at all: then no
    world is named (half the names would mislead more than none)."""
    best: tuple[int, dict[int, Text]] | None = None
    for side in (BELOW, RIGHT):
        order = (side, *(s for s in (BELOW, RIGHT, LEFT, ABOVE) if s != side))
        placed = _place(pos, radius, labels, bigger or {}, order)
        if placed is not None:
            kept = sum(t.side == side for t in placed.values())
            if best is None or kept > best[0]:
                best = kept, {w: t.text for w, t in placed.items()}
            if kept == len(placed):
                break
    return None if best is None else best[1]


@dataclass(frozen=True)
class _Placed:
    text: Text
    side: int


def _place(pos: Mapping[int, tuple[float, float]], radius: float, labels: Mapping[int, str],
           bigger: Mapping[int, float], order: Sequence[int]) -> dict[int, _Placed] | None:
    """Each name at the first side of ``order`` that overlaps no world (``bigger`` ones at
    their radius) and no name placed before, and is nearer its own world's edge than any
    other's, so each name visibly belongs to its world; None if a world has no such side."""
    cell = max(4 * radius, 3 * FONT)
    grid: dict[tuple[int, int], list[tuple[float, float, float, float]]] = {}

    def cells(box: tuple[float, float, float, float]) -> list[tuple[int, int]]:
        return [(i, j) for i in range(int(box[0] // cell), int(box[2] // cell) + 1)
                for j in range(int(box[1] // cell), int(box[3] // cell) + 1)]

    def add(box: tuple[float, float, float, float]) -> None:
        for c in cells(box):
            grid.setdefault(c, []).append(box)

    def free(box: tuple[float, float, float, float]) -> bool:
        return all(box[2] <= b[0] or b[2] <= box[0] or box[3] <= b[1] or b[3] <= box[1]
                   for c in cells(box) for b in grid.get(c, ()))

    centres: dict[tuple[int, int], list[tuple[int, float, float]]] = {}
    for wid, (x, y) in pos.items():
        r = bigger.get(wid, radius) + 1
        add((x - r, y - r, x + r, y + r))
        centres.setdefault((int(x // cell), int(y // cell)), []).append((wid, x, y))

    def owner_is(wid: int, box: tuple[float, float, float, float]) -> bool:
        """The box is nearer its own world's edge than any other world's edge."""
        def gap(w: int, px: float, py: float) -> float:
            return math.hypot(max(box[0] - px, 0, px - box[2]),
                              max(box[1] - py, 0, py - box[3])) - bigger.get(w, radius)
        x, y = pos[wid]
        own = gap(wid, x, y)
        i0, j0 = int(x // cell), int(y // cell)
        return all(gap(w, px, py) > own + 1 for i in range(i0 - 3, i0 + 4)
                   for j in range(j0 - 3, j0 + 4) for w, px, py in centres.get((i, j), ())
                   if w != wid)

    placed: dict[int, _Placed] = {}
    for wid in sorted(labels, key=lambda w: (pos[w][1], pos[w][0]) if w in pos else (0, 0)):
        if wid not in pos:
            continue
        x, y = pos[wid]
        r = bigger.get(wid, radius)
        sides = {BELOW: Text(x, y + r + FONT + 3, labels[wid], role="count"),
                 RIGHT: Text(x + r + 4, y + FONT / 3, labels[wid], "start", "count"),
                 LEFT: Text(x - r - 4, y + FONT / 3, labels[wid], "end", "count"),
                 ABOVE: Text(x, y - r - 5, labels[wid], role="count")}
        for side in order:
            box = text_box(sides[side])
            if free(box) and owner_is(wid, box):
                placed[wid] = _Placed(sides[side], side)
                add(box)
                break
        else:
            return None
    return placed


@dataclass(frozen=True)
class _Tile:
    """One tile of a summary: one class of an agent, or a group of its classes."""

    key: str  # stable across pictures: "c<level>:<first class key>"
    members: tuple[int, ...]  # the class keys it stands for
    label: str  # written on the tile: the group's first part, or the class's name
    capacity: int  # worlds in its classes when dealt (or when the summary was made)


@dataclass
class _Level:
    """One level of a summary: ``agent``'s classes inside the opened classes above it."""

    agent: Agent
    tiles: list[_Tile]
    classes: int  # classes in all its tiles
    dealt: bool  # the tiles hold every class of the deal (else those present when made)
    grouped: bool  # a tile may stand for several classes
    runs: bool  # grouped in runs of classes ("17–20"), not by their first part
    actual: int | None  # the actual class's key, opened below; None: not opened
    top: float = 0.0  # where the tiles start
    side: float = TILE
    per_line: int = 1
    height: float = 0.0  # heading and tiles


@dataclass
class ClassTiles:
    """Classes as tiles, the actual class opened, level by level, down to drawable worlds.

    Each level's tiles are every class its agent had when the cards were dealt (for a deal
    model; else the classes present when the summary is made), one tile per class or, past
    ``TILE_LIMIT``, per group of classes sharing their first part (for a deal: a hand's lowest
    ticket), so each tile can carry its number. A tile's area is the share of its dealt worlds
    still possible and its number the worlds left; a class emptied by an announcement leaves
    its slot empty where it was. With ``private`` (a player's view of its own classes) only
    the player's class is opened: it cannot know which of the next agent's classes is the
    actual one, so those are drawn without one marked, and no deeper.
    """

    model: InitVar[AnyModel]  # asked once, not kept: it may hold millions of worlds
    focus: Agent
    names: Names = field(default_factory=PlainNames)
    width: float = WIDTH
    height: float = HEIGHT
    private: bool = False
    levels: list[_Level] = field(init=False, default_factory=list)
    inner: ClassGrid | None = field(init=False, default=None)
    _shown: set[str] = field(init=False, default_factory=set)  # tiles live in the last picture

    def __post_init__(self, model: AnyModel) -> None:
        if model.actual is None:
            raise ValueError("a summary opens the actual world's class: the model needs one")
        agents = [self.focus, *_after(model.agents, self.focus)]
        opened: Opened = {}
        y = 0.0
        for depth, agent in enumerate(agents):
            dealt = model.dealt_classes(agent, opened)
            if dealt is None:  # the classes present now, at their present size
                counts = model.class_sizes(agent, fixed=opened)
                dealt_now = False
                dealt = {int(k): int(counts[k]) for k in np.flatnonzero(counts)}
            else:
                dealt_now = True
            shown = not (self.private and depth > 0)
            tiles, grouped, runs = self._tiles(model, depth, agent, dealt)
            level = _Level(agent, tiles, len(dealt), dealt_now, grouped, runs,
                           model.class_key(agent) if shown else None)
            self._place(level, y, depth)
            self.levels.append(level)
            y += level.height
            if level.actual is None:
                break
            opened = {**opened, agent: level.actual}
            if model.part_size(opened) <= OPEN_LIMIT or depth == len(agents) - 2:
                break
        rest = [a for a in agents if a not in {lv.agent for lv in self.levels}]
        if self.levels[-1].actual is not None and rest:
            self._open(model.listed(opened), rest[0], y)
        else:
            self.inner_top = self.bottom = y

    def _open(self, cell: Partitioned, focus: Agent, top: float, *,
              only_if_fits: bool = False) -> bool:
        """Draw the worlds of the last opened class, every one, under the levels above;
        with ``only_if_fits``, False (and nothing changed) if their grid would overflow."""
        inner_top = top + 2 * (FONT + 3) + 12
        grid = ClassGrid(cell, focus, self.names, width=self.width,
                         height=max(self.height - inner_top - 4, 120.0))
        if only_if_fits and not grid.fits:
            return False
        self.inner_top, self.inner = inner_top, grid
        self.bottom = self.inner_top + grid.height
        return True

    def _replan(self, model: AnyModel) -> None:
        """A player's view opened while its class was too big to draw: once announcements
        have shrunk the class enough, its worlds are drawn instead of the next player's tiles
        (from then on at fixed places, as everywhere)."""
        if not self.private or self.inner is not None or len(self.levels) < 2:
            return
        own: Opened = {self.levels[0].agent: model.class_key(self.levels[0].agent)}
        # its worlds replace the next player's tiles, unless too many to read in a grid
        if model.part_size(own) <= OPEN_LIMIT and self._open(
                model.listed(own), self.levels[1].agent, self.levels[0].height,
                only_if_fits=True):
            self.levels.pop()

    def _tiles(self, model: AnyModel, depth: int, agent: Agent, dealt: dict[int, int],
               ) -> tuple[list[_Tile], bool, bool]:
        """One tile per class, or per group of classes with the same first part when there are
        too many to carry their numbers (then, failing that, per run of classes); whether
        grouped, and whether in runs."""
        def hand(key: int) -> tuple[str, ...]:
            return self.names.hand(model, agent, key)

        keys = sorted(dealt)
        if len(keys) <= TILE_LIMIT:
            return [_Tile(f"c{depth}:{k}", (k,), " ".join(hand(k)), dealt[k])
                    for k in keys], False, False
        groups: dict[str, list[int]] = {}
        for k in keys:
            groups.setdefault(hand(k)[0], []).append(k)
        runs = not 1 < len(groups) <= TILE_LIMIT
        if runs:  # named by their first and last
            size = math.ceil(len(keys) / TILE_LIMIT)
            groups = {_run(hand(keys[i])[0], hand(keys[min(i + size, len(keys)) - 1])[0]):
                      keys[i:i + size] for i in range(0, len(keys), size)}
        return [_Tile(f"c{depth}:{ks[0]}", tuple(ks), label, sum(dealt[k] for k in ks))
                for label, ks in groups.items()], True, runs

    def _place(self, level: _Level, top: float, depth: int) -> None:
        """Tiles of at least ``TILE`` side in as few lines as fit, under a two-line heading."""
        n = len(level.tiles)
        per_line = max(min(n, int(self.width // TILE)), 1)
        per_line = math.ceil(n / math.ceil(n / per_line))  # lines as even as they can be
        side = min(self.width / per_line, 48.0)
        head = 2 * (FONT + 3) + 6 + (8 if depth else 0)
        level.top, level.side, level.per_line = top + head, side, per_line
        level.height = head + math.ceil(n / per_line) * side + 8

    def _heading(self, depth: int, level: _Level, live: int, marking: Marking) -> str:
        name, noun = self.names.agent(level.agent), self.names.classes
        what = (f"{name}'s {noun}: {live:,} of {level.classes:,} still possible"
                if level.dealt else f"{name}'s {noun}: {live:,} possible")
        if depth:
            above = self.names.agent(self.levels[depth - 1].agent)
            whose = f"{above}'s own" if self.private else f"{above}'s ★"
            what = f"Inside {whose} class, {what}"
        elif self.private and _same(marking.viewer, level.agent):
            what += "; ★ its own, the rest ruled out by it"
        if level.runs:
            what += f"; a tile per run of {self.names.classes}"
        elif level.grouped:
            what += f"; a tile per lowest {self.names.part}"
        return what[0].upper() + what[1:]

    def picture(self, model: AnyModel, marking: Marking = Marking()) -> Picture:
        self._replan(model)
        marks: list[Mark] = []
        texts: list[Text] = []
        regions: list[Region] = []
        opened: Opened = {}
        shown, self._shown = self._shown, set()  # tiles live in the last picture
        values = marking.values
        for depth, level in enumerate(self.levels):
            agent = level.agent
            counts = model.class_sizes(agent, fixed=opened)
            holds = None if values is None else model.class_sizes(agent, values, opened)
            name = self.names.agent(agent)
            live = sum(int(np.count_nonzero(counts[list(t.members)])) for t in level.tiles)
            if depth:
                above = self.levels[depth - 1].agent
                panel_top = level.top - 2 * (FONT + 3) - 10
                regions.append(Region(above, -1, panel_top, self.width + 2,
                                      self.bottom + 2 - panel_top, True, "panel"))
            for j, line in enumerate(wrap(self._heading(depth, level, live, marking),
                                          self.width - 8)[:2]):
                texts.append(Text(2, level.top - 6 - (1 - j) * (FONT + 3), line, "start",
                                  "heading", agent))
            side = level.side
            for i, tile in enumerate(level.tiles):
                row, col = divmod(i, level.per_line)
                cx, cy = (col + 0.5) * side, level.top + (row + 0.5) * side
                members = list(tile.members)
                n = int(counts[members].sum())
                has_actual = level.actual in tile.members
                what = (f"{name} {self.names.verb} {tile.label}" if len(members) == 1 else
                        f"{name}'s {len(members):,} {self.names.classes} {tile.label}"
                        if level.runs else
                        f"{name}'s {len(members):,} {self.names.classes} with lowest "
                        f"{self.names.part} {tile.label}")
                if n == 0:
                    marks.append(Mark(tile.key, cx, cy, side / 2 - 1,
                                      GOING if tile.key in shown else GONE,
                                      f"{what}: no world left", tile=True, worlds=0,
                                      slot=side - 2))
                    self._label_tile(texts, tile, cx, cy, side)
                    continue
                self._shown.add(tile.key)
                r = (side / 2 - 1) * math.sqrt(min(n / tile.capacity, 1.0))
                title = f"{what}: {n:,} of {tile.capacity:,} worlds possible"
                if len(members) > 1:
                    title += (f" ({int(np.count_nonzero(counts[members])):,} of "
                              f"{len(members):,} {self.names.classes})")
                h = None if holds is None else int(holds[members].sum())
                if h is not None:
                    title += f"\nformula true in {h:,} of them"
                faded = _same(marking.viewer, agent) and not has_actual
                marks.append(Mark(tile.key, cx, cy, max(r, 1.5), FADED if faded else LIVE,
                                  title, actual=has_actual, worlds=n, holds=h, tile=True,
                                  slot=side - 2))
                self._label_tile(texts, tile, cx, cy, side)
                if side >= text_width(short(n)) + 4:
                    texts.append(Text(cx, cy + side / 2 - 4, short(n), role="count"))
                if has_actual:
                    regions.append(Region(agent, cx - side / 2, cy - side / 2, side, side,
                                          True, "box", f"the actual world's class: {title}"))
            if level.actual is not None:
                opened = {**opened, agent: model.class_key(agent)}
        inner = None
        if self.inner is not None:
            assert opened  # the inner grid draws an opened class
            inner = self.inner.picture(model.listed(opened), Marking(
                marking.viewer, None if values is None else model.listed_values(values, opened),
                marking.highlight,
            )).moved(0, self.inner_top)
            marks += inner.marks
            regions += inner.regions
            texts += inner.texts
            last = self.levels[-1].agent
            panel_top = self.inner_top - 2 * (FONT + 3) - 10
            regions.append(Region(last, -1, panel_top, self.width + 2,
                                  self.bottom + 2 - panel_top, True, "panel"))
            whose = f"{self.names.agent(last)}'s {'own' if self.private else '★'}"
            size = model.part_size(opened)
            for j, line in enumerate(wrap(
                    f"Inside {whose} class: its {size:,} worlds, every one drawn",
                    self.width - 8)):
                texts.append(Text(2, self.inner_top - 6 - (1 - j) * (FONT + 3), line,
                                  "start", "heading", last))
        agents = tuple(dict.fromkeys(
            [lv.agent for lv in self.levels] + list(inner.agents if inner else ())))
        return Picture(self.width, self.bottom + 4, tuple(marks), tuple(regions),
                       inner.links if inner else (), tuple(texts),
                       self._caption(model, opened), inner.drawn_worlds if inner else 0,
                       agents)

    def _label_tile(self, texts: list[Text], tile: _Tile, cx: float, cy: float,
                    side: float) -> None:
        """The tile's name at its top, where it fits (a class's whole hand rarely does)."""
        if text_width(tile.label) <= side - 4:
            texts.append(Text(cx, cy - side / 2 + FONT + 1, tile.label, role="count"))

    def _caption(self, model: AnyModel, opened: Opened) -> str:
        noun = self.names.classes
        said = []
        which_class = (f"{self.names.agent(self.focus)}'s own class" if self.private
                       else "the actual one")
        for depth, level in enumerate(self.levels):
            name = self.names.agent(level.agent)
            tiles = (f"as {len(level.tiles):,} tiles, each a run of {noun}" if level.runs
                     else f"as {len(level.tiles):,} tiles grouped by lowest {self.names.part}"
                     if level.grouped else "one tile each")
            which = (f"all {level.classes:,} {noun} of {name} as dealt" if level.dealt
                     else f"the {level.classes:,} {noun} of {name} possible when first drawn")
            said.append(f"{which}, {tiles}" if depth == 0 else
                        f"{which_class} opened into {which}, {tiles}")
        if self.inner is not None and opened:
            said.append(f"{which_class} opened into its "
                        f"{_plural(model.part_size(opened), 'world')}, every one drawn")
        return (f"{_plural(model.n_worlds, 'world')}: too many to draw one by one. Drawn: "
                + "; ".join(said) + ".")


def _run(first: str, last: str) -> str:
    """A run of classes named whole ("17–20"), not cut ("17…"): a tile says what it holds."""
    return first if first == last else f"{first}–{last}"


def partitioned(model: EpistemicModel) -> bool:
    """Whether the class views can draw the model: it answers what they ask of an agent's
    classes (:class:`kripke.parts.ClassCounts`). A belief model does not (its relations need
    not be partitions): a page draws it as the textbook graph only, and explains no formula
    by classes."""
    return model.capabilities.summarised


def layout_for(model: AnyModel, focus: Agent, names: Names | None = None, *,
               width: float = WIDTH, height: float = HEIGHT,
               private: bool = False) -> WorldsLayout:
    """Every world in a class grid if few enough, else a summary by classes (a symbolic deal:
    always; it lists no worlds). ``private``: the layout of a player's view (``focus`` is the
    viewer), opened only as far as it knows."""
    if (listed := model.drawn(DRAWN_LIMIT)) is not None:
        return ClassGrid(listed, focus, names, width=width, height=height)
    return ClassTiles(model, focus, names or PlainNames(), width, height, private)
