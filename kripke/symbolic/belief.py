"""Symbolic belief: belief structures on BDDs, for belief and factual change at sizes no list of
worlds holds (SMCDEL's ``SMCDEL.Symbolic.K``; van Benthem, van Eijck, Gattinger and Su 2017).

A knowledge structure (:mod:`kripke.symbolic.structure`) gives each agent the atoms it
observes, so its relation is always a partition. A *belief structure* gives each agent any
relation, as a BDD Ω_a over two copies of the vocabulary: Ω_a(s, t) says that at state s the
agent considers t possible (when t satisfies the law too). So

* a vocabulary V (with auxiliary atoms that number events or keep an atom's value before a
  change), declared three times side by side (:class:`kripke.symbolic.bdd.Vocabulary` with
  ``copies=3``: V, V′ for relations, V″ for the frame properties),
* a law θ over V (the possible states, each a world),
* per agent Ω_a over V and V′,
* an actual state.

The checker is :mod:`kripke.symbolic.belief_check`; an event is a transformer
(:mod:`kripke.symbolic.transformer`) whose update adds event variables and copies of the
atoms it changes, never a listed state. :func:`from_explicit` makes one from an S5 or a belief
model, :func:`from_knowledge` from a knowledge structure (each Ω_a says "the same observed
atoms"), so a 5 × 4 deal of 305,540,235,000 states takes a secret look and a private
announcement. The model answers :class:`kripke.interface.EpistemicModel`; what needs a list
of worlds (a drawing, why a formula holds) lists its states as a
:class:`kripke.explicit.belief.BeliefModel` first (:meth:`SymbolicBeliefModel.as_list`),
refusing past a limit.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Iterable, Mapping
from typing import Any, ClassVar, Self

from kripke.errors import ModelError, ModelTooLargeError, UpdateError
from kripke.events.model import EventModel
from kripke.explain import Explanation, explain
from kripke.explicit.belief import BeliefModel, frame_class_of, relation_matrix
from kripke.explicit.model import KripkeModel
from kripke.interface import AgentIndex
from kripke.kernel import Capabilities, Listing, Values
from kripke.language.formula import (
    Agent,
    And,
    Atom,
    Formula,
    Implies,
    Knows,
    Not,
    Or,
    Possible,
)
from kripke.language.parser import parse
from kripke.parts import Drawn, Leveled
from kripke.symbolic.bdd import Function, Vocabulary
from kripke.symbolic.belief_check import BeliefChecker, Copies, properties
from kripke.symbolic.structure import (
    EXPLAINED_LIMIT,
    LawStates,
    SymbolicModel,
    bits_for,
    fresh_name,
    numbered,
)
from kripke.symbolic.transformer import Transformer, boolean, of_event_model, primed
from kripke.symbolic.translate import translate


class SymbolicBeliefModel(LawStates):
    """A belief structure: vocabulary (three copies), law, a relation per agent, an actual
    state (a full assignment of the vocabulary). Immutable: announcements and updates return
    new models. ``auxiliary`` atoms are in the vocabulary but not in the language."""

    #: Not summarised by classes (a relation need not be a partition), nor minimised.
    capabilities: ClassVar[Capabilities] = Capabilities()

    def __init__(self, vocabulary: Vocabulary, law: Function,
                 relations: Mapping[Agent, Function], actual: Mapping[Atom, bool] | None, *,
                 auxiliary: Iterable[Atom] = ()) -> None:
        self.copies = Copies(vocabulary)
        self.vocabulary = vocabulary
        self.law = law
        self._agents: tuple[Agent, ...] = tuple(relations)
        self._agent_index = AgentIndex(self._agents)
        self._relations: tuple[Function, ...] = tuple(relations.values())
        self._auxiliary = frozenset(auxiliary)
        self._cache: dict[Formula, Function] = {}
        self._access: dict[tuple[str, tuple[Agent, ...]], Function] = {}
        self._n_worlds: int | None = None
        self._properties: dict[int, frozenset[str]] = {}
        self._successors: dict[int, Function] = {}
        self._named: dict[str, bool] | None = None
        self.actual: dict[Atom, bool] | None = None
        if actual is not None:
            self.actual = {a: bool(actual[a]) for a in vocabulary.atoms}
            if not vocabulary.value(law, self.actual):
                raise ModelError("the actual state does not satisfy the law")

    # --- structure -------------------------------------------------------------------------

    def agent_index(self, agent: Agent) -> int:
        return self._agent_index(agent)

    def single(self, agent: Agent) -> tuple[Agent, ...]:
        """One agent as a group (checked to exist), as the checker keys its relations."""
        return (self._agents[self._agent_index(agent)],)

    def group(self, group: Iterable[Agent] | None) -> tuple[Agent, ...]:
        """A group's agents (None: every agent), each checked to exist."""
        return tuple(self._agents[i] for i in self._agent_index.indices(group))

    def relation(self, agent: Agent) -> Function:
        """The agent's relation Ω_a over V and V′."""
        return self._relations[self._agent_index(agent)]

    def _actual(self) -> dict[Atom, bool]:
        if self.actual is None:
            raise ModelError("the model has no actual state")
        return self.actual

    # --- model checking -------------------------------------------------------------------

    def values(self, formula: Formula | str) -> Function:
        """The diagram of the states where φ holds (meaningful on the states of the law). A
        new checker each time (it refers to the model, which must not refer back: CUDD's
        manager has to outlive every diagram, which a collected cycle does not promise),
        sharing the per-law relational products the model keeps."""
        return self.worked_out(formula, lambda: BeliefChecker(self, self.law, self._access))

    def actual_value(self, values: Values) -> bool:
        return self.vocabulary.value_named(self._diagram(values), self._named_actual())

    def holds(self, formula: Formula | str) -> bool:
        """φ at the actual state. Connectives and K_a, M_a at the top are read at the state
        itself (K_a φ: no state the agent considers possible there fails φ), so only what
        they govern is worked out over all states: a question about the actual state of a
        big structure (everybody knows every secret) costs a cofactor per agent, not a
        relational product over the whole law per operator."""
        formula = parse(formula) if isinstance(formula, str) else formula
        match formula:
            case Not(g):
                return not self.holds(g)
            case And(parts):
                return all(self.holds(part) for part in parts)
            case Or(parts):
                return any(self.holds(part) for part in parts)
            case Implies(left, right):
                return not self.holds(left) or self.holds(right)
            case Knows(agent, g):
                return (self.successors(agent) & ~self.values(g)) == self.vocabulary.false
            case Possible(agent, g):
                return (self.successors(agent) & self.values(g)) != self.vocabulary.false
        return self.actual_value(self.values(formula))

    # --- what an agent believes at the actual state -----------------------------------------

    def successors(self, agent: Agent) -> Function:
        """The states (of the law) the agent considers possible at the actual state, as a
        diagram over V."""
        i = self._agent_index(agent)
        if (known := self._successors.get(i)) is None:
            here = self.vocabulary.manager.let(self._named_actual(), self._relations[i])
            known = self._successors[i] = self.law & self.copies.unprimed(here)
        return known

    def _named_actual(self) -> dict[str, bool]:
        """The actual state by variable names, made once (a story asks many questions)."""
        if self._named is None:
            self._named = self.vocabulary.named(self._actual())
        return self._named

    # --- frames -----------------------------------------------------------------------------

    def properties(self, agent: Agent) -> frozenset[str]:
        """Which of reflexive, serial, transitive, symmetric, euclidean the agent's relation is
        on the possible states."""
        i = self._agent_index(agent)
        if i not in self._properties:
            self._properties[i] = properties(self.copies, self.law, self._relations[i])
        return self._properties[i]

    def frame_class(self, agent: Agent | None = None) -> str:
        """The strongest of S5, KD45, S4, KD and K the agent's relation (or every agent's) is
        in, as :meth:`kripke.explicit.belief.BeliefModel.frame_class` names them."""
        agents = self._agents if agent is None else (agent,)
        return frame_class_of(self.properties(a) for a in agents)

    def dead_ends(self, agent: Agent) -> Function:
        """The states where the agent has no arrow (it believes everything there, ⊥ too)."""
        return self.law & ~self.copies.image(self.relation(agent), self.law)

    def dead_end_count(self, agent: Agent) -> int:
        return self.vocabulary.count(self.dead_ends(agent))

    # --- updates ---------------------------------------------------------------------------

    def restrict(self, values: Values) -> Self:
        """The model whose law is θ ∧ values (the actual state is not checked)."""
        new = copy.copy(self)
        new.law = self.law & self._diagram(values)
        new._cache, new._access, new._n_worlds, new._properties = {}, {}, None, {}
        new._successors = {}
        return new

    def considered(self, agent: Agent) -> Self:
        """The structure kept to the states the agent considers possible at the actual one."""
        return self.restrict(self.successors(agent))

    def listing(self, limit: int) -> Listing:
        """The states written out as the worlds of :meth:`as_list`; past ``limit``,
        :class:`ModelTooLargeError`."""
        return self.as_list(limit).listing(limit)

    def update(self, events: EventModel | Transformer) -> SymbolicBeliefModel:
        """Product update with an event model or a transformer (SMCDEL's transformation of a
        belief structure): new variables V⁺ say which event happened, every atom an event
        assigns keeps its value before in a new copy q°, and

        * the law becomes θ° ∧ pre° ∧ ⋀_q (q ↔ post_q°), ° reading the changed atoms before,
        * each relation Ω_a° ∧ Ω⁺_a: (s, e) → (t, f) when s → t and e → f.

        New variables come above the old ones, each copy q° just above its q. Raises
        :class:`UpdateError` if the actual event cannot happen at the actual state."""
        names = {a.name for a in self.vocabulary.atoms}
        if isinstance(events, EventModel):
            if events.reorders:  # B_a here reads arrows, never an order an upgrade would change
                raise ModelError("this event changes a plausibility order (an upgrade), which a "
                                 "belief structure has none of; revise beliefs on the listed "
                                 "model (without --symbolic)")
            events.check_agents(self._agents)
            for event in events.events:
                for atom, _ in event.post:
                    if atom not in self.vocabulary or atom in self._auxiliary:
                        raise ModelError(f"event {event.name} assigns {atom}, which the model "
                                         f"does not have; its atoms are "
                                         f"{', '.join(str(a) for a in self.atoms)}")
            name = fresh_name("event", names | {n + "'" for n in names})
            transformer = of_event_model(events, [Atom(name, (b,)) for b in
                                                  range(bits_for(len(events.events)))])
            refused = (events.actual, events.actual_event.precondition)
        else:
            transformer = events
            clash = [a for a in transformer.added if a in self.vocabulary or
                     a.name in names or primed(a).name in names]
            if clash:
                raise ModelError(f"the event variable {clash[0]} is an atom of the model; "
                                 "name the event variables apart")
            for agent, _ in transformer.relations:
                self._agent_index(agent)
            refused = ("the actual event", transformer.precondition)
        return _transform(self, transformer, refused)

    # --- lists -------------------------------------------------------------------------------

    def class_name(self, agent: Agent, key: int) -> tuple[str, ...] | None:
        """None: a belief structure has no words for what an agent considers possible."""
        return None

    def world_label(self, state: Mapping[Atom, bool] | None = None) -> str:
        """A state by the atoms true in it (auxiliary ones left out)."""
        return self.label(self._actual() if state is None else state)

    def as_list(self, max_worlds: int = EXPLAINED_LIMIT) -> BeliefModel:
        """Every possible state as a world of a belief model (auxiliary atoms left out), its
        arrows read off each agent's relation; refused past ``max_worlds`` states."""
        states = self.states(max_worlds)
        atoms = self.vocabulary.atoms
        index = {tuple(s[a] for a in atoms): i for i, s in enumerate(states)}
        names = self.vocabulary.names
        arrows: dict[Agent, list[tuple[int, int]]] = {}
        for agent, relation in zip(self._agents, self._relations, strict=True):
            pairs = arrows[agent] = []
            for i, state in enumerate(states):
                here = self.vocabulary.manager.let({names[a]: v for a, v in state.items()},
                                                   relation)
                reached = self.law & self.copies.unprimed(here)
                pairs += [(i, index[tuple(t[a] for a in atoms)])
                          for t in self.vocabulary.assignments(reached)]
        labels = [self.world_label(s) for s in states]
        repeated = {label for label in labels if labels.count(label) > 1}
        seen: dict[str, int] = {}
        for i, label in enumerate(labels):
            if label in repeated:
                seen[label] = seen.get(label, 0) + 1
                labels[i] = f"{label} ({seen[label]})"
        actual = None if self.actual is None else \
            index[tuple(self.actual[a] for a in atoms)]
        return BeliefModel({a: [s[a] for s in states] for a in self.atoms},
                           {agent: relation_matrix(pairs, len(states))
                            for agent, pairs in arrows.items()},
                           actual, n_worlds=len(states), names=labels)

    def explain(self, formula: Formula, values: Values | None = None, *,
                name: Callable[[Any, int], str] | None = None,
                agent_name: Callable[[Agent], str] | None = None,
                show: Callable[[Formula], str] = str) -> Explanation:
        """Why ``formula`` has its value at the actual state, explained in the states listed
        (:meth:`as_list`, refused past :data:`EXPLAINED_LIMIT`); ``values`` is not read."""
        return explain(self.as_list(), formula, name=name, agent_name=agent_name, show=show)

    def __repr__(self) -> str:
        return (f"{type(self).__name__}({self.n_worlds:,} states, {len(self.vocabulary)} "
                f"atoms, agents={list(self._agents)})")


