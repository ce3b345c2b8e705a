"""Event models as symbolic transformers (SMCDEL's ``Transformer`` of ``SMCDEL.Symbolic.K``):
an event is an assignment of new *event variables*, never a listed state.

A transformer is

* the event variables V⁺ (new atoms; an assignment of them is an event),
* a precondition over V ∪ V⁺ (which events can happen in which states; epistemic parts are
  read in the model before the event),
* assignments ``q := φ`` (factual change, φ over V ∪ V⁺, read before the event),
* per agent a relation between events: a Boolean formula over V⁺ and its primed copy
  (:func:`primed`: the event the agent considers possible), true for an agent not given one,
* the actual event (an assignment of V⁺).

:func:`of_event_model` numbers a listed event model's events with ⌈log₂|E|⌉ variables, so
every event model of :mod:`kripke.events.model` and :mod:`kripke.files.eventfile` is one; and
:func:`peek` is an event too large to list as events one by one: an agent looks at one of many
cards in secret (which card is a number in a few bits, not an event per card).
:meth:`kripke.symbolic.belief.SymbolicBeliefModel.update` applies one.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

from kripke.errors import ModelError
from kripke.events.model import EventModel
from kripke.language.formula import (
    Agent,
    And,
    Atom,
    Bottom,
    Formula,
    Iff,
    Implies,
    Not,
    Or,
    Top,
)
from kripke.symbolic.bdd import Function


def primed(atom: Atom) -> Atom:
    """The event variable's copy in a relation: the event the agent considers possible."""
    return Atom(atom.name + "'", atom.args)


@dataclass(frozen=True)
class Transformer:
    """An event model given by event variables (see the module docstring)."""

    added: tuple[Atom, ...]
    precondition: Formula
    post: tuple[tuple[Atom, Formula], ...]
    relations: tuple[tuple[Agent, Formula], ...]
    actual: tuple[tuple[Atom, bool], ...]

    def __post_init__(self) -> None:
        if len(set(self.added)) != len(self.added):
            raise ModelError("a transformer lists each event variable once")
        given = {atom for atom, _ in self.actual}
        if given != set(self.added):
            raise ModelError("the actual event gives a value to every event variable, and to "
                             "no other atom")
        changed = [atom for atom, _ in self.post]
        if len(set(changed)) != len(changed):
            raise ModelError("a transformer assigns each atom once")
        if set(changed) & set(self.added):
            raise ModelError("an assignment changes an atom of the model, not an event "
                             "variable")

    def relation(self, agent: Agent) -> Formula:
        """The agent's relation between events (⊤, every event, for an agent not given one)."""
        for named, relation in self.relations:
            if str(named) == str(agent):
                return relation
        return Top()


def code(bits: Sequence[Atom], number: int, prime: bool = False) -> Formula:
    """The conjunction saying the bits spell ``number`` (on the primed copy if asked)."""
    return And.of([(primed(b) if prime else b) if number >> i & 1 else
                   Not(primed(b) if prime else b) for i, b in enumerate(bits)])


def of_event_model(events: EventModel, bits: Sequence[Atom]) -> Transformer:
    """A listed event model as a transformer: event k is the number k in ``bits`` (as many as
    :func:`kripke.symbolic.structure.bits_for` of the events, fresh in the model), the
    precondition says which number can happen where, an atom some event assigns gets the
    value its event gives it (its own where the event leaves it), and an agent's relation
    lists its arrows between numbers (⊤ when it relates every event to every one)."""
    names = events.names
    pre = Or.of([And(code(bits, k), e.precondition) for k, e in enumerate(events.events)])
    changed = list(dict.fromkeys(atom for e in events.events for atom, _ in e.post))
    post = tuple((atom, Or.of([And(code(bits, k), dict(e.post).get(atom, atom))
                               for k, e in enumerate(events.events)])) for atom in changed)
    everything = {(e, f) for e in names for f in names}
    relations = []
    for agent in events.agents:
        pairs = events.relation(agent)
        if pairs != everything:
            relations.append((agent, Or.of([And(code(bits, names.index(e)),
                                                code(bits, names.index(f), prime=True))
                                            for e, f in sorted(pairs)])))
    chosen = names.index(events.actual)
    return Transformer(tuple(bits), pre, post, tuple(relations),
                       tuple((b, bool(chosen >> i & 1)) for i, b in enumerate(bits)))


def peek(agent: Agent, cards: Sequence[Atom | str], shown: Atom | str, others: Iterable[Agent],
         name: str = "peek") -> Transformer:
    """``agent`` looks in secret at one of ``cards`` (atoms: a card another player holds), and
    the ``others`` believe nothing happened: the card looked at is a number in ⌈log₂ n⌉ event
    variables plus one that says whether a look happened at all, so n cards are one
    transformer of a few variables instead of n + 1 listed events. The agent tells every
    event apart; each other agent's arrows lead to "no look". ``shown`` is the card looked
    at; ``name`` names the event variables (pick one no atom of the model has)."""
    atoms = [card if isinstance(card, Atom) else Atom(card) for card in cards]
    looked = shown if isinstance(shown, Atom) else Atom(shown)
    if looked not in atoms:
        raise ModelError(f"the card looked at, {looked}, is not one of the cards")
    bits = [Atom(name, (i,)) for i in range(max(len(atoms) - 1, 0).bit_length())]
    happens = Atom(name, ("look",))
    pre = Or(And(Not(happens), code(bits, 0)),
             And(happens, Or.of([And(code(bits, k), card) for k, card in enumerate(atoms)])))
    same = And.of([Iff(b, primed(b)) for b in [happens, *bits]])
    nothing = And(Not(primed(happens)), And.of([Not(primed(b)) for b in bits]))
    relations = ((agent, same), *((other, nothing) for other in others
                                  if str(other) != str(agent)))
    k = atoms.index(looked)
    return Transformer((happens, *bits), pre, (), relations,
                       ((happens, True), *((b, bool(k >> i & 1)) for i, b in enumerate(bits))))


def boolean(formula: Formula, var: Callable[[Atom], Function], true: Function,
            false: Function) -> Function:
    """A Boolean formula (no modality) as a diagram, ``var`` giving each atom's: how an event
    relation, which speaks of event variables and their primed copies, is built."""
    match formula:
        case Top():
            return true
        case Bottom():
            return false
        case Atom():
            return var(formula)
        case Not(g):
            return ~boolean(g, var, true, false)
        case And(parts):
            result = true
            for part in parts:
                result = result & boolean(part, var, true, false)
            return result
        case Or(parts):
            result = false
            for part in parts:
                result = result | boolean(part, var, true, false)
            return result
        case Implies(left, right):
            return boolean(left, var, true, false).implies(boolean(right, var, true, false))
        case Iff(left, right):
            return boolean(left, var, true, false).equiv(boolean(right, var, true, false))
    raise ModelError(f"an event relation is a Boolean formula of event variables, not "
                     f"{formula}")

