"""The checker of models with any accessibility relation
(:class:`kripke.explicit.belief.BeliefModel`):
every operator is a pass over the worlds and the arrows between their classes, or one graph
search.

Each agent's relation is held by classes (:class:`~kripke.explicit.access.Access`: a label per
world, a CSR matrix Q of arrows between labels, none for a partition), so

* ``K_a φ`` (on a belief model: belief) holds at w when no arrow of a leads from w to a world
  where φ fails: the labels holding a failing world, one product with Q, read back per world
  (a partition: a class's minimum); ``M_a φ`` likewise with a world where φ holds;
* ``D_G φ`` uses the intersection of G's relations, labelled by all of G's labels together;
* ``C_G φ`` holds at w when no world reachable in one or more steps of G's arrows fails φ: one
  breadth-first search (scipy.sparse.csgraph, in C) backwards from the failing worlds over a
  graph of the worlds and G's labels, then one step more;
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
from kripke.explicit.access import Access, dense_labels, label_matrix
from kripke.explicit.arrays import BoolArray, IntArray
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
    """What the checker asks of a model: its worlds, each agent's relation by classes
    (:class:`~kripke.explicit.access.Access`), its atoms, and a restriction."""

    @property
    def n_worlds(self) -> int: ...

    def agent_indices(self, group: Iterable[Agent] | None) -> tuple[int, ...]: ...

    def agent_index(self, agent: Agent) -> int: ...

    def access_of(self, agent_index: int) -> Access: ...

    def atom_values(self, atom: Atom | str) -> BoolArray: ...

    def restrict(self, mask: BoolArray) -> RelationalModel: ...


def reaches(relations: list[Access], targets: BoolArray) -> BoolArray:
    """Per world: some target is reachable from it in one or more steps of any of the
    relations. One breadth-first search backwards from all the targets at once over a graph
    of the worlds and each relation's labels (a step w → v of a relation is w → its label →
    an arrow to v's label → v; a partition's label is one node both ways), then one step
    forwards: linear in the worlds and the stored arrows, whatever the diameter, and no class
    is ever listed as arrows between its worlds."""
    n = targets.size
    if not targets.any() or not relations:
        return np.zeros(n, dtype=bool)
    heads: list[IntArray] = []  # backwards edges: from the head of a step to its tail
    tails: list[IntArray] = []
    worlds = np.arange(n, dtype=np.int64)
    top = n
    for access in relations:
        into = top + access.labels  # v's label: the node a step into v passes
        if access.arrows is None:
            heads += [worlds, into]
            tails += [into, worlds]
            top += access.size
            continue
        coo = access.arrows.tocoo()
        if access.by_world:  # the stored arrows join worlds: w → v is the edge v ← w
            heads.append(coo.col.astype(np.int64))
            tails.append(coo.row.astype(np.int64))
            continue
        out = top + access.size + access.labels  # the label a step leaves from
        heads += [worlds, top + coo.col.astype(np.int64), out]
        tails += [into, top + access.size + coo.row.astype(np.int64), worlds]
        top += 2 * access.size
    source = np.flatnonzero(targets)
    heads.append(np.full(source.size, top, dtype=np.int64))
    tails.append(source)
    head, tail = np.concatenate(heads), np.concatenate(tails)
    graph = sparse.csr_array((np.ones(head.size, dtype=np.int8), (head, tail)),
                             shape=(top + 1, top + 1))
    order = csgraph.breadth_first_order(graph, top, directed=True, return_predecessors=False)
    within = np.zeros(top + 1, dtype=bool)
    within[order] = True  # reach a target in zero or more steps
    result = np.zeros(n, dtype=bool)
    for access in relations:
        result |= access.diamond(within[:n])
    return result


def intersection(relations: list[Access], n: int) -> Access:
    """The arrows every relation has (all pairs for an empty group), by classes: the worlds
    are labelled by their labels in every relation together; between those joint labels, the
    arrows of the relation with the fewest arrows between worlds that every other relation
    has too (a partition: the same class)."""
    if not relations:
        return Access.partition(np.zeros(n, dtype=np.int64))
    joint = np.zeros(n, dtype=np.int64)
    for access in relations:
        joint, _ = dense_labels(joint * access.size + access.labels)
    joint, size = dense_labels(joint)
    arrowed = [a for a in relations if a.arrows is not None]
    if not arrowed:
        return Access.partition(joint)
    first_world = np.zeros(size, dtype=np.int64)
    first_world[joint[::-1]] = np.arange(n - 1, -1, -1)
    least = min(arrowed, key=lambda a: a.world_arrows)
    own = least.labels[first_world]  # each joint label's label in that relation
    rows, cols = _expand(least, own)
    keep = np.ones(rows.size, dtype=bool)
    for access in relations:
        if access is least:
            continue
        left, right = access.labels[first_world[rows]], access.labels[first_world[cols]]
        if access.arrows is None:
            keep &= left == right
        else:
            keep &= _has(access.arrows, left, right)
    return Access(joint, size, label_matrix(rows[keep], cols[keep], size))


def _expand(access: Access, own: IntArray) -> tuple[IntArray, IntArray]:
    """The pairs of joint labels (j, k) whose own labels have an arrow of ``access``."""
    assert access.arrows is not None
    order = np.argsort(own, kind="stable")
    count = np.bincount(own, minlength=access.size)
    start = np.concatenate([[0], np.cumsum(count)[:-1]])
    coo = access.arrows.tocoo()
    r, c = coo.row.astype(np.int64), coo.col.astype(np.int64)
    each = count[r] * count[c]
    arrow = np.repeat(np.arange(r.size), each)
    offset = np.arange(arrow.size) - np.repeat(np.cumsum(each) - each, each)
    i, j = np.divmod(offset, count[c][arrow])
    return order[start[r][arrow] + i], order[start[c][arrow] + j]


def _has(arrows: sparse.csr_array, rows: IntArray, cols: IntArray) -> BoolArray:
    """Per pair: whether the matrix has that arrow (its arrows in row-major order are sorted
    codes row · size + column, so one binary search each)."""
    size = arrows.shape[1]
    arrows.sort_indices()
    codes = np.repeat(np.arange(arrows.shape[0], dtype=np.int64) * size,
                      np.diff(arrows.indptr)) + arrows.indices
    asked = rows.astype(np.int64) * size + cols
    if not codes.size:
        return np.zeros(asked.size, dtype=bool)
    at = np.minimum(np.searchsorted(codes, asked), codes.size - 1)
    found: BoolArray = codes[at] == asked
    return found


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
            return model.access_of(model.agent_index(agent)).box(evaluate(model, g))
        case Possible(agent, g):
            return model.access_of(model.agent_index(agent)).diamond(evaluate(model, g))
        case Everyone(group, g):
            values = evaluate(model, g)
            result = np.ones(n, dtype=bool)
            for i in model.agent_indices(group):
                result &= model.access_of(i).box(values)
            return result
        case Distributed(group, g):
            shared = intersection([model.access_of(i) for i in model.agent_indices(group)], n)
            return shared.box(evaluate(model, g))
        case Common(group, g):
            return ~reaches([model.access_of(i) for i in model.agent_indices(group)],
                            ~evaluate(model, g))
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
