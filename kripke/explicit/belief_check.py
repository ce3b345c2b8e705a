"""The checker of models with any accessibility relation
(:class:`kripke.explicit.belief.BeliefModel`):
every operator is a sparse matrix–vector product or a graph search over all worlds at once.

Each agent's relation is a CSR matrix R (row w holds the worlds w points to), so

* ``K_a φ`` (on a belief model: belief) holds at w when no arrow of a leads from w to a world
  where φ fails: ``R_a · ¬φ == 0``; ``M_a φ`` when one leads to φ: ``R_a · φ > 0``;
* ``D_G φ`` uses the intersection of G's relations (elementwise product of the matrices);
* ``C_G φ`` holds at w when no world reachable in one or more steps of G's arrows fails φ: one
  breadth-first search (scipy.sparse.csgraph, in C) backwards from the failing worlds over the
  union of G's relations, then one step more;
* ``[!ψ]φ`` and ``<!ψ>φ`` evaluate φ on the model restricted to ψ.

On an S5 relation these are the partition checker's answers (:mod:`kripke.explicit.check`); the
tests hold both to :mod:`kripke.reference`, which reads the definitions world by world.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Protocol

import numpy as np
from scipy import sparse
from scipy.sparse import csgraph

from kripke.budget import check_stopped
from kripke.explicit.arrays import BoolArray
from kripke.language.formula import (
    Agent,
    And,
    Announce,
    AnnounceDual,
    Atom,
    Bottom,
    Common,
    Distributed,
    Everyone,
    Formula,
    Iff,
    Implies,
    Knows,
    Not,
    Or,
    Possible,
    Top,
)

type Relation = sparse.csr_array


class RelationalModel(Protocol):
    """What the checker asks of a model: its worlds, relations and atoms, and a restriction."""

    @property
    def n_worlds(self) -> int: ...

    def agent_indices(self, group: Iterable[Agent] | None) -> tuple[int, ...]: ...

    def agent_index(self, agent: Agent) -> int: ...

    def relation_of(self, agent_index: int) -> Relation: ...

    def atom_values(self, atom: Atom | str) -> BoolArray: ...

    def restrict(self, mask: BoolArray) -> RelationalModel: ...


def box(relation: Relation, values: BoolArray) -> BoolArray:
    """Per world: every world it points to has the value (true where it points nowhere)."""
    failing = (~values).astype(np.int8)
    found: BoolArray = np.asarray(relation @ failing) == 0
    return found


def diamond(relation: Relation, values: BoolArray) -> BoolArray:
    """Per world: some world it points to has the value."""
    found: BoolArray = np.asarray(relation @ values.astype(np.int8)) > 0
    return found


def reaches(relation: Relation, targets: BoolArray) -> BoolArray:
    """Per world: some target is reachable from it in one or more steps of ``relation``. One
    breadth-first search backwards from all the targets at once (a source node joined to
    each), then one step forwards: linear in worlds and arrows, whatever the diameter."""
    n = relation.shape[0]
    if not targets.any():
        return np.zeros(n, dtype=bool)
    source = np.flatnonzero(targets)
    backwards = sparse.vstack([relation.T.tocsr(),
                               sparse.csr_array((np.ones(source.size, dtype=np.int8),
                                                 (np.zeros(source.size, dtype=np.int64),
                                                  source)), shape=(1, n))])
    backwards = sparse.hstack([backwards, sparse.csr_array((n + 1, 1), dtype=np.int8)]).tocsr()
    order = csgraph.breadth_first_order(backwards, n, directed=True, return_predecessors=False)
    within = np.zeros(n + 1, dtype=bool)
    within[order] = True  # reach a target in zero or more steps
    return diamond(relation, within[:n])


def union(relations: list[Relation], n: int) -> Relation:
    """The arrows of any of the relations."""
    total = sparse.csr_array((n, n), dtype=np.int8)
    for relation in relations:
        total = total + relation
    return total


def intersection(relations: list[Relation], n: int) -> Relation:
    """The arrows every relation has (all pairs for an empty group)."""
    if not relations:
        return sparse.csr_array(np.ones((n, n), dtype=np.int8))
    shared = relations[0]
    for relation in relations[1:]:
        shared = shared.multiply(relation).tocsr()
    return shared


def evaluate(model: RelationalModel, formula: Formula) -> BoolArray:
    """The formula's value at every world of the model."""
    check_stopped()
    n = model.n_worlds
    match formula:
        case Top():
            return np.ones(n, dtype=bool)
        case Bottom():
            return np.zeros(n, dtype=bool)
        case Atom():
            return model.atom_values(formula)
        case Not(g):
            return ~evaluate(model, g)
        case And(parts):
            result = np.ones(n, dtype=bool)
            for part in parts:
                result &= evaluate(model, part)
            return result
        case Or(parts):
            result = np.zeros(n, dtype=bool)
            for part in parts:
                result |= evaluate(model, part)
            return result
        case Implies(left, right):
            result = ~evaluate(model, left)
            result |= evaluate(model, right)
            return result
        case Iff(left, right):
            same: BoolArray = evaluate(model, left) == evaluate(model, right)
            return same
        case Knows(agent, g):
            return box(model.relation_of(model.agent_index(agent)), evaluate(model, g))
        case Possible(agent, g):
            return diamond(model.relation_of(model.agent_index(agent)), evaluate(model, g))
        case Everyone(group, g):
            values = evaluate(model, g)
            result = np.ones(n, dtype=bool)
            for i in model.agent_indices(group):
                result &= box(model.relation_of(i), values)
            return result
        case Distributed(group, g):
            shared = intersection([model.relation_of(i) for i in model.agent_indices(group)], n)
            return box(shared, evaluate(model, g))
        case Common(group, g):
            joined = union([model.relation_of(i) for i in model.agent_indices(group)], n)
            return ~reaches(joined, ~evaluate(model, g))
        case Announce(announcement, g):
            condition = evaluate(model, announcement)
            result = ~condition
            result[condition] = evaluate(model.restrict(condition), g)
            return result
        case AnnounceDual(announcement, g):
            condition = evaluate(model, announcement)
            result = np.zeros(n, dtype=bool)
            result[condition] = evaluate(model.restrict(condition), g)
            return result
    raise TypeError(f"not a formula: {formula!r}")
