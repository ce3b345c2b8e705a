"""Event models: what happens when not everyone learns the same thing (S5 action models).

A public announcement tells everyone the same fact. Often an event is *semi-private*: Alice
reads a letter while Bob watches her read it; Anne shows Bill a card and Cath sees that a card
was shown, not which. Baltag, Moss and Solecki's event models (action models) describe such an
event as

* a set of events, each with a **precondition** (a formula: the event can happen in a world
  exactly when its precondition holds there),
* for each agent a **partition** of the events: the events it cannot tell apart,
* the **actual** event.

The update is the *product update*: the new worlds are the pairs (w, e) of an old world and an
event whose precondition holds at w; an atom is true at (w, e) when it was true at w (events
change what agents know, not the facts), and (w, e) ~a (v, f) exactly when w ~a v and e ~a f.
The actual world becomes (actual world, actual event). When every agent's relation on the
events is a partition, the product of two partitions is a partition: the updated model is
again S5, which the array checker relies on. An event may also have **arrows** for an agent
instead of a partition ("Bob wrongly believes nothing happened": his arrows lead to ``skip``)
and **assignments** ``p := φ`` (factual change, φ read in the world before); an S5 model meets
arrows by becoming a :class:`kripke.explicit.belief.BeliefModel`, and the ready-made events at the
end
(private announcement, secret look, secret flip, public assignment) build the usual cases.

An agent the event model does not mention cannot tell any of its events apart: "the others
see that something happened, not what". A one-event model whose event has precondition φ is
the public announcement of φ.

Both backends update: :meth:`kripke.explicit.model.KripkeModel.update` (explicitly, world by world)
and
:meth:`kripke.symbolic.structure.SymbolicModel.update` (as SMCDEL's knowledge transformers); the
tests
hold both to the textbook definition in :mod:`kripke.reference`. The ready-made events below
build the common cases; :func:`kripke.files.eventfile.parse_event_model` reads one written by hand.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Protocol, runtime_checkable

from kripke.errors import ModelError
from kripke.language.formula import Agent, Atom, Formula, Not, Top
from kripke.language.names import AGENT
from kripke.language.parser import parse

#: How an event is named, so that an event model's text reads back (an agent:
#: kripke.language.names).
EVENT_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_']*")


@dataclass(frozen=True)
class Event:
    """One event: a name, the precondition under which it can happen and, for factual change,
    its assignments ``p := φ`` (van Ditmarsch, van der Hoek and Kooi's postconditions; φ is
    evaluated in the world before the event, and an atom not assigned keeps its value)."""

    name: str
    precondition: Formula
    post: tuple[tuple[Atom, Formula], ...] = ()


class EventModelError(ModelError):
    """An event model that cannot be: ``about`` says which name the mistake is about (a
    key such as ``("event", name)`` or ``("member", agent, name)``), so that a reader of a
    text places it where that name is written; the message is the problem and the fix."""

    def __init__(self, message: str, about: tuple[str, ...]) -> None:
        self.about = about
        super().__init__(message)


@dataclass(frozen=True)
class EventModel:
    """Events, each agent's partition of them (by event name) and the actual event.

    Build one with :meth:`of`; the constructor checks that names are unique, that each listed
    partition covers every event exactly once, and that the actual event exists.
    """

    events: tuple[Event, ...]
    #: (agent, its classes of event names), for the agents that tell some events apart or are
    #: named; any other agent sees one class of all the events.
    partitions: tuple[tuple[Agent, tuple[tuple[str, ...], ...]], ...]
    actual: str
    #: (agent, its arrows (e, f): at e the agent considers f possible), for agents whose view
    #: of the events is no partition ("b believes nothing happened"); such an agent has no
    #: partition. An event with no arrow for the agent leaves it believing nothing possible.
    arrows: tuple[tuple[Agent, tuple[tuple[str, str], ...]], ...] = ()

    def __post_init__(self) -> None:
        """The one check of an event model, made wherever one is built (a file's reader
        places each :class:`EventModelError` at the name it is ``about``)."""
        names = [e.name for e in self.events]
        events = ", ".join(names)
        if not names:
            raise EventModelError("an event model needs at least one event; give it one", ())
        for name in names:  # what the text syntax reads, so that str() reads back
            if not EVENT_NAME.fullmatch(name):
                raise EventModelError(f"event name {name!r}: use letters, digits, _ and ', "
                                      "starting with a letter", ("event", name))
        if len(set(names)) != len(names):
            twice = next(n for n in names if names.count(n) > 1)
            raise EventModelError(f"two events are both named {twice!r}; give one another "
                                  "name", ("event", twice))
        if self.actual not in names:
            raise EventModelError(f"no event is named {self.actual!r}, the actual event; the "
                                  f"events are {events}", ("actual", self.actual))
        seen_agents: set[str] = set()
        for agent, classes in self.partitions:
            if str(agent) in ("event", "actual") or not AGENT.fullmatch(str(agent)):
                raise EventModelError(f"agent {agent!r} cannot be written in an event model's "
                                      "text: name agents by identifiers or numbers, not 'event' "
                                      "or 'actual'", ("agent", str(agent)))
            if str(agent) in seen_agents:
                raise EventModelError(f"agent {agent} has two lists of classes; put them in "
                                      "one", ("partitions", str(agent)))
            seen_agents.add(str(agent))
            listed = [n for block in classes for n in block]
            for name in listed:
                if name not in names:
                    raise EventModelError(f"no event is named {name!r} (in {agent}'s "
                                          f"classes); the events are {events}",
                                          ("member", str(agent), name))
                if listed.count(name) > 1:
                    raise EventModelError(f"event {name!r} is in two of agent {agent}'s "
                                          "classes; put it in one", ("member", str(agent), name))
            missing = [n for n in names if n not in listed]
            if missing:
                raise EventModelError(f"agent {agent!r}'s partition leaves out "
                                      f"{', '.join(missing)}: put each event in exactly one "
                                      "class", ("agent", str(agent)))
            if any(not block for block in classes):
                raise EventModelError(f"agent {agent!r}'s partition has an empty class; remove "
                                      "it", ("agent", str(agent)))
        self._check_arrows(names, seen_agents)
        for event in self.events:
            changed = [str(atom) for atom, _ in event.post]
            repeated = [a for a in changed if changed.count(a) > 1]
            if repeated:
                raise EventModelError(f"event {event.name!r} assigns {repeated[0]} twice; keep "
                                      "one", ("post", event.name, repeated[0]))

    def _check_arrows(self, names: list[str], partitioned: set[str]) -> None:
        """Arrows join events of the model, for agents without a partition; each agent's
        are kept once each, in the order of the events, so equal relations compare equal
        and the text reads back to an equal model."""
        order = {name: k for k, name in enumerate(names)}
        for agent, pairs in self.arrows:
            if str(agent) in partitioned:
                raise EventModelError(f"agent {agent} has both classes and arrows; give it one "
                                      "or the other: arrows (belief) or classes (knowledge)",
                                      ("arrows", str(agent)))
            if not AGENT.fullmatch(str(agent)) or str(agent) in ("event", "actual", "post"):
                raise EventModelError(f"agent {agent!r} cannot be written in an event model's "
                                      "text: name agents by identifiers or numbers",
                                      ("arrows", str(agent)))
            partitioned.add(str(agent))
            for pair in pairs:
                for name in pair:
                    if name not in names:
                        raise EventModelError(f"no event is named {name!r} (in {agent}'s "
                                              f"arrows); the events are {', '.join(names)}",
                                              ("arrow", str(agent), name))
        object.__setattr__(self, "arrows", tuple(
            (agent, tuple(sorted(set(pairs), key=lambda p: (order[p[0]], order[p[1]]))))
            for agent, pairs in self.arrows))

    def applied(self, model: object) -> object | None:
        """What the event does to ``model`` when that is no plain product update: an upgrade
        or an order on the events makes a plausibility model
        (:mod:`kripke.explicit.plausibility`, whose event models answer here). None: the
        model takes its product update."""
        return None

    @property
    def reorders(self) -> bool:
        """Whether the event changes a plausibility order (an upgrade, an order on the
        events), which only a list of worlds with classes takes."""
        return False

    @property
    def soft(self) -> bool:
        """Whether the change keeps the worlds and reorders them only (an upgrade: soft
        information), told in a line rather than as a product's events."""
        return False

    @property
    def is_s5(self) -> bool:
        """Whether the event is one the S5 path takes: partitions only (no arrows). An S5
        model updated by it stays S5, with or without assignments."""
        return not self.arrows

    @property
    def changes_facts(self) -> bool:
        """Whether some event assigns an atom."""
        return any(e.post for e in self.events)

    def is_partitioned(self, agent: Agent) -> bool:
        """Whether the agent's view of the events is a partition (it has no arrows)."""
        return all(str(named) != str(agent) for named, _ in self.arrows)

    def relation(self, agent: Agent) -> frozenset[tuple[str, str]]:
        """The agent's arrows between events as pairs (e, f): its arrows if it has them, else
        every pair within one of its classes (all pairs for an agent given neither)."""
        for named, pairs in self.arrows:
            if str(named) == str(agent):
                return frozenset(pairs)
        return frozenset((e, f) for block in self.classes(agent) for e in block for f in block)

    @classmethod
    def of(
        cls,
        events: Mapping[str, Formula | str] | Iterable[tuple[str, Formula | str]],
        partitions: Mapping[Agent, Iterable[Iterable[str]]] | None = None,
        actual: str | None = None,
        arrows: Mapping[Agent, Iterable[tuple[str, str]]] | None = None,
        post: Mapping[str, Mapping[Atom | str, Formula | str]] | None = None,
    ) -> EventModel:
        """An event model from plain values: ``events`` maps names to preconditions (formulas
        or their text), ``partitions`` maps agents to their classes of event names, ``actual``
        names the actual event (default: the first). An event an agent's classes leave out
        is a class of its own, as in the text syntax.

        ``EventModel.of({"read_p": "p", "read_not_p": "~p"}, {"alice": [["read_p"],
        ["read_not_p"]]}, actual="read_p")``: Alice reads a letter saying whether p, and
        every other agent sees her read it. ``arrows`` maps an agent to its pairs (e, f) of
        events (at e it considers f possible), ``post`` an event to its assignments
        ``{atom: formula}``.
        """
        pairs = list(events.items()) if isinstance(events, Mapping) else list(events)
        built = tuple(Event(name, parse(pre) if isinstance(pre, str) else pre)
                      for name, pre in pairs)
        classes = []
        for agent, blocks in (partitions or {}).items():
            given = [tuple(block) for block in blocks]
            listed = {name for block in given for name in block}
            given += [(e.name,) for e in built if e.name not in listed]  # left out: alone
            classes.append((agent, tuple(given)))
        first = built[0].name if built else ""
        assigned = {name: tuple((Atom(str(atom)), _as_formula(value))
                                for atom, value in changes.items())
                    for name, changes in (post or {}).items()}
        built = tuple(replace(e, post=assigned.get(e.name, ())) for e in built)
        relations = tuple((agent, tuple((e, f) for e, f in pairs))
                          for agent, pairs in (arrows or {}).items())
        return cls(built, tuple(classes), first if actual is None else actual, relations)

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(e.name for e in self.events)

    @property
    def agents(self) -> tuple[Agent, ...]:
        """The agents given a partition or arrows; every other agent tells no events apart."""
        return tuple(agent for agent, _ in (*self.partitions, *self.arrows))

    @property
    def actual_event(self) -> Event:
        return self.events[self.names.index(self.actual)]

    def classes(self, agent: Agent) -> tuple[tuple[str, ...], ...]:
        """The agent's partition of the events (one class of all of them if none is given)."""
        for named, classes in self.partitions:
            if str(named) == str(agent):
                return classes
        return (self.names,)

    def keys(self, agent: Agent) -> tuple[int, ...]:
        """Per event (in order), the number of the agent's class holding it: equal numbers are
        events the agent cannot tell apart, as observation keys are for worlds."""
        number = {name: k for k, block in enumerate(self.classes(agent)) for name in block}
        return tuple(number[name] for name in self.names)

    def at(self, actual: str) -> EventModel:
        """The same events with another actual event."""
        return replace(self, actual=actual)

    def check_agents(self, agents: Sequence[Agent]) -> None:
        """Refuse an event model naming an agent the model does not have."""
        known = {str(a) for a in agents}
        for agent in self.agents:
            if str(agent) not in known:
                raise ModelError(f"the event model names agent {agent!r}, which the model "
                                 f"does not have; its agents are {list(agents)}")

    def seen_by(self, agent: Agent) -> str:
        """What the agent observed of the actual event, in words: "saw yes" when its class
        of the actual event is that event alone, else "could not tell yes from no"; an agent
        with arrows "believes skip happened" when they lead elsewhere."""
        if any(str(named) == str(agent) for named, _ in self.arrows):
            seen = sorted(f for e, f in self.relation(agent) if e == self.actual)
            if seen == [self.actual]:
                return f"saw {self.actual}"
            return f"believes {' or '.join(seen)} happened" if seen else "believes nothing"
        block = next(b for b in self.classes(agent) if self.actual in b)
        if len(block) == 1:
            return f"saw {self.actual}"
        if len(block) == 2:
            return f"could not tell {block[0]} from {block[1]}"
        return f"could not tell {', '.join(block[:-1])} and {block[-1]} apart"

    def observations(self, agents: Iterable[Agent],
                     name: Callable[[Agent], str] = str) -> str:
        """What each agent observed, on one line: "a: saw yes; b: could not tell yes from
        no" (a teacher's log of the event); ``name`` names the agents (a page's names)."""
        return "; ".join(f"{name(agent)}: {self.seen_by(agent)}" for agent in agents)

    def __str__(self) -> str:
        """The text :func:`kripke.files.eventfile.parse_event_model` reads back to an equal
        model."""
        lines = [f"event {e.name}: pre {e.precondition}" for e in self.events]
        lines += [f"post {e.name}: " + ", ".join(f"{atom} := {value}" for atom, value in e.post)
                  for e in self.events if e.post]
        lines += [f"{agent}: " + " ".join("{" + " ".join(block) + "}" for block in classes)
                  for agent, classes in self.partitions]
        for agent, pairs in self.arrows:
            targets: dict[str, list[str]] = {}
            for e, f in pairs:
                targets.setdefault(e, []).append(f)
            lines += [f"{agent}: {e} -> {' '.join(fs)}" for e, fs in targets.items()] or \
                [f"{agent}: {self.events[0].name} ->"]  # no arrows at all
        lines.append(f"actual: {self.actual}")
        return "\n".join(lines) + "\n"


