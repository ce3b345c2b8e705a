"""The BDD layer under the symbolic model: one CUDD manager per vocabulary of atoms.

CUDD (through the ``dd`` package's wheel, which ships the compiled ``dd.cudd``) does the work;
this module gives it the vocabulary's atoms as variables in a fixed order, typed handles for the
few operations the checker needs, counts that stay exact past 2**53, and cardinality constraints
("exactly k of these atoms") built as small diagrams directly, never by listing assignments.

``dd.cudd`` is a compiled module without type information, so the manager and its diagrams are
seen through the :class:`Manager` and :class:`Function` protocols below: the subset of the API
this package calls, as ``dd.cudd`` documents it.
"""

from __future__ import annotations

import heapq
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Protocol, cast

import numpy as np
from dd import cudd  # type: ignore[import-not-found,unused-ignore]

from kripke.errors import ModelError
from kripke.explicit.arrays import BoolArray, IntArray
from kripke.language.formula import Atom

#: CUDD counts models in a double: exact while the count stays below this.
_EXACT_DOUBLE = 2**53


class Function(Protocol):
    """A BDD node of ``dd.cudd`` (a Boolean function over the manager's variables)."""

    def __and__(self, other: Function, /) -> Function: ...
    def __or__(self, other: Function, /) -> Function: ...
    def __invert__(self) -> Function: ...
    def __eq__(self, other: object, /) -> bool: ...
    def __hash__(self) -> int: ...
    def __int__(self) -> int: ...
    def __len__(self) -> int: ...
    def implies(self, other: Function, /) -> Function: ...
    def equiv(self, other: Function, /) -> Function: ...

    @property
    def negated(self) -> bool: ...
    @property
    def level(self) -> int: ...

    @property
    def var(self) -> str | None: ...
    @property
    def low(self) -> Function: ...
    @property
    def high(self) -> Function: ...


class Manager(Protocol):
    """A ``dd.cudd.BDD`` manager: the variables and the operations on diagrams."""

    @property
    def true(self) -> Function: ...
    @property
    def false(self) -> Function: ...
    def declare(self, *names: str) -> None: ...
    def var(self, name: str) -> Function: ...
    def level_of_var(self, name: str) -> int: ...
    def configure(self, **settings: object) -> dict[str, object]: ...
    def ite(self, condition: Function, then: Function, otherwise: Function, /) -> Function: ...
    def cube(self, assignment: Mapping[str, bool], /) -> Function: ...
    def let(self, definitions: Mapping[str, bool] | Mapping[str, str] | Mapping[str, Function],
            u: Function, /) -> Function: ...
    def exist(self, names: Iterable[str], u: Function, /) -> Function: ...
    def forall(self, names: Iterable[str], u: Function, /) -> Function: ...
    def count(self, u: Function, nvars: int | None = None) -> float: ...
    def pick_iter(self, u: Function, care_vars: set[str] | None = None
                  ) -> Iterable[dict[str, bool]]: ...
    def copy(self, u: Function, other: Manager, /) -> Function: ...


