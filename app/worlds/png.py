"""A ``Picture`` as a PNG, for slides and documents that take no SVG: the same marks, regions,
lines and texts as ``app.worlds.svg``, drawn by matplotlib's Agg renderer (already a
dependency) in the light theme's colours. One unit of the picture is one point, so text keeps
the size the layout chose; ``scale`` sets the pixels per point. Boxes lie under the lines and
the lines under the worlds, as on the page, and a key under the picture names each agent's
colour (a PNG on a slide has no page beside it to explain them)."""

from __future__ import annotations

import io
import math
from collections.abc import Callable, Mapping

from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure
from matplotlib.patches import Circle, PathPatch, Polygon, Rectangle
from matplotlib.path import Path
from matplotlib.patheffects import withStroke

from app.worlds.layout import FADED, GOING, GONE, LOOP_R, Picture
from kripke.language.formula import Agent

PAPER, INK, BAND, WORLD, GHOST = "#ffffff", "#263238", "#eceff1", "#78909c", "#cfd8dc"
FORMULA, ACTUAL, HIGHLIGHT, RULE = "#1e5bd8", "#ffb300", "#e65100", "#b0bec5"
#: Drawing order: boxes, then the lines joining worlds, then the worlds and their marks.
REGIONS, LINKS = 0.3, 0.6
KEY_LINE = 20.0  # one line of the key under the picture, in points
#: Text roles as the SVG's style draws them: smaller, bold, on a halo of paper.
SMALL = {"count", "atoms", "ghost"}
BOLD = {"heading", "node", "edge"}
HALOED = {"count", "node", "atoms", "edge", "ghost"}


def _star(x: float, y: float, r: float) -> list[tuple[float, float]]:
    return [(x + (r if i % 2 == 0 else r * 0.45) * math.cos(-math.pi / 2 + i * math.pi / 5),
             y + (r if i % 2 == 0 else r * 0.45) * math.sin(-math.pi / 2 + i * math.pi / 5))
            for i in range(10)]


def picture_png(picture: Picture, colour: Callable[[Agent], str], scale: float = 2.0,
                names: Mapping[Agent, str] | None = None) -> bytes:
    """The picture as PNG bytes (a white background, ``scale`` pixels per unit), with a key
    of its agents' colours (``names``: what to call each agent) under it."""
    key = _key_items(picture, names or {}) if picture.agents else []
    height = picture.height + KEY_LINE * len(key) + (8 if key else 0)
    fig = Figure(figsize=(picture.width / 72, height / 72), dpi=72 * scale)
    FigureCanvasAgg(fig)
    ax = fig.add_axes((0, 0, 1, 1))
    ax.set_xlim(0, picture.width)
    ax.set_ylim(height, 0)
    ax.set_axis_off()
    fig.patch.set_facecolor(PAPER)
    for region in sorted(picture.regions, key=lambda g: (g.actual, g.kind == "row")):
        c = colour(region.agent)
        if region.kind == "row" and not region.actual:
            continue
        box = ((region.x, region.y), region.w, region.h)
        if region.kind in ("row", "panel"):
            ax.add_patch(Rectangle(*box, fill=False, edgecolor=c, lw=1.5,
                                   linestyle=(0, (6, 3)), zorder=REGIONS))
        elif region.actual:
            ax.add_patch(Rectangle(*box, facecolor=c, alpha=0.16, zorder=REGIONS))
            ax.add_patch(Rectangle(*box, fill=False, edgecolor=c, lw=1.9, zorder=REGIONS))
        else:
            ax.add_patch(Rectangle(*box, facecolor=BAND, edgecolor=PAPER, lw=1.5,
                                   zorder=REGIONS))
    for k in picture.links:
        if k.edge:
            lw, alpha = (2.0, 1.0) if k.actual else (1.4, 0.9)
        else:
            lw, alpha = (1.8, 0.95) if k.actual else (0.9, 0.4)
        if k.loop:
            ax.add_patch(Circle((k.x2, k.y2), LOOP_R, fill=False, edgecolor=colour(k.agent),
                                lw=lw, alpha=alpha, zorder=LINKS))
        else:
            ax.add_patch(PathPatch(Path([(k.x1, k.y1), k.control(), (k.x2, k.y2)],
                                        [Path.MOVETO, Path.CURVE3, Path.CURVE3]),
                                   fill=False, edgecolor=colour(k.agent), lw=lw, alpha=alpha,
                                   capstyle="round", zorder=LINKS))
        for points in k.heads():  # each ends at a world's rim, so no world hides it
            ax.add_patch(Polygon(points, closed=True, facecolor=colour(k.agent),
                                 edgecolor="none", alpha=alpha, zorder=LINKS))
    order = {GONE: 0, GOING: 1}
    for m in sorted(picture.marks, key=lambda m: (order.get(m.state, 2), m.actual)):
        faded = m.state == FADED
        if m.state in (GONE, GOING):
            if m.tile:
                ax.add_patch(Rectangle((m.x - m.slot / 2, m.y - m.slot / 2), m.slot, m.slot,
                                       fill=False, edgecolor=RULE, lw=0.6, linestyle=":"))
            else:
                ax.add_patch(Circle((m.x, m.y), max(m.r * 0.3, 1.5), color=GHOST))
            continue
        fill, edge, width = WORLD, INK, 0.8
        if m.holds is not None:
            if m.holds == 0:
                fill, edge, width = PAPER, FORMULA, 1.6
            else:
                fill, edge = FORMULA, FORMULA
        alpha = 0.55 if faded else 1.0
        if m.tile:
            ax.add_patch(Rectangle((m.x - m.slot / 2, m.y - m.slot / 2), m.slot, m.slot,
                                   fill=False, edgecolor=RULE, lw=0.6, linestyle=":"))
            ax.add_patch(Rectangle((m.x - m.r, m.y - m.r), 2 * m.r, 2 * m.r, facecolor=fill,
                                   edgecolor=edge, lw=width * 0.6, alpha=alpha))
            if m.actual:
                ax.add_patch(Polygon(_star(m.x, m.y, min(max(m.slot * 0.16, 4), 6.5)),
                                     facecolor=ACTUAL, edgecolor=INK, lw=0.8))
            continue
        if m.node:  # a textbook graph's node, doubly circled when actual
            ax.add_patch(Circle((m.x, m.y), m.r, facecolor=PAPER if fill == WORLD else fill,
                                edgecolor=edge, lw=1.2, alpha=alpha,
                                linestyle=":" if faded else "-"))
            if m.actual:
                ax.add_patch(Circle((m.x, m.y), m.r + 4, fill=False, edgecolor=INK, lw=1.2))
            if m.highlight:
                ax.add_patch(Circle((m.x, m.y), m.r + 8, fill=False, edgecolor=HIGHLIGHT,
                                    lw=1.9, linestyle=(0, (4, 2))))
            continue
        r = max(m.r * 1.35, 8.0) if m.actual else m.r * (0.75 if faded else 1.0)
        ax.add_patch(Circle((m.x, m.y), r, facecolor=fill, edgecolor=edge, lw=width,
                            alpha=alpha, linestyle=":" if faded else "-"))
        if m.actual:
            ax.add_patch(Polygon(_star(m.x, m.y, r * 0.8), facecolor=ACTUAL, edgecolor=INK,
                                 lw=0.9))
        if m.highlight:
            ax.add_patch(Circle((m.x, m.y), max(r, 6) + 4, fill=False, edgecolor=HIGHLIGHT,
                                lw=1.9, linestyle=(0, (4, 2))))
    # every text as written (parse_math=False): a name is the user's, and matplotlib reads
    # text between two '$' as mathtext, drawn as maths or refused with a ValueError
    for t in picture.texts:
        haloed = t.role in HALOED
        ax.text(t.x, t.y, t.text, ha={"start": "left", "end": "right"}.get(t.anchor, "center"),
                va="baseline", fontsize=11 if t.role in SMALL else 12, family="sans-serif",
                color=colour(t.agent) if t.agent is not None else INK,
                alpha=0.4 if t.role == "ghost" else 1.0,
                path_effects=[withStroke(linewidth=3, foreground=PAPER)] if haloed else None,
                fontweight="bold" if t.role in BOLD or t.agent is not None else "normal",
                parse_math=False)
    _key(ax, picture, colour, key)
    out = io.BytesIO()
    fig.savefig(out, format="png", facecolor=PAPER)
    return out.getvalue()


