"""The rules engine: immutable rules, a replayable state, public shortest paths, scoring.

The names below are imported when first asked for (PEP 562), not with the package: a command
that needs only ``game.files`` or ``game.fields`` (``ttr-kripke model``, ``puzzle``) must not
pay for the state, its paths and the shared model's protocol (issue 39)."""

from typing import TYPE_CHECKING

from kripke.lazy import exports

if TYPE_CHECKING:
    from game.actions import Action, Claim, DrawDeck, DrawFaceUp, Pass
    from game.rules import PUBLISHED_TRAINS, Rules
    from game.state import GameState
    from game.table import END_REASONS, Event, IllegalAction, ScoreParts, TableState
    from game.view import PlayerView

_HOME = {"Action": "actions", "Claim": "actions", "DrawDeck": "actions", "DrawFaceUp": "actions",
         "Pass": "actions", "PUBLISHED_TRAINS": "rules", "Rules": "rules", "GameState": "state",
         "END_REASONS": "table", "Event": "table", "IllegalAction": "table",
         "ScoreParts": "table", "TableState": "table", "PlayerView": "view"}

__all__ = ["PUBLISHED_TRAINS", "END_REASONS", "Action", "Claim", "DrawDeck", "DrawFaceUp",
           "Event", "GameState", "IllegalAction", "Pass", "PlayerView", "Rules", "ScoreParts",
           "TableState"]

__getattr__ = exports(__name__, _HOME)
