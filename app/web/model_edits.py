"""Edits a teacher makes on the picture of a small hand-written model: add or remove a world,
toggle an atom in worlds, choose the actual world; join or split worlds for an agent of an S5
model, add or remove an agent's arrow between two worlds of a belief model.

Pure Python, no Solara: a ``Draft`` (S5: each agent's class per world) or a ``BeliefDraft``
(each agent's arrows) is the model as plain values, each edit returns a new draft, and
``text()`` writes it in the model format with ``kripke.dump_model``, so the page's text box
always holds what the picture shows and the format stays the one source of truth (the page
reads the text back).
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Collection
from dataclasses import dataclass, replace
from typing import Self

from kripke import dump_model
from kripke.errors import ModelError
from kripke.factory import arrows_model, partition_model
from kripke.kernel import Listing
from kripke.parts import Drawn, Partitioned

#: The most worlds the page offers to edit by clicking (beyond it: the text).
EDIT_LIMIT = 16


@dataclass(frozen=True)
class _Worlds(ABC):
    """What both kinds of draft hold besides the agents' relations: world ``i`` is
    ``names[i]`` with ``true[i]`` true, and the edits of worlds and atoms."""

    agents: tuple[str, ...]
    atoms: tuple[str, ...]
    names: tuple[str, ...]
    true: tuple[frozenset[str], ...]
    actual: int

    @abstractmethod
    def model(self) -> Drawn:
        """The model the draft describes."""

    def text(self) -> str:
        return dump_model(self.model())

    @abstractmethod
    def _grown(self) -> Self:
        """The draft with its relations grown by one world, the last (the names not yet)."""

    @abstractmethod
    def _kept(self, keep: list[int]) -> Self:
        """The draft with the relations of the worlds ``keep`` (old indices, in order)
        alone (the names not yet)."""

    def _index(self, name: str) -> int:
        if name not in self.names:
            raise ModelError(f"no world {name!r}; pick one of {', '.join(self.names)}")
        return self.names.index(name)

    def _agent(self, agent: str) -> int:
        if agent not in self.agents:
            raise ModelError(f"no agent {agent!r}; pick one of {', '.join(self.agents)}")
        return self.agents.index(agent)

    def add_world(self) -> Self:
        """A new world, no atom true, that every agent tells from every other world."""
        k = len(self.names) + 1
        while f"w{k}" in self.names:
            k += 1
        return replace(self._grown(), names=(*self.names, f"w{k}"),
                       true=(*self.true, frozenset()))

    def remove(self, worlds: Collection[str]) -> Self:
        """Without these worlds (the actual world stays: choose another first)."""
        gone = {self._index(w) for w in worlds}
        if self.actual in gone:
            raise ModelError(f"{self.names[self.actual]} is the actual world; make another "
                             "world actual before removing it")
        keep = [i for i in range(len(self.names)) if i not in gone]
        return replace(self._kept(keep), names=tuple(self.names[i] for i in keep),
                       true=tuple(self.true[i] for i in keep), actual=keep.index(self.actual))

    def toggle(self, atom: str, worlds: Collection[str]) -> Self:
        """``atom`` flipped in each of ``worlds`` (true where it was false, and back)."""
        if atom not in self.atoms:
            raise ModelError(f"no atom {atom!r}; add it in the text ('atoms: ...') first")
        flip = {self._index(w) for w in worlds}
        return replace(self, true=tuple(t ^ {atom} if i in flip else t
                                        for i, t in enumerate(self.true)))

    def make_actual(self, world: str) -> Self:
        return replace(self, actual=self._index(world))


@dataclass(frozen=True)
class Draft(_Worlds):
    """An S5 model as values: ``classes[k][i]`` is agent ``agents[k]``'s class of world ``i``
    (equal numbers: cannot tell apart)."""

    classes: tuple[tuple[int, ...], ...] = ()

    @classmethod
    def of(cls, model: Partitioned) -> Draft:
        """The draft of a model, read from its listing (its worlds named as the model names
        them, else ``w`` and the world id), each agent's classes by its keys."""
        listing = model.listing(model.n_worlds)
        classes = tuple(tuple(int(k) for k in model.observation(a).tolist())
                        for a in listing.agents)
        return cls(*_listed(listing), classes)

    def model(self) -> Partitioned:
        return partition_model(
            [set(t) for t in self.true], dict(zip(self.agents, self.classes, strict=True)),
            self.actual, atoms=self.atoms, names=self.names)

    def _grown(self) -> Draft:
        return replace(self, classes=tuple(tuple(keys) + (max(keys, default=-1) + 1,)
                                           for keys in self.classes))

    def _kept(self, keep: list[int]) -> Draft:
        return replace(self, classes=tuple(tuple(keys[i] for i in keep)
                                           for keys in self.classes))

    def join(self, agent: str, worlds: Collection[str]) -> Draft:
        """``agent`` can no longer tell these worlds apart: their classes become one."""
        k = self._agent(agent)
        keys = self.classes[k]
        merged = {keys[self._index(w)] for w in worlds}
        into = min(merged, default=0)
        new = tuple(into if key in merged else key for key in keys)
        return replace(self, classes=_with(self.classes, k, new))

    def split(self, agent: str, worlds: Collection[str]) -> Draft:
        """``agent`` tells these worlds from the rest of their classes: they leave them and
        form one class together (a single world: a class of its own)."""
        k = self._agent(agent)
        keys = self.classes[k]
        moved = {self._index(w) for w in worlds}
        fresh = max(keys, default=-1) + 1
        new = tuple(fresh if i in moved else key for i, key in enumerate(keys))
        return replace(self, classes=_with(self.classes, k, new))


