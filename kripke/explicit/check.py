"""The fast model checker: every operator over all worlds at once, in O(worlds) numpy passes.

The trick for knowledge is that an agent's relation is a partition given by its observation key:
K_a φ fails at w exactly when some world with w's key fails φ, so one scatter of the failing
worlds' keys into a table of classes and one gather back answer K_a at every world. E_G is a
conjunction of such boxes; D_G boxes over the joint key of the group (the intersection of the
partitions); C_G boxes over the connected components of the union of the group's partitions,
found on a small graph whose nodes are classes, not worlds. Announcements restrict the model.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Protocol

import numpy as np

from kripke.budget import check_stopped
from kripke.explicit.arrays import BoolArray, IntArray, class_flags, gather, pair_flags
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

# A table indexed by pairs of keys is used when no bigger than this; beyond it, sort instead.
_DENSE_LIMIT = 1 << 24


class CheckedModel(Protocol):
    """What the checker reads of a model: :class:`kripke.explicit.model.KripkeModel` is one. Naming
    it
    here keeps the arrow one way (the model calls the checker, never the reverse)."""

    @property
    def n_worlds(self) -> int: ...

    def agent_index(self, agent: Agent) -> int: ...

    def agent_indices(self, group: Iterable[Agent] | None) -> tuple[int, ...]: ...

    def keys(self, agent_index: int) -> IntArray: ...

    def n_keys(self, agent_index: int) -> int: ...

    def atom_values(self, atom: Atom | str, worlds: IntArray | None = None) -> BoolArray: ...

    def observed_atom(self, atom: Atom) -> tuple[int, BoolArray] | None: ...

    def restrict(self, mask: BoolArray) -> CheckedModel: ...


def evaluate(model: CheckedModel, formula: Formula) -> BoolArray:
    """The formula's value at every world. May return a read-only array the model owns."""
    return _Checker(model).value(formula)


def observed_table(model: CheckedModel, formula: Formula) -> tuple[int, BoolArray] | None:
    """(agent index, a bool per key of that agent) if the formula's value at a world is fixed by
    that one agent's key there, else None: see ``_Checker.observed_table``. A ranked deal's
    shift reads a claim's inference (about one agent's hand) so, in one gather over the
    deals instead of an array per atom (:meth:`kripke.explicit.deal.RankedDealModel.shift`)."""
    return _Checker(model).observed_table(formula)


def box(keys: IntArray, n_keys: int, values: BoolArray) -> BoolArray:
    """□φ for a partition given by keys: true where every world of the class satisfies φ."""
    if values.all():
        return np.ones(values.shape, dtype=bool)
    return gather(~class_flags(keys, n_keys, values)[:, 0], keys)


def diamond(keys: IntArray, n_keys: int, values: BoolArray) -> BoolArray:
    """◇φ for a partition given by keys: true where some world of the class satisfies φ."""
    if not values.any():
        return np.zeros(values.shape, dtype=bool)
    return gather(class_flags(keys, n_keys, values)[:, 1].copy(), keys)


def _distinct(codes: IntArray, bound: int) -> IntArray:
    """The distinct values of non-negative codes below ``bound``, sorted."""
    if bound <= max(_DENSE_LIMIT, 4 * codes.size):
        seen = np.zeros(bound, dtype=bool)
        seen[codes] = True
        return np.flatnonzero(seen)
    return np.unique(codes)


