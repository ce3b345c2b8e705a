"""Deal models: every way to deal n cards to m agents with given hand sizes.

Russian cards (7 cards; 3, 3, 1) is one; the game's destination tickets (m agents, k each) are
another. Agent i sees exactly its own hand, so its observation key is its hand's *rank* among
all hands of that size, and ``p(i,c)`` is a table over those ranks. A world is then one small int
per agent: the 63,063,000 deals of 16 tickets to 4 agents take 4 × 2 bytes each.

The deals are generated level by level without a Python loop over worlds: after the first a
agents have their hands, what matters is which cards remain; for every possible remainder a small
table gives the next agent's hand rank and the new remainder, and one gather per level extends
all partial deals at once. Worlds come out in lexicographic order of (agent 0's choice, agent 1's
choice among the rest, ...), which is how the actual deal's index is computed.
"""

from __future__ import annotations

import copy
from collections.abc import Collection, Hashable, Mapping, Sequence
from functools import cache
from itertools import combinations
from math import comb, factorial, prod
from typing import Any, Protocol, Self

import numpy as np

from kripke.errors import ModelError
from kripke.explicit.arrays import BoolArray, IntArray, gather
from kripke.explicit.check import observed_table
from kripke.explicit.model import KripkeModel
from kripke.explicit.plausibility import PlausibilityModel, rank_shift
from kripke.explicit.world_ids import WorldIds
from kripke.interface import AgentIndex
from kripke.kernel import as_formula
from kripke.language.formula import Agent, Atom, Formula


def _int_dtype(bound: int) -> np.dtype:
    """The smallest signed int type holding 0..bound-1, to keep 63M-world arrays small."""
    for dtype in (np.int16, np.int32, np.int64):
        if bound <= np.iinfo(dtype).max + 1:
            return np.dtype(dtype)
    raise ModelError(f"{bound} hands are too many to number")


@cache
def _combinations(n: int, k: int) -> IntArray:
    """All k-subsets of range(n) in lexicographic order, as a (comb(n, k), k) array.

    Cached (read-only), like the other per-(n, k) tables: a game builds a deal model per game.
    """
    flat = np.fromiter((i for c in combinations(range(n), k) for i in c), dtype=np.int64)
    flat.flags.writeable = False
    return flat.reshape(comb(n, k), k)


@cache
def _binomials(n: int) -> IntArray:
    """C(a, b) for 0 <= a, b <= n as a table (0 where b > a), read-only."""
    table = np.array([[comb(a, b) for b in range(n + 1)] for a in range(n + 1)], dtype=np.int64)
    table.flags.writeable = False
    return table


@cache
def _subsets(n: int, k: int) -> _Subsets:
    return _Subsets(n, k)


@cache
def _atom(text: str) -> Atom:
    return Atom(text)


class _Subsets:
    """All k-subsets of n card positions, numbered by their bit mask in increasing order."""

    def __init__(self, n: int, k: int) -> None:
        members = _combinations(n, k)
        masks = (np.int64(1) << members).sum(axis=1)
        order = np.argsort(masks, kind="stable")
        self.members: IntArray = members[order]
        self.masks: IntArray = masks[order]
        self.dtype = _int_dtype(len(self.masks))

    def rank(self, members: IntArray) -> IntArray:
        """Rank of each subset given as positions along the last axis."""
        masks = (np.int64(1) << members).sum(axis=-1)
        return np.searchsorted(self.masks, masks).astype(self.dtype)


def deal_count(n_cards: int, hand_sizes: Sequence[int]) -> int:
    """n! / (k_1! ... k_m! (n - Σk)!): the number of deals, the model's world count."""
    rest = n_cards - sum(hand_sizes)
    return factorial(n_cards) // (prod(factorial(k) for k in hand_sizes) * factorial(rest))


