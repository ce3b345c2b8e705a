"""The formula box: evaluate a formula of the logic at the actual world, highlight where it holds,
announce it (when true), and say why it has its value.

User text goes through ``kripke.parse`` (a recursive-descent parser, never ``eval``); a parse
error is shown inline with a caret under the position the parser names (only the part of a
long text around it). The puzzle page uses the same box on its own models.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from html import escape

import solara

from agents.model import TTRModel
from app.worlds.parts import Values
from kripke import Announce, AnnounceDual, KripkeModel, parse
from kripke.explain import Explanation, explain
from kripke.formula import Formula
from kripke.symbolic_deal import SymbolicDealModel


@dataclass(frozen=True)
class FormulaResult:
    text: str
    holds: bool | None = None  # at the actual world
    values: Values | None = None  # at every current world: a bool each, or a diagram
    error: str | None = None
    vacuous: bool = False  # [!φ]ψ with φ false at the actual world: true only vacuously
    count: int = 0  # the worlds where it holds


def evaluate_formula(model: TTRModel, text: str) -> FormulaResult:
    """Evaluate ``text`` in a game, on the backend that holds its worlds; any error a user can
    cause comes back as a message."""
    return evaluate_in(model.worlds, text)


def evaluate_in(worlds: KripkeModel | SymbolicDealModel, text: str) -> FormulaResult:
    """Evaluate ``text`` at every world of ``worlds``; errors come back as messages."""
    text = text.strip()
    if not text:
        return FormulaResult(text)
    try:
        formula = parse(text)
        values, holds, count = _values(worlds, formula)
        vacuous = isinstance(formula, Announce | AnnounceDual) and \
            not worlds.holds(formula.announcement)
    except ValueError as e:  # a FormulaError, or an unknown atom or agent (ModelError)
        return FormulaResult(text, error=str(e))
    return FormulaResult(text, holds, values, vacuous=vacuous, count=count)


def _values(worlds: KripkeModel | SymbolicDealModel, formula: Formula
            ) -> tuple[Values, bool, int]:
    """Where the formula holds, as the backend's checker gives it (a bool per listed world; a
    symbolic deal's diagram, which the picture counts per class), its value at the actual
    world, and in how many worlds it holds."""
    if isinstance(worlds, SymbolicDealModel):
        return worlds.extension(formula), worlds.holds(formula), worlds.count(formula)
    values = worlds.evaluate(formula)
    assert worlds.actual is not None  # the app's models always have an actual world
    return values, bool(values[worlds.actual]), int(values.sum())


def explain_formula(worlds: KripkeModel, result: FormulaResult,
                    name: Callable[[KripkeModel, int], str]) -> Explanation | None:
    """Why the formula has its value at the actual world (None without a valid formula)."""
    if result.holds is None:
        return None
    return explain(worlds, parse(result.text), name=name)


def why_html(node: Explanation, depth: int = 0) -> str:
    """The explanation as nested lists: each subformula, its value and the reason."""
    verdict = ("<b style='color:#2e7d32'>true</b>" if node.value else
               "<b style='color:#c62828'>false</b>")
    where = escape(node.label.replace("\n", "; "))
    parts = [f"<li><code>{escape(node.formula.unicode())}</code> is {verdict} in world "
             f"{node.world} <span style='opacity:.75'>({where})</span>: {escape(node.reason)}"]
    if node.worlds and node.n_worlds > 1:
        more = f", … ({node.n_worlds:,} in all)" if node.n_worlds > len(node.worlds) else ""
        parts.append(f"<div style='opacity:.8'>worlds: {', '.join(map(str, node.worlds))}"
                     f"{more}</div>")
    if node.children:
        parts.append("<ul style='margin:0 0 0 1.1em;padding:0'>" + "".join(
            why_html(child, depth + 1) for child in node.children) + "</ul>")
    parts.append("</li>")
    inner = "".join(parts)
    if depth:
        return inner
    ringed = sorted(node.highlighted())
    note = (f"<div style='margin-top:4px'>Ringed in the picture (dashed orange): world"
            f"{'s' * (len(ringed) != 1)} {', '.join(map(str, ringed))}.</div>" if ringed
            else "")
    return f"<ul style='margin:0;padding-left:1.1em' data-testid='why'>{inner}</ul>{note}"


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


GAME_HINT = ("Type a formula, e.g. <code>K_0 p(1,7)</code>: player 0 knows that player 1 holds "
             "ticket 7. Seats are numbered from 0; tickets by their id (t7 in the tables).")


def result_html(result: FormulaResult, total: int, what: str = "worlds",
                hint: str = GAME_HINT) -> str:
    if result.error:
        return (f"<pre data-testid='formula-error' style='color:#b71c1c;background:#ffebee;"
                f"padding:6px;margin:0;white-space:pre-wrap'>{escape(result.error)}</pre>")
    if result.holds is None:
        return f"<span style='opacity:.7'>{hint}</span>"
    verdict = "true" if result.holds else "false"
    colour = "#2e7d32" if result.holds else "#b71c1c"
    vacuous = (" <b data-testid='vacuous'>Only vacuously:</b> what it announces is false at "
               "the actual world, so it cannot be announced there and <code>[!φ]ψ</code> is "
               "true whatever ψ says." if result.vacuous and result.holds else "")
    return (f"<span data-testid='formula-result'><b style='color:{colour}'>{verdict}</b> at the "
            f"actual world; holds in {result.count:,} of {total:,} {what} (filled "
            "<span style='color:var(--formula-ink)'>●</span> in the picture, hollow "
            f"<span style='color:var(--formula-ink)'>○</span> where false).{vacuous}</span>")


GAME_SYNTAX = (
    "Syntax: <code>p(i,t)</code>, <code>~</code> <code>&amp;</code> <code>|</code> "
    "<code>-&gt;</code> <code>&lt;-&gt;</code>, <code>K_i</code> (or <code>K₀</code>) knows, "
    "<code>M_i</code> considers possible, <code>E_{0,1}</code> <code>C_{0,1}</code> "
    "<code>D_{0,1}</code>, <code>[!φ]ψ</code> after announcing φ.")


@solara.component
def FormulaBox(model: TTRModel | None, text: solara.Reactive[str], result: FormulaResult,
               disabled: bool = False, announce: Callable[[], None] | None = None,
               said: str = "", why: solara.Reactive[bool] | None = None,
               explanation: Explanation | None = None, total: int | None = None,
               suggestions: list[str] | None = None, syntax: str = GAME_SYNTAX,
               what: str = "worlds", hint: str = GAME_HINT, explaining: bool = False):
    """The input, example buttons, the verdict or the parser's error; Announce (refused with
    the reason when the formula is false at the actual world) and Why (the explanation, its
    counterexample ringed in the picture; ``explaining`` while it is being worked out)."""
    count = total if total is not None else (model.world_count if model else 0)
    shown = suggestions if suggestions is not None else examples(model) if model else []
    with solara.Card("Formula", margin=0):
        solara.InputText("Formula, evaluated at the actual world (press Enter)", value=text,
                         continuous_update=False, disabled=disabled)
        with solara.Row(gap="4px", style="flex-wrap:wrap"):
            for example in shown:
                solara.Button(example, text=True, dense=True, style="text-transform:none",
                              on_click=lambda e=example: text.set(e), disabled=disabled)
        solara.HTML(tag="div", unsafe_innerHTML=result_html(result, count, what, hint))
        with solara.Row(gap="8px", style="align-items:center;margin-top:4px"):
            if announce is not None:
                solara.Button("Announce", color="primary", small=True, on_click=announce,
                              disabled=disabled or result.holds is None,
                              attributes={"title": "announce the formula publicly: every "
                                          "world where it is false goes (refused if it is "
                                          "false at the actual world)"})
            if why is not None:
                solara.Button("Why?" if not why.value else "Hide why", small=True,
                              outlined=True, on_click=lambda: why.set(not why.value),
                              disabled=disabled or result.holds is None,
                              attributes={"title": "each subformula's value and the worlds "
                                          "that decide it"})
        if said:
            refused = said.startswith("Not announced")
            solara.HTML(tag="div", unsafe_innerHTML=escape(said),
                        attributes={"data-testid": "announce-result"},
                        style="font-size:13px;margin-top:4px;"
                              + ("color:#c62828;font-weight:600" if refused else ""))
        if explaining:
            solara.HTML(tag="div", unsafe_innerHTML="Listing the worlds and explaining…",
                        attributes={"data-testid": "explaining"},
                        style="font-size:13px;margin-top:6px;opacity:.8")
            solara.ProgressLinear(True)
        if why is not None and why.value and explanation is not None:
            solara.HTML(tag="div", unsafe_innerHTML=why_html(explanation),
                        style="font-size:13px;margin-top:6px;max-height:320px;overflow-y:auto")
        solara.HTML(tag="div", unsafe_innerHTML=syntax,
                    style="font-size:12px;opacity:.75;margin-top:4px")
