"""The browser demo: step through a game with the board and the possible worlds side by side.

Start it with ``ttr-kripke app`` (or ``solara run app.app:page``). Mesa's example shape: a
Mesa model with its DataCollector feeding the views, and ``page`` at the end. The sidebar's
controls are the app's own (``app.components.controls`` says why SolaraViz's are not used).
The model is created inside the page, so each browser tab (each Solara session) has its own
game; a model built at import time would be one object shared by every tab.
"""

import threading

import solara

from app.components.controls import ControlBar, Job, ParameterForm, busy_text, run_job
from app.components.game import GameView
from app.components.session import defaults, new_model
from app.components.style import PAGE_CSS

DEFAULTS = defaults()


@solara.component
def Page():
    model = solara.use_reactive(solara.use_memo(lambda: new_model(DEFAULTS), []))
    lock = solara.use_memo(threading.RLock, [])  # held while the model changes
    active = solara.use_memo(threading.Event, [])  # set from a click until its work is done
    job = solara.use_reactive(None)
    done = solara.use_reactive(0)  # serial of the last finished job
    playing = solara.use_reactive(False)
    pending = solara.use_reactive(DEFAULTS)
    seed_text = solara.use_reactive(str(DEFAULTS.seed))

    def work() -> None:
        if job.value is not None and job.value.serial != done.value:
            run_job(job.value, model, playing, lock, lambda: (active.clear(),
                                                              done.set(job.value.serial)))

    solara.use_thread(work, dependencies=[job.value], intrusive_cancel=False)
    busy = busy_text(job.value) if job.value and job.value.serial != done.value \
        else ""

    def start(kind: str) -> None:
        if active.is_set():  # work is running: a click never queues behind it
            return
        active.set()
        if kind == "play":
            playing.set(True)
        job.set(Job(kind, (job.value.serial if job.value else 0) + 1,
                    pending.value if kind == "reset" else None, model.value.turn))

    solara.Title("ttr-kripke: who knows which ticket")
    solara.Style(PAGE_CSS)
    with solara.AppBar():
        solara.AppBarTitle("ttr-kripke: who knows which ticket")
        solara.lab.ThemeToggle()
    # No sidebar: at 1280 px it would take a third of the width the board and the worlds
    # picture need. The controls and the next game's settings share one bar above them.
    with solara.Card(margin=0, style="margin:8px 8px 0 8px", classes=["ttr-controls"]):
        with solara.Row(style="align-items:flex-start;flex-wrap:wrap;gap:16px"):
            with solara.Column(gap="4px", style="min-width:300px;flex:1 1 300px"):
                ControlBar(model.value, playing, busy, start,
                           settings_ok=str(pending.value.seed) == seed_text.value.strip())
            with solara.Column(gap="0px", style="flex:3 1 600px"):
                ParameterForm(pending, seed_text, model.value.settings, disabled=bool(busy))
    GameView(model.value, busy=bool(busy), lock=lock)


page = Page()
page  # noqa: B018
