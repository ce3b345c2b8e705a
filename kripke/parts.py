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

This sits beside :mod:`kripke.interface`, not in it, because a listed part is an explicit model
and the explicit model imports the interface.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Protocol, runtime_checkable

from kripke.explicit.arrays import BoolArray, IntArray
from kripke.explicit.model import KripkeModel
from kripke.interface import EpistemicModel, Values
from kripke.language.formula import Agent

if TYPE_CHECKING:
    from kripke.explicit.belief import BeliefModel

__all__ = ["ClassCounts", "DrawnModel", "Fixed", "Leveled", "Values"]
#: A model whose worlds are listed, as a graph draws it: asked the same questions (arrows,
#: properties, frame_class, world names), never which kind it is.
type DrawnModel = KripkeModel | BeliefModel
#: A part: the agents whose class is fixed, each with its class's key; {} is the whole model.
type Fixed = Mapping[Agent, int]


@runtime_checkable
class Leveled(Protocol):
    """What a picture asks of a model with a plausibility order
    (:class:`kripke.explicit.plausibility.PlausibilityModel`), so it can mark belief apart
    from knowledge without asking which kind of model it holds."""

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

    def drawn(self, limit: int) -> KripkeModel | None:
        """The whole model as a list of worlds to draw one by one, if it already is one and has
        at most ``limit`` worlds; else None (a picture then draws classes as tiles)."""
        ...

    def as_list(self) -> KripkeModel:
        """Every world as an explicit model, whose world ids are the whole model's: what only
        a list can give (a value per world, a file of the worlds). A knowledge structure lists
        its states; a deal, every deal narrowed again by what narrowed it. ``ModelTooLargeError``
        (or :class:`~kripke.errors.ModelError`) past the backend's limit."""
        ...

    def listed(self, fixed: Fixed) -> KripkeModel:
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