def _transform(model: SymbolicBeliefModel, transformer: Transformer,
               refused: tuple[str, Formula]) -> SymbolicBeliefModel:
    """The update of :meth:`SymbolicBeliefModel.update` (see there); ``refused`` names the
    actual event and its precondition for the error when it cannot happen."""
    old = model.vocabulary
    added = list(transformer.added)
    n = len(old.atoms)
    # 1. the old structure with the event variables: where pre and post are read
    fresh = [f"v{n + i}" for i in range(len(added))]
    wide = Vocabulary([*added, *old.atoms], [*fresh, *old.names.values()], copies=3)
    before = SymbolicBeliefModel(
        wide, wide.transfer(model.law, old),
        {a: wide.transfer(r, old) for a, r in zip(model.agents, model._relations, strict=True)},
        None, auxiliary=[*model._auxiliary, *added])
    pre = before.values(transformer.precondition)
    post = [(atom, before.values(value)) for atom, value in transformer.post]
    event = dict(transformer.actual)
    if model.actual is not None:
        at = {**model.actual, **event}
        if not wide.value(pre, at):
            raise UpdateError(*refused)
    # 2. the new vocabulary: each changed atom's old variable becomes its copy q° (so diagrams
    #    move by name and read the old value there), and q gets a new variable
    changed = {atom for atom, _ in post}
    taken = {a.name for a in wide.atoms}
    was = fresh_name("was", taken | {n + "'" for n in taken})
    copies = {atom: Atom(was, (k,)) for k, atom in enumerate(sorted(changed, key=str))}
    order: list[Atom] = list(added)
    var_names: list[str] = list(fresh)
    renamed = n + len(added)
    for atom in old.atoms:
        if atom in changed:
            order += [copies[atom], atom]
            var_names += [old.names[atom], f"v{renamed}"]
            renamed += 1
        else:
            order.append(atom)
            var_names.append(old.names[atom])
    new = Vocabulary(order, var_names, copies=3)

    def move(u: Function) -> Function:
        """A diagram of the wide vocabulary in the new one, by variable name: a changed
        atom's old variable is its copy there."""
        return wide.manager.copy(u, new.manager)

    law = move(before.law) & move(pre)
    for atom, value in post:
        law = law & new.var(atom).equiv(move(value))
    relations = {}
    for agent, relation in zip(model.agents, model._relations, strict=True):
        extra = boolean(transformer.relation(agent), lambda a: _event_var(new, a),
                        new.true, new.false)
        relations[agent] = move(wide.transfer(relation, old)) & extra
    actual = None
    if model.actual is not None:
        at = {**model.actual, **event}
        actual = {**at, **{copies[a]: model.actual[a] for a in changed},
                  **{a: wide.value(value, at) for a, value in post}}
    return SymbolicBeliefModel(new, law, relations, actual,
                               auxiliary=[*model._auxiliary, *added, *copies.values()])


