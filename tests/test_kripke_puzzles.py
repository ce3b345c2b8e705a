"""Classic puzzles with their known outcomes, told through the public API only."""

from __future__ import annotations

import pytest

from kripke import (
    And,
    Atom,
    Common,
    Formula,
    Knows,
    KripkeModel,
    Not,
    Or,
    deal_model,
    knows_whether,
    parse,
)
from kripke.puzzles import at_least_one_muddy, knows_own_state, muddy_children, nobody_knows


@pytest.mark.parametrize("n", [1, 2, 3, 4, 5])
def test_muddy_children_every_actual_world(n):
    """With k muddy children, the muddy ones know after k-1 rounds of silence, no sooner."""
    for actual in range(1, 2**n):
        muddy = [i for i in range(n) if actual >> i & 1]
        model = muddy_children(n, muddy).announce(at_least_one_muddy(n))
        for _ in range(len(muddy) - 1):
            assert not any(model.holds(knows_own_state(i)) for i in range(n))
            model = model.announce(nobody_knows(n))
        knowers = [i for i in range(n) if model.holds(knows_own_state(i))]
        assert knowers == muddy
        # Each muddy child knows it is muddy (not merely whether).
        assert all(model.holds(Knows(i, Atom(f"m{i}"))) for i in muddy)
        # Once the muddy ones say so, the clean ones know they are clean.
        model = model.announce(Or.of([knows_own_state(i) for i in muddy]))
        assert all(model.holds(Knows(i, Not(Atom(f"m{i}")))) for i in range(n) if i not in muddy)


def test_muddy_children_without_the_father_nobody_ever_learns():
    """The father's announcement is what starts the induction: silence alone changes nothing."""
    model = muddy_children(3, [0, 1])
    after = model.announce(nobody_knows(3))
    assert after.n_worlds == model.n_worlds == 8


def test_muddy_children_father_made_common_knowledge():
    model = muddy_children(3, [0, 1, 2])
    assert not model.holds(parse("C (m0 | m1 | m2)"))
    # With three muddy children everyone knew it, and everyone knew that everyone knew it, but
    # not one level further: that is what the father adds.
    assert model.holds(parse("E E (m0 | m1 | m2)"))
    assert not model.holds(parse("E E E (m0 | m1 | m2)"))
    assert model.announce("m0 | m1 | m2").holds("C (m0 | m1 | m2)")


def russian_cards() -> KripkeModel:
    """Alice, Bob and Cath are dealt 3, 3 and 1 of the cards 0..6; actually 012 | 345 | 6."""
    return deal_model(range(7), [3, 3, 1], [[0, 1, 2], [3, 4, 5], [6]],
                      agents=["a", "b", "c"], atom="{agent}{card}")


def holds_hand(agent: str, hand: tuple[int, ...]) -> Formula:
    return And.of([Atom(f"{agent}{c}") for c in hand])


def test_russian_cards_the_known_solution():
    """Alice: "my hand is one of 012, 034, 056, 135, 246"; Bob: "Cath has 6". Then Alice and
    Bob know the deal, and Cath still knows no card of Alice or Bob except what she holds."""
    model = russian_cards()
    assert model.n_worlds == 140
    alice_says = Or.of([holds_hand("a", h) for h in [(0, 1, 2), (0, 3, 4), (0, 5, 6),
                                                      (1, 3, 5), (2, 4, 6)]])
    model = model.announce(alice_says)
    bob_says = Atom("c6")
    # Bob can say it truthfully because he knows it after Alice's announcement.
    assert model.holds(Knows("b", bob_says))
    model = model.announce(bob_says)
    for who in ("a", "b"):
        assert len(model.possible_worlds(who)) == 1
    for card in range(6):
        for owner in ("a", "b"):
            assert not model.knows_whether("c", Atom(f"{owner}{card}"))
    # And that Cath learns nothing is common knowledge among all three.
    ignorance = And.of([Not(knows_whether("c", Atom(f"a{card}"))) for card in range(6)])
    assert model.holds(Common(None, ignorance))


def test_russian_cards_a_bad_announcement_tells_cath_too_much():
    """"I hold 012 or 016": Cath holds 6, so she learns Alice's hand, while Bob does not."""
    model = russian_cards().announce("(a0 & a1 & a2) | (a0 & a1 & a6)")
    assert model.holds("K_c (a0 & a1 & a2)")
    assert not model.knows_whether("b", "a2")


def cheryl() -> KripkeModel:
    """Cheryl's birthday: Albert is told the month, Bernard the day."""
    dates = [("May", 15), ("May", 16), ("May", 19), ("June", 17), ("June", 18), ("July", 14),
             ("July", 16), ("August", 14), ("August", 15), ("August", 17)]
    worlds = [{f"d_{month}_{day}"} for month, day in dates]
    return KripkeModel.from_worlds(
        worlds,
        {"albert": [m for m, _ in dates], "bernard": [d for _, d in dates]},
        actual=dates.index(("July", 16)),
    )


def knows_the_date(model: KripkeModel, who: str) -> Formula:
    return Or.of([Knows(who, atom) for atom in model.atoms])


def test_cheryls_birthday_is_july_16():
    model = cheryl()
    albert_knows, bernard_knows = knows_the_date(model, "albert"), knows_the_date(model, "bernard")
    # Albert: "I don't know, and I know that Bernard doesn't know either."
    model = model.announce(Not(albert_knows) & Knows("albert", Not(bernard_knows)))
    # Bernard: "At first I didn't know, but now I do."
    model = model.announce(bernard_knows)
    # Albert: "Then I also know."
    model = model.announce(albert_knows)
    assert model.n_worlds == 1
    assert model.world_label(0) == "d_July_16"


def test_two_generals_never_reach_common_knowledge():
    """Each delivered messenger adds a level of mutual knowledge, never common knowledge."""
    # World k: k messengers got through (0..4); each general knows only what it sent/received.
    worlds = [{f"delivered{k}"} | ({"attack"} if k else set()) for k in range(5)]
    model = KripkeModel.from_worlds(
        worlds,
        {"a": [(k + 1) // 2 for k in range(5)], "b": [k // 2 for k in range(5)]},
        actual=4,
    )
    attack = Atom("attack")
    assert model.holds(Knows("a", attack)) and model.holds(Knows("b", attack))
    assert not model.holds(parse("C_{a,b} attack"))
