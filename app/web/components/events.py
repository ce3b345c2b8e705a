"""The Event control: beside Announce, an event that not everyone sees the same way, applied to
the model on the page (the event models of ``kripke.events.model``).

A teacher picks a ready-made event (an agent learns whether the typed formula holds; agents
learn it together; everyone is told it) with its agent(s), or pastes an event model written by
hand (the text of ``kripke.files.eventfile``, checked as it is typed, the mistake's line and column
under it), and applies it. The control is one collapsed row until opened, so it does not push
the picture off the first screen.

It knows nothing of the page around it: :func:`EventControl` takes the current model, the
typed formula and how to name the agents, and calls ``on_event`` with the
:class:`~kripke.events.model.EventModel` and a short label; the page updates its model, records the
moment and says what each agent observed. The puzzle gallery and the "Your model" page place it
alike. A ready-made event is built by the same code as ``ttr-kripke model --event learns:a:p``
(:func:`kripke.files.eventfile.ready_made`), so the page shows that command line form as its label.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from html import escape

import solara

from app.web.components.formula import QUICK_STEPS, tab_gone
from app.web.components.words import counted
from app.worlds.graph import GRAPH_LIMIT, event_graph
from app.worlds.svg import picture_svg
from kripke import EvaluationStopped, parse
from kripke.budget import MAX_STEPS, model_work, steps, stop_when
from kripke.events.model import EventModel, check_product_size
from kripke.files.eventfile import READY_MADE, parse_event_model, ready_made
from kripke.language.formula import Agent
from kripke.parts import Drawn, Partitioned

#: The kinds of event offered, by the ready-made form's name ("hand": written by hand).
KINDS = {"learns": "learns whether φ", "together": "learn together whether φ",
         "announce": "announce φ", "radical": "soft: φ more plausible (⇑φ)",
         "conservative": "soft: best φ on top (↑φ)", "shift": "evidence: ¬φ one rank down",
         "private": "learns φ in private",
         "secret": "finds out whether φ in secret", "flip": "turns atom φ over in secret",
         "hand": "written by hand"}
#: What the others make of a hidden event, said under the row (in the menu it cut the kind's
#: name off at "learns φ in private (th…").
OTHERS = {"private": "The others believe nothing happened.",
          "secret": "The others believe nothing happened.",
          "flip": "φ := ¬φ; the others believe nothing changed.",
          "radical": "Everyone: every φ-world above every ¬φ-world, in its class.",
          "conservative": "Everyone: the most plausible φ-worlds of a class on top."}
#: The most worlds an event may make on a page (ten times the biggest puzzle's): each event
#: multiplies the worlds by up to its number of events, and the server is shared.
UPDATE_LIMIT = 20_000
#: The most arrows (between classes of worlds, as a belief model stores them) an event may make
#: on a page: a tenth of the command line's (``app.cli.commands.model.UPDATE_ARROWS``), about
#: 3 s and 140 MB to build, since one server holds every tab's models.
UPDATE_ARROWS = 10_000_000
#: Said when the tab went while the event was being checked.
STOPPED = "Stopped: the page lost its connection while the event was being checked."
#: The kinds where one agent acts and the others are onlookers.
ONE_AGENT = ("learns", "private", "secret", "flip")
#: The kinds everyone takes alike, with no agent to choose (the upgrades change belief only).
EVERYONE = ("announce", "radical", "conservative", "shift")
TEXT_LABEL = ("Event model (event NAME: pre FORMULA · post NAME: p := FORMULA · "
              "AGENT: {e1 e2} {e3} · AGENT: e1 -> e2 e3 · actual: NAME)")


@dataclass(frozen=True)
class Prepared:
    """An event ready to apply (``events`` and its ``label``, and ``written``, the text that
    makes it again: its ready-made form or an event model's text, as a share link carries
    it), or why not (``error``)."""

    events: EventModel | None = None
    label: str = ""
    error: str = ""
    checking: bool = False  # its preconditions are being evaluated in a thread
    written: str = ""


#: Said while an event's preconditions are evaluated in a thread.
CHECKING = "Checking the event's preconditions…"
#: How often a ready-made event's formula is evaluated in checking it, at most (the actual
#: event picked, whether it can happen, the worlds it makes: φ, ¬φ and ⊤ for a secret look).
READY_MADE_PASSES = 6


def written(kind: str, text: str) -> EventModel | None:
    """The event model written by hand, read once (a long text takes seconds to read: the
    control reads it as it is typed and hands it on), or None (another kind, or a mistake,
    which the check reports)."""
    if kind != "hand":
        return None
    try:
        return parse_event_model(text)
    except ValueError:
        return None


def event_steps(model: Partitioned, kind: str, formula: str, text: str,
                events: EventModel | None = None) -> int:
    """What checking the event costs, by the budget (:mod:`kripke.budget`, counting a belief
    model's arrows), worked out from the text alone before any world is looked at: the sum
    over its preconditions, each evaluated twice (can it happen, how many worlds it makes),
    or a ready-made event's formula a few times (``events``: the hand-written model, already
    read). 0 for text that does not read (the check says why at once)."""
    work = model_work(model)
    n, agents = model.n_worlds, len(model.agents)
    try:
        if kind == "hand":
            events = events if events is not None else parse_event_model(text)
            return sum(2 * steps(e.precondition, n, agents, work) +
                       sum(steps(value, n, agents, work) for _, value in e.post)
                       for e in events.events)
        return READY_MADE_PASSES * steps(parse(formula), n, agents, work)
    except ValueError:
        return 0


def prepare(model: Partitioned, kind: str, chosen: Sequence[Agent], formula: str,
            text: str = "", stop: Callable[[], bool] = lambda: False,
            events: EventModel | None = None) -> Prepared:
    """The event the control's choices describe, checked against the model: its agents and
    atoms exist, its actual event can happen at the actual world and its product is within
    the page's bound; else the reason, as a teacher would read it (an event model's mistake
    with its line and column). The preconditions' evaluation stops once ``stop()`` is true
    (the tab is gone: a hundred preconditions are work for nobody then)."""
    needed = event_steps(model, kind, formula, text, events)
    if needed > MAX_STEPS:
        return Prepared(error=f"checking this event is too much work over {model.n_worlds:,} "
                              f"worlds (about {needed / 1e9:,.0f} s; the limit is "
                              f"{MAX_STEPS / 1e9:,.0f} s): use fewer or shorter preconditions, "
                              "or announce something first")
    try:
        with stop_when(stop):
            return _prepare(model, kind, chosen, formula, text, events)
    except EvaluationStopped:
        return Prepared(error=STOPPED)


def _prepare(model: Partitioned, kind: str, chosen: Sequence[Agent], formula: str,
             text: str, given: EventModel | None) -> Prepared:
    if kind == "hand":
        if not text.strip():
            return Prepared(error="write the event model, e.g. 'event yes: pre p', "
                                  "'a: {yes} {no}', 'actual: yes'")
        return written_event(model, text, given)
    if not formula.strip():
        return Prepared(error="type a formula φ in the box above")
    if kind not in EVERYONE and not chosen:
        return Prepared(error="choose who learns")
    if kind in ONE_AGENT and len(chosen) > 1:
        return Prepared(error=f"one agent {'learns' if kind == 'learns' else 'acts'}; "
                              "for more, choose 'learn together'")
    who = ",".join(str(a) for a in chosen)
    return written_event(model, f"{kind}:{who}:{formula.strip()}" if kind not in EVERYONE else
                         f"{kind}:{formula.strip()}")


def written_event(model: Drawn, written: str, given: EventModel | None = None
                  ) -> Prepared:
    """The event a text writes (a ready-made form on one line, ``learns:a:p``, or an event
    model's text; never a file's name; ``given``: that text already read), checked against
    the model: the control's, and a share link's events applied again."""
    ready = "\n" not in written.strip() and written.partition(":")[0].strip() in READY_MADE
    try:
        events = given if given is not None else \
            ready_made(written, model) if ready else parse_event_model(written)
    except ValueError as e:
        return Prepared(error=str(e))
    n = len(events.events)
    label = written if ready else f"{events.actual}, written by hand" if n == 1 else \
        f"{events.actual} of {counted(n, 'event')} written by hand"
    try:
        events.check_agents(model.agents)
        possible = [model.holds(e.precondition) for e in events.events]
        check_product_size(model, events, UPDATE_LIMIT, where="a page's event may make",
                           max_arrows=UPDATE_ARROWS)
    except ValueError as e:  # an unknown atom or agent, too many worlds
        return Prepared(error=str(e))
    if not possible[events.names.index(events.actual)]:
        return Prepared(error=f"the actual event {events.actual} cannot happen: its "
                              f"precondition {events.actual_event.precondition} is false at "
                              "the actual world")
    return Prepared(events, label, written=written)


@dataclass(frozen=True)
class Applied:
    """The event just applied, as the control shows it until its inputs are edited: the
    ``inputs`` it was made from, the event as checked against the model it was applied to
    (``before`` worlds), and the model it made (``after``)."""

    inputs: tuple[object, ...]
    event: Prepared
    before: int
    after: Drawn

    def shows(self, model: Drawn, inputs: tuple[object, ...]) -> bool:
        """Whether the control shows this event as applied: the page shows the model it made
        and nothing the event was made from has been edited (Back shows the model before:
        the event is then checked against it, as any)."""
        return model is self.after and inputs == self.inputs


def use_prepared(model: Partitioned, kind: str, chosen: Sequence[Agent], formula: str,
                 text: str, opened: bool, just: Applied | None) -> Prepared:
    """The event the control's choices describe, checked (:func:`prepare`): nothing while the
    row is closed (not ``opened``); ``just``, the event just applied, as it was checked then."""
    gone = tab_gone()
    choices = [model, kind, tuple(map(str, chosen)), formula, text, opened, just is not None]
    # quick to check: at once, as it is typed; longer: in a thread of its own, stopped when
    # the choices change or the tab goes (checked in the message handler, 5 × 200 C_b p kept
    # the server busy 2.5 minutes after the tab closed); the event just applied is shown as
    # it was checked against the model it was applied to
    hand = solara.use_memo(lambda: written(kind, text) if opened else None,
                           [kind, text, opened])
    slow = solara.use_memo(lambda: opened and just is None and
                           QUICK_STEPS < event_steps(model, kind, formula, text,
                                                     hand) <= MAX_STEPS, choices)
    quick = solara.use_memo(
        lambda: just.event if just is not None else
        prepare(model, kind, chosen, formula, text, gone, hand)
        if opened and not slow else Prepared(), choices)

    def checked(cancel: threading.Event) -> tuple[list[object], Prepared] | None:
        if not slow:
            return None
        return choices, prepare(model, kind, chosen, formula, text,
                                lambda: cancel.is_set() or gone(), hand)

    running = solara.use_thread(checked, dependencies=choices, intrusive_cancel=False)
    done = running.value if running.state == solara.ResultState.FINISHED else None
    current = done is not None and done[0][0] is model and done[0][1:] == choices[1:]
    return quick if not slow else done[1] if done is not None and current else \
        Prepared(checking=True)


@solara.component
def EventControl(model: Partitioned, formula: str,
                 on_event: Callable[[Prepared], Drawn | None],
                 agent_name: Callable[[Agent], str] = str, disabled: bool = False,
                 on_prepared: Callable[[EventModel | None], None] | None = None,
                 opened: solara.Reactive[bool] | None = None):
    """One row ("Event ▸") that opens to the kind of event, who learns, Apply, and for an
    event written by hand a text area checked as it is typed; Apply calls ``on_event``, which
    answers the model the event made (None: refused). Once applied, the event stays shown as
    applied (its text, its drawing, "Applied: ...") until it is edited: checked against the
    model it made, the move just made would read as an event that cannot happen.
    ``on_prepared`` hears of the event ready to apply or just applied (None: none, or the row
    is closed), so the page can draw it beside the model (:func:`EventPicture`).
    ``opened``, the page's own (it leaves the open row room on the first screen)."""
    own = solara.use_reactive(False)
    opened = own if opened is None else opened
    kind = solara.use_reactive("learns")
    who: solara.Reactive[list[str]] = solara.use_reactive([])  # the agents chosen, by name
    text = solara.use_reactive("")
    applied: solara.Reactive[Applied | None] = solara.use_reactive(None)
    agents = list(model.agents)
    names = [agent_name(a) for a in agents]
    chosen = [a for a, n in zip(agents, names, strict=True) if n in who.value]
    if not chosen and agents and kind.value in ONE_AGENT:
        chosen = agents[:1]
    inputs = (kind.value, tuple(map(str, chosen)), formula, text.value)
    just = applied.value if applied.value is not None and \
        applied.value.shows(model, inputs) else None
    prepared = use_prepared(model, kind.value, chosen, formula, text.value, opened.value,
                            just)
    gone = tab_gone()

    ready = prepared.events if opened.value else None
    solara.use_effect(lambda: on_prepared(ready) if on_prepared is not None else None,
                      [ready])

    def pick_kind(label: str) -> None:
        key = next(k for k, v in KINDS.items() if v == label)
        if key == "hand" and not text.value.strip() and agents:
            # a starting point to edit: the ready-made event the choices made, as text
            start = prepare(model, "learns", chosen or agents[:1], formula or "true")
            text.set(str(start.events) if start.events is not None else "")
        kind.set(key)

    def apply() -> None:
        """Apply the event; again after it was just applied: checked against the model now
        first (refused, the reason then shows, as asked for)."""
        now = prepared if just is None else \
            prepare(model, kind.value, chosen, formula, text.value, gone)
        applied.set(None)
        if now.events is None:
            return
        after = on_event(now)
        if after is not None:
            applied.set(Applied(inputs, now, model.n_worlds, after))

    with solara.Column(gap="0px", classes=["ttr-event"]):
        # open, room above for the fields' floating labels ("event", "who"), which sat on
        # the line over them
        with solara.Row(gap="8px", style="align-items:center;flex-wrap:wrap" +
                        (";padding-top:10px" if opened.value else "")):
            solara.Button("Event ▾" if opened.value else "Event ▸", small=True, text=True,
                          on_click=lambda: opened.set(not opened.value), disabled=disabled,
                          attributes={"title": "an event not everyone sees alike: someone "
                                      "learns whether φ, the others see that they do"})
            if opened.value:
                EventFields(kind.value, names, chosen, agent_name, pick_kind, who.set, apply,
                            just is not None, prepared, disabled)
        if opened.value:
            EventNotes(kind.value, text, prepared, just, disabled)


