"""A ``Picture`` as one SVG document, styled by CSS variables so the page's theme reaches it.

Server-rendered SVG rather than pyvis/vis-network: vis-network draws on a canvas, cannot draw a
class as a box or band behind its worlds (only nodes and edges), scales its labels with the
zoom (so their size on screen is not ours to fix) and rebuilds its whole page on every step.
An SVG keeps every position we computed, text at the size we set, a hover title per world, and
costs the browser one innerHTML per step; a world removed by the last update carries the class
``going`` and fades out by CSS animation where it stood. Dark mode only swaps the variables.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from html import escape

from app.worlds.layout import FADED, GOING, GONE, LOOP_R, Link, Mark, Picture, Region, Text
from kripke.language.formula import Agent

#: Light and dark values of the picture's colours; the formula's blue is no player's colour.
STYLE = """
.ttr-pic { --paper:#ffffff; --ink:#263238; --band:#eceff1; --rule:#b0bec5; --world:#78909c;
  --ghost:#cfd8dc; --formula:#1e5bd8; --actual:#ffb300; --hl:#e65100; background:var(--paper); }
.theme--dark .ttr-pic { --paper:#1c2126; --ink:#eceff1; --band:#2a3138; --rule:#546e7a;
  --world:#b0bec5; --ghost:#3d4750; --formula:#6ea8ff; }
.ttr-pic text { fill:var(--ink); font-size:12px; font-family:sans-serif; }
.ttr-pic text.heading { font-weight:600; }
.ttr-pic text.count, .ttr-pic text.ghost { font-size:11px; stroke:var(--paper);
  stroke-width:3px; paint-order:stroke; stroke-linejoin:round; }
.ttr-pic text.ghost { opacity:.45; }
.ttr-pic .w circle.base { fill:var(--world); stroke:var(--ink); stroke-width:1; }
.ttr-pic .w.holds circle.base { fill:var(--formula); stroke:var(--formula); }
.ttr-pic .w.fails circle.base { fill:var(--paper); stroke:var(--formula); stroke-width:2.2; }
.ttr-pic .w.faded circle.base { stroke-dasharray:2 2; opacity:.55; }
.ttr-pic .w.faded:not(.holds):not(.fails) circle.base { fill:var(--ghost); }
.ttr-pic .w:hover circle.base, .ttr-pic .w:hover rect.base { stroke-width:3; }
.ttr-pic .ghost { fill:var(--ghost); }
.ttr-pic .star { fill:var(--actual); stroke:var(--ink); stroke-width:1.2; }
.ttr-pic .hl { fill:none; stroke:var(--hl); stroke-width:2.5; stroke-dasharray:4 2; }
.ttr-pic rect.slot { fill:none; stroke:var(--rule); stroke-width:.8; stroke-dasharray:2 2; }
.ttr-pic .w rect.base { fill:var(--world); stroke:var(--ink); stroke-width:.6; }
.ttr-pic .w.holds rect.base { fill:var(--formula); }
.ttr-pic .w.some rect.base { fill:var(--formula); fill-opacity:.45; stroke:var(--formula); }
.ttr-pic .w.fails rect.base { fill:var(--paper); stroke:var(--formula); stroke-width:1.5; }
.ttr-pic .w.faded rect.base { opacity:.5; stroke-dasharray:3 2; stroke-width:1.2; }
.ttr-pic .w.faded:not(.holds):not(.fails):not(.some) rect.base { fill:none; opacity:1;
  stroke:var(--world); }
.ttr-pic .band { fill:var(--band); }
.ttr-pic text.node, .ttr-pic text.atoms, .ttr-pic text.edge, .ttr-pic text.ghost {
  stroke:var(--paper); stroke-width:3px; paint-order:stroke; stroke-linejoin:round; }
.ttr-pic text.node { font-weight:600; }
.ttr-pic text.atoms { font-size:11px; }
.ttr-pic text.edge { font-size:12px; font-weight:700; }
.ttr-pic text.ghost { font-size:11px; opacity:.4; }
.ttr-pic .node:not(.holds):not(.fails) circle.base { fill:var(--paper); }
.ttr-pic .node circle.base { stroke-width:1.6; }
.ttr-pic .node.faded:not(.holds):not(.fails) circle.base { fill:var(--ghost); }
.ttr-pic .ring { fill:none; stroke:var(--ink); stroke-width:1.6; }
.ttr-pic .lv1 circle.base { fill-opacity:.55; }
.ttr-pic .lv2 circle.base { fill-opacity:.3; }
.ttr-pic .lv3 circle.base { fill-opacity:.12; }
.ttr-pic .bel { fill:none; stroke:var(--ink); stroke-width:2.2; }
.ttr-pic rect.bel { stroke-width:2.8; }
.ttr-pic .bel.dropped { stroke-dasharray:3 2.5; stroke-width:1.8; opacity:.8; }
.ttr-pic .going { animation: ttr-fade 1.4s ease-out forwards; }
@keyframes ttr-fade { from { opacity:1; } to { opacity:0; } }
"""


def _attr(value: object) -> str:
    """A value inside a double-quoted attribute: an agent's name is the user's text (a model
    written by hand, a share link), so it is escaped like every other text written here."""
    return escape(str(value), quote=True)


def _star(x: float, y: float, r: float) -> str:
    points = []
    for i in range(10):
        radius = r if i % 2 == 0 else r * 0.45
        a = -math.pi / 2 + i * math.pi / 5
        points.append(f"{x + radius * math.cos(a):.1f},{y + radius * math.sin(a):.1f}")
    return f'<polygon class="star" points="{" ".join(points)}"/>'


def _region(r: Region, colour: str) -> str:
    title = f"<title>{escape(r.title)}</title>" if r.title else ""
    box = f'x="{r.x:.1f}" y="{r.y:.1f}" width="{r.w:.1f}" height="{r.h:.1f}"'
    if r.kind == "row":
        if not r.actual:
            return ""
        return (f'<rect {box} style="fill:none;stroke:{colour}" stroke-width="2" '
                f'stroke-dasharray="6 3" data-class-of="{_attr(r.agent)}" data-actual="1">{title}'
                "</rect>")
    if r.kind == "panel":
        return (f'<rect {box} rx="8" style="fill:none;stroke:{colour}" stroke-width="2" '
                f'stroke-dasharray="8 4" data-panel-of="{_attr(r.agent)}"/>')
    rx = 3 if r.kind == "column" else 6
    if r.actual:
        return (f'<rect {box} rx="{rx}" style="fill:{colour};stroke:{colour}" '
                f'fill-opacity=".16" stroke-width="2.5" data-class-of="{_attr(r.agent)}" '
                f'data-actual="1">{title}</rect>')
    return (f'<rect {box} rx="{rx}" class="band" stroke="var(--paper)" stroke-width="2" '
            f'data-class-of="{_attr(r.agent)}">{title}</rect>')


def _formula_class(m: Mark) -> str:
    if m.holds is None:
        return ""
    if m.holds == 0:
        return " fails"
    return " holds" if m.holds >= m.worlds else " some"


def _mark(m: Mark) -> str:
    title = f"<title>{escape(m.title)}</title>"
    if m.tile:
        slot = (f'<rect class="slot" x="{m.x - m.slot / 2:.1f}" y="{m.y - m.slot / 2:.1f}" '
                f'width="{m.slot:.1f}" height="{m.slot:.1f}"/>')
        if m.state in (GONE, GOING):
            gone = f'<g data-tile="{m.key}" data-state="{m.state}">{title}{slot}</g>'
            if m.state == GOING:
                gone += (f'<rect class="going" x="{m.x - m.r:.1f}" y="{m.y - m.r:.1f}" '
                         f'width="{2 * m.r:.1f}" height="{2 * m.r:.1f}" fill="var(--world)"/>')
            return gone
        cls = "w" + (" faded" if m.state == FADED else "") + _formula_class(m)
        # small, so the tile's name above it and its number below stay clear
        star = _star(m.x, m.y + 0.5, min(max(m.slot * 0.16, 4), 6.5)) if m.actual else ""
        ring = "" if not m.belief else (  # a tile holding believed deals: ringed inside its slot
            f'<rect class="bel" x="{m.x - m.slot / 2 + 2:.1f}" y="{m.y - m.slot / 2 + 2:.1f}" '
            f'width="{m.slot - 4:.1f}" height="{m.slot - 4:.1f}" rx="3"/>')
        return (f'<g class="{cls}" data-tile="{m.key}" data-state="{m.state}"'
                f'{_belief_data(m)}>{title}{slot}'
                f'<rect class="base" x="{m.x - m.r:.1f}" y="{m.y - m.r:.1f}" '
                f'width="{2 * m.r:.1f}" height="{2 * m.r:.1f}"/>{ring}{star}</g>')
    if m.state in (GONE, GOING):
        ghost = (f'<circle class="ghost" data-world="{m.key[1:]}" data-state="{m.state}" '
                 f'cx="{m.x:.1f}" cy="{m.y:.1f}" r="{max(m.r * 0.3, 1.5):.1f}"'
                 f'{_belief_data(m)}>{title}</circle>')
        if m.state == GOING:
            ghost += (f'<circle class="going" cx="{m.x:.1f}" cy="{m.y:.1f}" r="{m.r:.1f}" '
                      'fill="var(--world)"/>')
        if m.belief:  # a believed world the facts removed: its dashed ring stays this step
            ghost += (f'<circle class="bel dropped" cx="{m.x:.1f}" cy="{m.y:.1f}" '
                      f'r="{m.r + 3:.1f}"/>')
        return ghost
    cls = ("w" + (" node" if m.node else "") + (" faded" if m.state == FADED else "")
           + _formula_class(m) + (f" lv{min(m.level, 3)}" if m.level else ""))
    r = m.r * (0.75 if m.state == FADED and not m.node else 1.0)
    if m.level:  # less plausible, smaller: the believed worlds stand out in their class
        r *= (1.0, 0.86, 0.74, 0.64)[min(m.level, 3)]
    body = f'<circle class="base" cx="{m.x:.1f}" cy="{m.y:.1f}" r="{r:.1f}"/>'
    if m.actual and m.node:  # the textbook's double circle
        body += f'<circle class="ring" cx="{m.x:.1f}" cy="{m.y:.1f}" r="{r + 4:.1f}"/>'
        r += 4  # a highlight below goes round both circles
    elif m.actual:
        r = max(m.r * 1.35, 8.0)  # the ring below goes round the bigger disc, clear of it
        body = (f'<circle class="base" cx="{m.x:.1f}" cy="{m.y:.1f}" r="{r:.1f}"/>'
                + _star(m.x, m.y, r * 0.8))
    if m.belief:
        cls_bel = "bel" + (" dropped" if m.belief == "dropped" else "")
        body += (f'<circle class="{cls_bel}" cx="{m.x:.1f}" cy="{m.y:.1f}" '
                 f'r="{max(r, m.r) + 3:.1f}"/>')
    if m.highlight:
        body += f'<circle class="hl" cx="{m.x:.1f}" cy="{m.y:.1f}" r="{max(r, 6) + 4:.1f}"/>'
    actual = ' data-actual="1"' if m.actual else ""
    return (f'<g class="{cls}" data-world="{m.key[1:]}" data-state="{m.state}"{actual}'
            f"{_belief_data(m)}>{title}{body}</g>")


def _belief_data(m: Mark) -> str:
    """A world's plausibility level and belief as data attributes (what a test reads)."""
    return ((f' data-level="{m.level}"' if m.level is not None else "")
            + (f' data-belief="{m.belief}"' if m.belief else ""))


def _link(k: Link, colour: str) -> str:
    """A chain's segment (faint unless in the actual class), or a graph's edge (full strength,
    curved when bent), with its heads if it is an arrow; a loop as a small circle."""
    if k.edge:
        width, opacity = (2.6, 1.0) if k.actual else (1.8, 0.9)
    else:
        width, opacity = (2.4, 0.95) if k.actual else (1.2, 0.4)
    style = (f'style="stroke:{colour}" stroke-width="{width}" stroke-opacity="{opacity}" '
             f'stroke-linecap="round" data-link-of="{_attr(k.agent)}"')
    heads = "".join(
        f'<polygon points="{" ".join(f"{x:.1f},{y:.1f}" for x, y in points)}" '
        f'style="fill:{colour}" fill-opacity="{opacity}" data-head-of="{_attr(k.agent)}"/>'
        for points in k.heads())
    if k.loop:
        return (f'<circle cx="{k.x2:.1f}" cy="{k.y2:.1f}" r="{LOOP_R:.1f}" fill="none" '
                f'{style} data-loop="1"/>{heads}')
    if not k.bend:
        return (f'<line x1="{k.x1:.1f}" y1="{k.y1:.1f}" x2="{k.x2:.1f}" y2="{k.y2:.1f}" '
                f'{style}/>{heads}')
    cx, cy = k.control()
    return (f'<path d="M{k.x1:.1f},{k.y1:.1f} Q{cx:.1f},{cy:.1f} {k.x2:.1f},{k.y2:.1f}" '
            f'fill="none" {style}/>{heads}')


def _text(t: Text, colour: Callable[[Agent], str]) -> str:
    fill = f' style="fill:{colour(t.agent)}"' if t.agent is not None else ""
    weight = ' font-weight="600"' if t.agent is not None and t.role == "axis" else ""
    return (f'<text class="{t.role}" x="{t.x:.1f}" y="{t.y:.1f}" text-anchor="{t.anchor}"'
            f"{fill}{weight}>{escape(t.text)}</text>")


def picture_svg(picture: Picture, colour: Callable[[Agent], str], *,
                testid: str = "worlds-picture") -> str:
    """The picture as an SVG that fills its container's width at the picture's aspect."""
    parts = [f"<style>{STYLE}</style>"]
    # regions: plain bands first, then the actual classes on top of them
    ordered = sorted(picture.regions, key=lambda r: (r.actual, r.kind == "row"))
    parts += [_region(r, colour(r.agent)) for r in ordered]
    parts += [_link(k, colour(k.agent)) for k in picture.links]
    # ghosts under the live worlds, the actual world last (on top)
    order = {GONE: 0, GOING: 1}
    marks = sorted(picture.marks, key=lambda m: (order.get(m.state, 2), m.actual))
    parts += [_mark(m) for m in marks]
    parts += [_text(t, colour) for t in picture.texts]
    return (f'<svg class="ttr-pic" viewBox="0 0 {picture.width:.0f} {picture.height:.0f}" '
            f'xmlns="http://www.w3.org/2000/svg" role="img" data-testid="{testid}" '
            f'data-drawn-worlds="{picture.drawn_worlds}" aria-label="{escape(picture.caption)}" '
            f'style="width:100%;height:auto;display:block">{"".join(parts)}</svg>')
