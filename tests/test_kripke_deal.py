"""Deal models: every deal exactly once, the counts of the design notes, own hands observed."""

from __future__ import annotations

from math import factorial

import numpy as np
import pytest

from kripke import Atom, DealModel, Knows, ModelError, Or, deal_count, deal_model


def hands_of(model: DealModel) -> list[tuple[frozenset, ...]]:
    return [tuple(frozenset(h) for h in model.deal(w)) for w in range(model.n_worlds)]


@pytest.mark.parametrize(
    ("m", "k", "worlds"), [(3, 2, 90), (3, 3, 1680), (4, 3, 369_600), (2, 2, 6), (4, 1, 24)]
)
def test_world_counts_of_the_design_notes(m, k, worlds):
    assert deal_count(m * k, [k] * m) == worlds == factorial(m * k) // factorial(k) ** m
    if worlds <= 400_000:
        model = deal_model(range(m * k), [k] * m, [range(i * k, i * k + k) for i in range(m)])
        assert model.n_worlds == worlds
        assert model.agents == tuple(range(m))


@pytest.mark.parametrize(
    ("n", "sizes"), [(6, [2, 2, 2]), (7, [3, 3, 1]), (7, [2, 1, 2]), (5, [0, 2, 3]), (4, [4])]
)
def test_every_deal_appears_exactly_once(n, sizes):
    actual = []
    start = 0
    for k in sizes:
        actual.append(range(start, start + k))
        start += k
    model = deal_model(range(n), sizes, actual)
    deals = hands_of(model)
    assert len(deals) == len(set(deals)) == deal_count(n, sizes)
    for hands in deals:
        assert [len(h) for h in hands] == sizes
        dealt = [c for h in hands for c in h]
        assert len(dealt) == len(set(dealt))


def test_the_actual_world_is_the_real_deal_for_every_deal():
    model = deal_model("abcdef", [2, 1, 2], ["ab", "c", "de"])
    for w in range(model.n_worlds):
        again = deal_model("abcdef", [2, 1, 2], model.deal(w))
        assert again.actual == w
        assert again.deal() == model.deal(w)


def test_agents_observe_exactly_their_own_hand():
    model = deal_model(range(6), [2, 2, 2], [[0, 5], [1, 2], [3, 4]])
    assert model.deal() == ((0, 5), (1, 2), (3, 4))
    assert model.world_label(model.actual) == "0:{0,5} 1:{1,2} 2:{3,4}"
    for agent, hand in enumerate(model.deal()):
        worlds = model.possible_worlds(agent)
        assert len(worlds) == 6  # the other four cards split 2 + 2
        assert all(model.deal(w)[agent] == hand for w in worlds)
        assert model.known_atoms(agent) == {
            **{Atom("p", (agent, c)): c in hand for c in range(6)},
            **{Atom("p", (other, c)): False for other in range(3) for c in hand if other != agent},
        }
    assert model.holds("K_0 ~p(1,0) & ~K_0 p(1,1) & K_0 (p(1,1) | p(2,1))")


def test_undealt_cards_are_seen_by_no_one():
    """Deal 2 + 2 of 6 cards: two cards stay on the table, which nobody observes."""
    model = deal_model(range(6), [2, 2], [[0, 1], [2, 3]])
    assert model.n_worlds == deal_count(6, [2, 2]) == 90
    assert not model.holds(Or.of([Knows(0, Atom("p", (1, c))) for c in range(2, 6)]))
    after = model.announce("p(1,2) & p(1,3)")
    assert after.holds("K_0 p(1,2) & K_0 ~p(1,4)")


def test_names_of_agents_and_atoms_can_be_chosen():
    model = deal_model(range(7), [3, 3, 1], [[0, 1, 2], [3, 4, 5], [6]],
                       agents=["alice", "bob", "cath"], atom="has_{agent}_{card}")
    assert model.holds("K_alice has_alice_0 & K_cath has_cath_6")
    assert model.world_label(model.actual) == "alice:{0,1,2} bob:{3,4,5} cath:{6}"


