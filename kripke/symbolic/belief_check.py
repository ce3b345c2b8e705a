"""The checker of belief structures: a formula's extension as a BDD when each agent's relation
is itself a BDD over two copies of the vocabulary (SMCDEL's ``SMCDEL.Symbolic.K``).

For a belief structure with vocabulary V, law θ and per agent a relation Ω_a(V, V′) (from a
state, the agent considers possible the states of the law its relation reaches), with φ′ the
formula's diagram on the primed copy:

* ``K_a φ`` (belief on such a relation) = ¬∃V′. (Ω_a ∧ θ′ ∧ ¬φ′): one relational product, CUDD's
  ``and_exists``, which never builds the conjunction it quantifies;
* ``M_a φ`` = ∃V′. (Ω_a ∧ θ′ ∧ φ′);
* ``E_G φ`` uses the union ⋁_G Ω_a (one product instead of one per agent), ``D_G φ`` the
  intersection ⋀_G Ω_a;
* ``C_G φ`` is the greatest fixed point of X ↦ E_G (φ ∧ X): every state reachable in one or
  more steps of G's arrows satisfies φ;
* ``[!ψ]φ`` and ``<!ψ>φ`` evaluate φ under the law θ ∧ ψ.

Each agent's Ω_a ∧ θ′ is made once per law. A result means something only on the states of
θ, which is why every question goes through the law.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Protocol, cast

from dd import cudd  # type: ignore[import-not-found,unused-ignore]

from kripke.budget import check_stopped
from kripke.language.formula import Agent, Common, Distributed, Everyone, Formula, Knows, Possible
from kripke.symbolic.bdd import Function, Vocabulary
from kripke.symbolic.check import DiagramChecker


class Copies:
    """The copies of a three-copy vocabulary's variables (:class:`Vocabulary` with
    ``copies=3``) and the renamings between them, which every belief operation uses."""

    def __init__(self, vocabulary: Vocabulary) -> None:
        if vocabulary.copies != 3:
            raise ValueError("a belief structure's vocabulary has three copies")
        self.vocabulary = vocabulary
        names = list(vocabulary.names.values())
        self.first = tuple(names)
        self.second = tuple(n + "'" for n in names)
        self.third = tuple(n + "''" for n in names)
        self._to_second = dict(zip(self.first, self.second, strict=True))
        self._to_third = dict(zip(self.first, self.third, strict=True))
        self._second_to_first = dict(zip(self.second, self.first, strict=True))
        self._second_to_third = dict(zip(self.second, self.third, strict=True))
        self._swap = {**self._to_second, **self._second_to_first}

    def primed(self, u: Function) -> Function:
        """u on the second copy (u′): what a relation's target state satisfies."""
        return self.vocabulary.manager.let(self._to_second, u)

    def unprimed(self, u: Function) -> Function:
        """A function of the second copy moved back to the first."""
        return self.vocabulary.manager.let(self._second_to_first, u)

    def shifted(self, relation: Function) -> Function:
        """R(V, V′) as R(V′, V″): the step after a first one."""
        manager = self.vocabulary.manager
        return manager.let(self._to_second, manager.let(self._second_to_third, relation))

    def skipping(self, relation: Function) -> Function:
        """R(V, V′) as R(V, V″)."""
        return self.vocabulary.manager.let(self._second_to_third, relation)

    def swapped(self, relation: Function) -> Function:
        """R(V, V′) as R(V′, V): the converse."""
        return self.vocabulary.manager.let(self._swap, relation)

    def diagonal(self, relation: Function) -> Function:
        """R(V, V): whether each state points to itself."""
        manager = self.vocabulary.manager
        return manager.let({b: manager.var(a) for a, b in zip(self.first, self.second,
                                                               strict=True)}, relation)

    def image(self, access: Function, phi: Function) -> Function:
        """∃V′. (access ∧ φ′): the states from which ``access`` (over V, V′) reaches φ."""
        return cast(Function, cudd.and_exists(access, self.primed(phi), self.second))


class Structure(Protocol):
    """What the checker needs of a belief structure
    (:class:`kripke.symbolic.belief.SymbolicBeliefModel`)."""

    copies: Copies

    def group(self, group: Iterable[Agent] | None) -> tuple[Agent, ...]: ...

    def single(self, agent: Agent) -> tuple[Agent, ...]: ...

    def relation(self, agent: Agent) -> Function: ...


