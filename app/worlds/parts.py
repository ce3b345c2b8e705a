"""What a summary of a model too big to draw asks of it, answered by either backend.

``ClassTiles`` (``app.worlds.layout``) draws the classes of one agent, then opens the actual
world's class and draws the next agent's classes inside it, and so on, until the part opened
is small enough to draw world by world. A *part* is named by the agents whose actual class it
has opened, in order (``()``: the whole model). Per part a summary asks how many worlds each
class of an agent holds there (also counting only where a formula holds), how many worlds the
part has, and, for a small part, its worlds listed with their ids and a formula's value at
each of them.

The explicit model answers from its arrays (``ExplicitParts``); a symbolic deal answers from
its diagrams without listing the deals (``SymbolicParts``), which is how the demo draws a
4 × 4 game of 63,063,000 deals without holding them in memory. Both number an agent's classes
the same way (a deal: the hand's rank among all hands) and both name a listed world by its
index among all deals, so a picture of either is the same picture (tested).

A formula's values (``Values``) are what the model's checker gives: a bool per world for the
explicit model, the set of states where it holds (a diagram) for the symbolic one.
"""

from __future__ import annotations

import threading
import weakref
from collections.abc import Mapping
from typing import Any, Protocol

import numpy as np

from kripke.bdd import Function
from kripke.deal import DealModel, deal_count
from kripke.formula import Agent
from kripke.model import KripkeModel
from kripke.symbolic_deal import SymbolicDealModel

#: A formula's values in a model: a bool per world (explicit) or a diagram (symbolic).
type Values = np.ndarray | Function
#: The agents whose actual class a part has opened, in order; () is the whole model.
type Opened = tuple[Agent, ...]
#: Either backend, as the pictures take it.
type AnyModel = KripkeModel | SymbolicDealModel


class Parts(Protocol):
    """The questions a summary asks a model, for one model (they never go stale: models are
    immutable)."""

    @property
    def n_worlds(self) -> int: ...

    @property
    def agents(self) -> tuple[Agent, ...]: ...

    @property
    def has_actual(self) -> bool: ...

    def actual_key(self, agent: Agent) -> int:
        """The key of the actual world's class of ``agent``."""
        ...

    def sizes(self, agent: Agent, opened: Opened = (), values: Values | None = None
              ) -> np.ndarray:
        """Worlds per class of ``agent`` inside the part (only where ``values`` hold), indexed
        by its keys, zero for a key with no world there."""
        ...

    def size(self, opened: Opened) -> int:
        """How many worlds the part holds."""
        ...

    def listed(self, opened: Opened) -> KripkeModel:
        """The part's worlds as an explicit model (its ids those of the whole), to draw one
        by one: call it only for a part of a few hundred worlds."""
        ...

    def values_at(self, opened: Opened, values: Values) -> np.ndarray:
        """``values`` at each world of ``listed(opened)``."""
        ...

    def kept(self, opened: Opened) -> AnyModel:
        """What a layout keeps of the model to name classes by: not millions of worlds."""
        ...

    def dealt(self, agent: Agent, opened: Opened) -> dict[int, int] | None:
        """Every class ``agent`` had when the cards were dealt inside the part, with its number
        of deals then; None if the model is no deal (then only the classes present can be
        drawn). Counting, not remembering: a summary first opened after announcements emptied
        some classes still draws them, as empty slots."""
        ...


class _Answers[M: (KripkeModel, SymbolicDealModel)]:
    """What both backends answer alike, and a lock for the answers each keeps."""

    def __init__(self, model: M) -> None:
        self.model: M = model
        self._lock = threading.Lock()

    @property
    def n_worlds(self) -> int:
        return self.model.n_worlds

    @property
    def agents(self) -> tuple[Agent, ...]:
        return self.model.agents

    @property
    def has_actual(self) -> bool:
        return self.model.actual is not None


