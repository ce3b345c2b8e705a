"""What the commands that evaluate formulas share (``check``, ``puzzle``, ``model``): a formula
typed on the command line, the note when an announcement makes a formula true only vacuously,
and a model written out as JSON and TikZ. One place, so the three say the same things."""

from __future__ import annotations

import argparse
import json
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING

from app.cli.main import UsageError
from app.worlds.tikz import SLIDE, to_tikz
from game.files import write_atomically
from kripke import Announce, EpistemicModel, Formula, FormulaError, ModelError, parse
from kripke.files.exchange import to_json
from kripke.language.formula import Agent
from kripke.parts import Drawn, Leveled, Partitioned

if TYPE_CHECKING:  # the BDD library loads only when --symbolic asks for it
    from kripke.parts import Listable


def read_formula(text: str) -> Formula:
    """The formula typed on the command line; a malformed one is a usage error (code 2)."""
    try:
        return parse(text)
    except FormulaError as e:
        raise UsageError(f"bad formula: {e}") from None


def slide_size(text: str) -> tuple[float, float]:
    """``--size WxH``: the TikZ drawing's largest width and height in cm, e.g. 12x8.5."""
    try:
        width, height = (float(part) for part in text.lower().split("x"))
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected WIDTHxHEIGHT in cm such as 12x8.5, got "
                                         f"{text!r}") from None
    if not (1 <= width <= 100 and 1 <= height <= 100):
        raise argparse.ArgumentTypeError(f"each side between 1 and 100 cm, got {text!r}")
    return width, height


def vacuity_note(model: EpistemicModel, formula: Formula) -> str | None:
    """For ``[!φ]ψ`` with φ false at the actual world: why the formula is true anyway."""
    if isinstance(formula, Announce) and not model.holds(formula.announcement):
        return (f"note: {formula.announcement} is false at the actual world, so it cannot be "
                "announced there and the formula is true only vacuously")
    return None


def frame(model: EpistemicModel) -> str:
    """The frame class in one line, a comment of the model format (so what the command prints
    still reads as a model): the model's, and each agent's when they are not all S5."""
    try:
        each = {a: model.frame_class(a) for a in model.agents}
    except ModelError as e:  # too much work to check: said, and the rest still printed
        return f"# frame class: not checked ({e})"
    if all(c == "S5" for c in each.values()) and isinstance(model, Leveled) and \
            not model.is_flat():
        return ("# frame class: S5 (every agent's relation is a partition: knowledge); belief "
                "B_a from each agent's plausibility order in its classes")
    if all(c == "S5" for c in each.values()):
        return "# frame class: S5 (every agent's relation is a partition: knowledge)"
    per = ", ".join(f"{a} {c}" for a, c in each.items())
    return f"# frame class: {model.frame_class()} ({per})"


def dead_ends(model: Drawn) -> list[str]:
    """A warning per agent with worlds it has no arrow from (its relation is not serial)."""
    lines = []
    for agent in model.agents:
        worlds = model.dead_ends(agent).tolist()
        if worlds:
            named = ", ".join(model.world_label(w) for w in worlds[:5]) + \
                (", ..." if len(worlds) > 5 else "")
            lines.append(f"# warning: {agent} has no arrow from {named}, so {agent}'s relation "
                         f"is not serial: there {agent} believes everything, false too")
    return lines


def symbolic_dead_ends(model: Listable, shown: int) -> list[str]:
    """:func:`dead_ends` of a belief structure: the same lines on its listed copy when it has
    at most ``shown`` worlds, else how many worlds each agent has no arrow from."""
    if model.n_worlds <= shown:
        return dead_ends(model.as_list(shown))
    return [f"# warning: {agent} has no arrow from {count:,} worlds, so {agent}'s relation is "
            f"not serial: there {agent} believes everything, false too"
            for agent in model.agents if (count := model.dead_end_count(agent))]


def write_model_files(model: Drawn, json_path: str | None,
                      tikz_path: str | None, *,
                      name: Callable[[Partitioned, int], str] | None = None,
                      drawn: Callable[[Partitioned, int], str] | None = None,
                      positions: Mapping[int, tuple[float, float]] | None = None,
                      agent_names: Mapping[Agent, str] | None = None, title: str = "",
                      size: tuple[float, float] = SLIDE, html_path: str | None = None,
                      html_name: Callable[[Partitioned, int], str] | None = None) -> None:
    """Write the model as JSON, as a LaTeX/TikZ drawing and as an interactive HTML page
    (``app.worlds.interactive``) where asked (each file atomically; the paths were checked
    before any work) and say where. ``name`` labels the worlds in all three (default:
    ``world_label``), ``drawn`` instead in the TikZ only; the page names each world by
    ``html_name`` (default its own name) and describes it on hover by ``name``. The drawings
    (a belief model's arrows as the page draws them) are made first, so a model one of them
    refuses (too big for a slide or a page) is refused before anything is written."""
    drawing = to_tikz(model, positions, drawn or name, agent_names, title=title,
                      size=size) if tikz_path else None
    page = None
    if html_path:  # (pyvis and its template are loaded only when a page is asked for)
        from app.worlds.interactive import interactive_html

        page = interactive_html(model, title=title, name=html_name, describe=name,
                                agent_names=agent_names, positions=positions)
    if json_path:
        write_atomically(json_path, json.dumps(to_json(model, name=name), indent=1) + "\n")
        print(f"model (JSON): {json_path}")
    if tikz_path and drawing is not None:
        write_atomically(tikz_path, drawing)
        print(f"model (TikZ): {tikz_path}")
    if html_path and page is not None:
        write_atomically(html_path, page)
        print(f"model (interactive HTML): {html_path}")
