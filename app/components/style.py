"""Colours and names shared by every view, so a player looks the same on the board, in the worlds
graph (its edges), in the tables and in the log: a student follows one colour across the page."""

from __future__ import annotations

#: One colour per seat. None of them is a card colour, so a claimed connection (drawn in its
#: owner's colour) never looks like an unclaimed one of some card colour.
PLAYER_COLOURS: tuple[str, ...] = ("#8e24aa", "#00897b", "#6d4c41", "#d81b60", "#9e9d24")

#: How the card colours of unclaimed connections are drawn.
CARD_HEX: dict[str, str] = {
    "red": "#e53935", "orange": "#fb8c00", "yellow": "#fdd835", "green": "#43a047",
    "blue": "#1e88e5", "pink": "#f48fb1", "black": "#212121", "white": "#f5f5f5",
    "grey": "#9e9e9e", "locomotive": "#607d8b",
}

ACTUAL_COLOUR = "#ffb300"  # the actual world: amber star
HOLDS_COLOUR = "#43a047"  # worlds where the formula box's formula holds
FAILS_COLOUR = "#e0e0e0"  # ... and where it does not
WORLD_COLOUR = "#90a4ae"  # any other world
HIGHLIGHT = "#ffca28"  # the last move on the board


def player_colour(player: int) -> str:
    return PLAYER_COLOURS[player % len(PLAYER_COLOURS)]


def player_name(player: int) -> str:
    """Seats are 0-based everywhere, as in formulas (``K_0 p(1,5)``)."""
    return f"player {player}"


def legend(players: int) -> str:
    """Every seat's swatch and name in a row, as inline HTML (the key under the board and
    the worlds graph)."""
    return "".join(f"<span style='margin-right:1em'>{swatch(p)}{player_name(p)}</span>"
                   for p in range(players))


def swatch(player: int) -> str:
    """A small coloured square before a player's name, as inline HTML."""
    return (f'<span style="display:inline-block;width:.8em;height:.8em;border-radius:2px;'
            f'background:{player_colour(player)};margin-right:.3em;vertical-align:-.05em"></span>')