class ExplicitParts(_Answers[KripkeModel]):
    """A list of worlds answers from its arrays; each part's world indices found once."""

    def __init__(self, model: KripkeModel) -> None:
        super().__init__(model)
        self._cells: dict[Opened, np.ndarray] = {}
        self._sizes: dict[tuple[str, Opened], np.ndarray] = {}

    def actual_key(self, agent: Agent) -> int:
        assert self.model.actual is not None  # a summary opens the actual world's class
        return int(self.model.observation(agent)[self.model.actual])

    def _cell(self, opened: Opened) -> np.ndarray | None:
        """The indices of the part's worlds (None: every world)."""
        if not opened:
            return None
        with self._lock:
            found = self._cells.get(opened)
        if found is None:
            agent, above = opened[-1], self._cell(opened[:-1])
            if above is None:
                found = self.model.possible_worlds(agent)
            else:
                keys = self.model.observation(agent)
                found = above[keys[above] == self.actual_key(agent)]
            with self._lock:
                self._cells[opened] = found
        return found

    def sizes(self, agent: Agent, opened: Opened = (), values: Values | None = None
              ) -> np.ndarray:
        model = self.model
        n_keys = model.n_keys(model.agent_index(agent))
        cell = self._cell(opened)
        if values is not None:
            assert isinstance(values, np.ndarray)  # an explicit model's values
            if cell is None:
                return model.class_sizes(agent, where=values)
            return np.bincount(model.observation(agent)[cell][values[cell]], minlength=n_keys)
        key = (str(agent), opened)
        with self._lock:
            found = self._sizes.get(key)
        if found is None:  # a pass over every world at 63 million: asked once per model
            found = (model.class_sizes(agent) if cell is None else
                     np.bincount(model.observation(agent)[cell], minlength=n_keys))
            found.flags.writeable = False
            with self._lock:
                self._sizes[key] = found
        return found

    def size(self, opened: Opened) -> int:
        cell = self._cell(opened)
        return self.model.n_worlds if cell is None else int(cell.size)

    def listed(self, opened: Opened) -> KripkeModel:
        cell = self._cell(opened)
        return self.model if cell is None else self.model.restrict(cell)

    def values_at(self, opened: Opened, values: Values) -> np.ndarray:
        assert isinstance(values, np.ndarray)
        cell = self._cell(opened)
        return values if cell is None else values[cell]

    def kept(self, opened: Opened) -> AnyModel:
        return self.listed(opened)

    def dealt(self, agent: Agent, opened: Opened) -> dict[int, int] | None:
        model = self.model
        if not isinstance(model, DealModel):
            return None
        return _dealt(model, agent, {a: self.actual_key(a) for a in opened},
                      model.n_keys(model.agent_index(agent)))


class SymbolicParts(_Answers[SymbolicDealModel]):
    """A symbolic deal answers from its diagrams: a count per hand, never a list of deals,
    but for the part a picture draws world by world."""

    def __init__(self, model: SymbolicDealModel) -> None:
        super().__init__(model)
        self._sizes: dict[tuple[str, Opened, Any], np.ndarray] = {}
        self._listed: dict[Opened, DealModel] = {}

    def actual_key(self, agent: Agent) -> int:
        return self.model.key(agent)

    def _fixed(self, opened: Opened) -> dict[Agent, int]:
        return {a: self.actual_key(a) for a in opened}

    def sizes(self, agent: Agent, opened: Opened = (), values: Values | None = None
              ) -> np.ndarray:
        key = (str(agent), opened, values)
        with self._lock:
            found = self._sizes.get(key)
        if found is None:
            where = None if values is None else values
            assert where is None or not isinstance(where, np.ndarray)  # a diagram
            found = self.model.class_sizes(agent, where, self._fixed(opened))
            found.flags.writeable = False
            with self._lock:
                self._sizes[key] = found
        return found

    def size(self, opened: Opened) -> int:
        return self.model.n_worlds if not opened else self.model.part_size(self._fixed(opened))

    def listed(self, opened: Opened) -> DealModel:
        with self._lock:
            found = self._listed.get(opened)
        if found is None:
            found = self.model.listed(self._fixed(opened))
            with self._lock:
                self._listed[opened] = found
        return found

    def values_at(self, opened: Opened, values: Values) -> np.ndarray:
        assert not isinstance(values, np.ndarray)  # a diagram
        return self.model.values(values, self.listed(opened))

    def kept(self, opened: Opened) -> AnyModel:
        return self.model  # a diagram, not a list: nothing to drop

    def dealt(self, agent: Agent, opened: Opened) -> dict[int, int] | None:
        return _dealt(self.model, agent, self._fixed(opened), self.model.n_keys(agent))


def _dealt(model: DealModel | SymbolicDealModel, agent: Agent, fixed: Mapping[Agent, int],
           n_keys: int) -> dict[int, int]:
    """Every hand ``agent`` could hold when the cards were dealt, where the agents of ``fixed``
    hold the hands their keys name, with the number of deals then."""
    taken: set = set()
    for a, key in fixed.items():
        taken.update(model.hand(a, key))
    index = model.agent_index(agent)
    others = [size for a, size in zip(model.agents, model.hand_sizes, strict=True)
              if str(a) != str(agent) and a not in fixed]
    size = deal_count(len(model.cards) - len(taken) - model.hand_sizes[index], others)
    return {key: size for key in range(n_keys) if taken.isdisjoint(model.hand(agent, key))}


_PARTS: weakref.WeakKeyDictionary[Any, Parts] = weakref.WeakKeyDictionary()
_PARTS_LOCK = threading.Lock()


def parts_of(model: AnyModel) -> Parts:
    """The answers for ``model``, kept as long as the model lives: the page asks the same
    counts again on every perspective switch and every render of a turn (a pass over every
    world of a 63-million-world list, or a few thousand diagram counts)."""
    with _PARTS_LOCK:
        found = _PARTS.get(model)
        if found is None:
            found = (SymbolicParts(model) if isinstance(model, SymbolicDealModel)
                     else ExplicitParts(model))
            _PARTS[model] = found
    return found
