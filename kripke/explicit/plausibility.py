"""Plausibility models: knowledge, belief, and how belief is revised.

Baltag and Smets ("A qualitative theory of dynamic interactive belief revision", 2008) and van
Benthem ("Dynamic logic for belief revision", 2007): each agent has epistemic classes (the
worlds it cannot tell apart, an S5 partition, as in
:class:`~kripke.explicit.model.KripkeModel`) and, within each class, a plausibility order,
total and well-founded. It is held as a **rank per world and agent** (0 the most plausible; a
lower rank is more plausible), which is total and well-founded by construction, and which is
also the open game's form (one rank per deal: the claims it leaves unexplained, Spohn's
ranking). Only the order of ranks within a class matters.

* ``K_a φ``: φ in every world of a's class (knowledge, as on the S5 model);
* ``B_a φ``: φ in the most plausible worlds of the class; ``B_a[ψ] φ``: φ in the most
  plausible ψ-worlds of the class (true when it has none); ``Sb_a φ`` (safe belief): φ in every
  world of the class at least as plausible as this one; the duals ``⟨B_a⟩``, ``⟨B_a[ψ]⟩``,
  ``⟨Sb_a⟩`` are ¬X¬.

A model without an order has every world of a class equally plausible: there ``B_a`` is
``K_a``, which is why each plausibility operator of :mod:`kripke.language.formula` subclasses
the modal operator it is on such a model, and every other checker reads it so.

**Upgrades** (every agent, within each of its classes; the formula is read in the model
before): the hard update ``!φ`` removes the ¬φ-worlds (:meth:`PlausibilityModel.announce`);
the radical upgrade ``⇑φ`` makes every φ-world more plausible than every ¬φ-world, the order
kept within each; the conservative upgrade ``↑φ`` makes the best φ-worlds the most plausible,
the rest keeping their order below them. Soft information need not be true: an upgrade with
φ false at the actual world is allowed and plants a false belief. :func:`rank_shift` is the
open game's step (Spohn: the worlds that leave a claim unexplained drop one rank; an
:class:`Upgrade` of kind "shift", ``shift:F`` on one line). An event
model with an order on its events (:class:`RankedEvents`) updates by **priority update**: the
product, ordered lexicographically, the event order first, then the order of the worlds.

As an :class:`~kripke.events.model.EventModel`, an upgrade (:class:`Upgrade`) or an ordered
event model reaches any S5 model's ``update`` (:meth:`EventModel.applied`), which makes the
model a plausibility model first, every world of a class equally plausible: so every upgrade
applies to every model file, starter and puzzle of classes. A model with arrows (a
:class:`~kripke.explicit.belief.BeliefModel`) has no classes to order and is refused where the
event is read (:func:`kripke.files.eventfile.load_event_model`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

import numpy as np

from kripke.budget import check_budget, check_stopped
from kripke.errors import ModelError
from kripke.events.model import Event, EventModel
from kripke.explicit.arrays import BoolArray, IntArray
from kripke.explicit.belief import BeliefModel
from kripke.explicit.model import KripkeModel
from kripke.explicit.world_ids import WorldIds
from kripke.kernel import as_formula
from kripke.language.formula import (
    PLAUSIBILITY,
    Agent,
    And,
    Announce,
    AnnounceDual,
    Atom,
    BelievedPossible,
    Believes,
    Common,
    ConditionalBelief,
    ConditionalPossible,
    Distributed,
    Everyone,
    Formula,
    Iff,
    Implies,
    Knows,
    Not,
    Or,
    Possible,
    SafeBelief,
    SafePossible,
    Top,
)

#: The upgrades written on one line (``radical:F``, ``conservative:F``, ``shift:F``) and how
#: each is written with its formula.
UPGRADES = {"radical": "⇑{}", "conservative": "↑{}", "shift": "¬{} one rank down"}
#: A rank no world has: "no such world in this class".
_NONE = np.iinfo(np.int64).max
#: The atom a subformula's values stand in for when a modal operator of the S5 checker reads
#: them (see :meth:`PlausibilityModel._value`).
_INNER = Atom("inner")


def dense(keys: IntArray, *levels: IntArray) -> IntArray:
    """Ranks 0, 1, 2, ... within each class (``keys``), ordered lexicographically by
    ``levels`` (the first decides, the next breaks its ties): equal tuples get equal ranks."""
    n = keys.size
    if n == 0:
        return np.zeros(0, dtype=np.int64)
    order = np.lexsort((*reversed(levels), keys))
    in_order = keys[order]
    starts = np.r_[True, in_order[1:] != in_order[:-1]]
    steps = starts.copy()
    for level in levels:
        ordered = level[order]
        steps[1:] |= ordered[1:] != ordered[:-1]
    count = np.cumsum(steps)
    first = np.maximum.accumulate(np.where(starts, count, 0))
    out = np.empty(n, dtype=np.int64)
    out[order] = count - first
    return out


def least(keys: IntArray, n_keys: int, ranks: IntArray, where: BoolArray) -> IntArray:
    """Per class, the least rank of its worlds where ``where`` holds (:data:`_NONE` if
    none). Few distinct ranks (the open game's counts of unexplained claims) are counted per
    (class, rank) in one ``bincount``: ``np.minimum.at`` took 9 s over a game's 63,063,000
    deals, the count a fraction of a second."""
    found = np.full(max(n_keys, 1), _NONE, dtype=np.int64)
    every = bool(where.all())  # B_a, not B_a[ψ]: no world to leave out, nothing to copy
    picked, classes = (ranks, keys) if every else (ranks[where], keys[where])
    top = int(picked.max()) + 1 if picked.size else 0
    if top and n_keys * top <= max(4 * ranks.size, 1 << 16):
        code = np.multiply(classes, top, dtype=np.int64 if n_keys * top >= 1 << 31 else np.int32)
        present = (np.bincount(code + picked, minlength=n_keys * top) > 0).reshape(n_keys, top)
        some = present.any(axis=1)
        found[:n_keys][some] = present[some].argmax(axis=1)
        return found
    np.minimum.at(found, classes, picked)
    return found


def radical(keys: IntArray, ranks: IntArray, holds: BoolArray) -> IntArray:
    """⇑φ: every φ-world of a class above every ¬φ-world, the old order kept within each."""
    return dense(keys, (~holds).astype(np.int64), ranks)


def conservative(keys: IntArray, n_keys: int, ranks: IntArray, holds: BoolArray) -> IntArray:
    """↑φ: the best φ-worlds of each class on top, every other world in its old order below."""
    best = holds & (ranks == least(keys, n_keys, ranks, holds)[keys])
    return dense(keys, np.where(best, 0, 1), ranks)


def rank_shift(ranks: IntArray, explained: BoolArray) -> IntArray:
    """The open game's step (Spohn's ranking): the worlds that leave a claim unexplained drop
    one rank; ranks are counts of unexplained claims, so they are not renumbered. The ranks
    keep their type (a game's 63,063,000 deals hold theirs in two bytes each)."""
    shifted: IntArray = ranks + (~explained).astype(ranks.dtype)
    return shifted


class PlausibilityModel(KripkeModel):
    """An S5 model (classes per agent, see :class:`KripkeModel`) with a rank per world and
    agent, its plausibility order within each class, and a name per world (kept by id, as a
    model file's). Immutable: announcements, upgrades and updates return new models. A picture
    reads the levels with :meth:`level`; :meth:`best` are the worlds an agent's belief rests
    on (:class:`kripke.parts.Leveled`)."""

    names: dict[int, str]
    _ranks: tuple[IntArray, ...]

    @classmethod
    def of(cls, model: KripkeModel,
           ranks: Mapping[Agent, Sequence[int] | IntArray] | None = None,
           names: Sequence[str] | None = None) -> PlausibilityModel:
        """``model`` (any S5 model; a plausibility model keeps its own ranks unless given)
        with ranks per agent (a rank per world, lower more plausible); an agent not given
        has every world of a class equally plausible. The worlds keep the model's names
        (:meth:`world_label`) unless ``names`` gives others."""
        given = dict(ranks or {})
        keyed = {str(a): r for a, r in given.items()}
        plain = KripkeModel({a: model.atom_values(a) for a in model.atoms},
                            {a: model.observation(a) for a in model.agents}, model.actual,
                            n_worlds=model.n_worlds, world_ids=model.world_ids)
        new = cls.__new__(cls)
        new.__dict__.update(plain.__dict__)
        labels = list(names) if names is not None else \
            [model.world_label(w) for w in range(model.n_worlds)]
        if len(labels) != model.n_worlds:
            raise ModelError(f"{len(labels)} names for {model.n_worlds} worlds")
        new.names = dict(zip(model.world_ids.tolist(), labels, strict=True))
        own = model._ranks if isinstance(model, PlausibilityModel) else None
        columns = []
        for i, agent in enumerate(model.agents):
            if str(agent) in keyed:
                column = np.array(keyed.pop(str(agent)), dtype=np.int64)  # not the caller's
                if column.shape != (model.n_worlds,) or (column.size and column.min() < 0):
                    raise ModelError(f"{agent}'s ranks: give a rank of 0 or more for each of "
                                     f"the {model.n_worlds} worlds")
            else:
                column = own[i] if own is not None else np.zeros(model.n_worlds, np.int64)
            column.flags.writeable = False
            columns.append(column)
        if keyed:
            raise ModelError(f"ranks for {', '.join(keyed)}, which the model does not have; "
                             f"its agents are {', '.join(map(str, model.agents))}")
        new._ranks = tuple(columns)
        return new

    # --- the order --------------------------------------------------------------------------

    def ranks(self, agent: Agent) -> IntArray:
        """The agent's rank per world (lower more plausible; only the order within a class
        means anything)."""
        return self._ranks[self.agent_index(agent)]

    def level(self, agent: Agent) -> IntArray:
        """The agent's ranks renumbered 0, 1, 2, ... within each class: the level a picture
        draws each world at (0, the most plausible, on top)."""
        i = self.agent_index(agent)
        return dense(self.keys(i), self._ranks[i])

    def best(self, agent: Agent, world: int | None = None) -> IntArray:
        """The most plausible worlds of the agent's class at a world (default: the actual
        one): what its belief rests on."""
        worlds = self.possible_worlds(agent, world)
        ranks = self.ranks(agent)[worlds]
        found: IntArray = worlds[ranks == ranks.min()] if worlds.size else worlds
        return found

    def believed_atoms(self, agent: Agent, world: int | None = None) -> dict[Atom, bool]:
        """Atoms whose value the agent believes at a world (the same in every world of
        :meth:`best`), with that value: as ``known_atoms`` reads the whole class."""
        best, fixed = self.best(agent, world), {}
        for atom in self.atoms:
            column = self.atom_values(atom, best)
            if column.all() or not column.any():
                fixed[atom] = bool(column.all())
        return fixed

    def levels(self) -> tuple[tuple[int, ...], ...]:
        """Each agent's :meth:`level` per world, for the listing (:mod:`kripke.kernel`)."""
        return tuple(tuple(self.level(a).tolist()) for a in self.agents)

    def is_flat(self) -> bool:
        """Whether every world of each class is as plausible as every other (no order)."""
        return all(bool(np.all(dense(self.keys(i), r) == 0))
                   for i, r in enumerate(self._ranks))

    def world_name(self, world: int | None = None) -> str:
        return self.names[self.world_id(self._world(world))]

    def world_label(self, world: int | None = None) -> str:
        return self.world_name(world)

    # --- checking ---------------------------------------------------------------------------

    def evaluate(self, formula: Formula | str) -> BoolArray:
        """The formula's value at every world: the plausibility operators by the order, the
        rest by the S5 checker."""
        formula = as_formula(formula)
        check_budget(formula, self.n_worlds, len(self.agents))
        return self._value(formula)

    def _value(self, f: Formula) -> BoolArray:
        check_stopped()
        if not ordered(f):
            return super().evaluate(f)
        match f:
            case ConditionalBelief(agent) | ConditionalPossible(agent):
                assert isinstance(f, ConditionalBelief | ConditionalPossible)
                body = self._value(f.consequent)
                believed = self._conditional(agent, self._value(f.condition),
                                             body if isinstance(f, ConditionalBelief) else ~body)
                return believed if isinstance(f, ConditionalBelief) else ~believed
            case Believes(agent, g):
                return self._conditional(agent, np.ones(self.n_worlds, bool), self._value(g))
            case BelievedPossible(agent, g):
                return ~self._conditional(agent, np.ones(self.n_worlds, bool), ~self._value(g))
            case SafeBelief(agent, g):
                return self._safe(agent, self._value(g))
            case SafePossible(agent, g):
                return ~self._safe(agent, ~self._value(g))
            case Not(g):
                return ~self._value(g)
            case And(parts):
                every: BoolArray = np.logical_and.reduce([self._value(p) for p in parts])
                return every
            case Or(parts):
                some: BoolArray = np.logical_or.reduce([self._value(p) for p in parts])
                return some
            case Implies(left, right):
                follows: BoolArray = ~self._value(left) | self._value(right)
                return follows
            case Iff(left, right):
                same: BoolArray = self._value(left) == self._value(right)
                return same
            case Announce(said, g) | AnnounceDual(said, g):
                condition = self._value(said)
                result = np.zeros(self.n_worlds, bool) if isinstance(f, AnnounceDual) \
                    else ~condition
                result[condition] = self.restrict(condition)._value(g)
                return result
            case Knows(_, g) | Possible(_, g) | Everyone(_, g) | Common(_, g) | \
                    Distributed(_, g):
                # the S5 checker reads the inner formula's values as an atom's
                probe = KripkeModel({_INNER: self._value(g)},
                                    {a: self.keys(i) for i, a in enumerate(self.agents)},
                                    n_worlds=self.n_worlds)
                return probe.evaluate(replace(f, formula=_INNER))
        raise TypeError(f"not a formula: {f!r}")

    def ranged(self, formula: Formula, world: int) -> IntArray | None:
        """The worlds a plausibility operator quantifies over at a world (what Why? shows):
        the most plausible of the agent's class (``B_a``, ``⟨B_a⟩``), of its ψ-worlds
        (``B_a[ψ]``, ``⟨B_a[ψ]⟩``), or those at least as plausible as the world (``Sb_a``,
        ``⟨Sb_a⟩``); None for any other formula."""
        if not isinstance(formula, PLAUSIBILITY):
            return None
        assert isinstance(formula, Knows | Possible)
        worlds = self.possible_worlds(formula.agent, world)
        ranks = self.ranks(formula.agent)
        if isinstance(formula, SafeBelief | SafePossible):
            found: IntArray = worlds[ranks[worlds] <= ranks[world]]
            return found
        if isinstance(formula, ConditionalBelief | ConditionalPossible):
            worlds = worlds[self.evaluate(formula.condition)[worlds]]
        if not worlds.size:
            return worlds
        best: IntArray = worlds[ranks[worlds] == ranks[worlds].min()]
        return best

    def _conditional(self, agent: Agent, condition: BoolArray, body: BoolArray) -> BoolArray:
        """B_a[ψ] φ at every world: φ in the most plausible ψ-worlds of a's class."""
        i = self.agent_index(agent)
        keys, ranks = self.keys(i), self._ranks[i]
        best = condition & (ranks == least(keys, self.n_keys(i), ranks, condition)[keys])
        failing = np.zeros(max(self.n_keys(i), 1), dtype=bool)
        failing[keys[best & ~body]] = True
        believed: BoolArray = ~failing[keys]
        return believed

    def _safe(self, agent: Agent, body: BoolArray) -> BoolArray:
        """Sb_a φ at every world: φ in every world of a's class at least as plausible."""
        i = self.agent_index(agent)
        keys, ranks = self.keys(i), self._ranks[i]
        safe: BoolArray = ranks < least(keys, self.n_keys(i), ranks, ~body)[keys]
        return safe

    def minimised(self) -> BeliefModel:
        """The model up to bisimulation when it has no order (then it is an S5 model); an
        order is refused, since the contraction reads classes and arrows only and would drop
        it (``B_you ~bird`` went from true to false on the red bird)."""
        if not self.is_flat():
            raise ModelError("this model orders its worlds by plausibility, which minimising "
                             "would drop (it reads classes only); check it without --minimise")
        return super().minimised()

    # --- change -----------------------------------------------------------------------------

    def _columns(self) -> list[IntArray]:
        """The ranks travel with the other per-world arrays through a restriction."""
        return [*super()._columns(), *self._ranks]

    def _with(self, picked: list[IntArray], ids: WorldIds, actual: int | None) -> Any:
        k = len(self._ranks)
        new = super()._with(picked[:len(picked) - k], ids, actual)
        new._ranks = tuple(picked[len(picked) - k:])
        return new

    def upgrade(self, kind: str, formula: Formula | str) -> PlausibilityModel:
        """The radical (``kind`` "radical", ⇑φ) or conservative ("conservative", ↑φ) upgrade
        with φ, or the rank shift ("shift", :func:`rank_shift`), for every agent within each
        of its classes. Any φ is allowed, true or false at the actual world: soft information
        can mislead."""
        holds = self.evaluate(formula)
        ranks = {}
        for i, agent in enumerate(self.agents):
            keys, old = self.keys(i), self._ranks[i]
            if kind == "radical":
                ranks[agent] = radical(keys, old, holds)
            elif kind == "conservative":
                ranks[agent] = conservative(keys, self.n_keys(i), old, holds)
            elif kind == "shift":
                ranks[agent] = rank_shift(old, holds)
            else:
                raise ModelError(f"no upgrade called {kind!r}; the upgrades are "
                                 f"{', '.join(UPGRADES)}")
        return PlausibilityModel.of(self, ranks)

    def update(self, events: EventModel) -> PlausibilityModel:
        """An upgrade (:class:`Upgrade`) or the priority update with an event model (Baltag
        and Smets): the product of :meth:`KripkeModel.update` (its worlds, classes and ids),
        each agent's pairs (w, e) ordered by e's rank first (:class:`RankedEvents`; an event
        model without an order has its events equally plausible), then by w's. An event with
        arrows (somebody believes wrongly, without classes) is refused: order the events
        instead."""
        if isinstance(events, Upgrade):
            return self.upgrade(events.kind, events.formula)
        if not events.is_s5:
            raise ModelError("a plausibility model takes events with classes, not arrows: "
                             "give the agent classes of the events and order them "
                             "('a ranks: e1 < e2')")
        plain = EventModel(events.events, events.partitions, events.actual)
        possible = self._possible(plain)
        worlds, chosen = np.nonzero(possible)  # the product's pairs, in its order
        product = KripkeModel.update(self, plain)
        assert isinstance(product, KripkeModel)  # classes, no arrows: S5 again
        split = bool(np.any(np.count_nonzero(possible, axis=1) > 1))
        names, taken = [], set()
        for w, e in zip(worlds.tolist(), chosen.tolist(), strict=True):
            name = f"{self.world_label(w)}·{events.names[e]}" if split else self.world_label(w)
            while name in taken:
                name += "'"
            taken.add(name)
            names.append(name)
        ranks = {}
        for i, agent in enumerate(self.agents):
            order = np.asarray(event_ranks(events, agent), dtype=np.int64)
            ranks[agent] = dense(product.observation(agent), order[chosen],
                                 self._ranks[i][worlds])
        return PlausibilityModel.of(product, ranks, names)

    def __repr__(self) -> str:
        return (f"PlausibilityModel({self.n_worlds:,} worlds, agents={list(self.agents)}, "
                f"actual={self.actual})")


def ordered(f: Formula) -> bool:
    """Whether a plausibility operator occurs in the formula (else the S5 checker answers)."""
    stack = [f]
    while stack:
        node = stack.pop()
        if isinstance(node, PLAUSIBILITY):
            return True
        stack.extend(node.children())
    return False


def plausibility_of(model: object) -> PlausibilityModel:
    """The model as a plausibility model: itself, or an S5 model with every world of a class
    equally plausible; a model of another kind (arrows, a diagram) refused in one line."""
    if isinstance(model, PlausibilityModel):
        return model
    if isinstance(model, KripkeModel):
        return PlausibilityModel.of(model)
    raise ModelError("upgrades and ordered events order each agent's classes, and this model "
                     "has none (it gives arrows); write it with classes and an order "
                     "('a: {w1 w2}', 'a ranks: w1 < w2')")


@dataclass(frozen=True)
class RankedEvents(EventModel):
    """An event model with a plausibility order on its events per agent (Baltag and Smets'
    plausibility event model): per agent a rank per event, in the order of ``events`` (lower
    more plausible; an agent not given finds every event equally plausible). Its update is
    the priority update (:meth:`PlausibilityModel.update`)."""

    ranks: tuple[tuple[Agent, tuple[int, ...]], ...] = ()

    def __post_init__(self) -> None:
        EventModel.__post_init__(self)
        seen: set[str] = set()
        for agent, ranks in self.ranks:
            if str(agent) in seen:
                raise ModelError(f"agent {agent!r} orders the events twice; keep one order")
            seen.add(str(agent))
            if len(ranks) != len(self.events) or any(r < 0 for r in ranks):
                raise ModelError(f"agent {agent!r}: give a rank of 0 or more for each of the "
                                 f"{len(self.events)} events")

    def applied(self, model: object) -> PlausibilityModel:
        return plausibility_of(model).update(self)

    @property
    def reorders(self) -> bool:
        return True

    def check_agents(self, agents: Sequence[Agent]) -> None:
        EventModel.check_agents(self, agents)
        known = {str(a) for a in agents}
        for agent, _ in self.ranks:
            if str(agent) not in known:
                raise ModelError(f"the events are ordered for {agent!r}, who is not an agent "
                                 f"of the model ({', '.join(map(str, agents))})")

    def __str__(self) -> str:
        lines = [EventModel.__str__(self)]
        for agent, ranks in self.ranks:
            lines.append(f"{agent} ranks: {chain(self.names, ranks)}\n")
        return "".join(lines)


def event_ranks(events: EventModel, agent: Agent) -> tuple[int, ...]:
    """The agent's rank per event (all 0 for an event model without an order)."""
    if isinstance(events, RankedEvents):
        for named, ranks in events.ranks:
            if str(named) == str(agent):
                return ranks
    return (0,) * len(events.events)


def chain(names: Sequence[str], ranks: Sequence[int]) -> str:
    """Names ordered by rank, as the text writes an order: ``w1 < w2 = w3``."""
    order = sorted(range(len(names)), key=lambda k: ranks[k])
    text = names[order[0]] if order else ""
    for before, k in zip(order, order[1:], strict=False):
        text += f" {'=' if ranks[k] == ranks[before] else '<'} {names[k]}"
    return text


@dataclass(frozen=True)
class Upgrade(EventModel):
    """A radical or conservative upgrade as an event (one event, ``pre ⊤``, seen alike by
    all), so that ``update`` and every caller of it (the CLI's ``--event radical:p``, the
    page's Event menu) apply it; it changes the order, not the worlds."""

    kind: str = "radical"
    formula: Formula = Top()

    def applied(self, model: object) -> PlausibilityModel:
        return plausibility_of(model).upgrade(self.kind, self.formula)

    @property
    def soft(self) -> bool:
        return True

    @property
    def reorders(self) -> bool:
        return True

    def seen_by(self, agent: Agent) -> str:
        return UPGRADES[self.kind].format(self.formula.unicode())

    def __str__(self) -> str:
        """The upgrade in words (no event model's text: it reads back as none)."""
        return (f"upgrade {UPGRADES[self.kind].format(self.formula.unicode())}: every agent's "
                "order changes within each class; every world stays")


def upgrade(kind: str, formula: Formula) -> Upgrade:
    """The radical ("radical", ⇑φ) or conservative ("conservative", ↑φ) upgrade with φ, or
    the rank shift ("shift"), as an event any S5 model's ``update`` takes."""
    if kind not in UPGRADES:
        raise ModelError(f"no upgrade called {kind!r}; the upgrades are {', '.join(UPGRADES)}")
    return Upgrade((Event(kind, Top()),), (), kind, kind=kind, formula=formula)
