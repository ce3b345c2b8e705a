"""The longest continuous path of the standard rules: the longest *trail* in a player's own
connections (cities may repeat, connections may not), found exactly by search.

A player owns at most a few dozen connections, mostly in chains, so a depth-first search over
trails from every city is fast; a longest trail never needs a heuristic here.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence


def longest_trail(edges: Sequence[tuple[Hashable, Hashable, int]]) -> int:
    """The greatest total length of a trail over ``edges`` (``(city, city, length)`` triples;
    parallel edges allowed), 0 for no edges."""
    adjacent: dict[Hashable, list[tuple[int, Hashable, int]]] = {}
    for i, (a, b, length) in enumerate(edges):
        adjacent.setdefault(a, []).append((i, b, length))
        adjacent.setdefault(b, []).append((i, a, length))
    used = [False] * len(edges)
    best = 0

    def extend(city: Hashable, total: int) -> None:
        nonlocal best
        if total > best:
            best = total
        for i, nxt, length in adjacent[city]:
            if not used[i]:
                used[i] = True
                extend(nxt, total + length)
                used[i] = False

    # An open longest trail starts at a city of odd degree (it used every connection there, or
    # it would go on) and a closed one spans a whole component of even degrees; starting from
    # every city covers both without that case analysis, and is fast enough at the end of a game.
    for city in adjacent:
        extend(city, 0)
    return best
