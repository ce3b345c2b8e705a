"""Where each world of a Kripke model is drawn: pure Python, no browser, no Solara.

An S5 relation is a partition, so the picture draws each class as a *region* rather than a
clique of edges (see ``shared/design/worlds-view.md``):

* ``ClassGrid`` (every world drawn): one column per class of the agent in focus, one row per
  class of a second agent, a world in the cell of its two classes. The focus agent's classes
  are the columns, the second agent's the rows, and each further agent's classes are drawn as
  a chain of short lines through their worlds. For a deal model with three players this is the
  deal grid: a 15 × 15 grid with 90 filled cells for 3 × 2. When the second agent's class is
  fixed by the first's (two players), the columns are wrapped into lines of boxes instead.
* ``ClassSummary`` (too many worlds to draw one by one): the focus agent's classes as tiles
  whose area is the share of their worlds still possible, the actual world's class opened into
  the next agent's classes, and so on until a part small enough to draw world by world. It asks
  the model only for class sizes (``KripkeModel.class_sizes``) and the worlds of the actual
  class, so a model that cannot be listed world by world can be summarised the same way.
* ``FixedPositions``: coordinates given by the caller (a puzzle's own geometry, such as the
  muddy children's cube), the focus agent's classes boxed.

A layout is made once per model and agent in focus and then asked for a ``Picture`` of each
later (announced) model: positions belong to the layout, so a world never moves, and a world
the last update removed is marked ``going`` so the renderer can fade it out where it stood.
Renderers (``app.worlds.svg``) only draw what a ``Picture`` lists.
"""

from __future__ import annotations

import math
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Protocol

import numpy as np

from kripke.deal import DealModel
from kripke.formula import Agent
from kripke.model import KripkeModel

#: Nominal width of a picture in CSS pixels: about what the worlds card gets at 1280 × 800, so
#: that a 12-unit font is drawn at 11 px or more there (the SVG scales with its card).
WIDTH = 560.0
FONT = 12.0
CHAR = 7.0  # width of one character of FONT, a little generous for digits and spaces
#: Above this many worlds a model is summarised by classes instead of drawn world by world.
DRAWN_LIMIT = 300
#: A summary opens the actual class level by level until at most this many worlds remain.
OPEN_LIMIT = 100

#: What became of a world: still possible, ruled out by the viewer, removed earlier, removed by
#: the last update (to fade out).
LIVE, FADED, GONE, GOING = "live", "faded", "gone", "going"


class Names(Protocol):
    """How a picture names things; the app names players and tickets, puzzles their own."""

    def agent(self, agent: Agent) -> str: ...

    def hand(self, model: KripkeModel, agent: Agent, key: int) -> tuple[str, ...]:
        """Short parts naming an agent's class (a deal: the ticket ids of the hand)."""
        ...

    def world(self, model: KripkeModel, index: int) -> str:
        """Hover text for a world: what is true there (a deal: who holds what)."""
        ...


class PlainNames:
    """Names from the model alone: a deal model's cards, else class numbers and atoms."""

    def agent(self, agent: Agent) -> str:
        return f"agent {agent}"

    def hand(self, model: KripkeModel, agent: Agent, key: int) -> tuple[str, ...]:
        if isinstance(model, DealModel):
            return tuple(str(c) for c in model.hand(agent, key))
        return (f"#{key}",)

    def world(self, model: KripkeModel, index: int) -> str:
        return model.world_label(index)


@dataclass(frozen=True)
class Mark:
    """A world, or a tile standing for ``worlds`` worlds of one class (``tile``)."""

    key: str  # stable across pictures: "w<world id>" or "c<level>:<class key>"
    x: float
    y: float
    r: float  # radius of a world; half the side of a tile
    state: str  # LIVE, FADED, GONE or GOING
    title: str
    actual: bool = False
    worlds: int = 1
    holds: int | None = None  # worlds where the formula holds (None: no formula)
    highlight: bool = False
    tile: bool = False
    slot: float = 0.0  # a tile's full side: its area shows the share still possible


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
    """One segment of the chain through a class of an agent that has no region."""

    agent: Agent
    x1: float
    y1: float
    x2: float
    y2: float
    actual: bool


