"""A general multi-agent S5 epistemic model checker with public announcements.

Language (:mod:`kripke.formula`, :mod:`kripke.parser`), models (:mod:`kripke.model`,
:mod:`kripke.deal`; symbolic: :mod:`kripke.symbolic`, :mod:`kripke.symbolic_deal`) and updates
(``announce``), split the way SMCDEL splits them, with one interface for both backends
(:mod:`kripke.interface`).
It knows nothing of Ticket to Ride; the game builds on it. See kripke/README.md.
"""

from kripke.deal import DealModel, deal_count, deal_model
from kripke.errors import AnnouncementError, ModelError, ModelTooLargeError, TooMuchWorkError
from kripke.formula import (
    And,
    Announce,
    AnnounceDual,
    Atom,
    Bottom,
    Common,
    Distributed,
    Everyone,
    Formula,
    Iff,
    Implies,
    Knows,
    Not,
    Or,
    Possible,
    Top,
    knows_whether,
)
from kripke.interface import EpistemicModel
from kripke.model import KripkeModel
from kripke.parser import FormulaError, parse
from kripke.symbolic import SymbolicModel
from kripke.symbolic_deal import SymbolicDealModel, symbolic_deal
from kripke.translate import to_explicit, to_symbolic

__all__ = [
    "And",
    "Announce",
    "AnnounceDual",
    "AnnouncementError",
    "Atom",
    "Bottom",
    "Common",
    "DealModel",
    "Distributed",
    "EpistemicModel",
    "Everyone",
    "Formula",
    "FormulaError",
    "Iff",
    "Implies",
    "Knows",
    "KripkeModel",
    "ModelError",
    "ModelTooLargeError",
    "TooMuchWorkError",
    "Not",
    "Or",
    "Possible",
    "SymbolicDealModel",
    "SymbolicModel",
    "Top",
    "deal_count",
    "deal_model",
    "knows_whether",
    "parse",
    "symbolic_deal",
    "to_explicit",
    "to_symbolic",
]
