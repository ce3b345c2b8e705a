"""Actions a player can take: small frozen values with a stable JSON form for the event log."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from boards import Board
from game.cards import CARD_NAMES


@dataclass(frozen=True)
class Claim:
    """Pay for and take a connection: ``locomotives`` locomotives, the rest cards of ``colour``
    (``None`` only when locomotives pay for all of it)."""

    connection: int
    colour: int | None
    locomotives: int

    def describe(self, board: Board) -> str:
        conn = board.connections[self.connection]
        paid = [] if self.colour is None else [CARD_NAMES[self.colour]]
        if self.locomotives:
            paid.append(f"{self.locomotives} locomotive{'s' * (self.locomotives > 1)}")
        return f"claims {conn} paying {' + '.join(paid)}"


@dataclass(frozen=True)
class DrawFaceUp:
    """Take the face-up card in ``slot``."""

    slot: int

    def describe(self, board: Board) -> str:
        return f"draws face-up slot {self.slot}"


@dataclass(frozen=True)
class DrawDeck:
    """Take the top card of the draw pile."""

    def describe(self, board: Board) -> str:
        return "draws from the pile"


@dataclass(frozen=True)
class Pass:
    """Legal only when nothing else is: no claim can be paid and no card can be drawn."""

    def describe(self, board: Board) -> str:
        return "passes"


Action = Claim | DrawFaceUp | DrawDeck | Pass
_KINDS: dict[str, type[Action]] = {"claim": Claim, "face_up": DrawFaceUp, "deck": DrawDeck,
                                   "pass": Pass}
_NAMES = {cls: name for name, cls in _KINDS.items()}


def action_to_json(action: Action) -> dict[str, Any]:
    return {"kind": _NAMES[type(action)], **action.__dict__}


def action_from_json(data: dict[str, Any]) -> Action:
    data = dict(data)
    kind = data.pop("kind", None)
    if kind not in _KINDS:
        raise ValueError(f"unknown action kind {kind!r}; expected one of {', '.join(_KINDS)}")
    try:
        return _KINDS[kind](**data)
    except TypeError as e:
        raise ValueError(f"bad {kind} action {data}: {e}") from None
