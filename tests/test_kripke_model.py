"""Building models by hand and the questions a user asks of them."""

from __future__ import annotations

import numpy as np
import pytest

from kripke import (
    And,
    AnnouncementError,
    Atom,
    Bottom,
    Knows,
    KripkeModel,
    ModelError,
    Not,
    Or,
    Top,
    deal_model,
    knows_whether,
    parse,
)

p, q = Atom("p"), Atom("q")


def textbook() -> KripkeModel:
    """Three worlds: p q | p ~q | ~p q. Alice cannot tell 0 from 1; Bob cannot tell 1 from 2."""
    return KripkeModel.from_worlds(
        [{"p", "q"}, {"p"}, {"q"}],
        {"alice": ["left", "left", "right"], "bob": [0, 1, 1]},
        actual=0,
    )


def test_worlds_agents_and_atoms():
    model = textbook()
    assert model.n_worlds == 3
    assert model.agents == ("alice", "bob")
    assert set(model.atoms) == {p, q}
    assert model.actual == 0
    assert model.world_ids.tolist() == [0, 1, 2]
    assert model.world_label(1) == "p"
    assert model.world_label(2) == "q"
    assert "3 worlds" in repr(model)


def test_possible_worlds_and_knowledge():
    model = textbook()
    assert model.possible_worlds("alice").tolist() == [0, 1]
    assert model.possible_worlds("bob", world=2).tolist() == [1, 2]
    assert model.knows("alice", p)
    assert not model.knows("alice", q)
    assert model.knows_whether("alice", "p")
    assert not model.knows_whether("alice", "q")
    assert model.knows("bob", "p & q")  # at world 0 Bob sees only world 0
    assert not model.at(1).knows("bob", "p")
    assert model.known_atoms("alice") == {p: True}
    assert model.at(1).known_atoms("bob") == {}
    assert model.known_atoms("bob") == {p: True, q: True}


def test_evaluate_over_all_worlds_and_holds_at_one():
    model = textbook()
    assert model.evaluate("K_alice p").tolist() == [True, True, False]
    assert model.evaluate(Knows("bob", q)).tolist() == [True, False, False]
    assert model.evaluate("M_bob ~p").tolist() == [False, True, True]
    assert model.evaluate("C_{alice,bob} (p | q)").tolist() == [True, True, True]
    assert model.evaluate("C p").tolist() == [False, False, False]
    assert model.evaluate("D_{alice,bob} ~q").tolist() == [False, True, False]
    assert model.evaluate(Top()).all() and not model.evaluate(Bottom()).any()
    assert model.holds("K_alice p")
    assert not model.holds("K_alice p", world=2)
    # evaluate hands out a fresh array: changing it changes nothing in the model.
    values = model.evaluate(p)
    values[:] = False
    assert model.evaluate(p).tolist() == [True, True, False]


def test_announcement_restricts_and_keeps_world_ids():
    model = textbook()
    after = model.announce("q")
    assert after.n_worlds == 2
    assert after.world_ids.tolist() == [0, 2]
    assert after.actual == 0
    assert after.knows("alice", "p & q")  # Alice's other world is gone
    assert after.world_index(2) == 1
    assert after.world_index(1) is None
    assert model.n_worlds == 3  # the old model is unchanged


def test_a_model_built_with_its_world_ids_keeps_them_through_announcements():
    """Ids given at construction (an update's, a file's) name the worlds as an announcement and
    a pick of worlds remove some, and are found back from an id; ids that do not increase are
    refused."""
    model = KripkeModel.from_worlds([{"p", "q"}, {"p"}, {"q"}], {"alice": [0, 0, 1]}, actual=0,
                                    world_ids=[4, 7, 30])
    assert model.world_ids.tolist() == [4, 7, 30] and model.world_id(2) == 30
    after = model.announce("q")
    assert after.world_ids.tolist() == [4, 30]
    assert after.world_index(30) == 1 and after.world_index(7) is None
    assert after.restrict([1]).world_ids.tolist() == [30]
    for wrong in ([4, 4, 5], [1, 2]):
        with pytest.raises(ModelError, match="3 increasing ints"):
            KripkeModel.from_worlds([{"p"}, {"q"}, set()], {"a": [0, 0, 1]}, world_ids=wrong)


def test_announcement_false_at_the_actual_world_is_refused():
    with pytest.raises(AnnouncementError, match=r"cannot announce ~p: it is false") as caught:
        textbook().announce(Not(p))
    assert caught.value.formula == Not(p)
    assert isinstance(caught.value, ValueError)


