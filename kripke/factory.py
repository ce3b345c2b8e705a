"""Small models made from lists, for a caller that must not name a backend (the app's pages
build a model a teacher edits, and draw an event model as the model of events it is): which
backend holds it is decided here. ``kripke.backends`` (the table of backends) may take this
over.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

from kripke.explicit.belief import BeliefModel
from kripke.explicit.model import KripkeModel
from kripke.files.modelfile import NamedModel
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


def belief_structure(model: Drawn) -> Listable:
    """The same model held as a belief structure on diagrams (symbolic: a relation per agent
    as a diagram over copies of the vocabulary), for ``--symbolic``. Imported when asked: the
    diagram library brings networkx."""
    from kripke.symbolic.belief import from_explicit

    return from_explicit(model)
