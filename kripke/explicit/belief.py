"""Models with any accessibility relation: belief, false belief and factual change.

An S5 model (:class:`kripke.explicit.model.KripkeModel`) stores each agent's partition as one key
per
world, which is why it is fast and also why it cannot say "Sally believes the marble is in the
basket, and it is not". A :class:`BeliefModel` stores per agent a *directed* relation: from
world w the agent considers possible the worlds its arrows from w reach. ``K_a φ`` is read on
it as everywhere, "φ holds in every world a considers possible", which on such a relation is
belief (``B_a`` is the same operator); ``C_G`` follows G's arrows one step or more.

**Representation.** Per agent its relation by classes (:class:`kripke.explicit.access.Access`):
a label per world and a CSR matrix of arrows between labels, or none for a partition (an S5
agent keeps its classes, never the square of each class as arrows). A relation given arrow by
arrow labels each world by itself; an update labels each pair (w, e) by (w's label, e), so a
private announcement to a keeps b's relation as b's classes times the event's arrows. Every
operator is a pass over the worlds and the stored arrows, or one breadth-first search
(:mod:`kripke.explicit.belief_check`); :meth:`BeliefModel.relation` lists the arrows between
worlds for whoever asks (a drawing, a file), at their cost.
The valuation is a bool array per atom, as in the S5 model.

**How a picture reads it** (the page draws it from these, nothing else): the worlds are
``range(n_worlds)``, each with a name (:meth:`world_name`) and a stable id (:attr:`world_ids`);
the atoms true in a world are :meth:`true_atoms`; each agent's arrows are :meth:`arrows`
(pairs of world indices, loops included: a loop means the world is possible from itself); the
actual world is :attr:`actual`; the frame class is :meth:`frame_class` (the model's, or one
agent's: "S5", "KD45", "S4", "KD" or "K") and :meth:`properties` says which of reflexive,
serial, transitive, symmetric and euclidean an agent's relation is. A world with no arrow for
an agent (the relation is then not serial) believes everything: :meth:`dead_ends` lists them.

It answers the same questions as the S5 model (:class:`kripke.interface.EpistemicModel`:
``holds``, ``count``, ``announce``, ``update``, ``knows``, ...), so a caller never asks which
it holds; an S5 model becomes one when an event with arrows (somebody believes wrongly) meets
it (:meth:`kripke.explicit.model.KripkeModel.update`).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any, ClassVar

import numpy as np
from scipy import sparse

from kripke.budget import AgentWork, check_budget
from kripke.errors import ModelError, ModelTooLargeError, UpdateError
from kripke.events.model import EventModel
from kripke.explicit.access import Access, product, product_arrows
from kripke.explicit.arrays import BoolArray, IntArray, distinct
from kripke.explicit.belief_check import Relation, evaluate
from kripke.explicit.bisim import blocks, contracted
from kripke.explicit.listed import PerWorld
from kripke.interface import AgentIndex
from kripke.kernel import Capabilities, Values, as_formula
from kripke.language.formula import Agent, Atom, Formula

#: Maps keyed by atoms or their text (a Mapping's key type is invariant, hence the three).
type ByAtom[V] = Mapping[Atom, V] | Mapping[str, V] | Mapping[Atom | str, V]
type ByAgent[V] = Mapping[int, V] | Mapping[str, V] | Mapping[Agent, V]

#: The frame classes, strongest first, with the properties each asks of every relation.
FRAME_CLASSES: tuple[tuple[str, frozenset[str]], ...] = (
    ("S5", frozenset({"reflexive", "transitive", "symmetric"})),
    ("KD45", frozenset({"serial", "transitive", "euclidean"})),
    ("S4", frozenset({"reflexive", "transitive"})),
    ("KD", frozenset({"serial"})),
    ("K", frozenset()),
)


def relation_matrix(pairs: Iterable[tuple[int, int]] | IntArray, n: int) -> Relation:
    """The CSR matrix of arrows (w, v) among ``n`` worlds (pairs, or a k × 2 array), each
    arrow once however often it is given."""
    array = np.asarray(pairs if isinstance(pairs, np.ndarray) else list(pairs),
                       dtype=np.int64).reshape(-1, 2)
    codes = distinct(array[:, 0] * n + array[:, 1])  # sorted: row by row, columns in order
    rows, cols = np.divmod(codes, n)
    index = np.int32 if max(n, codes.size) < 2**31 else np.int64
    return sparse.csr_array((np.ones(codes.size, dtype=np.int8), cols.astype(index),
                             np.searchsorted(rows, np.arange(n + 1)).astype(index)),
                            shape=(n, n))


def properties(relation: Relation) -> frozenset[str]:
    """Which of reflexive, serial, transitive, symmetric and euclidean the relation is."""
    return Access.of_matrix(relation).properties()


#: The most pairs of arrows a frame-class check may compare (about two seconds): past it the
#: check is refused in one line, before any work (a dense relation of 2,000 worlds is 8·10⁹).
MAX_FRAME_WORK = 200_000_000

#: The most (world, class reached) pairs a round of :meth:`BeliefModel.minimised` may walk
#: (a few seconds a round; a partition's worlds count once each, whatever its classes).
MAX_MINIMISE_WORK = 200_000_000

#: The most arrows between worlds :meth:`BeliefModel.arrows` lists (a drawing, a file).
MAX_LISTED_ARROWS = 5_000_000


def frame_class_of(found: Iterable[frozenset[str]]) -> str:
    """The strongest class all these relations (by their properties) are in."""
    found = list(found)
    return next(name for name, needs in FRAME_CLASSES if all(needs <= f for f in found))


class BeliefModel(PerWorld):
    """Worlds, a valuation, per agent a directed relation (CSR matrix) and an actual world.
    Immutable: announcements and updates return new models. See the module docstring for
    how a picture reads it."""

    #: Relations need not be partitions (no summary by classes); it minimises (see the
    #: kernel).
    capabilities: ClassVar[Capabilities] = Capabilities(minimised=True)

    def __init__(self, valuation: ByAtom[Any], relations: ByAgent[Relation | Access],
                 actual: int | None, *, n_worlds: int | None = None,
                 names: Sequence[str] | None = None,
                 world_ids: Sequence[int] | IntArray | None = None) -> None:
        given: list[tuple[Agent, Relation | Access]] = list(relations.items())
        if n_worlds is None:
            first = given[0][1] if given else None
            n_worlds = first.n_worlds if isinstance(first, Access) else \
                first.shape[0] if first is not None else len(next(iter(valuation.values())))
        self._n = int(n_worlds)
        self._agents: tuple[Agent, ...] = tuple(a for a, _ in given)
        self._agent_index = AgentIndex(self._agents)
        for agent, r in given:
            shape = (r.n_worlds,) * 2 if isinstance(r, Access) else r.shape
            if shape != (self._n, self._n):
                raise ModelError(f"agent {agent}'s relation is {shape}, not {self._n} square")
        self._access: tuple[Access, ...] = tuple(
            r if isinstance(r, Access) else Access.of_matrix(sparse.csr_array(r))
            for _, r in given)
        self._properties: dict[tuple[int, bool], frozenset[str]] = {}  # kept: immutable
        self._work: dict[Agent, AgentWork] = {}
        self._valuation: dict[Atom, BoolArray] = {}
        for atom, values in valuation.items():
            array = np.asarray(values, dtype=bool)
            if array.shape != (self._n,):
                raise ModelError(f"atom {atom} has {array.size} values for {self._n} worlds")
            array.flags.writeable = False
            self._valuation[atom if isinstance(atom, Atom) else Atom(atom)] = array
        self._ids = np.arange(self._n, dtype=np.int64) if world_ids is None else \
            np.asarray(world_ids, dtype=np.int64)
        self._names: tuple[str, ...] = tuple(names) if names is not None else \
            tuple(f"w{i}" for i in self._ids.tolist())
        if len(self._names) != self._n or self._ids.shape != (self._n,):
            raise ModelError(f"{len(self._names)} names and {self._ids.size} ids for "
                             f"{self._n} worlds")
        if actual is not None and not 0 <= actual < self._n:
            raise ModelError(f"actual world {actual} is out of range 0..{self._n - 1}")
        self.actual: int | None = actual

    @classmethod
    def of(cls, worlds: Sequence[Iterable[Atom | str]],
           arrows: Mapping[Agent, Iterable[tuple[int, int]]], actual: int | None = 0, *,
           atoms: Iterable[Atom | str] = (), names: Sequence[str] | None = None,
           ) -> BeliefModel:
        """A small model from lists: per world the atoms true there, per agent its arrows
        (pairs of world indices). ``of([{"basket"}, set()], {"sally": [(0, 0), (1, 0)]}, 1)``:
        the marble is not in the basket (world 1), and Sally believes it is."""
        true = [{a if isinstance(a, Atom) else Atom(a) for a in w} for w in worlds]
        vocabulary = sorted(set().union(*true, {a if isinstance(a, Atom) else Atom(a)
                                                for a in atoms}), key=str)
        n = len(true)
        return cls({a: [a in t for t in true] for a in vocabulary},
                   {agent: relation_matrix(pairs, n) for agent, pairs in arrows.items()},
                   actual, n_worlds=n, names=names)

    @classmethod
    def from_partitions(cls, valuation: ByAtom[BoolArray],
                        keys: Mapping[Agent, IntArray], actual: int | None,
                        names: Sequence[str], world_ids: IntArray) -> BeliefModel:
        """An S5 model's worlds as a belief model: each partition kept as its classes (an
        equivalence relation that no question lists as arrows)."""
        return cls(valuation, {a: Access.partition(k) for a, k in keys.items()}, actual,
                   n_worlds=len(names), names=names, world_ids=world_ids)

    # --- structure -------------------------------------------------------------------------

    @property
    def atoms(self) -> tuple[Atom, ...]:
        return tuple(self._valuation)

    @property
    def world_ids(self) -> IntArray:
        """Each world's id: its index in the model as first built, kept across updates."""
        return self._ids

    @property
    def names(self) -> tuple[str, ...]:
        return self._names

    def access_of(self, agent_index: int) -> Access:
        """The relation by classes (what the checker reads)."""
        return self._access[agent_index]

    def access(self, agent: Agent) -> Access:
        """The agent's relation by classes: labels per world, arrows between labels."""
        return self._access[self.agent_index(agent)]

    def work(self) -> dict[Agent, AgentWork]:
        """Per agent, what its relation costs a question (:mod:`kripke.budget`): the arrows it
        stores, and those between worlds it stands for."""
        if not self._work:
            self._work.update({agent: AgentWork(a.label_arrows, a.world_arrows)
                               for agent, a in zip(self._agents, self._access, strict=True)})
        return self._work

    def relation_of(self, agent_index: int) -> Relation:
        """The agent's arrows between worlds as a CSR matrix, listed (see :meth:`relation`)."""
        return self._access[agent_index].matrix()

    def relation(self, agent: Agent) -> Relation:
        """The agent's relation as a CSR matrix (row w: the worlds w points to). Listed from
        the classes, so it costs every arrow between worlds: the checker never asks for it."""
        return self.relation_of(self.agent_index(agent))

    def arrows(self, agent: Agent) -> list[tuple[int, int]]:
        """The agent's arrows as pairs of world indices (what a picture draws); refused
        (:class:`ModelTooLargeError`) past :data:`MAX_LISTED_ARROWS`, before any is listed."""
        access = self.access(agent)
        if (listed := access.world_arrows) > MAX_LISTED_ARROWS:
            raise ModelTooLargeError(listed, MAX_LISTED_ARROWS, task="to list as arrows",
                                     advice=f"agent {agent}'s relation has that many arrows "
                                     "between worlds; restrict the model")
        coo = access.matrix().tocoo()
        return sorted(zip(coo.row.tolist(), coo.col.tolist(), strict=True))

    def possible_worlds(self, agent: Agent, world: int | None = None) -> IntArray:
        """The worlds the agent considers possible at a world (default: the actual one): its
        arrows from there, as :meth:`kripke.explicit.model.KripkeModel.possible_worlds` gives a
        class."""
        return self.access(agent).successors(self._world(world))

    def image(self, agent: Agent, worlds: IntArray) -> BoolArray:
        """Per world: whether the agent's arrow from one of ``worlds`` reaches it (one step
        of a chain, :mod:`kripke.explain`)."""
        return self.access(agent).image(worlds)

    def pointing(self, agent: Agent, worlds: IntArray, target: int) -> IntArray:
        """Those of ``worlds`` from which the agent considers ``target`` possible (a chain
        read backwards, :mod:`kripke.explain`)."""
        return self.access(agent).pointing(worlds, target)

    def world_id(self, world: int) -> int:
        """The id of one world (see :attr:`world_ids`)."""
        return int(self._ids[self._world(world)])

    def world_index(self, world_id: int) -> int | None:
        """The index of the world with this id, or None if it is gone."""
        found = np.flatnonzero(self._ids == int(world_id))
        return int(found[0]) if found.size else None

    def at(self, world: int) -> BeliefModel:
        """The same worlds with another actual world (by index)."""
        return BeliefModel(self._valuation, dict(zip(self._agents, self._access,
                                                     strict=True)),
                           self._world(world), n_worlds=self._n, names=self._names,
                           world_ids=self._ids)

    def atom_values(self, atom: Atom | str) -> BoolArray:
        atom = atom if isinstance(atom, Atom) else Atom(atom)
        if (values := self._valuation.get(atom)) is None:
            examples = ", ".join(str(a) for a in self.atoms[:5])
            raise ModelError(f"unknown atom {atom}; the model has atoms such as {examples}")
        return values

    def true_atoms(self, world: int) -> tuple[Atom, ...]:
        return tuple(a for a, v in self._valuation.items() if v[world])

    def world_name(self, world: int | None = None) -> str:
        return self._names[self._world(world)]

    def world_label(self, world: int | None = None) -> str:
        return self.world_name(world)

    # --- frame properties -------------------------------------------------------------------

    def properties(self, agent: Agent) -> frozenset[str]:
        """Which of reflexive, serial, transitive, symmetric, euclidean the agent's relation is:
        all five for a partition, by construction; else asked of the arrows between labels
        (:meth:`kripke.explicit.access.Access.properties`: one pass, unless transitivity and
        euclideanness must be told apart, which compares pairs of arrows: refused,
        :class:`ModelError` in one line, past :data:`MAX_FRAME_WORK` of them, before any)."""
        return self._properties_of(agent, frame_only=False)

    def _properties_of(self, agent: Agent, frame_only: bool) -> frozenset[str]:
        index = self.agent_index(agent)
        key = (index, frame_only)
        if key not in self._properties:
            def check(work: int) -> None:
                if work > MAX_FRAME_WORK:
                    raise ModelError(f"the frame class of agent {agent} is too much work: "
                                     f"{work:,} pairs of arrows to compare, more than "
                                     f"{MAX_FRAME_WORK:,}; restrict the model first")
            self._properties[key] = self._access[index].properties(check, frame_only)
        return self._properties[key]

    def frame_class(self, agent: Agent | None = None) -> str:
        """The strongest of S5, KD45, S4, KD and K the agent's relation (or every agent's) is
        in: S5 is knowledge, KD45 consistent introspective belief, K anything at all. One pass
        over the stored arrows for all but a reflexive relation that is not S5 (is it S4?)."""
        agents = self._agents if agent is None else (agent,)
        return frame_class_of(self._properties_of(a, frame_only=True) for a in agents)

    def dead_ends(self, agent: Agent) -> IntArray:
        """The worlds where the agent has no arrow (it believes everything there, even ⊥):
        where the relation fails to be serial."""
        return self.access(agent).dead_ends()

    # --- checking ---------------------------------------------------------------------------

    def evaluate(self, formula: Formula | str) -> BoolArray:
        """The formula's value at every world (the one place a value per world is made)."""
        formula = as_formula(formula)
        check_budget(formula, self._n, len(self._agents), work=self.work())
        return evaluate(self, formula)

    def restrict(self, values: Values) -> BeliefModel:
        """The model on the worlds where ``values`` (a bool per world, from :meth:`values`)
        is true, or on these worlds (indices, increasing: :meth:`considered`), with only the
        arrows between them: an announcement already evaluated."""
        if isinstance(values, np.ndarray) and values.dtype.kind in "iu":
            keep = values.astype(np.int64, copy=False)
        else:
            keep = np.flatnonzero(self.per_world(values))
        actual = None
        found = np.searchsorted(keep, self.actual) if self.actual is not None else keep.size
        if found < keep.size and keep[found] == self.actual:
            actual = int(found)
        return BeliefModel({a: v[keep] for a, v in self._valuation.items()},
                           {a: r.restrict(keep) for a, r in zip(self._agents, self._access,
                                                                strict=True)},
                           actual, n_worlds=keep.size,
                           names=[self._names[i] for i in keep.tolist()],
                           world_ids=self._ids[keep])

    def update(self, events: EventModel) -> BeliefModel:
        """Product update (Baltag–Moss–Solecki, with factual change): the worlds are the pairs
        (w, e) with pre(e) true at w, world by world; (w, e) → (v, f) for agent a when w → v
        and e → f for a; an atom assigned by e takes the value its formula had at w, any other
        keeps w's. Each pair keeps w's name and id when no world splits, else it is named
        ``w·e`` and numbered ``id(w) · |E| + e``, as the S5 update does."""
        events.check_agents(self._agents)
        m = len(events.events)
        possible = np.stack([self.evaluate(e.precondition) for e in events.events], axis=1)
        actual_event = events.names.index(events.actual)
        if self.actual is not None and not possible[self.actual, actual_event]:
            raise UpdateError(events.actual, events.actual_event.precondition)
        worlds, chosen = np.nonzero(possible)
        valuation = {atom: values[worlds].copy() for atom, values in self._valuation.items()}
        for k, event in enumerate(events.events):
            at = chosen == k
            for atom, value in event.post:
                if atom not in valuation:
                    raise ModelError(f"event {event.name} assigns {atom}, which the model "
                                     f"does not have; its atoms are "
                                     f"{', '.join(str(a) for a in self.atoms)}")
                valuation[atom][at] = self.evaluate(value)[worlds[at]]
        relations = {agent: product(r, worlds, chosen, m, *_event_view(events, agent))
                     for agent, r in zip(self._agents, self._access, strict=True)}
        splits = bool(np.any(np.count_nonzero(possible, axis=1) > 1))
        ids = self._ids[worlds] * m + chosen if splits else self._ids[worlds]
        event_names = events.names
        names = [f"{self._names[w]}·{event_names[e]}" if splits else self._names[w]
                 for w, e in zip(worlds.tolist(), chosen.tolist(), strict=True)]
        actual = None
        if self.actual is not None:
            actual = int(np.flatnonzero((worlds == self.actual) & (chosen == actual_event))[0])
        return BeliefModel(valuation, relations, actual, n_worlds=int(worlds.size),
                           names=names, world_ids=ids)

    def update_arrows(self, events: EventModel) -> int:
        """How many arrows (between classes of worlds, as stored) :meth:`update` would make,
        counted before anything is built (:func:`kripke.explicit.access.product_arrows`): with
        the worlds, the real cost of an update, which a caller bounds
        (:func:`kripke.events.model.check_product_size`)."""
        events.check_agents(self._agents)
        possible = np.stack([self.evaluate(e.precondition) for e in events.events], axis=1)
        return sum(product_arrows(r, possible, *_event_view(events, agent))
                   for agent, r in zip(self._agents, self._access, strict=True))

    def splits(self, events: EventModel) -> bool:
        """Whether some world splits in :meth:`update` (more than one event can happen at
        it): then the worlds get new ids, as in the S5 update."""
        possible = np.stack([self.evaluate(e.precondition) for e in events.events], axis=1)
        return bool(np.any(np.count_nonzero(possible, axis=1) > 1))

    def origin(self, events: EventModel, world_id: int) -> tuple[int, str]:
        """The (world id here, event name) a world of ``self.update(events)`` stands for, by
        its id (what a picture drawing the product in layers asks)."""
        if self.splits(events):  # id(w) · |E| + e
            old, event = divmod(int(world_id), len(events.events))
            return old, events.names[event]
        index = self.world_index(world_id)
        if index is None:
            raise ModelError(f"no world of the update has the id {world_id}")
        happens = [e.name for e in events.events if self.evaluate(e.precondition)[index]]
        if not happens:
            raise ModelError(f"no world of the update has the id {world_id}")
        return int(world_id), happens[0]

    def minimised(self) -> BeliefModel:
        """The model up to bisimulation (:mod:`kripke.explicit.bisim`): one world per class of
        bisimilar worlds, the first of them (its name and id), with an arrow between two
        classes when a world of the first points to one of the second. Every formula has the
        same value at a world and at its class; no two worlds of the result are bisimilar."""
        work = self._n + sum(r.reach_work for r in self._access)
        if work > MAX_MINIMISE_WORK:
            raise ModelError(f"minimising this model is too much work: {work:,} pairs of a "
                             f"world and a class its arrows reach, more than "
                             f"{MAX_MINIMISE_WORK:,} a round; restrict the model first")
        block, count = blocks(list(self._valuation.values()), self._access, self._n)
        first = np.full(count, self._n, dtype=np.int64)
        np.minimum.at(first, block, np.arange(self._n))
        relations = {agent: contracted(r, block, count, first)
                     for agent, r in zip(self._agents, self._access, strict=True)}
        return BeliefModel({a: v[first] for a, v in self._valuation.items()}, relations,
                           None if self.actual is None else int(block[self.actual]),
                           n_worlds=count, names=[self._names[i] for i in first.tolist()],
                           world_ids=self._ids[first])

    def __repr__(self) -> str:
        return (f"BeliefModel({self._n:,} worlds, agents={list(self._agents)}, "
                f"actual={self.actual})")


