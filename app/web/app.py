"""The browser demo: step through a game with the board and the possible worlds side by side.

Start it with ``ttr-kripke app`` (or ``solara run app.web.app:page``). Mesa's example shape: a
Mesa model with its DataCollector feeding the views, and ``page`` at the end. The controls are
the app's own (``app.web.components.controls`` says why SolaraViz's are not used).
The game is created inside the page, as a ``Session`` (the model, its settings and timeline,
``app.web.components.session``), so each browser tab (each Solara session) has its own game; a
model built at import time would be one object shared by every tab.

No app bar and no sidebar: at 1280 × 800 they took a third of the height and of the width
that the board and the worlds picture need, which must both fit the first screen of a
projector. Two rows of header hold the controls, the next game's settings, the status, whose
view is shown and one line of news; a thin bar under them runs while work does.
"""

import threading

import solara

from app.web.components.controls import (
    ControlBar,
    Job,
    Message,
    ParameterForm,
    busy_text,
    run_job,
)
from app.web.components.game import OUTSIDE, GameView, ViewChoice, perspective_of
from app.web.components.model_page import ModelPage
from app.web.components.panels import Status
from app.web.components.puzzles import PuzzlePage
from app.web.components.session import defaults, new_session
from app.web.components.style import PAGE_CSS

DEFAULTS = defaults()
TITLE = "ttr-kripke: who knows which ticket"


@solara.component
def Page():
    session = solara.use_reactive(solara.use_memo(lambda: new_session(DEFAULTS), []))
    lock = solara.use_memo(threading.RLock, [])  # held while the model changes
    active = solara.use_memo(threading.Event, [])  # set from a click until its work is done
    job = solara.use_reactive(None)
    done = solara.use_reactive(0)  # serial of the last finished job
    playing = solara.use_reactive(False)
    pending = solara.use_reactive(DEFAULTS)
    seed_text = solara.use_reactive(str(DEFAULTS.seed))
    choice = solara.use_reactive(OUTSIDE)
    said = solara.use_reactive("")  # the outcome of the last Announce

    def work() -> None:
        if job.value is not None and job.value.serial != done.value:
            run_job(job.value, session, playing, lock, lambda: (active.clear(),
                                                              done.set(job.value.serial)),
                    said.set)

    solara.use_thread(work, dependencies=[job.value], intrusive_cancel=False)
    busy = busy_text(job.value) if job.value and job.value.serial != done.value \
        else ""

    def start(kind: str, target: int = 0, formula: str = "") -> None:
        if active.is_set():  # work is running: a click never queues behind it
            return
        active.set()
        if kind == "play":
            playing.set(True)
        if kind in ("reset", "goto"):
            said.set("")
        job.set(Job(kind, (job.value.serial if job.value else 0) + 1,
                    pending.value if kind == "reset" else None, session.value.model.turn, target,
                    formula))

    game = session.value.model
    players = game.rules.players
    solara.Title(TITLE)
    solara.Style(PAGE_CSS)
    with solara.Card(margin=0, classes=["ttr-header"]):
        with solara.Row(classes=["ttr-header-row"]):
            solara.HTML(tag="div", unsafe_innerHTML="ttr-kripke", classes=["ttr-brand"],
                        attributes={"title": TITLE})
            NavLinks(("/puzzles", "Puzzle gallery", "the classic puzzles, step by step"),
                     ("/model", "Your model", "write or upload a Kripke model of your own"))
            ControlBar(game, playing, busy, start,
                       settings_ok=str(pending.value.seed) == seed_text.value.strip())
            ParameterForm(pending, seed_text, disabled=bool(busy))
            solara.v.Spacer()
            with solara.Div(classes=["ttr-theme"]):
                solara.lab.ThemeToggle()
        with solara.Row(classes=["ttr-header-row"]):
            Status(game)
            ViewChoice(choice, players, bool(busy))
            Message(busy, game.running, seed_text.value,
                    pending.value != session.value.settings and not busy)
        if busy:
            solara.ProgressLinear(True, classes=["ttr-progress"])
    GameView(session.value, perspective_of(choice.value, players), busy=bool(busy), lock=lock,
             start=start, said=said.value, forget=lambda: said.set(""))


@solara.component
def NavLinks(*links: tuple[str, str, str]):
    """Links to the app's other pages, (path, label, hover text) each: small text buttons
    stacked in a column, so they take the height of the header's fields and not its width
    (at 1280 pixels the game's header row holds the controls, the settings and the theme
    switch on one line)."""
    with solara.Column(gap="0", classes=["ttr-nav"]):
        for path, label, title in links:
            with solara.Link(path):
                solara.Button(label, small=True, text=True, color="primary",
                              attributes={"title": title})


@solara.component
def Puzzles():
    solara.Title("ttr-kripke: the puzzle gallery")
    solara.Style(PAGE_CSS)
    PuzzlePage(home=lambda: NavLinks(("/", "Game", "back to the game"),
                                     ("/model", "Your model", "a Kripke model of your own")))


@solara.component
def YourModel():
    solara.Title("ttr-kripke: your model")
    solara.Style(PAGE_CSS)
    ModelPage(home=lambda: NavLinks(("/", "Game", "back to the game"),
                                    ("/puzzles", "Puzzle gallery", "the classic puzzles")),
              search=solara.use_router().search)


@solara.component
def Layout(children=()):
    """No app bar, no sidebar (the game needs the whole screen): each page's header links to
    the other."""
    solara.Column(children=list(children), gap="0")


#: The game stays the home page; the puzzles have their own (``/puzzles``).
routes = [solara.Route(path="/", component=Page, label="Game", layout=Layout),
          solara.Route(path="puzzles", component=Puzzles, label="Puzzles"),
          solara.Route(path="model", component=YourModel, label="Your model")]
page = Page()
page  # noqa: B018
