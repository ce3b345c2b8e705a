"""The Event control: beside Announce, an event that not everyone sees the same way, applied to
the model on the page (the event models of ``kripke.events``).

A teacher picks a ready-made event (an agent learns whether the typed formula holds; agents
learn it together; everyone is told it) with its agent(s), or pastes an event model written by
hand (the text of ``kripke.eventfile``, checked as it is typed, the mistake's line and column
under it), and applies it. The control is one collapsed row until opened, so it does not push
the picture off the first screen.

It knows nothing of the page around it: :func:`EventControl` takes the current model, the
typed formula and how to name the agents, and calls ``on_event`` with the
:class:`~kripke.events.EventModel` and a short label; the page updates its model, records the
moment and says what each agent observed. The puzzle gallery and the "Your model" page place it
alike. A ready-made event is built by the same code as ``ttr-kripke model --event learns:a:p``
(:func:`kripke.eventfile.ready_made`), so the page shows that command line form as its label.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from html import escape

import solara

from kripke import KripkeModel
from kripke.eventfile import parse_event_model, ready_made
from kripke.events import EventModel
from kripke.formula import Agent

#: The kinds of event offered, by the ready-made form's name ("hand": written by hand).
KINDS = {"learns": "learns whether φ", "together": "learn together whether φ",
         "announce": "announce φ", "hand": "written by hand"}
TEXT_LABEL = "Event model (event NAME: pre FORMULA · AGENT: {e1 e2} {e3} · actual: NAME)"


@dataclass(frozen=True)
class Prepared:
    """An event ready to apply (``events`` and its ``label``), or why not (``error``)."""

    events: EventModel | None = None
    label: str = ""
    error: str = ""


def prepare(model: KripkeModel, kind: str, chosen: Sequence[Agent], formula: str,
            text: str = "") -> Prepared:
    """The event the control's choices describe, checked against the model: its agents and
    atoms exist and its actual event can happen at the actual world; else the reason, as a
    teacher would read it (an event model's mistake with its line and column)."""
    if kind == "hand":
        if not text.strip():
            return Prepared(error="write the event model, e.g. 'event yes: pre p', "
                                  "'a: {yes} {no}', 'actual: yes'")
        try:
            events = parse_event_model(text)
        except ValueError as e:
            return Prepared(error=str(e))
        label = f"{len(events.events)} events written by hand"
    else:
        if not formula.strip():
            return Prepared(error="type a formula φ in the box above")
        if kind != "announce" and not chosen:
            return Prepared(error="choose who learns")
        if kind == "learns" and len(chosen) > 1:
            return Prepared(error="one agent learns; for more, choose 'learn together'")
        who = ",".join(str(a) for a in chosen)
        label = f"{kind}:{who}:{formula.strip()}" if kind != "announce" else \
            f"announce:{formula.strip()}"
        try:
            events = ready_made(label, model)
        except ValueError as e:
            return Prepared(error=str(e))
    try:
        events.check_agents(model.agents)
        possible = [model.holds(e.precondition) for e in events.events]
    except ValueError as e:  # an unknown atom or agent
        return Prepared(error=str(e))
    if not possible[events.names.index(events.actual)]:
        return Prepared(error=f"the actual event {events.actual} cannot happen: its "
                              f"precondition {events.actual_event.precondition} is false at "
                              "the actual world")
    return Prepared(events, label)


@solara.component
def EventControl(model: KripkeModel, formula: str,
                 on_event: Callable[[EventModel, str], None],
                 agent_name: Callable[[Agent], str] = str, disabled: bool = False):
    """One row ("Event ▸") that opens to the kind of event, who learns, Apply, and for an
    event written by hand a text area checked as it is typed; Apply calls ``on_event``."""
    opened = solara.use_reactive(False)
    kind = solara.use_reactive("learns")
    who: solara.Reactive[list[str]] = solara.use_reactive([])  # the agents chosen, by name
    text = solara.use_reactive("")
    agents = list(model.agents)
    names = [agent_name(a) for a in agents]
    chosen = [a for a, n in zip(agents, names, strict=True) if n in who.value]
    if not chosen and agents and kind.value == "learns":
        chosen = agents[:1]
    prepared = solara.use_memo(
        lambda: prepare(model, kind.value, chosen, formula, text.value)
        if opened.value else Prepared(), [model, kind.value, tuple(map(str, chosen)), formula,
                                          text.value, opened.value])

    def pick_kind(label: str) -> None:
        key = next(k for k, v in KINDS.items() if v == label)
        if key == "hand" and not text.value.strip() and agents:
            # a starting point to edit: the ready-made event the choices made, as text
            start = prepare(model, "learns", chosen or agents[:1], formula or "true")
            text.set(str(start.events) if start.events is not None else "")
        kind.set(key)

    def apply() -> None:
        if prepared.events is not None:
            on_event(prepared.events, prepared.label)

    with solara.Column(gap="0px", classes=["ttr-event"]):
        with solara.Row(gap="8px", style="align-items:center;flex-wrap:wrap"):
            solara.Button("Event ▾" if opened.value else "Event ▸", small=True, text=True,
                          on_click=lambda: opened.set(not opened.value), disabled=disabled,
                          attributes={"title": "an event not everyone sees alike: someone "
                                      "learns whether φ, the others see that they do"})
            if opened.value:
                with solara.Div(style="width:215px"):
                    solara.Select("event", values=list(KINDS.values()),
                                  value=KINDS[kind.value], on_value=pick_kind, dense=True)
                if kind.value == "learns":
                    with solara.Div(style="width:130px"):
                        solara.Select("who learns", values=names,
                                      value=agent_name(chosen[0]) if chosen else None,
                                      on_value=lambda n: who.set([n]), dense=True)
                elif kind.value == "together":
                    with solara.Div(style="width:220px"):
                        solara.SelectMultiple("who learn", values=[agent_name(a)
                                                                   for a in chosen],
                                              all_values=names, on_value=who.set, dense=True)
                solara.Button("Apply", small=True, color="primary", on_click=apply,
                              disabled=disabled or prepared.events is None,
                              attributes={"title": "apply the event: each world splits into "
                                          "the events that can happen there"})
                if prepared.events is not None and kind.value != "hand":
                    solara.HTML(tag="code", unsafe_innerHTML=escape(prepared.label),
                                attributes={"data-testid": "event-label",
                                            "title": "the same event on the command line: "
                                                     "ttr-kripke model FILE --event ..."},
                                style="font-size:12px;opacity:.75")
        if opened.value and kind.value == "hand":
            solara.InputTextArea(TEXT_LABEL, value=text, continuous_update=True, rows=3,
                                 disabled=disabled)
        if opened.value and prepared.error:
            solara.HTML(tag="div", unsafe_innerHTML=escape(prepared.error),
                        attributes={"data-testid": "event-error"},
                        style="font-size:12px;color:#b71c1c;white-space:pre-wrap")

