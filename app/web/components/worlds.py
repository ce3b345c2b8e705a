"""The worlds card: the possible-worlds picture of ``app.worlds`` for the game on screen.

The picture is server-rendered SVG (``app.worlds.svg`` says why not pyvis). A layout is made
once per game and agent in focus and kept, so worlds keep their places from step to step and a
removed world fades out where it stood. The agent in focus is the viewing player in a player's
view; in the outside view the teacher picks it.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Collection, Mapping
from html import escape

import solara
from mesa.visualization.utils import update_counter

from agents.model import TTRModel
from app.web.components.belief_shading import belief_legend, belief_step, news_html
from app.web.components.formula import numbered
from app.web.components.session import Session
from app.web.components.style import player_ink, player_name, swatch
from app.worlds.layout import (
    GOING,
    GONE,
    AnyModel,
    Marking,
    Picture,
    WorldsLayout,
    layout_for,
)
from app.worlds.svg import picture_svg
from kripke.interface import Values
from kripke.parts import Partitioned


class GameNames:
    """Players by seat, classes by the ids of the tickets held, worlds by the whole deal."""

    classes = "hands"
    part = "ticket"
    verb = "holds"

    def __init__(self, model: TTRModel) -> None:
        self.tickets = model.board.tickets

    def agent(self, agent) -> str:
        return player_name(int(agent))

    def hand(self, model: AnyModel, agent, key: int) -> tuple[str, ...]:
        named = model.class_name(agent, key)
        assert named is not None  # a game's model is a deal: a class is a hand of tickets
        return named

    @staticmethod
    def hands(model: Partitioned, index: int) -> list[tuple[str, ...]]:
        """The ticket ids each player holds in a world of a game's listed worlds."""
        named = [model.class_name(p, model.class_key(p, index)) for p in model.agents]
        assert None not in named  # a game's model is a deal: a class is a hand of tickets
        return [hand or () for hand in named]

    def world(self, model: Partitioned, index: int) -> str:
        return "\n".join(f"{player_name(p)}: " + ", ".join(
            f"t{t} {self.tickets[int(t)]}" for t in hand)
            for p, hand in enumerate(self.hands(model, index)))

    def cited(self, model: Partitioned, index: int) -> str:
        """A world as Why? cites it: each player's tickets by id, as the picture's axes name
        them (the cities are in the tables and in the world's hover text)."""
        return "; ".join(f"{player_name(p)}: " + ", ".join(f"t{t}" for t in hand)
                         for p, hand in enumerate(self.hands(model, index)))


type Layouts = dict[tuple[int, bool], WorldsLayout]


def worlds_picture(model: TTRModel, layouts: Layouts, focus: int, perspective: int | None,
                   values: Values | None, highlight: Collection[int] = (),
                   first: AnyModel | None = None) -> Picture:
    """The picture with ``focus``'s classes as regions, made from a kept layout (one per focus
    and kind of view: a player's view opens only what that player knows). A layout is made
    from ``first``, the model as dealt when the session kept it (small enough to draw every
    world, ghosts of removed worlds included), else from the model now, of either backend (a
    summary needs no universe)."""
    key = (focus, perspective is not None)
    if key not in layouts:
        layouts[key] = layout_for(first if first is not None else model.worlds, focus,
                                  GameNames(model), private=perspective is not None)
    return layouts[key].picture(model.worlds, Marking(perspective, values, highlight))


def caption_html(model: TTRModel, picture: Picture, perspective: int | None) -> str:
    head = (f"<b data-testid='worlds-count'>{model.world_count:,}</b> of "
            f"{model.initial_worlds:,} deals still possible. ")
    if model.world_count == 1:
        head += "Only the actual world is left: every player knows the whole deal. "
    if perspective is not None:
        n = model.worlds.possible_count(perspective)
        head += (f"{player_name(perspective).capitalize()} cannot tell apart the {n:,} "
                 f"world{'s' * (n != 1)} of its own class (outlined); it has ruled out the "
                 "rest (faded). ")
    return head + escape(picture.caption)