def _event_view(events: EventModel, agent: Agent) -> tuple[IntArray | None, Relation | None]:
    """How the agent sees the events: its classes' numbers per event when it has a
    partition, or arrows that are one (reflexive, and each arrow joins two events with the
    same arrows: an equivalence, whose classes are those rows), else its arrows between
    events (an m × m matrix). Arrows that are a partition keep a partition of worlds one:
    a hundred events b cannot tell apart written as arrows made 10⁸ arrows on 40,000 worlds."""
    if events.is_partitioned(agent):
        return np.asarray(events.keys(agent), dtype=np.int64), None
    index = {name: k for k, name in enumerate(events.names)}
    m = len(events.events)
    matrix = relation_matrix([(index[e], index[f]) for e, f in events.relation(agent)], m)
    if m <= EQUIVALENCE_EVENTS and m and bool(np.all(matrix.diagonal() > 0)):
        rows = matrix.toarray() > 0
        _, keys = np.unique(rows, axis=0, return_inverse=True)
        keys = keys.reshape(-1).astype(np.int64)
        coo = matrix.tocoo()
        if bool(np.all(keys[coo.row] == keys[coo.col])):
            return keys, None
    return None, matrix


#: Up to this many events, an agent's arrows are checked for being a partition (an m × m
#: table of booleans: 16 MB at the bound).
EQUIVALENCE_EVENTS = 4096
