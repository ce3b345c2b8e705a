"""Why? on a page: the explanation of the typed formula's value, worked out in a thread of its
own, and the worlds its steps rest on, ringed in the picture. The game page and the puzzle and
model pages ask it alike (:func:`use_why`), and hand what it gives to the formula box
(:func:`app.web.components.formula.FormulaBar`) and to their picture.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import solara

from app.web.components.formula import (
    FormulaResult,
    explain_formula,
    rings,
    tab_gone,
    why_refusal,
)
from kripke import EpistemicModel, EvaluationStopped
from kripke.budget import stop_when
from kripke.explain import Explanation, Step, steps
from kripke.language.formula import Agent, Formula

#: How a page names the worlds and agents of an explanation: (world's name, agent's name),
#: asked in the explanation's thread (a game lists its names from the model there).
Naming = Callable[[], tuple[Callable[[Any, int], str], Callable[[Agent], str]]]


@dataclass(frozen=True)
class Why:
    """What Why? shows: whether it is open (``shown``), the step whose worlds are ringed
    (``step``; None: every step's), the thread's result, the steps and the ringed worlds (by
    id, each with the numbers of the steps resting on it)."""

    shown: solara.Reactive[bool]
    step: solara.Reactive[int | None]
    explaining: solara.Result[Explanation | None]
    chain: Sequence[Step]
    numbers: dict[int, str]

    @property
    def running(self) -> bool:
        """Being worked out (the box shows a progress bar)."""
        return self.shown.value and self.explaining.state == solara.ResultState.RUNNING

    @property
    def refused(self) -> str:
        """Why there is no explanation (the work was refused), or ""."""
        return why_refusal(self.explaining)


def use_why(model: EpistemicModel, result: FormulaResult, naming: Naming,
            dependencies: Sequence[object], lock: threading.RLock | None = None) -> Why:
    """Why the formula has its value in ``model`` (the values ``result`` holds), when asked:
    in a thread of its own, since a game held symbolically lists its worlds first (seconds at
    4 × 4); under the page's ``lock`` when it has one, so that a turn played meanwhile waits
    instead of changing what is being listed; stopped when another formula, model or moment
    (``dependencies``) replaces this one or the tab is gone."""
    why = solara.use_reactive(False)
    step: solara.Reactive[int | None] = solara.use_reactive(None)
    gone = tab_gone()

    def explain_now(cancel: threading.Event) -> Explanation | None:
        if not why.value:
            return None
        try:
            with lock or threading.RLock(), stop_when(lambda: cancel.is_set() or gone()):
                name, agent_name = naming()
                return explain_formula(model, result, name, agent_name)
        except EvaluationStopped:
            return None

    explaining = solara.use_thread(explain_now, dependencies=[*dependencies, why.value],
                                   intrusive_cancel=False)
    explanation = explaining.value if explaining.state == solara.ResultState.FINISHED else None
    # the steps in the textbook's notation (¬ ∧ ∨ → K_a), as the class writes them
    chain = steps(explanation, Formula.unicode) if explanation is not None and why.value \
        else ()
    return Why(why, step, explaining, chain, rings(chain, step.value))