def legend_html(picture: Picture, perspective: int | None, values: Values | None) -> str:
    """The key to what this picture draws, and only that."""
    agents = "".join(f"<span style='margin-right:.8em'>{swatch(int(a))}{player_name(int(a))}"
                     "</span>" for a in picture.agents)
    tiles = any(m.tile for m in picture.marks)
    if perspective is None:
        star = "★ the actual world (on a tile: the tile holding it)."
    elif any(m.actual for m in picture.marks):  # a tile of the player's own classes
        star = ("★ on a tile: the tile holding this player's own hand, which it knows; no "
                "world is starred, since it does not know which one is actual.")
    else:
        star = "No world is starred: this player does not know which one is actual."
    parts = [star,
             "Hover any world or tile for what it holds.",
             "A box, column or row in a player's colour: the worlds that player cannot tell "
             "apart (the one outlined holds the actual world)."]
    if picture.links:
        parts.append("A line in a player's colour joins worlds that player cannot tell apart.")
    if tiles:
        parts.append("A tile: some classes of one player, its area the share of its dealt "
                     "worlds still possible, its number the worlds left"
                     + ("; hollow: ruled out by this player." if perspective is not None
                        else "."))
    if any(m.state in (GONE, GOING) for m in picture.marks):
        parts.append("A small pale dot" + (" or an empty dashed square" if tiles else "")
                     + ": removed by an announcement.")
    if perspective is not None and not tiles:
        parts.append("Faded: ruled out by this player.")
    if any(m.highlight for m in picture.marks):
        parts.append("A dashed orange ring, numbered: a world the steps of Why? rest on.")
    if values is not None:
        parts.append("<span style='color:var(--formula-ink)'>●</span> formula true, "
                     "<span style='color:var(--formula-ink)'>○</span> false"
                     + (" (a partly filled tile: true in some of its worlds)." if tiles
                        else "."))
    return f"{agents}<br>" + " ".join(parts)


@solara.component
def WorldsView(session: Session, perspective: int | None, values: Values | None,
               lock: threading.RLock | None = None, busy: bool = False,
               numbers: Mapping[int, str] | None = None,
               formula: Callable[[], None] = lambda: None, typed: str = ""):
    """The worlds card: the formula box (``formula`` draws it, on the first screen with the
    picture), what is drawn (caption), the picture, its rings numbered by the steps of Why?
    (``numbers``: world id to step numbers), and its key. ``typed`` is the formula ``values``
    are of: with the model it says which values these are (an array's ``id`` would not: a
    freed array's id is reused by the next).

    The picture is made once per shown model, focus, view and formula (``use_memo``): the page
    renders several times per turn (the turn, then the controls coming back) and a layout
    marks as fading what left since the picture before, so it must see each model once.
    """
    update_counter.get()
    model = session.model
    players = model.rules.players
    chosen = solara.use_reactive(0)
    layouts: Layouts = solara.use_memo(dict, [model])
    focus = perspective if perspective is not None else min(chosen.value, players - 1)
    rung = numbers or {}

    def draw() -> tuple[str, Picture, str, str]:
        with lock or threading.RLock():
            picture = worlds_picture(model, layouts, focus, perspective, values, set(rung),
                                     session.first_worlds)
            caption = caption_html(model, picture, perspective)
            belief = belief_step(model, session.timeline, focus)  # None: no order to draw
            news = ""
            if belief is not None:
                picture = belief.picture(picture, layouts[(focus, perspective is not None)],
                                         model.worlds)
                news = news_html(belief, model, session.timeline, perspective is None)
        return (picture_svg(numbered(picture, rung), lambda a: player_ink(int(a))), picture,
                caption, news)

    svg, picture, caption, news = solara.use_memo(
        draw, [model, model.worlds, focus, perspective, typed,
               tuple(sorted(rung.items())), session.timeline.position])
    with solara.Card(margin=0, style="height:100%", classes=["ttr-card"]):
        with solara.Row(style="align-items:center;flex-wrap:wrap;gap:4px 10px"):
            solara.HTML(tag="div", unsafe_innerHTML="Possible worlds", classes=["ttr-title"])
            if perspective is None:  # a player's view shows that player's classes
                solara.Text("classes of player", style="font-size:13px")
                solara.ToggleButtonsSingle(
                    value=focus, on_value=chosen.set, dense=True, classes=["ttr-focus"],
                    children=[solara.Button(str(p), value=p, text=True, disabled=busy,
                                            attributes={"title": "draw the classes of "
                                                        f"{player_name(p)} as columns or tiles"})
                              for p in range(players)])
        formula()
        solara.HTML(tag="div", unsafe_innerHTML=caption,
                    attributes={"data-testid": "worlds-caption"},
                    style="font-size:13px;line-height:1.35;margin-top:2px")
        if news:  # shaded as the event log shades a turn that announced something
            solara.HTML(tag="div", unsafe_innerHTML=news,
                        attributes={"data-testid": "belief-news"},
                        style="font-size:13px;line-height:1.35;margin-top:3px;padding:2px 6px;"
                              "background:rgba(255,213,79,.18);border-left:3px solid #ffb300")
        solara.HTML(tag="div", unsafe_innerHTML=svg,
                    attributes={"data-testid": "worlds-graph",
                                "data-drawn-worlds": str(picture.drawn_worlds)},
                    style="margin-top:4px")
        solara.HTML(tag="div", unsafe_innerHTML=legend_html(picture, perspective, values)
                    + belief_legend(picture, focus),
                    attributes={"data-testid": "worlds-legend"},
                    style="font-size:12px;opacity:.8;margin-top:6px")
