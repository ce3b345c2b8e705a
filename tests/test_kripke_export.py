"""The networkx export for drawing: labels, actual flag, agent-labelled edges, size guard."""

from __future__ import annotations

from itertools import combinations

import pytest

from kripke import KripkeModel, ModelTooLargeError, deal_model
from kripke.files.export import to_networkx
from kripke.puzzles.classic import muddy_children


def test_nodes_carry_labels_and_the_actual_flag():
    model = deal_model(range(4), [2, 2], [[0, 1], [2, 3]])
    graph = to_networkx(model)
    assert sorted(graph.nodes) == list(range(6))
    actual = [n for n, data in graph.nodes(data=True) if data["actual"]]
    assert actual == [int(model.world_ids[model.actual])]
    assert graph.nodes[actual[0]]["label"] == "0:{0,1} 1:{2,3}"
    # With two agents, each sees its own hand, which fixes the other's: no edges at all.
    assert graph.number_of_edges() == 0


def test_one_edge_per_indistinguishable_pair_labelled_with_every_such_agent():
    """Two agents that see the same thing share every edge: one edge, both names on it."""
    model = KripkeModel.from_worlds(
        [{"p"}, {"q"}, {"r"}], {"a": [0, 0, 1], "b": [5, 5, 1], "c": [0, 1, 1]}, actual=0
    )
    graph = to_networkx(model)
    assert {(u, v): d["agents"] for u, v, d in graph.edges(data=True)} == {
        (0, 1): ["a", "b"],
        (1, 2): ["c"],
    }
    assert graph.edges[0, 1]["label"] == "a,b"


def test_edges_match_the_partitions_exactly():
    model = muddy_children(3, [0, 2])
    graph = to_networkx(model)
    for u, v in combinations(range(model.n_worlds), 2):
        same = [a for a in model.agents
                if model.observation(a)[u] == model.observation(a)[v]]
        if same:
            assert graph.edges[u, v]["agents"] == same
        else:
            assert not graph.has_edge(u, v)


def test_node_ids_are_original_world_ids_across_announcements():
    model = muddy_children(3, [0, 2])
    after = model.announce("m0 | m1 | m2")
    graph = to_networkx(after)
    assert sorted(graph.nodes) == list(range(1, 8))
    assert graph.nodes[5]["actual"] and graph.nodes[5]["label"] == "m0 m2"
    assert graph.nodes[5]["index"] == after.world_index(5)


def test_restricted_to_the_worlds_one_agent_considers_possible():
    model = deal_model(range(6), [2, 2, 2], [[0, 1], [2, 3], [4, 5]])
    graph = to_networkx(model, agent=0)
    assert sorted(graph.nodes) == sorted(model.world_ids[model.possible_worlds(0)].tolist())
    # All of them lie in agent 0's one class, so every pair is joined, by 0 among others.
    assert graph.number_of_edges() == len(graph) * (len(graph) - 1) // 2
    assert all(0 in d["agents"] for _, _, d in graph.edges(data=True))
    other = to_networkx(model, agent=1, world=5)
    assert len(other) == len(model.possible_worlds(1, world=5))


def test_size_guard_says_how_many_worlds_there_are():
    model = deal_model(range(9), [3, 3, 3], [range(0, 3), range(3, 6), range(6, 9)])
    with pytest.raises(ModelTooLargeError, match="1,680 worlds") as caught:
        to_networkx(model, max_worlds=500)
    assert caught.value.n_worlds == 1680
    assert isinstance(caught.value, ValueError)
    assert len(to_networkx(model, agent=2, max_worlds=500)) == 20
    with pytest.raises(ModelTooLargeError, match="agent 2 considers 20 worlds possible"):
        to_networkx(model, agent=2, max_worlds=10)


def test_a_few_chosen_worlds_can_be_drawn_from_a_big_model():
    """restrict(indices) costs only the chosen worlds, and the drawing keeps their ids."""
    model = deal_model(range(9), [3, 3, 3], [range(0, 3), range(3, 6), range(6, 9)])
    chosen = model.possible_worlds(1)[:5]
    graph = to_networkx(model.restrict(chosen))
    assert sorted(graph.nodes) == model.world_ids[chosen].tolist()
    assert graph.number_of_edges() == 10  # all five lie in agent 1's class


def test_a_model_without_agents_draws_worlds_only():
    model = KripkeModel({"p": [True, False]}, {}, actual=0)
    graph = to_networkx(model)
    assert sorted(graph.nodes) == [0, 1] and graph.number_of_edges() == 0
