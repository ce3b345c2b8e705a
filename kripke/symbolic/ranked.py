"""Deals with one plausibility rank per deal, shared by every agent, on BDDs.

The symbolic twin of :class:`kripke.explicit.deal.RankedDealModel`: a rank per deal (Spohn's
ranking, lower more plausible) held as a few diagrams, one per rank value, ``levels[r]`` the
states of rank r (disjoint, every state in one of them). A rank shift with φ moves the ¬φ-states
of each level one level down: ``levels'[r] = (levels[r] ∧ φ) ∨ (levels[r-1] ∧ ¬φ)``, so a game
of n claims has at most n + 1 levels. Knowledge is the deal's (quantification over what the
agent does not observe); belief reads the levels in order (:class:`RankedChecker`):

* ``B_a[ψ] φ`` = ⋀_r (best_r → ∀hidden_a. ¬(θ ∧ L_r ∧ ψ) ∨ φ), where
  ``best_r = ∃hidden_a.(θ ∧ L_r ∧ ψ) ∧ ¬⋁_{r'<r} ∃hidden_a.(θ ∧ L_r' ∧ ψ)``: the class's least
  rank with a ψ-state is r; ``B_a φ`` is ``B_a[⊤] φ``;
* ``Sb_a φ`` = ⋁_r (L_r ∧ ∀hidden_a. ¬(θ ∧ L_≤r) ∨ φ);
* the duals are ¬X¬.

No state is listed; :meth:`RankedSymbolicDeal.as_list` lists the deals with their ranks as the
explicit backend holds them, so the two can be held to the same answers.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from functools import lru_cache
from typing import Self, cast

import numpy as np
from dd import cudd  # type: ignore[import-not-found,unused-ignore]

from kripke.explicit.deal import DealModel, RankedDealModel, deal_model
from kripke.explicit.plausibility import ordered
from kripke.language.formula import (
    Agent,
    Atom,
    BelievedPossible,
    Believes,
    ConditionalBelief,
    ConditionalPossible,
    Formula,
    SafeBelief,
    SafePossible,
)
from kripke.language.parser import parse
from kripke.symbolic.bdd import Function
from kripke.symbolic.check import SymbolicChecker
from kripke.symbolic.deal import SymbolicDealModel
from kripke.symbolic.structure import State


class RankedChecker(SymbolicChecker):
    """The knowledge structure's checker, with the plausibility operators read from the
    model's levels (see the module's docstring)."""

    model: RankedSymbolicDeal

    def modal(self, f: Formula) -> Function:
        v = self.vocabulary
        match f:
            case ConditionalBelief(agent) | ConditionalPossible(agent):
                assert isinstance(f, ConditionalBelief | ConditionalPossible)
                body = self.value(f.consequent)
                condition = self.value(f.condition)
                if isinstance(f, ConditionalBelief):
                    return self.believed(agent, condition, body)
                return ~self.believed(agent, condition, ~body)
            case Believes(agent, g):
                return self.believed(agent, v.true, self.value(g))
            case BelievedPossible(agent, g):
                return ~self.believed(agent, v.true, ~self.value(g))
            case SafeBelief(agent, g):
                return self.safe(agent, self.value(g))
            case SafePossible(agent, g):
                return ~self.safe(agent, ~self.value(g))
        return super().modal(f)

    def believed(self, agent: Agent, condition: Function, body: Function) -> Function:
        """B_a[ψ] φ at every state: φ in the least-ranked ψ-states of a's class."""
        v, hidden = self.vocabulary, self.model.unobserved((agent,))
        result, below = v.true, v.false  # below: classes with a ψ-state of a lower rank
        for level in self.model.levels:
            here = self.law & level & condition
            present = v.exist(hidden, here)
            best = present & ~below
            result &= ~best | cast(Function, cudd.or_forall(~here, body, hidden))
            below |= present
        return result

    def safe(self, agent: Agent, body: Function) -> Function:
        """Sb_a φ at every state: φ in every state of a's class at least as plausible."""
        v, hidden = self.vocabulary, self.model.unobserved((agent,))
        result, upto = v.false, v.false
        for level in self.model.levels:
            upto |= level
            result |= level & cast(Function, cudd.or_forall(~(self.law & upto), body, hidden))
        return result

    def after(self, condition: Function, f: Formula) -> Function:
        return RankedChecker(self.model, self.law & condition).value(f)


