"""The board as an SVG drawn from the board file's city coordinates.

SVG rather than a plotting library: it is crisp at any size, draws in well under a millisecond
per connection, costs the browser nothing to update each step and carries hover titles.
Unclaimed connections are thin rows of cars in their card colour; claimed ones are thick, solid
and in the owner's colour; the last move has an amber halo.
"""

from __future__ import annotations

import math
from collections import defaultdict
from dataclasses import dataclass
from functools import cache, lru_cache
from html import escape

import solara
from mesa.visualization.utils import update_counter

from agents.model import TTRModel
from app.web.components.style import (
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
_AROUND = ((11, -11, "start"), (14, 7, "start"), (11, 31, "start"), (0, 33, "middle"),
           (-11, 31, "end"), (-14, 7, "end"), (-11, -11, "end"), (0, -17, "middle"))
#: ... then the same places farther out, and beside the dot a little higher or lower, where a
#: crowded city (Kansas City, Atlanta, Nashville) finds room between its tracks' badges.
NAME_PLACES = _AROUND + tuple((round(dx * 1.8), dy + (12 if dy > 10 else -8 if dy < 0 else 0),
                               anchor) for dx, dy, anchor in _AROUND) + (
    (14, -3, "start"), (14, 17, "start"), (-14, -3, "end"), (-14, 17, "end"))

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


def _badge_text(conn: Connection) -> str:
    return str(conn.length) + (f" F{conn.ferry}" if conn.ferry else "") + \
        (" T" if conn.tunnel else "")


def _badge_box(x: float, y: float, text: str) -> Box:
    w = 10 + 9 * len(text)
    return x - w / 2, y - 10, x + w / 2, y + 10


def _name_box(x: float, y: float, place: tuple[int, int, str], name: str) -> Box:
    """A city name's box at one of its places as the browser measures it (the font's ascent
    and descent), a little generous: 0.64 em a character bold (Chromium draws 0.61)."""
    dx, dy, anchor = place
    w = len(name) * NAME_SIZE * 0.64
    left = x + dx - {"start": 0.0, "middle": w / 2, "end": w}[anchor]
    return left, y + dy - NAME_SIZE * 0.95, left + w, y + dy + NAME_SIZE * 0.25


def _overlap(a: Box, b: Box) -> float:
    """The area two boxes share (plain comparisons: placing a board's words asks a million)."""
    if a[2] <= b[0] or b[2] <= a[0] or a[3] <= b[1] or b[3] <= a[1]:
        return 0.0
    return ((a[2] if a[2] < b[2] else b[2]) - (a[0] if a[0] > b[0] else b[0])) * (
        (a[3] if a[3] < b[3] else b[3]) - (a[1] if a[1] > b[1] else b[1]))


def _crossing(box: Box, segment: tuple[float, float, float, float]) -> float:
    """How much of a connection's line runs through a box (sampled), in pixels."""
    x1, y1, x2, y2 = segment
    if (max(x1, x2) < box[0] or min(x1, x2) > box[2] or max(y1, y2) < box[1]
            or min(y1, y2) > box[3]):
        return 0.0
    n = max(int(math.hypot(x2 - x1, y2 - y1) // 4), 1)
    inside = sum(box[0] <= x1 + (x2 - x1) * i / n <= box[2]
                 and box[1] <= y1 + (y2 - y1) * i / n <= box[3] for i in range(n + 1))
    return inside * math.hypot(x2 - x1, y2 - y1) / n


#: Where along its connection a length badge may sit, from the middle outwards.
BADGE_PLACES = (0.5, 0.38, 0.62, 0.28, 0.72, 0.2, 0.8)
#: Rounds of placing every name, then every badge, knowing where the others went.
ROUNDS = 3


@dataclass(frozen=True)
class Labels:
    """Where the board's words go: each city's name (baseline x, y and anchor) and each drawn
    length badge's middle (one per pair of cities and length: a double's second is not drawn)."""

    names: dict[str, tuple[float, float, str]]
    badges: dict[int, tuple[float, float]]


@lru_cache(maxsize=8)
def label_places(board: Board) -> Labels:
    """Each city's name at the place around its dot, and each length badge at the place along
    its track, that overlap nothing they can avoid: no name, badge or dot, inside the map; a
    name crossing as little track as it can. Chosen from the geometry (the most crowded cities
    first; then badges slide along their tracks out of the names' way, and all is redone
    knowing the others, ``ROUNDS`` times), so a new board needs no hand-placed names."""
    height = _frame(board)[3]
    points = {c.name: _point(board, c.name) for c in board.cities}
    offsets = _offsets(board)
    dot = CITY_R + 3  # the dot and its outline
    dots = [(x - dot, y - dot, x + dot, y + dot) for x, y in points.values()]
    lines = [_ends(board, conn, offsets[conn.id]) for conn in board.connections]
    drawn: dict[tuple[frozenset[str], str], Connection] = {}
    for conn in board.connections:  # one badge for both of a double
        drawn.setdefault((frozenset(conn.cities), _badge_text(conn)), conn)
    tracks = {conn.id: _ends(board, conn, offsets[conn.id]) for conn in drawn.values()}
    texts = {conn.id: _badge_text(conn) for conn in drawn.values()}

    def along(cid: int, t: float) -> tuple[float, float]:
        x1, y1, x2, y2 = tracks[cid]
        return x1 + (x2 - x1) * t, y1 + (y2 - y1) * t

    badges = {cid: along(cid, 0.5) for cid in tracks}
    badge_boxes = {cid: _badge_box(*badges[cid], texts[cid]) for cid in tracks}
    names: dict[str, tuple[int, int, str]] = {}
    name_boxes: dict[str, Box] = {}

    def hits(box: Box, skip_name: str = "", skip_badge: int = -1) -> float:
        return (sum(_overlap(box, b) for b in dots)
                + sum(_overlap(box, b) for n, b in name_boxes.items() if n != skip_name)
                + sum(_overlap(box, b) for c, b in badge_boxes.items() if c != skip_badge))

    @cache
    def fixed_cost(box: Box) -> float:
        """What a name's box costs whatever the other words do: outside the map, on a dot,
        across track."""
        outside = (max(-box[0], 0) + max(box[2] - WIDTH, 0) + max(-box[1], 0)
                   + max(box[3] - height, 0))
        return (1e4 * outside + 1000 * sum(_overlap(box, b) for b in dots)
                + sum(_crossing(box, seg) for seg in lines))

    def name_cost(name: str, box: Box) -> float:
        return fixed_cost(box) + 1000 * (
            sum(_overlap(box, b) for n, b in name_boxes.items() if n != name)
            + sum(_overlap(box, b) for b in badge_boxes.values()))

    def crowd(name: str) -> int:
        x, y = points[name]
        return sum(math.hypot(x - a, y - b) < 160 for a, b in points.values())

    def place(name: str, i: int) -> None:
        names[name] = NAME_PLACES[i]
        name_boxes[name] = _name_box(*points[name], NAME_PLACES[i], name)

    def third(name: str, cid: int) -> None:
        """Still stuck: the badge also moves a third word out of its way, another city's name
        it would sit on, each triple of places tried; kept only if nothing overlaps then."""
        for t in BADGE_PLACES:
            badge = _badge_box(*along(cid, t), texts[cid])
            others = [n for n, b in name_boxes.items() if n != name and _overlap(badge, b)]
            if len(others) != 1:
                continue
            other, was = others[0], (names[name], names[others[0]], badges[cid])
            for i in range(len(NAME_PLACES)):
                for j in range(len(NAME_PLACES)):
                    place(name, i)
                    place(other, j)
                    badges[cid], badge_boxes[cid] = along(cid, t), badge
                    if not (hits(name_boxes[name], skip_name=name)
                            or hits(name_boxes[other], skip_name=other)
                            or hits(badge, skip_badge=cid)):
                        return
            place(name, NAME_PLACES.index(was[0]))
            place(other, NAME_PLACES.index(was[1]))
            badges[cid] = was[2]
            badge_boxes[cid] = _badge_box(*was[2], texts[cid])

    order = sorted(points, key=lambda n: (-crowd(n), n))
    for _ in range(2):  # rounds, then the repair, twice: the others adapt to it
        for _ in range(ROUNDS):
            for name in order:
                place(name, min(range(len(NAME_PLACES)), key=lambda i: name_cost(
                    name, _name_box(*points[name], NAME_PLACES[i], name)) + 2 * i))
            for cid in tracks:
                t = min(BADGE_PLACES, key=lambda t: 1000 * hits(
                    _badge_box(*along(cid, t), texts[cid]), skip_badge=cid) + 20 * abs(t - 0.5))
                badges[cid] = along(cid, t)
                badge_boxes[cid] = _badge_box(*badges[cid], texts[cid])
        # a name still on a badge: the two move together, each pair of places tried
        for name in order:
            stuck = [cid for cid, b in badge_boxes.items() if _overlap(name_boxes[name], b) > 0]
            for cid in stuck:
                def joint(choice: tuple[int, float], name: str = name, cid: int = cid) -> float:
                    i, t = choice
                    box, badge = (_name_box(*points[name], NAME_PLACES[i], name),
                                  _badge_box(*along(cid, t), texts[cid]))
                    kept = badge_boxes.pop(cid)
                    cost = (name_cost(name, box) + 1000 * _overlap(box, badge)
                            + 1000 * hits(badge, skip_name=name) + 2 * i + 20 * abs(t - 0.5))
                    badge_boxes[cid] = kept
                    return cost
                i, t = min(((i, t) for i in range(len(NAME_PLACES)) for t in BADGE_PLACES),
                           key=joint)
                place(name, i)
                badges[cid] = along(cid, t)
                badge_boxes[cid] = _badge_box(*badges[cid], texts[cid])
                if hits(name_boxes[name], skip_name=name) or hits(badge_boxes[cid], skip_badge=cid):
                    third(name, cid)
    return Labels({name: (points[name][0] + dx, points[name][1] + dy, anchor)
                   for name, (dx, dy, anchor) in names.items()}, badges)


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
    places = label_places(board)
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
        if conn.id not in places.badges:  # the second of a double: one badge for both
            continue
        mx, my = places.badges[conn.id]
        text = _badge_text(conn)
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
        nx, ny, anchor = places.names[city.name]
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
