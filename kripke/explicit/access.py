"""One agent's relation in a belief model, stored by classes: labels per world and arrows
between labels, so that arrows built from classes are never listed world by world.

An S5 agent's relation is a partition: w → v exactly when w and v are in one class. Listing it
as arrows costs the sum of the squares of the class sizes: one class of 18,500 worlds is 342
million arrows (2.5 GiB), which is what an event that one agent cannot tell apart made of a
1,850-world model. So an :class:`Access` holds

* ``labels``: one label per world, 0..size-1, every label held by some world;
* ``arrows``: a CSR matrix between labels (``arrows[l, m]``: from a world labelled l the agent
  considers every world labelled m possible), or None for a partition (the identity between
  labels: the labels are the classes).

w → v exactly when ``arrows[labels[w], labels[v]]``. A relation given arrow by arrow is the
case ``labels = range(n)``; a partition has no arrows at all; the product of a partition
with an event's arrows (a private announcement: "b believes nothing happened") labels each
pair by (class, event) and holds the event's arrows once per class, not once per pair of
worlds. Every question is asked of the labels and the arrows between them, so its cost is the
worlds plus :attr:`Access.label_arrows`, never the arrows between worlds
(:attr:`Access.world_arrows`), which only a listing of them (a drawing, a file) pays.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np
from scipy import sparse

from kripke.budget import check_stopped
from kripke.explicit.arrays import BoolArray, IntArray, distinct

type Matrix = sparse.csr_array

#: Stored arrows per chunk where a pass over them widens them (a few MB at a time).
_ARROWS = 1 << 21


def dense_labels(keys: IntArray) -> tuple[IntArray, int]:
    """Keys renumbered 0.. in order of their values (equal keys, equal labels), and how many."""
    present, labels = np.unique(np.asarray(keys, dtype=np.int64), return_inverse=True)
    return labels.reshape(-1).astype(np.int64), int(present.size)


def label_matrix(rows: IntArray, cols: IntArray, size: int) -> Matrix:
    """The CSR matrix (int8) of the arrows (rows[i], cols[i]) among ``size`` labels, each once."""
    codes = distinct(np.asarray(rows, dtype=np.int64) * size + np.asarray(cols, dtype=np.int64))
    return sparse.csr_array((np.ones(codes.size, dtype=np.int8), np.divmod(codes, size)),
                            shape=(size, size))


@dataclass(frozen=True, eq=False)
class Access:
    """An agent's relation: w → v when ``arrows[labels[w], labels[v]]`` (None: a partition,
    whose labels are its classes). Immutable; see the module docstring for why."""

    labels: IntArray
    size: int
    arrows: Matrix | None
    _kept: dict[str, IntArray | int] = field(default_factory=dict, repr=False)  # worked out once

    @classmethod
    def partition(cls, keys: IntArray) -> Access:
        """The partition of observation keys: worlds with equal keys see each other."""
        labels, size = dense_labels(keys)
        return cls(labels, size, None)

    @classmethod
    def of_matrix(cls, matrix: Matrix) -> Access:
        """A relation given arrow by arrow (row w: the worlds w points to)."""
        n = matrix.shape[0]
        if isinstance(matrix, sparse.csr_array) and matrix.has_canonical_format and \
                bool(np.all(matrix.data != 0)):  # as relation_matrix makes it: taken as is
            return cls(np.arange(n, dtype=np.int64), n, sparse.csr_array(matrix, dtype=np.int8))
        coo = sparse.coo_array(matrix)
        keep = coo.data != 0
        return cls(np.arange(n, dtype=np.int64), n,
                   label_matrix(coo.row[keep], coo.col[keep], n))

    @property
    def is_partition(self) -> bool:
        return self.arrows is None

    @property
    def n_worlds(self) -> int:
        return int(self.labels.size)

    @property
    def by_world(self) -> bool:
        """Whether each world is its own label (arrows given world by world): then the stored
        arrows are the arrows between worlds, and a question may skip the labels."""
        if "by_world" not in self._kept:
            self._kept["by_world"] = int(self.arrows is not None and self.size == self.n_worlds
                                         and bool(np.all(self.labels == np.arange(self.size))))
        return bool(self._kept["by_world"])

    @property
    def label_arrows(self) -> int:
        """The arrows it stores (0 for a partition): with the worlds, what every question costs."""
        return 0 if self.arrows is None else int(self.arrows.nnz)

    @property
    def sizes(self) -> IntArray:
        """Worlds per label."""
        if "sizes" not in self._kept:
            self._kept["sizes"] = np.bincount(self.labels, minlength=self.size)
        sizes = self._kept["sizes"]
        assert isinstance(sizes, np.ndarray)
        return sizes

    @property
    def world_arrows(self) -> int:
        """The arrows between worlds it stands for (what listing them would cost): Σ over
        l → m of |l|·|m|, a stored arrow at a time in chunks (a product with the sizes would
        widen every stored arrow to 64 bits at once)."""
        if "world_arrows" not in self._kept:
            sizes = self.sizes
            if self.arrows is None:
                total = int(np.dot(sizes, sizes))
            elif self.size == self.n_worlds:  # a label per world: one arrow each
                total = int(self.arrows.nnz)
            else:
                total = 0
                indptr, indices = self.arrows.indptr, self.arrows.indices
                bounds = np.unique(np.r_[np.searchsorted(
                    indptr, np.arange(0, indices.size, _ARROWS), side="right") - 1, self.size])
                for start, stop in zip(bounds[:-1].tolist(), bounds[1:].tolist(), strict=True):
                    rows = np.repeat(np.arange(start, stop), np.diff(indptr[start:stop + 1]))
                    total += int(np.dot(sizes[rows],
                                        sizes[indices[indptr[start]:indptr[stop]]]))
            self._kept["world_arrows"] = total
        return int(self._kept["world_arrows"])

    @property
    def reach_work(self) -> int:
        """The (label, world) pairs its stored arrows lead to: what a round of bisimulation
        refinement walks at most (:mod:`kripke.explicit.bisim`); none for a partition."""
        if self.arrows is None:
            return 0
        return int(self.sizes[self.arrows.indices].sum())

    # --- the checker's two questions -----------------------------------------------------

    def _any(self, values: BoolArray) -> BoolArray:
        """Per label: whether some world with the label has the value."""
        found = np.zeros(self.size, dtype=bool)
        found[self.labels[values]] = True
        return found

    def _step(self, per_label: BoolArray) -> BoolArray:
        """Per label: whether an arrow from it reaches a label where ``per_label`` is true."""
        if self.arrows is None:
            return per_label
        found: BoolArray = np.asarray(self.arrows @ per_label.astype(np.int8)) > 0
        return found

    def box(self, values: BoolArray) -> BoolArray:
        """Per world: every world it points to has the value (true where it points nowhere)."""
        result: BoolArray = ~self._step(self._any(~values))[self.labels]
        return result

    def diamond(self, values: BoolArray) -> BoolArray:
        """Per world: some world it points to has the value."""
        result: BoolArray = self._step(self._any(values))[self.labels]
        return result

    # --- what an explanation or a picture reads --------------------------------------------

    def successors(self, world: int) -> IntArray:
        """The worlds ``world`` points to, in order."""
        if self.arrows is None:
            return np.flatnonzero(self.labels == self.labels[world])
        row = self.labels[world]
        reached = np.zeros(self.size, dtype=bool)
        reached[self.arrows.indices[self.arrows.indptr[row]:self.arrows.indptr[row + 1]]] = True
        return np.flatnonzero(reached[self.labels])

    def image(self, worlds: IntArray) -> BoolArray:
        """Per world: whether one of ``worlds`` points to it."""
        start = np.zeros(self.size, dtype=bool)
        start[self.labels[worlds]] = True
        if self.arrows is not None:
            start = np.asarray(self.arrows.T @ start.astype(np.int8)) > 0
        found: BoolArray = start[self.labels]
        return found

    def pointing(self, worlds: IntArray, target: int) -> IntArray:
        """Those of ``worlds`` that point to ``target``."""
        goal = self.labels[target]
        if self.arrows is None:
            found: IntArray = worlds[self.labels[worlds] == goal]
            return found
        column = np.zeros(self.size, dtype=bool)
        column[np.flatnonzero(self.arrows[:, [goal]].toarray().reshape(-1))] = True
        chosen: IntArray = worlds[column[self.labels[worlds]]]
        return chosen

    def dead_ends(self) -> IntArray:
        """The worlds that point nowhere (none in a partition)."""
        if self.arrows is None:
            return np.zeros(0, dtype=np.int64)
        return np.flatnonzero((np.diff(self.arrows.indptr) == 0)[self.labels])

    def matrix(self) -> Matrix:
        """The arrows between worlds as a CSR matrix: :attr:`world_arrows` of them, so only a
        listing asks for it."""
        n = self.n_worlds
        members = sparse.csr_array((np.ones(n, dtype=np.int8), (self.labels, np.arange(n))),
                                   shape=(self.size, n))
        between = sparse.identity(self.size, dtype=np.int8, format="csr") \
            if self.arrows is None else self.arrows
        product = (members.T @ between @ members).tocsr()
        product.data[:] = 1
        product.sort_indices()
        return sparse.csr_array(product, dtype=np.int8)

    # --- new relations ---------------------------------------------------------------------

    def restrict(self, keep: IntArray) -> Access:
        """The relation among the worlds ``keep`` (sorted indices): labels no world keeps are
        dropped, with their arrows."""
        labels = self.labels[keep]
        used = np.zeros(self.size, dtype=bool)
        used[labels] = True
        if used.all():
            return Access(labels, self.size, self.arrows)
        renumber = np.cumsum(used) - 1
        arrows = None if self.arrows is None else \
            sparse.csr_array(self.arrows[used][:, used])
        return Access(renumber[labels], int(used.sum()), arrows)

    def frame_work(self) -> int:
        """The pairs a check of transitivity and euclideanness walks (the products of the
        arrows with themselves, between labels): what :meth:`properties` costs."""
        if self.arrows is None:
            return 0
        out_degree = np.diff(self.arrows.indptr)
        in_degree = np.bincount(self.arrows.indices, minlength=self.size)
        # R·R pairs: per arrow l → m, m's out-degree; Rᵀ·R pairs: per label, in × out
        return int(out_degree[self.arrows.indices].sum()) + int(np.dot(in_degree, out_degree))

    def alike(self) -> bool:
        """Whether every arrow joins two labels with the same arrows: transitive and euclidean
        at once (l → m gives m's arrows ⊆ l's by transitivity, ⊇ by euclideanness), what S5
        and KD45 ask beyond reflexive or serial. One pass: each label's arrows fingerprinted by
        two sums of random 64-bit weights (as the bisimulation fingerprints a set of blocks),
        compared along every arrow; two different sets agree with a chance near 2⁻¹²⁸."""
        if self.arrows is None:
            return True
        r = self.arrows
        rng = np.random.default_rng(0)
        degree = np.diff(r.indptr)
        targets = r.indices.astype(np.intp)  # indexed twice a round: converted once
        filled = np.flatnonzero(degree)
        for _ in range(2):
            weights = rng.integers(0, np.iinfo(np.uint64).max, size=self.size,
                                   dtype=np.uint64, endpoint=True)
            sums = np.zeros(self.size, dtype=np.uint64)  # summed modulo 2**64, row by row
            if filled.size:
                sums[filled] = np.add.reduceat(weights[targets], r.indptr[filled])
            if not bool(np.array_equal(np.repeat(sums, degree), sums[targets])):
                return False
        return True

    def properties(self, check: Callable[[int], None] = lambda work: None,
                   frame_only: bool = False) -> frozenset[str]:
        """Which of reflexive, serial, transitive, symmetric and euclidean the relation is.
        Asked of the arrows between labels: every label is some world's, and w → v depends on
        the labels alone, so each property holds between worlds exactly when it holds between
        labels. Reflexive, serial, symmetric and (both at once) transitive-and-euclidean take
        one pass; otherwise transitivity and euclideanness take the products of the arrows
        with themselves, whose pairs ``check`` is told first (and may refuse). ``frame_only``:
        only what the frame class needs (transitivity, for S4, only of a reflexive relation)."""
        if self.arrows is None:
            return frozenset({"reflexive", "serial", "transitive", "symmetric", "euclidean"})
        r = self.arrows
        found = set()
        if self.size == 0 or bool(np.all(r.diagonal() > 0)):
            found.add("reflexive")
        if self.size == 0 or bool(np.all(np.diff(r.indptr) > 0)):
            found.add("serial")
        alike = self.alike()
        if frame_only:  # symmetric matters only for S5, which reflexive and alike give
            if alike and "reflexive" in found:
                found.add("symmetric")
        elif (r != r.T).nnz == 0:
            found.add("symmetric")
        if alike:
            return frozenset(found | {"transitive", "euclidean"})
        if frame_only and "reflexive" not in found:
            return frozenset(found)  # not S5, KD45 nor S4, whatever else it is
        check(self.frame_work())
        check_stopped()
        if _within(r @ r, r):
            found.add("transitive")
        if not frame_only and _within(r.T @ r, r):  # w → v and w → u give v → u
            found.add("euclidean")
        return frozenset(found)


def _within(pairs: Matrix, relation: Matrix) -> bool:
    """Whether every arrow of ``pairs`` is an arrow of ``relation``."""
    have = sparse.csr_array(pairs > 0, dtype=np.int8)
    return int(have.multiply(relation > 0).nnz) == int(have.nnz)


def product(access: Access, worlds: IntArray, chosen: IntArray, n_events: int,
            event_keys: IntArray | None, event_arrows: Matrix | None) -> Access:
    """The relation after a product update on the pairs (``worlds[i]``, ``chosen[i]``): (w, e)
    → (v, f) when w → v and e → f. ``event_keys`` (per event its class) when the agent's view
    of the events is a partition, else ``event_arrows`` (m × m). A partition times a
    partition is the partition of pairs of labels; anything else is labelled by (label, event)
    with the arrows of both, built once per arrow between labels (see :func:`product_arrows`
    for their number, which the caller bounds first)."""
    if access.arrows is None and event_keys is not None:
        width = int(event_keys.max()) + 1
        return Access.partition(access.labels[worlds] * width + event_keys[chosen])
    codes = access.labels[worlds] * n_events + chosen
    present, labels = np.unique(codes, return_inverse=True)
    between = access.arrows if access.arrows is not None else \
        sparse.identity(access.size, dtype=np.int8, format="csr")
    events = event_arrows if event_arrows is not None else _partition_arrows(event_keys)
    return Access(labels.reshape(-1).astype(np.int64), int(present.size),
                  _pair_arrows(between, events, present, n_events))


def _partition_arrows(keys: IntArray | None) -> Matrix:
    """An agent's partition of the events as arrows between them (m × m, m the events): what
    a relation with arrows of its own is multiplied by."""
    assert keys is not None
    same = keys[:, None] == keys[None, :]
    return sparse.csr_array(same.astype(np.int8))


def _pair_arrows(between: Matrix, events: Matrix, present: IntArray, n_events: int
                 ) -> Matrix:
    """The arrows between the present (label, event) codes, as a CSR matrix over their
    positions in ``present``: (l, e) → (m, f) for l → m and e → f, where f happens at m.

    Built straight into the CSR arrays (int32 columns and int8 ones), not through a list of
    pairs: the arrows are distinct by construction, so the first pass counts each row's
    arrows (a product of the label arrows with what happens where, then with the event
    arrows) and the second writes them, an event arrow at a time, each row filled from its
    own cursor. Peak memory is about five bytes an arrow beside one event arrow's worth."""
    size, rows_n = between.shape[0], present.size
    happens = np.zeros((size, n_events), dtype=bool)
    happens[present // n_events, present % n_events] = True
    position = np.full(size * n_events, -1, dtype=np.int64)
    position[present] = np.arange(rows_n)
    wide = np.int32 if size * n_events < 2**31 else np.int64  # a row's count is below
    per_label = np.asarray(between @ happens.astype(wide))  # labels reached where f happens
    per_code = np.asarray(sparse.csr_array(events) @ per_label.T).T  # (l, e): Σ over e → f
    counts = per_code.reshape(-1)[present].astype(np.int64)
    indptr = np.zeros(rows_n + 1, dtype=np.int64)
    np.cumsum(counts, out=indptr[1:])
    index_type = np.int32 if max(rows_n, int(indptr[-1])) < 2**31 else np.int64
    indices = np.empty(int(indptr[-1]), dtype=index_type)
    cursor = indptr[:-1].copy()
    coo = between.tocoo()
    source_all, target_all = coo.row.astype(np.int64), coo.col.astype(np.int64)
    for e in range(n_events):
        check_stopped()  # an event at a time: a tab that closed stops a big product here
        targets = events.indices[events.indptr[e]:events.indptr[e + 1]]
        if not targets.size:
            continue
        at = happens[source_all, e]
        source = position[source_all[at] * n_events + e]
        target = target_all[at]
        order = np.argsort(source, kind="stable")
        source, target = source[order], target[order]
        for f in np.sort(targets).tolist():
            reach = happens[target, f]
            row, col = source[reach], position[target[reach] * n_events + f]
            if not row.size:
                continue
            first = np.r_[True, row[1:] != row[:-1]]
            rank = np.arange(row.size) - np.maximum.accumulate(
                np.where(first, np.arange(row.size), 0))
            indices[cursor[row] + rank] = col
            cursor[row[first]] += np.diff(np.r_[np.flatnonzero(first), row.size])
    return sparse.csr_array((np.ones(indices.size, dtype=np.int8), indices,
                             indptr.astype(index_type)), shape=(rows_n, rows_n))


def product_arrows(access: Access, possible: BoolArray, event_keys: IntArray | None,
                   event_arrows: Matrix | None) -> int:
    """How many arrows (between labels) :func:`product` would store, counted exactly before
    anything is built: 0 for a partition times a partition; else, grouping the labels by the
    events that can happen at them (``possible``: per world and event), the arrows between
    each two groups times the event arrows between their events. Linear in the worlds and
    the stored arrows; the groups are as many as the different sets of events that happen."""
    if access.arrows is None and event_keys is not None:
        return 0
    n_events = possible.shape[1]
    happens = np.zeros((access.size, n_events), dtype=bool)
    world, event = np.nonzero(possible)
    happens[access.labels[world], event] = True
    signatures, group = np.unique(happens, axis=0, return_inverse=True)
    group = group.reshape(-1)
    between = access.arrows if access.arrows is not None else \
        sparse.identity(access.size, dtype=np.int8, format="csr")
    events = event_arrows if event_arrows is not None else _partition_arrows(event_keys)
    coo = between.tocoo()
    k = signatures.shape[0]
    pairs, counts = np.unique(group[coo.row] * k + group[coo.col], return_counts=True)
    sig = signatures.astype(np.int64)
    reach = sig @ events.toarray().astype(np.int64)  # per group: the events its events reach
    source, target = np.divmod(pairs, k)
    per_pair = np.einsum("ij,ij->i", reach[source], sig[target])
    return int(np.dot(per_pair, counts))