class RankedSymbolicDeal(SymbolicDealModel):
    """A symbolic deal with a rank per deal shared by every agent, as diagrams per rank
    (:attr:`levels`); the same questions and answers as
    :class:`kripke.explicit.deal.RankedDealModel`. Build one with
    :func:`kripke.symbolic.ranked.ranked_deal`."""

    #: levels[r]: the states of rank r (read under the law), disjoint and covering them all.
    levels: tuple[Function, ...]
    #: Each shift's formula, with how many announcements (``_said``) came before it: what
    #: :meth:`as_list` makes again, in order.
    _shifts: tuple[tuple[int, Formula], ...]

    @classmethod
    def from_deal(cls, deal: SymbolicDealModel) -> RankedSymbolicDeal:
        """``deal`` with every deal rank 0 (as dealt)."""
        new = cls.__new__(cls)
        new.__dict__.update(deal.__dict__)
        new._cache = {}
        new.levels = (deal.vocabulary.true,)
        new._shifts = ()
        return new

    def shift(self, formula: Formula | str) -> Self:
        """The rank shift with ``formula`` read now: the states where it is false drop one
        rank; every state stays, so what anyone knows is unchanged."""
        explained = self.extension(formula)
        v = self.vocabulary
        old = (*self.levels, v.false)
        levels = [old[0] & explained]
        levels += [(old[r] & explained) | (old[r - 1] & ~explained) for r in range(1, len(old))]
        while len(levels) > 1 and (self.law & levels[-1]) == v.false:
            levels.pop()
        new = copy.copy(self)
        new.levels = tuple(levels)
        new._cache = {}
        new._shifts = (*self._shifts, (len(self._said), parse(formula) if isinstance(
            formula, str) else formula))
        return new

    def extension(self, formula: Formula | str) -> Function:
        """‖φ‖, the plausibility operators read from the levels (:class:`RankedChecker`)."""
        return self.worked_out(formula, lambda: RankedChecker(self, self.law))

    def holds(self, formula: Formula | str, state: State | None = None) -> bool:
        """As :meth:`SymbolicModel.holds`; a formula with a plausibility operator is read
        from its extension (the shortcut through the agent's class would read ``B_a`` as the
        ``K_a`` it subclasses)."""
        formula = parse(formula) if isinstance(formula, str) else formula
        if not ordered(formula):
            return super().holds(formula, state)
        return self.vocabulary.value(self.extension(formula), self._at(state))

    # --- the ranks ---------------------------------------------------------------------------

    def rank_values(self, rank: int) -> Function:
        """Where the shared rank is ``rank`` (a diagram, as ``values`` gives)."""
        return self.levels[rank] if 0 <= rank < len(self.levels) else self.vocabulary.false

    def rank_counts(self) -> tuple[int, ...]:
        """How many deals have each rank 0, 1, 2, ... (up to the highest there is)."""
        counts = [self.vocabulary.count(self.law & level) for level in self.levels]
        while len(counts) > 1 and counts[-1] == 0:
            counts.pop()
        return tuple(counts)

    def actual_rank(self) -> int:
        """The actual deal's rank."""
        at = self._at(None)
        return next(r for r, level in enumerate(self.levels) if self.vocabulary.value(level, at))

    def _best_level(self, agent: Agent) -> int:
        within = self._class(agent, None)
        false = self.vocabulary.false
        return next(r for r, level in enumerate(self.levels) if (within & level) != false)

    def best_rank(self, agent: Agent) -> int:
        """The least rank of the agent's class at the actual state: the rank of the deals it
        believes in."""
        return self._best_level(agent)

    def believed_atoms(self, agent: Agent) -> dict[Atom, bool]:
        """Atoms whose value the agent believes at the actual state (the same in each of the
        least-ranked states of its class), with that value."""
        best = self._class(agent, None) & self.levels[self._best_level(agent)]
        return self.vocabulary.fixed(best, self.atoms)

    def is_flat(self) -> bool:
        """Whether every state of each class is as plausible as every other: no class of any
        agent meets two levels."""
        v = self.vocabulary
        for agent in self.agents:
            hidden = self.unobserved((agent,))
            seen = v.false
            for level in self.levels:
                present = v.exist(hidden, self.law & level)
                if (seen & present) != v.false:
                    return False
                seen |= present
        return True

    def _list(self, fixed: Mapping[Agent, int], max_worlds: int) -> RankedDealModel:
        """A part's deals listed (:meth:`SymbolicDealModel.listed`), each with its rank read
        off the levels: a picture of the part draws the levels as the explicit backend's."""
        listed = super()._list(fixed, max_worlds)
        v = self.vocabulary
        rank = np.zeros(listed.n_worlds, dtype=np.int16)
        for r, level in enumerate(self.levels[1:], start=1):
            rank[v.values_at(level, listed.atom_values, listed.n_worlds)] = r
        return RankedDealModel.from_deal(listed, rank)

    def as_list(self) -> RankedDealModel:
        """Every possible deal as the explicit backend deals and ranks it: every deal dealt,
        and what changed this model made again on the list in order (each shift, each
        announcement's formula, a condition given as a diagram read at each deal left), as
        :meth:`SymbolicDealModel.as_list` does. Kept for the last model asked."""
        return _as_ranked_list(self)


@lru_cache(maxsize=1)
def _as_ranked_list(model: RankedSymbolicDeal) -> RankedDealModel:
    """:meth:`RankedSymbolicDeal.as_list`, kept for the last model asked."""
    v = model.vocabulary
    listed = RankedDealModel.from_deal(deal_model(
        model.cards, model.hand_sizes, model.deal(), agents=model.agents,
        atom=model.atom_pattern))
    shifts = list(model._shifts)
    for k in range(len(model._said) + 1):
        while shifts and shifts[0][0] == k:
            listed = listed.shift(shifts.pop(0)[1])
        if k == len(model._said):
            break
        said = model._said[k]
        listed = listed.restrict(listed.values(said) if isinstance(said, Formula) else
                                 v.values_at(v.within(said, model._dealt), listed.atom_values,
                                             listed.n_worlds))
    return listed


#: A ranked deal on either backend: the type of the open game's shared model.
type RankedDeal = RankedDealModel | RankedSymbolicDeal


def ranked_deal(deal: DealModel | SymbolicDealModel) -> RankedDeal:
    """``deal`` (either backend's, as :func:`kripke.deal_model` or
    :func:`kripke.symbolic_deal` builds it) with a rank per deal, every deal rank 0."""
    if isinstance(deal, SymbolicDealModel):
        return RankedSymbolicDeal.from_deal(deal)
    return RankedDealModel.from_deal(deal)
