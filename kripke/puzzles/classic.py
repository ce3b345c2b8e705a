"""Classic puzzles as ready-made models, for a logic course and for the tests and benchmark.

Each puzzle comes as an explicit model and as a knowledge structure (``..._symbolic``), and its
story is told once, through :class:`kripke.interface.EpistemicModel`, so both backends must give
the same answers: muddy children, Russian cards (which of Alice's announcements are safe), the
dining cryptographers, Sum and Product, Cheryl's birthday; and two told by semi-private events
(:mod:`kripke.events.model`): three cards shown, and Alice reading a letter while Bob watches; and
three of false belief, told with arrows and factual change (explicit, and on belief
structures through ``--symbolic``): Sally and Anne, the secret coin and the ice-cream van; and
muddy children with a mirror, a private look told on a belief structure (:func:`muddy_mirror`).
"""

from __future__ import annotations

from collections.abc import Collection, Iterator, Sequence
from functools import partial
from itertools import combinations

import numpy as np

from kripke.errors import ModelError
from kripke.events.model import EventModel, learns_whether, may_learn, shows_card
from kripke.explicit.deal import DealModel, deal_model
from kripke.explicit.model import KripkeModel
from kripke.files.modelfile import NamedModel
from kripke.interface import EpistemicModel
from kripke.language.formula import (
    Agent,
    And,
    Atom,
    Common,
    Formula,
    Iff,
    Knows,
    Not,
    Or,
    knows_whether,
)
from kripke.symbolic.bdd import Vocabulary
from kripke.symbolic.deal import SymbolicDealModel, symbolic_deal
from kripke.symbolic.structure import SymbolicModel
from kripke.symbolic.translate import to_symbolic


def muddy_children(n: int, muddy: Collection[int]) -> KripkeModel:
    """n children 0..n-1, atom ``m{i}`` iff child i is muddy; each sees every forehead but its own.

    World w is the bit pattern of who is muddy (bit i: child i), so there are 2**n worlds and
    child i's observation key is w with bit i cleared. ``muddy`` is the actual set.
    """
    if not set(muddy) <= set(range(n)):
        raise ModelError(f"muddy children must be among 0..{n - 1}, got {sorted(muddy)}")
    worlds = np.arange(2**n, dtype=np.int64)
    # The world id is the bit pattern, so each atom is a rule on ids, evaluated when asked.
    valuation = {Atom(f"m{i}"): partial(_bit, i) for i in range(n)}
    observations = {i: worlds & ~(1 << i) for i in range(n)}
    actual = sum(1 << i for i in set(muddy))
    return KripkeModel(valuation, observations, actual)


def muddy_children_symbolic(n: int, muddy: Collection[int]) -> SymbolicModel:
    """The same puzzle as a knowledge structure: atoms m0..m{n-1}, no law (every pattern is
    possible), child i observes every atom but its own."""
    if not set(muddy) <= set(range(n)):
        raise ModelError(f"muddy children must be among 0..{n - 1}, got {sorted(muddy)}")
    atoms = [Atom(f"m{i}") for i in range(n)]
    vocabulary = Vocabulary(atoms)
    observations: dict[Agent, list[Atom]] = {i: [a for j, a in enumerate(atoms) if j != i]
                                             for i in range(n)}
    return SymbolicModel(vocabulary, vocabulary.true, observations, [atoms[i] for i in muddy])


def _bit(i: int, world_ids: np.ndarray) -> np.ndarray:
    bits: np.ndarray = (world_ids >> i) & 1 == 1
    return bits


def at_least_one_muddy(n: int) -> Formula:
    """The father's announcement: m0 ∨ ... ∨ m{n-1}."""
    return Or.of([Atom(f"m{i}") for i in range(n)])


def knows_own_state(child: int) -> Formula:
    """K_i m_i ∨ K_i ¬m_i: the child knows whether it is muddy."""
    return knows_whether(child, Atom(f"m{child}"))


def nobody_knows(n: int) -> Formula:
    """What the children's silence announces after each question: no child knows its state."""
    return Not(Or.of([knows_own_state(i) for i in range(n)]))


def muddy_story[M: EpistemicModel](model: M, n: int) -> tuple[M, int, list[int]]:
    """The father speaks, then the children are asked until one steps forward: the model then,
    the rounds of silence, and the children who know."""
    model = model.announce(at_least_one_muddy(n))
    rounds = 0
    while not any(model.holds(knows_own_state(i)) for i in range(n)):
        model = model.announce(nobody_knows(n))
        rounds += 1
    return model, rounds, [i for i in range(n) if model.holds(knows_own_state(i))]


