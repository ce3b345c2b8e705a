"""A model in files other tools read: JSON (reads back to the same model) and TikZ for slides.

JSON lists every world with its id, its label and the atoms true there, and each agent's
observation key per world; :func:`from_json` builds the same model again (the same world ids,
atoms, partitions and actual world), so a model can be saved from the app and studied in a
notebook. TikZ draws the worlds at given positions (a puzzle's geometry) or on a grid, the
actual world doubly circled, and each agent's class as a chain of edges labelled with the agent
(S5's reflexive and transitive edges are left out, as textbooks do); the text is a complete
LaTeX document whose ``tikzpicture`` can be pasted into slides.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Mapping
from typing import Any

import numpy as np

from kripke.errors import ModelError, ModelTooLargeError
from kripke.formula import Agent, Atom
from kripke.geometry import bend_control, clear_bend, curve_point
from kripke.model import KripkeModel
from kripke.names import agent_problem
from kripke.palette import agent_colour

FORMAT = "ttr-kripke model"
VERSION = 1


def to_json(model: KripkeModel, max_worlds: int = 100_000,
            name: Callable[[KripkeModel, int], str] | None = None) -> dict[str, Any]:
    """The model as JSON-ready data (``json.dumps`` it); refused past ``max_worlds``."""
    if model.n_worlds > max_worlds:
        raise ModelTooLargeError(model.n_worlds, max_worlds, task="to write out",
                                 advice="restrict the model")
    atoms = model.atoms
    values = np.stack([model.atom_values(a) for a in atoms], axis=1) if atoms else \
        np.zeros((model.n_worlds, 0), dtype=bool)
    ids = model.world_ids.tolist()
    return {
        "format": FORMAT,
        "version": VERSION,
        "agents": list(model.agents),
        "atoms": [str(a) for a in atoms],
        "actual": None if model.actual is None else ids[model.actual],
        "worlds": [{"id": wid, "label": name(model, i) if name else model.world_label(i),
                    "true": [str(atoms[j]) for j in np.flatnonzero(row).tolist()]}
                   for i, (wid, row) in enumerate(zip(ids, values, strict=True))],
        "observations": [model.observation(a).tolist() for a in model.agents],
    }


def from_json(data: Mapping[str, Any]) -> KripkeModel:
    """The model :func:`to_json` wrote; :class:`ModelError` naming what is wrong otherwise."""
    if not isinstance(data, Mapping) or data.get("format") != FORMAT:
        raise ModelError(f"not a model file: expected \"format\": \"{FORMAT}\"")
    if data.get("version") != VERSION:
        raise ModelError(f"model file version {data.get('version')!r}; this reads {VERSION}")
    try:
        agents: list[Agent] = list(data["agents"])
        worlds = list(data["worlds"])
        ids = [int(w["id"]) for w in worlds]
        true_sets = [[Atom(a) for a in w["true"]] for w in worlds]
        keys = [list(k) for k in data["observations"]]
        atoms = [Atom(a) for a in data["atoms"]]
    except (KeyError, TypeError, ValueError) as e:
        raise ModelError(f"model file is malformed: {e}") from None
    for agent in agents:
        problem = agent_problem(agent)
        if problem is not None:
            raise ModelError(f"model file: \"agents\": {problem}")
    if len(keys) != len(agents) or any(len(k) != len(worlds) for k in keys):
        raise ModelError("model file: one observation per agent and world is needed")
    if any(b <= a for a, b in zip(ids, ids[1:], strict=False)):
        raise ModelError("model file: world ids must increase")
    actual = data.get("actual")
    if actual is not None and actual not in ids:
        raise ModelError(f"model file: the actual world {actual} is not among the worlds")
    return KripkeModel.from_worlds(true_sets, dict(zip(agents, keys, strict=True)),
                                   None if actual is None else ids.index(actual),
                                   atoms=atoms, world_ids=ids)


# --- TikZ ---------------------------------------------------------------------------------------

_LATEX = {"\\": r"\textbackslash{}", "{": r"\{", "}": r"\}", "_": r"\_", "#": r"\#",
          "&": r"\&", "%": r"\%", "$": r"\$", "~": r"\textasciitilde{}",
          "^": r"\textasciicircum{}"}


def latex(text: str) -> str:
    """Text safe inside a LaTeX document."""
    return "".join(_LATEX.get(c, c) for c in text)


#: The textbook's logical symbols in LaTeX math.
_MATH = {"¬": r"\neg", "∧": r"\land", "∨": r"\lor", "→": r"\to", "↔": r"\leftrightarrow",
         "⊤": r"\top", "⊥": r"\bot", "φ": r"\varphi", "ψ": r"\psi", "⟨": r"\langle",
         "⟩": r"\rangle"}
#: A modality with its agent or group: K_a, C_{a,b}.
_MODALITY = re.compile(r"\b([KMECD])_(\{[^{}]*\}|\w+)")


def latex_formula_text(text: str) -> str:
    """Text that may hold formulas in the textbook's notation (a caption: "you announced
    ¬K_a p ∧ q"), safe inside LaTeX, its symbols and modalities in math (``\\neg``,
    ``\\land``, ``K_{a}``) as a slide writes them; the rest as :func:`latex`."""
    out, at = [], 0
    for found in _MODALITY.finditer(text):
        out.append(_math_symbols(text[at:found.start()]))
        agents = found.group(2).strip("{}")
        out.append(f"$\\mathit{{{found.group(1)}}}_{{{latex(agents)}}}$")
        at = found.end()
    out.append(_math_symbols(text[at:]))
    return "".join(out)


def _math_symbols(text: str) -> str:
    return "".join(f"${_MATH[c]}$" if c in _MATH else _LATEX.get(c, c) for c in text)


#: A beamer frame's picture area, in cm: what a TikZ drawing fits by default (``size``).
SLIDE = (12.0, 8.5)
#: Estimates for laying the drawing out (cm): a \\scriptsize character's width and line's
#: height, a world's radius (10pt across, or the actual world's double line) and the room an
#: edge keeps from a world it does not join.
_CHAR, _LINE, _RADIUS, _GAP = 0.13, 0.3, 0.2, 0.35
#: The longest line of a world's label before it wraps (characters).
_WRAP = 18


def to_tikz(model: KripkeModel, positions: Mapping[int, tuple[float, float]] | None = None,
            name: Callable[[KripkeModel, int], str] | None = None,
            agent_names: Mapping[Agent, str] | None = None, max_worlds: int = 200,
            title: str = "", colours: Mapping[Agent, str] | None = None,
            size: tuple[float, float] = SLIDE) -> str:
    """A LaTeX document drawing the model; positions by world id (y grows downwards, as on
    screen), else a grid. Refused past ``max_worlds`` worlds: a slide cannot show more.
    ``colours``: each agent's as ``#rrggbb`` (the page passes the ones it draws with); by
    default ``kripke.palette``'s by the agent's place in the model. The tikzpicture, names
    under the worlds included, fits ``size`` (width, height in cm; a beamer frame's by
    default), and no edge runs through a world it does not join: it bends around it."""
    n = model.n_worlds
    if n > max_worlds:
        raise ModelTooLargeError(n, max_worlds, task="to draw for a slide",
                                 advice="restrict the model")
    ids = model.world_ids.tolist()
    if positions is None or any(w not in positions for w in ids):
        columns = max(1, math.ceil(math.sqrt(n)))
        place = {w: (float(i % columns), float(i // columns)) for i, w in enumerate(ids)}
    else:  # in units of about a world's spacing (positions may come in pixels)
        xs, ys = [positions[w][0] for w in ids], [positions[w][1] for w in ids]
        scale = max(max(xs) - min(xs), max(ys) - min(ys), 1e-9) / max(math.sqrt(n), 1.0)
        place = {w: ((positions[w][0] - min(xs)) / scale, (positions[w][1] - min(ys)) / scale)
                 for w in ids}
    labels = {w: _label_lines(name(model, i) if name else model.world_label(i))
              for i, w in enumerate(ids)}
    edges = _tikz_edges(model, place)
    unit = _fit(place, labels, {}, size)
    bends = _bends(place, edges, _GAP / unit)
    unit = _fit(place, labels, bends, size)
    lines = [
        "% A Kripke model drawn by ttr-kripke. Paste the tikzpicture into your slides",
        f"% (it needs \\usepackage{{tikz}}; it fits {size[0]:g} cm x {size[1]:g} cm, a beamer "
        "frame).",
        "\\documentclass{article}",
        "\\usepackage[margin=1cm,landscape]{geometry}",
        "\\usepackage{tikz}",
        "\\pagestyle{empty}",
    ]
    lines.append("\\begin{document}")
    if title:
        lines.append(f"\\noindent\\textbf{{{latex_formula_text(title)}}}\\par\\medskip")
    lines += [
        f"\\begin{{tikzpicture}}[x={unit:.4f}cm,y=-{unit:.4f}cm,",
        "  world/.style={circle,draw,fill=white,inner sep=1.5pt,minimum size=10pt},",
        "  actual/.style={world,double,thick},",
        "  label text/.style={font=\\scriptsize,align=center,inner sep=1pt,fill=white},",
        "  edge/.style={thick}]",
    ]
    # the page's colours (kripke.palette), defined inside the picture so it pastes whole
    for k, agent in enumerate(model.agents):
        hex_colour = (colours or {}).get(agent) or agent_colour(k)
        lines.append(f"\\definecolor{{agent{k}}}{{HTML}}{{{hex_colour.lstrip('#').upper()}}}")
    names: list[str] = []
    for i, w in enumerate(ids):
        x, y = place[w]
        style = "actual" if i == model.actual else "world"
        text = "\\\\".join(latex(line) for line in labels[w])
        lines.append(f"\\node[{style}] (w{w}) at ({x:.3f},{y:.3f}) {{}};")
        names.append(f"\\node[label text,anchor=north] at (w{w}.south) {{{text}}};")
    colour = {str(a): f"agent{k}" for k, a in enumerate(model.agents)}
    for (a, b), who in edges.items():
        shown = ",".join(latex(agent_names.get(_agent(model, x), x) if agent_names else x)
                         for x in who)
        label = f"node[font=\\scriptsize,fill=white,inner sep=1pt] {{{shown}}}"
        bend = bends.get((a, b), 0.0)
        if bend:
            (c1x, c1y), (c2x, c2y) = _cubic(place[a], place[b], bend)
            lines.append(f"\\draw[edge,{colour[who[0]]}] (w{a}) .. controls ({c1x:.3f},{c1y:.3f}) "
                         f"and ({c2x:.3f},{c2y:.3f}) .. {label} (w{b});")
        else:
            lines.append(f"\\draw[edge,{colour[who[0]]}] (w{a}) -- {label} (w{b});")
    # the names last, on white: an edge that passes under one does not strike it through
    lines += [*names, "\\end{tikzpicture}", "\\end{document}", ""]
    return "\n".join(lines)


def _label_lines(text: str) -> list[str]:
    """A world's name broken for the slide: after ``name:``, then at spaces past ``_WRAP``."""
    head, sep, tail = text.partition(": ")
    parts = [head + sep.strip(), tail] if sep and tail else [text]
    lines: list[str] = []
    for part in parts:
        line = ""
        for word in part.split(" "):
            if line and len(line) + 1 + len(word) > _WRAP:
                lines.append(line)
                line = word
            else:
                line = f"{line} {word}" if line else word
        lines.append(line)
    return lines


