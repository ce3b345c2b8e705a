"""Every backend of the table (:data:`kripke.backends.BACKENDS`) held to the reference checker
(:mod:`kripke.reference`, the textbook definitions world by world), SMCDEL's way: random small
listed models of the kinds the row is built from, random formulas with every operator, and the
events the row supports, and at every world the backend's answers, read only through the
interface (``values`` read by ``actual_value`` and ``count_values``, ``holds``, ``count``,
``announce``, ``restrict``, ``update``), equal the reference's.

A backend is pointed at each world in turn by building it from the listed model with that
world actual (``model.at(w)``); after an event, at each pair (w, e) of the product, by building
it at w and updating with e actual. A row added to the table is tested here with no change.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from kripke_strategies import (
    belief_models,
    changes,
    models,
    plausibility_formulas,
    plausibility_models,
    ranked_events,
)

from kripke.backends import (
    ARROWS,
    BACKENDS,
    CAPABILITIES,
    FACTUAL_CHANGE,
    UPGRADES,
    Backend,
    Listed,
)
from kripke.errors import AnnouncementError
from kripke.events.model import EventModel
from kripke.explicit.plausibility import upgrade
from kripke.interface import EpistemicModel
from kripke.language.formula import Formula
from kripke.reference import Structure

#: Random listed models of each kind: classes (S5), arrows (belief), classes and ranks.
LISTED: dict[str, st.SearchStrategy[Listed]] = {
    "classes": models(max_worlds=5), "arrows": belief_models(max_worlds=5),
    "ranks": plausibility_models(max_worlds=5)}


def kinds(row: Backend) -> list[str]:
    """The kinds of listed model the row is built from (ranks, when it reads them, for
    classes: a flat order is a model of classes)."""
    return [kind for kind in LISTED if kind in row.reads
            and not (kind == "classes" and "ranks" in row.reads)]


#: Each row with each kind of listed model it is built from.
ROWS = pytest.mark.parametrize(("row", "kind"), [(row, kind) for row in BACKENDS
                                                 for kind in kinds(row)],
                               ids=lambda x: str(x))
#: Examples per row, kind and test: the suite stays within a few minutes of CPU.
EXAMPLES = 30


def formula_for(data: st.DataObject, model: Listed, max_leaves: int = 6) -> Formula:
    """A random formula over the model's atoms with every operator (plausibility ones read
    flat where the model has no order)."""
    return data.draw(plausibility_formulas(max_leaves=max_leaves, atoms=model.atoms))


def events_for(data: st.DataObject, row: Backend, model: Listed, max_events: int = 3,
               arrows: bool = True, upgrades: bool = True) -> EventModel:
    """A random event of the kinds the row takes: an event model (arrows and assignments if
    supported), an upgrade, or an ordered event model; ``arrows`` or ``upgrades`` False leaves
    those out (a model an upgrade made orders its classes and takes no arrows; one that
    arrows made has no classes to order)."""
    kinds = [changes(max_events, atoms=model.atoms, arrows=arrows and ARROWS in row.supports,
                     assignments=FACTUAL_CHANGE in row.supports)]
    if upgrades and UPGRADES in row.supports:
        kinds += [st.builds(upgrade, st.sampled_from(["radical", "conservative"]),
                            plausibility_formulas(max_leaves=3, atoms=model.atoms)),
                  ranked_events(atoms=model.atoms,
                                assignments=FACTUAL_CHANGE in row.supports)]
    return data.draw(st.one_of(kinds))


def agrees(model: EpistemicModel, reference: Structure, world: int, formula: Formula) -> None:
    """The backend pointed at ``world`` of the reference answers as the reference does."""
    expected = reference.values(formula)
    index = sorted(reference.worlds).index(world)
    values = model.values(formula)
    assert model.actual_value(values) == expected[index]
    assert model.holds(formula) == expected[index]
    assert model.count_values(values) == sum(expected)
    assert model.count(formula) == sum(expected)
    assert model.n_worlds == reference.n_worlds


@ROWS
@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_every_value_at_every_world_is_the_textbooks(row, kind, data):
    model = data.draw(LISTED[kind])
    formula = formula_for(data, model)
    reference = Structure.of(model)
    for w in range(model.n_worlds):
        agrees(row.build(model.at(w)), reference, w, formula)


@ROWS
@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_an_announcement_keeps_the_textbooks_worlds(row, kind, data):
    """Announced (refused where false) and restricted to its values, at every world."""
    model = data.draw(LISTED[kind])
    said, then = formula_for(data, model, 4), formula_for(data, model)
    before = Structure.of(model)
    after = before.announce(said)
    for w in range(model.n_worlds):
        pointed = row.build(model.at(w))
        if w not in after.worlds:
            with pytest.raises(AnnouncementError):
                pointed.announce(said)
            continue
        agrees(pointed.announce(said), after, w, then)
        agrees(pointed.restrict(pointed.values(said)), after, w, then)


@ROWS
@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_every_event_the_backend_takes_makes_the_textbooks_product(row, kind, data):
    """At each pair (w, e) of the product (an upgrade: each world), the updated backend
    answers as the textbook's product, order or priority update."""
    model = data.draw(LISTED[kind])
    events = events_for(data, row, model)
    formula = formula_for(data, model)
    product, pairs = Structure.of(model).update(events)
    for k, (w, e) in enumerate(pairs):
        agrees(row.build(model.at(w)).update(events.at(e)), product, k, formula)


@pytest.mark.slow
@ROWS
@settings(max_examples=EXAMPLES, deadline=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_two_events_and_an_announcement_in_a_row_stay_the_textbooks(row, kind, data):
    """A story: an event, an announcement, another event, checked after each step at the
    actual world of each; longer, so marked slow (it runs in CI)."""
    model = data.draw(LISTED[kind])
    first = events_for(data, row, model, 2)
    second = events_for(data, row, model, 2, arrows=not first.reorders, upgrades=first.is_s5)
    said, formula = formula_for(data, model, 3), formula_for(data, model)
    reference = Structure.of(model)
    backend = row.build(model)
    for step in (first, said, second):
        if isinstance(step, EventModel):
            assert reference.actual is not None
            happens = [e.name for e in step.events
                       if reference.holds(e.precondition)]
            if not happens:
                return
            step = step.at(happens[0])
            reference = reference.update(step)[0]
            backend = backend.update(step)
        else:
            if not reference.holds(step):
                return
            reference, backend = reference.announce(step), backend.announce(step)
        assert reference.actual is not None
        agrees(backend, reference, reference.actual, formula)


def test_the_readme_table_says_what_each_row_supports():
    """kripke/README.md shows the table: a line per row, naming exactly what it supports."""
    readme = (Path(__file__).parent.parent / "kripke" / "README.md").read_text(encoding="utf-8")
    lines = [line for line in readme.splitlines() if line.startswith("| ")]
    for row in BACKENDS:
        line = next(line for line in lines if line.startswith(f"| {row.name} ("))
        assert [c for c in CAPABILITIES if c in line] == \
            [c for c in CAPABILITIES if c in row.supports], row.name
