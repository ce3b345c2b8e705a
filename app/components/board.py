"""The board as an SVG drawn from the board file's city coordinates.

SVG rather than a plotting library: it is crisp at any size, draws in well under a millisecond
per connection, costs the browser nothing to update each step and carries hover titles.
Unclaimed connections are thin rows of cars in their card colour; claimed ones are thick, solid
and in the owner's colour; the last move has an amber halo.
"""

from __future__ import annotations

import math
from collections import defaultdict
from functools import lru_cache
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
NAME_SIZE = 21  # a city's name, bold
#: Where a city's name may go, in order of preference: (dx, dy, anchor) of its baseline from
#: the dot; the first (up and right) is where a map reader looks first.
NAME_PLACES = ((10, -10, "start"), (13, 7, "start"), (10, 25, "start"), (0, 30, "middle"),
               (-10, 25, "end"), (-13, 7, "end"), (-10, -10, "end"), (0, -13, "middle"))

type Box = tuple[float, float, float, float]  # left, top, right, bottom


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


def _badge(board: Board, conn: Connection, offset: float) -> tuple[float, float, str]:
    """Where a connection's length badge goes (its middle) and what it says."""
    x1, y1, x2, y2 = _ends(board, conn, offset)
    text = str(conn.length) + (f" F{conn.ferry}" if conn.ferry else "") + \
        (" T" if conn.tunnel else "")
    return (x1 + x2) / 2, (y1 + y2) / 2, text


def _name_box(x: float, y: float, place: tuple[int, int, str], name: str) -> Box:
    """A city name's box at one of its places, a little generous: 0.66 em a character bold."""
    dx, dy, anchor = place
    w = len(name) * NAME_SIZE * 0.66
    left = x + dx - {"start": 0.0, "middle": w / 2, "end": w}[anchor]
    return left, y + dy - NAME_SIZE * 0.78, left + w, y + dy + NAME_SIZE * 0.24


def _overlap(a: Box, b: Box) -> float:
    return (max(min(a[2], b[2]) - max(a[0], b[0]), 0.0)
            * max(min(a[3], b[3]) - max(a[1], b[1]), 0.0))


def _crossing(box: Box, segment: tuple[float, float, float, float]) -> float:
    """How much of a connection's line runs through a box (sampled), in pixels."""
    x1, y1, x2, y2 = segment
    n = max(int(math.hypot(x2 - x1, y2 - y1) // 4), 1)
    inside = sum(box[0] <= x1 + (x2 - x1) * i / n <= box[2]
                 and box[1] <= y1 + (y2 - y1) * i / n <= box[3] for i in range(n + 1))
    return inside * math.hypot(x2 - x1, y2 - y1) / n


@lru_cache(maxsize=8)
def name_places(board: Board) -> dict[str, tuple[float, float, str]]:
    """Each city's name at the place around its dot that overlaps nothing it can avoid: no other
    name, no length badge, no dot, inside the map; crossing as little track as it can. Chosen
    from the geometry (most crowded cities first, then each redone twice knowing the others),
    so a new board needs no hand-placed names."""
    height = _frame(board)[3]
    points = {c.name: _point(board, c.name) for c in board.cities}
    offsets = _offsets(board)
    fixed: list[Box] = []
    for conn in board.connections:  # the badges, and the dots with their ticket rings
        mx, my, text = _badge(board, conn, offsets[conn.id])
        w = 10 + 9 * len(text)
        fixed.append((mx - w / 2, my - 10, mx + w / 2, my + 10))
    ring = CITY_R + 7
    fixed += [(x - ring, y - ring, x + ring, y + ring) for x, y in points.values()]
    lines = [_ends(board, conn, offsets[conn.id]) for conn in board.connections]

    def cost(name: str, box: Box, names: dict[str, Box]) -> float:
        outside = (max(-box[0], 0) + max(box[2] - WIDTH, 0) + max(-box[1], 0)
                   + max(box[3] - height, 0))
        hits = sum(_overlap(box, b) for b in fixed) + sum(
            _overlap(box, b) for other, b in names.items() if other != name)
        return 1e4 * outside + 100 * hits + sum(_crossing(box, seg) for seg in lines)

    def crowd(name: str) -> int:
        x, y = points[name]
        return sum(math.hypot(x - a, y - b) < 160 for a, b in points.values())

    chosen: dict[str, int] = {}
    boxes: dict[str, Box] = {}
    order = sorted(points, key=lambda n: (-crowd(n), n))
    for _ in range(3):
        for name in order:
            x, y = points[name]
            options = [(cost(name, _name_box(x, y, place, name), boxes) + 2 * i, i)
                       for i, place in enumerate(NAME_PLACES)]
            chosen[name] = min(options)[1]
            boxes[name] = _name_box(x, y, NAME_PLACES[chosen[name]], name)
    return {name: (points[name][0] + NAME_PLACES[i][0], points[name][1] + NAME_PLACES[i][1],
                   NAME_PLACES[i][2]) for name, i in chosen.items()}


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
        mx, my, text = _badge(board, conn, offsets[conn.id])
        if (frozenset(conn.cities), text) in labelled:
            continue
        labelled.add((frozenset(conn.cities), text))
        w = 10 + 9 * len(text)
        badges.append(f'<g>{title}<rect x="{mx - w / 2:.1f}" y="{my - 10:.1f}" width="{w}" '
                      f'height="20" rx="10" fill="white" stroke="#616161" stroke-width="1"/>'
                      f'<text x="{mx:.1f}" y="{my + 5:.1f}" text-anchor="middle" '
                      f'font-size="15" fill="#212121">{text}</text></g>')
    rings = set()
    if perspective is not None:
        for t in model.state.tickets[perspective]:
            rings |= {t.a, t.b}
    places = name_places(board)
    for city in board.cities:
        x, y = _point(board, city.name)
        nx, ny, anchor = places[city.name]
        if perspective is not None and city.name in rings:
            dots.append(f'<circle cx="{x:.1f}" cy="{y:.1f}" r="{CITY_R + 5}" fill="none" '
                        f'style="stroke:{player_ink(perspective)}" stroke-width="3"/>')
        dots.append(f'<circle class="city-dot" cx="{x:.1f}" cy="{y:.1f}" r="{CITY_R}" '
                    f'fill="white" stroke="#263238" stroke-width="2.5">'
                    f'<title>{escape(city.name)}</title></circle>')
        dots.append(f'<text class="city-name" x="{nx:.1f}" y="{ny:.1f}" '
                    f'text-anchor="{anchor}" font-size="{NAME_SIZE}" font-weight="600" '
                    'fill="#263238" stroke="white" stroke-width="4" paint-order="stroke">'
                    f'{escape(city.name)}</text>')
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