def _all_deals(n: int, sizes: Sequence[int]) -> list[IntArray]:
    """Each hand's rank (among subsets of its size) in every deal; sizes must sum to n."""
    subsets = {k: _subsets(n, k) for k in set(sizes)}
    # rank of the remaining cards: all n of them; None once every card is dealt
    remainder: IntArray | None = np.zeros(1, dtype=np.int16)
    left = n
    keys: list[IntArray] = []
    for k in sizes:
        if remainder is None:  # only empty hands can follow, and all have rank 0
            keys.append(np.zeros(keys[-1].size, dtype=subsets[k].dtype))
            continue
        if k == left:  # the hand is whatever remains, and its rank is the remainder's
            keys.append(remainder.astype(subsets[k].dtype, copy=False))
            remainder = None
            continue
        remaining = _subsets(n, left).members  # every possible remainder, as card positions
        patterns = _combinations(left, k)  # which of the remaining cards the agent gets
        others = _combinations(left, left - k)[::-1]  # the complement of each pattern, in step
        hand_rank = subsets[k].rank(remaining[:, patterns])  # (remainders, choices)
        rest = _subsets(n, left - k)
        rest_rank = rest.rank(remaining[:, others])
        choices = len(patterns)
        keys = [np.repeat(key, choices) for key in keys]
        keys.append(hand_rank[remainder].ravel())
        remainder = rest_rank[remainder].ravel()
        left -= k
    return keys


class _Deal(Protocol):
    """What :class:`Dealt` reads of a deal, whichever backend holds it."""

    cards: tuple[Hashable, ...]
    hand_sizes: tuple[int, ...]
    _agent_index: AgentIndex

    @property
    def agents(self) -> tuple[Agent, ...]: ...

    def agent_index(self, agent: Agent) -> int: ...

    def hand(self, agent: Agent, key: int) -> tuple[Any, ...]: ...

    def deal(self, world: Any = None) -> tuple[tuple[Any, ...], ...]: ...


class Dealt:
    """What a deal answers alike on both backends (:class:`DealModel` and
    :class:`kripke.symbolic.deal.SymbolicDealModel`), read off its cards and hands: the one
    copy of it, put first among their bases."""

    def class_name(self: _Deal, agent: Agent, key: int) -> tuple[str, ...] | None:
        """A class of a deal is named by the hand: its cards."""
        return tuple(str(card) for card in self.hand(agent, key))

    def dealt_classes(self: _Deal, agent: Agent, fixed: Mapping[Agent, int]) -> dict[int, int]:
        """Every hand the agent could be dealt where each agent of ``fixed`` holds the hand its
        key names, with the number of deals then (see :func:`dealt_classes`)."""
        return dealt_classes(len(self.cards), self.hand_sizes, self.agent_index(agent),
                             self._agent_index.keyed(fixed))

    def world_label(self: _Deal, world: Any = None) -> str:
        """The deal, e.g. ``0:{3,5} 1:{1,2} 2:{4,6}`` (default: the actual world)."""
        return " ".join(
            f"{agent}:{{{','.join(str(c) for c in hand)}}}"
            for agent, hand in zip(self.agents, self.deal(world), strict=True)
        )