@solara.component
def EventFields(kind: str, names: list[str], chosen: Sequence[Agent],
                agent_name: Callable[[Agent], str], pick_kind: Callable[[str], None],
                choose: Callable[[list[str]], None], apply: Callable[[], None], again: bool,
                prepared: Prepared, disabled: bool):
    """The open row's fields, in the row (``display:contents``): the kind of event, who
    learns, Apply (``again``: the event was just applied) and the event's command-line form."""
    with solara.Div(style="display:contents"):
        with solara.Div(style="width:255px"):
            solara.Select("event", values=list(KINDS.values()),
                          value=KINDS[kind], on_value=pick_kind, dense=True)
        if kind in ONE_AGENT:
            with solara.Div(style="width:130px"):
                solara.Select("who learns" if kind == "learns" else "who",
                              values=names,
                              value=agent_name(chosen[0]) if chosen else None,
                              on_value=lambda n: choose([n]), dense=True)
        elif kind == "together":
            with solara.Div(style="width:220px"):
                solara.SelectMultiple("who learn", values=[agent_name(a)
                                                           for a in chosen],
                                      all_values=names, on_value=choose, dense=True)
        solara.Button("Apply again" if again else "Apply", small=True,
                      color="primary", on_click=apply,
                      disabled=disabled or prepared.events is None,
                      attributes={"title": "apply the event: each world splits into "
                                  "the events that can happen there"})
        if prepared.events is not None and kind != "hand":
            solara.HTML(tag="code", unsafe_innerHTML=escape(prepared.label),
                        attributes={"data-testid": "event-label",
                                    "title": "the same event on the command line: "
                                             "ttr-kripke model FILE --event ..."},
                        style="font-size:12px;opacity:.75")