def muddy_mirror(n: int, muddy: Collection[int], peeker: int = 0
                 ) -> list[tuple[str, EpistemicModel]]:
    """Muddy children with a mirror: after the father's announcement, child ``peeker`` looks
    in a mirror in secret (``secret_look``: it learns whether it is muddy, and every other
    child believes nothing happened); then the father asks who knows, and the children answer
    truthfully (those who know step forward, publicly). Told on a belief structure
    (:mod:`kripke.symbolic.belief`), since the look turns the 2ⁿ patterns into belief worlds
    (2,097,150 at n = 20, every child with arrows of its own). The steps, each with the model
    after it.

    What it shows: the peeker knows at the first question, which the others believed
    impossible when they see another muddy child (only a child who sees no mud can know at
    once), so its stepping forward removes every world they considered possible: a child
    that believes all it saw leaves no room for surprise and then believes everything, ⊥
    included (no belief revision in DEL)."""
    from kripke.symbolic.belief import from_knowledge

    return mirror_story(from_knowledge(muddy_children_symbolic(n, muddy)), n, peeker)


def mirror_story(model: EpistemicModel, n: int, peeker: int
                 ) -> list[tuple[str, EpistemicModel]]:
    """The steps of :func:`muddy_mirror` on any muddy children's model (either backend)."""
    from kripke.events.model import secret_look

    steps = [("start", model)]
    model = model.announce(at_least_one_muddy(n))
    steps.append(("the father: at least one of you is muddy", model))
    mirror = Atom(f"m{peeker}")
    model = model.update(secret_look(peeker, mirror, model.agents, holds=model.holds(mirror)))
    steps.append((f"child {peeker} looks in a mirror; the others believe nothing happened",
                  model))
    answers = And.of([knows_own_state(i) if model.holds(knows_own_state(i)) else
                      Not(knows_own_state(i)) for i in range(n)])
    model = model.announce(answers)
    steps.append(("the father asks who knows; those who know step forward", model))
    return steps


# --- Russian cards ------------------------------------------------------------------------------

#: The real deal: Alice holds 0, 1, 2, Bob 3, 4, 5, Cath 6.
RUSSIAN_DEAL = ((0, 1, 2), (3, 4, 5), (6,))


def russian_cards() -> DealModel:
    """Alice, Bob and Cath are dealt 3, 3 and 1 of the cards 0..6; atoms ``a0`` .. ``c6``."""
    return deal_model(range(7), [3, 3, 1], RUSSIAN_DEAL, agents="abc", atom="{agent}{card}")


def russian_cards_symbolic() -> SymbolicDealModel:
    """The same deal as a knowledge structure (21 atoms, 140 states)."""
    return symbolic_deal(range(7), [3, 3, 1], RUSSIAN_DEAL, agents="abc", atom="{agent}{card}")


def holds_hand(agent: str, hand: Sequence[int]) -> Formula:
    """The agent holds (at least) these cards."""
    return And.of([Atom(f"{agent}{c}") for c in hand])


def russian_announcements() -> Iterator[tuple[tuple[int, ...], ...]]:
    """Every list of 5, 6 or 7 hands of three cards, in increasing order, any two sharing at
    most one card: SMCDEL's 1,290 candidate announcements for Alice (most do not contain her
    hand, so she cannot truthfully make them)."""
    hands: list[tuple[int, ...]] = list(combinations(range(7), 3))

    def extend(chosen: tuple[tuple[int, ...], ...], rest: list[tuple[int, ...]], size: int
               ) -> Iterator[tuple[tuple[int, ...], ...]]:
        if len(chosen) == size:
            yield chosen
            return
        for i, hand in enumerate(rest):
            yield from extend((*chosen, hand),
                              [h for h in rest[i + 1:] if len(set(h) & set(hand)) < 2], size)

    for size in (5, 6, 7):
        yield from extend((), hands, size)


def _all_cards(agent: str) -> list[Atom]:
    return [Atom(f"{agent}{card}") for card in range(7)]


