"""The bottom of ``kripke``: what a model is, whatever holds its worlds, and the questions
written once over it.

SMCDEL's split: one language, several backends behind one small interface. A backend writes
the few members of :class:`Model` (a formula's value at every world in its own kind, the model
kept to the worlds where a value is true, the product update with a change, a value read at
the actual world and counted, the worlds an agent considers possible, the atoms fixed in a
model, and a :class:`Listing` of its worlds up to a limit); :class:`Questions` writes the
rest on them (``holds``, ``knows``, ``knows_whether``, ``known_atoms``, ``count``,
``possible_count``, ``announce``), once for every backend. A backend may answer one of them
faster (a knowledge structure reads the outermost ``K_a`` in the agent's class) but never
differently: the conformance tests hold every backend to the textbook checker.

A *change* is an event model (:class:`~kripke.events.model.EventModel`); a public
announcement is its one-event case, and :meth:`Questions.announce` is the restriction to
where the formula holds, after checking the actual world, which is what the product update
of that one event gives (no world splits, every agent sees it).

Values are opaque: the caller hands a value back to the model that gave it (to count it,
read it at the actual world, restrict to it, explain it, list it on a part), and never looks
inside. Nothing here imports a backend; the backends import this.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol, Self, cast, runtime_checkable

from kripke.errors import AnnouncementError
from kripke.language.formula import Agent, Atom, Formula, Knows, Not, Or
from kripke.language.parser import parse

if TYPE_CHECKING:
    from kripke.events.model import EventModel

#: A formula's value at every world, in the kind of the model that gave it (a bool per listed
#: world, a diagram of the states where it holds). Only that model reads it.
type Values = object

__all__ = ["EQUIVALENCE", "Capabilities", "Listing", "Model", "Questions", "Values",
           "as_formula"]


def as_formula(formula: Formula | str) -> Formula:
    """A formula as given, or parsed from its text (:class:`FormulaError` if it is none)."""
    return parse(formula) if isinstance(formula, str) else formula


@dataclass(frozen=True)
class Capabilities:
    """What a model can do beyond the questions every model answers, asked of the model
    (never found by its class): whether a picture may summarise it by an agent's classes
    when it is too big to draw world by world (``summarised``: it answers
    :class:`kripke.parts.ClassCounts`; a belief model's relations need not be partitions),
    and whether it can be made smaller up to bisimulation (``minimised``: a list of worlds'
    ``minimised()``; a structure on diagrams cannot)."""

    summarised: bool = False
    minimised: bool = False


@dataclass(frozen=True)
class Listing:
    """A model's worlds written out, the one thing pictures, files and explanations read of
    a model's structure: per world its id (stable across updates), its name and the atoms
    true there, and its label (what a picture or an explanation calls it: its own name where
    the model names its worlds, else the atoms true there); per agent the arrows between
    worlds (positions in these tuples, loops included; a partition's arrows join every two
    worlds of a class) and the frame properties of its relation ("reflexive", "serial",
    "transitive", "symmetric", "euclidean"), and, on a plausibility model, each world's
    level in the agent's class (0 the most plausible); the actual world's position, if
    any."""

    agents: tuple[Agent, ...]
    atoms: tuple[Atom, ...]
    ids: tuple[int, ...]
    names: tuple[str, ...]
    labels: tuple[str, ...]
    true: tuple[frozenset[Atom], ...]
    arrows: tuple[tuple[tuple[int, int], ...], ...]
    properties: tuple[frozenset[str], ...]
    actual: int | None
    levels: tuple[tuple[int, ...], ...] | None = None

    @property
    def n_worlds(self) -> int:
        return len(self.ids)

    @property
    def partitions(self) -> bool:
        """Whether every agent's relation is a partition (knowledge, S5)."""
        return all(EQUIVALENCE <= found for found in self.properties)

    def agent(self, text: str) -> Agent:
        """The agent written ``text`` (agents are found by their text: ``0`` is ``"0"``)."""
        return next(a for a in self.agents if str(a) == str(text))

    def reached(self, k: int) -> tuple[tuple[int, ...], ...]:
        """Per world, the worlds agent ``k`` (its position) considers possible there, in the
        order of its arrows: equal for two worlds of one class of a partition."""
        seen: dict[int, list[int]] = {}
        for w, v in self.arrows[k]:
            seen.setdefault(w, []).append(v)
        return tuple(tuple(seen.get(w, ())) for w in range(self.n_worlds))

    def agent_arrows(self, agent: Agent) -> tuple[tuple[int, int], ...]:
        """The agent's arrows (see the class), the agent found by its text."""
        return self.arrows[[str(a) for a in self.agents].index(str(agent))]


#: The frame properties of a partition (an equivalence relation).
EQUIVALENCE = frozenset({"reflexive", "transitive", "symmetric"})


@runtime_checkable
class Model(Protocol):
    """The members every backend writes (see the module). ``values`` gives this model's
    own kind of value; the other members take only such a value of this model and may refuse
    another with :class:`~kripke.errors.ModelError`."""

    @property
    def agents(self) -> tuple[Agent, ...]: ...

    @property
    def atoms(self) -> tuple[Atom, ...]: ...

    @property
    def n_worlds(self) -> int:
        """How many worlds (states) are still possible."""
        ...

    @property
    def has_actual(self) -> bool:
        """Whether the model has an actual world (a part listed for a picture may not)."""
        ...

    @property
    def capabilities(self) -> Capabilities: ...

    def values(self, formula: Formula | str) -> Values:
        """The formula's value at every world, in this model's own kind;
        :class:`~kripke.errors.TooMuchWorkError` past the budget (:mod:`kripke.budget`)."""
        ...

    def count_values(self, values: Values) -> int:
        """In how many of the possible worlds ``values`` (this model's) is true."""
        ...

    def actual_value(self, values: Values) -> bool:
        """``values`` (this model's) at the actual world."""
        ...

    def fixed_atoms(self) -> dict[Atom, bool]:
        """The atoms with one value at every world, with it (every atom, true, when there is
        no world): read in :meth:`considered`, what an agent knows of the atoms."""
        ...

    def restrict(self, values: Values) -> Self:
        """The model keeping only the worlds where ``values`` (this model's) is true (the
        actual world is not checked)."""
        ...

    def considered(self, agent: Agent) -> Self:
        """The model kept to the worlds the agent considers possible at the actual world (its
        class, or where its arrows reach), to read the atoms there."""
        ...

    def update(self, events: EventModel) -> Model:
        """The model after the change's product update, refused with
        :class:`~kripke.errors.UpdateError` if the actual event cannot happen at the actual
        world."""
        ...

    def listing(self, limit: int) -> Listing:
        """The worlds written out (:class:`Listing`);
        :class:`~kripke.errors.ModelTooLargeError` past ``limit`` worlds, before any is
        listed."""
        ...


class Questions:
    """The questions a player or a teacher asks at the actual world, written once over the
    members of :class:`Model`: a backend inherits them."""

    def holds(self, formula: Formula | str) -> bool:
        """Whether the formula is true at the actual world."""
        model = _model(self)
        return model.actual_value(model.values(formula))

    def count(self, formula: Formula | str) -> int:
        """In how many of the possible worlds the formula is true."""
        model = _model(self)
        return model.count_values(model.values(formula))

    def knows(self, agent: Agent, formula: Formula | str) -> bool:
        """K_a φ at the actual world (on a belief model: a believes φ)."""
        return self.holds(Knows(agent, as_formula(formula)))

    def knows_whether(self, agent: Agent, formula: Formula | str) -> bool:
        """K_a φ ∨ K_a ¬φ: the agent knows φ's truth value, whichever it is."""
        formula = as_formula(formula)
        return self.holds(Or(Knows(agent, formula), Knows(agent, Not(formula))))

    def known_atoms(self, agent: Agent) -> dict[Atom, bool]:
        """The atoms with one value in every world the agent considers possible at the actual
        world, with that value (where it considers none possible, it believes every atom).
        Atoms are read in :meth:`Model.considered`, a few worlds, not in the whole model."""
        return _model(self).considered(agent).fixed_atoms()

    def possible_count(self, agent: Agent) -> int:
        """How many worlds the agent considers possible at the actual world."""
        return _model(self).considered(agent).n_worlds

    def announce(self, formula: Formula | str) -> Self:
        """A truthful public announcement: the one-event change, so the model kept to where
        the formula held; refused with :class:`~kripke.errors.AnnouncementError` when false
        at the actual world (a model without one is only restricted)."""
        model = _model(self)
        formula = as_formula(formula)
        values = model.values(formula)
        if model.has_actual and not model.actual_value(values):
            raise AnnouncementError(formula)
        return cast(Self, model.restrict(values))


def _model(questions: Questions) -> Model:
    """The backend behind the questions: every class that inherits them writes
    :class:`Model`'s members."""
    return cast(Model, questions)