def _tikz_edges(model: KripkeModel, place: Mapping[int, tuple[float, float]]
                ) -> dict[tuple[int, int], list[str]]:
    """Each agent's class as a chain through its worlds in reading order (S5's reflexive and
    transitive edges left out), the agents on one pair merged into one edge."""
    ids = model.world_ids.tolist()
    edges: dict[tuple[int, int], list[str]] = {}
    for agent in model.agents:
        keys = model.observation(agent).tolist()
        classes: dict[int, list[int]] = {}
        for i, w in enumerate(ids):
            classes.setdefault(keys[i], []).append(w)
        for members in classes.values():
            members.sort(key=lambda v: (place[v][1], place[v][0]))
            for a, b in zip(members, members[1:], strict=False):
                edges.setdefault((a, b), []).append(str(agent))
    return edges


def _bends(place: Mapping[int, tuple[float, float]], edges: Mapping[tuple[int, int], object],
           gap: float) -> dict[tuple[int, int], float]:
    """Each edge's bend (in the drawing's units): none unless its line would pass within
    ``gap`` of a world it does not join."""
    out = {}
    for a, b in edges:
        others = [p for w, p in place.items() if w not in (a, b)]
        out[(a, b)] = clear_bend(place[a], place[b], others, gap)
    return out


def _cubic(p: tuple[float, float], q: tuple[float, float], bend: float
           ) -> tuple[tuple[float, float], tuple[float, float]]:
    """The two control points TikZ's cubic curve needs to draw the quadratic curve bent
    ``bend`` (the same curve as on the page)."""
    cx, cy = bend_control(p[0], p[1], q[0], q[1], bend)
    return ((p[0] + 2 * (cx - p[0]) / 3, p[1] + 2 * (cy - p[1]) / 3),
            (q[0] + 2 * (cx - q[0]) / 3, q[1] + 2 * (cy - q[1]) / 3))