def _event_var(vocabulary: Vocabulary, atom: Atom) -> Function:
    """An event variable, or its primed copy (:func:`kripke.symbolic.transformer.primed`)."""
    if atom in vocabulary:
        return vocabulary.var(atom)
    if atom.name.endswith("'"):
        plain = Atom(atom.name[:-1], atom.args)
        if plain in vocabulary:
            return vocabulary.manager.var(vocabulary.name(plain) + "'")
    raise ModelError(f"an event relation speaks of {atom}, which is no event variable")


def from_knowledge(model: SymbolicModel) -> SymbolicBeliefModel:
    """A knowledge structure as a belief structure: Ω_a says "the same atoms a observes"
    (one equivalence per observed atom), so every answer is the same."""
    old = model.vocabulary
    vocabulary = Vocabulary(old.atoms, list(old.names.values()), copies=3)
    manager = vocabulary.manager
    relations = {}
    for agent in model.agents:
        same = vocabulary.true
        for atom in model.observed(agent):
            name = vocabulary.name(atom)
            same = same & manager.var(name).equiv(manager.var(name + "'"))
        relations[agent] = same
    return SymbolicBeliefModel(vocabulary, vocabulary.transfer(model.law, old), relations,
                               model.actual, auxiliary=model.auxiliary)


