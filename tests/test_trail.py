"""The longest continuous path (a trail) against brute force on small graphs.

The brute force does not search trails at all: by Euler's theorem a set of connections can be
travelled as one trail exactly when it is connected and has 0 or 2 cities of odd degree, so the
longest trail is the heaviest such subset."""

from __future__ import annotations

import itertools
from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from game.trail import longest_trail


def is_trail(edges: list[tuple[int, int, int]]) -> bool:
    degree = Counter(c for a, b, _ in edges for c in (a, b))
    if sum(d % 2 for d in degree.values()) not in (0, 2):
        return False
    start = edges[0][0]
    seen, todo = {start}, [start]
    while todo:
        city = todo.pop()
        for a, b, _ in edges:
            for x, y in ((a, b), (b, a)):
                if x == city and y not in seen:
                    seen.add(y)
                    todo.append(y)
    return seen == set(degree)


def brute_force(edges: list[tuple[int, int, int]]) -> int:
    best = 0
    for r in range(1, len(edges) + 1):
        for subset in itertools.combinations(edges, r):
            if is_trail(list(subset)):
                best = max(best, sum(length for *_, length in subset))
    return best


graphs = st.lists(st.tuples(st.integers(0, 5), st.integers(0, 5), st.integers(1, 6))
                  .filter(lambda e: e[0] != e[1]), max_size=10)


@settings(max_examples=300, deadline=None)
@given(graphs)
def test_longest_trail_equals_brute_force(edges):
    assert longest_trail(edges) == brute_force(edges)


def test_known_shapes():
    assert longest_trail([]) == 0
    # a star of three arms: a trail takes only two of them
    assert longest_trail([("c", "x", 1), ("c", "y", 2), ("c", "z", 3)]) == 5
    # a figure eight through one city is one closed trail
    eight = [("c", "a", 1), ("a", "b", 1), ("b", "c", 1), ("c", "d", 1), ("d", "e", 1),
             ("e", "c", 1)]
    assert longest_trail(eight) == 6
    # parallel connections (both halves of a double in a long game) are two connections
    assert longest_trail([("a", "b", 2), ("a", "b", 2), ("b", "c", 3)]) == 7