type Arrows = frozenset[tuple[int, int]]


@dataclass(frozen=True)
class BeliefDraft(_Worlds):
    """A belief model as values: ``arrows[k]`` holds agent ``agents[k]``'s arrows as pairs
    of world indices (from ``i``, it considers ``j`` possible). Written back, an agent whose
    arrows make a partition is written as classes (``dump_model``)."""

    arrows: tuple[Arrows, ...] = ()

    @classmethod
    def of(cls, model: Drawn) -> BeliefDraft:
        """The draft of a model, read from its listing (its worlds named as the model names
        them)."""
        listing = model.listing(model.n_worlds)
        return cls(*_listed(listing), tuple(frozenset(arrows) for arrows in listing.arrows))

    def model(self) -> Drawn:
        return arrows_model([set(t) for t in self.true],
                            {a: sorted(pairs) for a, pairs in
                             zip(self.agents, self.arrows, strict=True)},
                            self.actual, atoms=self.atoms, names=self.names)

    def _grown(self) -> BeliefDraft:
        """The new world is possible from itself alone, for every agent (a loop: there each
        believes what holds there, not everything)."""
        n = len(self.names)
        return replace(self, arrows=tuple(pairs | {(n, n)} for pairs in self.arrows))

    def _kept(self, keep: list[int]) -> BeliefDraft:
        new = {old: i for i, old in enumerate(keep)}
        return replace(self, arrows=tuple(
            frozenset((new[a], new[b]) for a, b in pairs if a in new and b in new)
            for pairs in self.arrows))

    def add_arrow(self, agent: str, source: str, target: str) -> BeliefDraft:
        """``agent`` considers ``target`` possible from ``source``."""
        k, pair = self._agent(agent), (self._index(source), self._index(target))
        if pair in self.arrows[k]:
            raise ModelError(f"{agent} already has an arrow from {source} to {target}")
        return replace(self, arrows=_with(self.arrows, k, self.arrows[k] | {pair}))

    def remove_arrow(self, agent: str, source: str, target: str) -> BeliefDraft:
        """``agent`` no longer considers ``target`` possible from ``source`` (its last arrow
        from there: there it then believes everything, as the caption says)."""
        k, pair = self._agent(agent), (self._index(source), self._index(target))
        if pair not in self.arrows[k]:
            raise ModelError(f"{agent} has no arrow from {source} to {target}")
        return replace(self, arrows=_with(self.arrows, k, self.arrows[k] - {pair}))


def _with[T](items: tuple[T, ...], k: int, new: T) -> tuple[T, ...]:
    return tuple(new if j == k else old for j, old in enumerate(items))


def _listed(listing: Listing) -> tuple[tuple[str, ...], tuple[str, ...], tuple[str, ...],
                                       tuple[frozenset[str], ...], int]:
    """A draft's agents, atoms, world names, atoms true per world and actual world, read
    from a model's listing (no actual world: the first)."""
    return (tuple(str(a) for a in listing.agents), tuple(str(a) for a in listing.atoms),
            listing.names, tuple(frozenset(str(a) for a in true) for true in listing.true),
            listing.actual if listing.actual is not None else 0)
