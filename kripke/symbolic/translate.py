"""Translation both ways between explicit models and knowledge structures.

Explicit to symbolic (SMCDEL's construction, made exact): the vocabulary is the model's atoms;
an agent observes the atoms whose value it always knows (those constant on each of its classes),
and when they do not already tell its classes apart, also a few auxiliary bits numbering its
class. Two worlds that would still get the same state (same atoms, same classes for everyone)
are told apart by unobserved copy bits, so the structure has as many states as the model has
worlds and every formula has the same value at a world and at its state. The law is the
disjunction of the worlds' states, so this is for models small enough to list.

Symbolic to explicit lists the law's states (refusing past ``max_worlds`` before listing any):
a world per state, agents' keys from the atoms they observe. It is how a symbolic model gets a
value per world or a drawing.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from kripke.errors import ModelTooLargeError
from kripke.explicit.arrays import class_flags
from kripke.explicit.model import KripkeModel
from kripke.language.formula import Agent, Atom
from kripke.symbolic.bdd import Vocabulary
from kripke.symbolic.structure import SymbolicModel, bits_for, fresh_name, numbered


@dataclass(frozen=True)
class Translation:
    """A symbolic model and, for each world of the explicit one, its state."""

    symbolic: SymbolicModel
    states: tuple[dict[Atom, bool], ...]


def translate(model: KripkeModel, max_worlds: int = 100_000) -> Translation:
    """The knowledge structure of an explicit model, with the state of each of its worlds."""
    if model.n_worlds > max_worlds:
        raise ModelTooLargeError(model.n_worlds, max_worlds, task="to translate",
                                 advice="build the symbolic model directly")
    atoms = model.atoms
    values = {atom: np.asarray(model.atom_values(atom), dtype=bool) for atom in atoms}
    names = {a.name for a in atoms}
    obs_name, copy_name = fresh_name("obs", names), fresh_name("copy", names | {"obs"})
    columns: dict[Atom, np.ndarray] = dict(values)
    observations: dict[Agent, list[Atom]] = {}
    for agent in model.agents:
        classes, keys = np.unique(model.observation(agent), return_inverse=True)
        keys = keys.reshape(-1)
        constant = [a for a in atoms
                    if not class_flags(keys, classes.size, values[a]).all(axis=1).any()]
        seen: list[Atom] = list(constant)
        told = np.unique(np.stack([values[a] for a in constant], axis=1), axis=0).shape[0] \
            if constant else 1
        if told < classes.size:  # the atoms it knows do not tell its classes apart: number them
            for bit in range(bits_for(classes.size)):
                aux = Atom(obs_name, (agent, bit))
                columns[aux] = (keys >> bit) & 1 == 1
                seen.append(aux)
        observations[agent] = seen
    table = np.stack(list(columns.values()), axis=1) if columns else np.zeros((model.n_worlds, 0),
                                                                               dtype=bool)
    _, group = np.unique(table, axis=0, return_inverse=True)
    group = group.reshape(-1)
    copy = np.array(numbered(group.tolist()), dtype=np.int64)  # which copy of its state
    for bit in range(bits_for(int(copy.max(initial=0)) + 1)):
        columns[Atom(copy_name, (bit,))] = (copy >> bit) & 1 == 1
    vocabulary = Vocabulary(columns)
    rows = np.stack(list(columns.values()), axis=1).tolist() if columns else [[]] * model.n_worlds
    states = tuple(dict(zip(columns, row, strict=True)) for row in rows)
    law = vocabulary.false
    for state in states:
        law = law | vocabulary.cube(state)
    actual = None if model.actual is None else states[model.actual]
    auxiliary = [a for a in columns if a not in values]
    symbolic = SymbolicModel(vocabulary, law, observations, actual, auxiliary=auxiliary)
    return Translation(symbolic, states)


def to_symbolic(model: KripkeModel, max_worlds: int = 100_000) -> SymbolicModel:
    """The knowledge structure of an explicit model (see :func:`translate`)."""
    return translate(model, max_worlds).symbolic


def to_explicit(model: SymbolicModel, max_worlds: int = 100_000) -> KripkeModel:
    """The explicit model of a knowledge structure: one world per state of the law.

    Worlds come in the order of :meth:`SymbolicModel.states`; auxiliary atoms are not carried
    over (they only encode observations, which become the agents' keys). Raises
    :class:`ModelTooLargeError` past ``max_worlds`` states.
    """
    return model.explicit(model.states(max_worlds))
