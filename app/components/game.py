"""The main area of the page: the perspective switch, then board and worlds side by side, then
the teaching panels. The page (``app.app``) draws the sidebar (controls, parameters); this draws
the rest, in fixed columns: the board and the worlds picture need half the width and real
height each.
"""

from __future__ import annotations

import threading

import solara
from matplotlib.axes import Axes
from matplotlib.ticker import FuncFormatter, LogLocator, NullFormatter
from mesa.visualization import make_plot_component
from mesa.visualization.utils import update_counter

from agents.model import TTRModel
from app.components.board import BoardView
from app.components.formula import FormulaBox, evaluate_formula
from app.components.panels import EventLog, Hand, KnowledgeTable, Scores, Status
from app.components.style import player_name
from app.components.worlds import WorldsView

OUTSIDE = "outside"


def _worlds_axes(ax: Axes) -> None:
    """Worlds fall by factors, so a log scale shows every announcement as a visible step."""
    if (figure := ax.get_figure(root=True)) is not None:
        figure.set_size_inches(6, 2.6)
    ax.set_yscale("log")
    ax.yaxis.set_major_locator(LogLocator(subs=(1.0, 2.0, 5.0)))
    ax.yaxis.set_major_formatter(FuncFormatter(lambda v, _pos: f"{v:,.0f}"))
    ax.yaxis.set_minor_formatter(NullFormatter())
    ax.set_ylabel("possible deals")
    ax.grid(True, which="major", alpha=0.3)
    if (legend := ax.get_legend()) is not None:
        legend.remove()


WorldsPlot, _ = make_plot_component({"Worlds": "#546e7a"}, post_process=_worlds_axes)


def perspective_of(choice: str, players: int) -> int | None:
    """The seat a perspective choice names, or None for the outside view (or a seat that a
    smaller new game no longer has)."""
    if choice == OUTSIDE or not choice.isdigit() or int(choice) >= players:
        return None
    return int(choice)


@solara.component
def GameView(model: TTRModel, busy: bool = False, lock: threading.RLock | None = None):
    update_counter.get()
    choice = solara.use_reactive(OUTSIDE)
    formula = solara.use_reactive("")
    players = model.rules.players
    view = perspective_of(choice.value, players)
    result = solara.use_memo(lambda: evaluate_formula(model, formula.value),
                             [model, model.turn, formula.value])
    with solara.Column(gap="12px", style="padding:8px"):
        Status(model)
        with solara.Row(style="align-items:center;flex-wrap:wrap"):
            solara.Text("Whose view:", style="font-weight:600")
            solara.ToggleButtonsSingle(
                value=OUTSIDE if view is None else str(view), on_value=choice.set,
                children=[solara.Button("Outside view (the real deal)", value=OUTSIDE,
                                        disabled=busy),
                          *(solara.Button(player_name(p), value=str(p), disabled=busy)
                            for p in range(players))])
        with solara.Columns([1, 1], gutters_dense=True):
            BoardView(model, view)
            WorldsView(model, view, result.values, lock, busy)
        with solara.Columns([1, 1], gutters_dense=True):
            with solara.Column(gap="12px"):
                FormulaBox(model, formula, result, disabled=busy)
                EventLog(model)
            with solara.Column(gap="12px"):
                if view is not None:
                    Hand(model, view)
                KnowledgeTable(model, view)
                Scores(model, view)
                with solara.Card("Possible deals over turns (one step is one turn)", margin=0):
                    WorldsPlot(model)
