"""The timeline: every moment of the game so far (the deal, each turn, each outside
announcement), to go back to any of them and forward again (``agents.timeline`` keeps them as
snapshots). Going back and then announcing something new, or playing a turn where an
announcement was recorded, starts a new branch; the card says so before it happens."""

from __future__ import annotations

from collections.abc import Callable
from html import escape

import solara
from mesa.visualization.utils import update_counter

from agents.timeline import Timeline


def moment_html(timeline: Timeline) -> str:
    """Where the game stands: the moment's number and what happened at it."""
    moment = timeline.moments[timeline.position]
    last = len(timeline.moments) - 1
    where = (f"<b data-testid='moment'>moment {timeline.position} of {last}</b>: "
             f"{escape(moment.label)}")
    if timeline.at_end:
        return where + " <span style='opacity:.7'>(the latest)</span>"
    return (where + f" <span style='color:#e65100'>· {last - timeline.position} later "
            "moment(s) kept: Forward replays them; a new announcement here replaces them "
            "(a new branch).</span>")


def slider(timeline: Timeline, start: Callable[..., None], busy: bool) -> None:
    """A slider over every moment of the game."""
    last = len(timeline.moments) - 1
    with solara.Div(style="flex:1;min-width:160px", classes=["ttr-moments"]):
        solara.SliderInt("", value=timeline.position, min=0, max=max(last, 1),
                         on_value=lambda i: start("goto", target=min(int(i), last)),
                         disabled=busy or last == 0, thumb_label=True)


@solara.component
def MomentSteps(back: Callable[[], None], forward: Callable[[], None], can_back: bool,
                can_forward: bool, forward_label: str = "Forward ▶",
                forward_title: str = "the next recorded moment",
                back_title: str | None = "the moment before: a turn or an announcement",
                color: str | None = None, between: Callable[[], None] = lambda: None):
    """◀ Back, what goes ``between`` (the game's slider over its moments) and the button to
    the next moment (``forward``: Forward on the game, Step on a puzzle's story), laid out in
    the row around them (``display:contents``): the game's timeline and the story of the
    puzzle and model pages step through their moments alike."""
    with solara.Div(style="display:contents"):
        solara.Button("◀ Back", on_click=back, disabled=not can_back, small=True, color=color,
                      attributes={"title": back_title} if back_title is not None else {})
        between()
        solara.Button(forward_label, on_click=forward, disabled=not can_forward, small=True,
                      color=color, attributes={"title": forward_title})


@solara.component
def TimelineCard(timeline: Timeline, start: Callable[..., None], busy: bool):
    """Back, Forward and a slider over every moment; the work runs in the page's worker."""
    update_counter.get()
    with solara.Card("Timeline", margin=0):
        with solara.Row(gap="8px", style="align-items:center"):
            MomentSteps(lambda: start("goto", target=timeline.position - 1),
                        lambda: start("goto", target=timeline.position + 1),
                        not busy and timeline.can_back, not busy and not timeline.at_end,
                        between=lambda: slider(timeline, start, busy))
        solara.HTML(tag="div", unsafe_innerHTML=moment_html(timeline),
                    attributes={"data-testid": "timeline"}, style="font-size:13px")