@solara.component
def EventNotes(kind: str, text: solara.Reactive[str], prepared: Prepared,
               just: Applied | None, disabled: bool):
    """Under the open row (``display:contents``, in the control's column): what the others
    make of a hidden event, the event model's text, and whether the event is being checked,
    was applied or cannot be."""
    with solara.Div(style="display:contents"):
        if kind in OTHERS:
            solara.HTML(tag="div", unsafe_innerHTML=escape(OTHERS[kind]),
                        attributes={"data-testid": "event-others"},
                        style="font-size:12px;opacity:.75")
        if kind == "hand":
            # a fixed height that scrolls: grown to a long event's every line, it pushed the
            # picture and its caption off the first screen
            solara.InputTextArea(TEXT_LABEL, value=text, continuous_update=True, rows=4,
                                 auto_grow=False, disabled=disabled)
        if prepared.checking:
            solara.HTML(tag="div", unsafe_innerHTML=escape(CHECKING),
                        attributes={"data-testid": "event-checking"},
                        style="font-size:12px;opacity:.75")
        if just is not None:
            solara.HTML(tag="div", unsafe_innerHTML=escape(
                f"Applied: {just.event.label}, checked against the model it was applied to "
                f"({counted(just.before, 'world')} → {counted(just.after.n_worlds, 'world')}); "
                "drawn as it was applied. Edit it to write the next one."),
                attributes={"data-testid": "event-applied"},
                style="font-size:12px;color:#2e7d32;white-space:pre-wrap")
        if prepared.error:
            solara.HTML(tag="div", unsafe_innerHTML=escape(prepared.error),
                        attributes={"data-testid": "event-error"},
                        style="font-size:12px;color:#b71c1c;white-space:pre-wrap")