def observing(atoms: Iterable[Atom], observations: Mapping[Agent, Iterable[Atom]],
              actual: Iterable[Atom]) -> SymbolicBeliefModel:
    """A belief structure of every assignment of ``atoms`` (the law ⊤), each agent knowing
    exactly the atoms it observes (as a knowledge structure, :func:`from_knowledge`), the
    actual state the one where ``actual`` are true: where a story of transformers starts
    (gossip: each agent knows its own secret)."""
    vocabulary = Vocabulary(list(atoms))
    return from_knowledge(SymbolicModel(vocabulary, vocabulary.true, dict(observations),
                                        list(actual)))


def from_explicit(model: Drawn, max_worlds: int = 100_000
                  ) -> SymbolicBeliefModel:
    """An explicit model as a belief structure with one state per world: an S5 model through
    its knowledge structure (:func:`kripke.symbolic.translate.translate`), a belief model with
    copy bits telling apart worlds alike in every atom and each agent's arrows as a
    disjunction of pairs of states."""
    if isinstance(model, Leveled) and not model.is_flat():
        raise ModelError("this model orders its worlds by plausibility, which a belief structure "
                         "cannot hold (its B_a reads arrows): check it without --symbolic")
    if isinstance(model, KripkeModel):
        return from_knowledge(translate(model, max_worlds).symbolic)
    if model.n_worlds > max_worlds:
        raise ModelTooLargeError(model.n_worlds, max_worlds, task="to translate",
                                 advice="build the belief structure directly")
    atoms = list(model.atoms)
    rows = [tuple(bool(model.atom_values(a)[w]) for a in atoms) for w in range(model.n_worlds)]
    number = numbered(rows)
    copy_name = fresh_name("copy", {a.name for a in atoms})
    copy_bits = [Atom(copy_name, (b,)) for b in range(bits_for(max(number, default=0) + 1))]
    vocabulary = Vocabulary([*atoms, *copy_bits], copies=3)
    states = [{**dict(zip(atoms, row, strict=True)),
               **{bit: bool(k >> b & 1) for b, bit in enumerate(copy_bits)}}
              for row, k in zip(rows, number, strict=True)]
    cubes = [vocabulary.cube(s) for s in states]
    primed_cubes = [vocabulary.manager.cube({vocabulary.name(a) + "'": v for a, v in s.items()})
                    for s in states]
    law = vocabulary.false
    for cube in cubes:
        law = law | cube
    relations = {}
    for agent in model.agents:
        targets: dict[int, Function] = {}
        for w, v in model.arrows(agent):
            targets[w] = targets.get(w, vocabulary.false) | primed_cubes[v]
        relation = vocabulary.false
        for w, reached in targets.items():
            relation = relation | (cubes[w] & reached)
        relations[agent] = relation
    actual = None if model.actual is None else states[model.actual]
    return SymbolicBeliefModel(vocabulary, law, relations, actual, auxiliary=copy_bits)

