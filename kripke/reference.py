"""A reference model checker that follows the textbook definitions word for word.

It turns each agent's partition (or a belief model's arrows) into explicit accessibility sets,
checks one world at a time and computes common knowledge by search. It is quadratic and slow on
purpose: the tests hold the fast array checker to it on random small models, and a logic course
can read it as the semantics.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from kripke.events.model import EventModel
from kripke.explicit.belief import BeliefModel
from kripke.explicit.model import KripkeModel
from kripke.interface import AgentIndex
from kripke.language.formula import (
    Agent,
    And,
    Announce,
    AnnounceDual,
    Atom,
    Bottom,
    Common,
    Distributed,
    Everyone,
    Formula,
    Iff,
    Implies,
    Knows,
    Not,
    Or,
    Possible,
    Top,
)


@dataclass(frozen=True)
class Structure:
    """Worlds W, an accessibility set R_a(w) per agent and world, and a valuation V(p, w)."""

    worlds: frozenset[int]
    access: dict[str, dict[int, frozenset[int]]]
    agents: tuple[Agent, ...]
    valuation: Callable[[Atom, int], bool]

    @classmethod
    def of(cls, model: KripkeModel) -> Structure:
        worlds = frozenset(range(model.n_worlds))
        access = {}
        for agent in model.agents:
            keys = model.observation(agent).tolist()
            access[str(agent)] = {
                w: frozenset(v for v in worlds if keys[v] == keys[w]) for w in worlds
            }
        values = {atom: model.atom_values(atom).tolist() for atom in model.atoms}
        return cls(worlds, access, model.agents, lambda atom, w: values[atom][w])

    @classmethod
    def of_belief(cls, model: BeliefModel) -> Structure:
        """A belief model's arrows as accessibility sets, read pair by pair."""
        worlds = frozenset(range(model.n_worlds))
        access = {}
        for agent in model.agents:
            pairs = model.arrows(agent)
            access[str(agent)] = {w: frozenset(v for u, v in pairs if u == w) for w in worlds}
        values = {atom: model.atom_values(atom).tolist() for atom in model.atoms}
        return cls(worlds, access, model.agents, lambda atom, w: values[atom][w])

    def restrict(self, keep: frozenset[int]) -> Structure:
        """M|φ: only the kept worlds, and only arrows between them."""
        access = {a: {w: r[w] & keep for w in keep} for a, r in self.access.items()}
        return Structure(keep, access, self.agents, self.valuation)

    def group(self, group: tuple[Agent, ...] | None) -> list[str]:
        if group is None:
            return [str(a) for a in self.agents]
        return [str(self.agents[i]) for i in AgentIndex(self.agents).group(group)]

    def reachable(self, w: int, group: list[str]) -> frozenset[int]:
        """Worlds reachable from w in one or more steps of any group member's relation."""
        seen: set[int] = set()
        frontier = [w]
        while frontier:
            u = frontier.pop()
            for a in group:
                for v in self.access[a][u]:
                    if v not in seen:
                        seen.add(v)
                        frontier.append(v)
        return frozenset(seen)

    def sat(self, w: int, f: Formula) -> bool:
        """M, w ⊨ f."""
        match f:
            case Top():
                return True
            case Bottom():
                return False
            case Atom():
                return self.valuation(f, w)
            case Not(g):
                return not self.sat(w, g)
            case And(parts):
                return all(self.sat(w, p) for p in parts)
            case Or(parts):
                return any(self.sat(w, p) for p in parts)
            case Implies(left, right):
                return not self.sat(w, left) or self.sat(w, right)
            case Iff(left, right):
                return self.sat(w, left) == self.sat(w, right)
            case Knows(agent, g):
                return all(self.sat(v, g) for v in self.access[str(agent)][w])
            case Possible(agent, g):
                return any(self.sat(v, g) for v in self.access[str(agent)][w])
            case Everyone(group, g):
                return all(
                    all(self.sat(v, g) for v in self.access[a][w]) for a in self.group(group)
                )
            case Distributed(group, g):
                shared = frozenset.intersection(*(self.access[a][w] for a in self.group(group)))
                return all(self.sat(v, g) for v in shared)
            case Common(group, g):
                return all(self.sat(v, g) for v in self.reachable(w, self.group(group)))
            case Announce(announcement, g):
                if not self.sat(w, announcement):
                    return True
                return self.announce(announcement).sat(w, g)
            case AnnounceDual(announcement, g):
                return self.sat(w, announcement) and self.announce(announcement).sat(w, g)
        raise TypeError(f"not a formula: {f!r}")

    def announce(self, f: Formula) -> Structure:
        return self.restrict(frozenset(w for w in self.worlds if self.sat(w, f)))

    def product(self, events: EventModel) -> tuple[Structure, list[tuple[int, str]]]:
        """M ⊗ E, the product update, by its definition: the pairs (w, e) with M, w ⊨ pre(e),
        (w, e) R_a (v, f) iff w R_a v and e R_a f (on a partition: e ~_a f),
        V(p, (w, e)) = M, w ⊨ post_e(p), which is V(p, w) for an atom e does not assign. The
        pairs are numbered 0, 1, ... in sorted order; the list says which pair each number is."""
        same = {a: {(e, f) for e in events.names for f in events.names
                    if (e, f) in events.relation(a)} for a in self.group(None)}
        pairs = sorted((w, e.name) for w in self.worlds for e in events.events
                       if self.sat(w, e.precondition))
        number = {pair: k for k, pair in enumerate(pairs)}
        access = {a: {number[(w, e)]: frozenset(number[(v, f)] for (v, f) in pairs
                                                if v in self.access[a][w] and (e, f) in same[a])
                      for (w, e) in pairs}
                  for a in self.access}
        post = {e.name: dict(e.post) for e in events.events}
        values = {(atom, k): (self.sat(w, post[e][atom]) if atom in post[e]
                              else self.valuation(atom, w))
                  for k, (w, e) in enumerate(pairs) for atom in self.atoms_of(events)}
        valuation = self.valuation
        return (Structure(frozenset(number.values()), access, self.agents,
                          lambda atom, k: values.get((atom, k),
                                                     valuation(atom, pairs[k][0]))), pairs)

    @staticmethod
    def atoms_of(events: EventModel) -> frozenset[Atom]:
        """The atoms some event assigns."""
        return frozenset(atom for e in events.events for atom, _ in e.post)


def reference_evaluate(model: KripkeModel, formula: Formula) -> list[bool]:
    """The formula's value at each world of the model, by the textbook definitions."""
    structure = Structure.of(model)
    return [structure.sat(w, formula) for w in range(model.n_worlds)]


def reference_belief(model: BeliefModel, formula: Formula) -> list[bool]:
    """The formula's value at each world of a belief model, by the textbook definitions."""
    structure = Structure.of_belief(model)
    return [structure.sat(w, formula) for w in range(model.n_worlds)]


def reference_update(model: KripkeModel | BeliefModel, events: EventModel, formula: Formula
                     ) -> dict[tuple[int, str], bool]:
    """The formula's value at each world (w, e) of the product update (w a world index of
    ``model``, e an event name), by the textbook definitions."""
    start = Structure.of(model) if isinstance(model, KripkeModel) else Structure.of_belief(model)
    product, pairs = start.product(events)
    return {pair: product.sat(k, formula) for k, pair in enumerate(pairs)}
