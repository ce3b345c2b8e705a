"""What a picture of a model too big to draw asks of it, answered alike by both backends.

A summary (``app.worlds.layout.ClassTiles``) draws the classes of one agent, then opens the
actual world's class and draws the next agent's classes inside it, and so on, until the part
opened is small enough to draw world by world. A *part* is given by the agents whose class is
fixed, each with the key of its class (``{}``: the whole model). Per part a picture asks how
many worlds each class of an agent holds there (also counting only where a formula holds), how
many worlds the part has, for a small part its worlds listed with their ids and a formula's
value at each of them, and for a deal every class the agent had when the cards were dealt.

The explicit model (:class:`~kripke.explicit.model.KripkeModel`,
:class:`~kripke.explicit.deal.DealModel`)
answers from its arrays; a symbolic deal (:class:`~kripke.symbolic.deal.SymbolicDealModel`)
from its diagrams without listing the deals, which is how a 4 × 4 game of 63,063,000 deals is
drawn without holding them in memory. Both key an agent's classes the same way (a deal: the
hand's rank among all hands) and name a listed world by its index among all deals, so a picture
of either is the same picture (``tests/test_kripke_symbolic.py`` holds the answers to each
other, ``tests/test_worlds_picture.py`` the pictures). Each model keeps the counts it gave: a
picture asks the same ones on every render.

A listed part is a :class:`Drawn` model: what a picture reads of a list of worlds, named by
its members, never by a backend's class (this module imports no backend).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Protocol, Self, runtime_checkable

import numpy as np

from kripke.interface import EpistemicModel, Values
from kripke.language.formula import Agent, Atom

if TYPE_CHECKING:
    from kripke.events.model import EventModel

__all__ = ["ClassCounts", "Drawn", "Fixed", "Leveled", "Listable", "Partitioned", "Values"]
#: A bool per world and world indices or counts, as a list of worlds gives them.
type BoolArray = np.ndarray
type IntArray = np.ndarray
#: A part: the agents whose class is fixed, each with its class's key; {} is the whole model.
type Fixed = Mapping[Agent, int]


class Drawn(EpistemicModel, Protocol):
    """A model whose worlds are listed, as a picture draws it world by world (an S5 model, a
    belief model, a plausibility model, a part of a deal): asked the same questions whatever
    relates its worlds, never which kind it is. Worlds are positions 0..n-1 with ids stable
    across updates; :meth:`kripke.kernel.Model.listing` writes them all out."""

    actual: int | None

    @property
    def world_ids(self) -> IntArray: ...

    def world_id(self, world: int) -> int: ...

    def world_index(self, world_id: int) -> int | None:
        """The position of the world with this id, None if it is gone."""
        ...

    def world_name(self, world: int | None = None) -> str:
        """The world's own name (``w`` and its id where the model names none)."""
        ...

    def world_label(self, world: int | None = None) -> str:
        """What a picture writes at the world: its name, else the atoms true there."""
        ...

    def atom_values(self, atom: Atom | str) -> BoolArray: ...

    def possible_worlds(self, agent: Agent, world: int | None = None) -> IntArray: ...

    def arrows(self, agent: Agent) -> list[tuple[int, int]]:
        """The agent's relation as pairs of positions, loops included."""
        ...

    def properties(self, agent: Agent) -> frozenset[str]:
        """The frame properties of the agent's relation."""
        ...

    def restrict(self, values: Values) -> Self: ...

    def at(self, world: int) -> Self:
        """The same worlds with another actual world (by position)."""
        ...

    def update(self, events: EventModel) -> Drawn:
        """The product update, listed again (see :class:`kripke.kernel.Model`)."""
        ...

    def minimised(self) -> Drawn:
        """One world per class of bisimilar worlds, every formula keeping its value (a list
        says ``capabilities.minimised``)."""
        ...

    def dead_ends(self, agent: Agent) -> IntArray:
        """The worlds where the agent considers none possible (it believes everything there);
        none in a partition."""
        ...

    def splits(self, events: EventModel) -> bool:
        """Whether a world splits in the update with ``events`` (then worlds get new ids)."""
        ...

    def origin(self, events: EventModel, world_id: int) -> tuple[int, str]:
        """The (world id here, event name) a world of the update, by its id, stands for."""
        ...


