"""What a list of worlds answers of the kernel (:mod:`kripke.kernel`) the same way whatever
relates its worlds (partitions: :class:`kripke.explicit.model.KripkeModel`; arrows:
:class:`kripke.explicit.belief.BeliefModel`): a formula's value is a bool per world, counted,
read at the actual world, explained and listed here, so the two models share one copy of it."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any, Self

import numpy as np

from kripke.errors import ModelError, ModelTooLargeError
from kripke.explain import Explanation, Listed, Namer, explain
from kripke.explicit.arrays import BoolArray, IntArray
from kripke.interface import AgentIndex
from kripke.kernel import Listing, Questions
from kripke.language.formula import Agent, Atom, Formula


class PerWorld(Questions):
    """The kernel's members on a list of worlds (see the module); a subclass writes
    ``evaluate``, ``restrict``, ``possible_worlds``, ``arrows`` and ``properties``."""

    actual: int | None
    _n: int
    _agents: tuple[Agent, ...]
    _agent_index: AgentIndex

    @property
    def n_worlds(self) -> int:
        return self._n

    @property
    def agents(self) -> tuple[Agent, ...]:
        return self._agents

    def agent_index(self, agent: Agent) -> int:
        """The agent's position among :attr:`agents`; agents are found by their text, so
        ``0`` and ``"0"`` are the same agent."""
        return self._agent_index(agent)

    def agent_indices(self, group: Iterable[Agent] | None) -> tuple[int, ...]:
        """Positions of a group's agents; None means every agent."""
        return self._agent_index.indices(group)

    def _world(self, world: int | None) -> int:
        """A world's position, checked (default: the actual world)."""
        if world is None:
            if self.actual is None:
                raise ModelError("the model has no actual world; pass world=")
            return self.actual
        if not 0 <= int(world) < self._n:
            raise ModelError(f"world {world} is out of range 0..{self._n - 1}")
        return int(world)

    def values(self: Listed, formula: Formula | str) -> BoolArray:
        """The kernel's name for ``evaluate``: a bool per world."""
        return self.evaluate(formula)

    @property
    def has_actual(self) -> bool:
        return self.actual is not None

    def holds(self, formula: Formula | str, world: int | None = None) -> bool:
        """Whether the formula is true at a world (default: the actual one, as every model
        answers it): a list of worlds is also asked at one of its worlds."""
        if world is None:
            return super().holds(formula)
        return bool(self._listed().evaluate(formula)[self._world(world)])

    def _listed(self) -> Listed:
        return self  # type: ignore[return-value]

    def per_world(self: Listed, values: object) -> BoolArray:
        """``values`` as this model's bool per world; anything else (a diagram, another
        model's values) refused with :class:`ModelError`."""
        if not isinstance(values, np.ndarray) or values.shape != (self.n_worlds,):
            raise ModelError(f"not a value per world of this model of {self.n_worlds} worlds")
        return values

    def count_values(self, values: object) -> int:
        """In how many worlds ``values`` (from :meth:`values`) is true."""
        return int(np.count_nonzero(PerWorld.per_world(self._listed(), values)))

    def fixed_atoms(self) -> dict[Atom, bool]:
        """The atoms with one value at every world, with it (all true when there is none)."""
        model: Any = self
        fixed: dict[Atom, bool] = {}
        for atom in model.atoms:
            column = model.atom_values(atom)
            if column.all():
                fixed[atom] = True
            elif not column.any():
                fixed[atom] = False
        return fixed

    def actual_value(self, values: object) -> bool:
        """``values`` (from :meth:`values`) at the actual world."""
        if self.actual is None:
            raise ModelError("the model has no actual world; pass world=")
        return bool(PerWorld.per_world(self._listed(), values)[self.actual])

    def considered(self, agent: Agent) -> Self:
        """The worlds the agent considers possible at the actual world, as a model of them
        (their indices, increasing: a few of them cost only their number)."""
        worlds: IntArray = self._listed().possible_worlds(agent)
        return self._listed().restrict(worlds)  # type: ignore[return-value]

    def explain(self, formula: Formula, values: object | None = None, *,
                name: Namer | None = None,
                agent_name: Callable[[Agent], str] | None = None,
                show: Callable[[Formula], str] = str) -> Explanation:
        """Why ``formula`` has its value at the actual world (:func:`kripke.explain.explain`),
        resting on ``values`` when this model already gave them."""
        model = self._listed()
        return explain(model, formula, name=name, agent_name=agent_name, show=show,
                       values=None if values is None else PerWorld.per_world(model, values))

    def class_name(self, agent: Agent, key: int) -> tuple[str, ...] | None:
        """None: a class of a list of worlds has no name of its own (a deal names it by the
        hand, :class:`kripke.explicit.deal.DealModel`)."""
        return None

    def levels(self) -> tuple[tuple[int, ...], ...] | None:
        """Each agent's plausibility level per world; None: no order (see
        :class:`kripke.explicit.plausibility.PlausibilityModel`)."""
        return None

    def listing(self, limit: int) -> Listing:
        """The worlds written out (:class:`kripke.kernel.Listing`), past ``limit`` refused."""
        model: Any = self
        n = int(model.n_worlds)
        if n > limit:
            raise ModelTooLargeError(n, limit, task="to list",
                                     advice="ask for counts and class summaries")
        atoms: tuple[Atom, ...] = model.atoms
        columns = [np.asarray(model.atom_values(atom)) for atom in atoms]
        true = tuple(frozenset(a for a, column in zip(atoms, columns, strict=True)
                               if column[w]) for w in range(n))
        agents: tuple[Agent, ...] = model.agents
        return Listing(agents=agents, atoms=atoms,
                       ids=tuple(int(i) for i in model.world_ids.tolist()),
                       names=tuple(model.world_name(w) for w in range(n)),
                       labels=tuple(model.world_label(w) for w in range(n)), true=true,
                       arrows=tuple(tuple(model.arrows(a)) for a in agents),
                       properties=tuple(model.properties(a) for a in agents),
                       actual=model.actual, levels=self.levels())
