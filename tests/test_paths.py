"""Public shortest paths: ties, own connections, others' connections, cut-off tickets, and the
ideal unclaimed route. See the tiny board in ``conftest``."""

from __future__ import annotations

import networkx as nx
from hypothesis import given, settings
from hypothesis import strategies as st
from positions import CONN, TICKET, arrange, hand, new_game, tiny_board

from game import Claim
from game.cards import card_index
from game.paths import ideal_route, shortest_paths, ticket_paths

BOARD = tiny_board()
NOBODY = [None] * len(BOARD.connections)


def owned(**who: int) -> list[int | None]:
    """An owner vector: ``owned(AB=0, FG=1)``."""
    owner = list(NOBODY)
    for name, player in who.items():
        owner[CONN[name]] = player
    return owner


def ids(*names: str) -> tuple[int, ...]:
    return tuple(CONN[n] for n in names)


def all_paths(found) -> set[tuple[int, ...]]:
    paths = list(found.paths())
    assert len(paths) == len(set(paths)), "a path was listed twice"
    return set(paths)


def brute_force(owner, player, a, b):
    """Every simple path by enumeration, and the cheapest cost, straight from the definition."""
    g = nx.MultiGraph()
    g.add_nodes_from(BOARD.city_names)
    for c in BOARD.connections:
        if owner[c.id] is None or owner[c.id] == player:
            g.add_edge(c.a, c.b, key=c.id)
    costs = {}
    for path in nx.all_simple_edge_paths(g, a, b):
        cids = tuple(k for _u, _v, k in path)
        costs[cids] = sum(0 if owner[c] == player else BOARD.connections[c].length for c in cids)
    if not costs:
        return None, set()
    best = min(costs.values())
    return best, {p for p, cost in costs.items() if cost == best}


def test_equally_short_paths_are_all_listed():
    found = shortest_paths(BOARD, NOBODY, 0, "A", "D")
    assert found.cost == 4
    assert all_paths(found) == {ids("AB", "BD"), ids("AC", "CD"), ids("AD")}
    assert found.connections == set(ids("AB", "BD", "AC", "CD", "AD"))


def test_the_two_halves_of_a_double_are_two_paths():
    found = shortest_paths(BOARD, NOBODY, 0, "D", "F")
    assert found.cost == 5
    assert all_paths(found) == {ids("DE", "EF_red"), ids("DE", "EF_blue")}


def test_paths_run_from_the_first_city_to_the_second():
    found = shortest_paths(BOARD, NOBODY, 0, "D", "A")
    assert all_paths(found) == {ids("BD", "AB"), ids("CD", "AC"), ids("AD")}


def test_a_longer_path_is_not_listed():
    found = shortest_paths(BOARD, NOBODY, 0, "C", "E")
    assert found.cost == 4
    assert all_paths(found) == {ids("CD", "DE")}
    assert CONN["CE"] not in found.connections


def test_own_connections_cost_nothing():
    found = shortest_paths(BOARD, owned(AB=0), 0, "A", "D")
    assert found.cost == 2
    assert all_paths(found) == {ids("AB", "BD")}
    done = shortest_paths(BOARD, owned(AB=0, BD=0), 0, "A", "D")
    assert done.cost == 0 and all_paths(done) == {ids("AB", "BD")}


def test_a_free_loop_of_own_connections_does_not_repeat_a_city():
    owner = owned(AB=0, BD=0, AD=0, CD=0)  # a free cycle A–B–D–A, and D–C
    found = shortest_paths(BOARD, owner, 0, "A", "C")
    assert found.cost == 0
    assert all_paths(found) == {ids("AD", "CD"), ids("AB", "BD", "CD")}
    to_d = shortest_paths(BOARD, owner, 0, "A", "D")
    assert all_paths(to_d) == {ids("AB", "BD"), ids("AD")}  # free, and no city twice


def test_a_free_dead_end_is_not_on_the_path():
    # F–G is player 0's own, so F→G→F costs nothing, but no path from F to A goes through G
    found = shortest_paths(BOARD, owned(FG=0), 0, "F", "A")
    assert CONN["FG"] not in found.connections
    assert all(CONN["FG"] not in path for path in found.paths())


def test_others_connections_are_unusable():
    owner = owned(AB=1, AD=1)
    mine = shortest_paths(BOARD, owner, 0, "A", "D")
    assert mine.cost == 4 and all_paths(mine) == {ids("AC", "CD")}
    theirs = shortest_paths(BOARD, owner, 1, "A", "D")
    assert theirs.cost == 0 and all_paths(theirs) == {ids("AD")}


