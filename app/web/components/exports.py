"""One click each: the worlds picture as SVG and PNG, the model as JSON, as TikZ for slides and
as an interactive page (``app.worlds.interactive``: drag the worlds apart, offline), and the
game's event log as JSON Lines (what ``ttr-kripke play --log`` writes). Each file is
made when its button is pressed, from what is on screen then (the picture with the formula's
marks and the ringed counterexample, the model after the announcements so far). A model too
big for a file is refused on the page, its button disabled with the reason beside it, not
downloaded as a file that holds only an error."""

from __future__ import annotations

import json
from collections.abc import Callable, Collection, Mapping
from html import escape

import numpy as np
import solara
from mesa.visualization.utils import update_counter

from agents.log import log_header, records
from agents.model import TTRModel
from app.web.components.session import Session
from app.web.components.style import player_colour, player_ink, player_name
from app.worlds.interactive import HTML_WORLDS, interactive_html
from app.worlds.layout import Picture
from app.worlds.png import picture_png
from app.worlds.svg import picture_svg
from app.worlds.tikz import to_tikz
from kripke.errors import ModelTooLargeError
from kripke.files.exchange import to_json
from kripke.language.formula import Agent
from kripke.parts import Drawn, Partitioned

SVG_HEAD = '<?xml version="1.0" encoding="UTF-8"?>\n'
#: The most worlds a JSON file and a TikZ slide hold (``kripke.files.exchange``'s own limits).
JSON_WORLDS, TIKZ_WORLDS = 100_000, 200


def svg_file(picture: Picture, colour: Callable[[Agent], str]) -> str:
    """The picture as a standalone SVG file (its styles inside, printable colours)."""
    return SVG_HEAD + picture_svg(picture, colour, testid="worlds-export") + "\n"


def tikz_file(model: Callable[[int], Partitioned], picture: Picture | None,
              name: Callable[[Partitioned, int], str],
              agent_names: Mapping[Agent, str] | None, title: str) -> str:
    """The model as TikZ, its worlds where the picture draws them (when it draws them), each
    agent in the colour the page gives it. ``model(limit)`` lists the worlds, or refuses past
    ``limit`` (``ModelTooLargeError``)."""
    placed = _placed(picture)
    positions = None if placed is None else {w: (x / 60, y / 60) for w, (x, y) in placed.items()}
    # each name on the side the page wrote it, clear of the edges
    sides = None if picture is None else \
        {wid: (dx, dy) for wid, dx, dy in picture.name_sides} or None
    try:
        listed = model(TIKZ_WORLDS)
        colour = agent_colour(agent_names or {})
        return to_tikz(listed, positions, name, agent_names, title=title,
                       max_worlds=TIKZ_WORLDS, colours={a: colour(a) for a in listed.agents},
                       name_sides=sides)
    except ModelTooLargeError as e:
        return f"% {e}\n"


def html_file(model: Callable[[int], Partitioned], picture: Picture | None,
              name: Callable[[Partitioned, int], str], label: Callable[[Partitioned, int], str],
              agent_names: Mapping[Agent, str] | None, title: str) -> str:
    """The model as an interactive page, each world labelled with its name (``label``),
    described on hover (``name``) and placed where the picture draws it (when it draws it
    world by world), so the page opens as the screen showed it; a model with more edges than
    the page draws gets a page that says so (the worlds were checked already)."""
    try:
        return interactive_html(model(HTML_WORLDS), title=title, name=label, describe=name,
                                agent_names=agent_names, positions=_placed(picture))
    except ValueError as e:  # ModelError, ModelTooLargeError
        return f"<!DOCTYPE html><meta charset='utf-8'><p>{escape(str(e))}</p>\n"


def _placed(picture: Picture | None) -> dict[int, tuple[float, float]] | None:
    """Where the picture draws each world (by id), in its own units; None for a summary."""
    if picture is None:
        return None
    return {int(m.key[1:]): (m.x, m.y) for m in picture.marks
            if not m.tile and m.key.startswith("w")} or None


def model_json(model: Callable[[int], Partitioned], name: Callable[[Partitioned, int], str]
               ) -> str:
    try:
        return json.dumps(to_json(model(JSON_WORLDS), JSON_WORLDS, name=name), indent=1) + "\n"
    except ModelTooLargeError as e:
        return json.dumps({"error": str(e)}) + "\n"


def listed(model: Drawn) -> Callable[[int], Drawn]:
    """A listed model for the files, refused past their limit."""
    def within(limit: int) -> Drawn:
        if model.n_worlds > limit:
            raise ModelTooLargeError(model.n_worlds, limit, task="to write out",
                                     advice="play on until fewer are left")
        return model
    return within


def game_worlds(model: TTRModel) -> Callable[[int], Partitioned]:
    """The game's shared model listed for the files, refused at once past their limit: a
    symbolic game is listed by replaying its announcements (seconds at 63 million deals), which
    is worth doing only for a file that will hold its worlds."""
    def within(limit: int) -> Partitioned:
        if model.world_count > limit:
            raise ModelTooLargeError(model.world_count, limit, task="to write out",
                                     advice="play on until fewer are left")
        return model.state.explicit_worlds
    return within


def refusal(worlds: int, advice: str) -> str | None:
    """Why the model files cannot be made now (None if all can)."""
    if worlds <= TIKZ_WORLDS:
        return None
    which = ("JSON, TikZ or interactive HTML" if worlds > JSON_WORLDS else
             "TikZ or interactive HTML" if worlds > HTML_WORLDS else "TikZ")
    return (f"No model {which}: {worlds:,} worlds are possible, and a JSON file holds at most "
            f"{JSON_WORLDS:,}, a TikZ slide {TIKZ_WORLDS:,}, an interactive page "
            f"{HTML_WORLDS:,}; {advice}.")


