"""The worlds graph as an interactive page (pyvis): one HTML file a teacher opens in any browser,
with no network, and pulls apart by hand.

The pictures of ``app.worlds`` are still images; a dense model (the 32 worlds of the dining
cryptographers, whose edges cross however they are placed) reads better when a teacher can
drag its worlds apart in front of the class. pyvis builds the vis-network page: a node per
world (its name beside it; its atoms, and whether it is the actual world, on hover; the actual
world with a thick ring), an edge per pair an agent relates, in the agent's colour
(:mod:`app.worlds.palette`, as on the page and the slides) and labelled with it, drawn as the
textbook graph draws them (``app.worlds.graph``): for an S5 model a line per pair of worlds in
a class, no loops; for any other an arrow per arrow (one line with two heads for a pair of
opposite arrows) and loops, but for an agent whose relation is reflexive. Worlds start where
the textbook graph puts them (``positions``) and stay still; without positions the physics
places them once and stops, so a world dragged stays where it is dropped.

The page is self-contained: vis-network's script and styles are inlined from pyvis's own copy
(``cdn_resources="in_line"``), through a template of our own (``templates/interactive.html``),
since pyvis's loads Bootstrap from a CDN. World and agent names are the user's text: the
nodes and edges reach the page's script as JSON escaped for it, vis-network writes a label on
its canvas and a hover text as text, and the title and legend are escaped HTML.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from html import escape
from pathlib import Path
from typing import Any

import pyvis
from pyvis.network import Network

from app.worlds.palette import agent_colour
from kripke.errors import ModelError, ModelTooLargeError
from kripke.kernel import Listing
from kripke.language.formula import Agent
from kripke.parts import Drawn

#: The most worlds the page draws: past it, the physics takes long and a teacher drags nothing
#: apart (the class views summarise bigger models).
HTML_WORLDS = 300
#: The most edges: one S5 class of 300 worlds alone has 44,850 pairs.
HTML_EDGES = 5_000
#: Past this many edges they carry no label (the 192 of the dining cryptographers' 32 worlds
#: would be a carpet of names): their colour says the agent, and so does each one's hover.
LABELLED = 60
#: The drawing's larger side, in the page's units, whatever units the positions came in.
SPAN = 700.0
TEMPLATES = Path(__file__).with_name("templates")
#: A marker in the template where the legend goes (pyvis hands a template no other text).
LEGEND = "<!--legend-->"


@dataclass(frozen=True)
class Edge:
    """One drawn edge: an agent's, between two worlds (ids; the same one for a loop), with
    arrowheads as vis-network writes them ("" for an S5 line, "to", or "to, from")."""

    agent: Agent
    source: int
    target: int
    heads: str


def drawn_edges(model: Drawn) -> list[Edge]:
    """The edges the page draws, as the textbook graph draws them (see the module), read
    from the model's listing."""
    listing = model.listing(model.n_worlds)
    ids = listing.ids
    s5 = listing.partitions
    found = []
    for agent, arrows, properties in zip(listing.agents, listing.arrows, listing.properties,
                                         strict=True):
        given = set(arrows)
        loops = not s5 and "reflexive" not in properties
        for w, v in arrows:
            if w == v:
                if loops:
                    found.append(Edge(agent, ids[w], ids[w], "to"))
            elif (v, w) not in given:
                found.append(Edge(agent, ids[w], ids[v], "to"))
            elif w < v:  # a pair both ways: one line
                found.append(Edge(agent, ids[w], ids[v], "" if s5 else "to, from"))
    return found


