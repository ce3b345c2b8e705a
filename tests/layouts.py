"""A board's own connections as a layout of :mod:`lab.boardgen` (connections per pair of cities),
what the board generator's tests compare bred layouts with."""

from __future__ import annotations

import numpy as np

from lab.boardgen import Cities, pair_index


def original_layout(cities: Cities) -> np.ndarray:
    """The original board's layout: per pair of cities, how many connections join them."""
    index, city = pair_index(cities.n), cities.board.city_index
    layout = np.zeros(len(cities.pairs), dtype=np.int8)
    for c in cities.board.connections:
        i, j = sorted((city[c.a], city[c.b]))
        layout[index[i, j]] += 1
    return layout
