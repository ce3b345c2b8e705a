"""Deals as knowledge structures: every deal of n cards to m agents, without listing one.

The vocabulary is one atom ``p(i,c)`` per agent and card ("agent i holds card c"), and agent i
observes its own atoms ``p(i,·)``, which is exactly "each agent sees its own hand". The law says
each card has at most one holder (exactly one when no card stays in the hidden pile) and agent i
holds exactly k_i cards, built from counting diagrams
(:meth:`kripke.symbolic.bdd.Vocabulary.exactly`).

The variable order is card-major (``p(0,c0) p(1,c0) ... p(0,c1) ...``): read in that order, the
law only has to remember how many cards each agent has taken so far, so it has at most
∏(k_i + 1) nodes per level. 20 tickets dealt 4 each to 5 players (305,540,235,000 deals) make a
law of 26,564 nodes, built in about 10 ms.
"""

from __future__ import annotations

from collections.abc import Collection, Hashable, Mapping, Sequence
from functools import lru_cache
from typing import Any, ClassVar, Self

import numpy as np

from kripke.errors import ModelError, ModelTooLargeError
from kripke.explicit.arrays import BoolArray, IntArray
from kripke.explicit.deal import (
    DealModel,
    Dealt,
    _subsets,
    deal_arguments,
    deal_model,
    hand_atom,
    listed_deals,
)
from kripke.kernel import Capabilities, Values
from kripke.language.formula import Agent, Atom, Formula
from kripke.language.parser import parse
from kripke.symbolic.bdd import Function, Vocabulary
from kripke.symbolic.structure import State, SymbolicModel


