"""A reference model checker that follows the textbook definitions word for word.

It turns each agent's partition (or a belief model's arrows) into explicit accessibility sets,
a plausibility model's order into the set of pairs u ≤ v (u at least as plausible as v), checks
one world at a time and computes common knowledge by search; the upgrades and the priority
update are written on those pairs, from Baltag and Smets' definitions. It is quadratic and slow on
purpose: the tests hold the fast array checker to it on random small models, and a logic course
can read it as the semantics.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace

from kripke.events.model import EventModel
from kripke.explicit.belief import BeliefModel
from kripke.explicit.model import KripkeModel
from kripke.explicit.plausibility import PlausibilityModel, event_ranks
from kripke.interface import AgentIndex
from kripke.language.formula import (
    Agent,
    And,
    Announce,
    AnnounceDual,
    Atom,
    BelievedPossible,
    Believes,
    Bottom,
    Common,
    ConditionalBelief,
    ConditionalPossible,
    Distributed,
    Everyone,
    Formula,
    Iff,
    Implies,
    Knows,
    Not,
    Or,
    Possible,
    SafeBelief,
    SafePossible,
    Top,
)

#: Per agent, the pairs (u, v) with u at least as plausible as v (within a class).
type Order = dict[str, frozenset[tuple[int, int]]]


@dataclass(frozen=True)
class Structure:
    """Worlds W, an accessibility set R_a(w) per agent and world, a valuation V(p, w) and,
    for a plausibility model, each agent's order ≤_a as pairs (None: within a class every
    world is as plausible as every other)."""

    worlds: frozenset[int]
    access: dict[str, dict[int, frozenset[int]]]
    agents: tuple[Agent, ...]
    valuation: Callable[[Atom, int], bool]
    order: Order | None = None

    @classmethod
    def of_plausibility(cls, model: PlausibilityModel) -> Structure:
        """A plausibility model: its classes, and u ≤_a v for u, v of a class where u's rank
        is at most v's."""
        plain = cls.of(model)
        order = {}
        for agent in model.agents:
            ranks = model.ranks(agent).tolist()
            classes = plain.access[str(agent)]
            order[str(agent)] = frozenset((u, v) for v in plain.worlds for u in classes[v]
                                          if ranks[u] <= ranks[v])
        return replace(plain, order=order)

    def leq(self, agent: str) -> frozenset[tuple[int, int]]:
        """≤_a: the given order, or every pair of a class."""
        if self.order is not None:
            return self.order[agent]
        return frozenset((u, v) for v in self.worlds for u in self.access[agent][v])

    def best(self, agent: str, among: frozenset[int]) -> frozenset[int]:
        """The most plausible of ``among`` (worlds of one class): those at least as plausible
        as every one of them."""
        leq = self.leq(agent)
        return frozenset(v for v in among if all((v, u) in leq for u in among))

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
        order = None if self.order is None else \
            {a: frozenset((u, v) for u, v in pairs if u in keep and v in keep)
             for a, pairs in self.order.items()}
        return Structure(keep, access, self.agents, self.valuation, order)

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
            case ConditionalBelief(agent) | ConditionalPossible(agent):
                assert isinstance(f, ConditionalBelief | ConditionalPossible)
                condition, body = f.condition, f.consequent
                where = frozenset(v for v in self.access[str(agent)][w]
                                  if self.sat(v, condition))
                best = self.best(str(agent), where)
                if isinstance(f, ConditionalBelief):
                    return all(self.sat(v, body) for v in best)
                return any(self.sat(v, body) for v in best)
            case Believes(agent, g):
                return all(self.sat(v, g) for v in self.best(str(agent),
                                                             self.access[str(agent)][w]))
            case BelievedPossible(agent, g):
                return any(self.sat(v, g) for v in self.best(str(agent),
                                                             self.access[str(agent)][w]))
            case SafeBelief(agent, g) | SafePossible(agent, g):
                above = [v for v in self.access[str(agent)][w] if (v, w) in self.leq(str(agent))]
                if isinstance(f, SafeBelief):
                    return all(self.sat(v, g) for v in above)
                return any(self.sat(v, g) for v in above)
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


def reference_upgrade(model: PlausibilityModel, kind: str, formula: Formula) -> Order:
    """Each agent's order after the radical (⇑φ) or conservative (↑φ) upgrade, as pairs, from
    the definitions: radical, u ≤' v iff u ~ v and (φ(u) and not φ(v), or φ(u) = φ(v) and
    u ≤ v); conservative, with B the most plausible φ-worlds of the class, u ≤' v iff u ~ v
    and (u ∈ B, or v ∉ B and u ≤ v)."""
    structure = Structure.of_plausibility(model)
    phi = {w: structure.sat(w, formula) for w in structure.worlds}
    order = {}
    for a, classes in structure.access.items():
        leq = structure.leq(a)
        pairs = set()
        for v in structure.worlds:
            best = structure.best(a, frozenset(u for u in classes[v] if phi[u]))
            for u in classes[v]:
                if kind == "radical":
                    keep = (phi[u] and not phi[v]) or (phi[u] == phi[v] and (u, v) in leq)
                else:
                    keep = u in best or (v not in best and (u, v) in leq)
                if keep:
                    pairs.add((u, v))
        order[a] = frozenset(pairs)
    return order


def reference_priority(model: PlausibilityModel, events: EventModel
                       ) -> tuple[Order, list[tuple[int, str]]]:
    """Each agent's order on the product with an ordered event model (Baltag and Smets'
    priority update): (u, e) ≤ (v, f) iff the pairs are alike to the agent and e < f
    strictly, or e and f are equally plausible and u ≤ v. The pairs are numbered as
    :meth:`Structure.product` numbers them."""
    start = Structure.of_plausibility(model)
    product, pairs = start.product(events)
    order = {}
    for agent in model.agents:
        a = str(agent)
        rank = dict(zip(events.names, event_ranks(events, agent), strict=True))
        leq = start.leq(a)
        order[a] = frozenset(
            (k, m) for m in product.worlds for k in product.access[a][m]
            if rank[pairs[k][1]] < rank[pairs[m][1]] or
            (rank[pairs[k][1]] == rank[pairs[m][1]] and (pairs[k][0], pairs[m][0]) in leq))
    return order, pairs


def reference_plausibility(model: PlausibilityModel, formula: Formula) -> list[bool]:
    """The formula's value at each world of a plausibility model, by the definitions."""
    structure = Structure.of_plausibility(model)
    return [structure.sat(w, formula) for w in range(model.n_worlds)]
