"""Bisimulation contraction: which worlds no formula of the language can tell apart.

Two worlds are bisimilar when they agree on every atom and each agent's arrows from one can be
matched by its arrows from the other, into bisimilar worlds; bisimilar worlds satisfy the same
formulas, so a model may keep one world per class
(:meth:`kripke.explicit.belief.BeliefModel.minimised`).

The classes are found by partition refinement (Kanellakis and Smolka's naive algorithm, run on
whole arrays): start from the worlds grouped by their atoms; in each round, split every block
by the set of blocks each agent's arrows reach from a world; stop when no block splits. A set
of blocks is fingerprinted by two sums of random 64-bit weights (one per block), so a round is
a few numpy passes over the arrows; two different sets agree on both sums with a chance of
about 2⁻¹²⁸ per pair, which the tests cannot tell from never. Rounds are as many as the
longest chain of distinctions (Paige and Tarjan's O(m log n) algorithm would bound the work on
long chains; networkx has no bisimulation, and the models here are shallow). The answer is
the coarsest bisimulation, so the contracted model has no two bisimilar worlds.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from scipy import sparse
from scipy.sparse import csgraph

from kripke.budget import check_stopped
from kripke.explicit.access import Access, label_matrix
from kripke.explicit.arrays import BoolArray, IntArray, distinct


def _relabel(columns: Sequence[np.ndarray]) -> tuple[IntArray, int]:
    """Equal rows of the columns get equal numbers, 0.., in order of first appearance: one
    lexicographic sort of the rows, and a new number wherever a row differs from the last."""
    stacked = [np.asarray(c, dtype=np.uint64) for c in columns]
    order = np.lexsort(stacked[::-1])
    n = order.size
    change = np.zeros(n, dtype=bool)
    change[0] = True
    for column in stacked:
        ordered = column[order]
        change[1:] |= ordered[1:] != ordered[:-1]
    group = np.empty(n, dtype=np.int64)
    group[order] = np.cumsum(change) - 1
    count = int(change.sum())
    first = np.full(count, n, dtype=np.int64)
    np.minimum.at(first, group, np.arange(n))
    rank = np.empty(count, dtype=np.int64)
    rank[np.argsort(first, kind="stable")] = np.arange(count)
    return rank[group], count


def blocks(valuation: Sequence[BoolArray], relations: Sequence[Access],
           n_worlds: int, seed: int = 0) -> tuple[IntArray, int]:
    """The coarsest bisimulation: a block number per world (0.., in order of each block's
    first world) and the number of blocks. The blocks an agent reaches from a world are
    those its label reaches, so they are found per label (a partition: the blocks of the
    class), never per arrow between worlds."""
    if n_worlds == 0:
        return np.zeros(0, dtype=np.int64), 0
    atoms = [np.asarray(v, dtype=np.uint64) for v in valuation] or \
        [np.zeros(n_worlds, dtype=np.uint64)]
    block, count = _relabel(atoms)
    rng = np.random.default_rng(seed)
    while True:
        check_stopped()  # a round at a time: a caller that no longer wants it stops it
        weights = rng.integers(0, np.iinfo(np.uint64).max, size=(2, count), dtype=np.uint64,
                               endpoint=True)
        columns: list[np.ndarray] = [block]
        for access in relations:
            label, target = _reached(access, block, count)  # sorted by label
            starts = np.flatnonzero(np.r_[True, label[1:] != label[:-1]]) if label.size \
                else np.zeros(0, dtype=np.int64)
            for w in weights:
                sums = np.zeros(access.size, dtype=np.uint64)
                if label.size:  # the weights of a label's blocks, summed modulo 2**64
                    sums[label[starts]] = np.add.reduceat(w[target], starts)
                columns.append(sums[access.labels])
        refined, new_count = _relabel(columns)
        if new_count == count:
            return refined, count
        block, count = refined, new_count


def _reached(access: Access, block: IntArray, count: int) -> tuple[IntArray, IntArray]:
    """Each (label, block reached from it) once, sorted: the blocks of the worlds of each
    label the label's arrows lead to (its own, for a partition)."""
    if access.by_world:  # a label per world: the blocks its arrows reach, directly
        assert access.arrows is not None
        rows = np.repeat(np.arange(access.size), np.diff(access.arrows.indptr))
        return np.divmod(distinct(rows * count + block[access.arrows.indices]), count)
    held = distinct(access.labels * count + block)  # (label, block of a world with it)
    label, target = np.divmod(held, count)
    if access.arrows is None:
        return label, target
    # through the arrows: (l, b) for each arrow l → m and each block b held at m
    order_start = np.searchsorted(label, np.arange(access.size + 1))
    coo = access.arrows.tocoo()
    each = order_start[coo.col + 1] - order_start[coo.col]
    arrow = np.repeat(np.arange(coo.row.size), each)
    offset = np.arange(arrow.size) - np.repeat(np.cumsum(each) - each, each)
    reached = distinct(coo.row[arrow].astype(np.int64) * count +
                       target[order_start[coo.col[arrow]] + offset])
    found_label, found_block = np.divmod(reached, count)
    return found_label, found_block


def contracted(access: Access, block: IntArray, count: int, first: IntArray) -> Access:
    """The relation between blocks after contraction: block B points to B' when a world of B
    points to one of B'. Bisimilar worlds reach the same blocks, so B's first world says. A
    partition stays a partition: two blocks see each other exactly when a class holds worlds
    of both, so the new classes are the components of blocks joined by classes."""
    if access.arrows is None:
        graph = sparse.csr_array((np.ones(block.size, dtype=np.int8),
                                  (block, count + access.labels)),
                                 shape=(count + access.size, count + access.size))
        _, component = csgraph.connected_components(graph, directed=False)
        return Access.partition(component[:count])
    label, target = _reached(access, block, count)
    own = access.labels[first]  # per block, its first world's label
    start, stop = np.searchsorted(label, own), np.searchsorted(label, own, side="right")
    each = stop - start
    source = np.repeat(np.arange(count), each)
    offset = np.arange(source.size) - np.repeat(np.cumsum(each) - each, each)
    return Access(np.arange(count, dtype=np.int64), count,
                  label_matrix(source, target[np.repeat(start, each) + offset], count))
