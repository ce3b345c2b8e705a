"""A general multi-agent S5 epistemic model checker with public announcements.

Language (:mod:`kripke.formula`, :mod:`kripke.parser`), models (:mod:`kripke.model`,
:mod:`kripke.deal`) and updates (``KripkeModel.announce``), split the way SMCDEL splits them.
It knows nothing of Ticket to Ride; the game builds on it. See kripke/README.md.
"""

from kripke.deal import DealModel, deal_count, deal_model
from kripke.errors import AnnouncementError, ModelError, ModelTooLargeError
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
from kripke.model import KripkeModel
from kripke.parser import FormulaError, parse

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
    "Everyone",
    "Formula",
    "FormulaError",
    "Iff",
    "Implies",
    "Knows",
    "KripkeModel",
    "ModelError",
    "ModelTooLargeError",
    "Not",
    "Or",
    "Possible",
    "Top",
    "deal_count",
    "deal_model",
    "knows_whether",
    "parse",
]
