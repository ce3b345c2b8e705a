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

import json
import math
from collections.abc import Callable, Mapping
from typing import Any, TypeGuard

import numpy as np

from kripke.errors import ModelError, ModelTooLargeError
from kripke.formula import Agent, Atom
from kripke.model import KripkeModel
from kripke.names import agent_problem
from kripke.palette import agent_colour

FORMAT = "ttr-kripke model"
VERSION = 1
#: World ids are below this: an update numbers a split world id · |E| + e in 64 bits.
MAX_ID = 1 << 62


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
    """The model :func:`to_json` wrote; :class:`ModelError` naming the field that is wrong
    and what it must be otherwise. Only what the format says is taken: agent and atom names
    the text format would take, whole numbers for ids and keys (never ``true`` for 1)."""
    if not isinstance(data, Mapping) or data.get("format") != FORMAT:
        raise ModelError(f"not a model file: expected \"format\": \"{FORMAT}\"")
    if data.get("version") != VERSION:
        raise ModelError(f"model file version {data.get('version')!r}; this reads {VERSION}")
    agents = _agents(_list(data, "agents"))
    atoms = [_atom(a, '"atoms"') for a in _list(data, "atoms")]
    if len(set(atoms)) != len(atoms):
        raise ModelError("model file: \"atoms\" names an atom twice; name each once")
    worlds = [_world(w, i, set(atoms)) for i, w in enumerate(_list(data, "worlds"))]
    ids = [wid for wid, _ in worlds]
    observations = _list(data, "observations")
    if len(observations) != len(agents):
        raise ModelError(f"model file: \"observations\" has {len(observations)} lists for "
                         f"{len(agents)} agents; one list per agent is needed")
    keys = [_keys(k, i, len(ids)) for i, k in enumerate(observations)]
    if any(b <= a for a, b in zip(ids, ids[1:], strict=False)):
        raise ModelError("model file: world ids must increase")
    actual = data.get("actual")
    if actual is not None and (not _whole(actual) or actual not in ids):
        raise ModelError(f"model file: \"actual\" must be the id of one of the worlds or "
                         f"null, not {_shown(actual)}")
    return KripkeModel.from_worlds([true for _, true in worlds],
                                   dict(zip(agents, keys, strict=True)),
                                   None if actual is None else ids.index(actual),
                                   atoms=atoms, world_ids=ids)


def _list(data: Mapping[str, Any], key: str) -> list[Any]:
    """A field that must hold a list."""
    if key not in data:
        raise ModelError(f"model file: \"{key}\" is missing")
    value = data[key]
    if not isinstance(value, list):
        raise ModelError(f"model file: \"{key}\" must be a list, not {_shown(value)}")
    return value


def _agents(agents: list[Any]) -> list[Agent]:
    """The agents, each a name the text format takes, none twice."""
    for agent in agents:
        problem = agent_problem(agent)
        if problem is not None:
            raise ModelError(f"model file: \"agents\": {problem}")
    if len({str(a) for a in agents}) != len(agents):
        raise ModelError("model file: \"agents\" names an agent twice; name each once")
    return agents


def _atom(name: Any, field: str) -> Atom:
    """An atom named as the text format names one (``p``, ``p(0,3)``)."""
    if isinstance(name, str):
        try:
            return Atom(name)
        except ValueError:
            pass
    raise ModelError(f"model file: {field}: {_shown(name)} is not an atom: an atom is a name of "
                     "letters, digits, _ and ' starting with a letter, with arguments if you "
                     "like (p, rain, p(0,3))")


def _world(world: Any, index: int, atoms: set[Atom]) -> tuple[int, list[Atom]]:
    """A world's id and the atoms true there (``worlds[i]``: ``id``, ``true``, a ``label``),
    each one of ``atoms``."""
    where = f"\"worlds\"[{index}]"
    if not isinstance(world, Mapping):
        raise ModelError(f"model file: {where} must be an object with \"id\" and \"true\", "
                         f"not {_shown(world)}")
    wid = world.get("id")
    if not _whole(wid) or not 0 <= wid < MAX_ID:
        raise ModelError(f"model file: {where}[\"id\"] must be a whole number from 0 to "
                         f"{MAX_ID - 1:,}, not {_shown(wid)}")
    true = world.get("true")
    if not isinstance(true, list):
        raise ModelError(f"model file: {where}[\"true\"] must be a list of atoms, not "
                         f"{_shown(true)}")
    if not isinstance(world.get("label", ""), str):
        raise ModelError(f"model file: {where}[\"label\"] must be text, not "
                         f"{_shown(world['label'])}")
    true_atoms = [_atom(a, f'{where}["true"]') for a in true]
    if unknown := [str(a) for a in true_atoms if a not in atoms]:
        raise ModelError(f"model file: {where}[\"true\"] names {unknown[0]}, which is not "
                         "among \"atoms\"; list it there")
    return wid, true_atoms


def _keys(keys: Any, agent: int, n_worlds: int) -> list[int]:
    """One agent's observation key per world: whole numbers, as many as there are worlds."""
    where = f"\"observations\"[{agent}]"
    if not isinstance(keys, list) or len(keys) != n_worlds:
        raise ModelError(f"model file: {where} must be a list of {n_worlds} keys, one per "
                         f"world, not {_shown(keys)}")
    if not all(_whole(k) for k in keys):
        bad = next(k for k in keys if not _whole(k))
        raise ModelError(f"model file: {where} holds {_shown(bad)}; a key is a whole number")
    return keys


def _whole(value: object) -> TypeGuard[int]:
    """A JSON whole number: an int, never ``true``/``false`` (bool is an int in Python)."""
    return isinstance(value, int) and not isinstance(value, bool)


def _shown(value: Any) -> str:
    """A value as JSON writes it, cut short: the message quotes what the file holds."""
    text = json.dumps(value)[:40] if _jsonable(value) else repr(value)[:40]
    return f"{text} ({_JSON_TYPES.get(type(value), type(value).__name__)})"


_JSON_TYPES = {bool: "a boolean", int: "a number", float: "a number", str: "text",
               list: "a list", dict: "an object", type(None): "null"}


def _jsonable(value: Any) -> bool:
    try:
        json.dumps(value)
    except (TypeError, ValueError, RecursionError):
        return False
    return True


# --- TikZ ---------------------------------------------------------------------------------------

_LATEX = {"\\": r"\textbackslash{}", "{": r"\{", "}": r"\}", "_": r"\_", "#": r"\#",
          "&": r"\&", "%": r"\%", "$": r"\$", "~": r"\textasciitilde{}",
          "^": r"\textasciicircum{}"}


def latex(text: str) -> str:
    """Text safe inside a LaTeX document."""
    return "".join(_LATEX.get(c, c) for c in text)


def to_tikz(model: KripkeModel, positions: Mapping[int, tuple[float, float]] | None = None,
            name: Callable[[KripkeModel, int], str] | None = None,
            agent_names: Mapping[Agent, str] | None = None, max_worlds: int = 200,
            title: str = "", colours: Mapping[Agent, str] | None = None) -> str:
    """A LaTeX document drawing the model; positions by world id (y grows downwards, as on
    screen), else a grid. Refused past ``max_worlds`` worlds: a slide cannot show more.
    ``colours``: each agent's as ``#rrggbb`` (the page passes the ones it draws with); by
    default ``kripke.palette``'s by the agent's place in the model."""
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
