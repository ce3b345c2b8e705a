"""Train cards as small integers: the eight colours in ``boards.COLOURS`` order, then locomotives.

Hands are count vectors indexed by card, so paying and conserving cards is plain arithmetic and a
game runs fast enough for thousands of seeded games.
"""

from __future__ import annotations

from boards import COLOURS, GREY

LOCO = len(COLOURS)
N_CARD_TYPES = LOCO + 1
CARD_NAMES: tuple[str, ...] = (*COLOURS, "locomotive")


def card_index(name: str) -> int:
    """The card number of a colour name or ``locomotive``."""
    try:
        return CARD_NAMES.index(name)
    except ValueError:
        raise ValueError(f"unknown card {name!r}; use one of {', '.join(CARD_NAMES)}") from None


_CARD_OF: dict[str, int | None] = {GREY: None} | {c: i for i, c in enumerate(COLOURS)}


def colour_of(connection_colour: str) -> int | None:
    """The card a connection asks for, or ``None`` for grey (any one colour pays)."""
    return _CARD_OF[connection_colour]


def takeable(card: int | None, drawn: int) -> bool:
    """Whether a face-up ``card`` may be taken after ``drawn`` cards this turn: any card
    first, never a locomotive second (the rules' one exception to two cards a turn)."""
    return card is not None and not (card == LOCO and drawn > 0)
