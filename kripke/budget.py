"""The work a formula's evaluation may take, bounded before it starts.

A formula typed by a user can ask for hours: fifteen nested ``C_{0,1,2,3} ~C_{0,1}`` over the
4 × 4 deal's 63,063,000 worlds ran 89 s in 8.6 GB, and a 112 KB formula kept a page's server
busy long after its tab closed. The checker's cost is predictable from the formula alone: each
operator is one or a few passes over the worlds (a common-knowledge operator a pass per agent
of its group, and then some), plus a fixed cost per operator that dominates on small models.
So :func:`check_budget` adds those costs up, in steps of about a nanosecond on the machine the
weights were measured on (one Boolean pass over 63,063,000 worlds: 0.05 s; one
``C_{0,1,2,3}``: 2.7 s; one ``C`` of three agents over 90 worlds: 130 µs), and refuses a
formula over :data:`MAX_STEPS` (about ten seconds) with :class:`TooMuchWorkError` before any
world is looked at. Every caller (the command line, the page, the agents) gets the same bound
because the models check it themselves.

Shared sub-formulas are counted as often as the checker would evaluate them, found without
recursion (a formula built in code may be a DAG far larger written out than in memory).

A bound refuses before the work; it cannot take back work nobody wants any more. A page that
evaluates a formula for a tab keeps computing after the tab closes unless something tells it
to stop, so a caller may say when to stop (:func:`stop_when`), and both checkers ask
(:func:`check_stopped`) once per operator they evaluate: a stop is noticed within one
operator's own work (milliseconds on the page's models; the longest, one C of four agents over
the 4 × 4 deal's worlds, about 3 s). The question lives in a context variable, so no model,
checker or explanation passes it along, and a thread evaluating for another caller is not
stopped by this one's.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass

from kripke.errors import EvaluationStopped, TooMuchWorkError
from kripke.language.formula import (
    Agent,
    AgentFormula,
    AnnouncementFormula,
    Common,
    Distributed,
    Formula,
    GroupFormula,
)

#: The most steps (about a nanosecond each) one evaluation may take: about ten seconds.
MAX_STEPS = 10**10

# (fixed steps, steps per world) of each kind of operator; a group's are per agent in it.
_PLAIN = (1_000, 1)  # atoms, constants, Boolean connectives
_KNOWS = (3_000, 4)  # K_a, M_a: a scatter and a gather over the worlds
_GROUP = (5_000, 4)  # E_G, D_G: per agent of G
_COMMON = (40_000, 12)  # C_G: the components of G's classes, per agent of G
_ANNOUNCE = (15_000, 4)  # [!φ], <!φ>: a restriction of the model

# A model that stores arrows (a belief model) pays per world and per stored arrow instead:
# (fixed steps, per world, per stored arrow), measured on dense and sparse belief models
# (tests/test_kripke_budget_arrows.py holds estimates to CPU times).
_ARROWS_KNOWS = (20_000, 12, 2)  # K_a, M_a, and each agent of E_G: a scatter, a product, a gather
_ARROWS_COMMON = (150_000, 140, 20)  # C_G: a graph of worlds and labels, one search (per agent)
_ARROWS_ANNOUNCE = (30_000, 40, 10)  # [!φ], <!φ>: the worlds and the arrows kept
_ARROWS_DISTRIBUTED = 100  # D_G: per arrow between worlds of its sparsest agent, expanded


@dataclass(frozen=True)
class AgentWork:
    """What one agent's relation costs a question on a model that stores arrows
    (:class:`kripke.explicit.belief.BeliefModel`): the arrows it stores (between classes of
    worlds; none for a partition) and the arrows between worlds they stand for (what the
    distributed-knowledge operator expands). Counting worlds alone undercounted ``K_b`` on a
    dense 1,950-world model 350–700 times and ``C_b`` 2,000–8,000 times."""

    stored: int
    listed: int


#: Per agent (by its text, as formulas name it), what its relation costs.
type Work = Mapping[Agent, AgentWork]


def steps(formula: Formula, n_worlds: int, n_agents: int, work: Work | None = None) -> int:
    """The steps evaluating ``formula`` over ``n_worlds`` worlds of ``n_agents`` agents takes
    (a group of None is every agent); ``work``, for a model that stores arrows, what each
    agent's relation costs."""
    return _totals(formula, n_worlds, n_agents, work)[id(formula)]


def explanation_steps(formula: Formula, n_worlds: int, n_agents: int,
                      work: Work | None = None) -> int:
    """The steps explaining ``formula`` takes (:mod:`kripke.explain`): it evaluates every
    subformula on its own, each with everything below it, so a deep formula costs its
    evaluation once per level (``K_a`` nested 300 deep: 300 evaluations of shrinking depth)."""
    return sum(_totals(formula, n_worlds, n_agents, work).values())


