"""The puzzle gallery: each story walked to its end gives the published world counts and answer,
and every step is something the speaker could truthfully say."""

from __future__ import annotations

import pytest

from kripke import Atom, Knows, ModelError, Not, parse
from kripke.puzzles.gallery import (
    GALLERY,
    cards,
    cheryl_birthday,
    consecutive,
    coordinated_attack,
    dining,
    knowledge_depth,
    muddy,
    reading,
    russian,
    sum_and_product,
)


def test_muddy_children_four_all_muddy_go_15_11_5_1():
    puzzle = muddy(4, (0, 1, 2, 3))
    assert puzzle.counts() == [16, 15, 11, 5, 1, 1]
    last = puzzle.models()[-1]
    assert all(last.holds(Knows(i, Atom(f"m{i}"))) for i in range(4))


@pytest.mark.parametrize("n", range(1, 9))
def test_muddy_children_any_actual_world_k_muddy_know_after_k_minus_1_silences(n):
    worlds = range(1, 2**n) if n <= 5 else [1, 2**n - 1, 0b10110 % 2**n or 1]
    for actual in worlds:
        dirty = [i for i in range(n) if actual >> i & 1]
        puzzle = muddy(n, dirty)
        silences = [s for s in puzzle.steps if s.speaker == "Children" and "Nobody" in s.said]
        assert len(silences) == len(dirty) - 1
        models = puzzle.models()
        # one question before they step forward nobody knew; then exactly the muddy ones do
        assert not any(models[-3].holds(f"K_{i} m{i} | K_{i} ~m{i}") for i in range(n))
        assert [i for i in range(n) if models[-2].holds(f"K_{i} m{i} | K_{i} ~m{i}")] == dirty
        assert models[-1].actual is not None
        assert int(models[-1].world_ids[models[-1].actual]) == actual


def test_muddy_children_positions_pair_each_world_with_its_twin_for_the_child_in_focus():
    puzzle = muddy(4, (1, 2))
    for focus in range(4):
        positions = puzzle.positions(focus)
        assert sorted(positions) == list(range(16))
        assert len(set(positions.values())) == 16
        for world, (x, y) in positions.items():
            twin = positions[world ^ 1 << focus]
            assert twin[1] == y and abs(twin[0] - x) <= 1  # side by side, nearer than others
            assert all(abs(p[0] - x) > 1 for w, p in positions.items()
                       if p[1] == y and w not in (world, world ^ 1 << focus))


def test_cheryls_birthday_goes_10_5_3_1_to_july_16():
    puzzle = cheryl_birthday()
    assert puzzle.counts() == [10, 5, 3, 1]
    last = puzzle.models()[-1]
    assert last.holds("d_July_16")
    assert puzzle.describe(last, last.actual) == "July 16"


def test_sum_and_product_goes_2352_145_86_1_to_4_and_13():
    puzzle = sum_and_product()
    assert puzzle.counts() == [2352, 145, 86, 1]
    last = puzzle.models()[-1]
    assert last.holds("x4 & y13") and last.holds("K_P (x4 & y13) & K_S (x4 & y13)")
    assert puzzle.describe(last, 0) == "x = 4, y = 13 (sum 17, product 52)"
    # at the start P does not know (the statement the puzzle opens with)
    assert not puzzle.model.holds("K_P x4")


def test_russian_cards_140_deals_and_the_classic_announcements():
    puzzle = russian()
    assert puzzle.counts() == [140, 20, 3]
    last = puzzle.models()[-1]
    assert last.possible_count("a") == last.possible_count("b") == 1
    assert not any(last.knows_whether("c", f"{who}{card}") for who in "ab" for card in range(6))


def test_consecutive_numbers_two_i_dont_knows_then_both_know():
    puzzle = consecutive(2, 3)
    assert [(s.speaker, s.said) for s in puzzle.steps] == [
        ("Anne", "I don't know your number."), ("Bill", "I don't know your number."),
        ("Anne", "I know your number."), ("Bill", "I know your number too.")]
    assert puzzle.counts() == [16, 14, 10, 4, 4]
    last = puzzle.models()[-1]
    assert last.holds("K_anne b3 & K_bill a2")
    assert not puzzle.model.holds("K_anne b3 | K_bill a2")
    # with 0, Anne knows at once
    assert consecutive(0, 1).steps[0].said == "I know your number."