def _as_formula(formula: Formula | str) -> Formula:
    return parse(formula) if isinstance(formula, str) else formula


# --- ready-made events ---------------------------------------------------------------------------

def public_announcement(formula: Formula | str) -> EventModel:
    """Everyone learns that φ: one event with precondition φ (the same update as
    ``model.announce(φ)``)."""
    return EventModel((Event("announce", _as_formula(formula)),), (), "announce")


def learns_whether(agent: Agent, formula: Formula | str, holds: bool = True) -> EventModel:
    """``agent`` learns whether φ, and the others see that it learns it but not what: Alice
    reads a letter saying whether φ while Bob watches. ``holds`` says which way φ actually is.
    Afterwards ``agent`` knows whether φ, and that is common knowledge."""
    return learn_together((agent,), formula, holds)


def learn_together(agents: Iterable[Agent], formula: Formula | str,
                   holds: bool = True) -> EventModel:
    """The ``agents`` learn whether φ together (they read the letter side by side), and every
    other agent sees that they do, not what they learn."""
    phi = _as_formula(formula)
    group = tuple(agents)
    if not group:
        raise ModelError("name at least one agent who learns")
    events = (Event("yes", phi), Event("no", Not(phi)))
    return EventModel(events, tuple((a, (("yes",), ("no",))) for a in group),
                      "yes" if holds else "no")