def _key_items(picture: Picture, names: Mapping[Agent, str]
               ) -> list[list[tuple[Agent | None, str, float]]]:
    """The key's entries (an agent and its name, or None for the star), each placed at its x,
    in lines that fit the picture's width."""
    entries: list[tuple[Agent | None, str]] = [(a, names.get(a, str(a))) for a in picture.agents]
    if any(m.actual for m in picture.marks):  # as the picture marks it
        entries.append((None, "the actual world (doubly circled)"
                        if any(m.node for m in picture.marks) else "the actual world"))
    lines: list[list[tuple[Agent | None, str, float]]] = [[]]
    x = 8.0
    for agent, label in entries:
        width = 22 + 7.2 * len(label)  # a swatch, a gap and the text at 11 points
        if lines[-1] and x + width > picture.width:
            lines.append([])
            x = 8.0
        lines[-1].append((agent, label, x))
        x += width + 8
    return lines


def _key(ax, picture: Picture, colour: Callable[[Agent], str],
         lines: list[list[tuple[Agent | None, str, float]]]) -> None:
    """Under the picture: a swatch and a name per agent, then how the actual world is marked
    (a star, or in the graph a double circle)."""
    for row, line in enumerate(lines):
        y = picture.height + KEY_LINE * (row + 0.5) + 4
        for agent, label, x in line:
            if agent is None and any(m.node for m in picture.marks):  # the graph's node
                for r in (6.0, 3.8):
                    ax.add_patch(Circle((x + 5, y), r, facecolor=PAPER, edgecolor=INK, lw=1.0))
            elif agent is None:
                ax.add_patch(Polygon(_star(x + 5, y, 6.5), facecolor=ACTUAL, edgecolor=INK,
                                     lw=0.8))
            else:
                ax.add_patch(Rectangle((x, y - 5), 10, 10, facecolor=colour(agent),
                                       edgecolor=INK, lw=0.5))
            ax.text(x + 15, y + 4, label, ha="left", va="baseline", fontsize=11,
                    family="sans-serif", color=INK, parse_math=False)
