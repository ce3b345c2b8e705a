"""The symbolic checker: a formula's extension as a BDD, the way SMCDEL computes it.

For a knowledge structure with vocabulary V, law θ and observed atoms O_a per agent:

* an atom is its variable; the Boolean connectives are BDD operations;
* K_a φ  = ∀(V \\ O_a). (θ → φ)     (φ holds in every state agreeing with a's observation)
* M_a φ  = ∃(V \\ O_a). (θ ∧ φ)
* E_G φ  = ⋀_{a ∈ G} K_a φ
* D_G φ  = ∀(V \\ ⋃_{a ∈ G} O_a). (θ → φ)     (the group pools what it observes)
* C_G φ  = the greatest fixed point of X ↦ E_G (φ ∧ X)
* [!ψ]φ  = ψ → φ evaluated under the law θ ∧ ψ;  <!ψ>φ = ψ ∧ (the same).

A result is the formula's value at every state satisfying θ; outside θ it means nothing, which
is why every question a user asks goes through the law. No state is ever listed.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable
from typing import Protocol, cast

from dd import cudd  # type: ignore[import-not-found,unused-ignore]

from kripke.budget import check_stopped
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
from kripke.symbolic.bdd import Function, Vocabulary


class Structure(Protocol):
    """What the checker needs of a knowledge structure
    (:class:`kripke.symbolic.structure.SymbolicModel`
    gives it; named here so that the model imports the checker and not the other way)."""

    vocabulary: Vocabulary

    def group(self, group: Iterable[Agent] | None) -> tuple[Agent, ...]: ...

    def unobserved(self, agents: tuple[Agent, ...]) -> tuple[str, ...]: ...


class DiagramChecker(ABC):
    """What both symbolic checkers share (this one and the belief structures',
    :mod:`kripke.symbolic.belief_check`): each sub-formula worked out once under one law, the
    connectives as BDD operations and announcements as a new law; a subclass reads the
    modal operators (:meth:`modal`) and makes the checker of a smaller law (:meth:`after`)."""

    def __init__(self, vocabulary: Vocabulary, law: Function) -> None:
        self.vocabulary = vocabulary
        self.law = law
        # By node identity, as the explicit checker does: a formula's parts are its own objects.
        self.memo: dict[int, tuple[Formula, Function]] = {}

    def value(self, f: Formula) -> Function:
        if (known := self.memo.get(id(f))) is not None and known[0] is f:
            return known[1]
        result = self.compute(f)
        self.memo[id(f)] = (f, result)
        return result

    def compute(self, f: Formula) -> Function:
        check_stopped()  # a caller that no longer wants the answer stops us here
        v = self.vocabulary
        match f:
            case Top():
                return v.true
            case Bottom():
                return v.false
            case Atom():
                return v.var(f)
            case Not(g):
                return ~self.value(g)
            case And(parts):
                result = v.true
                for part in parts:
                    result = result & self.value(part)
                return result
            case Or(parts):
                result = v.false
                for part in parts:
                    result = result | self.value(part)
                return result
            case Implies(left, right):
                return self.value(left).implies(self.value(right))
            case Iff(left, right):
                return self.value(left).equiv(self.value(right))
            case Announce(announcement, g):
                condition = self.value(announcement)
                return condition.implies(self.after(condition, g))
            case AnnounceDual(announcement, g):
                condition = self.value(announcement)
                return condition & self.after(condition, g)
        return self.modal(f)

    def modal(self, f: Formula) -> Function:
        """K_a, M_a, E_G, D_G and C_G, as the structure reads them (a subclass reads its own
        and hands the rest here, which refuses what is not a formula)."""
        raise TypeError(f"not a formula: {f!r}")

    @abstractmethod
    def after(self, condition: Function, f: Formula) -> Function:
        """f's extension once ``condition`` has been announced (the law shrinks to it)."""


class SymbolicChecker(DiagramChecker):
    """Extensions of formulas in a knowledge structure under one law."""

    def __init__(self, model: Structure, law: Function) -> None:
        super().__init__(model.vocabulary, law)
        self.model = model

    def modal(self, f: Formula) -> Function:
        v = self.vocabulary
        match f:
            case Knows(agent, g):
                return self.box(self.model.unobserved((agent,)), self.value(g))
            case Possible(agent, g):
                return v.exist(self.model.unobserved((agent,)), self.law & self.value(g))
            case Everyone(group, g):
                inner = self.value(g)
                result = v.true
                for agent in self.model.group(group):
                    result = result & self.box(self.model.unobserved((agent,)), inner)
                return result
            case Distributed(group, g):
                return self.box(self.model.unobserved(self.model.group(group)), self.value(g))
            case Common(group, g):
                return self.common(self.model.group(group), self.value(g))
        return super().modal(f)

    def box(self, hidden: tuple[str, ...], phi: Function) -> Function:
        """φ at every state that agrees with the current one except on the hidden variables:
        ∀hidden. (¬θ ∨ φ) in one CUDD call, which never builds the disjunction."""
        return cast(Function, cudd.or_forall(~self.law, phi, hidden))

    def common(self, agents: tuple[Agent, ...], phi: Function) -> Function:
        """C_G φ as the greatest fixed point of X ↦ E_G(φ ∧ X), starting from ⊤.

        The map is monotone and every step can only shrink X, so the iteration stops within as
        many steps as there are states' classes; BDDs are canonical, so "no change" is one
        pointer comparison.
        """
        hidden = [self.model.unobserved((a,)) for a in agents]
        current = self.vocabulary.true
        while True:
            check_stopped()  # a fixed point may take many rounds
            target = phi & current
            following = self.vocabulary.true
            for names in hidden:
                following = following & self.box(names, target)
            if following == current:
                return current
            current = following

    def after(self, condition: Function, f: Formula) -> Function:
        """f's extension once ``condition`` has been announced (the law shrinks to it)."""
        return SymbolicChecker(self.model, self.law & condition).value(f)



def pointed(formula: Formula, knows: Callable[[Agent, Formula], bool],
            possible: Callable[[Agent, Formula], bool], value: Callable[[Formula], bool]
            ) -> bool:
    """A formula at one state (both symbolic models' ``holds``): the connectives and K_a, M_a
    at the top are read at the state itself, through ``knows`` and ``possible`` (the agent's
    class or successors there, one cofactor), so only what they govern is worked out over
    every state (``value``). A question at the actual state then never quantifies the whole
    law for its outermost operators: n² "i does not know who paid" of the dining
    cryptographers are n² cofactors."""
    def at(f: Formula) -> bool:
        match f:
            case Not(g):
                return not at(g)
            case And(parts):
                return all(at(part) for part in parts)
            case Or(parts):
                return any(at(part) for part in parts)
            case Implies(left, right):
                return not at(left) or at(right)
            case Knows(agent, Not(g)):  # no successor where g: g's extension, not ¬g's
                return not possible(agent, g)
            case Knows(agent, g):
                return knows(agent, g)
            case Possible(agent, Not(g)):
                return not knows(agent, g)
            case Possible(agent, g):
                return possible(agent, g)
        return value(f)

    return at(formula)
