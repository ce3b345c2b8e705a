"""The browser demo: step through a game with the board and the possible worlds side by side.

Start it with ``ttr-kripke app`` (or ``solara run app.app:page``). Mesa's example shape: the
model's parameters, then ``page = SolaraViz(...)``. The page is wrapped in a component that
creates the model, because a model built at import time would be one object shared by every
browser tab; created inside the page, each tab (each Solara session) gets its own game.
"""

import solara
from mesa.visualization import SolaraViz

from app.components.game import GameView
from app.components.session import defaults, model_params, new_model

DEFAULTS = defaults()


@solara.component
def Page():
    model = solara.use_reactive(solara.use_memo(lambda: new_model(DEFAULTS), []))
    solara.Title("ttr-kripke: who knows which ticket")
    SolaraViz(model, components=[], model_params=model_params(DEFAULTS),
              name="ttr-kripke: who knows which ticket", play_interval=500)
    GameView(model.value)


page = Page()
page  # noqa: B018
