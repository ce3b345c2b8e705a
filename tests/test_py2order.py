"""Python 2.7's dict and set order and networkx 2.2's fewest-hop search
(``agents.py2order``), which the ``engine`` source uses to break ties as the authors' engine
did. Each expected value is what Python 2.7.18 with networkx 2.2 printed for the same
input (written beside it)."""

from __future__ import annotations

from agents.engine_strategies import ENGINE_USA_CITIES
from agents.py2order import Py2Graph, Py2Order, cheapest_path, fewest_hops, str_hash


def order(*keys: str, upper: bool = False) -> list[str]:
    out: Py2Order[str] = Py2Order(upper=upper)
    for k in keys:
        out.add(k)
    return list(out)


def test_string_hashes_are_python_27s():
    # python2.7: hash("a") == 12416037344, hash("") == 0
    assert str_hash("a") == 12416037344
    assert str_hash("") == 0


def test_a_set_iterates_in_hash_order_not_insertion_order():
    # python2.7: s = set(); s.add('yellow'); s.add('orange'); list(s) == ['orange', 'yellow']
    assert order("yellow", "orange") == ["orange", "yellow"]
    assert order("orange", "yellow") == ["orange", "yellow"]
    assert order("yellow", "orange", "yellow") == ["orange", "yellow"]  # no duplicates


def test_a_dict_that_outgrew_its_first_tables_keeps_python_27s_order():
    # python2.7: d = {}; for city in the engine's usa.txt: d[city] = 1; d.keys()[:8]
    assert order(*ENGINE_USA_CITIES)[:8] == [
        "TORONTO", "OMAHA", "PITTSBURGH", "BOSTON", "LITTLE ROCK", "SAINT LOUIS", "HELENA",
        "NEW YORK"]
    # our names are hashed as the engine's upper-case ones
    assert order(*(c.title() for c in ENGINE_USA_CITIES), upper=True)[:2] == ["Toronto", "Omaha"]


def test_fewest_hops_returns_the_tie_networkx_22s_bidirectional_search_finds():
    # A square A-B-D, A-C-D: both paths take two hops. networkx 2.2 grows the smaller
    # fringe, forward first, and joins at the first node the other side reached.
    g = Py2Graph(multi=True)
    for a, b in [("A", "B"), ("A", "C"), ("B", "D"), ("C", "D")]:
        g.add_edge(a, b, 0)
    # python2.7 + networkx 2.2: nx.shortest_path(G, 'A', 'D') == ['A', 'C', 'D'] (set order
    # of A's neighbours puts C before B); nx.shortest_path(G, 'D', 'A') == ['D', 'C', 'A']
    assert fewest_hops(g, "A", "D") == ["A", "C", "D"]
    assert fewest_hops(g, "D", "A") == ["D", "C", "A"]
    assert fewest_hops(g, "A", "A") == ["A"]
    assert fewest_hops(g, "A", "E") is None
    g.add_node("E")
    assert fewest_hops(g, "A", "E") is None


def test_set_union_and_difference_rebuild_their_tables_as_python_27_does():
    # python2.7: a = set(); for c in cities: a.add(c)
    cities = ["DENVER", "OMAHA", "DULUTH", "MIAMI", "BOSTON", "HELENA"]
    a: Py2Order[str] = Py2Order()
    for c in cities:
        a.add(c)
    assert list(a) == ["OMAHA", "MIAMI", "BOSTON", "DENVER", "HELENA", "DULUTH"]
    one: Py2Order[str] = Py2Order()
    one.add("TORONTO")
    # list(a | set(['TORONTO'])): the copy is sized for both sets, so the order changes
    assert list(a.union(one)) == [
        "TORONTO", "HELENA", "DULUTH", "OMAHA", "MIAMI", "BOSTON", "DENVER"]
    gone: Py2Order[str] = Py2Order()
    gone.add("OMAHA")
    gone.add("MIAMI")
    # list(a - set(['OMAHA', 'MIAMI'])): a new set filled in a's order
    assert list(a.difference(gone)) == ["BOSTON", "DULUTH", "DENVER", "HELENA"]


def test_cheapest_path_keeps_the_first_of_equal_paths_as_networkx_22s_dijkstra():
    g = Py2Graph(multi=True)
    weights = {("A", "B"): 1, ("A", "C"): 1, ("B", "D"): 1, ("C", "D"): 1, ("A", "D"): 3}
    for a, b in weights:
        g.add_edge(a, b, 0)

    def weight(a: str, b: str) -> float:
        return weights.get((a, b), weights.get((b, a), 0))

    # python2.7 + networkx 2.2: nx.dijkstra_path(G, 'A', 'D') == ['A', 'C', 'D'], and
    # ['D', 'C', 'A'] the other way; with a second A-D edge of weight 0, ['A', 'D']
    assert cheapest_path(g, "A", "D", weight) == ["A", "C", "D"]
    assert cheapest_path(g, "D", "A", weight) == ["D", "C", "A"]
    weights[("A", "D")] = 0
    assert cheapest_path(g, "A", "D", weight) == ["A", "D"]
    assert cheapest_path(g, "A", "E", weight) is None