def interactive_html(model: Drawn, *, title: str = "",
                     name: Callable[[Any, int], str] | None = None,
                     describe: Callable[[Any, int], str] | None = None,
                     agent_names: Mapping[Agent, str] | None = None,
                     positions: Mapping[int, tuple[float, float]] | None = None) -> str:
    """The page for ``model``: each world labelled ``name`` (default its own name), described
    on hover by ``describe`` when given and by its atoms; agents called as ``agent_names``
    says; worlds at ``positions`` (by id, any units) when given, else placed by the physics.
    Refused (a ValueError: one line on the command line) past ``HTML_WORLDS`` worlds
    (``ModelTooLargeError``) or ``HTML_EDGES`` edges, before any page is built."""
    if model.n_worlds > HTML_WORLDS:
        raise ModelTooLargeError(model.n_worlds, HTML_WORLDS, task="to draw interactively",
                                 advice="draw it after more steps")
    edges = drawn_edges(model)
    if len(edges) > HTML_EDGES:
        raise ModelError(f"the model's {model.n_worlds:,} worlds have {len(edges):,} edges, more "
                         f"than {HTML_EDGES:,} to draw interactively; announce something first")
    called = {a: (agent_names or {}).get(a, str(a)) for a in model.agents}
    colour = {a: agent_colour(i) for i, a in enumerate(model.agents)}
    net = Network(height="80vh", width="100%", directed=True, heading=title,
                  cdn_resources="in_line")
    net.set_template_dir([str(TEMPLATES), str(Path(pyvis.__file__).with_name("templates"))],
                         "interactive.html")
    listing = model.listing(HTML_WORLDS)
    ids = list(listing.ids)
    own_names = dict(zip(ids, listing.names, strict=True))
    placed = _scaled(positions, ids)
    for index, wid in enumerate(ids):
        own = name(model, index) if name else own_names[wid]
        actual = index == listing.actual
        true = [str(a) for a in listing.atoms if a in listing.true[index]]
        hover = [own, *([describe(model, index)] if describe else []),
                 f"true here: {', '.join(true)}" if true else "no atom true here",
                 *(["the actual world"] if actual else [])]
        where = {"x": placed[wid][0], "y": placed[wid][1]} if placed else {}
        net.add_node(wid, label=own, title="\n".join(hover), borderWidth=5 if actual else 1,
                     color={"background": "#fff59d" if actual else "#e3f2fd",
                            "border": "#212121" if actual else "#546e7a"}, **where)
    labelled = len(edges) <= LABELLED
    for edge, curve in zip(edges, _curves(edges), strict=True):
        net.add_edge(edge.source, edge.target, arrows=edge.heads, color=colour[edge.agent],
                     **({"label": called[edge.agent]} if labelled else {}), smooth=curve,
                     title=f"{called[edge.agent]}: {_pair(own_names, edge)}",
                     selfReference={"size": 18,
                                    "angle": model.agents.index(edge.agent) * math.pi / 2})
    net.set_options(json.dumps({
        "physics": {"enabled": not placed, "stabilization": {"iterations": 400}},
        "interaction": {"dragNodes": True, "hover": True, "tooltipDelay": 100},
        "nodes": {"shape": "dot", "size": 12, "font": {"size": 16}},
        "edges": {"width": 2, "font": {"size": 13, "align": "middle", "strokeWidth": 4}},
    }))
    return net.generate_html().replace(LEGEND, _legend(listing, called, colour, labelled), 1)


def _legend(listing: Listing, called: Mapping[Agent, str], colour: Mapping[Agent, str],
            labelled: bool) -> str:
    """The agents' colours and how to read and handle the drawing, as escaped HTML."""
    legend = "".join(f"<span class='agent'><span style='color:{colour[a]}'>■</span> "
                     f"{escape(called[a])}</span>" for a in listing.agents)
    s5 = listing.partitions
    reflexive = [called[a] for a, properties in zip(listing.agents, listing.properties,
                                                     strict=True)
                 if not s5 and "reflexive" in properties]
    legend += escape(
        "\nDrag a world to move it; hover a world for what holds there"
        + ("" if labelled else ", an edge for its agent") + ". The thick ring: the actual world. "
        + ("A line in an agent's colour joins two worlds it cannot tell apart (each world "
           "also to itself: those loops are left out)." if s5 else
           "An arrow in an agent's colour: from a world to one it considers possible there "
           "(two heads: both ways; a loop: the world itself)."
           + (f" Loops left out for {', '.join(reflexive)}: every world has one."
              if reflexive else ""))).replace("\n", "<br>")
    return legend


def _pair(names: Mapping[int, str], edge: Edge) -> str:
    """An edge in words, for its hover text (worlds by their own names)."""
    a, b = names[edge.source], names[edge.target]
    if edge.source == edge.target:
        return f"from {a} to itself"
    return f"{a} and {b}" if edge.heads in ("", "to, from") else f"from {a} to {b}"


def _curves(edges: list[Edge]) -> list[dict[str, object]]:
    """Each edge's curve: straight when it is alone on its pair, else fanned out, one curve
    per agent, so several agents on one pair are each seen and each labelled."""
    on: dict[tuple[int, int], list[int]] = {}
    for i, e in enumerate(edges):
        if e.source != e.target:
            on.setdefault((min(e.source, e.target), max(e.source, e.target)), []).append(i)
    curves: list[dict[str, object]] = [{"enabled": False} for _ in edges]
    for members in on.values():
        if len(members) < 2:
            continue
        for k, i in enumerate(members):
            # a curve's side is the edge's own: turn it when the edge runs the other way
            flip = edges[i].source > edges[i].target
            side = ("curvedCW" if k % 2 == 0 else "curvedCCW")
            if flip:
                side = "curvedCCW" if side == "curvedCW" else "curvedCW"
            curves[i] = {"enabled": True, "type": side, "roundness": 0.15 * (k // 2 + 1)}
    return curves


def _scaled(positions: Mapping[int, tuple[float, float]] | None, ids: list[int]
            ) -> dict[int, tuple[float, float]] | None:
    """The positions of ``ids`` spread over ``SPAN`` units (None unless all are placed)."""
    if not positions or any(w not in positions for w in ids):
        return None
    xs = [positions[w][0] for w in ids]
    ys = [positions[w][1] for w in ids]
    side = max(max(xs) - min(xs), max(ys) - min(ys)) or 1.0
    return {w: ((positions[w][0] - min(xs)) * SPAN / side,
                (positions[w][1] - min(ys)) * SPAN / side) for w in ids}