#: Bob knows Alice's hand; Alice knows Bob's; Cath knows no card of Alice or Bob she lacks.
BOB_KNOWS_ALICE = And.of([knows_whether("b", a) for a in _all_cards("a")])
ALICE_KNOWS_BOB = And.of([knows_whether("a", b) for b in _all_cards("b")])
CATH_IGNORANT = And.of([Not(Knows("c", atom)) for card in range(7)
                        for atom in (Atom(f"a{card}"), Atom(f"b{card}"))])


def russian_safe(model: EpistemicModel, hands: Sequence[Sequence[int]]) -> bool:
    """Whether Alice may say "my hand is one of these" safely, and Bob then "Cath has 6": it is
    true, then Bob knows her hand, commonly among the two, while Cath learns no card, commonly
    among all three; after Bob speaks Alice and Bob know the deal, commonly, and Cath still
    learns nothing. SMCDEL's check, which 102 of the 1,290 candidate lists pass."""
    alice = Knows("a", Or.of([holds_hand("a", h) for h in hands]))
    if not model.holds(alice):
        return False
    after = model.announce(alice)
    bob = Knows("b", Atom("c6"))
    if not all(after.holds(f) for f in (BOB_KNOWS_ALICE, Common(("a", "b"), BOB_KNOWS_ALICE),
                                        Common(None, CATH_IGNORANT), bob)):
        return False
    last = after.announce(bob)
    return last.holds(Common(("a", "b"), ALICE_KNOWS_BOB & BOB_KNOWS_ALICE)) and \
        last.holds(Common(None, CATH_IGNORANT))


# --- the dining cryptographers ------------------------------------------------------------------

def _xor(parts: Sequence[Formula]) -> Formula:
    """Parity of the parts, written with ↔: a ⊕ b is ¬(a ↔ b), folded from the left."""
    result = parts[0]
    for part in parts[1:]:
        result = Not(Iff(result, part))
    return result


def _dining_atoms(n: int) -> tuple[list[Atom], list[Atom]]:
    """paid0 (the NSA paid), paid1..paid{n}; coin1..coin{n}, coin i shared by i and i+1."""
    return [Atom(f"paid{i}") for i in range(n + 1)], [Atom(f"coin{i}") for i in range(1, n + 1)]


def dining_seen(n: int, i: int) -> tuple[int, int]:
    """The coins cryptographer i (1..n) sees: the one it shares with each neighbour."""
    return (i - 2) % n, i - 1


def dining_cryptographers(n: int, payer: int, coins: Sequence[bool]) -> KripkeModel:
    """n cryptographers round a table (n ≥ 3); payer 0 means the NSA paid, else cryptographer
    ``payer``; ``coins[i]`` is the coin between i+1 and its right neighbour. A world is a payer
    and n coins: (n + 1)·2^n of them."""
    _check_dining(n, payer, coins)
    paid, coin = _dining_atoms(n)
    payers = np.repeat(np.arange(n + 1), 2**n)
    flips = np.tile(np.arange(2**n), n + 1)
    valuation: dict[Atom | str, np.ndarray] = {p: payers == i for i, p in enumerate(paid)}
    valuation |= {c: (flips >> i) & 1 == 1 for i, c in enumerate(coin)}
    observations: dict[Agent, np.ndarray] = {}
    for i in range(1, n + 1):
        left, right = dining_seen(n, i)
        observations[i] = (payers == i) * 4 + ((flips >> left) & 1) * 2 + ((flips >> right) & 1)
    actual = payer * 2**n + sum(1 << i for i, c in enumerate(coins) if c)
    return KripkeModel(valuation, observations, actual)


def dining_cryptographers_symbolic(n: int, payer: int, coins: Sequence[bool]) -> SymbolicModel:
    """The same as a knowledge structure: 2n + 1 atoms, whose law is that exactly one paid."""
    _check_dining(n, payer, coins)
    paid, coin = _dining_atoms(n)
    # Each cryptographer's atoms side by side: the reveals are then a chain of local parities.
    # (All payers first would make the diagram of the reveals remember n bits: 2^n nodes.)
    vocabulary = Vocabulary([paid[0], *(a for pair in zip(paid[1:], coin, strict=True)
                                         for a in pair)])
    observations: dict[Agent, list[Atom]] = {i: [paid[i], *(coin[c] for c in dining_seen(n, i))]
                                             for i in range(1, n + 1)}
    actual = [paid[payer], *(c for c, up in zip(coin, coins, strict=True) if up)]
    return SymbolicModel(vocabulary, vocabulary.exactly(1, paid), observations, actual)


