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
from collections.abc import Callable, Mapping
from typing import Any

import numpy as np

from kripke.belief import BeliefModel, relation_matrix
from kripke.errors import ModelError, ModelTooLargeError
from kripke.formula import Agent, Atom
from kripke.model import KripkeModel
from kripke.names import agent_problem
from kripke.palette import agent_colour

FORMAT = "ttr-kripke model"
VERSION = 1


def to_json(model: KripkeModel | BeliefModel, max_worlds: int = 100_000,
            name: Callable[[KripkeModel, int], str] | None = None) -> dict[str, Any]:
    """The model as JSON-ready data (``json.dumps`` it); refused past ``max_worlds``. A belief
    model writes ``"relations"`` (per agent its arrows as [from, to] world indices) instead of
    ``"observations"``."""
    if model.n_worlds > max_worlds:
        raise ModelTooLargeError(model.n_worlds, max_worlds, task="to write out",
                                 advice="restrict the model")
    atoms = model.atoms
    values = np.stack([model.atom_values(a) for a in atoms], axis=1) if atoms else \
        np.zeros((model.n_worlds, 0), dtype=bool)
    ids = model.world_ids.tolist()
    data = {
        "format": FORMAT,
        "version": VERSION,
        "agents": list(model.agents),
        "atoms": [str(a) for a in atoms],
        "actual": None if model.actual is None else ids[model.actual],
        "worlds": [{"id": wid, "label": name(model, i) if name and isinstance(model, KripkeModel)
                    else model.world_label(i),
                    "true": [str(atoms[j]) for j in np.flatnonzero(row).tolist()]}
                   for i, (wid, row) in enumerate(zip(ids, values, strict=True))],
    }
    if isinstance(model, BeliefModel):
        return data | {"relations": _relations_json(model)}
    return data | {"observations": [model.observation(a).tolist() for a in model.agents]}


def _relations_json(model: BeliefModel) -> list[list[list[int]]]:
    """A belief model's arrows, per agent, as [from, to] world indices."""
    return [[list(pair) for pair in model.arrows(a)] for a in model.agents]


def _relations_from_json(data: Mapping[str, Any], agents: list[Agent], n: int
                         ) -> dict[Agent, Any]:
    """Per agent its arrows' matrix, from ``"relations"``; each arrow must join listed
    worlds."""
    try:
        arrows = [[(int(v), int(u)) for v, u in pairs] for pairs in data["relations"]]
    except (KeyError, TypeError, ValueError) as e:
        raise ModelError(f"model file is malformed: {e}") from None
    if len(arrows) != len(agents):
        raise ModelError("model file: one list of arrows per agent is needed in \"relations\"")
    if any(not (0 <= v < n and 0 <= u < n) for pairs in arrows for v, u in pairs):
        raise ModelError(f"model file: an arrow joins a world that is not listed (worlds are "
                         f"0..{n - 1})")
    return {agent: relation_matrix(pairs, n) for agent, pairs in zip(agents, arrows,
                                                                     strict=True)}


def from_json(data: Mapping[str, Any]) -> KripkeModel | BeliefModel:
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
        atoms = [Atom(a) for a in data["atoms"]]
    except (KeyError, TypeError, ValueError) as e:
        raise ModelError(f"model file is malformed: {e}") from None
    for agent in agents:
        problem = agent_problem(agent)
        if problem is not None:
            raise ModelError(f"model file: \"agents\": {problem}")
    if any(b <= a for a, b in zip(ids, ids[1:], strict=False)):
        raise ModelError("model file: world ids must increase")
    actual = data.get("actual")
    if actual is not None and actual not in ids:
        raise ModelError(f"model file: the actual world {actual} is not among the worlds")
    if "relations" in data:  # a belief model: arrows instead of observations
        return BeliefModel({a: [a in t for t in true_sets] for a in atoms},
                           _relations_from_json(data, agents, len(worlds)),
                           None if actual is None else ids.index(actual),
                           n_worlds=len(worlds), world_ids=ids,
                           names=[str(w.get("label", f"w{i}")) for w, i in zip(worlds, ids,
                                                                              strict=True)])
    try:
        keys = [list(k) for k in data["observations"]]
    except (KeyError, TypeError, ValueError) as e:
        raise ModelError(f"model file is malformed: {e}") from None
    if len(keys) != len(agents) or any(len(k) != len(worlds) for k in keys):
        raise ModelError("model file: one observation per agent and world is needed")
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


