"""The plane geometry every drawing of a model shares (the page's graph, its SVG and PNG, the TikZ
for slides): an edge is a quadratic curve bent ``bend`` units off its chord, and an edge may
never run through a world it does not join, since the picture would show a link that does not
exist. One place, so a slide and the page bend the same edge the same way. A plausibility
order is drawn in levels (:func:`level_places`), alike on both.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence

Point = tuple[float, float]
#: Sample points per curve when checking its clearance (ends excluded: they touch their nodes).
SAMPLES = 24


def bend_control(x1: float, y1: float, x2: float, y2: float, bend: float) -> Point:
    """The control point ``bend`` off the middle of (x1, y1)–(x2, y2), left of travel."""
    length = math.hypot(x2 - x1, y2 - y1) or 1.0
    return ((x1 + x2) / 2 - (y2 - y1) / length * bend,
            (y1 + y2) / 2 + (x2 - x1) / length * bend)


def curve_point(p: Point, q: Point, bend: float, t: float) -> Point:
    """The point at ``t`` (0 at p, 1 at q) of the quadratic curve from p to q bent ``bend``."""
    cx, cy = bend_control(p[0], p[1], q[0], q[1], bend)
    u = 1 - t
    return (u * u * p[0] + 2 * u * t * cx + t * t * q[0],
            u * u * p[1] + 2 * u * t * cy + t * t * q[1])


def clearance(p: Point, q: Point, bend: float, others: Iterable[Point]) -> float:
    """How close the curve from p to q comes to any of ``others`` (infinite if none)."""
    points = [curve_point(p, q, bend, k / SAMPLES) for k in range(1, SAMPLES)]
    return min((math.dist(a, o) for o in others for a in points), default=math.inf)


def clear_bend(p: Point, q: Point, others: Iterable[Point], gap: float,
               fan: Sequence[float] = (0.0,)) -> float:
    """The least bend (0 first, then either side, up to a half circle) whose curve from p to q
    keeps ``gap`` from every one of ``others``; failing that, the bend that keeps farthest.
    ``fan``: the offsets of parallel curves drawn beside it (one per agent on the pair), which
    must all keep clear."""
    around = list(others)
    length = math.dist(p, q) or 1.0
    best = (-1.0, 0.0)
    for k in range(11):  # up to 0.9 of the chord: a curve that bulges like a half circle
        for side in ((1,) if k == 0 else (1, -1)):
            bend = side * k * length * 0.09
            room = min(clearance(p, q, bend + f, around) for f in fan)
            if room >= gap:
                return bend
            best = max(best, (room, bend))
    return best[1]


def level_places(ids: Sequence[int], keys: Sequence[int], levels: Sequence[int]
                 ) -> dict[int, Point]:
    """Each world (by id) at (column, level): an agent's classes (``keys``) side by side in
    the order of their first world, each as wide as its widest level, the worlds of a level
    in a row, level 0 (the most plausible) on top (y grows downwards, as on screen)."""
    place: dict[int, Point] = {}
    left = 0.0
    for key in dict.fromkeys(keys):
        used: dict[int, int] = {}
        for wid, k, level in zip(ids, keys, levels, strict=True):
            if k == key:
                column = used.get(level, 0)
                used[level] = column + 1
                place[wid] = (left + column, float(level))
        left += max(used.values()) + 0.6
    return place