def shows_card(shower: Agent, viewer: Agent, cards: Sequence[int | str], shown: int | str,
               atom: str = "p({agent},{card})") -> EventModel:
    """``shower`` shows ``viewer`` one of its cards, face up to the viewer only; every other
    agent sees that a card was shown, not which (Cluedo; the "show" of van Ditmarsch, van der
    Hoek and Kooi's three cards). One event per card c, with precondition "shower holds c"
    (the atom ``atom`` names, as :func:`kripke.explicit.deal.deal_model` writes ``p(i,c)``); the
    shower
    and the viewer tell every event apart, the others none. ``shown`` is the card actually
    shown. A shower holding several cards may have shown any of them: a deal where it holds
    two of the cards becomes two worlds, one per card it could have shown."""
    if shown not in cards:
        raise ModelError(f"the card shown, {shown}, is not one of the cards {list(cards)}")
    if str(shower) == str(viewer):
        raise ModelError("a card is shown by one agent to another")
    events = tuple(Event(_show(card), Atom(atom.format(agent=shower, card=card)))
                   for card in cards)
    each = tuple((e.name,) for e in events)
    return EventModel(events, ((shower, each), (viewer, each)), _show(shown))


def _show(card: int | str) -> str:
    """The event of showing a card: ``show0`` for card 0, ``show_red_a`` for ``red(a)``."""
    name = f"show{card}"
    return name if EVENT_NAME.fullmatch(name) else \
        "show_" + re.sub(r"[^A-Za-z0-9_']+", "_", str(card)).strip("_")