def model_work(model: object) -> Work | None:
    """What the agents' relations of ``model`` cost, when it stores arrows (it has a ``work()``
    method, as a belief model does), else None: the budget of a page or a command asks the
    model it holds without knowing its kind."""
    work = getattr(model, "work", None)
    return work() if callable(work) else None


def _totals(formula: Formula, n_worlds: int, n_agents: int,
            work: Work | None = None) -> dict[int, int]:
    """The cost of each node (by identity) with everything below it."""
    named = None if work is None else {str(agent): cost for agent, cost in work.items()}
    own: dict[int, int] = {}  # a node's own cost, by identity
    total: dict[int, int] = {}  # the cost of a node with everything below it
    stack: list[tuple[Formula, bool]] = [(formula, False)]
    while stack:
        node, children_done = stack.pop()
        key = id(node)
        if key in total:
            continue
        if not children_done:
            stack.append((node, True))
            stack.extend((child, False) for child in node.children() if id(child) not in total)
            continue
        own[key] = _own(node, n_worlds, n_agents) if named is None else \
            _own_arrows(node, n_worlds, named)
        total[key] = own[key] + sum(total[id(child)] for child in node.children())
    return total


def _own(node: Formula, n_worlds: int, n_agents: int) -> int:
    if isinstance(node, GroupFormula):
        size = n_agents if node.group is None else len(node.group)
        fixed, per_world = _COMMON if isinstance(node, Common) else _GROUP
        return size * (fixed + per_world * n_worlds)
    fixed, per_world = (_KNOWS if isinstance(node, AgentFormula) else
                        _ANNOUNCE if isinstance(node, AnnouncementFormula) else _PLAIN)
    return fixed + per_world * n_worlds


def _own_arrows(node: Formula, n_worlds: int, named: dict[str, AgentWork]) -> int:
    """A node's own steps on a model that stores arrows: per world and per stored arrow of
    the agents it asks (``named``: each agent's cost by its text)."""
    if isinstance(node, GroupFormula | AgentFormula):
        group = [str(node.agent)] if isinstance(node, AgentFormula) else \
            list(named) if node.group is None else [str(a) for a in node.group]
        costs = [named.get(a, AgentWork(0, 0)) for a in group]
        stored = sum(c.stored for c in costs)
        if isinstance(node, Common):
            fixed, per_world, per_arrow = _ARROWS_COMMON
            return len(costs) * (fixed + per_world * n_worlds) + per_arrow * stored
        if isinstance(node, Distributed):
            fixed, per_world, _ = _ARROWS_KNOWS
            expanded = min((c.listed for c in costs if c.stored), default=0)
            return (fixed + per_world * n_worlds * max(len(costs), 1) +
                    _ARROWS_DISTRIBUTED * expanded)
        fixed, per_world, per_arrow = _ARROWS_KNOWS
        return len(costs) * (fixed + per_world * n_worlds) + per_arrow * stored
    if isinstance(node, AnnouncementFormula):
        fixed, per_world, per_arrow = _ARROWS_ANNOUNCE
        return fixed + per_world * n_worlds + per_arrow * sum(c.stored for c in named.values())
    fixed, per_world = _PLAIN
    return fixed + per_world * n_worlds


def check_budget(formula: Formula, n_worlds: int, n_agents: int,
                 limit: int | None = None, *, explaining: bool = False,
                 work: Work | None = None) -> None:
    """Refuse (:class:`TooMuchWorkError`) a formula whose evaluation (``explaining``: whose
    explanation) would take more than ``limit`` steps (default :data:`MAX_STEPS`), before
    any work. ``work``: what each agent's relation costs, on a model that stores arrows."""
    limit = MAX_STEPS if limit is None else limit
    needed = (explanation_steps if explaining else steps)(formula, n_worlds, n_agents, work)
    if needed > limit:
        raise TooMuchWorkError(needed, limit, n_worlds,
                               task="explaining this formula" if explaining else "this formula")


#: When set, asked once per operator evaluated: true means stop (:class:`EvaluationStopped`).
_STOP: ContextVar[Callable[[], bool] | None] = ContextVar("kripke_stop", default=None)


@contextmanager
def stop_when(predicate: Callable[[], bool]) -> Iterator[None]:
    """Within the block, every evaluation (of any model, by either checker) raises
    :class:`EvaluationStopped` at its next operator once ``predicate()`` is true. Nested
    blocks stop when either predicate says so. ``predicate`` is called often (once per
    operator): it must be cheap, and it is called from the evaluating thread."""
    outer = _STOP.get()
    token = _STOP.set(predicate if outer is None else lambda: outer() or predicate())
    try:
        yield
    finally:
        _STOP.reset(token)


def check_stopped() -> None:
    """Raise :class:`EvaluationStopped` if the caller's :func:`stop_when` predicate is true;
    without one, a single context-variable read."""
    predicate = _STOP.get()
    if predicate is not None and predicate():
        raise EvaluationStopped()