class BeliefChecker(DiagramChecker):
    """Extensions of formulas in a belief structure under one law."""

    def __init__(self, model: Structure, law: Function,
                 access: dict[tuple[str, tuple[Agent, ...]], Function] | None = None) -> None:
        """``access`` keeps the relational products of this law between checkers (a model
        passes its own, so a second formula reuses them)."""
        super().__init__(model.copies.vocabulary, law)
        self.model = model
        self.copies = model.copies
        self.law_primed = self.copies.primed(law)
        self._access = {} if access is None else access

    def access(self, how: str, agents: tuple[Agent, ...]) -> Function:
        """(⋁ or ⋀ of the agents' relations) ∧ θ′, made once per law and group."""
        key = (how, agents)
        if (known := self._access.get(key)) is None:
            relations = [self.model.relation(a) for a in agents]
            joined = self.vocabulary.true if how == "and" else self.vocabulary.false
            for relation in relations:
                joined = joined & relation if how == "and" else joined | relation
            known = self._access[key] = joined & self.law_primed
        return known

    def modal(self, f: Formula) -> Function:
        match f:
            case Knows(agent, g):
                return self.box(self.access("or", self.model.single(agent)), self.value(g))
            case Possible(agent, g):
                return self.copies.image(self.access("or", self.model.single(agent)),
                                         self.value(g))
            case Everyone(group, g):
                return self.box(self.access("or", self.model.group(group)), self.value(g))
            case Distributed(group, g):
                return self.box(self.access("and", self.model.group(group)), self.value(g))
            case Common(group, g):
                return self.common(self.access("or", self.model.group(group)), self.value(g))
        return super().modal(f)

    def box(self, access: Function, phi: Function) -> Function:
        """φ in every state of the law that ``access`` reaches (true where it reaches none)."""
        return ~self.copies.image(access, ~phi)

    def common(self, access: Function, phi: Function) -> Function:
        """The greatest fixed point of X ↦ □(φ ∧ X) over the group's joined relation: the
        iteration only shrinks X, and BDDs are canonical, so "no change" is one comparison."""
        current = self.vocabulary.true
        while True:
            check_stopped()  # a fixed point may take many rounds
            following = self.box(access, phi & current)
            if following == current:
                return current
            current = following

    def after(self, condition: Function, f: Formula) -> Function:
        """f's extension once ``condition`` has been announced (the law shrinks to it)."""
        return BeliefChecker(self.model, self.law & condition).value(f)


def properties(copies: Copies, law: Function, relation: Function) -> frozenset[str]:
    """Which of reflexive, serial, transitive, symmetric and euclidean the relation is on the
    states of the law, without a product of the law with itself (which for a deal would be
    the square of its diagram): each property's counterexamples are quantified out one copy
    at a time, each step a relational product with one copy of the law."""
    v = copies.vocabulary
    false = v.false
    law2, law3 = copies.primed(law), copies.vocabulary.manager.let(
        dict(zip(copies.first, copies.third, strict=True)), law)
    found = set()
    if (law & ~copies.diagonal(relation)) == false:
        found.add("reflexive")
    if (law & ~cudd.and_exists(relation, law2, copies.second)) == false:
        found.add("serial")
    later = copies.shifted(relation)  # R(V′, V″)
    direct = copies.skipping(relation)  # R(V, V″)
    # transitive: no x, y, z of the law with R(x, y), R(y, z) and not R(x, z)
    two_steps = cudd.and_exists(relation & law2, later, copies.second)  # over V, V″
    if (law & cudd.and_exists(two_steps & ~direct, law3, copies.third)) == false:
        found.add("transitive")
    # symmetric: no x, y of the law with R(x, y) and not R(y, x)
    if (law & cudd.and_exists(relation & ~copies.swapped(relation), law2, copies.second)) \
            == false:
        found.add("symmetric")
    # euclidean: no x, y, z of the law with R(x, y), R(x, z) and not R(y, z)
    apart = cudd.and_exists(direct & ~later, law3, copies.third)  # over V, V′
    if (law & cudd.and_exists(relation & apart, law2, copies.second)) == false:
        found.add("euclidean")
    return frozenset(found)
