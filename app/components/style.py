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

HIGHLIGHT = "#ffca28"  # the last move on the board

#: The page's own CSS. Solara's dark theme puts ``theme--dark`` on the application; the board
#: and the worlds picture take their colours from these variables, so both follow the theme.
#: ``--formula-ink`` is the formula's blue (``app.worlds.svg``), for the text that names it.
PAGE_CSS = """
.v-application { --board-paper:#f4f1e8; --board-ink:#263238; --board-halo:#ffffff;
  --formula-ink:#1e5bd8; }
.v-application.theme--dark { --board-paper:#23282d; --board-ink:#eceff1; --board-halo:#23282d;
  --formula-ink:#6ea8ff; }
.ttr-board .city-name { fill:var(--board-ink); stroke:var(--board-halo); }
.ttr-board .city-dot { fill:var(--board-halo); stroke:var(--board-ink); }
.v-application table td, .v-application table th { overflow-wrap:anywhere; }
"""


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
