"""The rules engine: immutable rules, a replayable state, public shortest paths, scoring."""

from game.actions import Action, Claim, DrawDeck, DrawFaceUp, Pass
from game.rules import PUBLISHED_TRAINS, Rules
from game.state import GameState
from game.table import END_REASONS, Event, IllegalAction, ScoreParts, TableState
from game.view import PlayerView

__all__ = ["PUBLISHED_TRAINS", "END_REASONS", "Action", "Claim", "DrawDeck", "DrawFaceUp",
           "Event", "GameState", "IllegalAction", "Pass", "PlayerView", "Rules", "ScoreParts",
           "TableState"]
