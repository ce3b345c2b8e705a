"""The distance oracle the strategy agents use: its incremental updates equal a recomputation,
and its shortest-path connections equal the public paths of ``game.paths`` (an independent
Dijkstra), on the USA board during whole games."""

from __future__ import annotations

import random

import numpy as np

from agents.kinds import seat_policies
from boards import load_board
from game.actions import Claim
from game.distances import all_pairs
from game.paths import shortest_paths
from game.standard_rules import StandardRules
from game.standard_state import StandardState

USA = load_board("usa")


def test_incremental_distances_equal_a_recomputation_and_the_public_paths():
    for seed, players in ((1, 4), (2, 3)):
        state = StandardState(StandardRules(USA, players=players), seed)
        rng = random.Random(seed)
        oracle = state.oracle
        policies = seat_policies("described", ["osta", "pa", "lrja", "ha"][:players])
        checked = 0
        while not state.is_terminal():
            action = policies[state.current](state.observation(state.current), rng)
            state.apply(action)
            if not isinstance(action, Claim) or len(oracle.claims) % 3:
                continue
            for p in range(players):
                for shortest in (1, 3):
                    found = oracle.distances(p, shortest)
                    fresh = all_pairs(len(USA.cities), oracle._ends,
                                      oracle.weights(p, shortest))
                    assert np.array_equal(found.dist, fresh), (seed, p, shortest)
                owner = oracle.path_owner()  # closed halves of doubles as nobody's (-1)
                dist = oracle.distances(p)
                for t in USA.tickets[::5]:
                    public = shortest_paths(USA, owner, p, t.a, t.b)
                    if public is None:
                        assert dist.cost(t.a, t.b) == float("inf")
                        continue
                    assert dist.cost(t.a, t.b) == public.cost
                    free = {c for c in public.connections if state.owner[c] is None}
                    assert set(dist.on_shortest(t.a, t.b)) == free
                    path = dist.path(t.a, t.b)
                    assert sum(dist.weight[c] for c in path) == public.cost
            checked += 1
        assert checked > 5


def test_a_view_keeps_the_distances_of_the_board_it_shows():
    state = StandardState(StandardRules(USA), 5)
    rng = random.Random(5)
    policies = seat_policies("described", ["osta", "pa", "lrja", "ha"])
    while not state.oracle.claims:
        state.apply(policies[state.current](state.observation(state.current), rng))
    view = state.observation(state.current)
    before = view.distances().dist.copy()
    while len(state.oracle.claims) < 6:
        state.apply(policies[state.current](state.observation(state.current), rng))
    assert np.array_equal(view.distances().dist, before)
