"""Edits a teacher makes on the picture of a small hand-written model: add or remove a world,
toggle an atom in worlds, join or split worlds for an agent, choose the actual world.

Pure Python, no Solara: a ``Draft`` is the model as plain values (names, atoms true, each
agent's class per world), each edit returns a new draft, and ``Draft.text()`` writes it in the
model format with ``kripke.dump_model``, so the page's text box always holds what the picture
shows and the format stays the one source of truth (the page reads the text back).
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass, replace

from kripke import KripkeModel, NamedModel, dump_model
from kripke.errors import ModelError

#: The most worlds the page offers to edit by clicking (beyond it: the text).
EDIT_LIMIT = 16


@dataclass(frozen=True)
class Draft:
    """A model as values: world ``i`` is ``names[i]`` with ``true[i]`` true; ``classes[k][i]``
    is agent ``agents[k]``'s class of world ``i`` (equal numbers: cannot tell apart)."""

    agents: tuple[str, ...]
    atoms: tuple[str, ...]
    names: tuple[str, ...]
    true: tuple[frozenset[str], ...]
    classes: tuple[tuple[int, ...], ...]
    actual: int

    @classmethod
    def of(cls, model: KripkeModel) -> Draft:
        """The draft of a model (its worlds named as a ``NamedModel`` names them, else ``w``
        and the world id)."""
        n = model.n_worlds
        names = tuple(model.world_name(i) if isinstance(model, NamedModel)
                      else f"w{int(model.world_ids[i])}" for i in range(n))
        values = {str(a): model.atom_values(a) for a in model.atoms}
        true = tuple(frozenset(a for a, v in values.items() if v[i]) for i in range(n))
        classes = tuple(tuple(int(k) for k in model.observation(a).tolist())
                        for a in model.agents)
        return cls(tuple(str(a) for a in model.agents), tuple(values), names, true, classes,
                   model.actual if model.actual is not None else 0)

    def model(self) -> NamedModel:
        return NamedModel.named(KripkeModel.from_worlds(
            [set(t) for t in self.true],
            {a: list(keys) for a, keys in zip(self.agents, self.classes, strict=True)},
            actual=self.actual, atoms=list(self.atoms)), self.names)

    def text(self) -> str:
        return dump_model(self.model())

    def _index(self, name: str) -> int:
        if name not in self.names:
            raise ModelError(f"no world {name!r}; pick one of {', '.join(self.names)}")
        return self.names.index(name)

    def _agent(self, agent: str) -> int:
        if agent not in self.agents:
            raise ModelError(f"no agent {agent!r}; pick one of {', '.join(self.agents)}")
        return self.agents.index(agent)

    def add_world(self) -> Draft:
        """A new world, no atom true, that every agent tells from every other world."""
        k = len(self.names) + 1
        while f"w{k}" in self.names:
            k += 1
        fresh = tuple(tuple(keys) + (max(keys, default=-1) + 1,) for keys in self.classes)
        return replace(self, names=(*self.names, f"w{k}"), true=(*self.true, frozenset()),
                       classes=fresh)

    def remove(self, worlds: Collection[str]) -> Draft:
        """Without these worlds (the actual world stays: choose another first)."""
        gone = {self._index(w) for w in worlds}
        if self.actual in gone:
            raise ModelError(f"{self.names[self.actual]} is the actual world; make another "
                             "world actual before removing it")
        keep = [i for i in range(len(self.names)) if i not in gone]
        return replace(self, names=tuple(self.names[i] for i in keep),
                       true=tuple(self.true[i] for i in keep),
                       classes=tuple(tuple(keys[i] for i in keep) for keys in self.classes),
                       actual=keep.index(self.actual))

    def toggle(self, atom: str, worlds: Collection[str]) -> Draft:
        """``atom`` flipped in each of ``worlds`` (true where it was false, and back)."""
        if atom not in self.atoms:
            raise ModelError(f"no atom {atom!r}; add it in the text ('atoms: ...') first")
        flip = {self._index(w) for w in worlds}
        return replace(self, true=tuple(t ^ {atom} if i in flip else t
                                        for i, t in enumerate(self.true)))

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

    def make_actual(self, world: str) -> Draft:
        return replace(self, actual=self._index(world))


def _with(classes: tuple[tuple[int, ...], ...], k: int, new: tuple[int, ...]
          ) -> tuple[tuple[int, ...], ...]:
    return tuple(new if j == k else keys for j, keys in enumerate(classes))