def test_announcements_keep_deal_answers_right():
    model = deal_model(range(9), [3, 3, 3], [range(0, 3), range(3, 6), range(6, 9)])
    after = model.announce("p(1,3) | p(1,7)").announce("K_2 ~p(1,7)")
    for w in range(after.n_worlds):
        hands = after.deal(w)
        assert 3 in hands[1] or 7 in hands[1]
        assert after.world_label(w) == model.world_label(int(after.world_ids[w]))


@pytest.mark.parametrize(
    ("cards", "sizes", "actual", "message"),
    [
        ([0, 0, 1], [1, 1], [[0], [1]], "distinct"),
        (range(4), [3, 2], [[0, 1, 2], [3]], "do not fit"),
        (range(4), [2, 2], [[0, 1], [1, 2]], "another agent already holds"),
        (range(4), [2, 2], [[0, 1], [2]], "must hold 2 distinct cards"),
        (range(4), [2, 2], [[0, 9], [2, 3]], "must hold 2 distinct cards"),
        (range(4), [2, 2], [[0, 1]], "1 hands for 2 agents"),
    ],
)
def test_bad_deals_are_refused(cards, sizes, actual, message):
    with pytest.raises(ModelError, match=message):
        deal_model(cards, sizes, actual)


def test_too_many_deals_are_refused_with_their_count():
    with pytest.raises(ModelError, match="63,063,000 deals are more than max_worlds=1,000,000"):
        deal_model(range(16), [4, 4, 4, 4], [range(i, i + 4) for i in (0, 4, 8, 12)],
                   max_worlds=1_000_000)


def test_the_atom_pattern_must_name_agent_and_card():
    with pytest.raises(ModelError, match="gives held_0 twice"):
        deal_model(range(4), [2, 2], [[0, 1], [2, 3]], atom="held_{agent}")


def test_agents_must_match_hand_sizes():
    with pytest.raises(ModelError, match="3 agents but 2 hand sizes"):
        deal_model(range(4), [2, 2], [[0, 1], [2, 3]], agents=["a", "b", "c"])


@pytest.mark.parametrize(("cards", "sizes", "actual"), [
    (range(12), (3, 3, 3), [(9, 10, 11), (6, 7, 8), (3, 4, 5)]),  # the actual world last
    (range(9), (2, 3, 1), [(0, 8), (1, 2, 3), (4,)]),  # three cards undealt
])
def test_a_deals_world_ids_follow_from_its_hands_after_any_announcement(cards, sizes, actual):
    """A deal stores no world ids once worlds are gone: each world's id (its index among all
    deals) is worked out from its hands. They must be the ids a stored array would give, in
    every way a user asks for them: all at once, one by one, back from an id (a removed one
    answers None), after a pick of worlds, and with the actual world found again, also when
    it lies past the first chunk of the array kernels (369,600 deals)."""
    model = deal_model(cards, sizes, actual)
    said = "~p(0,1) & (p(1,6) | p(1,7) | p(1,3))"
    mask = model.evaluate(said)
    after = model.announce(said)
    kept = np.flatnonzero(mask)
    assert np.array_equal(after.world_ids, kept)
    assert after.world_ids[after.actual] == model.actual
    assert after.world_label(after.actual) == model.world_label(model.actual)
    for i in (0, 1, after.n_worlds // 2, after.actual, after.n_worlds - 1):
        assert after.world_id(i) == kept[i]
        assert after.world_index(int(kept[i])) == i
    gone = int(np.flatnonzero(~mask)[-1])
    assert after.world_index(gone) is None and after.world_index(model.n_worlds) is None
    later = after.announce("~p(1,5)")
    assert np.array_equal(later.world_ids, np.flatnonzero(mask & model.evaluate("~p(1,5)")))
    picked = later.restrict([0, 5, later.n_worlds - 1])
    assert picked.world_ids.tolist() == [later.world_id(i) for i in (0, 5, later.n_worlds - 1)]
    for w in range(picked.n_worlds):
        assert picked.world_label(w) == model.world_label(int(picked.world_ids[w]))
