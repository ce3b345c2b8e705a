"""A reference model checker that follows the textbook definitions word for word.

It turns each agent's partition (or a belief model's arrows) into explicit accessibility sets,
a plausibility model's order into the set of pairs u ≤ v (u at least as plausible as v), checks
one world at a time and computes common knowledge by search; a public announcement keeps the
worlds where the formula held, an event model makes the product by its definition, and the
upgrades and the priority update are written on those pairs, from Baltag and Smets'
definitions. Nothing is shared with the backends but the formulas and the models it reads.

It is slow on purpose (each world's value of each subformula once, kept; a relation read pair
by pair), so it reads models of at most :data:`REFERENCE_LIMIT` worlds. Two readers: a logic
course reads it as the semantics, and ``ttr-kripke model FILE --reference`` replays a user's
steps on it and says whether each answer agrees with the backend's; the conformance suite
(``tests/test_conformance.py``) holds every backend of :mod:`kripke.backends` to it on random
models, formulas and events.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, replace

from kripke.errors import ModelError
from kripke.events.model import EventModel
from kripke.explicit.plausibility import Upgrade, event_ranks
from kripke.interface import AgentIndex
from kripke.kernel import Model
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

#: The most worlds the reference reads (a model, or a product of events it makes): past it a
#: common knowledge over a full class asks for tens of millions of steps in plain Python.
REFERENCE_LIMIT = 300

#: The upgrades written on pairs here; the rank shift counts ranks, which pairs do not hold.
UPGRADES = ("radical", "conservative")


@dataclass(frozen=True)
class Structure:
    """Worlds W, an accessibility set R_a(w) per agent and world, a valuation V(p, w), an
    actual world (or None) and, for a plausibility model, each agent's order ≤_a as pairs
    (None: within what an agent considers possible every world is as plausible as every
    other, so belief is knowledge). Each world's value of each formula is worked out once."""

    worlds: frozenset[int]
    access: dict[str, dict[int, frozenset[int]]]
    agents: tuple[Agent, ...]
    valuation: Callable[[Atom, int], bool]
    order: Order | None = None
    actual: int | None = None
    _known: dict[tuple[int, Formula], bool] = field(default_factory=dict, init=False,
                                                    compare=False, repr=False)
    _announced: dict[Formula, Structure] = field(default_factory=dict, init=False,
                                                 compare=False, repr=False)
    _leq: dict[str, frozenset[tuple[int, int]]] = field(default_factory=dict, init=False,
                                                        compare=False, repr=False)

    @classmethod
    def of(cls, model: Model) -> Structure:
        """A listed model as the definitions read it, from its listing (:mod:`kripke.kernel`):
        each agent's arrows (a partition's join every two worlds of a class), the atoms true
        at each world and, on a plausibility model, the order its levels give within each
        class. Refused past :data:`REFERENCE_LIMIT` worlds."""
        if model.n_worlds > REFERENCE_LIMIT:
            raise ModelError(f"the reference checker reads at most {REFERENCE_LIMIT} worlds and "
                             f"this model has {model.n_worlds:,}; check it without it")
        listing = model.listing(REFERENCE_LIMIT)
        worlds = frozenset(range(listing.n_worlds))
        access = {str(agent): {w: frozenset(reached) for w, reached
                               in enumerate(listing.reached(k))}
                  for k, agent in enumerate(listing.agents)}
        true = listing.true
        plain = cls(worlds, access, listing.agents, lambda atom, w: atom in true[w],
                    actual=listing.actual)
        if listing.levels is None:
            return plain
        order = {}  # u ≤_a v for u, v of a class where u's level is at most v's
        for agent, levels in zip(listing.agents, listing.levels, strict=True):
            classes = access[str(agent)]
            order[str(agent)] = frozenset((u, v) for v in worlds for u in classes[v]
                                          if levels[u] <= levels[v])
        return replace(plain, order=order)

    @property
    def n_worlds(self) -> int:
        return len(self.worlds)

    def leq(self, agent: str) -> frozenset[tuple[int, int]]:
        """≤_a: the given order, or every pair the agent's relation joins."""
        if self.order is not None:
            return self.order[agent]
        known = self._leq.get(agent)
        if known is None:
            known = self._leq[agent] = frozenset((u, v) for v in self.worlds
                                                 for u in self.access[agent][v])
        return known

    def best(self, agent: str, among: frozenset[int]) -> frozenset[int]:
        """The most plausible of ``among`` (worlds the agent considers possible): those at
        least as plausible as every one of them; all of them without an order."""
        if self.order is None:
            return among
        leq = self.order[agent]
        return frozenset(v for v in among if all((v, u) in leq for u in among))

    def restrict(self, keep: frozenset[int]) -> Structure:
        """M|φ: only the kept worlds, and only arrows between them."""
        access = {a: {w: r[w] & keep for w in keep} for a, r in self.access.items()}
        order = None if self.order is None else \
            {a: frozenset((u, v) for u, v in pairs if u in keep and v in keep)
             for a, pairs in self.order.items()}
        return Structure(keep, access, self.agents, self.valuation, order,
                         self.actual if self.actual in keep else None)

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
                new = self.access[a][u] - seen
                seen |= new
                frontier.extend(new)
        return frozenset(seen)

    def sat(self, w: int, f: Formula) -> bool:
        """M, w ⊨ f (worked out once per world and formula)."""
        known = self._known.get((w, f))
        if known is None:
            known = self._known[w, f] = self._sat(w, f)
        return known

    def _sat(self, w: int, f: Formula) -> bool:
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
                leq = self.leq(str(agent))
                above = [v for v in self.access[str(agent)][w] if (v, w) in leq]
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

    def values(self, formula: Formula) -> list[bool]:
        """The formula's value at each world, in the worlds' order."""
        return [self.sat(w, formula) for w in sorted(self.worlds)]

    def holds(self, formula: Formula) -> bool:
        """The formula at the actual world."""
        if self.actual is None:
            raise ModelError("the model has no actual world")
        return self.sat(self.actual, formula)

    def count(self, formula: Formula) -> int:
        """In how many worlds the formula holds."""
        return sum(self.values(formula))

    def announce(self, f: Formula) -> Structure:
        """The public announcement of f: the worlds where it held (the actual world is not
        checked; it is None if f was false there)."""
        known = self._announced.get(f)
        if known is None:
            known = self._announced[f] = \
                self.restrict(frozenset(w for w in self.worlds if self.sat(w, f)))
        return known

    def update(self, events: EventModel) -> tuple[Structure, list[tuple[int, str]]]:
        """The model after an event and, for each of its worlds in turn, the (world here,
        event) it stands for: an upgrade (:meth:`upgrade`; the worlds stay), else the product
        (:meth:`product`), ordered by the priority update when either side has an order."""
        if isinstance(events, Upgrade):
            return (self.upgrade(events.kind, events.formula),
                    [(w, events.kind) for w in sorted(self.worlds)])
        product, pairs = self.product(events)
        if self.order is None and not events.reorders:
            return product, pairs
        return replace(product, order=self.priority(product, pairs, events)), pairs

    def product(self, events: EventModel) -> tuple[Structure, list[tuple[int, str]]]:
        """M ⊗ E, the product update, by its definition: the pairs (w, e) with M, w ⊨ pre(e),
        (w, e) R_a (v, f) iff w R_a v and e R_a f (on a partition: e ~_a f),
        V(p, (w, e)) = M, w ⊨ post_e(p), which is V(p, w) for an atom e does not assign. The
        pairs are numbered 0, 1, ... in sorted order; the list says which pair each number is."""
        same = {a: {(e, f) for e in events.names for f in events.names
                    if (e, f) in events.relation(a)} for a in self.group(None)}
        pairs = sorted((w, e.name) for w in self.worlds for e in events.events
                       if self.sat(w, e.precondition))
        if len(pairs) > REFERENCE_LIMIT:
            raise ModelError(f"the reference checker reads at most {REFERENCE_LIMIT} worlds and "
                             f"this event makes {len(pairs):,}; check it without it")
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
        actual = number.get((self.actual, events.actual)) if self.actual is not None else None
        return (Structure(frozenset(number.values()), access, self.agents,
                          lambda atom, k: values.get((atom, k),
                                                     valuation(atom, pairs[k][0])),
                          actual=actual), pairs)

    @staticmethod
    def atoms_of(events: EventModel) -> frozenset[Atom]:
        """The atoms some event assigns."""
        return frozenset(atom for e in events.events for atom, _ in e.post)

    def priority(self, product: Structure, pairs: list[tuple[int, str]], events: EventModel
                 ) -> Order:
        """Each agent's order on the product (Baltag and Smets' priority update):
        (u, e) ≤ (v, f) iff the pairs are alike to the agent and e < f strictly, or e and f
        are equally plausible and u ≤ v."""
        order = {}
        for agent in self.agents:
            a = str(agent)
            rank = dict(zip(events.names, event_ranks(events, agent), strict=True))
            leq = self.leq(a)
            order[a] = frozenset(
                (k, m) for m in product.worlds for k in product.access[a][m]
                if rank[pairs[k][1]] < rank[pairs[m][1]] or
                (rank[pairs[k][1]] == rank[pairs[m][1]] and (pairs[k][0], pairs[m][0]) in leq))
        return order

    def upgrade(self, kind: str, formula: Formula) -> Structure:
        """The same worlds, each agent's order after the radical (⇑φ) or conservative (↑φ)
        upgrade, from the definitions: radical, u ≤' v iff u ~ v and (φ(u) and not φ(v), or
        φ(u) = φ(v) and u ≤ v); conservative, with B the most plausible φ-worlds of the class,
        u ≤' v iff u ~ v and (u ∈ B, or v ∉ B and u ≤ v)."""
        if kind not in UPGRADES:
            raise ModelError(f"the reference checker writes orders as pairs and has no {kind} "
                             f"upgrade (it has {', '.join(UPGRADES)}); check it without it")
        phi = {w: self.sat(w, formula) for w in self.worlds}
        order = {}
        for a, classes in self.access.items():
            leq = self.leq(a)
            pairs = set()
            for v in self.worlds:
                best = self.best(a, frozenset(u for u in classes[v] if phi[u]))
                for u in classes[v]:
                    if kind == "radical":
                        keep = (phi[u] and not phi[v]) or (phi[u] == phi[v] and (u, v) in leq)
                    else:
                        keep = u in best or (v not in best and (u, v) in leq)
                    if keep:
                        pairs.add((u, v))
            order[a] = frozenset(pairs)
        return Structure(self.worlds, self.access, self.agents, self.valuation, order,
                         self.actual)
