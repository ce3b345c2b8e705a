"""Classic puzzles with their known outcomes, told through the public API only, on the explicit
and the symbolic backend alike (``backend`` picks the model builder)."""

from __future__ import annotations

from collections.abc import Sequence

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
    knows_whether,
    parse,
)
from kripke.interface import EpistemicModel
from kripke.puzzles.classic import (
    THREE_CARDS_DEAL,
    at_least_one_muddy,
    cheryl,
    dining_cryptographers,
    dining_cryptographers_symbolic,
    dining_outcome,
    holds_hand,
    knows_own_state,
    letter,
    muddy_children,
    muddy_children_symbolic,
    muddy_story,
    nobody_knows,
    reads_letter,
    russian_announcements,
    russian_cards,
    russian_cards_symbolic,
    russian_safe,
    shows_own_card,
    sum_and_product,
    sum_and_product_story,
    sum_and_product_symbolic,
    three_cards,
)
from kripke.symbolic.deal import SymbolicDealModel, symbolic_deal
from kripke.symbolic.translate import to_symbolic

# --- what only these tests ask of the puzzles ----------------------------------------------

def number_is(name: str, value: int) -> Formula:
    """The bits of ``name`` (x or y) spell ``value``."""
    return And.of([Atom(name, (b,)) if value >> b & 1 else Not(Atom(name, (b,)))
                   for b in range(7)])


def three_cards_symbolic(deal: Sequence[Sequence[int]] = THREE_CARDS_DEAL) -> SymbolicDealModel:
    """The same deal as a knowledge structure (9 atoms, 6 states)."""
    return symbolic_deal(range(3), [1, 1, 1], deal, agents="abc", atom="{agent}{card}")


def three_cards_story(model: EpistemicModel, deal: Sequence[Sequence[int]] = THREE_CARDS_DEAL
                      ) -> list[EpistemicModel]:
    """Anne shows Bill her card (Cath watching), then Bill shows Cath his (Anne watching):
    the models after each. Each show keeps the six worlds and changes who knows what."""
    models = [model]
    for (shower, viewer), hand in (((("a", "b"), deal[0])), (("b", "c"), deal[1])):
        models.append(models[-1].update(shows_own_card(shower, viewer, hand[0])))
    return models


def knows_deal(agent: str) -> Formula:
    """The agent knows who holds each card."""
    return And.of([knows_whether(agent, Atom(f"{who}{card}")) for who in "abc"
                   for card in range(3)])


MUDDY = {"explicit": muddy_children, "symbolic": muddy_children_symbolic}
RUSSIAN = {"explicit": russian_cards, "symbolic": russian_cards_symbolic}
DINING = {"explicit": dining_cryptographers, "symbolic": dining_cryptographers_symbolic}
SUM_PRODUCT = {"explicit": sum_and_product, "symbolic": sum_and_product_symbolic}
THREE_CARDS = {"explicit": three_cards, "symbolic": three_cards_symbolic}
BACKENDS = ["explicit", "symbolic"]


def as_backend(model: KripkeModel, backend: str):
    """An explicit puzzle model, or its translation into a knowledge structure."""
    return model if backend == "explicit" else to_symbolic(model)


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("n", [1, 2, 3, 4, 5])
def test_muddy_children_every_actual_world(n, backend):
    """With k muddy children, the muddy ones know after k-1 rounds of silence, no sooner."""
    for actual in range(1, 2**n):
        muddy = [i for i in range(n) if actual >> i & 1]
        model = MUDDY[backend](n, muddy).announce(at_least_one_muddy(n))
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


@pytest.mark.parametrize("backend", BACKENDS)
def test_muddy_children_story_with_forty_children(backend):
    """All 40 muddy: 39 rounds of silence, then all step forward (symbolic only: 2^40 worlds);
    the explicit backend tells the story for 12."""
    n = 40 if backend == "symbolic" else 12
    model, rounds, knowers = muddy_story(MUDDY[backend](n, range(n)), n)
    assert rounds == n - 1 and knowers == list(range(n))
    assert model.n_worlds == 1


@pytest.mark.parametrize("backend", BACKENDS)
def test_muddy_children_without_the_father_nobody_ever_learns(backend):
    """The father's announcement is what starts the induction: silence alone changes nothing."""
    model = MUDDY[backend](3, [0, 1])
    after = model.announce(nobody_knows(3))
    assert after.n_worlds == model.n_worlds == 8


