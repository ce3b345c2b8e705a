"""A general multi-agent epistemic model checker: knowledge (S5), belief, announcements, events.

Language (:mod:`kripke.language.formula`, :mod:`kripke.language.parser`), models
(:mod:`kripke.explicit.model`,
:mod:`kripke.explicit.deal`; any relation, for belief: :mod:`kripke.explicit.belief`; symbolic:
:mod:`kripke.symbolic.structure`, :mod:`kripke.symbolic.deal`) and updates
(``announce``; event models for semi-private events, ``update``, :mod:`kripke.events.model`), split
the way SMCDEL splits them, with one interface for both backends
(:mod:`kripke.interface`); models written by hand are read by :mod:`kripke.files.modelfile`.
It knows nothing of Ticket to Ride; the game builds on it. See kripke/README.md.

The symbolic backend's names are imported when first asked for (PEP 562): its BDD library
brings networkx, which a hand-written model checked from the command line never needs.
"""

from typing import TYPE_CHECKING

from kripke.errors import (
    AnnouncementError,
    EvaluationStopped,
    ModelError,
    ModelTooLargeError,
    TooMuchWorkError,
    UpdateError,
)
from kripke.events.model import Event, EventModel
from kripke.explicit.belief import BeliefModel
from kripke.explicit.deal import DealModel, deal_count, deal_model
from kripke.explicit.model import KripkeModel
from kripke.files.eventfile import parse_event_model
from kripke.files.modelfile import NamedModel, dump_model, load_model
from kripke.files.reader import EventFileError, ModelFileError
from kripke.interface import EpistemicModel
from kripke.language.formula import (
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
from kripke.language.parser import FormulaError, parse
from kripke.lazy import exports

if TYPE_CHECKING:
    from kripke.symbolic.deal import Deal, SymbolicDealModel, symbolic_deal
    from kripke.symbolic.ranked import RankedDeal, ranked_deal
    from kripke.symbolic.structure import SymbolicModel
    from kripke.symbolic.translate import to_explicit, to_symbolic

_SYMBOLIC = {"SymbolicModel": "symbolic.structure", "SymbolicDealModel": "symbolic.deal",
             "Deal": "symbolic.deal", "symbolic_deal": "symbolic.deal",
             "to_explicit": "symbolic.translate", "to_symbolic": "symbolic.translate",
             "RankedDeal": "symbolic.ranked", "ranked_deal": "symbolic.ranked"}

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
    "RankedDeal",
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
    "ranked_deal",
    "symbolic_deal",
    "to_explicit",
    "to_symbolic",
]

__getattr__ = exports(__name__, _SYMBOLIC)