class SymbolicDealModel(Dealt, SymbolicModel):
    """A SymbolicModel whose states are deals; it can say who holds what in a state."""

    #: Drawn as a summary of the hands when too big to list (:mod:`kripke.parts`).
    capabilities: ClassVar[Capabilities] = Capabilities(summarised=True)

    def __init__(
        self,
        vocabulary: Vocabulary,
        cards: tuple[Hashable, ...],
        hand_sizes: tuple[int, ...],
        agents: tuple[Agent, ...],
        holds: tuple[tuple[Atom, ...], ...],
        actual: Sequence[Collection[Hashable]] | None,
        atom: str = "p({agent},{card})",
    ) -> None:
        law = vocabulary.true
        pile = len(cards) > sum(hand_sizes)
        for c in range(len(cards)):
            holders = [holds[i][c] for i in range(len(agents))]
            law &= vocabulary.at_most(1, holders) if pile else vocabulary.exactly(1, holders)
        for i, k in enumerate(hand_sizes):
            law &= vocabulary.exactly(k, holds[i])
        self.cards = cards
        self.hand_sizes = hand_sizes
        self.atom_pattern = atom
        self._holds = holds
        self._dealt = law  # every deal: what a condition is read at deals within
        #: What narrowed the model since the deal, in order: a formula announced, or a
        #: condition given as a diagram (see :meth:`as_list`).
        self._said: tuple[Formula | Function, ...] = ()
        self._forget_counts()
        state = None if actual is None else self._actual_state(actual, agents)
        super().__init__(vocabulary, law, dict(zip(agents, holds, strict=True)), state)

    def _actual_state(self, actual: Sequence[Collection[Hashable]], agents: tuple[Agent, ...]
                      ) -> set[Atom]:
        if len(actual) != len(agents):
            raise ModelError(f"the actual deal has {len(actual)} hands for {len(agents)} agents")
        position = {card: c for c, card in enumerate(self.cards)}
        dealt: set[int] = set()
        true: set[Atom] = set()
        for i, (agent, k, hand) in enumerate(zip(agents, self.hand_sizes, actual, strict=True)):
            cards = {position.get(card, -1) for card in hand}
            if len(cards) != len(hand) or len(hand) != k or -1 in cards:
                raise ModelError(f"agent {agent!r} must hold {k} distinct cards, got {list(hand)}")
            if cards & dealt:
                raise ModelError(f"agent {agent!r} is dealt a card another agent already holds")
            dealt |= cards
            true |= {self._holds[i][c] for c in cards}
        return true

    def deal(self, state: State | None = None) -> tuple[tuple[Hashable, ...], ...]:
        """The hands, one tuple of cards per agent, in a state (default: the actual one)."""
        at = self._at(state)
        return tuple(tuple(card for card, atom in zip(self.cards, atoms, strict=True) if at[atom])
                     for atoms in self._holds)

    # --- classes numbered as the explicit deal model numbers them ---------------------------
    # A class of agent i is a hand, and its key the hand's rank among all hands of that size
    # (``DealModel``'s observation key), so a picture of either backend names the same tiles.

    def hand(self, agent: Agent, key: int) -> tuple[Any, ...]:
        """The cards an agent holds in its class ``key`` (as :meth:`DealModel.hand`)."""
        k = self.hand_sizes[self.agent_index(agent)]
        return tuple(self.cards[c] for c in _subsets(len(self.cards), k).members[key])

    def n_keys(self, agent: Agent) -> int:
        """How many hands the agent could be dealt: the size of a table indexed by its keys."""
        return len(_subsets(len(self.cards), self.hand_sizes[self.agent_index(agent)]).masks)

    def class_key(self, agent: Agent, state: State | None = None) -> int:
        """The agent's class at a state (default: the actual one): its hand's key."""
        at, i = self._at(state), self.agent_index(agent)
        held = [c for c, atom in enumerate(self._holds[i]) if at[atom]]
        return int(_subsets(len(self.cards), self.hand_sizes[i]).rank(np.array(held)))

    def restrict(self, condition: Values) -> Self:
        """As :meth:`SymbolicModel.restrict`, without the counts of the states it had."""
        new = super().restrict(condition)
        new._said = (*self._said, self._diagram(condition))
        new._forget_counts()
        return new

    def _forget_counts(self) -> None:
        """New states, new counts (see :meth:`class_sizes` and :meth:`listed`)."""
        self._sizes: dict[tuple[int, tuple[tuple[int, int], ...], Function | None],
                          IntArray] = {}
        self._listed: dict[tuple[tuple[int, int], ...], DealModel] = {}

    def _part(self, fixed: Mapping[Agent, int], where: Function | None) -> Function:
        """The states where each agent of ``fixed`` holds the hand its key names (and
        ``where`` holds)."""
        part = self.law if where is None else self.law & where
        for agent, key in fixed.items():
            part &= self._hand_cube(self.agent_index(agent), key)
        return part

    def _hand_cube(self, i: int, key: int) -> Function:
        members = set(_subsets(len(self.cards), self.hand_sizes[i]).members[key].tolist())
        return self.vocabulary.cube({atom: c in members for c, atom in enumerate(self._holds[i])})

    def class_sizes(self, agent: Agent, where: Function | None = None,
                    fixed: Mapping[Agent, int] | None = None) -> IntArray:
        """States per class of the agent, indexed by key (as :meth:`DealModel.class_sizes`),
        inside the part where the agents of ``fixed`` hold the hands their keys name and where
        ``where`` (an :meth:`extension`) holds. One count per hand that the fixed hands leave
        possible: a few thousand diagram operations, not a pass over the states, and kept,
        since a picture asks again on every render."""
        fixed = fixed or {}
        i = self.agent_index(agent)
        key = (i, self._agent_index.keyed(fixed), where)
        if (found := self._sizes.get(key)) is None:
            found = self._class_sizes(i, where, fixed)
            found.flags.writeable = False
            self._sizes[key] = found
        return found

    def _class_sizes(self, i: int, where: Function | None, fixed: Mapping[Agent, int]
                     ) -> IntArray:
        members = _subsets(len(self.cards), self.hand_sizes[i]).members
        sizes = np.zeros(len(members), dtype=np.int64)
        part = self._part(fixed, where)
        if part == self.vocabulary.false:
            return sizes
        taken = {c for a, key in fixed.items()
                 for c in _subsets(len(self.cards), self.hand_sizes[self.agent_index(a)])
                 .members[key].tolist()}
        atoms = self._holds[i]
        for key, hand in enumerate(members.tolist()):
            if taken.isdisjoint(hand):  # the cofactor no longer depends on the agent's atoms
                held = set(hand)
                cofactor = self.vocabulary.restrict(part, {a: c in held
                                                           for c, a in enumerate(atoms)})
                sizes[key] = self.vocabulary.count(cofactor) >> len(atoms)
        return sizes

    def part_size(self, fixed: Mapping[Agent, int]) -> int:
        """How many states the part where the agents of ``fixed`` hold those hands has."""
        return self.n_worlds if not fixed else self.vocabulary.count(self._part(fixed, None))

    def listed(self, fixed: Mapping[Agent, int], max_worlds: int = 500) -> DealModel:
        """The deals of the part where the agents of ``fixed`` hold the hands their keys name,
        as an explicit deal model whose world ids are the deals' indices among all deals (as
        :func:`kripke.deal_model` numbers them, so a drawing pins each where the explicit
        backend would), the actual deal its actual world if it is there; kept. Refused with
        :class:`ModelTooLargeError` past ``max_worlds`` deals, before listing any."""
        key = self._agent_index.keyed(fixed)
        found = self._listed.get(key)
        if found is None or found.n_worlds > max_worlds:
            found = self._listed[key] = self._list(fixed, max_worlds)
        return found

    def drawn(self, limit: int) -> None:
        """None: a symbolic deal is drawn as tiles, its worlds listed only part by part."""
        return None

    def as_list(self) -> DealModel:
        """Every possible deal as the explicit backend deals it (so a world's id is the same
        deal's there), narrowed by what narrowed this model, in order: each announcement's
        formula evaluated on the list, a condition given as a diagram read at each deal left
        (:meth:`kripke.symbolic.bdd.Vocabulary.values_at`). Kept. Reading the whole law at every
        deal
        instead took 34 s where announcing again takes 3 (a 4 × 4 game, 63,063,000 deals, after
        twelve turns): a formula is evaluated a world array at a time, a diagram node by node.
        The last list made is kept (one: a game's may take gigabytes, and a page keeps every
        turn's model). :class:`ModelError` past :func:`deal_model`'s limit of deals."""
        return _as_list(self)

    def announce(self, formula: Formula | str) -> Self:
        """As :meth:`SymbolicModel.announce`, keeping the formula (not its diagram) as what
        narrowed the model: :meth:`as_list` evaluates it on a list of deals."""
        formula = parse(formula) if isinstance(formula, str) else formula
        new = super().announce(formula)
        new._said = (*self._said, formula)
        return new

    def _list(self, fixed: Mapping[Agent, int], max_worlds: int) -> DealModel:
        part = self._part(fixed, None)
        if (n := self.vocabulary.count(part)) > max_worlds:
            raise ModelTooLargeError(n, max_worlds, task="to list",
                                     advice="fix more hands, or ask for class sizes")
        deals = [tuple(frozenset(c for c, atom in enumerate(atoms) if state[atom])
                       for atoms in self._holds)
                 for state in self.vocabulary.assignments(part)]
        actual = None if self.actual is None else tuple(
            frozenset(c for c, atom in enumerate(atoms) if self.actual[atom])
            for atoms in self._holds)
        return listed_deals(self.cards, self.hand_sizes, self.agents, deals,
                            deals.index(actual) if actual in deals else None, self.atom_pattern)

    def listed_values(self, where: Values, fixed: Mapping[Agent, int], max_worlds: int = 500
                      ) -> BoolArray:
        """``where`` (an :meth:`extension`) at each world of :meth:`listed` ``(fixed,
        max_worlds)``: the value per world a picture of those worlds marks."""
        deals, where = self.listed(fixed, max_worlds), self._diagram(where)
        out = np.zeros(deals.n_worlds, dtype=bool)
        for w, hands in enumerate(deals.deal(w) for w in range(deals.n_worlds)):
            held = {atom for i, hand in enumerate(hands)
                    for c, atom in enumerate(self._holds[i]) if self.cards[c] in hand}
            out[w] = self.vocabulary.value(where, {a: a in held for a in self.vocabulary.atoms})
        return out