@dataclass(frozen=True)
class Text:
    x: float
    y: float
    text: str
    anchor: str = "middle"  # "start", "middle", "end"
    role: str = "axis"  # "axis", "heading", "count"
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

    def moved(self, dx: float, dy: float) -> Picture:
        """The same picture shifted, to place it inside another."""
        return Picture(
            self.width, self.height,
            tuple(_shift(m, dx, dy) for m in self.marks),
            tuple(_shift(r, dx, dy) for r in self.regions),
            tuple(Link(k.agent, k.x1 + dx, k.y1 + dy, k.x2 + dx, k.y2 + dy, k.actual)
                  for k in self.links),
            tuple(_shift(t, dx, dy) for t in self.texts),
            self.caption, self.drawn_worlds, self.agents)


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


@dataclass(frozen=True)
class Marking:
    """What a picture marks on top of positions: the viewer's class, a formula, highlights."""

    viewer: Agent | None = None  # worlds outside this agent's actual class are faded
    values: np.ndarray | None = None  # the formula's value per world of the current model
    highlight: Collection[int] = ()  # world ids to ring (a counterexample)


class WorldsLayout(Protocol):
    focus: Agent

    def picture(self, model: KripkeModel, marking: Marking = Marking()) -> Picture:
        """The picture of ``model``, a model this layout was made for or an update of it."""
        ...


def _others(model: KripkeModel, focus: Agent) -> list[Agent]:
    """The agents after ``focus``, in the model's order, wrapping around."""
    agents = list(model.agents)
    i = agents.index(focus)
    return agents[i + 1:] + agents[:i]


def _viewer_class(model: KripkeModel, viewer: Agent | None) -> np.ndarray | None:
    if viewer is None or model.actual is None:
        return None
    return model.possible_worlds(viewer)


