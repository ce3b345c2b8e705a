"""The app's own control bar and parameter form, in place of SolaraViz's sidebar.

SolaraViz runs a step inside the button's handler, so clicks queue behind a slow turn (a
sidebar once said "Time: 104" of a game over at turn 74); its "Render Interval" makes one Step
several turns; Pause lets one more turn through; and a game over leaves a greyed "❚❚". Here all
long work -- a step, play, a reset that builds a 63-million-world model -- runs in one worker
thread (``solara.use_thread``) while the controls are disabled and a progress bar says what is
being done; a click that arrives meanwhile is ignored, never queued. Play checks ``playing``
before every turn, so Pause stops at once, and the game's end returns the button to ▶.

The model is still a Mesa model with its DataCollector; only the controls are the app's.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from html import escape

import solara
from mesa.visualization.utils import force_update

from agents.timeline import Timeline
from app.web.components.session import (
    KIND_CHOICES,
    OPEN_LINEUPS,
    Defaults,
    DemoModel,
    Session,
    new_session,
)
from boards import builtin_boards
from game import fields
from game.fields import FieldError
from game.rules import EPISTEMIC_RULES, OpenRules
from kripke import AnnouncementError, deal_count

PLAY_INTERVAL = 0.5  # seconds between turns while playing: time to see each one


@dataclass(frozen=True)
class Job:
    kind: str  # "step", "play", "reset", "goto" (a moment of the timeline) or "announce"
    serial: int
    settings: Defaults | None = None  # the new game's, for a reset
    turn: int = 0  # the turn on screen when the job began
    target: int = 0  # the moment to go to
    formula: str = ""  # what to announce


def seed_error(text: str) -> str | None:
    """Why the seed box's text is not a seed, or None: the words ``--seed`` refuses it with
    (``game.fields.seed``; ``isdigit`` took "²" and "١٢", and ``int`` failed on them)."""
    try:
        fields.seed(text)
    except FieldError as e:
        return f"This is not a seed: it {e}; type a whole number such as 7, then press Reset"
    return None


def busy_text(job: Job) -> str:
    if job.kind == "reset":
        s = job.settings
        if s is None:
            return "Building the new game…"
        deals = deal_count(s.players * s.tickets, [s.tickets] * s.players)
        return f"Building the new game: {deals:,} possible deals…"
    if job.kind == "play":
        return "Playing (Pause stops after the turn in progress)…"
    if job.kind == "goto":
        return "Going to another moment of the game…"
    if job.kind == "announce":
        return f"Announcing {job.formula}…"
    return f"Playing turn {job.turn + 1}…"


@solara.component
def ControlBar(model: DemoModel, playing: solara.Reactive[bool], busy: str,
               start: Callable[[str], None], settings_ok: bool):
    """Reset, play/pause and Step, disabled while work runs. ``start`` ignores a click that
    arrives while work runs, so nothing queues."""
    running = model.running
    with solara.Row(gap="8px", style="align-items:center", classes=["ttr-buttons"]):
        solara.Button("Reset", color="primary", on_click=lambda: start("reset"),
                      disabled=bool(busy) or not settings_ok, small=True,
                      attributes={"title": "start a new game with the settings beside"})
        if playing.value:
            solara.Button("❚❚ Pause", color="primary", on_click=lambda: playing.set(False),
                          small=True, attributes={"title": "stop after the turn in progress"})
        else:
            solara.Button("▶ Play", color="primary", on_click=lambda: start("play"),
                          disabled=bool(busy) or not running, small=True,
                          attributes={"title": f"a turn every {PLAY_INTERVAL:g} s until the "
                                               "game ends or you pause"})
        solara.Button("Step", color="primary", on_click=lambda: start("step"),
                      disabled=bool(busy) or not running, small=True,
                      attributes={"title": "one turn"})


def message_html(busy: str, running: bool, seed_text: str, pending: bool) -> tuple[str, str]:
    """The header's one line of news, by priority, and its test id: the work in progress, a
    refused seed, settings waiting for Reset, the end of the game, else how to play."""
    if busy:
        return escape(busy), "busy"
    if (error := seed_error(seed_text)) is not None:
        return escape(error), "seed-error"
    if pending:
        return ("Settings changed: press <b>Reset</b> to start a game with them (the game on "
                "screen keeps its own)."), "pending"
    if not running:
        return "The game is over: Reset starts a new one.", "over"
    return (f"Step: one turn. ▶ Play: a turn every {PLAY_INTERVAL:g} s until the end or "
            "Pause."), "hint"


@solara.component
def Message(busy: str, running: bool, seed_text: str, pending: bool):
    text, testid = message_html(busy, running, seed_text, pending)
    colour = {"seed-error": "color:#c62828;font-weight:600",
              "pending": "color:#e65100;font-weight:600", "hint": "opacity:.7"}.get(testid, "")
    solara.HTML(tag="div", unsafe_innerHTML=text, attributes={"data-testid": testid},
                style=f"font-size:13px;{colour}")


def run_job(job: Job, session: solara.Reactive[Session], playing: solara.Reactive[bool],
            lock: threading.RLock, finished: Callable[[], object],
            said: Callable[[str], object] = lambda _: None) -> None:
    """The worker: one step, a whole play, a new game (a new session for the tab), a move along
    the timeline or an announcement (``said`` gets its outcome in words). Turns go through the
    game's timeline, so each can be gone back to. The page re-renders in this thread after each
    turn (``force_update``), so it never draws a model halfway through a turn; ``finished``
    re-enables the controls, whatever happens."""
    try:
        timeline = session.value.timeline
        if job.kind == "reset":
            assert job.settings is not None  # a reset carries the new game's settings
            fresh = new_session(job.settings)
            playing.set(False)
            session.set(fresh)
        elif job.kind == "step":
            with lock:
                timeline.step()
        elif job.kind == "goto":
            with lock:
                timeline.go(job.target)
        elif job.kind == "announce":
            with lock:
                said(announce(timeline, job.formula))
        else:
            while playing.value and session.value.model.running:
                began = time.monotonic()
                with lock:
                    timeline.step()
                force_update()
                time.sleep(max(PLAY_INTERVAL - (time.monotonic() - began), 0.0))
            playing.set(False)
        force_update()
    finally:
        finished()


def announce(timeline: Timeline, text: str) -> str:
    """Announce ``text`` publicly in the game, or say why it cannot be: the outcome in words."""
    try:
        made = timeline.announce(text, by="the teacher")
    except AnnouncementError:
        return (f"Not announced: {text} is false at the actual world, and an announcement "
                "must be true. Nothing changed.")
    except ValueError as e:  # a formula that does not parse, an unknown atom or agent
        return f"Not announced: {e}"
    gone = made.worlds_before - made.worlds_after
    return (f"The teacher announced {made.text}: {gone:,} world{'s' * (gone != 1)} removed "
            f"({made.worlds_before:,} → {made.worlds_after:,}). The players act on it from "
            "the next turn.")


@solara.component
def ParameterForm(pending: solara.Reactive[Defaults], seed_text: solara.Reactive[str],
                  disabled: bool):
    """The next game's settings, in one row; the header's message says when they differ from
    the game on screen and refuses a seed that is not a whole number."""
    s = pending.value

    def set_field(**change) -> None:
        pending.set(replace(pending.value, **change))

    boards = builtin_boards()
    kinds = list(KIND_CHOICES) + ([s.agents] if s.agents not in KIND_CHOICES else [])
    if s.rules == OpenRules.variant:  # its line-ups first, where a teacher looks
        kinds = [*OPEN_LINEUPS, *(k for k in kinds if k not in OPEN_LINEUPS)]
    with solara.Row(gap="10px", style="flex-wrap:wrap;align-items:flex-end",
                    classes=["ttr-params"]):
        solara.Select("Board", value=s.board, values=boards if s.board in boards
                      else [s.board, *boards], on_value=lambda v: set_field(board=v),
                      disabled=disabled, dense=True, style="max-width:116px")
        solara.Select("Players", value=s.players, values=sorted({2, 3, 4, s.players}),
                      on_value=lambda v: set_field(players=int(v)), disabled=disabled,
                      dense=True, style="max-width:70px")
        solara.Select("Tickets each", value=s.tickets,
                      values=sorted({1, 2, 3, 4, s.tickets}),
                      on_value=lambda v: set_field(tickets=int(v)), disabled=disabled,
                      dense=True, style="max-width:90px")
        solara.Select("Rules", value=s.rules, values=list(EPISTEMIC_RULES),
                      on_value=lambda v: set_field(rules=v), disabled=disabled, dense=True,
                      style="max-width:96px")
        solara.Select("Agent kinds (repeated over the seats)", value=s.agents, values=kinds,
                      on_value=lambda v: set_field(agents=v), disabled=disabled, dense=True,
                      style="max-width:240px;min-width:200px")
        seed_box(pending, seed_text, disabled)


def seed_box(pending: solara.Reactive[Defaults], seed_text: solara.Reactive[str],
             disabled: bool) -> None:
    """The seed field, red (and Reset disabled) unless its text is a whole number."""
    def on_seed(text: str) -> None:
        seed_text.set(text)
        if seed_error(text) is None:
            pending.set(replace(pending.value, seed=fields.seed(text)))

    solara.InputText("Seed", value=seed_text.value, on_value=on_seed, continuous_update=True,
                     error=seed_error(seed_text.value) is not None, disabled=disabled,
                     dense=True, style="max-width:90px")