class _EventNames:
    """How the event's picture names the agents: as the page does."""

    classes = "classes"
    part = "event"
    verb = "tells apart"

    def __init__(self, name: Callable[[Agent], str]) -> None:
        self.agent = name

    def hand(self, model: object, agent: Agent, key: int) -> tuple[str, ...]:
        return ()

    def world(self, model: Partitioned, index: int) -> str:
        return f"event {model.world_name(index)}"


@solara.component
def EventPicture(events: EventModel, agents: Sequence[Agent], agent_name: Callable[[Agent], str],
                 ink: Callable[[Agent], str]):
    """The event model as a graph (:func:`app.worlds.graph.event_graph`), small, with what it
    shows in a line under it; too many events for a graph: the line alone."""
    picture = solara.use_memo(
        lambda: event_graph(events, agents, _EventNames(agent_name))
        if len(events.events) <= GRAPH_LIMIT else None, [events, tuple(map(str, agents))])
    with solara.Column(gap="2px", style="margin:0"):
        if picture is not None:  # at its own size: its names as big as the model's
            solara.HTML(tag="div", unsafe_innerHTML=picture_svg(picture, ink,
                                                                testid="event-picture"),
                        attributes={"data-testid": "event-graph"},
                        style=f"width:{picture.width:.0f}px;max-width:100%")
        solara.HTML(tag="div", unsafe_innerHTML=escape(
            picture.caption if picture is not None else
            f"{len(events.events)} events: too many to draw ({GRAPH_LIMIT} at most)."),
            attributes={"data-testid": "event-caption"},
            style="font-size:12px;opacity:.8;line-height:1.3")