def test_restrict_may_drop_the_actual_world():
    model = textbook().restrict(np.array([False, True, True]))
    assert model.actual is None
    assert model.world_ids.tolist() == [1, 2]
    with pytest.raises(ModelError, match="no actual world"):
        model.holds(p)
    assert model.holds(p, world=0)
    assert model.restrict([1]).world_ids.tolist() == [2]


def test_restrict_by_a_mask_keeps_exactly_the_masked_worlds_across_chunks():
    """Past one chunk of the array kernels (2^18 worlds), with keys, atoms and ids of
    several dtypes: the kept worlds, in order, their actual world, its class and the sizes of
    every class."""
    n = (1 << 18) * 2 + 12_345
    rng = np.random.default_rng(3)
    keys = {"a": rng.integers(0, 40, n).astype(np.int16), "b": rng.integers(0, 5000, n)}
    model = KripkeModel({"p": rng.random(n) < 0.5}, keys, actual=n - 7)
    mask = rng.random(n) < 0.3
    mask[n - 7] = True
    after = model.restrict(mask)
    assert after.n_worlds == int(mask.sum())
    assert np.array_equal(after.world_ids, np.flatnonzero(mask))
    for agent, k in keys.items():
        assert np.array_equal(after.observation(agent), k[mask])
    assert np.array_equal(after.atom_values("p"), model.atom_values("p")[mask])
    assert after.world_ids[after.actual] == n - 7
    # the class questions, also a chunk at a time
    a = keys["a"][mask]
    assert np.array_equal(after.class_sizes("a"), np.bincount(a, minlength=40))
    p = after.atom_values("p")
    assert np.array_equal(after.class_sizes("a", where=p), np.bincount(a[p], minlength=40))
    assert np.array_equal(after.possible_worlds("a"), np.flatnonzero(a == a[after.actual]))
    # runs, as a deal's announcements make them: whole chunks kept, whole chunks dropped
    runs = np.ones(n, dtype=bool)
    runs[1000:(1 << 18) + 5] = False
    runs[-3000:-2000] = False
    after = model.restrict(runs)
    assert np.array_equal(after.world_ids, np.flatnonzero(runs))
    assert np.array_equal(after.observation("a"), keys["a"][runs])


def test_an_announcement_that_removes_nothing_copies_nothing():
    model = textbook()
    after = model.announce("p | ~p")
    assert after is not model and after.n_worlds == model.n_worlds
    assert np.shares_memory(after.observation("alice"), model.observation("alice"))
    assert np.array_equal(after.world_ids, model.world_ids) and after.actual == model.actual


def test_agents_are_found_by_name_whatever_the_spelling():
    model = KripkeModel({"p": [True, False]}, {0: [0, 0], "b": [0, 1]}, actual=0)
    assert model.holds("~K_0 p & K_b p")
    assert model.knows("0", "~K_0 p")
    assert model.holds(Knows("b", p)) and not model.holds(Knows(0, p))


def test_models_are_immutable():
    model = textbook()
    for array in (model.observation("alice"), model.world_ids, model.atom_values("p"),
                  model.announce("p").observation("bob")):
        with pytest.raises(ValueError, match="read-only"):
            array[0] = 1


def test_observation_keys_may_be_any_hashable_or_large_ints():
    worlds = [{"p"}, set(), {"p"}]
    by_tuple = KripkeModel.from_worlds(worlds, {"a": [(1, "x"), (2, "y"), (1, "x")]}, actual=0)
    by_big_int = KripkeModel.from_worlds(worlds, {"a": np.array([10**12, -5, 10**12])}, actual=0)
    for model in (by_tuple, by_big_int):
        assert model.possible_worlds("a").tolist() == [0, 2]
        assert model.holds("K_a p")


def test_observed_atoms_are_tables_over_an_agents_keys():
    """An atom the agent observes is stored once per class, not once per world."""
    keys = np.array([0, 1, 1, 2])
    model = KripkeModel(
        {"q": [True, False, True, False]},
        {"a": keys, "b": [0, 0, 1, 1]},
        actual=1,
        observed_atoms={"s": ("a", [False, True, False])},
    )
    assert model.atom_values("s").tolist() == [False, True, True, False]
    assert model.atom_values("s", np.array([3, 0])).tolist() == [False, False]
    assert model.holds("K_a s & ~K_b s & M_b s")
    assert model.evaluate(Or(Atom("s"), q)).tolist() == [True, True, True, False]
    assert model.evaluate(And(Atom("s"), Not(Atom("s")))).tolist() == [False] * 4
    assert model.evaluate("s -> K_a s").all()
    assert model.evaluate("s <-> ~~s").all()
    assert model.known_atoms("a") == {Atom("s"): True}