def to_tikz(model: KripkeModel | BeliefModel,
            positions: Mapping[int, tuple[float, float]] | None = None,
            name: Callable[[KripkeModel, int], str] | None = None,
            agent_names: Mapping[Agent, str] | None = None, max_worlds: int = 200,
            title: str = "", colours: Mapping[Agent, str] | None = None) -> str:
    """A LaTeX document drawing the model; positions by world id (y grows downwards, as on
    screen), else a grid. Refused past ``max_worlds`` worlds: a slide cannot show more.
    ``colours``: each agent's as ``#rrggbb`` (the page passes the ones it draws with); by
    default ``kripke.palette``'s by the agent's place in the model. It draws S5 classes: a
    belief model (arrows) is refused with :class:`ModelError`, here where the drawing is
    known, so a caller need not ask which kind of model it holds."""
    if isinstance(model, BeliefModel):
        raise ModelError("TikZ draws S5 models (classes) only for now; write a belief model "
                         "(arrows) as JSON")
    n = model.n_worlds
    if n > max_worlds:
        raise ModelTooLargeError(n, max_worlds, task="to draw for a slide",
                                 advice="restrict the model")
    ids = model.world_ids.tolist()
    if positions is None or any(w not in positions for w in ids):
        columns = max(1, math.ceil(math.sqrt(n)))
        place = {w: (float(i % columns), float(i // columns)) for i, w in enumerate(ids)}
    else:
        place = {w: positions[w] for w in ids}
    xs, ys = [p[0] for p in place.values()], [p[1] for p in place.values()]
    # cm per unit: the picture fills a landscape page (and a slide) but never spreads thin
    unit = min(3.0, 24.0 / max(max(xs) - min(xs), 1.0), 15.0 / max(max(ys) - min(ys), 1.0))
    lines = [
        "% A Kripke model drawn by ttr-kripke. Paste the tikzpicture into your slides",
        "% (it needs \\usepackage{tikz}).",
        "\\documentclass{article}",
        "\\usepackage[margin=1cm,landscape]{geometry}",
        "\\usepackage{tikz}",
        "\\pagestyle{empty}",
    ]
    lines.append("\\begin{document}")
    if title:
        lines.append(f"\\noindent\\textbf{{{latex(title)}}}\\par\\medskip")
    lines += [
        f"\\begin{{tikzpicture}}[x={unit:.2f}cm,y=-{unit:.2f}cm,",
        "  world/.style={circle,draw,fill=white,inner sep=1.5pt,minimum size=10pt},",
        "  actual/.style={world,double,thick},",
        "  label text/.style={font=\\scriptsize,align=center},",
        "  edge/.style={thick}]",
    ]
    # the page's colours (kripke.palette), defined inside the picture so it pastes whole
    for k, agent in enumerate(model.agents):
        hex_colour = (colours or {}).get(agent) or agent_colour(k)
        lines.append(f"\\definecolor{{agent{k}}}{{HTML}}{{{hex_colour.lstrip('#').upper()}}}")
    for i, w in enumerate(ids):
        x, y = place[w]
        style = "actual" if i == model.actual else "world"
        text = latex(name(model, i) if name else model.world_label(i))
        lines.append(f"\\node[{style}] (w{w}) at ({x:.3f},{y:.3f}) {{}};")
        lines.append(f"\\node[label text,anchor=north] at (w{w}.south) {{{text}}};")
    # each class as a chain through its worlds in reading order; parallel edges merged
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
    colour = {str(a): f"agent{k}" for k, a in enumerate(model.agents)}
    for (a, b), who in edges.items():
        shown = ",".join(latex(agent_names.get(_agent(model, x), x) if agent_names else x)
                         for x in who)
        lines.append(f"\\draw[edge,{colour[who[0]]}] (w{a}) -- node[font=\\scriptsize,"
                     f"fill=white,inner sep=1pt] {{{shown}}} (w{b});")
    lines += ["\\end{tikzpicture}", "\\end{document}", ""]
    return "\n".join(lines)


def _agent(model: KripkeModel, text: str) -> Agent:
    return model.agents[model.agent_index(text)]
