"""Small models made from lists, for a caller that must not name a backend (the app's pages
build a model a teacher edits, and draw an event model as the model of events it is): which
backend holds it is decided here. ``kripke.backends`` (the table of backends) may take this
over.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import numpy as np

from kripke.errors import ModelError
from kripke.explicit.access import Access
from kripke.explicit.belief import BeliefModel, relation_matrix
from kripke.explicit.model import KripkeModel
from kripke.files.modelfile import NamedModel
from kripke.interface import EpistemicModel
from kripke.language.formula import Agent, Atom
from kripke.parts import Drawn, Listable, Partitioned


def partition_model(worlds: Sequence[Iterable[Atom | str]],
                    classes: Mapping[Agent, Sequence[int]], actual: int, *,
                    atoms: Iterable[Atom | str] = (), names: Sequence[str]) -> Partitioned:
    """An S5 model from lists: per world the atoms true there, per agent its class key per
    world (equal keys: worlds it cannot tell apart), each world named."""
    return NamedModel.named(KripkeModel.from_worlds(
        [set(w) for w in worlds], {a: list(keys) for a, keys in classes.items()},
        actual=actual, atoms=list(atoms)), names)


def arrows_model(worlds: Sequence[Iterable[Atom | str]],
                 arrows: Mapping[Agent, Iterable[tuple[int, int]]], actual: int | None, *,
                 atoms: Iterable[Atom | str] = (), names: Sequence[str]) -> Drawn:
    """A model from lists: per world the atoms true there, per agent its arrows (pairs of
    world positions), each world named (belief: the relations need not be partitions)."""
    return BeliefModel.of([set(w) for w in worlds], arrows, actual, atoms=atoms, names=names)


def belief_structure(model: EpistemicModel) -> Listable:
    """The same model held as a belief structure on diagrams (symbolic: a relation per agent
    as a diagram over copies of the vocabulary), from a list of worlds (``--symbolic``) or a
    knowledge structure (a deal too big to list). Imported when asked: the diagram library
    brings networkx."""
    from kripke.symbolic.belief import from_explicit, from_knowledge
    from kripke.symbolic.structure import SymbolicModel

    if isinstance(model, SymbolicModel):
        return from_knowledge(model)
    if not isinstance(model, KripkeModel | BeliefModel):
        raise ModelError("a belief structure is made from a list of worlds or a knowledge "
                         "structure")
    return from_explicit(model)


def listed_model(valuation: Mapping[str, np.ndarray], relations: Mapping[Any, np.ndarray],
                 actual: int | None) -> Drawn:
    """A list of worlds from arrays, as a benchmark builds a big one: per atom a bool per
    world; per agent either its class key per world (an int array: a partition, kept as
    classes) or its arrows (an (m, 2) int array of world positions). The explicit S5 model
    when every agent has classes, else the explicit belief model."""
    if all(r.ndim == 1 for r in relations.values()):
        return KripkeModel(valuation, relations, actual)
    n = len(next(iter(valuation.values())))
    return BeliefModel(valuation, {agent: Access.partition(r) if r.ndim == 1 else
                                   relation_matrix(r, n) for agent, r in relations.items()},
                       actual)