def test_atoms_may_be_rules_on_world_ids_evaluated_when_asked():
    calls = []

    def even(ids):
        calls.append(ids.tolist())
        return ids % 2 == 0

    model = KripkeModel({"even": even}, {"a": [0, 0, 1, 1]}, actual=0)
    assert calls == []
    after = model.announce("even")
    assert after.world_ids.tolist() == [0, 2]
    assert after.holds("K_a even")
    assert calls[-1] == [0, 2]  # evaluated on the worlds left, by their original ids
    bad = KripkeModel({"bad": lambda ids: [True]}, {"a": [0, 1]})
    with pytest.raises(ModelError, match="gave 1 values for 2 worlds"):
        bad.evaluate("bad")


def test_knows_whether_formula_helper():
    model = textbook()
    assert model.holds(knows_whether("alice", p))
    assert not model.holds(knows_whether("alice", q))


@pytest.mark.parametrize(
    ("build", "message"),
    [
        (lambda: KripkeModel({"p": [True]}, {"a": [0, 1]}), "2 observation keys for 1 worlds"),
        (lambda: KripkeModel({"p": [True, False]}, {"a": [0]}, n_worlds=2), "1 observation keys"),
        (lambda: KripkeModel({"p": [True]}, {0: [0], "0": [0]}), "two agents are both named"),
        (lambda: KripkeModel(), "cannot tell the number of worlds"),
        (lambda: KripkeModel({"p": [True]}, {"a": [0]}, actual=3), "out of range"),
        (lambda: KripkeModel({"p": [True, False]}, {"a": [0, 1]},
                             observed_atoms={"s": ("a", [True])}), "table has 1 entries"),
        (lambda: KripkeModel({"p": [True, False]}, {"a": ["x", "y"]},
                             observed_atoms={"s": ("a", [True, False])}), "small non-negative"),
    ],
)
def test_malformed_models_are_refused_clearly(build, message):
    with pytest.raises(ModelError, match=message):
        build()


def test_unknown_agents_and_atoms_are_named_in_the_error():
    model = textbook()
    agents = r"unknown agent 'carol'; the agents are \['alice', 'bob'\]"
    with pytest.raises(ModelError, match=agents):
        model.evaluate("K_carol p")
    with pytest.raises(ModelError, match="unknown atom rain"):
        model.evaluate(parse("rain"))
    with pytest.raises(ModelError, match="out of range"):
        model.possible_worlds("alice", world=3)
    with pytest.raises(ModelError, match="increasing"):
        model.restrict([2, 1])
    with pytest.raises(ModelError, match="no agents"):
        KripkeModel({"p": [True]}, {}).evaluate("C p")


@pytest.mark.parametrize("said", ["p(1,4)", "~p(2,10) & (p(2,9) | p(2,11))", "M_2 p(0,4)"])
def test_announcing_what_one_agent_sees_keeps_the_worlds_its_mask_keeps(said):
    """An announcement fixed by one agent's hand keeps whole classes of that agent, found a
    chunk at a time without a mask of every world (369,600 deals: two chunks and more). It
    must keep exactly the worlds the evaluated formula keeps, in order, with their ids and the
    actual world; and announced again, it removes nothing and copies nothing."""
    model = deal_model(range(12), (3, 3, 3), [(0, 1, 2), (4, 5, 6), (7, 8, 9)])
    mask = model.evaluate(said)
    after = model.announce(said)
    assert after.n_worlds == int(mask.sum()) < model.n_worlds
    assert np.array_equal(after.world_ids, np.flatnonzero(mask))
    for agent in model.agents:
        assert np.array_equal(after.observation(agent), model.observation(agent)[mask])
    assert after.world_ids[after.actual] == model.actual
    again = after.announce(said)
    assert np.shares_memory(again.observation(0), after.observation(0))
    assert np.array_equal(again.world_ids, after.world_ids) and again.actual == after.actual
    # from a model that already has ids (not the deal as built), the ids are carried along
    later = after.announce("~p(0,11)")
    assert np.array_equal(later.world_ids, np.flatnonzero(mask & model.evaluate("~p(0,11)")))
    with pytest.raises(AnnouncementError):
        model.announce("p(1,0)")