def may_learn(agent: Agent, formula: Formula | str, learns: bool = True,
              holds: bool = True) -> EventModel:
    """``agent`` may or may not learn whether φ, and the others cannot tell whether it did:
    Alice may have read the letter while Bob was out of the room. Three events: she reads
    and φ, she reads and ¬φ, she does not read (precondition ⊤); she tells all three apart,
    the others none. ``learns`` says whether she actually read it, ``holds`` which way φ is."""
    phi = _as_formula(formula)
    events = (Event("yes", phi), Event("no", Not(phi)), Event("skip", Top()))
    actual = ("yes" if holds else "no") if learns else "skip"
    return EventModel(events, ((agent, (("yes",), ("no",), ("skip",))),), actual)




# --- beliefs and factual change: the others believe nothing happened ------------------------------

def _unseen(happened: Sequence[str], others: Iterable[Agent], seer: Agent,
            ) -> tuple[tuple[Agent, tuple[tuple[str, str], ...]], ...]:
    """The arrows of the agents who did not see it: from every event, to ``skip`` alone."""
    pairs = tuple((e, "skip") for e in (*happened, "skip"))
    return tuple((a, pairs) for a in others if str(a) != str(seer))


def private_announcement(agent: Agent, formula: Formula | str,
                         others: Iterable[Agent]) -> EventModel:
    """``agent`` learns that φ in private, and every one of ``others`` believes nothing
    happened (Baltag–Moss–Solecki's private announcement): events ``learn`` (pre φ) and
    ``skip`` (pre ⊤); the agent tells them apart, the others' arrows all lead to ``skip``.
    Afterwards the others' beliefs are those they had before, even where they are wrong."""
    events = (Event("learn", _as_formula(formula)), Event("skip", Top()))
    return EventModel(events, ((agent, (("learn",), ("skip",))),), "learn",
                      _unseen(("learn",), others, agent))