class _Checker:
    def __init__(self, model: CheckedModel) -> None:
        self.model = model
        # Per evaluation: tables already found (by node identity) and pair matrices of agents.
        self.tables: dict[int, tuple[Formula, tuple[int, BoolArray] | None]] = {}
        self.pairs: dict[tuple[int, int], BoolArray] = {}

    def value(self, f: Formula) -> BoolArray:
        check_stopped()  # a caller that no longer wants the answer stops us here
        model = self.model
        n = model.n_worlds
        if not isinstance(f, Atom) and (observed := self.observed_table(f)) is not None:
            agent, table = observed
            return gather(table, model.keys(agent))
        match f:
            case Top():
                return np.ones(n, dtype=bool)
            case Bottom():
                return np.zeros(n, dtype=bool)
            case Atom():
                return model.atom_values(f)
            case Not(g):
                return ~self.value(g)
            case And(parts):
                result: BoolArray = self.value(parts[0]) & self.value(parts[1])
                for part in parts[2:]:
                    result &= self.value(part)
                return result
            case Or(parts):
                result = self.value(parts[0]) | self.value(parts[1])
                for part in parts[2:]:
                    result |= self.value(part)
                return result
            case Implies(left, right):
                result = ~self.value(left)
                result |= self.value(right)
                return result
            case Iff(left, right):
                result = self.value(left) == self.value(right)
                return result
            case Knows(who, g):
                i = model.agent_index(who)
                return box(model.keys(i), model.n_keys(i), self.value(g))
            case Possible(who, g):
                i = model.agent_index(who)
                return diamond(model.keys(i), model.n_keys(i), self.value(g))
            case Everyone(group, g):
                values = self.value(g)
                result = np.ones(n, dtype=bool)
                for i in model.agent_indices(group):
                    result &= box(model.keys(i), model.n_keys(i), values)
                return result
            # the operand first: its own keys are freed before this operator's are found
            # (nested C held one label array of 63M worlds per level: 8.6 GB for 15 levels)
            case Distributed(group, g):
                values = self.value(g)
                keys, n_keys = self.joint_keys(model.agent_indices(group))
                return box(keys, n_keys, values)
            case Common(group, g):
                values = self.value(g)
                keys, n_keys = self.components(model.agent_indices(group))
                return box(keys, n_keys, values)
            case Announce(announcement, g):
                condition = self.value(announcement)
                after = self.after(condition, g)
                result = ~condition
                result[condition] = after
                return result
            case AnnounceDual(announcement, g):
                condition = self.value(announcement)
                after = self.after(condition, g)
                result = np.zeros(n, dtype=bool)
                result[condition] = after
                return result
        raise TypeError(f"not a formula: {f!r}")

    def after(self, condition: BoolArray, formula: Formula) -> BoolArray:
        """The formula's value, in the model restricted to ``condition``, at the kept worlds."""
        if condition.all():
            return self.value(formula)
        return _Checker(self.model.restrict(condition)).value(formula)

    def observed_table(self, f: Formula) -> tuple[int, BoolArray] | None:
        """If f's value at a world is fixed by one agent's key there, f as a table over them.

        That holds for Boolean combinations of atoms one agent observes, and for K_b and M_b
        of such a formula, whose table over b's keys comes from the matrix of which classes of
        b meet which classes of a. Such an f costs one gather over the worlds instead of one
        per atom, connective and operator: the game's "a holds one of these tickets" and "b
        knows a holds t" are such formulas.
        """
        if (known := self.tables.get(id(f))) is not None and known[0] is f:
            return known[1]
        table = self.find_table(f)
        self.tables[id(f)] = (f, table)
        return table

    def find_table(self, f: Formula) -> tuple[int, BoolArray] | None:
        match f:
            case Atom():
                if (observed := self.model.observed_atom(f)) is None:
                    return None
                agent, table = observed
                return agent, table[: self.model.n_keys(agent)]
            case Not(g):
                inner = self.observed_table(g)
                return None if inner is None else (inner[0], ~inner[1])
            case And(parts) | Or(parts):
                tables = [t for p in parts if (t := self.observed_table(p)) is not None]
                if len(tables) != len(parts) or len({t[0] for t in tables}) != 1:
                    return None
                combine = np.logical_and if isinstance(f, And) else np.logical_or
                return tables[0][0], combine.reduce([t[1] for t in tables])
            case Knows(agent, g) | Possible(agent, g):
                inner = self.observed_table(g)
                if inner is None:
                    return None
                knower, (observer, table) = self.model.agent_index(agent), inner
                if knower == observer:  # what a observes, a knows: it is constant on a's class
                    return inner
                meets = self.meets(knower, observer)
                if meets is None:
                    return None
                if isinstance(f, Knows):
                    return knower, ~(meets & ~table).any(axis=1)
                return knower, (meets & table).any(axis=1)
            case Implies(left, right) | Iff(left, right):
                a, b = self.observed_table(left), self.observed_table(right)
                if a is None or b is None or a[0] != b[0]:
                    return None
                return a[0], (~a[1] | b[1]) if isinstance(f, Implies) else (a[1] == b[1])
        return None

    def meets(self, first: int, second: int) -> BoolArray | None:
        """Which classes of agent ``first`` share a world with which classes of ``second``;
        None when that matrix would be too big to be worth it."""
        model = self.model
        n_first, n_second = model.n_keys(first), model.n_keys(second)
        if n_first * n_second > _DENSE_LIMIT:
            return None
        if (first, second) not in self.pairs:
            self.pairs[first, second] = pair_flags(
                model.keys(first), n_first, model.keys(second), n_second
            )
        return self.pairs[first, second]

    def joint_keys(self, agents: tuple[int, ...]) -> tuple[IntArray, int]:
        """Keys of the intersection of the agents' partitions (for distributed knowledge)."""
        model = self.model
        if len(agents) == 1:
            return model.keys(agents[0]), model.n_keys(agents[0])
        codes = model.keys(agents[0]).astype(np.int64)
        bound = model.n_keys(agents[0])
        for i in agents[1:]:
            codes = codes * model.n_keys(i) + model.keys(i)
            bound *= model.n_keys(i)
            if bound > max(_DENSE_LIMIT, 4 * codes.size):
                distinct, codes = np.unique(codes, return_inverse=True)
                bound = distinct.size
        return codes, bound

    def components(self, agents: tuple[int, ...]) -> tuple[IntArray, int]:
        """Keys of the finest partition coarser than each agent's (for common knowledge).

        Nodes are the agents' classes; each world joins the class it lies in for every agent.
        Connected components of that small graph are the cells of the union's closure. SciPy's
        graphs are imported here, by the one operator that needs them: they cost a checker
        that never meets common knowledge more to import than a small model costs to check.
        """
        from scipy.sparse import coo_matrix
        from scipy.sparse.csgraph import connected_components

        model = self.model
        first = agents[0]
        if len(agents) == 1:
            return model.keys(first), model.n_keys(first)
        sizes = [model.n_keys(i) for i in agents]
        offsets = np.concatenate([[0], np.cumsum(sizes)])
        rows, cols = [], []
        for position, i in enumerate(agents[1:], start=1):
            codes = model.keys(first).astype(np.int64) * sizes[position] + model.keys(i)
            pairs = _distinct(codes, sizes[0] * sizes[position])
            rows.append(pairs // sizes[position])
            cols.append(pairs % sizes[position] + offsets[position])
        row, col = np.concatenate(rows), np.concatenate(cols)
        total = int(offsets[-1])
        graph = coo_matrix((np.ones(row.size, dtype=np.int8), (row, col)), shape=(total, total))
        n_components, labels = connected_components(graph, directed=False)
        return labels[model.keys(first)], n_components
