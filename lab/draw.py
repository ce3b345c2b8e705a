"""The lab's pictures as PNG files (matplotlib's Agg backend: no display needed): a board drawn
like the app's board, a board coloured by city undesirability, game arcs side by side, and a
search's fitness by generation. Every file is written atomically (``game.files``)."""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Sequence
from pathlib import Path

import matplotlib

from boards import CARD_INKS, Board
from game.files import save_figure
from lab.metrics import Arc

matplotlib.use("Agg")
import matplotlib.patheffects as effects  # noqa: E402  (the backend must be chosen first)
import matplotlib.pyplot as plt  # noqa: E402
from matplotlib.axes import Axes  # noqa: E402

#: The app's card inks (app/web/components/style.py), so a drawn board reads like the page's.
PAPER, CASING, INK = "#f4f1e8", "#424242", "#263238"


def _offsets(board: Board) -> dict[int, float]:
    """Sideways offset of each connection (in map units), so a double's segments lie apart."""
    between: dict[frozenset[str], list[int]] = defaultdict(list)
    for conn in board.connections:
        between[frozenset(conn.cities)].append(conn.id)
    return {cid: (i - (len(ids) - 1) / 2) * 0.009 for ids in between.values()
            for i, cid in enumerate(ids)}


def _map_axes(board: Board, width: float = 12) -> tuple[plt.Figure, Axes]:
    xs, ys = [c.x for c in board.cities], [c.y for c in board.cities]
    w, h = max(xs) - min(xs) or 1, max(ys) - min(ys) or 1
    fig, ax = plt.subplots(figsize=(width, max(3.0, width * h / w * 0.92)))
    fig.patch.set_facecolor(PAPER)
    ax.set_facecolor(PAPER)
    ax.set_xlim(min(xs) - 0.03, max(xs) + 0.12)
    ax.set_ylim(max(ys) + 0.04, min(ys) - 0.05)  # y points down, as in the board file
    ax.set_aspect("equal")
    ax.axis("off")
    return fig, ax


def _cars(ax: Axes, board: Board, inks: dict[int, str] | None = None) -> None:
    """Each connection as a row of ``length`` cars in its colour with a dark casing, and a
    length badge (F for a ferry's locomotives, T for a tunnel), as the app draws them."""
    offsets = _offsets(board)
    badges: set[tuple[frozenset[str], str]] = set()
    for conn in board.connections:
        a, b = board.city(conn.a), board.city(conn.b)
        d = math.hypot(b.x - a.x, b.y - a.y) or 1.0
        ux, uy = (b.x - a.x) / d, (b.y - a.y) / d
        nx, ny = -uy * offsets[conn.id], ux * offsets[conn.id]
        inset, gap = 0.012, 0.004
        start, usable = inset, max(d - 2 * inset, 1e-6)
        car = max((usable - gap * (conn.length - 1)) / conn.length, usable * 0.2)
        ink = (inks or {}).get(conn.id, CARD_INKS[conn.colour])
        for k in range(conn.length):
            s0 = start + k * (car + gap)
            s1 = min(s0 + car, d - inset)
            xs = [a.x + ux * s0 + nx, a.x + ux * s1 + nx]
            ys = [a.y + uy * s0 + ny, a.y + uy * s1 + ny]
            ax.plot(xs, ys, color=CASING, lw=4.2, solid_capstyle="butt", zorder=1)
            ax.plot(xs, ys, color=ink, lw=3.0, solid_capstyle="butt", zorder=2)
        text = str(conn.length) + (f" F{conn.ferry}" if conn.ferry else "") + \
            (" T" if conn.tunnel else "")
        if (frozenset(conn.cities), text) in badges:
            continue
        badges.add((frozenset(conn.cities), text))
        ax.text((a.x + b.x) / 2, (a.y + b.y) / 2, text, fontsize=6.5, ha="center",
                va="center", color="#212121", zorder=3,
                bbox={"boxstyle": "round,pad=0.2", "fc": "white", "ec": "#616161", "lw": 0.6})


