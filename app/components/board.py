"""The board as an SVG drawn from the board file's city coordinates.

SVG rather than a plotting library: it is crisp at any size, draws in well under a millisecond
per connection, costs the browser nothing to update each step and carries hover titles.
Unclaimed connections are thin rows of cars in their card colour; claimed ones are thick, solid
and in the owner's colour; the last move has an amber halo.
"""

from __future__ import annotations

import math
from collections import defaultdict
from html import escape

import solara
from mesa.visualization.utils import update_counter

from agents.model import TTRModel
from app.components.style import (
    HIGHLIGHT,
    legend,
    player_colour,
    player_ink,
    player_name,
)
from boards import CARD_INKS, Board, Connection

WIDTH, PAD, LABEL_ROOM = 1000, 40, 110  # LABEL_ROOM: names are written right of the dots
CITY_R = 8


def _frame(board: Board) -> tuple[float, float, float, float]:
    """Bounding box of the cities (x0, y0, scale, height): the map fills the width at the
    board's own aspect ratio, whatever part of the unit square its cities use."""
    xs, ys = [c.x for c in board.cities], [c.y for c in board.cities]
    scale = (WIDTH - 2 * PAD - LABEL_ROOM) / max(max(xs) - min(xs), 1e-9)
    return min(xs), min(ys), scale, (max(ys) - min(ys)) * scale + 2 * PAD


def _point(board: Board, city: str) -> tuple[float, float]:
    c = board.city(city)
    x0, y0, scale, _height = _frame(board)
    return PAD + (c.x - x0) * scale, PAD + (c.y - y0) * scale


def _offsets(board: Board) -> dict[int, float]:
    """Sideways offset of each connection, so double connections lie side by side."""
    by_pair: dict[frozenset[str], list[int]] = defaultdict(list)
    for conn in board.connections:
        by_pair[frozenset(conn.cities)].append(conn.id)
    out = {}
    for ids in by_pair.values():
        for i, cid in enumerate(ids):
            out[cid] = (i - (len(ids) - 1) / 2) * 9
    return out


def _ends(board: Board, conn: Connection, offset: float) -> tuple[float, float, float, float]:
    """The connection's end points, pulled back from the city dots and shifted sideways."""
    (x1, y1), (x2, y2) = _point(board, conn.a), _point(board, conn.b)
    d = math.hypot(x2 - x1, y2 - y1) or 1.0
    ux, uy = (x2 - x1) / d, (y2 - y1) / d
    inset = CITY_R + 3
    nx, ny = -uy * offset, ux * offset
    return (x1 + ux * inset + nx, y1 + uy * inset + ny, x2 - ux * inset + nx, y2 - uy * inset + ny)


def _cars(length: int, x1: float, y1: float, x2: float, y2: float) -> str:
    """A dash pattern that splits the line into ``length`` cars."""
    d = math.hypot(x2 - x1, y2 - y1)
    gap = 3.0
    car = max((d - gap * (length - 1)) / length, 1.0)
    return f"{car:.1f} {gap:.1f}"


def connection_title(conn: Connection, owner: int | None) -> str:
    kind = f", ferry needing {conn.ferry} locomotive{'s' * (conn.ferry > 1)}" if conn.ferry else ""
    kind += ", tunnel" if conn.tunnel else ""
    who = f"claimed by {player_name(owner)}" if owner is not None else "unclaimed"
    return f"{conn.a}–{conn.b}: {conn.length} {conn.colour}{kind}; {who}"