def _check_dining(n: int, payer: int, coins: Sequence[bool]) -> None:
    if n < 3 or not 0 <= payer <= n or len(coins) != n:
        raise ModelError(f"need n ≥ 3 cryptographers, a payer in 0..{n} and {n} coins")


def dining_parity(n: int, i: int) -> Formula:
    """Cryptographer i says "differ": its two coins differ, or they agree and it paid."""
    paid, coin = _dining_atoms(n)
    return _xor([paid[i], *(coin[c] for c in dining_seen(n, i))])


def dining_reveal(model: EpistemicModel, n: int, i: int) -> Formula:
    """What cryptographer i (1..n) says at the actual world: the parity or its negation."""
    parity = dining_parity(n, i)
    return parity if model.holds(parity) else Not(parity)


def dining_reveals(model: EpistemicModel, n: int) -> Formula:
    """What the cryptographers say at the actual world, announced together as one public
    fact."""
    return And.of([dining_reveal(model, n, i) for i in range(1, n + 1)])


def dining_outcome(model: EpistemicModel, n: int) -> tuple[bool, bool]:
    """After the reveals: (every cryptographer knows whether the NSA paid, no cryptographer
    who did not pay knows who did)."""
    paid, _ = _dining_atoms(n)
    after = model.announce(dining_reveals(model, n))
    everyone = all(after.holds(knows_whether(i, paid[0])) for i in range(1, n + 1))
    anonymous = all(after.holds(Not(paid[j]) | Not(Knows(i, paid[j])))
                    for j in range(1, n + 1) for i in range(1, n + 1) if i != j)
    return everyone, anonymous


# --- Cheryl's birthday --------------------------------------------------------------------------

CHERYL_DATES = (("May", 15), ("May", 16), ("May", 19), ("June", 17), ("June", 18), ("July", 14),
                ("July", 16), ("August", 14), ("August", 15), ("August", 17))


def cheryl() -> KripkeModel:
    """Cheryl's ten dates; Albert is told the month, Bernard the day; atoms ``d_July_16``."""
    return KripkeModel.from_worlds(
        [{f"d_{month}_{day}"} for month, day in CHERYL_DATES],
        {"albert": [m for m, _ in CHERYL_DATES], "bernard": [d for _, d in CHERYL_DATES]},
        actual=CHERYL_DATES.index(("July", 16)),
    )


# --- Sum and Product ----------------------------------------------------------------------------

def sum_and_product_pairs() -> list[tuple[int, int]]:
    """The pairs (x, y), 2 ≤ x < y, x + y ≤ 100, in the order of the model's worlds."""
    return [(x, y) for x in range(2, 100) for y in range(x + 1, 100) if x + y <= 100]


def sum_and_product() -> KripkeModel:
    """Two numbers 2 ≤ x < y with x + y ≤ 100; S is told the sum, P the product. Atoms
    ``x(b)`` and ``y(b)`` are the bits b of x and y; a world is a pair."""
    pairs = np.array(sum_and_product_pairs())
    valuation: dict[Atom | str, np.ndarray] = {Atom(name, (b,)): (pairs[:, k] >> b) & 1 == 1
                                               for k, name in enumerate("xy") for b in range(7)}
    return KripkeModel(valuation, {"S": pairs.sum(axis=1), "P": pairs.prod(axis=1)}, None)


def sum_and_product_symbolic() -> SymbolicModel:
    """The same as a knowledge structure, by translation (S and P observe the bits of their
    class numbers)."""
    return to_symbolic(sum_and_product(), max_worlds=10_000)


def knows_the_numbers(agent: str) -> Formula:
    """The agent knows both numbers: it knows the value of every bit of x and y."""
    return And.of([knows_whether(agent, Atom(name, (b,))) for name in "xy" for b in range(7)])


def sum_and_product_story[M: EpistemicModel](model: M) -> M:
    """The model after S: "I knew you didn't know", P: "now I know", S: "now I know too".
    One pair survives: 4 and 13."""
    for said in (Knows("S", Not(knows_the_numbers("P"))), knows_the_numbers("P"),
                 knows_the_numbers("S")):
        model = model.announce(said)
    return model


# --- three cards (van Ditmarsch, van der Hoek and Kooi, Dynamic Epistemic Logic) -------------

#: Anne, Bill and Cath; in the book's deal 012 Anne holds 0, Bill 1 and Cath 2.
THREE_CARDS_DEAL = ((0,), (1,), (2,))


