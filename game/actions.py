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
class DeclareBlock:
    """Simplified rules: ``claim`` declared as a block of ``victim``'s ``ticket``, announced as
    K_b p(victim, ticket). Legal only when the claimant knows that the victim holds the ticket
    and the claim lies on the victim's shortest path for it. The table sees the claim; the
    event and the log keep the action taken (a log line's ``"kind": "block"``)."""

    claim: Claim
    victim: int
    ticket: int

    def describe(self, board: Board) -> str:
        return f"{self.claim.describe(board)}, declared as a block of player {self.victim}'s " \
               f"ticket {board.tickets[self.ticket]}"


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
class DrawTickets:
    """Standard rules: take the top tickets of the ticket pile (three, fewer if fewer remain);
    the turn goes on with a :class:`KeepTickets` choice."""

    def describe(self, board: Board) -> str:
        return "draws tickets"


@dataclass(frozen=True)
class KeepTickets:
    """Standard rules: keep these of the offered tickets (board ticket ids); the others go under
    the ticket pile. Also the setup choice from the tickets dealt."""

    tickets: tuple[int, ...]

    def __post_init__(self) -> None:
        # a set of tickets: kept in id order, so equal choices are equal actions (a log's list
        # becomes the same hashable tuple)
        object.__setattr__(self, "tickets", tuple(sorted(self.tickets)))

    def describe(self, board: Board) -> str:
        return f"keeps {len(self.tickets)} ticket{'s' * (len(self.tickets) != 1)}"


@dataclass(frozen=True)
class TunnelPay:
    """Standard rules, Europe option: pay the extra cards a tunnel claim asks for, this many of
    them locomotives and the rest of the claim's colour; the claim then completes."""

    locomotives: int

    def describe(self, board: Board) -> str:
        return f"pays the tunnel's extra cards ({self.locomotives} locomotives)"


@dataclass(frozen=True)
class TunnelGiveUp:
    """Standard rules, Europe option: refuse a tunnel's extra cards; the cards played go back
    to the hand and the turn is over."""

    def describe(self, board: Board) -> str:
        return "gives up the tunnel"


@dataclass(frozen=True)
class BuildStation:
    """Standard rules, Europe option: put a station on ``city``, paying as many cards of one
    colour as stations built so far plus one (locomotives stand in; ``colour`` ``None`` when
    locomotives pay for all)."""

    city: str
    colour: int | None
    locomotives: int

    def describe(self, board: Board) -> str:
        return f"builds a station in {self.city}"


@dataclass(frozen=True)
class Pass:
    """Legal only when nothing else is: no claim can be paid and no card can be drawn."""

    def describe(self, board: Board) -> str:
        return "passes"


Action = (Claim | DeclareBlock | DrawFaceUp | DrawDeck | DrawTickets | KeepTickets | TunnelPay
          | TunnelGiveUp | BuildStation | Pass)
def claim_of(action: Action) -> Claim | None:
    """The claim an action makes, declared or not (``None``: it claims nothing)."""
    return action.claim if isinstance(action, DeclareBlock) else \
        action if isinstance(action, Claim) else None


_KINDS: dict[str, type[Action]] = {
    "claim": Claim, "face_up": DrawFaceUp, "deck": DrawDeck, "tickets": DrawTickets,
    "keep": KeepTickets, "tunnel_pay": TunnelPay, "tunnel_give_up": TunnelGiveUp,
    "station": BuildStation, "pass": Pass}
_NAMES = {cls: name for name, cls in _KINDS.items()}


def action_to_json(action: Action) -> dict[str, Any]:
    """An action as a log line holds it; a declared block as the claim it declares, with the
    victim and the ticket."""
    if isinstance(action, DeclareBlock):
        return {"kind": "block", "claim": action_to_json(action.claim),
                "victim": action.victim, "ticket": action.ticket}
    data = {"kind": _NAMES[type(action)], **action.__dict__}
    if isinstance(action, KeepTickets):
        data["tickets"] = list(action.tickets)
    return data


def action_from_json(data: dict[str, Any]) -> Action:
    data = dict(data)
    kind = data.pop("kind", None)
    if kind == "block":
        claim = action_from_json(data.pop("claim", {}))
        if not isinstance(claim, Claim) or sorted(data) != ["ticket", "victim"] or \
                not all(type(data[k]) is int for k in data):
            raise ValueError(f"bad block action {data}: a claim, a victim and a ticket")
        return DeclareBlock(claim, data["victim"], data["ticket"])
    if kind not in _KINDS:
        raise ValueError(f"unknown action kind {kind!r}; expected one of "
                         f"{', '.join([*_KINDS, 'block'])}")
    try:
        return _KINDS[kind](**data)
    except TypeError as e:
        raise ValueError(f"bad {kind} action {data}: {e}") from None
