"""What every model answers, whatever holds its worlds: the explicit
:class:`~kripke.explicit.model.KripkeModel` (a list of worlds) and the symbolic
:class:`~kripke.symbolic.structure.SymbolicModel` (a knowledge structure on BDDs) alike, so the
game, the
app and the benchmarks hold a model without asking which kind it is.

SMCDEL's split: one language, several backends behind one interface, a plain reference checker
they are all tested against. The questions are the ones a player or a teacher asks at the
actual world. A formula's value at every world is the model's own kind of value (a bool per
listed world, a diagram of the states where it holds): opaque to the caller, who hands it back
to the same model to count it, to read it at the actual world, to restrict the model to it
(an announcement already evaluated), to read it on a listed part
(:meth:`kripke.parts.ClassCounts.listed_values`) and to explain it, so a page that shows a
value, draws it and says why it holds evaluates the formula once.

A new kind of model answers :class:`EpistemicModel` (and, to be drawn as a summary,
:class:`kripke.parts.ClassCounts`); nothing outside ``kripke`` asks which kind it has
(``tests/test_architecture.py`` reads the code for it).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import TYPE_CHECKING, Any, Protocol, Self, runtime_checkable

from kripke.errors import ModelError
from kripke.explicit.arrays import BoolArray
from kripke.language.formula import Agent, Atom, Formula

if TYPE_CHECKING:  # the BDD library brings networkx: a model read from a file never needs it
    from kripke.events.model import EventModel
    from kripke.explain import Explanation
    from kripke.symbolic.bdd import Function

#: A formula's value at every world, as a model's checker gives it: a bool per world (an
#: explicit model) or the diagram of the states where it holds (a symbolic one). Only the model
#: that gave it reads it.
type Values = BoolArray | Function


class AgentIndex:
    """A model's agents by position, looked up by their text, so ``K_0`` in a formula finds
    agent ``0`` whether it was given as 0 or as "0". Both backends number agents this way."""

    def __init__(self, agents: Iterable[Agent]) -> None:
        self.agents: tuple[Agent, ...] = tuple(agents)
        self._index: dict[str, int] = {}
        for i, agent in enumerate(self.agents):
            if str(agent) in self._index:
                raise ModelError(f"two agents are both named {agent!r}")
            self._index[str(agent)] = i

    def __call__(self, agent: Agent) -> int:
        """The agent's position; :class:`ModelError` naming the agents for an unknown one."""
        try:
            return self._index[str(agent)]
        except KeyError:
            raise ModelError(
                f"unknown agent {agent!r}; the agents are {list(self.agents)}"
            ) from None

    def group(self, members: Iterable[Agent]) -> tuple[int, ...]:
        """A group's positions, in the order given, each once. A member that names no agent
        but whose letters each do is read as those agents, as textbooks write ``C_{ab}`` for
        the group of a and b (an agent named "ab" would win)."""
        found: dict[int, None] = {}
        for member in members:
            text = str(member)
            if text not in self._index and len(text) > 1 and not text.isdigit() and \
                    all(c in self._index for c in text):
                found.update(dict.fromkeys(self._index[c] for c in text))
            else:
                found[self(member)] = None
        return tuple(found)

    def indices(self, group: Iterable[Agent] | None) -> tuple[int, ...]:
        """A group's positions (see :meth:`group`); None means every agent."""
        if group is None:
            if not self.agents:
                raise ModelError("the model has no agents, so E, C and D have no group")
            return tuple(range(len(self.agents)))
        return self.group(group)

    def keyed(self, fixed: Mapping[Agent, int]) -> tuple[tuple[int, int], ...]:
        """A part given by agents and the keys of their classes (see :mod:`kripke.parts`) as
        (position, key) pairs in the order given: how a model keeps its answers about it."""
        return tuple((self(agent), int(key)) for agent, key in fixed.items())