class _Positioned:
    """Shared by the layouts that place every world of a universe at a fixed point."""

    universe: KripkeModel
    names: Names
    focus: Agent
    pos: dict[int, tuple[float, float]]  # world id -> centre
    radius: float
    _shown: frozenset[int] | None = None  # world ids live in the last picture

    def _going(self, model: KripkeModel) -> frozenset[int]:
        """Worlds live in the last picture and gone from this one: they fade out now."""
        now = frozenset(model.world_ids.tolist())
        going = frozenset() if self._shown is None else self._shown - now
        self._shown = now
        return going

    def _marks(self, model: KripkeModel, marking: Marking) -> tuple[list[Mark], int]:
        u = self.universe
        present = {int(w): i for i, w in enumerate(model.world_ids)}
        seen = _viewer_class(model, marking.viewer)
        seen_ids = None if seen is None else set(model.world_ids[seen].tolist())
        removed, highlight = self._going(model), set(marking.highlight)
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
            holds = None if marking.values is None else int(bool(marking.values[i]))
            state = FADED if seen_ids is not None and wid not in seen_ids else LIVE
            title = f"world {wid}{' (the actual world)' if wid == actual_id else ''}\n{deal}"
            if holds is not None:
                title += f"\nformula: {'true' if holds else 'false'} here"
            if state == FADED and marking.viewer is not None:
                title += f"\n{self.names.agent(marking.viewer)} has ruled it out"
            marks.append(Mark(f"w{wid}", x, y, self.radius, state, title,
                              actual=wid == actual_id, holds=holds,
                              highlight=wid in highlight))
        return marks, drawn

    def _chains(self, model: KripkeModel, agents: Sequence[Agent]) -> list[Link]:
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
    their worlds at the same points and the removed ones as ghosts where they stood.
    """

    def __init__(self, universe: KripkeModel, focus: Agent, names: Names | None = None, *,
                 rows: Agent | None = None, width: float = WIDTH) -> None:
        self.universe, self.focus, self.width = universe, focus, width
        self.names = names or PlainNames()
        # agents with one class here (the levels a summary has already opened) say nothing
        others = [a for a in _others(universe, focus)
                  if len(set(universe.observation(a).tolist())) > 1]
        self.rows = rows if rows is not None else (others[0] if others else None)
        ka = universe.observation(focus)
        self.cols = sorted(set(ka.tolist()))
        kb = universe.observation(self.rows) if self.rows is not None else np.zeros_like(ka)
        pairs = set(zip(ka.tolist(), kb.tolist(), strict=True))
        # the second agent's class is fixed by the first's (two players): wrap the columns
        self.wrapped = len(pairs) == len(self.cols)
        self.chained = [a for a in others if a != self.rows or self.wrapped]
        self.pos = {}
        self.regions: list[Region] = []
        self.texts: list[Text] = []
        if self.wrapped:
            self._wrap(ka)
        else:
            self._grid(ka, kb)

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

    def _grid(self, ka: np.ndarray, kb: np.ndarray) -> None:
        assert self.rows is not None  # without a second agent the columns are wrapped
        u, rows, row_agent = self.universe, sorted(set(kb.tolist())), self.rows
        col_of = {k: i for i, k in enumerate(self.cols)}
        row_of = {k: i for i, k in enumerate(rows)}
        col_labels = {k: self._label(self.focus, k) for k in self.cols}
        row_labels = {k: " ".join(self._label(row_agent, k)) for k in rows}
        lines = max(len(v) for v in col_labels.values())
        left = max(text_width(t) for t in row_labels.values()) + 10
        cell = min((self.width - left - 4) / len(self.cols), 44.0)
        fname, rname = self.names.agent(self.focus), self.names.agent(row_agent)
        heads = [f"columns: what {fname} holds", f"rows: what {rname} holds"]
        # the two axis titles side by side over the grid, or one under the other
        stacked = text_width(heads[0]) + text_width(heads[1]) + 16 > left + cell * len(
            self.cols)
        head_lines = 2 if stacked else 1
        top = lines * (FONT + 2) + 10 + head_lines * (FONT + 4) + 2
        cells: dict[tuple[int, int], list[int]] = {}
        for wid, a, b in zip(u.world_ids.tolist(), ka.tolist(), kb.tolist(), strict=True):
            cells.setdefault((a, b), []).append(wid)
        most = max(len(v) for v in cells.values())
        q = math.ceil(math.sqrt(most))
        self.radius = max(min(cell / q / 2 - 2.5, 8.0), 2.0)
        for (a, b), wids in cells.items():
            cx = left + cell * (col_of[a] + 0.5)
            cy = top + cell * (row_of[b] + 0.5)
            for order, wid in enumerate(wids):
                self.pos[wid] = self._cell_points(cx, cy, cell, len(wids), order)
        height = top + cell * len(rows)
        actual = u.actual
        a_actual = None if actual is None else int(ka[actual])
        b_actual = None if actual is None else int(kb[actual])
        for k in self.cols:
            x = left + cell * col_of[k]
            self.regions.append(Region(self.focus, x, top, cell, cell * len(rows),
                                       k == a_actual, "column",
                                       f"{fname} holds {' '.join(col_labels[k])}: "
                                       f"{fname} cannot tell these worlds apart"))
            for j, part in enumerate(col_labels[k]):
                self.texts.append(Text(x + cell / 2, top - 8 - (lines - 1 - j) * (FONT + 2),
                                       part, agent=self.focus if k == a_actual else None))
        for k in rows:
            y = top + cell * row_of[k]
            self.regions.append(Region(row_agent, left, y, cell * len(self.cols), cell,
                                       k == b_actual, "row",
                                       f"{rname} holds {row_labels[k]}: {rname} cannot tell "
                                       "these worlds apart"))
            self.texts.append(Text(left - 6, y + cell / 2 + FONT / 3, row_labels[k], "end",
                                   agent=self.rows if k == b_actual else None))
        self.texts.append(Text(0 if stacked else left, FONT, heads[0], "start", "heading",
                               self.focus))
        if stacked:
            self.texts.append(Text(0, 2 * FONT + 4, heads[1], "start", "heading", self.rows))
        else:
            self.texts.append(Text(left + cell * len(self.cols), FONT, heads[1], "end",
                                   "heading", self.rows))
        self.height = height + 4

    def _wrap(self, ka: np.ndarray) -> None:
        u = self.universe
        labels = {k: " ".join(self._label(self.focus, k)) for k in self.cols}
        members: dict[int, list[int]] = {}
        for wid, a in zip(u.world_ids.tolist(), ka.tolist(), strict=True):
            members.setdefault(a, []).append(wid)
        most = max(len(v) for v in members.values())
        q = math.ceil(math.sqrt(most))
        slot = max(max(text_width(t) for t in labels.values()) + 12, 34.0, q * 16.0)
        per_line = max(int(self.width // slot), 1)
        slot = self.width / per_line
        inner = min(slot - 10, q * 18.0)
        self.radius = max(min(inner / q / 2 - 2.5, 8.0), 2.0)
        box_h = FONT + 8 + inner + 6
        top = FONT + 10
        a_actual = None if u.actual is None else int(ka[u.actual])
        fname = self.names.agent(self.focus)
        for i, k in enumerate(self.cols):
            line, col = divmod(i, per_line)
            x, y = col * slot + 2, top + line * (box_h + 6)
            self.regions.append(Region(self.focus, x, y, slot - 4, box_h, k == a_actual, "box",
                                       f"{fname} holds {labels[k]}: {fname} cannot tell "
                                       "these worlds apart"))
            self.texts.append(Text(x + (slot - 4) / 2, y + FONT + 2, labels[k],
                                   agent=self.focus if k == a_actual else None))
            cx, cy = x + (slot - 4) / 2, y + FONT + 6 + inner / 2 + 2
            for order, wid in enumerate(members[k]):
                self.pos[wid] = self._cell_points(cx, cy, inner, len(members[k]), order)
        self.texts.append(Text(2, FONT, f"boxes: what {fname} holds", "start", "heading",
                               self.focus))
        lines = math.ceil(len(self.cols) / per_line)
        self.height = top + lines * (box_h + 6)

    def picture(self, model: KripkeModel, marking: Marking = Marking()) -> Picture:
        marks, drawn = self._marks(model, marking)
        links = self._chains(model, self.chained)
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
        return Picture(self.width, self.height, tuple(marks), tuple(self.regions),
                       tuple(links), tuple(self.texts), what + ".", drawn, agents)


class FixedPositions(_Positioned):
    """Worlds at the caller's coordinates (a puzzle's geometry), in units of ``scale`` pixels;
    the focus agent's classes boxed, the other agents' classes chained."""

    def __init__(self, universe: KripkeModel, focus: Agent,
                 positions: Mapping[int, tuple[float, float]], names: Names | None = None, *,
                 scale: float = 60.0, radius: float = 7.0) -> None:
        self.universe, self.focus, self.radius = universe, focus, radius
        self.names = names or PlainNames()
        xs = [p[0] for p in positions.values()]
        ys = [p[1] for p in positions.values()]
        pad = 24.0
        self.pos = {int(w): (pad + (x - min(xs)) * scale, pad + (y - min(ys)) * scale)
                    for w, (x, y) in positions.items()}
        self.width = (max(xs) - min(xs)) * scale + 2 * pad
        self.height = (max(ys) - min(ys)) * scale + 2 * pad
        self.chained = _others(universe, focus)

    def picture(self, model: KripkeModel, marking: Marking = Marking()) -> Picture:
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
        links = self._chains(model, self.chained)
        return Picture(self.width, self.height, tuple(marks), regions, tuple(links), (),
                       f"All {_plural(model.n_worlds, 'world')} drawn; a box holds the worlds "
                       f"{self.names.agent(self.focus)} cannot tell apart.", drawn,
                       (self.focus, *self.chained))


@dataclass
class _Level:
    """One level of a summary: ``agent``'s classes inside the actual cell of the levels above."""

    agent: Agent
    slots: list[int]  # class keys, in the order drawn
    capacity: int  # worlds in the largest class when the layout was made
    actual: int  # the actual world's class key
    geometry: tuple[float, float, int] = (0.0, 0.0, 1)  # top, tile side, tiles per line
    height: float = 0.0


