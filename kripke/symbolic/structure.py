"""Symbolic models: knowledge structures on BDDs, for models far too big to list their worlds.

A knowledge structure (SMCDEL's, after van Benthem, van Eijck, Gattinger and Su) is

* a vocabulary V of atoms (BDD variables, :class:`kripke.symbolic.bdd.Vocabulary`),
* a law θ: a BDD over V whose satisfying assignments are the possible states (the worlds),
* for each agent the atoms it observes, O_a ⊆ V: two states look the same to a exactly when
  they agree on O_a, so each agent's relation is an S5 partition, as in the explicit model,
* an actual state.

Knowledge is quantification (see :mod:`kripke.symbolic.check`) and a public announcement of ψ
replaces θ by θ ∧ ψ, so the 3·10¹¹ deals of 20 tickets to 5 players cost a diagram of some
27,000 nodes. The model answers the questions of :class:`kripke.interface.EpistemicModel`;
what needs a list of worlds (a value per world, a drawing) goes through
:func:`kripke.symbolic.translate.to_explicit`, which refuses past a limit with
``ModelTooLargeError``.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, ClassVar, Self, cast

import numpy as np

from kripke.budget import check_budget
from kripke.errors import ModelError, ModelTooLargeError, UpdateError
from kripke.explain import Explanation, explain
from kripke.explicit.model import ByAgent, KripkeModel
from kripke.interface import AgentIndex
from kripke.kernel import Capabilities, Listing, Questions, Values
from kripke.language.formula import Agent, Atom, Formula
from kripke.language.parser import parse
from kripke.symbolic.bdd import Function, Vocabulary
from kripke.symbolic.check import DiagramChecker, SymbolicChecker, pointed

if TYPE_CHECKING:
    from kripke.events.model import EventModel

type State = Mapping[Atom | str, bool] | Iterable[Atom | str]

#: Top-level extensions a model keeps (the game asks the same few formulas many times).
_CACHE_SIZE = 256
#: The most states a knowledge structure lists to explain a formula world by world (listing
#: reads each state off the diagram, some tens of microseconds apiece).
EXPLAINED_LIMIT = 200_000


def _as_atom(atom: Atom | str) -> Atom:
    return atom if isinstance(atom, Atom) else Atom(atom)


def bits_for(n: int) -> int:
    """Bits needed to number n things."""
    return max(n - 1, 0).bit_length()


def fresh_name(name: str, taken: set[str]) -> str:
    """``name``, with underscores added until no atom in ``taken`` is called so."""
    while name in taken:
        name += "_"
    return name


def numbered(keys: Iterable[object]) -> list[int]:
    """For each key in turn, how many equal keys came before it: the copy number that tells
    apart things alike in every key."""
    counts: dict[object, int] = {}
    numbers = []
    for key in keys:
        numbers.append(counts.get(key, 0))
        counts[key] = numbers[-1] + 1
    return numbers


class LawStates(Questions):
    """What a structure with a law answers alike, whatever relates its states (this module's
    knowledge structures, :mod:`kripke.symbolic.belief`'s belief structures): its agents and
    language, how many states the law has, a formula's diagram counted there, the states
    listed, a state named by its atoms."""

    vocabulary: Vocabulary
    law: Function
    _agents: tuple[Agent, ...]
    _auxiliary: frozenset[Atom]
    _n_worlds: int | None
    _cache: dict[Formula, Function]
    actual: dict[Atom, bool] | None

    @property
    def agents(self) -> tuple[Agent, ...]:
        return self._agents

    @property
    def atoms(self) -> tuple[Atom, ...]:
        """The atoms of the model's language (the vocabulary without auxiliary atoms)."""
        return tuple(a for a in self.vocabulary.atoms if a not in self._auxiliary)

    @property
    def n_worlds(self) -> int:
        """The number of possible states (satisfying assignments of the law), exactly."""
        if self._n_worlds is None:
            self._n_worlds = self.vocabulary.count(self.law)
        return self._n_worlds

    @property
    def has_actual(self) -> bool:
        return self.actual is not None

    def _diagram(self, values: Values) -> Function:
        """``values`` as a diagram of this model's vocabulary; a value per world refused."""
        if isinstance(values, np.ndarray):
            raise ModelError("a value per listed world is no diagram of a symbolic model")
        return cast(Function, values)

    def fixed_atoms(self) -> dict[Atom, bool]:
        """The atoms with one value in every possible state, with it (all true when there is
        none), in one pass over the law's nodes (:meth:`Vocabulary.fixed`)."""
        if self.law == self.vocabulary.false:
            return dict.fromkeys(self.atoms, True)
        return self.vocabulary.fixed(self.law, self.atoms)

    def count_values(self, values: Values) -> int:
        """In how many possible states ``values`` (from ``values``) is true."""
        return self.vocabulary.count(self.law & self._diagram(values))

    def worked_out(self, formula: Formula | str, checker: Callable[[], DiagramChecker]
                   ) -> Function:
        """φ's diagram over every state, by a new ``checker``, kept per formula: an atom is
        its variable; anything else is first held to the budget (a BDD operation's cost
        grows with the diagrams' nodes, as the array checker's with worlds)."""
        formula = parse(formula) if isinstance(formula, str) else formula
        if isinstance(formula, Atom):  # its variable: nothing to work out or to keep
            return self.vocabulary.var(formula)
        if (known := self._cache.get(formula)) is not None:
            return known
        check_budget(formula, len(self.law), len(self._agents))
        result = checker().value(formula)
        if len(self._cache) >= _CACHE_SIZE:
            self._cache.clear()
        self._cache[formula] = result
        return result

    def label(self, state: Mapping[Atom, bool]) -> str:
        """A readable name for a state: the atoms true in it (auxiliary ones left out)."""
        true = [str(a) for a in self.atoms if state[a]]
        return " ".join(true) if true else "(no atom true)"

    def states(self, max_worlds: int = 500) -> list[dict[Atom, bool]]:
        """Every possible state, in the order of the vocabulary's bits (first atom highest).

        Raises :class:`ModelTooLargeError` past ``max_worlds`` states, before listing any.
        """
        if self.n_worlds > max_worlds:
            raise ModelTooLargeError(self.n_worlds, max_worlds, task="to list",
                                     advice="ask about counts and classes instead")
        atoms = self.vocabulary.atoms
        found = list(self.vocabulary.assignments(self.law))
        return sorted(found, key=lambda s: tuple(not s[a] for a in atoms))


class SymbolicModel(LawStates):
    """A knowledge structure: vocabulary, law, observed atoms per agent, an actual state.

    ``observations`` maps each agent (name or int) to the atoms it observes. ``actual`` is the
    actual state, given as the atoms true in it (the rest are false) or as a full mapping from
    atom to bool; None leaves the model without one (then ``holds`` needs ``state=``).
    ``auxiliary`` atoms are part of the vocabulary but not of the model's language: the
    translation from an explicit model adds such atoms to encode what an agent observes, and
    ``atoms`` and ``known_atoms`` leave them out.
    """

    #: Neither summarised by classes (a deal is: :mod:`kripke.symbolic.deal`) nor minimised.
    capabilities: ClassVar[Capabilities] = Capabilities()

    def __init__(
        self,
        vocabulary: Vocabulary,
        law: Function,
        observations: ByAgent[Iterable[Atom | str]],
        actual: State | None = None,
        *,
        auxiliary: Iterable[Atom] = (),
    ) -> None:
        self.vocabulary = vocabulary
        self.law = law
        self._agents: tuple[Agent, ...] = tuple(observations)
        self._agent_index = AgentIndex(self._agents)
        self._observed: tuple[tuple[Atom, ...], ...] = tuple(
            tuple(dict.fromkeys(_as_atom(a) for a in atoms)) for atoms in observations.values()
        )
        for atoms in self._observed:
            for atom in atoms:
                vocabulary.name(atom)  # raises for an atom outside the vocabulary
        self._auxiliary = frozenset(auxiliary)
        self._hidden: dict[tuple[int, ...], tuple[str, ...]] = {}
        self._cache: dict[Formula, Function] = {}
        self._n_worlds: int | None = None
        self.actual: dict[Atom, bool] | None = None
        self._named: dict[str, bool] | None = None
        self._classes: dict[int, Function] = {}
        #: per agent, the cube of what it observes at the actual state, which restrictions
        #: of the law keep (so it is shared with them)
        self._seen: dict[int, Function] = {}
        if actual is not None:
            self.actual = self.state(actual)
            if not vocabulary.value(law, self.actual):
                raise ModelError("the actual state does not satisfy the law")

    # --- structure -------------------------------------------------------------------------

    @property
    def auxiliary(self) -> frozenset[Atom]:
        return self._auxiliary

    def observed(self, agent: Agent) -> tuple[Atom, ...]:
        """The atoms the agent observes."""
        return self._observed[self.agent_index(agent)]

    def agent_index(self, agent: Agent) -> int:
        """The agent's position among :attr:`agents`; agents are found by their text, so
        ``0`` and ``"0"`` are the same agent."""
        return self._agent_index(agent)

    def group(self, group: Iterable[Agent] | None) -> tuple[Agent, ...]:
        """A group's agents (None: every agent), each checked to exist."""
        if group is None:
            if not self._agents:
                raise ModelError("the model has no agents, so E, C and D have no group")
            return self._agents
        return tuple(self._agents[i] for i in self._agent_index.group(group))

    def unobserved(self, agents: tuple[Agent, ...]) -> tuple[str, ...]:
        """Names of the variables none of the agents observes: what K (or D) quantifies."""
        key = tuple(sorted({self.agent_index(a) for a in agents}))
        if key not in self._hidden:
            seen = {atom for i in key for atom in self._observed[i]}
            self._hidden[key] = tuple(self.vocabulary.names[a] for a in self.vocabulary.atoms
                                      if a not in seen)
        return self._hidden[key]

    def state(self, state: State) -> dict[Atom, bool]:
        """A full assignment of the vocabulary: from the atoms true in it, or from a mapping
        that gives every atom."""
        if isinstance(state, Mapping):
            given = {_as_atom(a): bool(v) for a, v in state.items()}
            missing = [a for a in self.vocabulary.atoms if a not in given]
            if missing:
                raise ModelError(f"the state gives no value to {', '.join(map(str, missing[:5]))}")
            extra = [a for a in given if a not in self.vocabulary]
        else:
            true = {_as_atom(a) for a in state}
            extra = [a for a in true if a not in self.vocabulary]
            given = {a: a in true for a in self.vocabulary.atoms}
        if extra:
            raise ModelError(f"unknown atom {extra[0]} in the state")
        return given

    def _at(self, state: State | None) -> dict[Atom, bool]:
        if state is None:
            if self.actual is None:
                raise ModelError("the model has no actual state; pass state=")
            return self.actual
        return self.state(state)

    # --- model checking -------------------------------------------------------------------

    def extension(self, formula: Formula | str) -> Function:
        """‖φ‖: the BDD of the states where φ holds (meaningful on the states of the law)."""
        return self.worked_out(formula, lambda: SymbolicChecker(self, self.law))

    def values(self, formula: Formula | str) -> Function:
        """The interface's name for :meth:`extension`: the diagram of where φ holds."""
        return self.extension(formula)

    def actual_value(self, values: Values) -> bool:
        """``values`` (from :meth:`values`) at the actual state."""
        return self.vocabulary.value_named(self._diagram(values), self._named_actual())

    def holds(self, formula: Formula | str, state: State | None = None) -> bool:
        """Whether the formula is true at a state (default: the actual state), its outermost
        K_a and M_a read in the agent's class there (:func:`kripke.symbolic.check.pointed`)."""
        at = self._at(state)
        if state is not None and not self.vocabulary.value(self.law, at):
            raise ModelError("the state does not satisfy the law: it is not a possible world")
        named = self._named_actual() if state is None else self.vocabulary.named(at)
        false = self.vocabulary.false
        return pointed(
            parse(formula) if isinstance(formula, str) else formula,
            lambda a, g: (self._class(a, state) & ~self.extension(g)) == false,
            lambda a, g: (self._class(a, state) & self.extension(g)) != false,
            lambda g: self.vocabulary.value_named(self.extension(g), named))

    def _named_actual(self) -> dict[str, bool]:
        """The actual state by variable names, made once (a story asks many questions)."""
        if self._named is None:
            self._named = self.vocabulary.named(self._at(None))
        return self._named

    # --- updates ---------------------------------------------------------------------------

    def restrict(self, condition: Values) -> Self:
        """The model whose law is θ ∧ condition (the actual state is kept as it is)."""
        new = copy.copy(self)
        new.law = self.law & self._diagram(condition)
        new._cache, new._classes = {}, {}
        new._n_worlds = None
        return new

    def update(self, events: EventModel) -> SymbolicModel:
        """Product update with an event model (:mod:`kripke.events.model`), as a knowledge
        transformer (SMCDEL's; van Benthem, van Eijck, Gattinger and Su 2015): new variables
        number the events, the law becomes θ ∧ ⋁_e (e's number ∧ pre(e)), and each agent
        also observes the variables that number its class of events. A state of the result
        is a state of this model and an event whose precondition held there, and two look the
        same to an agent exactly when it could tell neither the states nor the events apart,
        which is the product update; no state is listed. Only agents with more than one class
        get variables, and events alike for every agent get unobserved copy bits, so a
        one-event model adds nothing and is the announcement of its precondition.

        The new variables are auxiliary (not in :attr:`atoms`) and come above the old ones in
        the variable order (see :meth:`kripke.symbolic.bdd.Vocabulary.extended`), in a new
        vocabulary.
        Raises :class:`UpdateError` (an :class:`AnnouncementError`) if the actual event cannot
        happen at the actual state.

        Knowledge structures are S5: an event with arrows (a belief) or with assignments is
        refused (:class:`ModelError`, saying to make it a belief structure first), and so is
        one changing a plausibility order (an upgrade: saying to list the model first).
        """
        if not events.is_s5 or events.changes_facts or events.reorders:
            what = "arrows (somebody's belief)" if not events.is_s5 else \
                "assignments (a change of facts)" if events.changes_facts else \
                "a plausibility order to change (an upgrade)"
            advice = ("list it first with kripke.symbolic.translate.to_explicit(model)"
                      if events.is_s5 and not events.changes_facts else
                      "make it a belief structure first with "
                      "kripke.symbolic.belief.from_knowledge(model)")
            raise ModelError(f"this event has {what}, which a symbolic model (S5, no change "
                             f"of facts) cannot take; {advice}")
        events.check_agents(self._agents)
        pre = [self.extension(e.precondition) for e in events.events]
        chosen = events.names.index(events.actual)
        if self.actual is not None and not self.vocabulary.value(pre[chosen], self.actual):
            raise UpdateError(events.actual, events.actual_event.precondition)
        name = fresh_name("event", {a.name for a in self.vocabulary.atoms})
        codes: list[dict[Atom, bool]] = [{} for _ in events.events]
        seen: list[list[Atom]] = []
        for agent in self._agents:
            keys = events.keys(agent)
            bits = [Atom(name, (agent, b)) for b in range(bits_for(max(keys) + 1))]
            for code, key in zip(codes, keys, strict=True):
                code.update({bit: bool(key >> b & 1) for b, bit in enumerate(bits)})
            seen.append(bits)
        copies = numbered(tuple(code.values()) for code in codes)
        copy_bits = [Atom(name, (b,)) for b in range(bits_for(max(copies) + 1))]
        for code, number in zip(codes, copies, strict=True):
            code.update({bit: bool(number >> b & 1) for b, bit in enumerate(copy_bits)})
        added = [*(bit for bits in seen for bit in bits), *copy_bits]
        vocabulary = self.vocabulary.extended(added)
        happens = vocabulary.false
        for code, condition in zip(codes, pre, strict=True):
            happens |= vocabulary.cube(code) & vocabulary.transfer(condition, self.vocabulary)
        law = vocabulary.transfer(self.law, self.vocabulary) & happens
        observations = {agent: [*self._observed[i], *seen[i]]
                        for i, agent in enumerate(self._agents)}
        actual = None if self.actual is None else {**self.actual, **codes[chosen]}
        return SymbolicModel(vocabulary, law, observations, actual,
                             auxiliary=[*self._auxiliary, *added])

    # --- questions a user asks --------------------------------------------------------------

    def _class(self, agent: Agent, state: State | None) -> Function:
        """The law restricted to the states the agent cannot tell from the given one."""
        at = self._at(state)
        observed = self._observed[self.agent_index(agent)]
        if state is None:  # the class of the actual state, one per agent and law
            key = self.agent_index(agent)
            if (known := self._classes.get(key)) is None:
                if (seen := self._seen.get(key)) is None:  # the same after announcements
                    seen = self._seen[key] = self.vocabulary.cube({a: at[a] for a in observed})
                known = self._classes[key] = self.law & seen
            return known
        return self.law & self.vocabulary.cube({a: at[a] for a in observed})

    def considered(self, agent: Agent) -> Self:
        """The structure kept to the agent's class at the actual state."""
        return self.restrict(self._class(agent, None))

    def listing(self, limit: int) -> Listing:
        """The states written out as the worlds of :meth:`explicit` (a world per state, in the
        vocabulary's order); past ``limit``, :class:`ModelTooLargeError`."""
        return self.explicit(self.states(limit)).listing(limit)

    def frame_class(self, agent: Agent | None = None) -> str:
        """"S5": an agent's relation in a knowledge structure is "observes the same
        variables", a partition (belief structures are out of scope, ``kripke/README.md``)."""
        if agent is not None:
            self.agent_index(agent)  # an unknown agent is refused
        return "S5"

    def class_name(self, agent: Agent, key: int) -> tuple[str, ...] | None:
        """None: a knowledge structure names no class of its own (a deal names it by the hand,
        :class:`kripke.symbolic.deal.SymbolicDealModel`)."""
        return None

    def explain(self, formula: Formula, values: Values | None = None, *,
                name: Callable[[Any, int], str] | None = None,
                agent_name: Callable[[Agent], str] | None = None,
                show: Callable[[Formula], str] = str) -> Explanation:
        """Why ``formula`` has its value at the actual state, explained in its states listed
        (:meth:`as_list`). ``values`` is not read: the array checker evaluates a formula on
        the list far faster than a diagram is read at every listed world (36 s against
        0.2 s on the 63,063,000 deals of a 4 × 4 game), and the answers are the same."""
        return explain(self.as_list(), formula, name=name, agent_name=agent_name, show=show)

    def as_list(self) -> KripkeModel:
        """Every possible state as a world of an explicit model (:meth:`explicit`);
        :class:`ModelTooLargeError` past :data:`EXPLAINED_LIMIT` states."""
        return self.explicit(self.states(EXPLAINED_LIMIT))

    def explicit(self, states: Sequence[Mapping[Atom, bool]]) -> KripkeModel:
        """The explicit model of these states (:meth:`states`): a world per state, in their
        order; auxiliary atoms are not carried over (they only encode observations, which
        become the agents' keys)."""
        valuation: dict[Atom | str, list[bool]] = {atom: [s[atom] for s in states]
                                                   for atom in self.atoms}
        observations = {agent: [tuple(s[a] for a in self.observed(agent)) for s in states]
                        for agent in self.agents}
        actual = None if self.actual is None else list(states).index(self.actual)
        return KripkeModel(valuation, observations, actual, n_worlds=len(states))

    def world_label(self, state: State | None = None) -> str:
        """A readable name for a state: the atoms true in it (auxiliary ones left out)."""
        return self.label(self._at(state))

    def __repr__(self) -> str:
        return (f"{type(self).__name__}({self.n_worlds:,} states, {len(self.vocabulary)} atoms, "
                f"agents={list(self._agents)})")
