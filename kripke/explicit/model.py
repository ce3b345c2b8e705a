"""Multi-agent S5 Kripke models stored as arrays, so that tens of millions of worlds fit.

A world is an index 0..n-1. Each agent has an *observation key* per world (an int array): the
agent cannot tell two worlds apart exactly when their keys are equal, which makes its relation an
equivalence (S5) without ever listing pairs of worlds. Atoms are either

* plain atoms: a bool array over the worlds, or
* observed atoms: a function of one agent's key, given as a bool table indexed by that key. A
  card deal stores every ``p(i,c)`` this way (agent i sees its own hand), which costs no memory
  per world and is what lets the 63-million-world deal exist at all.

Models are immutable: an announcement returns a new, restricted model. ``world_ids`` keeps each
world's index in the model it was first built as, so a drawing can pin worlds across updates
(kept by :class:`kripke.explicit.world_ids.WorldIds`).
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, ClassVar, Self

import numpy as np

from kripke.budget import check_budget
from kripke.errors import ModelError, UpdateError
from kripke.explicit.arrays import (
    BoolArray,
    IntArray,
    WorldMask,
    bincount,
    compress,
    count,
    gather,
    positions,
)
from kripke.explicit.belief import BeliefModel
from kripke.explicit.check import evaluate
from kripke.explicit.listed import PerWorld
from kripke.explicit.world_ids import WorldIds
from kripke.interface import AgentIndex
from kripke.kernel import Capabilities, Values, as_formula
from kripke.language.formula import Agent, Atom, Formula

if TYPE_CHECKING:
    from kripke.events.model import EventModel

type Mask = np.ndarray | Sequence[bool] | Sequence[int]
#: Maps keyed by atoms, by their text or by both; by agent names, numbers or both. (A Mapping's
#: key type is invariant, so a dict keyed by Atom alone is not a Mapping[Atom | str, ...].)
type ByAtom[V] = Mapping[Atom, V] | Mapping[str, V] | Mapping[Atom | str, V]
type ByAgent[V] = Mapping[int, V] | Mapping[str, V] | Mapping[Agent, V]


def _as_atom(atom: Atom | str) -> Atom:
    return atom if isinstance(atom, Atom) else Atom(atom)


def _as_keys(values: Any, n_worlds: int | None, agent: Agent) -> tuple[IntArray, bool]:
    """Observation keys as non-negative ints small enough to index a table of classes.

    Ints in a compact range are used as they are (an int array is not even copied: the deal
    builds its keys so); anything else -- tuples of what the agent sees, strings, sparse or
    negative ints -- is renumbered, which the second value reports.
    """
    array = values if isinstance(values, np.ndarray) else None
    if array is None and isinstance(values, Sequence) and not isinstance(values, str):
        array = np.asarray(values) if values else np.zeros(0, dtype=np.int64)
    if array is not None and array.ndim == 1 and array.dtype.kind in "iu":
        keys, renumbered = array.view(), False
        if keys.size and (keys.min() < 0 or keys.max() >= max(4 * keys.size, 1 << 16)):
            keys, renumbered = np.unique(keys, return_inverse=True)[1].astype(np.int64), True
    else:
        numbering: dict[Hashable, int] = {}
        keys = np.fromiter(
            (numbering.setdefault(tuple(v) if isinstance(v, list) else v, len(numbering))
             for v in values),
            dtype=np.int64,
        )
        renumbered = True
    if n_worlds is not None and keys.size != n_worlds:
        raise ModelError(
            f"agent {agent!r} has {keys.size} observation keys for {n_worlds} worlds"
        )
    keys.flags.writeable = False
    return keys, renumbered


class KripkeModel(PerWorld):
    """A multi-agent S5 model: worlds, valuations, one partition per agent, an actual world.

    ``valuation`` maps atoms (``Atom`` or text such as ``"p(0,3)"``) to a bool per world, or to
    a function from an array of world ids (``world_ids``) to their bools, called only when the
    atom is evaluated, so a rule such as "bit i of the world id" costs no memory.
    ``observations`` maps each agent (name or int) to what it sees in each world: an int array,
    or any hashable per world. ``observed_atoms`` maps an atom to ``(agent, table)``: the atom's
    value at a world is ``table[the agent's key there]``. ``actual`` is a world index or None.
    ``world_ids`` names the worlds (increasing ints; by default each world's index, see
    :attr:`world_ids`), or says how the model knows them (a :class:`WorldIds`).
    """

    #: Drawn as a summary of classes when too big to draw world by world; minimised as a
    #: belief model (see the kernel).
    capabilities: ClassVar[Capabilities] = Capabilities(summarised=True, minimised=True)

    def __init__(
        self,
        valuation: ByAtom[Any] | None = None,
        observations: ByAgent[Any] | None = None,
        actual: int | None = None,
        *,
        observed_atoms: ByAtom[tuple[Agent, Any]] | None = None,
        n_worlds: int | None = None,
        world_ids: Sequence[int] | IntArray | WorldIds | None = None,
    ) -> None:
        atom_values: list[tuple[Atom | str, Any]] = [*(valuation or {}).items()]
        seen: list[tuple[Agent, Any]] = [*(observations or {}).items()]
        tables: list[tuple[Atom | str, tuple[Agent, Any]]] = [*(observed_atoms or {}).items()]
        if n_worlds is None:
            values = [v for _, v in atom_values + seen]
            known = [len(v) for v in values if hasattr(v, "__len__")]
            if not known:
                raise ModelError("cannot tell the number of worlds: pass n_worlds")
            n_worlds = known[0]
        self._n = int(n_worlds)
        self._agents: tuple[Agent, ...] = tuple(a for a, _ in seen)
        self._agent_index = AgentIndex(self._agents)
        keys = [_as_keys(v, self._n, a) for a, v in seen]
        self._keys: tuple[IntArray, ...] = tuple(k for k, _ in keys)
        self._n_keys: tuple[int, ...] = tuple(
            int(k.max()) + 1 if k.size else 0 for k in self._keys
        )
        self._valuation: dict[Atom, BoolArray] = {}
        self._lazy: dict[Atom, Callable[[IntArray], Any]] = {}
        for atom, values in atom_values:
            if callable(values):
                self._lazy[_as_atom(atom)] = values
                continue
            array = np.asarray(values, dtype=bool).view()  # read-only view, not the caller's
            if array.shape != (self._n,):
                raise ModelError(f"atom {atom} has {array.size} values for {self._n} worlds")
            array.flags.writeable = False
            self._valuation[_as_atom(atom)] = array
        self._observed: dict[Atom, tuple[int, BoolArray]] = {}
        for atom, (agent, table) in tables:
            index = self.agent_index(agent)
            if keys[index][1]:
                raise ModelError(
                    f"atom {atom}: a table needs agent {agent!r}'s keys as small non-negative "
                    "ints to index it by"
                )
            table = np.asarray(table, dtype=bool).view()
            if table.size < self._n_keys[index]:
                raise ModelError(
                    f"atom {atom}: table has {table.size} entries but agent {agent!r} "
                    f"has keys up to {self._n_keys[index] - 1}"
                )
            table.flags.writeable = False
            self._observed[_as_atom(atom)] = (index, table)
        self._ids = (WorldIds() if world_ids is None else world_ids
                     if isinstance(world_ids, WorldIds) else WorldIds.given(world_ids, self._n))
        self._forget_counts()
        self.actual: int | None = None if actual is None else self._world(actual)

    @classmethod
    def from_worlds(
        cls,
        worlds: Sequence[Iterable[Atom | str]],
        observations: ByAgent[Any],
        actual: int | None = None,
        *,
        atoms: Iterable[Atom | str] = (),
        world_ids: Sequence[int] | IntArray | None = None,
    ) -> KripkeModel:
        """Build a small model by listing, per world, the atoms true there.

        Handy for textbook examples: ``from_worlds([{"p"}, set()], {"a": [0, 0]}, actual=0)``.
        ``atoms`` names atoms that are false everywhere yet should be known to the model;
        ``world_ids`` names the worlds (a model read back keeps the ids it was saved with).
        """
        true_sets = [{_as_atom(a) for a in world} for world in worlds]
        all_atoms = sorted(set().union(*true_sets, {_as_atom(a) for a in atoms}), key=str)
        valuation = {a: [a in s for s in true_sets] for a in all_atoms}
        return cls(valuation, observations, actual, n_worlds=len(true_sets),
                   world_ids=world_ids)

    # --- structure -------------------------------------------------------------------------

    @property
    def atoms(self) -> tuple[Atom, ...]:
        """Every atom the model can evaluate, plain ones first."""
        return (*self._valuation, *self._lazy, *self._observed)

    def observation(self, agent: Agent) -> IntArray:
        """The agent's observation key per world (equal keys: worlds it cannot tell apart)."""
        return self._keys[self.agent_index(agent)]

    def keys(self, agent_index: int) -> IntArray:
        """The observation keys of the agent at ``agent_index`` (see :meth:`agent_index`): the
        checker works on positions, found once per formula, not on names."""
        return self._keys[agent_index]

    @property
    def world_ids(self) -> IntArray:
        """Each world's id (increasing): its index in the model it was first built as, or the
        id it was built with, so a drawing can pin worlds across updates. Made when asked if
        the model stores none (see :class:`~kripke.explicit.world_ids.WorldIds`)."""
        ids = self._ids.all(self._n, self._ids_of)
        self._ids = self._ids.known(ids)
        return ids

    def world_id(self, world: int) -> int:
        """The id of one world (see :attr:`world_ids`), without making the ids of all."""
        return self._ids.one(self._world(world), self._ids_of)

    def _ids_of(self, worlds: IntArray) -> IntArray:
        """The ids of these worlds (indices), worked out from the worlds themselves when they
        say their ids (:meth:`WorldIds.from_worlds`): a plain model's worlds say none beyond
        their index; a deal's say its index among all deals."""
        return worlds

    def world_index(self, world_id: int) -> int | None:
        """Current index of the world with id ``world_id``, or None if it is gone."""
        return self._ids.index(world_id, self._n, self._ids_of)

    def atom_values(self, atom: Atom | str, worlds: IntArray | None = None) -> BoolArray:
        """The atom's truth value at every world (or at the given world indices)."""
        atom = _as_atom(atom)
        if (array := self._valuation.get(atom)) is not None:
            return array if worlds is None else array[worlds]
        if (rule := self._lazy.get(atom)) is not None:
            ids = self.world_ids if worlds is None else self.world_ids[worlds]
            values = np.asarray(rule(ids), dtype=bool)
            if values.shape != ids.shape:
                raise ModelError(f"atom {atom}: its function gave {values.size} values "
                                 f"for {ids.size} worlds")
            return values
        if (observed := self._observed.get(atom)) is not None:
            agent, table = observed
            keys = self._keys[agent]
            return gather(table, keys if worlds is None else keys[worlds])
        examples = ", ".join(str(a) for a in self.atoms[:5])
        raise ModelError(f"unknown atom {atom}; the model has atoms such as {examples}")

    def observed_atom(self, atom: Atom) -> tuple[int, BoolArray] | None:
        """(agent index, table over its keys) if the atom is one an agent observes, else None."""
        return self._observed.get(atom)

    def n_keys(self, agent_index: int) -> int:
        """An upper bound on the agent's keys, the size of a table indexed by them."""
        return self._n_keys[agent_index]

    # --- model checking -------------------------------------------------------------------

    def evaluate(self, formula: Formula | str) -> BoolArray:
        """The formula's truth value at every world, as a bool array."""
        formula = as_formula(formula)
        check_budget(formula, self._n, len(self._agents))
        result = evaluate(self, formula)
        return result if result.flags.writeable else result.copy()

    # --- updates ---------------------------------------------------------------------------

    def restrict(self, mask: Mask | Values) -> Self:
        """The sub-model on the chosen worlds (a bool mask, such as :meth:`values` gives, or
        sorted indices).

        The actual world becomes None if it is not kept; ``announce`` refuses that case.
        """
        if not isinstance(mask, np.ndarray | Sequence):
            raise ModelError("a diagram is no choice of worlds of a list of worlds")
        mask = np.asarray(mask)
        if mask.dtype == bool:
            if mask.shape != (self._n,):
                raise ModelError(f"mask has shape {mask.shape}, expected ({self._n},)")
            return self._restricted(mask)
        # A few indices (a drawing's worlds) cost O(their number), not O(worlds).
        pick = mask.astype(np.int64, copy=False)
        if pick.size and (np.any(np.diff(pick) <= 0) or pick[0] < 0 or pick[-1] >= self._n):
            raise ModelError("world indices must be increasing and in range")
        position = None
        if self.actual is not None:
            found = int(np.searchsorted(pick, self.actual))
            if found < pick.size and pick[found] == self.actual:
                position = found
        return self._with([a[pick] for a in self._columns()], self._ids.picked(pick, self._n),
                          position)

    def _restricted(self, mask: WorldMask) -> Self:
        """The sub-model on the worlds a mask over all of them keeps, in one walk over it."""
        kept = count(mask)
        if kept == self._n:  # nothing removed: the read-only arrays are shared, not copied
            return copy.copy(self)
        # One walk over the mask for every array (see ``compress``), no index array of the
        # whole model materialised; the ids come from the same walk (``WorldIds.along``).
        columns = self._columns()
        along, indices = self._ids.along(self._n)
        picked, position = compress([*columns, *along], mask, kept, positions=indices,
                                    mark=self.actual)
        ids = self._ids.walked(picked[len(columns):])
        return self._with(picked[:len(columns)], ids, position)

    def _columns(self) -> list[IntArray]:
        """The per-world arrays besides the ids, in the order ``_with`` takes them back."""
        return [*self._keys, *self._valuation.values()]

    def _with(self, picked: list[IntArray], ids: WorldIds, actual: int | None) -> Self:
        """A copy holding ``picked`` (the columns in ``_columns`` order) and ``ids``."""
        new = copy.copy(self)
        n_keys = len(self._keys)
        new._keys = tuple(picked[:n_keys])
        new._valuation = dict(zip(self._valuation, picked[n_keys:], strict=True))
        new._ids = ids
        new._forget_counts()
        for array in picked:
            array.flags.writeable = False  # shared with callers; models are immutable
        new._n = int(picked[0].size if picked else
                     (0 if ids.stored is None else ids.stored.size))
        new.actual = actual
        return new

    def at(self, world: int) -> Self:
        """The same worlds with another actual world (by index): what changes when something
        happens that nobody is told of, such as a messenger getting through."""
        new = copy.copy(self)
        new.actual = self._world(world)
        return new

    def to_belief(self) -> BeliefModel:
        """The same worlds as a :class:`~kripke.explicit.belief.BeliefModel`: each partition as its
        equivalence relation (frame class S5), the names this model shows, the same ids."""
        return BeliefModel.from_partitions(
            {atom: self.atom_values(atom) for atom in self.atoms},
            {agent: self._keys[i] for i, agent in enumerate(self._agents)}, self.actual,
            self._labels(), self.world_ids.astype(np.int64))

    def _labels(self) -> list[str]:
        """Every world's :meth:`world_label` at once: a model that labels by the atoms true
        makes each label once per pattern of atoms (100,000 worlds one by one took 5 s of a
        contraction that then took 0.2 s); one that names its worlds is asked world by world."""
        if type(self).world_label is not KripkeModel.world_label:
            return [self.world_label(i) for i in range(self._n)]
        atoms = list(self.atoms)
        if not atoms or not self._n:
            return [self.world_label(i) for i in range(self._n)]
        table = np.stack([self.atom_values(a) for a in atoms], axis=1)
        patterns, which = np.unique(table, axis=0, return_inverse=True)
        words = [" ".join(str(a) for a, v in zip(atoms, row.tolist(), strict=True) if v)
                 or "(no atom true)" for row in patterns]
        return [words[i] for i in which.reshape(-1).tolist()]

    def update_arrows(self, events: EventModel) -> int:
        """How many arrows :meth:`update` would store: none for an S5 event (partitions stay
        partitions), else the belief model's count (:meth:`BeliefModel.update_arrows`)."""
        return 0 if events.is_s5 else self.to_belief().update_arrows(events)

    def minimised(self) -> BeliefModel:
        """The model up to bisimulation (:meth:`kripke.explicit.belief.BeliefModel.minimised`); its
        relations are still equivalences, so its frame class is S5."""
        return self.to_belief().minimised()

    def update(self, events: EventModel) -> KripkeModel | BeliefModel:
        """Product update with an event model (:mod:`kripke.events.model`). An event with arrows (an
        agent who believes something else happened) makes a :class:`BeliefModel`
        (:meth:`to_belief`, then its update); any other stays here and S5, assignments or not.

        The worlds are the pairs
        (w, e) of a world and an event whose precondition holds at w, world by world and each
        world's events in the event model's order; an atom keeps its value from w; two pairs
        look the same to an agent when it could tell neither the worlds nor the events apart.
        Every agent's relation stays a partition, so the result is S5 again.

        Ids: when no world splits (at most one event can happen at each world: a card shown
        from a hand of one, a letter read), each world keeps its id, as after an announcement,
        so a drawing keeps it where it was; when some world splits, the pair (w, e) gets the id
        ``id(w) · len(events) + index of e``. Either way ids increase with the index, and
        :meth:`origin` reads the pair back. A plain model comes back even from a
        deal (the deal's rule for ids no longer holds).
        Raises :class:`UpdateError` (an :class:`AnnouncementError`) if the actual event's
        precondition is false at the actual world.
        """
        if (changed := events.applied(self)) is not None:  # an upgrade, ordered events
            assert isinstance(changed, KripkeModel)
            return changed
        if not events.is_s5:
            return self.to_belief().update(events)
        events.check_agents(self._agents)
        m = len(events.events)
        possible = self._possible(events)
        actual_event = events.names.index(events.actual)
        if self.actual is not None and not possible[self.actual, actual_event]:
            raise UpdateError(events.actual, events.actual_event.precondition)
        worlds, chosen = np.nonzero(possible)  # row-major: world by world
        ids = self.world_ids[worlds].astype(np.int64)
        splits = _splits(possible)
        if splits and ids.size and int(ids[-1]) >= (1 << 62) // m:
            raise ModelError("too many updates for 64-bit world ids: build the model afresh")
        assigned = self._assigned(events, worlds, chosen)
        valuation = {atom: self.atom_values(atom, worlds) for atom in (*self._valuation,
                                                                       *self._lazy)}
        valuation.update(assigned)
        observations: dict[Agent, IntArray] = {}
        observed: dict[Atom, tuple[Agent, BoolArray]] = {}
        for i, agent in enumerate(self._agents):
            classes = np.asarray(events.keys(agent), dtype=np.int64)
            width = int(classes.max()) + 1
            joint = self._keys[i][worlds].astype(np.int64) * width + classes[chosen]
            present, keys = np.unique(joint, return_inverse=True)
            observations[agent] = keys.reshape(-1)
            for atom, (index, table) in self._observed.items():
                if index == i and atom not in assigned:  # still a table over the classes
                    observed[atom] = (agent, table[present // width])
        actual = None
        if self.actual is not None:
            actual = int(np.flatnonzero((worlds == self.actual) & (chosen == actual_event))[0])
        return KripkeModel(valuation, observations, actual, observed_atoms=observed,
                           n_worlds=int(worlds.size),
                           world_ids=ids * m + chosen if splits else ids)

    def _assigned(self, events: EventModel, worlds: IntArray, chosen: IntArray
                  ) -> dict[Atom, BoolArray]:
        """The atoms some event assigns, per pair (w, e): the value of e's formula at w, or
        w's own value where e leaves the atom alone (factual change)."""
        changes: dict[Atom, BoolArray] = {}
        known = set(self.atoms)
        for k, event in enumerate(events.events):
            for atom, value in event.post:
                if atom not in known:
                    raise ModelError(f"event {event.name} assigns {atom}, which the model "
                                     f"does not have; its atoms are "
                                     f"{', '.join(str(a) for a in self.atoms)}")
                values = changes.setdefault(atom, self.atom_values(atom, worlds).copy())
                at = chosen == k
                values[at] = self.evaluate(value)[worlds[at]]
        return changes

    def origin(self, events: EventModel, world_id: int) -> tuple[int, str]:
        """The (world id here, event name) that a world of ``self.update(events)``, given by
        its id, stands for (see :meth:`update` for the ids)."""
        possible = self._possible(events)
        if _splits(possible):  # worlds split: id(w) · |E| + e
            old, event = divmod(int(world_id), len(events.events))
            return old, events.names[event]
        index = self.world_index(world_id)
        if index is None or not possible[index].any():
            raise ModelError(f"no world of the update has the id {world_id}")
        return int(world_id), events.names[int(np.flatnonzero(possible[index])[0])]

    def splits(self, events: EventModel) -> bool:
        """Whether some world splits in :meth:`update` (more than one event can happen at
        it): then the worlds get new ids (and a named model new names)."""
        return _splits(self._possible(events))

    def _possible(self, events: EventModel) -> BoolArray:
        """Per world (row) and event (column): whether the event's precondition holds there."""
        return np.stack([self.evaluate(e.precondition) for e in events.events], axis=1)

    # --- questions a user asks --------------------------------------------------------------

    def possible_worlds(self, agent: Agent, world: int | None = None) -> IntArray:
        """Indices of the worlds the agent considers possible at a world (its class)."""
        keys = self._keys[self.agent_index(agent)]
        return positions(keys, int(keys[self._world(world)]))

    # --- what a picture of the relations reads (as on a BeliefModel) -----------------------

    def arrows(self, agent: Agent) -> list[tuple[int, int]]:
        """The agent's relation as pairs of world indices, loops included: every pair of worlds
        in one of its classes. A belief model answers the same, so a picture draws either."""
        keys = self._keys[self.agent_index(agent)]
        order = np.argsort(keys, kind="stable")
        _, starts, sizes = np.unique(keys[order], return_index=True, return_counts=True)
        return sorted((int(w), int(v)) for s, k in zip(starts.tolist(), sizes.tolist(),
                                                       strict=True)
                      for w in order[s:s + k].tolist() for v in order[s:s + k].tolist())

    def properties(self, agent: Agent) -> frozenset[str]:
        """A partition is reflexive, serial, transitive, symmetric and euclidean."""
        self.agent_index(agent)  # an unknown agent is refused, as a belief model refuses it
        return frozenset({"reflexive", "serial", "transitive", "symmetric", "euclidean"})

    def image(self, agent: Agent, worlds: IntArray) -> BoolArray:
        """Per world: whether it is in the agent's class of one of ``worlds`` (one step of a
        chain, :mod:`kripke.explain`)."""
        keys = self._keys[self.agent_index(agent)]
        found: BoolArray = np.isin(keys, keys[worlds])
        return found

    def pointing(self, agent: Agent, worlds: IntArray, target: int) -> IntArray:
        """Those of ``worlds`` in the agent's class of ``target`` (a chain read backwards,
        :mod:`kripke.explain`; a partition is symmetric)."""
        keys = self._keys[self.agent_index(agent)]
        found: IntArray = worlds[keys[worlds] == keys[target]]
        return found

    def frame_class(self, agent: Agent | None = None) -> str:
        """"S5": every agent's relation (or ``agent``'s) is a partition, knowledge (see
        :meth:`kripke.explicit.belief.BeliefModel.frame_class` for the others)."""
        if agent is not None:
            self.agent_index(agent)  # an unknown agent is refused
        return "S5"

    def dead_ends(self, agent: Agent) -> IntArray:
        """None: a partition leaves no world without a world the agent considers possible
        (the world itself), unlike a belief model's relation
        (:meth:`kripke.explicit.belief.BeliefModel.dead_ends`)."""
        self.agent_index(agent)
        return np.zeros(0, dtype=np.int64)

    # --- by class, for a picture of a model too big to draw (kripke.parts.ClassCounts) ------

    def class_key(self, agent: Agent, world: int | None = None) -> int:
        """The agent's observation key at a world (default: the actual one): its class."""
        return int(self._keys[self.agent_index(agent)][self._world(world)])

    def class_sizes(self, agent: Agent, where: BoolArray | None = None,
                    fixed: Mapping[Agent, int] | None = None) -> IntArray:
        """Worlds in each of the agent's classes, indexed by its observation key (0 for a key
        no world has); with ``where``, only the worlds where that mask is true are counted;
        with ``fixed``, only those of the part where each of its agents has the class its key
        names.

        A question about the whole partition rather than about worlds, so that a drawing of
        a model too big to list (a summary by classes) asks only this. Kept without ``where``:
        a pass over every world at 63 million, and a picture asks again on every render.
        """
        index = self.agent_index(agent)
        keys, n_keys = self._keys[index], self._n_keys[index]
        part = self._agent_index.keyed(fixed or {})
        cell = self._cell(part)
        if where is not None:
            if cell is None:
                return bincount(keys, n_keys, where)
            return np.bincount(keys[cell][where[cell]], minlength=n_keys)
        found = self._sizes.get((index, part))
        if found is None:
            found = (bincount(keys, n_keys) if cell is None else
                     np.bincount(keys[cell], minlength=n_keys))
            found.flags.writeable = False
            self._sizes[index, part] = found
        return found

    def part_size(self, fixed: Mapping[Agent, int]) -> int:
        """How many worlds the part where each agent of ``fixed`` has that class holds."""
        cell = self._cell(self._agent_index.keyed(fixed))
        return self._n if cell is None else int(cell.size)

    def as_list(self) -> Self:
        """The model itself: it is a list of worlds."""
        return self

    def drawn(self, limit: int) -> Self | None:
        """The model itself, to draw world by world, if it has at most ``limit`` worlds."""
        return self if self._n <= limit else None

    def listed(self, fixed: Mapping[Agent, int]) -> Self:
        """The worlds of the part where each agent of ``fixed`` has that class, as a model
        (their ids those of the whole): what a picture draws world by world."""
        cell = self._cell(self._agent_index.keyed(fixed))
        return self if cell is None else self.restrict(cell)

    def listed_values(self, where: BoolArray, fixed: Mapping[Agent, int]) -> BoolArray:
        """``where`` (a value per world) at each world of :meth:`listed` ``(fixed)``."""
        cell = self._cell(self._agent_index.keyed(fixed))
        return where if cell is None else where[cell]

    def dealt_classes(self, agent: Agent, fixed: Mapping[Agent, int]) -> dict[int, int] | None:
        """None: a model that is no deal has only the classes present (see
        :meth:`kripke.explicit.deal.DealModel.dealt_classes`)."""
        return None

    def _cell(self, part: tuple[tuple[int, int], ...]) -> IntArray | None:
        """The indices of the worlds where each agent of ``part`` (position, key) has that
        class, None for every world; kept, each part narrowed from the one before it."""
        if not part:
            return None
        found = self._cells.get(part)
        if found is None:
            above = self._cell(part[:-1])
            index, key = part[-1]
            keys = self._keys[index]
            found = positions(keys, key) if above is None else above[keys[above] == key]
            self._cells[part] = found
        return found

    def _forget_counts(self) -> None:
        """New worlds, new counts. (A copy with the same worlds shares what was counted.)"""
        self._cells: dict[tuple[tuple[int, int], ...], IntArray] = {}
        self._sizes: dict[tuple[int, tuple[tuple[int, int], ...]], IntArray] = {}

    def world_name(self, world: int | None = None) -> str:
        """A world's name (default: the actual one): ``w`` and its id, as :func:`dump_model`
        writes a model without names; a named model and a belief model answer their own."""
        return f"w{self.world_id(self._world(world))}"

    def world_label(self, world: int | None = None) -> str:
        """A readable name for a world (default: the actual one): here the atoms true in it."""
        world = self._world(world)
        index = np.array([world])
        true = [str(a) for a in self.atoms if self.atom_values(a, index)[0]]
        return " ".join(true) if true else "(no atom true)"

    def __repr__(self) -> str:
        return (
            f"{type(self).__name__}({self._n:,} worlds, agents={list(self._agents)}, "
            f"actual={self.actual})"
        )


def _splits(possible: BoolArray) -> bool:
    """Whether a world of ``possible`` (worlds by events) allows more than one event."""
    return bool(np.any(np.count_nonzero(possible, axis=1) > 1))