@runtime_checkable
class Leveled(Protocol):
    """What a picture asks of a model with a plausibility order
    (:class:`kripke.explicit.plausibility.PlausibilityModel`), so it can mark belief apart
    from knowledge without asking which kind of model it holds."""

    @property
    def world_ids(self) -> IntArray: ...

    def is_flat(self) -> bool:
        """Whether every world of each class is as plausible as every other (no order)."""
        ...

    def level(self, agent: Agent) -> IntArray:
        """The agent's plausibility level per world within its class (0 the most
        plausible)."""
        ...

    def observation(self, agent: Agent) -> IntArray:
        """The agent's class key per world (its classes: what it knows)."""
        ...

    def best(self, agent: Agent, world: int | None = None) -> IntArray:
        """The worlds the agent believes in at a world (default: the actual one): the most
        plausible of its class."""
        ...


@runtime_checkable
class ClassCounts[V](EpistemicModel, Protocol):
    """The questions a summary asks of a model, beside what every model answers (its agents,
    its number of worlds, its names for classes), ``V`` the kind of values its checker gives.
    Models are immutable, so the answers never go stale. ``isinstance`` tells a picture
    whether a model answers them at all: a belief model, whose relations need not be
    partitions, does not, and is drawn only as a graph."""

    @property
    def actual(self) -> object:
        """The actual world (None: the model has none, and no class to open)."""
        ...

    def class_key(self, agent: Agent) -> int:
        """The key of the agent's class at the actual world."""
        ...

    def class_sizes(self, agent: Agent, where: V | None = None, fixed: Fixed | None = None
                    ) -> IntArray:
        """Worlds per class of ``agent`` inside the part (only where ``where`` holds), indexed
        by its keys, zero for a key with no world there."""
        ...

    def part_size(self, fixed: Fixed) -> int:
        """How many worlds the part holds."""
        ...

    def drawn(self, limit: int) -> Partitioned | None:
        """The whole model as a list of worlds to draw one by one, if it already is one and has
        at most ``limit`` worlds; else None (a picture then draws classes as tiles)."""
        ...

    def as_list(self) -> Partitioned:
        """Every world as an explicit model, whose world ids are the whole model's: what only
        a list can give (a value per world, a file of the worlds). A knowledge structure lists
        its states; a deal, every deal narrowed again by what narrowed it. ``ModelTooLargeError``
        (or :class:`~kripke.errors.ModelError`) past the backend's limit."""
        ...

    def listed(self, fixed: Fixed) -> Partitioned:
        """The part's worlds as an explicit model whose world ids are those of the whole, to
        draw one by one: ask it only for a part of a few hundred worlds."""
        ...

    def listed_values(self, where: V, fixed: Fixed) -> BoolArray:
        """``where`` at each world of ``listed(fixed)``."""
        ...

    def dealt_classes(self, agent: Agent, fixed: Fixed) -> dict[int, int] | None:
        """Every class ``agent`` had inside the part when the cards were dealt, by key, with
        its number of deals then; None if the model is no deal (then only the classes present
        can be drawn). Counting, not remembering: a summary first opened after announcements
        emptied some classes still draws them, as empty slots."""
        ...


class Partitioned(Drawn, ClassCounts[Any], Protocol):
    """A listed model whose relations are partitions (a part of a deal, an S5 model), as the
    class views draw it: each agent's class key per world."""

    def observation(self, agent: Agent) -> IntArray:
        """The agent's class key per world (equal keys: worlds it cannot tell apart)."""
        ...

    def class_key(self, agent: Agent, world: int | None = None) -> int:
        """The agent's class key at a world (default: the actual one)."""
        ...


class Listable(EpistemicModel, Protocol):
    """A model that lists its worlds when asked (a belief structure on diagrams), and counts
    where an agent has no arrow without listing them."""

    def as_list(self, max_worlds: int) -> Drawn:
        """Every world as a list (:class:`~kripke.errors.ModelTooLargeError` past
        ``max_worlds``)."""
        ...

    def dead_end_count(self, agent: Agent) -> int:
        """How many worlds the agent has no arrow from."""
        ...

    def update(self, events: EventModel) -> Listable:
        """The product update, on diagrams again."""
        ...
