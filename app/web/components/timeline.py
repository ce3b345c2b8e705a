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


@solara.component
def TimelineCard(timeline: Timeline, start: Callable[..., None], busy: bool):
    """Back, Forward and a slider over every moment; the work runs in the page's worker."""
    update_counter.get()
    last = len(timeline.moments) - 1
    with solara.Card("Timeline", margin=0):
        with solara.Row(gap="8px", style="align-items:center"):
            solara.Button("◀ Back", on_click=lambda: start("goto", target=timeline.position - 1),
                          disabled=busy or not timeline.can_back, small=True,
                          attributes={"title": "the moment before: a turn or an announcement"})
            with solara.Div(style="flex:1;min-width:160px", classes=["ttr-moments"]):
                solara.SliderInt("", value=timeline.position, min=0, max=max(last, 1),
                                 on_value=lambda i: start("goto", target=min(int(i), last)),
                                 disabled=busy or last == 0, thumb_label=True)
            solara.Button("Forward ▶", on_click=lambda: start("goto",
                                                               target=timeline.position + 1),
                          disabled=busy or timeline.at_end, small=True,
                          attributes={"title": "the next recorded moment"})
        solara.HTML(tag="div", unsafe_innerHTML=moment_html(timeline),
                    attributes={"data-testid": "timeline"}, style="font-size:13px")