class DealModel(Dealt, KripkeModel):
    """A KripkeModel whose worlds are deals; it can say who holds what in each world, and a
    world's id (its index among all deals) from its hands, so it stores no ids. Its worlds are
    every deal, as :func:`deal_model` builds them, or (``every_deal=False``) some deals, as
    :func:`listed_deals` lists them."""

    def __init__(
        self,
        cards: tuple[Hashable, ...],
        hand_sizes: tuple[int, ...],
        agents: tuple[Agent, ...],
        keys: list[IntArray],
        atom: str,
        actual: int | None,
        every_deal: bool = True,
    ) -> None:
        n = len(cards)
        self._members = tuple(_subsets(n, k).members for k in hand_sizes)
        observed: dict[Atom, tuple[Agent, IntArray]] = {}
        for agent, hands in zip(agents, self._members, strict=True):
            holds = np.zeros((len(hands), n), dtype=bool)
            np.put_along_axis(holds, hands, True, axis=1)
            for c, card in enumerate(cards):
                observed[hand_atom(atom, agent, card, observed)] = (agent, holds[:, c].copy())
        super().__init__(
            observations=dict(zip(agents, keys, strict=True)),
            actual=actual,
            observed_atoms=observed,
            n_worlds=len(keys[0]) if keys else deal_count(n, hand_sizes),
            world_ids=WorldIds.from_worlds(whole=every_deal),
        )
        self.cards = cards
        self.hand_sizes = hand_sizes
        self.atom_pattern = atom

    def _ids_of(self, worlds: IntArray) -> IntArray:
        """The deals' indices in the generator's lexicographic numbering (as
        :func:`_actual_index` numbers one): agent by agent, the rank of its hand among the hands
        of the cards still left, in mixed radix. A hand's rank among the k-subsets of L cards,
        by positions p_0 < ... < p_{k-1} among them, is C(L, k) - 1 - Σ_t C(L-1-p_t, k-t)."""
        n = len(self.cards)
        left = np.full(worlds.size, (1 << n) - 1, dtype=np.int64)  # the cards not yet dealt
        index = np.zeros(worlds.size, dtype=np.int64)
        size = n
        for members, keys, k in zip(self._members, self._keys, self.hand_sizes, strict=True):
            cards = members[keys[worlds]]  # (worlds, k) card positions, increasing
            below = np.zeros(worlds.size, dtype=np.int64)  # Σ_t C(L-1-p_t, k-t)
            for t in range(k):
                card = cards[:, t]
                place = np.bitwise_count(left & ((np.int64(1) << card) - 1)).astype(np.int64)
                below += _binomials(n)[size - 1 - place, k - t]
            index = index * comb(size, k) + comb(size, k) - 1 - below
            left &= ~(np.int64(1) << cards).sum(axis=1)
            size -= k
        return index

    def deal(self, world: int | None = None) -> tuple[tuple[Any, ...], ...]:
        """The hands, one tuple of cards per agent, in a world (default: the actual one); the
        cards are the caller's own values (``Any``: whatever hashables it dealt)."""
        world = self._world(world)
        return tuple(
            tuple(self.cards[c] for c in members[keys[world]])
            for members, keys in zip(self._members, self._keys, strict=True)
        )

    def hand(self, agent: Agent, key: int) -> tuple[Any, ...]:
        """The cards an agent holds in its class ``key`` (its observation key is its hand)."""
        return tuple(self.cards[c] for c in self._members[self.agent_index(agent)][key])


def dealt_classes(n_cards: int, hand_sizes: Sequence[int], index: int,
                  fixed: Sequence[tuple[int, int]]) -> dict[int, int]:
    """Every hand (by key: its rank) the agent at ``index`` could be dealt where each agent of
    ``fixed`` (position, key) holds the hand its key names, with the number of deals then.
    Counting, not remembering, so both backends' deals answer it alike, at any later model:
    a picture draws the classes announcements have emptied as empty slots."""
    hands = [_subsets(n_cards, k).members for k in hand_sizes]
    taken = {int(c) for i, key in fixed for c in hands[i][key]}
    fixed_at = {i for i, _ in fixed}
    others = [k for i, k in enumerate(hand_sizes) if i != index and i not in fixed_at]
    size = deal_count(n_cards - len(taken) - hand_sizes[index], others)
    return {key: size for key, hand in enumerate(hands[index].tolist())
            if taken.isdisjoint(hand)}


def listed_deals(
    cards: Sequence[Hashable],
    hand_sizes: Sequence[int],
    agents: Sequence[Agent],
    deals: Sequence[Sequence[Collection[int]]],
    actual: int | None,
    atom: str = "p({agent},{card})",
) -> DealModel:
    """Some deals of a deal model, listed: each deal one collection of card positions per agent
    (``actual`` indexes ``deals``, or None). The worlds come in the order of their ids, each
    deal's index among all deals (as :func:`deal_model` numbers them), so a drawing of these
    worlds pins them where the whole model would: how a symbolic deal lists the few worlds a
    picture draws one by one."""
    cards, sizes, who = deal_arguments(cards, hand_sizes, agents)
    n = len(cards)
    keys = [_subsets(n, k).rank(np.array([sorted(deal[i]) for deal in deals], dtype=np.int64)
                                .reshape(len(deals), k)) for i, k in enumerate(sizes)]
    unsorted = DealModel(cards, sizes, who, keys, atom, 0 if deals else None)
    order = np.argsort(unsorted._ids_of(np.arange(len(deals))), kind="stable")
    return DealModel(cards, sizes, who, [k[order] for k in keys], atom,
                     None if actual is None else int(np.flatnonzero(order == actual)[0]),
                     every_deal=False)