class Vocabulary:
    """Atoms as BDD variables, declared once in the given order, in a manager of their own.

    The order is the diagrams' variable order and matters for their size: a deal puts each
    card's atoms side by side (card-major), which keeps "each agent holds k cards" small.
    Dynamic reordering is off, so sizes and run times do not depend on what CUDD decides.
    """

    def __init__(self, atoms: Iterable[Atom | str], names: Sequence[str] | None = None, *,
                 copies: int = 1) -> None:
        self.atoms: tuple[Atom, ...] = tuple(a if isinstance(a, Atom) else Atom(a) for a in atoms)
        if len(set(self.atoms)) != len(self.atoms):
            raise ModelError("a vocabulary lists each atom once")
        self.manager: Manager = cast(Manager, cudd.BDD())
        self.manager.configure(reordering=False)
        # the variables' names (default v0, v1, ... in order); an extension keeps its source's
        # names for the same atoms, so diagrams move between them by name
        self.names: dict[Atom, str] = dict(zip(
            self.atoms, names or [f"v{i}" for i in range(len(self.atoms))], strict=True))
        self.atom_of: dict[str, Atom] = {n: a for a, n in self.names.items()}
        #: How many copies of each variable the manager has (a belief structure's relations
        #: need two, its frame properties three): copy k of variable v is named v followed by
        #: k primes, and the copies of one variable sit side by side in the order, so "v
        #: equals its copy" stays one small diagram per variable.
        self.copies = copies
        self.manager.declare(*(name + "'" * k for name in self.names.values()
                               for k in range(copies)))

    def __len__(self) -> int:
        return len(self.atoms)

    def extended(self, atoms: Sequence[Atom]) -> Vocabulary:
        """A new vocabulary: the new atoms *above* these in the variable order (an update that
        adds variables needs a manager of its own, since a count is over all of a manager's
        variables). Above, because new variables that pick one of a few cases (an event) then
        split a diagram into one copy per case, where below they would have to remember all
        the rest (which four of twenty cards a player holds) in every case. Diagrams move over
        with :meth:`transfer`."""
        fresh = [f"v{len(self.atoms) + i}" for i in range(len(atoms))]
        return Vocabulary([*atoms, *self.atoms], [*fresh, *self.names.values()],
                          copies=self.copies)

    def transfer(self, u: Function, source: Vocabulary) -> Function:
        """A diagram of ``source`` as a diagram of this vocabulary, which must name the same
        atoms alike (as :meth:`extended` makes it): variables are matched by name."""
        if any(self.names.get(a) != name for a, name in source.names.items()):
            raise ModelError("a diagram moves only to a vocabulary extending its own")
        return source.manager.copy(u, self.manager)

    def __contains__(self, atom: object) -> bool:
        return atom in self.names

    def name(self, atom: Atom) -> str:
        try:
            return self.names[atom]
        except KeyError:
            examples = ", ".join(str(a) for a in self.atoms[:5])
            raise ModelError(
                f"unknown atom {atom}; the model has atoms such as {examples}"
            ) from None

    def var(self, atom: Atom | str) -> Function:
        """The diagram of one atom."""
        return self.manager.var(self.name(atom if isinstance(atom, Atom) else Atom(atom)))

    @property
    def true(self) -> Function:
        return self.manager.true

    @property
    def false(self) -> Function:
        return self.manager.false

    def cube(self, values: Mapping[Atom, bool]) -> Function:
        """The conjunction of literals fixing the given atoms."""
        return self.manager.cube({self.name(a): bool(v) for a, v in values.items()})

    def restrict(self, u: Function, values: Mapping[Atom, bool]) -> Function:
        """u with the given atoms fixed (the cofactor): a function of the other atoms."""
        return self.manager.let({self.name(a): bool(v) for a, v in values.items()}, u)

    def named(self, state: Mapping[Atom, bool]) -> dict[str, bool]:
        """A state by variable names, as :meth:`value_named` reads it: a model that asks
        many questions at one state names it once, not once per atom per question."""
        return {self.names[a]: bool(v) for a, v in state.items()}

    def value(self, u: Function, state: Mapping[Atom, bool]) -> bool:
        """u's value at a state that fixes every atom u depends on."""
        return self.value_named(u, self.named(state))

    def value_named(self, u: Function, state: Mapping[str, bool]) -> bool:
        """u's value at a state given by variable names (:meth:`named`)."""
        result = self.manager.let(state, u)
        if result == self.true:
            return True
        if result != self.false:
            raise ModelError("the state does not fix every atom of the vocabulary")
        return False

    def within(self, u: Function, care: Function) -> Function:
        """A diagram equal to u wherever ``care`` holds, and usually much smaller (Coudert's
        restrict): what is left of a law once the states it is read at already satisfy
        ``care``."""
        return cast(Function, cudd.restrict(u, care))

    def values_at(self, u: Function, column: Callable[[Atom, IntArray], BoolArray], n: int
                  ) -> BoolArray:
        """u's value at each of ``n`` listed states, where ``column(atom, rows)`` gives the
        atom's value at those rows (indices): the rows walk down the diagram together, split
        at each node by its variable, so each is read once per level instead of one
        restriction per state. This is how a symbolic deal lists millions of deals at once."""
        out = np.zeros(n, dtype=bool)
        waiting: dict[int, tuple[Function, list[IntArray]]] = {int(u): (u, [np.arange(n)])}
        levels = [(u.level, int(u))]
        while levels:
            _, key = heapq.heappop(levels)
            f, parts = waiting.pop(key)
            rows = np.concatenate(parts)
            if f == self.true:
                out[rows] = True
                continue
            if f == self.false or f.var is None:
                continue
            taken = column(self.atom_of[f.var], rows)
            for branch, where in ((True, taken), (False, ~taken)):
                if not where.any():
                    continue
                g = self.manager.let({f.var: branch}, f)
                if int(g) in waiting:
                    waiting[int(g)][1].append(rows[where])
                else:
                    waiting[int(g)] = (g, [rows[where]])
                    heapq.heappush(levels, (g.level, int(g)))
        return out

    # --- cardinality constraints, built without listing assignments -------------------------

    def exactly(self, k: int, atoms: Sequence[Atom]) -> Function:
        """Exactly k of the atoms hold: a diagram of at most (k+1)·len(atoms) nodes."""
        return self._counting(atoms, k)[k] if 0 <= k <= len(atoms) else self.false

    def at_most(self, k: int, atoms: Sequence[Atom]) -> Function:
        """At most k of the atoms hold."""
        if k >= len(atoms):
            return self.true
        result = self.false
        for part in self._counting(atoms, k)[: k + 1] if k >= 0 else ():
            result = result | part
        return result

    def at_least(self, k: int, atoms: Sequence[Atom]) -> Function:
        """At least k of the atoms hold."""
        return ~self.at_most(k - 1, atoms)

    def _counting(self, atoms: Sequence[Atom], k: int) -> list[Function]:
        """[exactly 0, exactly 1, ..., exactly k] of the atoms, in one bottom-up pass.

        The atoms are taken from the lowest level up, so each ite only puts a new top node
        over diagrams already built: the cost is linear in len(atoms)·k.
        """
        names = sorted({self.name(a) for a in atoms}, key=self.manager.level_of_var,
                       reverse=True)
        if len(names) != len(atoms):
            raise ModelError("a cardinality constraint lists each atom once")
        m = self.manager
        counts = [m.true] + [m.false] * k
        for name in names:
            v = m.var(name)
            counts = [m.ite(v, counts[j - 1] if j else m.false, counts[j]) for j in range(k + 1)]
        return counts

    # --- quantifiers and counts -------------------------------------------------------------

    def forall(self, names: Iterable[str], u: Function) -> Function:
        return self.manager.forall(names, u)

    def exist(self, names: Iterable[str], u: Function) -> Function:
        return self.manager.exist(names, u)

    def count(self, u: Function) -> int:
        """How many assignments of the whole vocabulary satisfy u, exactly."""
        if u == self.false:
            return 0
        approximate = self.manager.count(u, nvars=len(self.atoms))
        if approximate < _EXACT_DOUBLE:
            # Every partial count CUDD adds is a whole number no larger than the total, so a
            # double holds each of them exactly while the total is below 2**53.
            return int(approximate)
        return _exact_count(self.manager, u, len(self.atoms), self.copies)

    def assignments(self, u: Function, atoms: Iterable[Atom] | None = None
                    ) -> Iterable[dict[Atom, bool]]:
        """Every assignment of the atoms (default: all) satisfying u, lazily; u must depend on
        no other atom."""
        care = set(self.names.values()) if atoms is None else {self.name(a) for a in atoms}
        for found in self.manager.pick_iter(u, care_vars=care):
            yield {self.atom_of[n]: bool(v) for n, v in found.items()}

    def fixed(self, u: Function, atoms: Iterable[Atom]) -> dict[Atom, bool]:
        """The atoms with one value in every assignment satisfying u (u not false), with it.

        One pass over u's nodes instead of two BDD operations per atom: in a reduced diagram
        every node other than false has a satisfying path, so an atom can be true exactly when
        some node of its level has a high child other than false or some edge skips its level
        (and likewise for false). Complemented edges flip the children of a negated node.
        """
        if u == self.false:
            raise ModelError("no assignment satisfies the function")
        n = len(self.atoms) * self.copies  # levels
        true, false = self.true, self.false
        can_be = [[False, False] for _ in range(n)]  # per level: can be false, can be true
        skipped = [0] * (n + 1)  # a difference array of edges jumping over each level

        def level(f: Function) -> int:
            return n if f == true or f == false else f.level

        def jump(top: int, bottom: int) -> None:
            if bottom > top + 1:
                skipped[top + 1] += 1
                skipped[bottom] -= 1

        jump(-1, level(u))
        stack, seen = [u], {int(u)}
        while stack:
            f = stack.pop()
            if f == true:
                continue
            top = f.level
            if f.negated:
                regular = ~f
                children = (~regular.low, ~regular.high)
            else:
                children = (f.low, f.high)
            for value, child in enumerate(children):
                if child == false:
                    continue
                can_be[top][value] = True
                jump(top, level(child))
                if int(child) not in seen:
                    seen.add(int(child))
                    stack.append(child)
        running = 0
        for top in range(n):
            running += skipped[top]
            if running:
                can_be[top] = [True, True]
        fixed: dict[Atom, bool] = {}
        for atom in atoms:
            can_false, can_true = can_be[self.manager.level_of_var(self.name(atom))]
            if can_false != can_true:
                fixed[atom] = can_true
        return fixed

    def __repr__(self) -> str:
        return f"{type(self).__name__}({len(self.atoms)} atoms)"


def _exact_count(manager: Manager, root: Function, n_vars: int, copies: int = 1) -> int:
    """Satisfying assignments over n_vars variables, in Python ints, by one pass over the nodes
    (``root`` a function of the first of ``copies`` interleaved copies of them).

    CUDD stores complemented edges: a negated node stands for the complement of its regular
    node, so its count is 2**(variables below) minus the regular one's.
    """
    true, false = manager.true, manager.false
    memo: dict[int, int] = {}

    def level(u: Function) -> int:
        """The number of counted variables above u (its level among them)."""
        return n_vars if u == true or u == false else -(-u.level // copies)

    def below(u: Function) -> int:
        """Models of u over the variables at levels >= level(u)."""
        if u == true:
            return 1
        if u == false:
            return 0
        key = int(u)
        if key in memo:
            return memo[key]
        top = level(u)
        regular = ~u if u.negated else u
        low, high = regular.low, regular.high
        models = (below(low) << (level(low) - top - 1)) + (below(high) << (level(high) - top - 1))
        if u.negated:
            models = (1 << (n_vars - top)) - models
        memo[key] = models
        return models

    return below(root) << level(root)

