"""The formula box: evaluate a formula of the logic at the actual world, highlight where it holds.

User text goes through ``kripke.parse`` (a recursive-descent parser, never ``eval``); a parse
error is shown inline with a caret under the position the parser names.
"""

from __future__ import annotations

from dataclasses import dataclass
from html import escape

import numpy as np
import solara

from agents.model import TTRModel


@dataclass(frozen=True)
class FormulaResult:
    text: str
    holds: bool | None = None  # at the actual world
    values: np.ndarray | None = None  # at every current world
    error: str | None = None

    @property
    def count(self) -> int:
        return 0 if self.values is None else int(self.values.sum())


def evaluate_formula(model: TTRModel, text: str) -> FormulaResult:
    """Evaluate ``text``; any error a user can cause comes back as a message, never raised."""
    text = text.strip()
    if not text:
        return FormulaResult(text)
    try:
        holds, values = model.evaluate(text)
    except ValueError as e:  # a FormulaError, or an unknown atom or agent (ModelError)
        return FormulaResult(text, error=str(e))
    return FormulaResult(text, holds, values)


def examples(model: TTRModel) -> list[str]:
    """Formulas about this game's deal, to show the syntax with atoms that mean something."""
    tickets = model.state.tickets
    players = model.rules.players
    t1 = tickets[1][0].id
    t0 = tickets[0][0].id
    group = ",".join(str(p) for p in range(players))
    return [f"p(1,{t1})", f"K_0 p(1,{t1})", f"K_0 p(1,{t1}) | K_0 ~p(1,{t1})",
            f"M_{players - 1} p(0,{t0})", f"C_{{{group}}} p(1,{t1})",
            f"[! p(1,{t1})] K_0 p(1,{t1})"]


def result_html(result: FormulaResult, total: int) -> str:
    if result.error:
        return (f"<pre data-testid='formula-error' style='color:#b71c1c;background:#ffebee;"
                f"padding:6px;margin:0;white-space:pre-wrap'>{escape(result.error)}</pre>")
    if result.holds is None:
        return ("<span style='opacity:.7'>Type a formula, e.g. <code>K_0 p(1,5)</code>: "
                "player 0 knows that player 1 holds ticket 5. Seats are numbered from 0; "
                "tickets by their id (t5 in the tables).</span>")
    verdict = "true" if result.holds else "false"
    colour = "#2e7d32" if result.holds else "#b71c1c"
    return (f"<span data-testid='formula-result'><b style='color:{colour}'>{verdict}</b> at the "
            f"actual world; holds in {result.count:,} of {total:,} worlds (filled "
            "<span style='color:var(--formula-ink)'>●</span> in the picture, hollow "
            "<span style='color:var(--formula-ink)'>○</span> where false).</span>")


@solara.component
def FormulaBox(model: TTRModel, text: solara.Reactive[str], result: FormulaResult,
               disabled: bool = False):
    """The input, example buttons, and the verdict or the parser's error."""
    with solara.Card("Formula", margin=0):
        solara.InputText("Formula, evaluated at the actual world (press Enter)", value=text,
                         continuous_update=False, disabled=disabled)
        with solara.Row(gap="4px", style="flex-wrap:wrap"):
            for example in examples(model):
                solara.Button(example, text=True, dense=True, style="text-transform:none",
                              on_click=lambda e=example: text.set(e), disabled=disabled)
        solara.HTML(tag="div", unsafe_innerHTML=result_html(result, model.world_count))
        solara.HTML(tag="div", unsafe_innerHTML=(
            "Syntax: <code>p(i,t)</code>, <code>~</code> <code>&amp;</code> <code>|</code> "
            "<code>-&gt;</code> <code>&lt;-&gt;</code>, <code>K_i</code> knows, <code>M_i</code> "
            "considers possible, <code>E_{0,1}</code> <code>C_{0,1}</code> <code>D_{0,1}</code>, "
            "<code>[!φ]ψ</code> after announcing φ."),
            style="font-size:12px;opacity:.75;margin-top:4px")