def deal_arguments(
    cards: Sequence[Hashable], hand_sizes: Sequence[int], agents: Sequence[Agent] | None
) -> tuple[tuple[Hashable, ...], tuple[int, ...], tuple[Agent, ...]]:
    """The arguments of a deal as tuples, checked: distinct cards, hands that fit, one agent per
    hand (agents default to 0..m-1). Shared by the explicit and the symbolic deal."""
    cards = tuple(cards)
    hand_sizes = tuple(int(k) for k in hand_sizes)
    if len(set(cards)) != len(cards):
        raise ModelError("the cards must be distinct")
    if any(k < 0 for k in hand_sizes) or sum(hand_sizes) > len(cards):
        raise ModelError(f"hand sizes {hand_sizes} do not fit {len(cards)} cards")
    agents = tuple(range(len(hand_sizes))) if agents is None else tuple(agents)
    if len(agents) != len(hand_sizes):
        raise ModelError(f"{len(agents)} agents but {len(hand_sizes)} hand sizes")
    return cards, hand_sizes, agents


def hand_atom(pattern: str, agent: Agent, card: Hashable, taken: Collection[Atom]) -> Atom:
    """The atom "agent holds card" by the pattern (default ``p({agent},{card})``), refused if
    the pattern already gave it for another agent or card."""
    name = _atom(pattern.format(agent=agent, card=card))
    if name in taken:
        raise ModelError(f"atom pattern {pattern!r} gives {name} twice: it must name "
                         "both {agent} and {card}")
    return name


def deal_model(
    cards: Sequence[Hashable],
    hand_sizes: Sequence[int],
    actual: Sequence[Collection[Hashable]],
    *,
    agents: Sequence[Agent] | None = None,
    atom: str = "p({agent},{card})",
    max_worlds: int = 500_000_000,
) -> DealModel:
    """The model of every deal of ``cards`` with the given hand sizes; agent i sees its hand.

    ``actual`` is the real deal, one collection of cards per agent. Cards beyond the sum of the
    hand sizes stay undealt, seen by no one. Atoms ``atom.format(agent=i, card=c)`` -- by default
    ``p(i,c)`` -- are true iff agent i holds card c. Agents default to 0..m-1. More than
    ``max_worlds`` deals (about 10 bytes each) are refused before any memory is taken.
    """
    cards, hand_sizes, agents = deal_arguments(cards, hand_sizes, agents)
    n = len(cards)
    if n > 62:
        raise ModelError("at most 62 cards (hands are numbered through 64-bit masks)")
    if (count := deal_count(n, hand_sizes)) > max_worlds:
        raise ModelError(f"{count:,} deals are more than max_worlds={max_worlds:,}")
    undealt = n - sum(hand_sizes)
    sizes = hand_sizes + ((undealt,) if undealt else ())
    keys = _all_deals(n, sizes)[: len(hand_sizes)]
    return DealModel(cards, hand_sizes, agents, keys, atom,
                     _actual_index(cards, sizes, actual, agents))


def _actual_index(
    cards: tuple[Hashable, ...],
    sizes: tuple[int, ...],
    actual: Sequence[Collection[Hashable]],
    agents: tuple[Agent, ...],
) -> int:
    """The index of the real deal, by the same lexicographic numbering the generator uses."""
    if len(actual) != len(agents):
        raise ModelError(f"the actual deal has {len(actual)} hands for {len(agents)} agents")
    position = {card: i for i, card in enumerate(cards)}
    remaining = list(range(len(cards)))
    index = 0
    for agent, k, hand in zip(agents, sizes, actual, strict=False):
        hand_positions = sorted({position.get(c, -1) for c in hand})
        if len(hand_positions) != len(hand) or len(hand) != k or -1 in hand_positions:
            raise ModelError(f"agent {agent!r} must hold {k} distinct cards, got {list(hand)}")
        if not set(hand_positions) <= set(remaining):
            raise ModelError(f"agent {agent!r} is dealt a card another agent already holds")
        chosen = tuple(remaining.index(p) for p in hand_positions)
        patterns = list(combinations(range(len(remaining)), k))
        index = index * comb(len(remaining), k) + patterns.index(chosen)
        remaining = [p for p in remaining if p not in hand_positions]
    return index


