"""A model in a file other tools read: JSON, which reads back to the same model (TikZ for
slides is a picture: :mod:`app.worlds.tikz`).

JSON lists every world with its id, its label and the atoms true there, and each agent's
observation key per world; :func:`from_json` builds the same model again (the same world ids,
atoms, partitions and actual world), so a model can be saved from the app and studied in a
notebook.
"""

from __future__ import annotations

import json
import unicodedata
from collections.abc import Callable, Mapping
from typing import Any, TypeGuard

import numpy as np

from kripke.errors import ModelTooLargeError
from kripke.explicit.belief import BeliefModel, relation_matrix
from kripke.explicit.model import KripkeModel
from kripke.explicit.plausibility import PlausibilityModel
from kripke.files.reader import ModelFileError
from kripke.language.formula import Agent, Atom
from kripke.language.names import agent_problem
from kripke.parts import Drawn
from lookalikes.characters import character_problem, shown
from lookalikes.skeleton import first_lookalike, looks_like

FORMAT = "ttr-kripke model"
VERSION = 1
#: World ids are below this: an update numbers a split world id · |E| + e in 64 bits.
MAX_ID = 1 << 62


def to_json(model: Drawn, max_worlds: int = 100_000,
            name: Callable[[KripkeModel, int], str] | None = None) -> dict[str, Any]:
    """The model as JSON-ready data (``json.dumps`` it); refused past ``max_worlds``. A belief
    model writes ``"relations"`` (per agent its arrows as [from, to] world indices) instead of
    ``"observations"``; a plausibility model writes ``"ranks"`` too (per agent a rank per
    world, 0 the most plausible)."""
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
    assert isinstance(model, KripkeModel)  # the other list of worlds: partitions
    data |= {"observations": [model.observation(a).tolist() for a in model.agents]}
    if isinstance(model, PlausibilityModel):
        data |= {"ranks": [model.ranks(a).tolist() for a in model.agents]}
    return data


def _relations_json(model: BeliefModel) -> list[list[list[int]]]:
    """A belief model's arrows, per agent, as [from, to] world indices."""
    return [[list(pair) for pair in model.arrows(a)] for a in model.agents]


def _relations_from_json(data: Mapping[str, Any], agents: list[Agent], n: int
                         ) -> dict[Agent, Any]:
    """Per agent its arrows' matrix, from ``"relations"``: one list per agent of arrows
    ``[from, to]``, each end a world's index (a whole number, never ``true``, ``0.9`` or
    ``"0"``, which ``int`` took for worlds); an error names the field by its path."""
    relations = _list(data, "relations")
    if len(relations) != len(agents):
        raise _bad("relations", f"{len(relations)} lists for {len(agents)} agents; give one "
                   "list of arrows per agent")
    return {agent: relation_matrix(_arrows(pairs, i, n), n)
            for i, (agent, pairs) in enumerate(zip(agents, relations, strict=True))}


def _arrows(pairs: Any, agent: int, n: int) -> list[tuple[int, int]]:
    """One agent's arrows (``"relations"[agent]``), each a pair of world indices below ``n``."""
    where = f"relations[{agent}]"
    if not isinstance(pairs, list):
        raise _bad(where, f"must be a list of arrows [from, to], not {_shown(pairs)}")
    for j, pair in enumerate(pairs):
        if not (isinstance(pair, list) and len(pair) == 2 and
                all(_whole(end) and 0 <= end < n for end in pair)):
            raise _bad(f"{where}[{j}]", f"must be an arrow [from, to] of two world indices "
                       f"from 0 to {n - 1}, not {_shown(pair)}")
    return [(v, u) for v, u in pairs]


