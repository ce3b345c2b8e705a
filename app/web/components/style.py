"""Colours and names shared by every view, so a player looks the same on the board, in the worlds
graph (its edges), in the tables and in the log: a student follows one colour across the page."""

from __future__ import annotations

from app.worlds.palette import AGENT_COLOURS, agent_colour

#: One colour per seat: the agents' palette (``app.worlds.palette``), which the TikZ slides use too.
PLAYER_COLOURS: tuple[str, ...] = AGENT_COLOURS
#: The same hues lighter, for text and outlines on the dark theme's paper: the light colours
#: (purple, brown, dark green, wine) are too dark to read there.
PLAYER_COLOURS_DARK: tuple[str, ...] = ("#ce93d8", "#4db6ac", "#bcaaa4", "#f48fb1", "#dce775",
                                        "#aed581", "#d59cff", "#d0829f")


HIGHLIGHT = "#ffca28"  # the last move on the board

#: The page's own CSS. Solara's dark theme puts ``theme--dark`` on the application; the board
#: and the worlds picture take their colours from these variables, so both follow the theme.
#: ``--formula-ink`` is the formula's blue (``app.worlds.svg``), for the text that names it.
PAGE_CSS = """
.v-application { --board-paper:#f4f1e8; --board-ink:#263238; --board-halo:#ffffff;
  --car-edge:#424242; --formula-ink:#1e5bd8; --chart-line:#546e7a; }
.v-application.theme--dark { --board-paper:#23282d; --board-ink:#eceff1; --board-halo:#23282d;
  --car-edge:#cfd8dc; --formula-ink:#6ea8ff; --chart-line:#90a4ae; """ + "".join(
    f"--ttr-p{i}:{c}; " for i, c in enumerate(PLAYER_COLOURS_DARK)) + """}
.ttr-board .city-name { fill:var(--board-ink); stroke:var(--board-halo); }
.ttr-board .city-dot { fill:var(--board-halo); stroke:var(--board-ink); }
.ttr-board .car-edge { stroke:var(--car-edge); }
.v-application table td, .v-application table th { overflow-wrap:anywhere; }
.ttr-header { margin:6px 8px 0 8px !important; position:relative; }
.ttr-header > .v-card__text { padding:4px 10px 6px !important; }
.ttr-header-row { align-items:center; flex-wrap:wrap; gap:4px 16px !important; }
.ttr-brand { font-weight:700; font-size:16px; white-space:nowrap; }
/* the gallery's puzzles wrap onto a second row rather than run off a 1280-pixel screen */
.ttr-puzzles { flex-wrap:wrap; height:auto !important; max-width:100%; }
/* links to the other pages, and the toggles that choose a puzzle, a picture or a focus, in
   sentence case and narrow: at 1280 pixels the twelve puzzles fit one row (a little smaller
   type than the other buttons), and the worlds card's switches one line, so the picture keeps
   the first screen */
.ttr-nav .v-btn, .ttr-puzzles .v-btn, .ttr-kind .v-btn, .ttr-focus .v-btn {
  text-transform:none !important; letter-spacing:normal !important; }
.ttr-nav .v-btn { height:22px !important; padding:0 4px !important; justify-content:start; }
.ttr-puzzles .v-btn, .ttr-kind .v-btn, .ttr-focus .v-btn { padding:0 8px !important;
  min-width:0 !important; }
.ttr-puzzles .v-btn { padding:0 5px !important; font-size:12px !important; }
.ttr-params .v-text-field__details, .ttr-params .v-messages { display:none !important; }
.ttr-params .v-input { margin-top:4px; padding-top:0; }
.ttr-progress { position:absolute !important; left:0; right:0; bottom:0; }
.ttr-main .v-card__title, .ttr-title { font-size:16px !important; font-weight:500;
  line-height:1.4 !important; }
.ttr-main .v-card__title { padding:6px 12px 2px !important; }
.ttr-main .v-card__text { padding:4px 12px 8px !important; }
/* the board and the picture fit the screen's height as well as their card's width */
.ttr-main svg.ttr-board { max-height:calc(100vh - 190px); }
/* the picture shares its card with the formula box (its input, verdict and, asked for, the
   steps of Why?, which scroll), so it leaves them room on the first screen */
.ttr-main svg.ttr-pic { max-height:calc(100vh - 335px); }
.ttr-main .ttr-formula { margin-top:4px; }
.ttr-main .ttr-formula .v-input { margin-top:0; padding-top:10px; }
.ttr-main .ttr-formula .v-text-field__details { display:none; }
.ttr-main .ttr-why .why-steps { max-height:13vh; overflow-y:auto; }
.ttr-main .ttr-event .v-input { margin-top:0; padding-top:6px; }
.ttr-main .ttr-event textarea { font:13px/1.35 monospace; }
.ttr-main .ttr-formula:has(.ttr-why) ~ div svg.ttr-pic { max-height:calc(100vh - 470px);
  min-height:220px; }
.ttr-chart text { fill:var(--board-ink); font-size:12px; font-family:sans-serif; }
.ttr-chart .grid { stroke:rgba(128,128,128,.35); }
.ttr-chart path.deals { fill:none; stroke:var(--chart-line); stroke-width:2.5; }
.ttr-chart circle.deals { fill:var(--chart-line); }
"""


def player_colour(player: int) -> str:
    return agent_colour(player)


def player_ink(player: int) -> str:
    """The player's colour for text and outlines, as CSS: lighter on the dark theme (the page
    sets ``--ttr-pN`` there), the plain colour otherwise. Only for CSS properties (``style``),
    not SVG presentation attributes, which do not read variables."""
    return f"var(--ttr-p{player % len(PLAYER_COLOURS)},{player_colour(player)})"


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