class RankedDealModel(DealModel, PlausibilityModel):
    """A deal model with one plausibility rank per deal, shared by every agent (Spohn's
    ranking; lower more plausible): what every agent sees alike, such as evidence made in
    public, orders the deals the same way for all of them, each within its own classes.
    Knowledge is the deal's (``K_a`` over the class), belief the plausibility model's
    (``B_a``, ``B_a[ψ]``, ``Sb_a`` over the least-ranked worlds of the class); announcements
    remove worlds and keep the ranks of the rest; :meth:`shift` is soft information. The
    rank column is held once (two bytes a deal), not once per agent: 63,063,000 deals take
    126 MB of ranks. Build one with :func:`ranked_deal`."""

    @classmethod
    def from_deal(cls, deal: DealModel, rank: IntArray | None = None) -> RankedDealModel:
        """``deal`` with a rank per world (default: every deal rank 0, as dealt)."""
        column = np.zeros(deal.n_worlds, np.int16) if rank is None else \
            np.asarray(rank, dtype=np.int16).copy()
        if column.shape != (deal.n_worlds,) or (column.size and column.min() < 0):
            raise ModelError(f"give a rank of 0 or more for each of the {deal.n_worlds} deals")
        column.flags.writeable = False
        new = cls.__new__(cls)
        new.__dict__.update(deal.__dict__)
        new.names = {}
        new._ranks = (column,) * len(deal.agents)
        return new

    def shift(self, formula: Formula | str) -> Self:
        """The rank shift with ``formula`` read now (:func:`rank_shift`): the deals where it
        is false drop one rank; every deal stays, so what anyone knows is unchanged. A claim's
        inference is about one agent's hand, so its value comes from a table over that agent's
        classes, spread in one gather (as ``announce`` reads such a formula), not an array per
        atom."""
        formula = as_formula(formula)
        observed = observed_table(self, formula)
        explained = self.evaluate(formula) if observed is None else \
            gather(observed[1], self._keys[observed[0]])
        new = copy.copy(self)
        column = rank_shift(self._ranks[0], explained)
        column.flags.writeable = False
        new._ranks = (column,) * len(self._ranks)
        new._forget_counts()
        return new

    def shared_rank(self) -> IntArray:
        """The rank of each world (the same for every agent)."""
        return self._ranks[0]

    def rank_values(self, rank: int) -> BoolArray:
        """Where the shared rank is ``rank``: values to count or draw by (``class_sizes``'s
        ``where``), as on the symbolic backend."""
        found: BoolArray = self._ranks[0] == rank
        return found

    def rank_counts(self) -> tuple[int, ...]:
        """How many deals have each rank 0, 1, 2, ... (up to the highest there is)."""
        return tuple(int(c) for c in np.bincount(self._ranks[0], minlength=1))

    def actual_rank(self) -> int:
        """The actual deal's rank."""
        return int(self._ranks[0][self._world(None)])

    def best_rank(self, agent: Agent) -> int:
        """The least rank of the agent's class at the actual world: the rank of the deals it
        believes in (the actual deal is among them exactly when that is its rank)."""
        return int(self._ranks[0][self.possible_worlds(agent)].min())

    def is_flat(self) -> bool:
        """Whether every world of each class is as plausible as every other (as dealt, and
        while every claim is explained everywhere)."""
        rank = self._ranks[0]
        return bool(rank.size == 0 or rank.min() == rank.max()) or super().is_flat()

    def world_name(self, world: int | None = None) -> str:
        """The deal's name (its hands), as the deal model names it."""
        return self.world_label(world)

    def _columns(self) -> list[IntArray]:
        """The one rank column travels with the other per-world arrays."""
        return [*KripkeModel._columns(self), self._ranks[0]]

    def _with(self, picked: list[IntArray], ids: WorldIds, actual: int | None) -> Any:
        new = KripkeModel._with(self, picked[:-1], ids, actual)
        new._ranks = (picked[-1],) * len(self._ranks)
        return new
