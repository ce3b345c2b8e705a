"""The reference checker's answers in the shapes the tests compare (:mod:`kripke.reference`)."""

from __future__ import annotations

from kripke.events.model import EventModel
from kripke.explicit.belief import BeliefModel
from kripke.explicit.model import KripkeModel
from kripke.language.formula import Formula
from kripke.reference import Structure


def truth_after(model: KripkeModel | BeliefModel, events: EventModel, formula: Formula
                ) -> dict[tuple[int, str], bool]:
    """The formula's value at each world (w, e) of the product update (w a world index of
    ``model``, e an event name), by the textbook definitions."""
    product, pairs = Structure.of(model).update(events)
    return dict(zip(pairs, product.values(formula), strict=True))