@pytest.mark.parametrize("backend", BACKENDS)
def test_muddy_children_father_made_common_knowledge(backend):
    model = MUDDY[backend](3, [0, 1, 2])
    assert not model.holds(parse("C (m0 | m1 | m2)"))
    # With three muddy children everyone knew it, and everyone knew that everyone knew it, but
    # not one level further: that is what the father adds.
    assert model.holds(parse("E E (m0 | m1 | m2)"))
    assert not model.holds(parse("E E E (m0 | m1 | m2)"))
    assert model.announce("m0 | m1 | m2").holds("C (m0 | m1 | m2)")


@pytest.mark.parametrize("backend", BACKENDS)
def test_russian_cards_the_known_solution(backend):
    """Alice: "my hand is one of 012, 034, 056, 135, 246"; Bob: "Cath has 6". Then Alice and
    Bob know the deal, and Cath still knows no card of Alice or Bob except what she holds."""
    model = RUSSIAN[backend]()
    assert model.n_worlds == 140
    alice_says = Or.of([holds_hand("a", h) for h in [(0, 1, 2), (0, 3, 4), (0, 5, 6),
                                                      (1, 3, 5), (2, 4, 6)]])
    model = model.announce(alice_says)
    bob_says = Atom("c6")
    # Bob can say it truthfully because he knows it after Alice's announcement.
    assert model.holds(Knows("b", bob_says))
    model = model.announce(bob_says)
    for who in ("a", "b"):
        assert model.possible_count(who) == 1
    for card in range(6):
        for owner in ("a", "b"):
            assert not model.knows_whether("c", Atom(f"{owner}{card}"))
    # And that Cath learns nothing is common knowledge among all three.
    ignorance = And.of([Not(knows_whether("c", Atom(f"a{card}"))) for card in range(6)])
    assert model.holds(Common(None, ignorance))


@pytest.mark.parametrize("backend", BACKENDS)
def test_russian_cards_a_bad_announcement_tells_cath_too_much(backend):
    """"I hold 012 or 016": Cath holds 6, so she learns Alice's hand, while Bob does not."""
    model = RUSSIAN[backend]().announce("(a0 & a1 & a2) | (a0 & a1 & a6)")
    assert model.holds("K_c (a0 & a1 & a2)")
    assert not model.knows_whether("b", "a2")


@pytest.mark.parametrize("backend", BACKENDS)
def test_russian_cards_102_of_1290_announcements_are_safe(backend):
    """SMCDEL's count: of the 1,290 lists of 5 to 7 hands (any two sharing at most one card),
    192 contain Alice's hand and 102 of those are safe; the classic one among them."""
    candidates = list(russian_announcements())
    assert len(candidates) == 1290
    assert sum((0, 1, 2) in hands for hands in candidates) == 192
    model = RUSSIAN[backend]()
    safe = [hands for hands in candidates if russian_safe(model, hands)]
    assert len(safe) == 102
    assert ((0, 1, 2), (0, 3, 4), (0, 5, 6), (1, 3, 5), (2, 4, 6)) in safe


def knows_the_date(model, who: str) -> Formula:
    return Or.of([Knows(who, atom) for atom in model.atoms])


@pytest.mark.parametrize("backend", BACKENDS)
def test_cheryls_birthday_is_july_16(backend):
    model = as_backend(cheryl(), backend)
    albert_knows, bernard_knows = knows_the_date(model, "albert"), knows_the_date(model, "bernard")
    # Albert: "I don't know, and I know that Bernard doesn't know either."
    model = model.announce(Not(albert_knows) & Knows("albert", Not(bernard_knows)))
    # Bernard: "At first I didn't know, but now I do."
    model = model.announce(bernard_knows)
    # Albert: "Then I also know."
    model = model.announce(albert_knows)
    assert model.n_worlds == 1
    assert model.holds("d_July_16")