@runtime_checkable
class EpistemicModel(Protocol):
    """A multi-agent model (S5, or any relation per agent for belief) with an actual world,
    updated by public announcements and by event models. A new kind of model implements every
    member below; the ``values`` it gives are its own kind (:data:`Values`), and it may refuse
    another model's with :class:`~kripke.errors.ModelError`."""

    @property
    def agents(self) -> tuple[Agent, ...]: ...

    @property
    def atoms(self) -> tuple[Atom, ...]: ...

    @property
    def n_worlds(self) -> int:
        """How many worlds (states) are still possible."""
        ...

    def holds(self, formula: Formula | str) -> bool:
        """Whether the formula is true at the actual world."""
        ...

    def count(self, formula: Formula | str) -> int:
        """In how many of the possible worlds the formula is true."""
        ...

    def announce(self, formula: Formula | str) -> Self:
        """The model after a truthful public announcement (refused if false at the actual
        world, with :class:`~kripke.errors.AnnouncementError`)."""
        ...

    def update(self, events: EventModel) -> EpistemicModel:
        """The model after an event model's product update (:mod:`kripke.events.model`), refused
        with :class:`~kripke.errors.UpdateError` if the actual event cannot happen at the
        actual world."""
        ...

    def knows(self, agent: Agent, formula: Formula | str) -> bool:
        """K_a φ at the actual world."""
        ...

    def knows_whether(self, agent: Agent, formula: Formula | str) -> bool:
        """K_a φ ∨ K_a ¬φ at the actual world."""
        ...

    def known_atoms(self, agent: Agent) -> dict[Atom, bool]:
        """The atoms whose value the agent knows at the actual world, with that value."""
        ...

    def possible_count(self, agent: Agent) -> int:
        """How many worlds the agent considers possible at the actual world (its class)."""
        ...

    def values(self, formula: Formula | str) -> Values:
        """The formula's value at every world, in this model's own kind (see :data:`Values`);
        :class:`~kripke.errors.TooMuchWorkError` past the budget (:mod:`kripke.budget`)."""
        ...

    def count_values(self, values: Values) -> int:
        """In how many of the possible worlds ``values`` (this model's) is true."""
        ...

    def actual_value(self, values: Values) -> bool:
        """``values`` (this model's) at the actual world; :class:`~kripke.errors.ModelError`
        for a model without one."""
        ...

    def restrict(self, values: Values) -> Self:
        """The model keeping only the worlds where ``values`` (this model's) is true: an
        announcement already evaluated (the actual world is not checked)."""
        ...

    def frame_class(self, agent: Agent | None = None) -> str:
        """The strongest frame class the agent's relation (or every agent's) is in: "S5"
        (knowledge: a partition), "KD45", "S4", "KD" or "K" (:mod:`kripke.explicit.belief`), so a
        caller says what kind of model it holds without asking its class."""
        ...

    def class_name(self, agent: Agent, key: int) -> tuple[str, ...] | None:
        """What names the agent's class ``key`` (:meth:`kripke.parts.ClassCounts.class_key`)
        when the model has words for it: a deal, the cards of the hand. None when it has none
        (a picture then names the class its own way)."""
        ...

    def explain(self, formula: Formula, values: Values | None = None, *,
                name: Callable[[Any, int], str] | None = None,
                agent_name: Callable[[Agent], str] | None = None,
                show: Callable[[Formula], str] = str) -> Explanation:
        """Why ``formula`` has its value at the actual world (:mod:`kripke.explain`).
        ``values``, its value this model already gave, is what a list of worlds explains (not
        evaluated again); a model that is not a list lists its worlds first and evaluates
        there (:class:`~kripke.errors.ModelTooLargeError` past a limit), as reading a diagram
        at millions of worlds costs more. ``name(listed, index)`` says what holds in a world
        of the worlds the explanation cites; ``agent_name`` what an agent is called; ``show`` how
        a formula is written in the reasons (``Formula.unicode`` for a page)."""
        ...