@lru_cache(maxsize=1)
def _as_list(model: SymbolicDealModel) -> DealModel:
    """:meth:`SymbolicDealModel.as_list`, kept for the last model asked (models hash by
    identity and never change)."""
    v = model.vocabulary
    listed = deal_model(model.cards, model.hand_sizes, model.deal(), agents=model.agents,
                        atom=model.atom_pattern)
    for said in model._said:
        listed = listed.restrict(listed.values(said) if isinstance(said, Formula) else
                                 v.values_at(v.within(said, model._dealt), listed.atom_values,
                                             listed.n_worlds))
    return listed


def symbolic_deal(
    cards: Sequence[Hashable],
    hand_sizes: Sequence[int],
    actual: Sequence[Collection[Hashable]] | None,
    *,
    agents: Sequence[Agent] | None = None,
    atom: str = "p({agent},{card})",
) -> SymbolicDealModel:
    """The knowledge structure of every deal of ``cards`` with the given hand sizes.

    The same arguments and atoms as :func:`kripke.deal_model`, and the same answers, but no
    limit on the number of deals: cards beyond the sum of the hand sizes stay in a hidden pile,
    seen by no one. ``actual`` is the real deal, one collection of cards per agent (or None).
    """
    cards, sizes, who = deal_arguments(cards, hand_sizes, agents)
    taken: set[Atom] = set()
    holds: list[list[Atom]] = [[] for _ in who]
    order: list[Atom] = []
    for card in cards:  # card-major: see the module docstring
        for i, agent in enumerate(who):
            name = hand_atom(atom, agent, card, taken)
            taken.add(name)
            holds[i].append(name)
            order.append(name)
    return SymbolicDealModel(Vocabulary(order), cards, sizes, who,
                             tuple(tuple(h) for h in holds), actual, atom)


#: A deal on either backend, as :func:`kripke.deal_model` and :func:`symbolic_deal` build it:
#: the type of a game's shared model, so that no one outside ``kripke`` names a backend's class.
type Deal = DealModel | SymbolicDealModel