@pytest.mark.parametrize("backend", BACKENDS)
def test_two_generals_never_reach_common_knowledge(backend):
    """Each delivered messenger adds a level of mutual knowledge, never common knowledge."""
    # World k: k messengers got through (0..4); each general knows only what it sent/received.
    worlds = [{f"delivered{k}"} | ({"attack"} if k else set()) for k in range(5)]
    model = as_backend(KripkeModel.from_worlds(
        worlds,
        {"a": [(k + 1) // 2 for k in range(5)], "b": [k // 2 for k in range(5)]},
        actual=4,
    ), backend)
    attack = Atom("attack")
    assert model.holds(Knows("a", attack)) and model.holds(Knows("b", attack))
    assert not model.holds(parse("C_{a,b} attack"))


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("payer", [0, 1, 3])
def test_dining_cryptographers_learn_whether_the_nsa_paid_but_not_who(backend, payer):
    coins = [True, False, False, True]
    model = DINING[backend](4, payer, coins)
    assert model.n_worlds == 5 * 2**4
    everyone_knows, anonymous = dining_outcome(model, 4)
    assert everyone_knows and anonymous


def test_dining_cryptographers_fifty_around_the_table():
    """Symbolic only: 51 · 2^50 worlds."""
    coins = [i % 3 == 0 for i in range(50)]
    assert dining_outcome(dining_cryptographers_symbolic(50, 17, coins), 50) == (True, True)


@pytest.mark.parametrize("backend", BACKENDS)
def test_sum_and_product_leaves_4_and_13(backend):
    model = SUM_PRODUCT[backend]()
    assert model.n_worlds == 2352  # pairs 2 <= x < y, x + y <= 100
    after = sum_and_product_story(model)
    assert after.n_worlds == 1
    assert after.count(number_is("x", 4) & number_is("y", 13)) == 1


def test_a_cryptographer_says_differ_exactly_when_coins_and_payment_have_odd_parity():
    """What diner i announces is the parity of its two coins and whether it paid: "differ"
    when an odd number of the three are true (an earlier version had it upside down for three
    parts, which the outcome tests alone could not see)."""
    from itertools import product

    from kripke.puzzles.classic import dining_parity, dining_seen

    for payer, *coins in product(range(4), [False, True], [False, True], [False, True]):
        model = dining_cryptographers(3, payer, coins)
        for i in (1, 2, 3):
            seen = [coins[c] for c in dining_seen(3, i)]
            assert model.holds(dining_parity(3, i)) == ((sum(seen) + (payer == i)) % 2 == 1)


@pytest.mark.parametrize("backend", BACKENDS)
def test_three_cards_shown_keep_six_worlds_and_change_who_knows_the_deal(backend):
    """Dynamic Epistemic Logic's three cards: six deals; Anne shows Bill her card while Cath
    watches (the book's "show": six worlds after), then Bill shows Cath his."""
    models = three_cards_story(THREE_CARDS[backend]())
    assert [m.n_worlds for m in models] == [6, 6, 6]
    start, shown, both = models
    assert [start.holds(knows_deal(x)) for x in "abc"] == [False, False, False]
    assert [shown.holds(knows_deal(x)) for x in "abc"] == [False, True, False]
    assert [both.holds(knows_deal(x)) for x in "abc"] == [False, True, True]
    # Cath does not learn Anne's card, but knows that Bill has, and Anne knows that too
    assert not shown.holds("K_c a0 | K_c ~a0")
    assert shown.holds("K_c (K_b a0 | K_b a1 | K_b a2)")
    assert shown.holds(Knows("a", knows_deal("b")))
    assert shown.holds(Common(None, knows_deal("b")))
    # at the end Anne still does not know Bill's card, though she knows both others know all
    assert not both.holds("K_a b1") and both.holds(Knows("a", knows_deal("c")))
    # a public announcement of Anne's card would have told Cath too, and removed four deals
    told = start.announce("a0")
    assert told.n_worlds == 2 and told.holds("K_c a0")


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("says", [True, False])
def test_alice_reads_a_letter_bob_sees_her_read_it(backend, says):
    model = as_backend(letter(says), backend)
    p = Atom("p")
    after = model.update(reads_letter(says))
    assert (model.n_worlds, after.n_worlds) == (2, 2)
    assert after.holds(Knows("alice", p if says else Not(p)))
    assert after.holds(Knows("bob", knows_whether("alice", p)))
    assert not after.holds(knows_whether("bob", p))
    away = model.update(reads_letter(says, may=True))
    assert away.n_worlds == 4
    assert away.holds(knows_whether("alice", p))
    assert not away.holds(Knows("bob", knows_whether("alice", p)))
    assert away.announce(knows_whether("alice", p)).n_worlds == 2
