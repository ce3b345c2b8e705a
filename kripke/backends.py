"""Every kind of model, one row each: its name, how it is built from a listed model, and what it
supports.

SMCDEL's shape: one language, several backends, and a plain reference checker
(:mod:`kripke.reference`) they are all held to (``tests/test_conformance.py`` runs over every
row of :data:`BACKENDS` on random models, formulas and events). A listed model (what a model
file, its JSON or a puzzle gives: :class:`~kripke.explicit.model.KripkeModel` with classes,
:class:`~kripke.explicit.belief.BeliefModel` with arrows,
:class:`~kripke.explicit.plausibility.PlausibilityModel` with ranks) is the plain description
every row is built from, and what the reference reads too.

A new kind of model is one module (answering :class:`kripke.interface.EpistemicModel`) and one
row here: its ``build`` refuses a description it cannot hold in one line
(:class:`~kripke.errors.ModelError`), and ``supports`` says which questions, events and tools
it takes, so the conformance suite draws only those for it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, cast

from kripke.errors import ModelError
from kripke.explicit.belief import BeliefModel
from kripke.explicit.model import KripkeModel
from kripke.explicit.plausibility import PlausibilityModel
from kripke.factory import belief_structure
from kripke.interface import EpistemicModel
from kripke.parts import Drawn

if TYPE_CHECKING:  # the BDD library loads only when a symbolic row builds
    from kripke.symbolic.belief import SymbolicBeliefModel
    from kripke.symbolic.structure import SymbolicModel

#: What a listed model gives: classes (an S5 model), arrows (a belief model), or classes with
#: an order (a plausibility model).
type Listed = KripkeModel | BeliefModel

# --- what a row supports ---------------------------------------------------------------------
#: K_a, M_a, E_G, C_G, D_G and public announcements [!φ]ψ (every row).
KNOWLEDGE = "knowledge"
#: B_a read on any relation, the agent's arrows (no order: B_a is K_a there).
BELIEF = "belief operators"
#: B_a, B_a[ψ], Sb_a and their duals read by a plausibility order.
PLAUSIBILITY = "plausibility operators"
#: Event models with arrows (somebody believes something else happened).
ARROWS = "event models with arrows"
#: Events that assign atoms (p := φ).
FACTUAL_CHANGE = "factual change"
#: Radical and conservative upgrades, the rank shift and ordered event models.
UPGRADES = "upgrades"
#: Every world listed: drawn, written as a model file, JSON or TikZ.
LISTING = "listing and drawing"
#: Contraction up to bisimulation.
MINIMISE = "minimise"
#: Why a formula holds (:mod:`kripke.explain`), on the worlds listed.
EXPLAIN = "explain"
#: Held as diagrams (BDDs): no world listed, sizes far past a list's.
SYMBOLIC = "symbolic"

#: Every capability, in the order a table prints them.
CAPABILITIES = (KNOWLEDGE, BELIEF, PLAUSIBILITY, ARROWS, FACTUAL_CHANGE, UPGRADES, LISTING,
                MINIMISE, EXPLAIN, SYMBOLIC)


@dataclass(frozen=True)
class Backend[M: EpistemicModel]:
    """One kind of model: ``name`` (what a user and a test call it), ``module`` (where it
    lives), ``reads`` (the listed models it is built from: "classes", "arrows", "ranks"),
    ``build`` (the model from a listed one, the same worlds and actual world, or
    :class:`~kripke.errors.ModelError` naming what it cannot hold) and ``supports`` (from
    :data:`CAPABILITIES`)."""

    name: str
    module: str
    reads: frozenset[str]
    build: Callable[[Drawn], M]
    supports: frozenset[str]

    def __str__(self) -> str:
        return self.name


def _ordered(model: Drawn) -> bool:
    return isinstance(model, PlausibilityModel) and not model.is_flat()


def _classes(model: Drawn, kind: str) -> KripkeModel:
    """The listed model's classes, refused when it gives arrows or an order ``kind`` cannot
    hold."""
    if not isinstance(model, KripkeModel):
        raise ModelError(f"{kind} holds each agent's classes, and this model gives arrows; "
                         "use a belief backend")
    if _ordered(model):
        raise ModelError(f"{kind} has no plausibility order, and this model has one; use the "
                         "explicit plausibility backend")
    return model


def explicit_s5(model: Drawn) -> KripkeModel:
    return _classes(model, "an explicit S5 model")


def explicit_belief(model: Drawn) -> BeliefModel:
    if isinstance(model, BeliefModel):
        return model
    return _classes(model, "an explicit belief model").to_belief()


def explicit_plausibility(model: Drawn) -> PlausibilityModel:
    if isinstance(model, PlausibilityModel):
        return model
    if not isinstance(model, KripkeModel):
        raise ModelError("a plausibility model orders each agent's classes, and this model "
                         "gives arrows; use a belief backend")
    return PlausibilityModel.of(model)


def symbolic_s5(model: Drawn) -> SymbolicModel:
    from kripke.symbolic.translate import to_symbolic  # the BDD library, loaded when asked

    return to_symbolic(_classes(model, "a knowledge structure"))


def symbolic_belief(model: Drawn) -> SymbolicBeliefModel:
    return cast("SymbolicBeliefModel", belief_structure(model))  # the factory's, written once


_EXPLICIT = frozenset({KNOWLEDGE, LISTING, EXPLAIN})

EXPLICIT_S5: Backend[KripkeModel] = Backend(
    "explicit S5", "kripke.explicit.model", frozenset({"classes"}), explicit_s5,
    _EXPLICIT | {ARROWS, FACTUAL_CHANGE, UPGRADES, MINIMISE})
EXPLICIT_BELIEF: Backend[BeliefModel] = Backend(
    "explicit belief", "kripke.explicit.belief", frozenset({"classes", "arrows"}),
    explicit_belief, _EXPLICIT | {BELIEF, ARROWS, FACTUAL_CHANGE, MINIMISE})
EXPLICIT_PLAUSIBILITY: Backend[PlausibilityModel] = Backend(
    "explicit plausibility", "kripke.explicit.plausibility", frozenset({"classes", "ranks"}),
    explicit_plausibility, _EXPLICIT | {PLAUSIBILITY, FACTUAL_CHANGE, UPGRADES})
SYMBOLIC_S5: Backend[SymbolicModel] = Backend(
    "symbolic S5", "kripke.symbolic.structure", frozenset({"classes"}), symbolic_s5,
    frozenset({KNOWLEDGE, EXPLAIN, SYMBOLIC}))
SYMBOLIC_BELIEF: Backend[SymbolicBeliefModel] = Backend(
    "symbolic belief", "kripke.symbolic.belief", frozenset({"classes", "arrows"}),
    symbolic_belief, frozenset({KNOWLEDGE, BELIEF, ARROWS, FACTUAL_CHANGE, EXPLAIN, SYMBOLIC}))

#: The backends, one row each.
BACKENDS: tuple[Backend[Any], ...] = (EXPLICIT_S5, EXPLICIT_BELIEF, EXPLICIT_PLAUSIBILITY,
                                      SYMBOLIC_S5, SYMBOLIC_BELIEF)