def test_coordinated_attack_every_messenger_adds_a_level_never_common_knowledge():
    puzzle = coordinated_attack(4)
    models = puzzle.models()
    assert [m.n_worlds for m in models] == [5, 5, 5, 5, 5, 4]
    got1 = Atom("got1")
    depths = [knowledge_depth(m, got1, ["b", "a"]) for m in models[:-1]]
    assert depths == [0, 1, 2, 3, 4]
    assert not any(m.holds("C_{a,b} got1") for m in models[:-1])
    # the public flare does what no messenger can
    assert models[-1].holds("C_{a,b} got1")


def test_dining_cryptographers_learn_whether_the_nsa_paid_not_who():
    for payer, end in [(1, 6), (2, 6), (0, 2)]:
        puzzle = dining(payer, (True, False, True))
        assert puzzle.counts() == [32, 16, 8, end]
        last = puzzle.models()[-1]
        assert all(last.holds(f"K_{i} paid0 | K_{i} ~paid0") for i in (1, 2, 3))
        for i in (1, 2, 3):
            for j in (1, 2, 3):
                if i != j:
                    assert not last.holds(Knows(i, Atom(f"paid{j}")))


@pytest.mark.parametrize("key", GALLERY)
def test_every_puzzle_is_told_truthfully_and_its_examples_parse(key):
    puzzle = GALLERY[key]()
    model = puzzle.model
    for step in puzzle.steps:
        if step.formula is not None:
            assert model.holds(step.formula), step.said  # truthful where it is said
        if step.event is not None:  # what happens can happen here
            assert model.holds(step.event.actual_event.precondition), step.said
        model = step.apply(model)
    for example in puzzle.examples:
        puzzle.model.evaluate(parse(example))  # every atom and agent exists
    assert puzzle.story and puzzle.ending
    for agent in puzzle.model.agents:
        assert puzzle.agent_name(agent)


def test_bad_puzzle_settings_are_refused_with_the_fix():
    with pytest.raises(ModelError, match="1 to 8 children"):
        muddy(9, (0,))
    with pytest.raises(ModelError, match="numbered 0..3"):
        muddy(4, (4,))
    with pytest.raises(ModelError, match="at least one child"):
        muddy(3, ())
    with pytest.raises(ModelError, match="one apart"):
        consecutive(2, 5)
    with pytest.raises(ModelError, match="1 to 8 messengers"):
        coordinated_attack(0)
    with pytest.raises(ModelError, match="e.g. 012 or 201"):
        cards("011")


@pytest.mark.parametrize(("deal", "answer"), [("012", "Anne 0, Bill 1, Cath 2"),
                                              ("201", "Anne 2, Bill 0, Cath 1")])
def test_three_cards_shown_stay_six_worlds_bill_then_cath_knowing_the_deal(deal, answer):
    puzzle = cards(deal)
    models = puzzle.models()
    assert puzzle.counts() == [6, 6, 6]
    assert puzzle.actual_world(models[-1]) == answer
    anne = f"a{deal[0]}"
    assert [m.holds(f"K_b {anne}") for m in models] == [False, True, True]
    assert [m.holds(f"K_c {anne}") for m in models] == [False, False, True]
    assert not models[-1].holds(f"K_a b{deal[1]}")
    assert [puzzle.short(models[-1], i) for i in range(6)] == \
        ["012", "021", "102", "120", "201", "210"]


@pytest.mark.parametrize(("away", "counts"), [(False, [2, 2, 2]), (True, [2, 4, 2])])
def test_reading_a_letter_bob_watching_or_away(away, counts):
    puzzle = reading(says=True, may=away)
    models = puzzle.models()
    assert puzzle.counts() == counts
    assert puzzle.actual_world(models[-1]) == "the letter says p; Alice has read it"
    assert models[1].holds("K_bob (K_alice p | K_alice ~p)") is not away
    assert models[-1].holds("K_bob (K_alice p | K_alice ~p) & ~(K_bob p | K_bob ~p)")


def test_a_step_cannot_announce_what_is_false():
    puzzle = cheryl_birthday()
    with pytest.raises(ValueError, match="false at the actual world"):
        puzzle.model.announce(Not(Atom("d_July_16")))