def from_json(data: Mapping[str, Any]) -> KripkeModel | BeliefModel:
    """The model :func:`to_json` wrote; a :class:`~kripke.files.reader.ModelFileError` naming
    the field that is wrong by its path (``worlds[3].true``) and what it must be otherwise.
    Only what the format says is taken: agent and atom names the text format would take,
    whole numbers for ids and keys (never ``true`` for 1)."""
    if not isinstance(data, Mapping) or data.get("format") != FORMAT:
        raise _bad("format", f"not a model file; a model's JSON has \"format\": \"{FORMAT}\"")
    if data.get("version") != VERSION:
        raise _bad("version", f"version {data.get('version')!r}; this reads version {VERSION}, "
                   "as ttr-kripke writes it")
    agents = _agents(_list(data, "agents"))
    atoms = [_atom(a, f"atoms[{k}]") for k, a in enumerate(_list(data, "atoms"))]
    if len(set(atoms)) != len(atoms):
        raise _bad("atoms", "an atom is named twice; name each once")
    _unlike([str(a) for a in atoms], "atoms")
    listed = _list(data, "worlds")
    worlds = [_world(w, i, set(atoms)) for i, w in enumerate(listed)]
    ids = [wid for wid, _ in worlds]
    true_sets = [true for _, true in worlds]
    if any(b <= a for a, b in zip(ids, ids[1:], strict=False)):
        raise _bad("worlds", "the world ids do not increase; list the worlds by id")
    actual = data.get("actual")
    if actual is not None and (not _whole(actual) or actual not in ids):
        raise _bad("actual", f"must be the id of one of the worlds or null, not "
                   f"{_shown(actual)}")
    if "relations" in data:  # a belief model: arrows instead of observations
        return BeliefModel({a: [a in t for t in true_sets] for a in atoms},
                           _relations_from_json(data, agents, len(worlds)),
                           None if actual is None else ids.index(actual),
                           n_worlds=len(worlds), world_ids=ids, names=_names(listed, ids))
    observations = _list(data, "observations")
    if len(observations) != len(agents):
        raise _bad("observations", f"{len(observations)} lists for {len(agents)} agents; "
                   "give one list per agent")
    keys = [_keys(k, i, len(ids)) for i, k in enumerate(observations)]
    model = KripkeModel.from_worlds(true_sets, dict(zip(agents, keys, strict=True)),
                                    None if actual is None else ids.index(actual),
                                    atoms=atoms, world_ids=ids)
    if "ranks" not in data:
        return model
    ranks = _list(data, "ranks")
    if len(ranks) != len(agents):
        raise _bad("ranks", f"{len(ranks)} lists for {len(agents)} agents; give one list "
                   "per agent")
    return PlausibilityModel.of(
        model, {a: _ranks(r, i, len(ids)) for i, (a, r) in enumerate(zip(agents, ranks,
                                                                            strict=True))},
        names=[str(w.get("label", f"w{i}")) for w, i in zip(listed, ids, strict=True)])


def _ranks(ranks: Any, agent: int, n_worlds: int) -> list[int]:
    """One agent's rank per world: whole numbers from 0 (the most plausible)."""
    if not isinstance(ranks, list) or len(ranks) != n_worlds or \
            not all(_whole(r) and r >= 0 for r in ranks):
        raise _bad(f"ranks[{agent}]", f"must be a list of {n_worlds} whole numbers from 0, a "
                   f"rank per world (0 the most plausible), not {_shown(ranks)}")
    return ranks


def _list(data: Mapping[str, Any], key: str) -> list[Any]:
    """A field that must hold a list."""
    if key not in data:
        raise _bad(key, "is missing; a model's JSON has it, as ttr-kripke writes it")
    value = data[key]
    if not isinstance(value, list):
        raise _bad(key, f"must be a list, not {_shown(value)}")
    return value


def _agents(agents: list[Any]) -> list[Agent]:
    """The agents, each a name the text format takes, none twice."""
    for k, agent in enumerate(agents):
        problem = agent_problem(agent)
        if problem is not None:
            raise _bad(f"agents[{k}]", problem)
    if len({str(a) for a in agents}) != len(agents):
        raise _bad("agents", "an agent is named twice; name each once")
    _unlike([str(a) for a in agents], "agents")
    return agents


