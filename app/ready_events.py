"""The ready-made events of ``kripke.events`` as the model page offers them beside Announce:
an agent learns whether the formula in the box holds (the others see it learn, not what), or
may learn it (the others cannot tell whether it did). Pure Python, no Solara.

The formula's value at the actual world picks the actual event, so an event offered can always
happen. After the product update a world that split is named after the world it came from and the
event that happened there ("rain·yes"; one that did not keeps its name), and the page's log
says what each agent observed.
"""

from __future__ import annotations

from kripke import KripkeModel, NamedModel
from kripke.events import EventModel, learns_whether, may_learn
from kripke.formula import Agent, Formula

#: The events offered, by key: what the page calls them.
KINDS = {"learns": "learns whether", "may-learn": "may learn whether (and does)",
         "may-not": "may learn whether (but does not)"}


def ready_event(kind: str, agent: Agent, formula: Formula, model: KripkeModel) -> EventModel:
    """The event ``kind`` for ``agent`` and ``formula``, its actual event the one that can
    happen at the model's actual world."""
    holds = model.holds(formula)
    if kind == "learns":
        return learns_whether(agent, formula, holds)
    if kind in ("may-learn", "may-not"):
        return may_learn(agent, formula, learns=kind == "may-learn", holds=holds)
    raise ValueError(f"no event {kind!r}; choose one of {', '.join(KINDS)}")


def updated(model: KripkeModel, events: EventModel) -> KripkeModel:
    """The product update, each world that split named after its world and event when the
    model's worlds have names (``rain·yes``)."""
    after = model.update(events)
    if not isinstance(model, NamedModel):
        return after
    names = []
    for wid in after.world_ids.tolist():
        before, event = model.origin(events, wid)
        # a world that did not split keeps its id, and its name
        names.append(model.names[before] if before == wid else
                     f"{model.names[before]}·{event}")
    return NamedModel.named(after, names)


def observed(events: EventModel, agents: tuple[Agent, ...]) -> str:
    """What each agent observed of the event that happened: the event itself, or the events
    it cannot tell apart (each with its precondition)."""
    preconditions = {e.name: e.precondition for e in events.events}

    def shown(name: str) -> str:
        return f"{name} ({preconditions[name].unicode()})"

    said = []
    for agent in agents:
        seen = next(c for c in events.classes(agent) if events.actual in c)
        if len(seen) == 1:
            said.append(f"{agent} saw {shown(seen[0])}")
        else:
            said.append(f"{agent} cannot tell apart " + ", ".join(shown(e) for e in seen))
    return "; ".join(said)