def _cities(ax: Axes, board: Board, fill: Sequence[str] | None = None) -> None:
    """Each city and its name, as the board file writes it (never read as mathtext: a
    name such as "$\\frac$" would stop the drawing)."""
    for i, city in enumerate(board.cities):
        ax.scatter([city.x], [city.y], s=42, c=[fill[i] if fill else "white"],
                   edgecolors=INK, linewidths=1.4, zorder=4)
        ax.text(city.x + 0.008, city.y - 0.01, city.name, fontsize=7.5, fontweight="bold",
                color=INK, zorder=5, parse_math=False,
                path_effects=[effects.withStroke(linewidth=2.5, foreground="white")])


def board_png(board: Board, path: str | Path, title: str | None = None) -> None:
    """The board drawn like the app's board."""
    fig, ax = _map_axes(board)
    _cars(ax, board)
    _cities(ax, board)
    ax.set_title(title or board.title, color=INK, parse_math=False)
    fig.tight_layout()
    save_figure(fig, path, dpi=110)
    plt.close(fig)


def undesirability_png(board: Board, untouched: Sequence[int], games: int,
                       path: str | Path) -> None:
    """The board with each city coloured by the share of games in which no claim touched it
    (dark: often left alone, undesirable)."""
    fig, ax = _map_axes(board)
    _cars(ax, board, {c.id: "#d7d2c4" for c in board.connections})
    cmap = plt.get_cmap("magma_r")
    shares = [u / games for u in untouched]
    _cities(ax, board, [matplotlib.colors.to_hex(cmap(s)) for s in shares])
    bar = fig.colorbar(matplotlib.cm.ScalarMappable(cmap=cmap), ax=ax, shrink=0.6, pad=0.01)
    bar.set_label("share of games in which no claim touched the city")
    ax.set_title(f"{board.title}: city undesirability over {games} games", color=INK,
                 parse_math=False)
    fig.tight_layout()
    save_figure(fig, path, dpi=110)
    plt.close(fig)


def arcs_png(arcs: Sequence[tuple[str, Arc]], path: str | Path, title: str) -> None:
    """Game arcs on one plot, each with its triangle (first turn, peak, last turn) dotted."""
    fig, ax = plt.subplots(figsize=(8, 4.6))
    for label, arc in arcs:
        turns = range(1, len(arc.moves) + 1)
        (line,) = ax.plot(turns, arc.moves, label=f"{label} (area {arc.area:,.0f})")
        if arc.moves:
            tri = [(1, arc.moves[0]), (arc.peak_turn, arc.peak), (len(arc.moves), arc.moves[-1])]
            ax.plot([p[0] for p in tri + tri[:1]], [p[1] for p in tri + tri[:1]], ":",
                    color=line.get_color(), alpha=0.8)
    _finish(fig, ax, path, title, "turn", "legal moves of the player to move (mean)")


def fitness_png(rows: Sequence[dict[str, float]], path: str | Path, title: str,
                ylabel: str) -> None:
    """A search's best, mean and worst fitness per generation."""
    fig, ax = plt.subplots(figsize=(7, 4))
    gens = [r["generation"] for r in rows]
    for key, style in (("best", "o-"), ("mean", "s--"), ("worst", "^:")):
        ax.plot(gens, [r[key] for r in rows], style, label=key)
    _finish(fig, ax, path, title, "generation", ylabel)


def _finish(fig: plt.Figure, ax: Axes, path: str | Path, title: str, xlabel: str,
            ylabel: str) -> None:
    """Labels, grid and legend of a line plot, then the PNG."""
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    ax.set_title(title)
    ax.grid(alpha=0.3)
    ax.legend()
    fig.tight_layout()
    save_figure(fig, path, dpi=110)
    plt.close(fig)
