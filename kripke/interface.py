"""What every model backend answers: the explicit :class:`~kripke.model.KripkeModel` (a list of
worlds) and the symbolic :class:`~kripke.symbolic.SymbolicModel` (a knowledge structure on
BDDs) alike, so the game, the app and the benchmarks can hold either.

SMCDEL's split: one language, several backends behind one interface, a plain reference checker
they are both tested against. The questions are the ones a player or a teacher asks at the
actual world; what only a list of worlds can answer (a value per world, a drawing) stays with
the explicit model, and the symbolic one translates to it when it is small enough
(:func:`kripke.translate.to_explicit`).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol, Self, runtime_checkable

from kripke.errors import ModelError
from kripke.formula import Agent, Atom, Formula

if TYPE_CHECKING:
    from kripke.events import EventModel


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


@dataclass(frozen=True, slots=True)
class AgentClass:
    """One class of an agent's partition: the worlds it cannot tell apart from each other."""

    label: str  # what the agent sees there: its observed atoms that are true, e.g. its hand
    size: int  # how many worlds it holds
    actual: bool  # whether the actual world is in it


@dataclass(frozen=True, slots=True)
class ClassSummary:
    """An agent's partition in numbers, for a picture that cannot show every world.

    ``classes`` lists each class (the actual one first, then the largest first), or is None when
    there are more than the ``max_classes`` asked for; the counts are always there. A class is
    labelled with what the agent sees in it: the atoms it observes that are true there (an
    explicit model without observed-atom tables for the agent takes the atoms constant on each
    of its classes as observed).
    """

    agent: Agent
    n_worlds: int
    n_classes: int
    actual_size: int | None  # worlds in the actual world's class; None without an actual world
    classes: tuple[AgentClass, ...] | None


def class_label(true_atoms: Iterable[Atom]) -> str:
    """How a class is named: the atoms the agent sees true there, in one order for every backend
    (by name, then arguments, numbers before names and in numeric order)."""
    def key(atom: Atom) -> tuple[str, tuple[tuple[int, int | str], ...]]:
        return atom.name, tuple((0, a) if isinstance(a, int) else (1, a) for a in atom.args)

    return " ".join(str(a) for a in sorted(true_atoms, key=key)) or "(no atom true)"


@runtime_checkable
class EpistemicModel(Protocol):
    """A multi-agent S5 model with an actual world, updated by public announcements and by
    event models."""

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
        """The model after an event model's product update (:mod:`kripke.events`), refused
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

    def class_summary(self, agent: Agent, max_classes: int = 500) -> ClassSummary:
        """The agent's classes with their sizes (listed up to ``max_classes`` of them)."""
        ...
