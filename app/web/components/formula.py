"""The formula box: evaluate a formula of the logic at the actual world, highlight where it holds,
announce it (when true), and say why it has its value, in numbered steps ringed in the picture.

The box (:func:`FormulaBar`) goes where the model is drawn, inside the worlds card of the game
and of the puzzles (and of any page that draws a model), so a teacher typing a formula sees the
verdict and the worlds together on the first screen, as Hintikka's World keeps its formula box
by the model; the examples and the syntax (:func:`FormulaHelp`) go further down.

User text goes through ``kripke.parse`` (a recursive-descent parser, never ``eval``); a parse
error is shown inline with a caret under the position the parser names (only the part of a
long text around it). The puzzle page uses the same box on its own models.

A formula the budget (:mod:`kripke.budget`) calls quick is evaluated as it is typed, so its
verdict shows at once; a longer one (up to the budget's ten seconds) in a thread of its own
(:func:`use_formula`), so that the tab's messages, its close among them, are not held up
behind it, and it stops (``kripke.budget.stop_when``) as soon as another formula or model
replaces it or the tab is closed or loses its connection: evaluated inside Solara's message
handler, it kept the server computing for a tab that no longer existed.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from html import escape
from typing import Any

import solara
from solara.server import kernel_context

from agents.model import TTRModel
from app.worlds.layout import Picture, Text
from kripke import Announce, AnnounceDual, EpistemicModel, EvaluationStopped, parse
from kripke.budget import MAX_STEPS, model_work, steps, stop_when
from kripke.explain import Explanation, Step
from kripke.interface import Values
from kripke.language.formula import Agent, Formula


@dataclass(frozen=True)
class FormulaResult:
    text: str
    holds: bool | None = None  # at the actual world
    values: Values | None = None  # at every current world, the model's own kind (opaque)
    formula: Formula | None = None  # as parsed: Why? explains this one, not a second parse
    error: str | None = None
    vacuous: bool = False  # [!φ]ψ with φ false at the actual world: true only vacuously
    count: int = 0  # the worlds where it holds
    pending: bool = False  # being evaluated in a thread: no verdict yet


#: What a formula stopped for a page that lost its connection says, should the page come back.
STOPPED = ("Stopped: the page lost its connection to the server while this formula was being "
           "worked out. Type another formula (or clear the box and type it again) to evaluate.")

#: A formula the budget puts at no more than this many steps (about a tenth of a second) is
#: evaluated as it is typed, with no "evaluating…" shown in between.
QUICK_STEPS = 10**8


def _parsed(text: str) -> FormulaResult | Formula:
    """The typed formula, or what to show at once instead: nothing typed, or a mistake."""
    if not text:
        return FormulaResult(text)
    try:
        return parse(text)
    except ValueError as e:  # a FormulaError
        return FormulaResult(text, error=str(e))


def _evaluated(worlds: EpistemicModel, text: str, formula: Formula) -> FormulaResult:
    """The parsed formula's result, evaluated once (the model counts and reads its own
    values); an unknown atom or agent (ModelError) or too much work comes back as a
    message."""
    try:
        values = worlds.values(formula)
        vacuous = isinstance(formula, Announce | AnnounceDual) and \
            not worlds.holds(formula.announcement)
        return FormulaResult(text, worlds.actual_value(values), values, formula,
                             vacuous=vacuous, count=worlds.count_values(values))
    except ValueError as e:
        return FormulaResult(text, error=str(e))


def tab_gone() -> Callable[[], bool]:
    """A predicate, cheap enough to ask once per operator from any thread: true once this
    render's tab is closed or none of its pages is connected any more (a connection lost for
    good is culled minutes later; the evaluation need not wait for that). Always false
    outside a server (tests render pages with no page connected)."""
    try:
        context = kernel_context.get_current_context()
    except RuntimeError:
        return lambda: False

    def gone() -> bool:
        try:  # read without the context's lock, which its message handler may hold
            statuses = tuple(context.page_status.values())
        except RuntimeError:  # a page connecting meanwhile: it is not gone
            return False
        return context.closed_event.is_set() or (
            bool(statuses) and kernel_context.PageStatus.CONNECTED not in statuses)
    return gone


def first_result(worlds: EpistemicModel, text: str) -> FormulaResult | Formula:
    """The result at once if there is nothing to wait for (no formula, a mistake, a formula
    the budget refuses or calls quick); else the parsed formula, for a thread to evaluate."""
    text = text.strip()
    formula = _parsed(text)
    if isinstance(formula, FormulaResult):
        return formula
    needed = steps(formula, worlds.n_worlds, len(worlds.agents), model_work(worlds))
    if needed <= QUICK_STEPS or needed > MAX_STEPS:
        return _evaluated(worlds, text, formula)
    return formula


def use_formula(worlds: EpistemicModel, text: str) -> FormulaResult:
    """The typed formula's result in ``worlds``: at once when quick, else ``pending`` until a
    thread of its own has worked it out (never an earlier formula's or model's result). The
    thread stops when another formula or model replaces this one, or the tab is gone."""
    text = text.strip()
    quick = solara.use_memo(lambda: first_result(worlds, text), [worlds, text])
    pending = solara.use_memo(lambda: FormulaResult(text, pending=True), [worlds, text])
    gone = tab_gone()

    def slow(cancel: threading.Event) -> tuple[object, FormulaResult] | None:
        if isinstance(quick, FormulaResult):
            return None
        try:
            with stop_when(lambda: cancel.is_set() or gone()):
                return worlds, _evaluated(worlds, text, quick)
        except EvaluationStopped:  # shown only if nothing replaced it: the connection dropped
            return worlds, FormulaResult(text, error=STOPPED)

    running = solara.use_thread(slow, dependencies=[worlds, text], intrusive_cancel=False)
    if isinstance(quick, FormulaResult):
        return quick
    done = running.value if running.state == solara.ResultState.FINISHED else None
    if done is not None and done[0] is worlds and done[1].text == text:
        return done[1]
    return pending


def explain_formula(worlds: EpistemicModel, result: FormulaResult,
                    name: Callable[[Any, int], str],
                    agent_name: Callable[[Agent], str]) -> Explanation | None:
    """Why the formula has its value at the actual world (None without a valid formula),
    resting on the values the box shows (evaluated once, in ``worlds``, which gave them), its
    worlds and agents named as the page names them."""
    if result.formula is None or result.values is None:
        return None
    return worlds.explain(result.formula, result.values, name=name, agent_name=agent_name,
                          show=Formula.unicode)


def why_refusal(explaining: solara.Result[Any]) -> str:
    """What to say when the explanation's thread refused the work (a formula too deep to
    explain within the budget, :func:`kripke.explain.explain`): without it, Why? showed
    nothing at all."""
    if explaining.state == solara.ResultState.ERROR and isinstance(explaining.error,
                                                                   ValueError):
        return f"No explanation: {explaining.error}"
    return ""


def rings(chain: Sequence[Step], selected: int | None = None) -> dict[int, str]:
    """The worlds to ring (ids), each with the numbers of the steps resting on it: every
    step's, or the selected step's only."""
    numbers: dict[int, list[int]] = {}
    for i, step in enumerate(chain, start=1):
        if selected in (None, i):
            for world in step.worlds:
                numbers.setdefault(world, []).append(i)
    return {w: ",".join(map(str, sorted(set(n)))) for w, n in numbers.items()}


def numbered(picture: Picture, numbers: Mapping[int, str]) -> Picture:
    """The picture with each ringed world's step numbers beside its ring, so a student reads
    the steps off the picture in order."""
    texts = [Text(m.x + m.r + 6, m.y - m.r - 3, numbers[int(m.key[1:])], "start", "count")
             for m in picture.marks
             if m.key.startswith("w") and not m.tile and int(m.key[1:]) in numbers]
    return replace(picture, texts=(*picture.texts, *texts)) if texts else picture


def why_html(chain: Sequence[Step], selected: int | None = None) -> str:
    """The explanation as numbered steps, evidence first, the verdict last; the selected
    step stands out (its worlds are the ones ringed). The evidence scrolls in a box of its
    own (``why-steps``) and the verdict stays under it, whole: it is the step a class reads
    first, and a long ``C`` formula's used to be cut off mid-line at the box's edge."""
    items = []
    for i, step in enumerate(chain, start=1):
        verdict = ("<b style='color:#2e7d32'>true</b>" if step.value else
                   "<b style='color:#c62828'>false</b>")
        text = escape(step.text).replace(f" is {'true' if step.value else 'false'}",
                                         f" is {verdict}", 1)
        style = "font-weight:600;background:rgba(255,202,40,.25)" if selected == i else ""
        ringed = " <span style='color:#e65100'>◌</span>" if step.worlds else ""
        items.append(f"<li data-step='{i}' style='{style}'>{text}{ringed}</li>")
    evidence = (f"<ol class='why-steps' style='margin:0;padding-left:1.6em'>"
                f"{''.join(items[:-1])}</ol>" if len(items) > 1 else "")
    return (f"<div data-testid='why'>{evidence}<ol class='why-verdict' start='{len(items)}' "
            f"style='margin:0;padding-left:1.6em'>{items[-1] if items else ''}</ol></div>")


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


FORMULA_LABEL = "Formula, evaluated at the actual world (press Enter)"
GAME_HINT = ("Type a formula, e.g. <code>K_0 p(1,7)</code>: player 0 knows that player 1 holds "
             "ticket 7. Seats are numbered from 0; tickets by their id (t7 in the tables).")


#: The most worlds "where true" lists by name (past it, the picture shows them).
WHERE_LIMIT = 40


def where_html(result: FormulaResult, total: int,
               where: Callable[[Values], list[str]] | None) -> str:
    """As SMCDEL's web page offers: whether the formula is valid on the model (true in every
    world) and, when ``where`` names the worlds where the values hold (asking the model,
    which alone reads them) and they are few, those worlds by name."""
    if result.holds is None or result.values is None:
        return ""
    # "holds in 0 of n" says already that it holds nowhere
    said = "<b data-testid='valid'>Valid</b> on this model." if result.count == total else ""
    if where is not None and 0 < result.count <= WHERE_LIMIT and result.count < total:
        names = ", ".join(escape(name) for name in where(result.values))
        said += f" <span data-testid='where-true'>True in: {names}.</span>"
    # on the verdict's line (a line of its own would push the picture down)
    return f" <span>{said}</span>" if said else ""


def result_html(result: FormulaResult, total: int, what: str = "worlds",
                hint: str = GAME_HINT) -> str:
    if result.error:
        return (f"<pre data-testid='formula-error' style='color:#b71c1c;background:#ffebee;"
                f"padding:6px;margin:0;white-space:pre-wrap'>{escape(result.error)}</pre>")
    if result.pending:
        return ("<span data-testid='formula-pending' style='opacity:.8'>Evaluating… (a long "
                "formula: its verdict shows when it is done)</span>")
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
def FormulaBar(text: solara.Reactive[str], result: FormulaResult, total: int,
               disabled: bool = False, announce: Callable[[], None] | None = None,
               said: str = "", why: solara.Reactive[bool] | None = None,
               chain: Sequence[Step] = (), step: solara.Reactive[int | None] | None = None,
               explaining: bool = False, what: str = "worlds", hint: str = GAME_HINT,
               why_refused: str = "", where: Callable[[Values], list[str]] | None = None):
    """The formula where the model is drawn (a page puts it in its worlds card, so the
    verdict, the explanation and the picture share the first screen): the input, Announce
    (refused with the reason when the formula is false at the actual world), Why? (numbered
    steps, ``step`` the one whose worlds are ringed, all when None; ``explaining`` while it
    is being worked out; ``why_refused``, why there is none: :func:`why_refusal`), the
    verdict or the parser's error, whether the formula is valid on the model and
    (``where`` naming the worlds where values hold) where it holds, and what the last Announce did.
    The examples and the syntax are :func:`FormulaHelp`'s, further down the page."""
    with solara.Column(gap="2px", classes=["ttr-formula"]):
        with solara.Row(gap="8px", style="align-items:center"):
            with solara.Div(style="flex:1 1 auto;min-width:0"):
                solara.InputText(FORMULA_LABEL, value=text, continuous_update=False,
                                 disabled=disabled)
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
                              attributes={"title": "the steps from the worlds that decide "
                                          "the value to the value, ringed in the picture"})
        solara.HTML(tag="div", unsafe_innerHTML=result_html(result, total, what, hint) +
                    where_html(result, total, where),
                    style="font-size:13px;line-height:1.35")
        if said:
            refused = said.startswith("Not announced")
            solara.HTML(tag="div", unsafe_innerHTML=escape(said),
                        attributes={"data-testid": "announce-result"},
                        style="font-size:13px;" + ("color:#c62828;font-weight:600"
                                                   if refused else ""))
        if explaining:
            solara.HTML(tag="div", unsafe_innerHTML="Listing the worlds and explaining…",
                        attributes={"data-testid": "explaining"},
                        style="font-size:13px;opacity:.8")
            solara.ProgressLinear(True)
        if why is not None and why.value and why_refused:
            solara.HTML(tag="div", unsafe_innerHTML=escape(why_refused),
                        attributes={"data-testid": "why-refused"},
                        style="font-size:13px;color:#c62828")
        if why is not None and why.value and chain:
            shown = step.value if step is not None and step.value is not None \
                and step.value <= len(chain) else None
            if step is not None and len(chain) > 1:
                # what ◌ means is said here and in the legend under the picture, not in a
                # line of its own that would push the picture down
                with solara.Row(gap="6px", style="align-items:center"):
                    solara.HTML(tag="span", unsafe_innerHTML="Ring step:",
                                attributes={"title": "◌: the step's worlds are ringed in the "
                                            "picture (dashed orange, with the step's number); "
                                            "pick a step to ring only its own"},
                                style="font-size:13px")
                    solara.ToggleButtonsSingle(
                        value=shown or 0, dense=True, classes=["ttr-steps"],
                        on_value=lambda i: step.set(i or None),
                        children=[solara.Button("all", value=0, text=True),
                                  *(solara.Button(str(i), value=i, text=True)
                                    for i in range(1, len(chain) + 1))])
            solara.HTML(tag="div", unsafe_innerHTML=why_html(chain, shown),
                        classes=["ttr-why"], style="font-size:13px;line-height:1.35")


@solara.component
def FormulaHelp(text: solara.Reactive[str], suggestions: list[str], syntax: str = GAME_SYNTAX,
                disabled: bool = False):
    """Example formulas (one click puts one in the box above) and the syntax."""
    with solara.Card("Formula examples", margin=0):
        with solara.Row(gap="4px", style="flex-wrap:wrap"):
            for example in suggestions:
                solara.Button(example, text=True, dense=True, style="text-transform:none",
                              on_click=lambda e=example: text.set(e), disabled=disabled)
        solara.HTML(tag="div", unsafe_innerHTML=syntax,
                    style="font-size:12px;opacity:.75;margin-top:4px")