def board_svg(model: TTRModel, perspective: int | None = None) -> str:
    """The whole board as one SVG document. ``perspective`` rings that player's ticket cities."""
    board, owner = model.board, model.state.owner
    last = model.history[-1].claimed if model.history else None
    offsets = _offsets(board)
    halo, lines, badges, dots = [], [], [], []
    labelled: set[tuple[frozenset[str], str]] = set()  # one badge for both of a double
    for conn in board.connections:
        x1, y1, x2, y2 = _ends(board, conn, offsets[conn.id])
        line = f'x1="{x1:.1f}" y1="{y1:.1f}" x2="{x2:.1f}" y2="{y2:.1f}"'
        dash = _cars(conn.length, x1, y1, x2, y2)
        who = owner[conn.id]
        title = f"<title>{escape(connection_title(conn, who))}</title>"
        if conn.id == last:
            halo.append(f'<line {line} stroke="{HIGHLIGHT}" stroke-width="26" opacity="0.8" '
                        f'stroke-linecap="round" data-last-move="{conn.id}"/>')
        if who is None:
            lines.append(f'<g data-connection="{conn.id}">{title}'
                         f'<line {line} class="car-edge" stroke="#424242" stroke-width="7" '
                         f'stroke-dasharray="{dash}"/>'
                         f'<line {line} stroke="{CARD_INKS[conn.colour]}" stroke-width="5" '
                         f'stroke-dasharray="{dash}"/></g>')
        else:
            lines.append(f'<g data-connection="{conn.id}" data-owner="{who}">{title}'
                         f'<line {line} stroke="white" stroke-width="16"/>'
                         f'<line {line} stroke="{player_colour(who)}" stroke-width="12" '
                         f'stroke-dasharray="{dash}"/></g>')
        text = str(conn.length) + (f" F{conn.ferry}" if conn.ferry else "") + \
            (" T" if conn.tunnel else "")
        if (frozenset(conn.cities), text) in labelled:
            continue
        labelled.add((frozenset(conn.cities), text))
        mx, my = (x1 + x2) / 2, (y1 + y2) / 2
        w = 10 + 9 * len(text)
        badges.append(f'<g>{title}<rect x="{mx - w / 2:.1f}" y="{my - 10:.1f}" width="{w}" '
                      f'height="20" rx="10" fill="white" stroke="#616161" stroke-width="1"/>'
                      f'<text x="{mx:.1f}" y="{my + 5:.1f}" text-anchor="middle" '
                      f'font-size="15" fill="#212121">{text}</text></g>')
    rings = set()
    if perspective is not None:
        for t in model.state.tickets[perspective]:
            rings |= {t.a, t.b}
    for city in board.cities:
        x, y = _point(board, city.name)
        if perspective is not None and city.name in rings:
            dots.append(f'<circle cx="{x:.1f}" cy="{y:.1f}" r="{CITY_R + 5}" fill="none" '
                        f'style="stroke:{player_ink(perspective)}" stroke-width="3"/>')
        dots.append(f'<circle class="city-dot" cx="{x:.1f}" cy="{y:.1f}" r="{CITY_R}" '
                    f'fill="white" stroke="#263238" stroke-width="2.5">'
                    f'<title>{escape(city.name)}</title></circle>')
        dots.append(f'<text class="city-name" x="{x + 10:.1f}" y="{y - 10:.1f}" font-size="21" '
                    'font-weight="600" fill="#263238" stroke="white" stroke-width="4" '
                    f'paint-order="stroke">{escape(city.name)}</text>')
    body = "".join(halo + lines + badges + dots)
    height = _frame(board)[3]
    return (f'<svg viewBox="0 0 {WIDTH} {height:.0f}" xmlns="http://www.w3.org/2000/svg" '
            f'role="img" aria-label="{escape(board.title)}" data-testid="board" '
            'class="ttr-board" style="width:100%;height:auto;'
            'background:var(--board-paper,#f4f1e8);border-radius:6px" '
            f'font-family="sans-serif">{body}</svg>')


def last_move_text(model: TTRModel) -> str:
    if not model.history:
        return "No move yet: press Step or ▶."
    turn = model.history[-1]
    return f"Turn {turn.turn}: {player_name(turn.player)} " + "; ".join(turn.actions)


@solara.component
def BoardView(model: TTRModel, perspective: int | None = None):
    """The board card: the SVG, the last move in words and a key to the drawing."""
    update_counter.get()
    with solara.Card(f"Board: {model.board.title}", margin=0, style="height:100%"):
        solara.HTML(tag="div", unsafe_innerHTML=board_svg(model, perspective))
        solara.HTML(tag="div", unsafe_innerHTML=escape(last_move_text(model)),
                    attributes={"data-testid": "last-move"},
                    style="margin-top:6px;padding:4px 8px;border-left:4px solid "
                          f"{HIGHLIGHT};background:rgba(255,202,40,.15)")
        players = legend(model.rules.players)
        solara.HTML(tag="div", unsafe_innerHTML=(
            f"{players}<br>Thin dashed: unclaimed (card colour, one dash per train). Thick: "
            "claimed, in the owner's colour. Badge: length; F<i>n</i>: ferry needing <i>n</i> "
            "locomotives." + (" Rings: this player's ticket cities." if perspective is not None
                              else "")),
            style="font-size:12px;opacity:.75;margin-top:6px")
