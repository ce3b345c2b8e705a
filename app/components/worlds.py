"""The possible-worlds graph: the worlds still left, drawn with pyvis at fixed positions.

Positions are given to a world the first time it is drawn and never move afterwards (see
``WorldLayout.place``), and the viewport is the box around every world ever placed, so a world
removed by an announcement visibly disappears where it stood.
Above ``MAX_DRAWN`` worlds the picture is one agent's class (the worlds it considers possible),
and above that a fixed sample of the class: a browser never receives more than ``MAX_DRAWN``.

pyvis's own page template pulls Bootstrap from a CDN whatever ``cdn_resources`` says, so the
page is rendered from the small template below, which inlines pyvis's bundled vis-network
(``cdn_resources="in_line"``): nothing is fetched from anywhere.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import jinja2
import networkx as nx
import numpy as np
import pyvis
import solara
from mesa.visualization.utils import update_counter
from pyvis.network import Network

from agents.model import TTRModel
from app.components.style import (
    ACTUAL_COLOUR,
    FAILS_COLOUR,
    HOLDS_COLOUR,
    WORLD_COLOUR,
    legend,
    player_colour,
    player_name,
)

MAX_DRAWN = 300
LABELLED = 12  # up to this many drawn worlds carry their deal as a label
SPREAD = 300.0  # pixels per unit of layout distance (a first layout spans [-1, 1])

TEMPLATE = """<!DOCTYPE html>
<html><head><meta charset="utf-8">
<script>{% include 'lib/bindings/utils.js' %}</script>
<style>{% include 'lib/vis-9.1.2/vis-network.css' %}</style>
<script>{% include 'lib/vis-9.1.2/vis-network.min.js' %}</script>
<style>
html, body { margin: 0; height: 100%; background: #fff; font-family: sans-serif; }
#worlds { width: 100%; height: 100%; }
.vis-tooltip { white-space: pre !important; font-family: monospace !important;
               font-size: 13px !important; }
</style></head>
<body data-drawn="0"><div id="worlds"></div>
<script>
var nodes = new vis.DataSet({{ nodes|tojson }});
var edges = new vis.DataSet({{ edges|tojson }});
var network = new vis.Network(document.getElementById("worlds"),
                              {nodes: nodes, edges: edges}, {{ options }});
var box = {{ box|tojson }};
function frame() {
  var el = document.getElementById("worlds");
  var scale = Math.min(el.clientWidth / box.w, el.clientHeight / box.h);
  network.moveTo({position: {x: box.x, y: box.y}, scale: scale});
}
frame();
window.addEventListener("resize", frame);
network.once("afterDrawing", function () { document.body.dataset.drawn = nodes.length; });
</script></body></html>"""

_ENV = jinja2.Environment(loader=jinja2.ChoiceLoader([
    jinja2.DictLoader({"worlds.html": TEMPLATE}),
    jinja2.FileSystemLoader(Path(pyvis.__file__).parent / "templates"),
]), autoescape=False)


@dataclass
class Selection:
    """Which worlds are drawn and what the picture says about the rest."""

    indices: np.ndarray  # sorted indices into the current model
    agent: int | None  # whose class is drawn; None: every world
    total: int  # worlds in the current model
    class_size: int | None = None
    sampled: bool = False

    def caption(self) -> str:
        total = f"{self.total:,} world{'s' * (self.total != 1)}"
        if self.total == 1:
            return "Only the actual world is left: every player knows the whole deal."
        if self.agent is None:
            return f"All {total} drawn."
        who = player_name(self.agent)
        if self.sampled:
            return (f"{total}: too many to draw. {who} considers {self.class_size:,} possible; "
                    f"a fixed sample of {len(self.indices):,} of them is drawn (all joined for "
                    f"{who}: those edges are left out).")
        return (f"{total}: too many to draw; drawn are the {self.class_size:,} "
                f"that {who} considers possible (all joined for {who}: those edges are left "
                "out).")


def _grouped(graph: nx.Graph, agent: int) -> dict[int, tuple[float, float]]:
    """Each class of ``agent`` on a small circle, the classes in world order on a large one."""
    own = nx.Graph()
    own.add_nodes_from(graph)
    own.add_edges_from((u, v) for u, v, d in graph.edges(data=True) if agent in d["agents"])
    groups = sorted((sorted(c) for c in nx.connected_components(own)), key=lambda c: c[0])
    radii = [0.08 * len(g) ** 0.5 if len(g) > 1 else 0.0 for g in groups]
    ring = max(1.0, sum(2.6 * r + 0.05 for r in radii) / (2 * np.pi))
    pos = {}
    for i, (group, r) in enumerate(zip(groups, radii, strict=True)):
        angle = 2 * np.pi * i / len(groups)
        cx, cy = ring * np.cos(angle), ring * np.sin(angle)
        for j, world in enumerate(group):
            a = 2 * np.pi * j / len(group) + angle
            pos[world] = (cx + r * np.cos(a), cy + r * np.sin(a))
    return pos


@dataclass
class WorldLayout:
    """Positions of every world drawn so far in one game, by original world id."""

    pos: dict[int, tuple[float, float]] = field(default_factory=dict)
    samples: dict[int, np.ndarray] = field(default_factory=dict)  # agent -> world ids
    grouping: int | None = None  # the agent whose classes the first picture grouped

    def place(self, graph: nx.Graph, grouping: int) -> None:
        """Give positions to the graph's unplaced worlds, the placed ones held fixed.

        The first picture is drawn in groups: the classes of ``grouping`` (the worlds that
        agent cannot tell apart) each on a small circle, the groups around a large one. Its
        edges are then short chords inside the groups, and the other agents' edges run between
        groups, which reads far better than a spring layout of a graph this dense. Worlds
        drawn later (another agent's class, or everything once few enough are left) are fitted
        in by a spring layout around the ones already placed.
        """
        new = [n for n in graph if n not in self.pos]
        if not new:
            return
        fixed = [n for n in graph if n in self.pos]
        if fixed:
            placed = nx.spring_layout(graph, pos={n: self.pos[n] for n in fixed}, fixed=fixed,
                                      seed=7, iterations=60)
        else:
            placed = _grouped(graph, grouping)
            self.grouping = grouping
        for n in new:
            x, y = placed[n]
            self.pos[n] = (float(x), float(y))

    def pixels(self, world: int) -> tuple[float, float]:
        x, y = self.pos[world]
        return x * SPREAD, y * SPREAD

    def box(self) -> dict[str, float]:
        """Centre and size of everything ever placed: the viewport never moves."""
        xs = [p[0] * SPREAD for p in self.pos.values()] or [0.0]
        ys = [p[1] * SPREAD for p in self.pos.values()] or [0.0]
        margin = 50.0
        return {"x": (min(xs) + max(xs)) / 2, "y": (min(ys) + max(ys)) / 2,
                "w": max(xs) - min(xs) + 2 * margin, "h": max(ys) - min(ys) + 2 * margin}

    def sample(self, model: TTRModel, agent: int, cls: np.ndarray) -> np.ndarray:
        """The same sample of the agent's class every step (what is left of it), actual
        world included, so the sampled picture prunes like the full one."""
        worlds = model.explicit_worlds
        if agent not in self.samples:
            picks = np.linspace(0, len(cls) - 1, MAX_DRAWN - 1).astype(np.int64)
            chosen = np.union1d(cls[picks], [worlds.actual])
            self.samples[agent] = worlds.world_ids[chosen]
        return cls[np.isin(worlds.world_ids[cls], self.samples[agent])]


def select_worlds(model: TTRModel, agent: int | None, layout: WorldLayout) -> Selection:
    """Every world if few enough; else ``agent``'s class (agent 0's when no agent is given)."""
    worlds = model.explicit_worlds
    total = worlds.n_worlds
    if total <= MAX_DRAWN:
        return Selection(np.arange(total), None, total)
    agent = 0 if agent is None else agent
    cls = worlds.possible_worlds(agent)
    if len(cls) <= MAX_DRAWN:
        return Selection(cls, agent, total, len(cls))
    return Selection(layout.sample(model, agent, cls), agent, total, len(cls), sampled=True)


def deal_text(model: TTRModel, hands: tuple[tuple[int, ...], ...]) -> str:
    """One line per player: the tickets it holds in this world, by name."""
    tickets = model.board.tickets
    return "\n".join(f"{player_name(p)}: " + ", ".join(str(tickets[t]) for t in hand)
                     for p, hand in enumerate(hands))


def worlds_html(model: TTRModel, selection: Selection, layout: WorldLayout,
                perspective: int | None = None,
                values: np.ndarray | None = None) -> tuple[str, int]:
    """The pyvis page for the selected worlds, and how many worlds it draws.

    ``perspective`` fades the worlds that agent rules out; ``values`` (a formula's truth per
    current world) colours the worlds where it holds.
    """
    sub = model.explicit_worlds.restrict(selection.indices)
    graph = sub.to_networkx(max_worlds=MAX_DRAWN)
    players = model.rules.players
    grouping = 0 if selection.agent is None else (selection.agent + 1) % players
    layout.place(graph, grouping)
    seen = None
    if perspective is not None:
        worlds = model.explicit_worlds
        seen = set(worlds.world_ids[worlds.possible_worlds(perspective)].tolist())
    net = Network(cdn_resources="in_line")
    labelled = graph.number_of_nodes() <= LABELLED
    faded_ids = set()
    for wid, data in graph.nodes(data=True):
        index, actual = data["index"], data["actual"]
        holds = None if values is None else bool(values[selection.indices[index]])
        faded = seen is not None and wid not in seen
        colour = WORLD_COLOUR if holds is None else HOLDS_COLOUR if holds else FAILS_COLOUR
        border, width, size = "#37474f", 1, 10
        if faded:
            faded_ids.add(wid)
            colour, border = "#eceff1", "#cfd8dc"
        elif perspective is not None:  # a world the viewer still considers possible: ringed
            border, width, size = player_colour(perspective), 3, 15
        title = (f"world {wid}{' (the actual world)' if actual else ''}\n"
                 + deal_text(model, sub.deal(index)))
        if holds is not None:
            title += f"\nformula: {'true' if holds else 'false'} here"
        label = data["label"] if labelled else " "
        if actual:
            label = ("actual: " + data["label"]) if labelled else "actual"
        x, y = layout.pixels(wid)
        net.add_node(wid, label=label, title=title, x=x, y=y, physics=False,
                     shape="star" if actual else "dot", size=22 if actual else size,
                     borderWidth=3 if actual else width,
                     color={"background": ACTUAL_COLOUR if actual and holds is None else colour,
                            "border": border},
                     font={"size": 14, "color": "#bdbdbd" if faded else "#263238"})
    dense = graph.number_of_edges() > 150  # then thinner, fainter edges let the worlds show
    for u, v, data in graph.edges(data=True):
        # In a class picture every two worlds are joined for the class's agent: those edges
        # say nothing and would be most of the drawing, so they are left out (the caption says
        # so). Edges go straight into the list: pyvis's add_edge scans every edge so far.
        agents = [a for a in data["agents"] if a != selection.agent]
        if not agents:
            continue
        faint = u in faded_ids or v in faded_ids
        names = " and ".join(player_name(a) for a in agents)
        net.edges.append({"from": u, "to": v, "width": 1 if dense else 1.5,
                          "color": {"color": player_colour(agents[0]),
                                    "opacity": 0.15 if faint else 0.35 if dense else 0.75},
                          "title": f"{names} cannot tell these two worlds apart"})
    net.options = {
        "physics": {"enabled": False},
        "interaction": {"hover": True, "tooltipDelay": 80, "dragNodes": False},
        "edges": {"smooth": False},
    }
    nodes, edges, _heading, _height, _width, options = net.get_network_data()
    html = _ENV.get_template("worlds.html").render(nodes=nodes, edges=edges, options=options,
                                                   box=layout.box())
    return html, graph.number_of_nodes()


@solara.component
def WorldsGraph(model: TTRModel, perspective: int | None = None,
                values: np.ndarray | None = None):
    """The worlds card: the pyvis picture, what it shows, and a key."""
    update_counter.get()
    layout = solara.use_memo(WorldLayout, [model])
    chosen, set_chosen = solara.use_state(0)
    players = model.rules.players
    agent = perspective if perspective is not None else min(chosen, players - 1)
    selection = select_worlds(model, agent, layout)
    html, drawn = worlds_html(model, selection, layout, perspective, values)
    with solara.Card("Possible worlds", margin=0, style="height:100%"):
        solara.HTML(tag="div", unsafe_innerHTML=(
            f"<b data-testid='worlds-count'>{model.world_count:,}</b> of "
            f"{model.initial_worlds:,} deals still possible. " + selection.caption()),
            attributes={"data-testid": "worlds-caption"})
        if selection.agent is not None and perspective is None:
            solara.ToggleButtonsSingle(
                value=agent, on_value=set_chosen, dense=True,
                children=[solara.Button(player_name(p), value=p, text=True)
                          for p in range(players)])
        solara.HTML(tag="iframe", attributes={
            "srcdoc": html, "title": "possible worlds graph", "data-testid": "worlds-graph",
            "data-drawn-worlds": str(drawn),
            "style": "width:100%;height:470px;border:1px solid #cfd8dc;border-radius:6px"})
        agents = legend(players)
        solara.HTML(tag="div", unsafe_innerHTML=(
            f"★ the actual world. Hover a world for its deal. An edge in {agents}: that player "
            "cannot tell the two worlds apart (it holds the same tickets in both)."
            + (f" Worlds first drawn together in a small ring are the ones "
               f"{player_name(layout.grouping)} cannot tell apart."
               if layout.grouping is not None else "")
            + (" Green: the formula holds there." if values is not None else "")
            + (f" Faded: worlds {player_name(perspective)} has ruled out."
               if perspective is not None else "")),
            style="font-size:12px;opacity:.75;margin-top:6px")

