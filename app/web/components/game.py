"""The main area of the page: board and worlds side by side, then the teaching panels; and the
perspective switch the page puts in its header. The page (``app.web.app``) draws the header
(controls, settings, status, whose view); this draws the rest, in fixed columns: the board and
the worlds picture need half the width and real height each.
"""

from __future__ import annotations

import math
import threading
from collections.abc import Callable

import solara
from mesa.visualization.utils import update_counter

from agents.model import TTRModel
from app.web.components.belief_shading import BELIEF_HINT, belief_examples
from app.web.components.board import BoardView
from app.web.components.exports import Exports
from app.web.components.formula import GAME_HINT, FormulaBar, FormulaHelp, examples, use_formula
from app.web.components.panels import EventLog, Hand, KnowledgeTable, Scores
from app.web.components.session import Session
from app.web.components.style import player_name
from app.web.components.timeline import TimelineCard
from app.web.components.why import use_why
from app.web.components.worlds import GameNames, WorldsView

OUTSIDE = "outside"

CHART_W, CHART_H = 560.0, 150.0
CHART_LEFT, CHART_BOTTOM, CHART_TOP = 84.0, 24.0, 10.0


def deals_chart_svg(model: TTRModel) -> str:
    """Possible deals per turn, from the DataCollector, on a log scale (worlds fall by factors,
    so each announcement shows as a step): an SVG in the page's colours, light or dark.

    Not Mesa's matplotlib plot component: it redrew a PNG on every render of the page, which
    cost more than the rest of a perspective switch together, and stayed white in dark mode.
    """
    counts = [int(c) for c in model.datacollector.model_vars["Worlds"]]
    top = max(counts[0], 10)
    turns = max(len(counts) - 1, 10)
    decades = max(math.ceil(math.log10(top)), 1)
    inner_w = CHART_W - CHART_LEFT - 10
    inner_h = CHART_H - CHART_TOP - CHART_BOTTOM

    def x(turn: float) -> float:
        return CHART_LEFT + inner_w * turn / turns

    def y(count: int) -> float:
        return CHART_TOP + inner_h * (1 - math.log10(max(count, 1)) / decades)

    parts = []
    for d in range(decades + 1):
        parts.append(f'<line class="grid" x1="{CHART_LEFT}" x2="{CHART_W - 10}" '
                     f'y1="{y(10 ** d):.1f}" y2="{y(10 ** d):.1f}"/>'
                     f'<text x="{CHART_LEFT - 6}" y="{y(10 ** d) + 4:.1f}" text-anchor="end">'
                     f"{10 ** d:,}</text>")
    step = max(1, math.ceil(turns / 10))
    for t in range(0, turns + 1, step):
        parts.append(f'<text x="{x(t):.1f}" y="{CHART_H - 6}" text-anchor="middle">{t}</text>')
    path = f"M{x(0):.1f},{y(counts[0]):.1f}" + "".join(
        f" H{x(t):.1f} V{y(c):.1f}" for t, c in enumerate(counts) if t)
    parts.append(f'<path class="deals" d="{path}"/>')
    for t, c in enumerate(counts):
        parts.append(f'<circle class="deals" cx="{x(t):.1f}" cy="{y(c):.1f}" r="3">'
                     f"<title>after turn {t}: {c:,} possible deals</title></circle>")
    return (f'<svg class="ttr-chart" viewBox="0 0 {CHART_W:.0f} {CHART_H:.0f}" role="img" '
            f'aria-label="possible deals over turns" data-testid="deals-chart" '
            'xmlns="http://www.w3.org/2000/svg" style="width:100%;height:auto;display:block">'
            + "".join(parts) + "</svg>")


@solara.component
def DealsChart(model: TTRModel):
    update_counter.get()
    with solara.Card("Possible deals over turns (one step is one turn)", margin=0):
        solara.HTML(tag="div", unsafe_innerHTML=deals_chart_svg(model))


def perspective_of(choice: str, players: int) -> int | None:
    """The seat a perspective choice names, or None for the outside view (or a seat that a
    smaller new game no longer has)."""
    if choice == OUTSIDE or not choice.isdigit() or int(choice) >= players:
        return None
    return int(choice)


@solara.component
def ViewChoice(choice: solara.Reactive[str], players: int, busy: bool = False):
    """Whose view the page shows: the outside view (the real deal) or one player's."""
    view = perspective_of(choice.value, players)
    with solara.Row(style="align-items:center;gap:6px", classes=["ttr-views"]):
        solara.Text("Whose view:", style="font-weight:600")
        solara.ToggleButtonsSingle(
            value=OUTSIDE if view is None else str(view), on_value=choice.set, dense=True,
            children=[solara.Button("Outside view (the real deal)", value=OUTSIDE,
                                    disabled=busy),
                      *(solara.Button(player_name(p), value=str(p), disabled=busy)
                        for p in range(players))])


@solara.component
def GameView(session: Session, view: int | None, busy: bool = False,
             lock: threading.RLock | None = None,
             start: Callable[..., None] = lambda *a, **k: None, said: str = "",
             forget: Callable[[], None] = lambda: None):
    """The game below the header; ``said`` is what the last Announce did, which ``forget``
    clears once another formula is typed (it was about the one before)."""
    update_counter.get()
    model = session.model
    formula = solara.use_reactive("")
    worlds = model.worlds  # as rendered: the result's values are this model's
    result = use_formula(worlds, formula.value)
    solara.use_effect(forget, [formula.value])

    def naming() -> tuple[Callable[..., str], Callable[..., str]]:
        names = GameNames(model)  # under the lock: a game's names are read from its model
        return names.cited, names.agent

    why = use_why(worlds, result, naming, [model, worlds, formula.value, result.pending], lock)
    numbers = why.numbers

    def formula_bar() -> None:
        FormulaBar(formula, result, model.world_count, disabled=busy,
                   announce=lambda: start("announce", formula=formula.value), said=said,
                   why=why.shown, chain=why.chain, step=why.step, explaining=why.running,
                   why_refused=why.refused,
                   hint=BELIEF_HINT if belief_examples(model) else GAME_HINT)

    with solara.Column(gap="10px", style="padding:6px 8px 8px 8px"):
        with solara.Columns([1, 1], gutters_dense=True, classes=["ttr-main"]):
            BoardView(model, view)
            WorldsView(session, view, result.values, lock, busy, numbers, formula_bar,
                       result.text)
        with solara.Columns([1, 1], gutters_dense=True):
            with solara.Column(gap="12px"):
                FormulaHelp(formula, belief_examples(model) + examples(model), disabled=busy)
                TimelineCard(session.timeline, start, busy)
                Exports(session, view, result.values, set(numbers))
                EventLog(model)
            with solara.Column(gap="12px"):
                if view is not None:
                    Hand(model, view)
                KnowledgeTable(model, view)
                Scores(model, view)
                DealsChart(model)
