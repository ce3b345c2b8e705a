"""Ticket decks: their statistics (Silva et al. 2018) and a deck as the deck search sees it, one
bit per pair of cities of the board.

A ticket's value in an evolved deck is the fewest trains that join its two cities on the board
(the shortest path by connection length), as in the paper; the board's own deck keeps its
printed values.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from itertools import combinations

import numpy as np
from scipy.sparse.csgraph import shortest_path

from boards import Board, Ticket


@dataclass(frozen=True)
class DeckStats:
    tickets: int
    cities: int  # distinct cities on the tickets
    average_value: float


def deck_stats(board: Board) -> DeckStats:
    tickets = board.tickets
    cities = {c for t in tickets for c in (t.a, t.b)}
    return DeckStats(len(tickets), len(cities),
                     sum(t.points for t in tickets) / len(tickets) if tickets else math.nan)


def city_counts(board: Board) -> dict[str, int]:
    """How many tickets name each city of the board."""
    counts = dict.fromkeys(board.city_names, 0)
    for t in board.tickets:
        counts[t.a] += 1
        counts[t.b] += 1
    return counts


def deck_distance(a: Board, b: Board) -> float:
    """The Euclidean distance between two decks' per-city ticket counts (cities of either)."""
    ca, cb = city_counts(a), city_counts(b)
    return math.sqrt(sum((ca.get(c, 0) - cb.get(c, 0)) ** 2 for c in set(ca) | set(cb)))


def train_distances(board: Board) -> np.ndarray:
    """Fewest trains between every two cities (board order), doubles counted once."""
    n = len(board.cities)
    weights = np.full((n, n), np.inf)
    index = board.city_index
    for c in board.connections:
        i, j = index[c.a], index[c.b]
        weights[i, j] = weights[j, i] = min(weights[i, j], c.length)
    np.fill_diagonal(weights, 0)
    return shortest_path(weights, method="D", directed=False)


def city_pairs(board: Board) -> list[tuple[int, int]]:
    """Every pair of cities (i < j, board order): the positions of a deck's bits."""
    return list(combinations(range(len(board.cities)), 2))


def deck_bits(board: Board) -> np.ndarray:
    """The board's own deck as bits over :func:`city_pairs`."""
    index = board.city_index
    position = {pair: k for k, pair in enumerate(city_pairs(board))}
    bits = np.zeros(len(position), dtype=np.int8)
    for t in board.tickets:
        i, j = sorted((index[t.a], index[t.b]))
        bits[position[i, j]] = 1
    return bits


def with_deck(board: Board, bits: np.ndarray, name: str | None = None,
              title: str | None = None) -> Board:
    """The board with the deck ``bits`` (values: fewest trains between the cities)."""
    dist = train_distances(board)
    names = board.city_names
    tickets = tuple(Ticket(k, names[i], names[j], int(dist[i, j]))
                    for k, (i, j) in enumerate(p for p, bit in zip(city_pairs(board), bits,
                                                                    strict=True) if bit))
    return replace(board, name=name or board.name, title=title or board.title,
                   tickets=tickets)