def _unlike(names: list[str], field: str) -> None:
    """Refuse two names of a field that look alike (``a1`` and ``al``), as the text format
    does."""
    if (twins := first_lookalike(names)) is not None:
        raise _bad(f"{field}[{names.index(twins[0])}]", f"{looks_like(*twins)}, "
                   f"{field}[{names.index(twins[1])}]; a reader cannot tell them apart, so "
                   "rename one")


def _atom(name: Any, field: str) -> Atom:
    """An atom named as the text format names one (``p``, ``p(0,3)``)."""
    if isinstance(name, str):
        try:
            return Atom(name)
        except ValueError:
            pass
    raise _bad(field, f"{_shown(name)} is not an atom; an atom is a name of letters, digits, _ "
               "and ' starting with a letter, with arguments if you like (p, rain, p(0,3))")


def _world(world: Any, index: int, atoms: set[Atom]) -> tuple[int, list[Atom]]:
    """A world's id and the atoms true there (``worlds[i]``: ``id``, ``true``, a ``label``),
    each one of ``atoms``."""
    where = f"worlds[{index}]"
    if not isinstance(world, Mapping):
        raise _bad(where, f"must be an object with \"id\" and \"true\", not {_shown(world)}")
    wid = world.get("id")
    if not _whole(wid) or not 0 <= wid < MAX_ID:
        raise _bad(f"{where}.id", f"must be a whole number from 0 to {MAX_ID - 1:,}, not "
                   f"{_shown(wid)}")
    true = world.get("true")
    if not isinstance(true, list):
        raise _bad(f"{where}.true", f"must be a list of atoms, not {_shown(true)}")
    if not isinstance(world.get("label", ""), str):
        raise _bad(f"{where}.label", f"must be text, not {_shown(world['label'])}")
    true_atoms = [_atom(a, f"{where}.true[{k}]") for k, a in enumerate(true)]
    if unknown := [str(a) for a in true_atoms if a not in atoms]:
        raise _bad(f"{where}.true", f"names {unknown[0]}, which is not among \"atoms\"; list "
                   "it there")
    return wid, true_atoms


def _names(listed: list[Mapping[str, Any]], ids: list[int]) -> list[str]:
    """A belief model's world names, its worlds' labels (``w`` and the id without one), read
    by the text format's rule: in NFC, each one a name may be
    (:func:`lookalikes.characters.character_problem`), no two the same or alike, since the
    model keeps them and every page and file shows them."""
    names: list[str] = []
    for index, (world, wid) in enumerate(zip(listed, ids, strict=True)):
        name = unicodedata.normalize("NFC", world.get("label", f"w{wid}"))
        where = f"worlds[{index}].label"
        if problem := character_problem(name):
            raise _bad(where, problem)
        if '"' in name:  # the text format quotes a name in '"', so none holds one
            raise _bad(where, f"{shown(name)} holds '\"', which no world's name may (the model "
                       "format quotes names in it); remove it")
        if name in names:
            raise _bad(where, f"{shown(name)} is also the label of worlds[{names.index(name)}]; "
                       "give each world its own name")
        names.append(name)
    if (twins := first_lookalike(names)) is not None:
        raise _bad(f"worlds[{names.index(twins[0])}].label", f"{looks_like(*twins)}, the label "
                   f"of worlds[{names.index(twins[1])}]; a reader cannot tell them apart, so "
                   "rename one")
    return names


def _keys(keys: Any, agent: int, n_worlds: int) -> list[int]:
    """One agent's observation key per world: whole numbers, as many as there are worlds."""
    where = f"observations[{agent}]"
    if not isinstance(keys, list) or len(keys) != n_worlds:
        raise _bad(where, f"must be a list of {n_worlds} keys, one per world, not "
                   f"{_shown(keys)}")
    if not all(_whole(k) for k in keys):
        bad = next(k for k, key in enumerate(keys) if not _whole(key))
        raise _bad(f"{where}[{bad}]", f"holds {_shown(keys[bad])}; a key is a whole number")
    return keys


def _bad(field: str, message: str) -> ModelFileError:
    """The error for a field of a model's JSON, named by its path (``worlds[3].true``):
    ``message`` is the problem and the fix."""
    return ModelFileError(message, field=field)


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
