"""The worlds card: the possible-worlds picture of ``app.worlds`` for the game on screen.

The picture is server-rendered SVG (``app.worlds.svg`` says why not pyvis). A layout is made
once per game and agent in focus and kept, so worlds keep their places from step to step and a
removed world fades out where it stood. The agent in focus is the viewing player in a player's
view; in the outside view the teacher picks it.
"""

from __future__ import annotations

import threading
from html import escape

import numpy as np
import solara
from mesa.visualization.utils import update_counter

from agents.model import TTRModel
from app.components.style import player_colour, player_name, swatch
from app.worlds.layout import Marking, Picture, WorldsLayout, layout_for
from app.worlds.svg import picture_svg
from kripke.deal import DealModel
from kripke.model import KripkeModel


class GameNames:
    """Players by seat, classes by the ids of the tickets held, worlds by the whole deal."""

    def __init__(self, model: TTRModel) -> None:
        self.tickets = model.board.tickets

    def agent(self, agent) -> str:
        return player_name(int(agent))

    def hand(self, model: KripkeModel, agent, key: int) -> tuple[str, ...]:
        assert isinstance(model, DealModel)  # a game's knowledge is a deal model
        return tuple(str(t) for t in model.hand(agent, key))

    def world(self, model: KripkeModel, index: int) -> str:
        assert isinstance(model, DealModel)
        return "\n".join(f"{player_name(p)}: " + ", ".join(
            f"t{t} {self.tickets[t]}" for t in hand) for p, hand in enumerate(model.deal(index)))


def first_worlds(model: TTRModel) -> KripkeModel:
    """The model as dealt when small enough to draw every world (ghosts of removed worlds
    included), else the current one (a summary needs no universe)."""
    first = getattr(model, "first_worlds", None)
    return first if first is not None else model.worlds


def worlds_picture(model: TTRModel, layouts: dict[int, WorldsLayout], focus: int,
                   perspective: int | None, values: np.ndarray | None) -> Picture:
    """The picture with ``focus``'s classes as regions, made from a kept layout."""
    if focus not in layouts:
        layouts[focus] = layout_for(first_worlds(model), focus, GameNames(model))
    return layouts[focus].picture(model.worlds, Marking(perspective, values))


def caption_html(model: TTRModel, picture: Picture, perspective: int | None) -> str:
    head = (f"<b data-testid='worlds-count'>{model.world_count:,}</b> of "
            f"{model.initial_worlds:,} deals still possible. ")
    if model.world_count == 1:
        head += "Only the actual world is left: every player knows the whole deal. "
    if perspective is not None:
        n = len(model.worlds.possible_worlds(perspective))
        head += (f"{player_name(perspective).capitalize()} cannot tell apart the "
                 f"{n:,} in its ★ class; the others are faded (it has ruled them out). ")
    return head + escape(picture.caption)


def legend_html(picture: Picture, values: np.ndarray | None) -> str:
    agents = "".join(f"<span style='margin-right:.8em'>{swatch(int(a))}{player_name(int(a))}"
                     "</span>" for a in picture.agents)
    formula = (" <span style='color:var(--formula-ink)'>●</span> formula true, "
               "<span style='color:var(--formula-ink)'>○</span> false (a partly filled tile: "
               "true in some of its worlds)." if values is not None else "")
    return (f"{agents}<br>★ the actual world. Hover any world for its deal. A box, column or "
            "row in a player's colour: the worlds that player cannot tell apart (the one "
            "outlined holds the actual world); a line in a player's colour joins worlds that "
            "player cannot tell apart. A small pale dot: a world removed by an announcement."
            + formula)


@solara.component
def WorldsView(model: TTRModel, perspective: int | None, values: np.ndarray | None,
               lock: threading.RLock | None = None, busy: bool = False):
    """The worlds card: what is drawn (caption), the picture and its key."""
    update_counter.get()
    players = model.rules.players
    chosen = solara.use_reactive(0)
    layouts: dict[int, WorldsLayout] = solara.use_memo(dict, [model])
    focus = perspective if perspective is not None else min(chosen.value, players - 1)
    with lock or threading.RLock():
        picture = worlds_picture(model, layouts, focus, perspective, values)
        caption = caption_html(model, picture, perspective)
    with solara.Card("Possible worlds", margin=0, style="height:100%"):
        solara.HTML(tag="div", unsafe_innerHTML=caption,
                    attributes={"data-testid": "worlds-caption"}, style="font-size:14px")
        if perspective is None:
            with solara.Row(style="align-items:center;flex-wrap:wrap;gap:4px"):
                solara.Text("Columns by:", style="font-size:13px")
                solara.ToggleButtonsSingle(
                    value=focus, on_value=chosen.set, dense=True,
                    children=[solara.Button(f"{player_name(p)}'s tickets", value=p, text=True,
                                            disabled=busy, style="text-transform:none")
                              for p in range(players)])
        solara.HTML(tag="div", unsafe_innerHTML=picture_svg(picture, lambda a: player_colour(
            int(a))), attributes={"data-testid": "worlds-graph",
                                  "data-drawn-worlds": str(picture.drawn_worlds)},
                    style="margin-top:6px")
        solara.HTML(tag="div", unsafe_innerHTML=legend_html(picture, values),
                    attributes={"data-testid": "worlds-legend"},
                    style="font-size:12px;opacity:.8;margin-top:6px")