def secret_look(agent: Agent, formula: Formula | str, others: Iterable[Agent],
                holds: bool = True) -> EventModel:
    """``agent`` finds out in secret whether φ (looks under the cup), and the others believe
    nothing happened: events ``yes`` (pre φ), ``no`` (pre ¬φ) and ``skip`` (pre ⊤)."""
    phi = _as_formula(formula)
    events = (Event("yes", phi), Event("no", Not(phi)), Event("skip", Top()))
    return EventModel(events, ((agent, (("yes",), ("no",), ("skip",))),),
                      "yes" if holds else "no", _unseen(("yes", "no"), others, agent))


def secret_flip(agent: Agent, atom: Atom | str, others: Iterable[Agent]) -> EventModel:
    """``agent`` toggles ``atom`` in secret (turns the coin over), and the others believe
    nothing changed: events ``flip`` (pre ⊤, p := ¬p) and ``skip``."""
    p = Atom(str(atom))
    events = (Event("flip", Top(), ((p, Not(p)),)), Event("skip", Top()))
    return EventModel(events, ((agent, (("flip",), ("skip",))),), "flip",
                      _unseen(("flip",), others, agent))


def public_assignment(atom: Atom | str, formula: Formula | str) -> EventModel:
    """Everyone sees ``atom`` set to the value φ had (``p := φ``): one event, no one in doubt."""
    return EventModel((Event("set", Top(), ((Atom(str(atom)), _as_formula(formula)),)),), (),
                      "set")


