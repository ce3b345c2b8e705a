"""A general multi-agent epistemic model checker: knowledge (S5), belief, announcements, events.

Language (:mod:`kripke.formula`, :mod:`kripke.parser`), models (:mod:`kripke.model`,
:mod:`kripke.deal`; any relation, for belief: :mod:`kripke.belief`; symbolic:
:mod:`kripke.symbolic`, :mod:`kripke.symbolic_deal`) and updates
(``announce``; event models for semi-private events, ``update``, :mod:`kripke.events`), split
the way SMCDEL splits them, with one interface for both backends
(:mod:`kripke.interface`); models written by hand are read by :mod:`kripke.modelfile`.
It knows nothing of Ticket to Ride; the game builds on it. See kripke/README.md.

The symbolic backend's names are imported when first asked for (PEP 562): its BDD library
brings networkx, which a hand-written model checked from the command line never needs.
"""

from typing import TYPE_CHECKING

from kripke.belief import BeliefModel
from kripke.deal import DealModel, deal_count, deal_model
from kripke.errors import (
    AnnouncementError,
    EvaluationStopped,
    ModelError,
    ModelTooLargeError,
    TooMuchWorkError,
    UpdateError,
)
from kripke.eventfile import EventFileError, parse_event_model
from kripke.events import Event, EventModel
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
from kripke.lazy import exports
from kripke.model import KripkeModel
from kripke.modelfile import ModelFileError, NamedModel, dump_model, load_model
from kripke.parser import FormulaError, parse

if TYPE_CHECKING:
    from kripke.symbolic import SymbolicModel
    from kripke.symbolic_deal import Deal, SymbolicDealModel, symbolic_deal
    from kripke.translate import to_explicit, to_symbolic

_SYMBOLIC = {"SymbolicModel": "symbolic", "SymbolicDealModel": "symbolic_deal",
             "Deal": "symbolic_deal",
             "symbolic_deal": "symbolic_deal", "to_explicit": "translate",
             "to_symbolic": "translate"}

__all__ = [
    "And",
    "Announce",
    "AnnounceDual",
    "AnnouncementError",
    "Atom",
    "BeliefModel",
    "Bottom",
    "Common",
    "Deal",
    "DealModel",
    "Distributed",
    "EpistemicModel",
    "EvaluationStopped",
    "Event",
    "EventFileError",
    "EventModel",
    "Everyone",
    "Formula",
    "FormulaError",
    "Iff",
    "Implies",
    "Knows",
    "KripkeModel",
    "ModelError",
    "ModelFileError",
    "ModelTooLargeError",
    "NamedModel",
    "TooMuchWorkError",
    "Not",
    "Or",
    "Possible",
    "SymbolicDealModel",
    "SymbolicModel",
    "Top",
    "UpdateError",
    "deal_count",
    "deal_model",
    "dump_model",
    "knows_whether",
    "load_model",
    "parse",
    "parse_event_model",
    "symbolic_deal",
    "to_explicit",
    "to_symbolic",
]

__getattr__ = exports(__name__, _SYMBOLIC)