def three_cards(deal: Sequence[Sequence[int]] = THREE_CARDS_DEAL) -> DealModel:
    """The cards 0, 1, 2 dealt one each to a (Anne), b (Bill) and c (Cath), each seeing only
    her or his own card: the book's six-world model; atoms ``a0`` .. ``c2``."""
    return deal_model(range(3), [1, 1, 1], deal, agents="abc", atom="{agent}{card}")


def shows_own_card(shower: str, viewer: str, card: int) -> EventModel:
    """``shower`` shows ``viewer`` her card (``card``); the third player sees that a card is
    shown, not which: the book's "show"."""
    return shows_card(shower, viewer, range(3), card, atom="{agent}{card}")


# --- Alice reads a letter ------------------------------------------------------------------------

def letter(says: bool = True) -> KripkeModel:
    """A sealed letter says p or not (``says``): two worlds, and neither Alice nor Bob can
    tell them apart."""
    return KripkeModel.from_worlds([{"p"}, set()], {"alice": [0, 0], "bob": [0, 0]},
                                   actual=0 if says else 1, atoms=["p"])


def reads_letter(says: bool = True, may: bool = False) -> EventModel:
    """Alice reads the letter while Bob watches (``may``: Bob is out of the room, so she may
    or may not have read it; here she has)."""
    return may_learn("alice", "p", holds=says) if may else learns_whether("alice", "p", says)


# --- false belief: stories told with arrows and factual change ------------------------------------

def marble() -> NamedModel:
    """Sally holds the marble, Anne with her (Bolander 2014's initial state): one world,
    ``basket`` and ``box`` both false, known to both (S5). The marble goes into the basket by
    a factual change (:func:`sally_puts_marble`), not by the world being one where it already
    is."""
    start = KripkeModel.from_worlds([set()], {"sally": [0], "anne": [0]}, actual=0,
                                    atoms=["basket", "box"])
    return NamedModel.named(start, ["w"])


def sally_puts_marble() -> EventModel:
    """Sally puts the marble in the basket while Anne watches: one public event (``put``: pre
    true; basket := true, box := false), as Bolander's first action of the story. It splits
    no world: the world keeps its name and changes its atoms."""
    return EventModel.of({"put": "true"}, actual="put",
                         post={"put": {"basket": "true", "box": "false"}})


def anne_moves_marble() -> EventModel:
    """While Sally is out, Anne moves the marble from the basket to the box (``move``: pre
    basket; basket := false, box := true); Sally believes nothing happened (her arrows go to
    ``skip``), Anne tells the two events apart."""
    return EventModel.of({"move": "basket", "skip": "true"},
                         {"anne": [["move"], ["skip"]]}, actual="move",
                         arrows={"sally": [("move", "skip"), ("skip", "skip")]},
                         post={"move": {"basket": "false", "box": "true"}})


def covered_coin() -> NamedModel:
    """A coin under a cup, heads up; neither a nor b knows which side (two worlds, S5)."""
    start = KripkeModel.from_worlds([{"heads"}, set()], {"a": [0, 0], "b": [0, 0]}, actual=0,
                                    atoms=["heads"])
    return NamedModel.named(start, ["heads", "tails"])


def van_in_park() -> NamedModel:
    """John and Mary see the ice-cream van in the park: one world, ``park`` true, known."""
    start = KripkeModel.from_worlds([{"park"}], {"john": [0], "mary": [0]}, actual=0,
                                    atoms=["park"])
    return NamedModel.named(start, ["park"])


def van_moves() -> EventModel:
    """Perner and Wimmer's ice-cream van (1985), as one event model: the van drives to the
    church (park := false); the driver tells John, and on his way tells Mary too, which John
    does not know. Events: ``told`` (moved, Mary told), ``untold`` (moved, Mary not told:
    she believes nothing happened) and ``skip`` (nothing happened). John sees the move and
    believes Mary was not told (told → untold); Mary, told, sees ``told``, and untold believes
    ``skip``."""
    return EventModel.of({"told": "true", "untold": "true", "skip": "true"}, {},
                         actual="told",
                         arrows={"john": [("told", "untold"), ("untold", "untold"),
                                          ("skip", "skip")],
                                 "mary": [("told", "told"), ("untold", "skip"),
                                          ("skip", "skip")]},
                         post={"told": {"park": "false"}, "untold": {"park": "false"}})