class Counted(Protocol):
    """What :func:`check_product_size` reads of a model, which every kind answers (named here
    so this module does not import the interface, which imports it)."""

    @property
    def n_worlds(self) -> int: ...

    def count(self, formula: Formula | str) -> int: ...


@runtime_checkable
class Arrowed(Protocol):
    """A model whose update stores arrows (an explicit model meeting an event with arrows, a
    belief model): it counts them before building any (``update_arrows``)."""

    def update_arrows(self, events: EventModel) -> int: ...


def check_product_size(model: Counted, events: EventModel, max_worlds: int, *,
                       where: str, max_arrows: int | None = None) -> None:
    """Refuse (:class:`~kripke.errors.ModelError`, saying how many worlds or arrows) an update
    whose product would have more than ``max_worlds`` worlds or, on a model that stores
    arrows, more than ``max_arrows`` arrows, before any of it is built.

    Why: each application multiplies the worlds by up to the number of events, so a 2 KB
    event model of 100 events applied three times asks for 4,000,000 worlds and gigabytes;
    and worlds are not the whole cost: 18,500 worlds of a belief model held 342 million
    arrows (a class listed as arrows) and crashed the page's server at 3.2 GB. The product has
    |W| × |E| worlds at most, so within the bound nothing is counted; above it the worlds each
    precondition holds in are counted, one event at a time (a boolean per world, never one
    per pair). The arrows are counted exactly, by classes
    (:func:`kripke.explicit.access.product_arrows`), in a pass over the worlds and the arrows
    the model stores. ``where`` says whose bound it is (``"the page updates"``)."""
    if model.n_worlds * len(events.events) > max_worlds:
        size = sum(model.count(event.precondition) for event in events.events)
        if size > max_worlds:
            raise ModelError(f"this event would make {size:,} worlds from "
                             f"{model.n_worlds:,}, more than the {max_worlds:,} {where}; apply "
                             "an event model with fewer events, or announce something first")
    if max_arrows is not None and isinstance(model, Arrowed):
        arrows = model.update_arrows(events)
        if arrows > max_arrows:
            raise ModelError(f"this event would make {arrows:,} arrows between classes of "
                             f"worlds, more than the {max_arrows:,} {where}; let the agents "
                             "tell more events apart, or announce something first")