def game_log(model: TTRModel) -> str:
    """The event log as ``play --log`` writes it: a header, then one record per action."""
    return "".join(json.dumps(line) + "\n" for line in [log_header(model), *records(model)])


@solara.component
def ExportRow(picture: Callable[[], Picture], model: Callable[[int], Partitioned],
              name: Callable[[Partitioned, int], str], stem: str, worlds: int,
              agent_names: Mapping[Agent, str] | None = None, title: str = "",
              log: Callable[[], str] | None = None, advice: str = "play on until fewer are left",
              label: Callable[[Partitioned, int], str] | None = None,
              plain: Callable[[], Picture] | None = None):
    """The download buttons; each makes its file only when pressed. ``worlds`` is how many
    the model has now: past a file's limit its button is disabled and the reason shown.
    ``name`` says what a world is in the drawings; ``label`` (default ``name``) is the world's
    name in the JSON, which reads back as that name, so it must be the name alone, not a
    description of the world. ``plain``: the picture without the teaching marks (the
    formula's fill, Why?'s rings), offered beside the one as on the page."""
    colour = agent_colour(agent_names or {})
    refused = refusal(worlds, advice)
    with solara.Row(gap="6px", style="flex-wrap:wrap;align-items:center",
                    classes=["ttr-exports"]):
        solara.Text("Save:", style="font-size:13px;font-weight:600")
        solara.FileDownload(lambda: svg_file(picture(), colour), f"{stem}-worlds.svg",
                            label="picture SVG", mime_type="image/svg+xml")
        solara.FileDownload(lambda: picture_png(picture(), colour, names=agent_names),
                            f"{stem}-worlds.png", label="picture PNG", mime_type="image/png")
        if plain is not None:
            solara.FileDownload(lambda: svg_file(plain(), colour), f"{stem}-plain.svg",
                                label="plain SVG", mime_type="image/svg+xml")
            solara.FileDownload(lambda: picture_png(plain(), colour, names=agent_names),
                                f"{stem}-plain.png", label="plain PNG", mime_type="image/png")
        if worlds <= JSON_WORLDS:
            solara.FileDownload(lambda: model_json(model, label or name), f"{stem}-model.json",
                                label="model JSON", mime_type="application/json")
        else:
            Refused("model JSON", refused)
        if worlds <= TIKZ_WORLDS:
            solara.FileDownload(lambda: tikz_file(model, picture(), name, agent_names, title),
                                f"{stem}-model.tex", label="model TikZ",
                                mime_type="text/x-tex")
        else:
            Refused("model TikZ", refused)
        if worlds <= HTML_WORLDS:
            solara.FileDownload(lambda: html_file(model, picture(), name, label or name,
                                                  agent_names, title),
                                f"{stem}-worlds.html", label="interactive HTML",
                                mime_type="text/html")
        else:
            Refused("interactive HTML", refused)
        if log is not None:
            solara.FileDownload(log, f"{stem}-log.jsonl", label="game log JSONL",
                                mime_type="application/x-ndjson")


    if refused:
        solara.HTML(tag="div", unsafe_innerHTML=refused,
                    attributes={"data-testid": "export-refused"},
                    style="font-size:12px;opacity:.8;margin-top:2px")


@solara.component
def Refused(label: str, reason: str | None):
    """A download that cannot be made now: its button, disabled, the reason on hover too."""
    solara.Button(label, icon_name="mdi-cloud-download-outline", disabled=True,
                  attributes={"title": reason or ""})


def agent_colour(agent_names: Mapping[Agent, str]) -> Callable[[Agent], str]:
    """Each agent's colour by its place among the named agents (the players' colours: a
    game's player 0 gets player 0's colour), printable, so the same in light and dark."""
    order = {str(a): i for i, a in enumerate(agent_names)}
    return lambda a: player_colour(_place(order, a))


def agent_ink(agent_names: Mapping[Agent, str]) -> Callable[[Agent], str]:
    """The same colours for the page itself, as CSS: lighter on the dark theme, where the
    printable purple and brown of an edge or its label are hard to read on dark paper."""
    order = {str(a): i for i, a in enumerate(agent_names)}
    return lambda a: player_ink(_place(order, a))


def _place(order: Mapping[str, int], agent: Agent) -> int:
    return order.get(str(agent), int(agent) if str(agent).isdigit() else 0)


@solara.component
def Exports(session: Session, view: int | None, values: np.ndarray | None,
            highlight: Collection[int]):
    """The game's exports: what the worlds card shows, the shared model, the log."""
    update_counter.get()
    model = session.model
    from app.web.components.worlds import Layouts, worlds_picture  # (imported late: no cycle)

    layouts: Layouts = solara.use_memo(dict, [model])

    def picture() -> Picture:
        focus = view if view is not None else 0
        return worlds_picture(model, layouts, focus, view, values, highlight,
                              session.first_worlds)

    with solara.Card("Export", margin=0):
        ExportRow(picture, game_worlds(model), lambda m, i: m.world_label(i),
                  f"ttr-seed{model.seed}-turn{model.turn}", model.world_count,
                  {p: player_name(p) for p in range(model.rules.players)},
                  f"Possible deals after turn {model.turn} (seed {model.seed})",
                  lambda: game_log(model))