@dataclass
class ClassSummary:
    """Classes as tiles, the actual class opened, level by level, down to drawable worlds.

    Made from the first model it is asked about; each level's tiles keep their slots, so an
    emptied class fades out where it was. A tile's area is its class's worlds as a share of the
    largest class when the layout was made.
    """

    model: KripkeModel
    focus: Agent
    names: Names = field(default_factory=PlainNames)
    width: float = WIDTH
    levels: list[_Level] = field(init=False, default_factory=list)
    inner: ClassGrid | None = field(init=False, default=None)
    _shown: set[str] = field(init=False, default_factory=set)  # tiles live in the last picture

    def __post_init__(self) -> None:
        model = self.model
        if model.actual is None:
            raise ValueError("a summary opens the actual world's class: the model needs one")
        agents = [self.focus, *_others(model, self.focus)]
        cell: np.ndarray | None = None  # indices of the actual cell so far (None: every world)
        y = 0.0
        for depth, agent in enumerate(agents):
            keys = model.observation(agent)
            counts = (model.class_sizes(agent) if cell is None
                      else np.bincount(keys[cell], minlength=model.n_keys(
                          model.agents.index(agent))))
            slots = np.flatnonzero(counts).tolist()
            level = _Level(agent, slots, int(counts.max()), int(keys[model.actual]))
            level.geometry, level.height = self._tiles(len(slots), y, depth)
            self.levels.append(level)
            y += level.height
            cell = (np.flatnonzero(keys == level.actual) if cell is None
                    else cell[keys[cell] == level.actual])
            if cell.size <= OPEN_LIMIT or depth == len(agents) - 2:
                break
        assert cell is not None  # the loop opened at least one level
        self.inner_top = y + 8 + 2 * (FONT + 3) + 4
        rest = [a for a in agents if a not in {lv.agent for lv in self.levels}]
        self.inner = ClassGrid(model.restrict(cell), rest[0], self.names,
                               width=self.width) if rest else None
        self.height = self.inner_top + (self.inner.height if self.inner else 0)
        self.model = model.restrict(cell)  # keep only what the picture needs, not millions

    def _tiles(self, n: int, top: float, depth: int) -> tuple[tuple[float, float, int], float]:
        """Side and tiles per line for ``n`` tiles in about a panel's height, under a heading
        of two lines."""
        target = 150.0 if depth == 0 else 110.0
        side = float(max(min(math.floor(math.sqrt(self.width * target / n)), 46), 6))
        per_line = max(int(self.width // side), 1)
        side = min(self.width / per_line, 46.0)
        lines = math.ceil(n / per_line)
        head = 2 * (FONT + 3) + 6 + (8 if depth else 0)
        return (top + head, side, per_line), head + lines * side + 8

    def _bottom(self, depth: int) -> float:
        """Where the panels opened from level ``depth - 1`` end: the picture's foot."""
        return self.inner_top + (self.inner.height if self.inner else 0) + 2

    def picture(self, model: KripkeModel, marking: Marking = Marking()) -> Picture:
        marks, texts, regions = [], [], []
        cell: np.ndarray | None = None
        shown, self._shown = self._shown, set()  # tiles live in the last picture
        values = marking.values
        for depth, level in enumerate(self.levels):
            agent = level.agent
            keys = model.observation(agent)
            n_keys = model.n_keys(model.agents.index(agent))
            if cell is None:
                counts = model.class_sizes(agent)
                holds = None if values is None else model.class_sizes(agent, where=values)
            else:
                counts = np.bincount(keys[cell], minlength=n_keys)
                holds = None if values is None else np.bincount(
                    keys[cell][values[cell]], minlength=n_keys)
            top, side, per_line = level.geometry
            name = self.names.agent(agent)
            live = int(np.count_nonzero(counts[level.slots]))
            head = (f"Tiles: what {name} holds, {live:,} of {len(level.slots):,} still "
                    f"possible; area: share of {level.capacity:,} worlds left")
            if depth:
                above = self.levels[depth - 1].agent
                head = f"Inside {self.names.agent(above)}'s ★ class. " + head
                panel_top = top - 2 * (FONT + 3) - 10
                regions.append(Region(above, -1, panel_top, self.width + 2,
                                      self._bottom(depth) - panel_top, True, "panel"))
            for j, line in enumerate(wrap(head, self.width - 8)[:2]):
                texts.append(Text(2, top - 6 - (1 - j) * (FONT + 3), line, "start",
                                  "heading", agent))
            for i, key in enumerate(level.slots):
                row, col = divmod(i, per_line)
                cx, cy = (col + 0.5) * side, top + (row + 0.5) * side
                n = int(counts[key])
                hand = " ".join(self.names.hand(self.model, agent, key))
                tkey = f"c{depth}:{key}"
                faded = marking.viewer == agent and key != level.actual
                if n == 0:
                    marks.append(Mark(tkey, cx, cy, side / 2 - 1, GOING if tkey in
                                      shown else GONE,
                                      f"{name} holds {hand}: no world left", tile=True,
                                      worlds=0, slot=side - 2))
                    continue
                self._shown.add(tkey)
                r = (side / 2 - 1) * math.sqrt(min(n / level.capacity, 1.0))
                title = f"{name} holds {hand}: {n:,} of {level.capacity:,} worlds possible"
                h = None if holds is None else int(holds[key])
                if h is not None:
                    title += f"\nformula true in {h:,} of them"
                marks.append(Mark(tkey, cx, cy, max(r, 1.5), FADED if faded else LIVE, title,
                                  actual=key == level.actual, worlds=n, holds=h, tile=True,
                                  slot=side - 2))
                if side >= text_width(f"{n:,}") + 6 and side >= FONT * 2.4:
                    texts.append(Text(cx, cy + side / 2 - 3, f"{n:,}", role="count"))
                if key == level.actual:
                    regions.append(Region(agent, cx - side / 2, cy - side / 2, side, side,
                                          True, "box", f"the actual world's class: {title}"))
            cell = (np.flatnonzero(keys == level.actual) if cell is None
                    else cell[keys[cell] == level.actual])
        assert cell is not None  # a summary has at least one level
        inner = None
        if self.inner is not None:
            sub = model.restrict(cell)
            inner = self.inner.picture(sub, Marking(
                marking.viewer, None if values is None else values[cell], marking.highlight,
            )).moved(0, self.inner_top)
            marks += inner.marks
            regions += inner.regions
            texts += inner.texts
            last = self.levels[-1].agent
            regions.append(Region(last, -1, self.inner_top - 2 * (FONT + 3) - 10,
                                  self.width + 2, self._bottom(0) - self.inner_top
                                  + 2 * (FONT + 3) + 10, True, "panel"))
            for j, line in enumerate(wrap(
                    f"Inside {self.names.agent(last)}'s ★ class: its {cell.size:,} worlds, "
                    "every one drawn", self.width - 8)):
                texts.append(Text(2, self.inner_top - 6 - (1 - j) * (FONT + 3), line,
                                  "start", "heading", last))
        first = self.levels[0]
        caption = (f"{_plural(model.n_worlds, 'world')}: too many to draw one by one. Drawn: "
                   f"{self.names.agent(first.agent)}'s {len(first.slots):,} classes as tiles")
        for level in self.levels[1:]:
            caption += (f"; the actual one opened into {self.names.agent(level.agent)}'s "
                        f"{len(level.slots):,} classes")
        if inner is not None:
            caption += (f"; the actual one of those opened into its "
                        f"{_plural(int(cell.size), 'world')}, every one drawn")
        agents = tuple(dict.fromkeys(
            [lv.agent for lv in self.levels] + list(inner.agents if inner else ())))
        return Picture(self.width, self._bottom(0) + 2, tuple(marks), tuple(regions),
                       inner.links if inner else (), tuple(texts), caption + ".",
                       inner.drawn_worlds if inner else 0, agents)


def layout_for(model: KripkeModel, focus: Agent, names: Names | None = None, *,
               width: float = WIDTH) -> WorldsLayout:
    """Every world in a class grid if few enough, else a summary by classes."""
    if model.n_worlds <= DRAWN_LIMIT:
        return ClassGrid(model, focus, names, width=width)
    return ClassSummary(model, focus, names or PlainNames(), width)



