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


def blocks(valuation: Sequence[BoolArray], relations: Sequence[sparse.csr_array],
           n_worlds: int, seed: int = 0) -> tuple[IntArray, int]:
    """The coarsest bisimulation: a block number per world (0.., in order of each block's
    first world) and the number of blocks."""
    if n_worlds == 0:
        return np.zeros(0, dtype=np.int64), 0
    atoms = [np.asarray(v, dtype=np.uint64) for v in valuation] or \
        [np.zeros(n_worlds, dtype=np.uint64)]
    block, count = _relabel(atoms)
    rng = np.random.default_rng(seed)
    graphs = [sparse.csr_array(r) for r in relations]
    rows = [np.repeat(np.arange(n_worlds), np.diff(g.indptr)) for g in graphs]
    while True:
        weights = rng.integers(0, np.iinfo(np.uint64).max, size=(2, count), dtype=np.uint64,
                               endpoint=True)
        columns: list[np.ndarray] = [block]
        for g, row in zip(graphs, rows, strict=True):
            # each (world, block reached) once, then the sum of the blocks' weights per world
            reached = distinct(row * count + block[g.indices])  # sorted by world
            world, target = np.divmod(reached, count)
            starts = np.flatnonzero(np.r_[True, world[1:] != world[:-1]]) if world.size \
                else np.zeros(0, dtype=np.int64)
            for w in weights:
                sums = np.zeros(n_worlds, dtype=np.uint64)
                if world.size:  # the weights of a world's blocks, summed modulo 2**64
                    sums[world[starts]] = np.add.reduceat(w[target], starts)
                columns.append(sums)
        refined, new_count = _relabel(columns)
        if new_count == count:
            return refined, count
        block, count = refined, new_count