def _fit(place: Mapping[int, tuple[float, float]], labels: Mapping[int, list[str]],
         bends: Mapping[tuple[int, int], float], size: tuple[float, float]) -> float:
    """cm per unit: the most (at most 3, so a few worlds are not spread thin) at which the
    worlds, their names and the bent edges fit ``size``."""
    def extent(unit: float) -> tuple[float, float]:
        left, right, top, bottom = [], [], [], []
        for w, (x, y) in place.items():
            half = max(_RADIUS, max(len(t) for t in labels[w]) * _CHAR / 2)
            left.append(x * unit - half)
            right.append(x * unit + half)
            top.append(y * unit - _RADIUS)
            bottom.append(y * unit + 2 * _RADIUS + len(labels[w]) * _LINE)
        for (a, b), bend in bends.items():
            if bend:
                x, y = curve_point(place[a], place[b], bend, 0.5)
                left.append(x * unit)
                right.append(x * unit)
                top.append(y * unit)
                bottom.append(y * unit)
        return max(right) - min(left), max(bottom) - min(top)

    low, high = 0.0, 3.0
    if all(a <= b for a, b in zip(extent(high), size, strict=True)):
        return high
    for _ in range(40):
        middle = (low + high) / 2
        if all(a <= b for a, b in zip(extent(middle), size, strict=True)):
            low = middle
        else:
            high = middle
    return max(low, 0.01)


def _agent(model: KripkeModel, text: str) -> Agent:
    return model.agents[model.agent_index(text)]
