"""What every model answers, whatever holds its worlds, beside the kernel's members
(:mod:`kripke.kernel`): the questions written once there, an agent's frame class, a class's
name and why a formula holds. The game, the app and the benchmarks hold a model as this, never
asking which kind it is (``tests/test_architecture.py`` reads the code for it). A new kind of
model writes :class:`kripke.kernel.Model`'s members and inherits
:class:`kripke.kernel.Questions`; to be drawn as a summary, it answers
:class:`kripke.parts.ClassCounts` too.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import TYPE_CHECKING, Any, Protocol, Self, runtime_checkable

from kripke.errors import ModelError
from kripke.kernel import Model, Values
from kripke.language.formula import Agent, Atom, Formula

if TYPE_CHECKING:
    from kripke.events.model import EventModel
    from kripke.explain import Explanation

__all__ = ["AgentIndex", "EpistemicModel", "Values"]


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
class EpistemicModel(Model, Protocol):
    """A multi-agent model (S5, or any relation per agent for belief) with an actual world:
    the kernel's members (:class:`kripke.kernel.Model`) and the questions written once over
    them (:class:`kripke.kernel.Questions`), and what a page asks besides."""

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
        """The model after the change's product update (see :class:`kripke.kernel.Model`)."""
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
        """How many worlds the agent considers possible at the actual world."""
        ...

    def world_label(self) -> str:
        """What the actual world is called: its name, else the atoms true there."""
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
        there (:class:`~kripke.errors.ModelTooLargeError` past a limit). ``name(listed,
        index)`` says what holds in a world of the worlds the explanation cites;
        ``agent_name`` what an agent is called; ``show`` how a formula is written in the
        reasons (``Formula.unicode`` for a page)."""
        ...