def test_a_cut_off_ticket_has_no_path():
    owner = owned(FG=1, GH=1)
    assert shortest_paths(BOARD, owner, 0, "E", "G") is None
    assert shortest_paths(BOARD, owner, 1, "E", "G").cost == 3  # E–F, then its own F–G
    ticket = BOARD.tickets[TICKET["EG"]]
    assert ticket_paths(BOARD, owner, 0, ticket) is None


def test_the_game_state_reports_a_cut_off_ticket():
    state = arrange(new_game(), owner={CONN["FG"]: 1, CONN["GH"]: 1},
                    tickets={0: [TICKET["EG"], TICKET["AD"]]})
    assert state.paths(0, BOARD.tickets[TICKET["EG"]]) is None
    assert state.paths(0, BOARD.tickets[TICKET["AD"]]).cost == 4


def test_the_game_state_paths_follow_claims():
    state = arrange(new_game(), hands={1: hand(red=2)}, pile=[], current=1,
                    tickets={1: [TICKET["AD"]]})
    ticket = BOARD.tickets[TICKET["AD"]]
    before = state.paths(0, ticket)  # asked before the claim, so any cache is filled
    assert CONN["AB"] in before.connections
    state.apply(Claim(CONN["AB"], card_index("red"), 0))
    after = state.paths(0, ticket)
    assert after.cost == 4 and CONN["AB"] not in after.connections
    assert state.paths(1, ticket).cost == 2


@settings(max_examples=300, deadline=None)
@given(owners=st.lists(st.sampled_from([None, None, 0, 1]), min_size=len(BOARD.connections),
                       max_size=len(BOARD.connections)),
       ends=st.lists(st.sampled_from(BOARD.city_names), min_size=2, max_size=2, unique=True))
def test_shortest_paths_match_brute_force_enumeration(owners, ends):
    a, b = ends
    cost, paths = brute_force(owners, 0, a, b)
    found = shortest_paths(BOARD, owners, 0, a, b)
    if cost is None:
        assert found is None
        return
    assert found.cost == cost
    assert all_paths(found) == paths
    assert found.connections == {c for p in paths for c in p}


# ----- the ideal unclaimed route --------------------------------------------------------------


def names(route) -> tuple[int, ...]:
    return tuple(c.id for c in route)


def test_ideal_route_prefers_fewer_connections_among_the_fewest_trains():
    assert names(ideal_route(BOARD, "A", "D")) == ids("AD")


def test_ideal_route_prefers_fewer_trains_over_fewer_connections():
    assert names(ideal_route(BOARD, "C", "E")) == ids("CD", "DE")


def test_ideal_route_breaks_remaining_ties_by_lowest_connection_ids():
    assert names(ideal_route(BOARD, "A", "D", owned(AD=1))) == ids("AB", "BD")


def test_ideal_route_avoids_every_claimed_connection():
    assert names(ideal_route(BOARD, "A", "D", owned(AD=0, AB=1))) == ids("AC", "CD")
    # even the asker's own connections count as claimed: the route is over unclaimed ones only
    assert names(ideal_route(BOARD, "C", "E", owned(CD=0))) == ids("CE")


def test_ideal_route_is_none_when_claims_cut_the_cities_apart():
    assert ideal_route(BOARD, "A", "D", owned(AB=0, AC=1, AD=1)) is None


@settings(max_examples=200, deadline=None)
@given(owners=st.lists(st.sampled_from([None, None, None, 0]), min_size=len(BOARD.connections),
                       max_size=len(BOARD.connections)),
       ends=st.lists(st.sampled_from(BOARD.city_names), min_size=2, max_size=2, unique=True))
def test_ideal_route_is_a_cheapest_unclaimed_path_with_fewest_connections(owners, ends):
    a, b = ends
    free = [None if who is None else -1 for who in owners]  # claimed by anyone: unusable
    cost, paths = brute_force(free, 0, a, b)
    route = ideal_route(BOARD, a, b, owners)
    if cost is None:
        assert route is None
        return
    chosen = names(route)
    assert chosen in paths
    assert len(chosen) == min(len(p) for p in paths)
    assert all(owners[c] is None for c in chosen)


def test_a_double_half_closed_by_the_rules_is_not_on_a_path():
    # with 2 or 3 players the free half of a taken double can never be claimed
    ticket = BOARD.tickets[TICKET["DF"]]
    for players, open_half in [(2, False), (3, False), (4, True)]:
        state = arrange(new_game(players=players), owner={CONN["EF_red"]: 1})
        found = state.paths(0, ticket)
        assert (CONN["EF_blue"] in found.connections) == open_half, players
        assert found.cost == (5 if open_half else 2 + 6 + 8 + 1), players  # else D–B–H–G–F
        assert state.paths(1, ticket).cost == 2  # the taker's own half is free
