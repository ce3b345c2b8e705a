"""The classic puzzles told as stories, for a logic class: a model, a few sentences, and what is
said in order, one step at a time (the app's puzzle page, ``ttr-kripke puzzle`` and the
tutorial notebook all walk these).

The models and the announcements are those of :mod:`kripke.puzzles.classic`, where each is tested on
both backends; here they get what a teacher needs on top: the story, who says what in words,
names for the agents and the worlds, formulas worth trying, and where to draw each world when
the puzzle has a geometry of its own (muddy children: who else is muddy, with the child in
focus beside itself; Cheryl: months by days). A gallery model is explicit, since it is drawn.

Most steps are public announcements (the model shrinks). The coordinated attack has none: its
steps are messengers getting through, which change the actual world and not the model, and the
last step shows what a public announcement does there. The three cards and the letter are told
by semi-private events (:mod:`kripke.events.model`): a card shown to one player, a letter read while
another watches, which change who knows what, and may even add worlds, without an announcement.
The red bird, the whisper and the bluff revise beliefs on a plausibility model
(:mod:`kripke.explicit.plausibility`): soft information (upgrades) moves belief and keeps every
world, hard information (an announcement) removes worlds.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from kripke.errors import ModelError
from kripke.events.model import EventModel, secret_flip, secret_look
from kripke.explicit.belief import BeliefModel
from kripke.explicit.deal import DealModel
from kripke.explicit.model import KripkeModel
from kripke.explicit.plausibility import UPGRADES, PlausibilityModel, upgrade
from kripke.language.formula import Agent, And, Atom, Formula, Knows, Not, Or, Top, knows_whether
from kripke.parts import Drawn
from kripke.puzzles.classic import (
    anne_moves_marble,
    at_least_one_muddy,
    cheryl,
    covered_coin,
    dining_cryptographers,
    dining_parity,
    dining_reveal,
    dining_seen,
    holds_hand,
    knows_own_state,
    knows_the_numbers,
    letter,
    marble,
    muddy_children,
    nobody_knows,
    reads_letter,
    russian_announcements,
    russian_cards,
    russian_safe,
    sally_puts_marble,
    shows_own_card,
    sum_and_product_pairs,
    three_cards,
    van_in_park,
    van_moves,
)

type Positions = dict[int, tuple[float, float]]


@dataclass(frozen=True)
class Step:
    """One thing that happens: ``speaker`` says ``said`` (in words), which is the public
    announcement of ``formula``; or, with ``event`` set instead, the product update with that
    event model (a semi-private event: a card shown, a letter read); or, with ``actual`` set
    instead, the real world turns out to be the world with that id (nothing is announced, the
    model stays)."""

    speaker: str
    said: str
    formula: Formula | None = None
    actual: int | None = None
    event: EventModel | None = None

    def apply(self, model: Drawn) -> Drawn:
        """The model after this step (an announcement refuses a formula false at the actual
        world, as every announcement does, and an event one whose actual event cannot
        happen)."""
        if self.formula is not None:
            return model.announce(self.formula)
        if self.event is not None:
            return model.update(self.event)
        if self.actual is None:
            raise ModelError("a step announces a formula, updates with an event model or "
                             "moves the actual world")
        index = model.world_index(self.actual)
        if index is None:
            raise ModelError(f"world {self.actual} is no longer possible")
        return model.at(index)


@dataclass(frozen=True)
class Puzzle:
    """A puzzle ready to tell: the model at the start and the steps after it."""

    key: str  # as the command line and the page name it: "muddy", "cheryl", ...
    title: str
    story: str  # a few sentences a teacher reads out
    model: Drawn
    steps: tuple[Step, ...]
    agent_names: Mapping[Agent, str]
    describe: Callable[[Any, int], str]  # a world (by index) of a list of worlds in words
    examples: tuple[str, ...]  # formulas worth typing in, with this puzzle's atoms
    ending: str  # what the last step shows
    #: Where to draw each world (by id) for an agent in focus, in units of about one world's
    #: spacing; None: the puzzle has no geometry of its own (draw it by classes).
    positions: Callable[[Agent], Positions] | None = field(default=None, compare=False)
    #: A few characters naming a world (by index), to write beside it in a drawing.
    short: Callable[[Any, int], str] | None = field(default=None, compare=False)
    #: What an agent sees in the class of a world (by index), in a few short parts: a drawing
    #: by classes writes it on the class (Sum and Product: S sees the sum, "17").
    sees: Callable[[Any, Agent, int], tuple[str, ...]] | None = field(
        default=None, compare=False)

    def models(self) -> list[Drawn]:
        """The model at the start and after each step: ``len(steps) + 1`` of them."""
        models: list[Drawn] = [self.model]
        for step in self.steps:
            models.append(step.apply(models[-1]))
        return models

    def counts(self) -> list[int]:
        """Worlds at the start and after each step."""
        return [m.n_worlds for m in self.models()]

    def actual_world(self, model: Drawn) -> str:
        """The actual world of one of this puzzle's models, in words (a belief model's by its
        name, the history of events that made it, and its atoms)."""
        if model.actual is None:
            return "(none)"
        if isinstance(model, BeliefModel):
            true = " ".join(str(a) for a in model.true_atoms(model.actual)) or "no atom true"
            return f"{model.world_name()} ({true})"
        assert isinstance(model, KripkeModel)  # the other list of worlds: partitions
        return self.describe(model, model.actual)

    def agent_name(self, agent: Agent) -> str:
        return self.agent_names.get(agent, str(agent))


# --- muddy children -----------------------------------------------------------------------------

def muddy(n: int = 3, muddy: Sequence[int] = (0, 1)) -> Puzzle:
    """n children (1–8), those in ``muddy`` with mud on their foreheads."""
    if not 1 <= n <= 8:
        raise ModelError(f"the gallery has 1 to 8 children, got {n}")
    dirty = sorted(set(muddy))
    if not dirty:
        raise ModelError("at least one child must be muddy, or the father could not say so")
    if dirty[0] < 0 or dirty[-1] >= n:
        raise ModelError(f"muddy children are numbered 0..{n - 1}, got {dirty}")
    model = muddy_children(n, dirty)
    steps = [Step("Father", "At least one of you has mud on your forehead.",
                  at_least_one_muddy(n))]
    current = model.announce(at_least_one_muddy(n))
    rounds = 0
    while not any(current.holds(knows_own_state(i)) for i in range(n)):
        rounds += 1
        steps.append(Step("Children", f"Question {rounds}: do you know whether you are muddy? "
                          "Nobody steps forward.", nobody_knows(n)))
        current = current.announce(nobody_knows(n))
    knowers = [i for i in range(n) if current.holds(knows_own_state(i))]
    who = _names([f"child {i}" for i in knowers])
    steps.append(Step("Children", f"Question {rounds + 1}: {who} step{'s' * (len(knowers) == 1)} "
                      "forward: \"I know I am muddy.\"",
                      And.of([Knows(i, Atom(f"m{i}")) for i in knowers])))
    story = (f"{n} {'child comes' if n == 1 else 'children come'} in from the garden; "
             f"{_names([f'child {i}' for i in dirty])} {'has' if len(dirty) == 1 else 'have'} "
             "mud on the forehead. Each child sees every forehead but its own. The father says "
             "that at least one of them is muddy, then asks again and again: \"Do you know "
             "whether you are muddy?\" Nobody lies and everybody reasons perfectly. Atom m0 says "
             "child 0 is muddy; agent 0 is child 0.")
    first = f"m{dirty[0]}"
    examples = (f"K_{dirty[0]} {first}", f"K_{dirty[0]} ~{first} | K_{dirty[0]} {first}",
                "E (" + " | ".join(f"m{i}" for i in range(n)) + ")",
                "C (" + " | ".join(f"m{i}" for i in range(n)) + ")",
                f"[!~({' | '.join(f'K_{i} m{i}' for i in range(n))})] K_{dirty[0]} {first}")
    return Puzzle(
        "muddy", "Muddy children", story, model, tuple(steps),
        {i: f"child {i}" for i in range(n)}, _muddy_world, examples,
        f"After {rounds} round{'s' * (rounds != 1)} of silence the {len(dirty)} muddy "
        f"child{'ren' * (len(dirty) != 1)} know{'s' * (len(dirty) == 1)}: with k muddy "
        "children, k − 1 rounds of silence.",
        lambda focus: _muddy_positions(n, int(focus)),
        lambda m, i: "".join(str(c) for c in range(n) if int(m.world_ids[i]) >> c & 1) or "–")


def _names(parts: Sequence[str]) -> str:
    return parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1]


def _muddy_world(model: KripkeModel, index: int) -> str:
    world = int(model.world_ids[index])
    dirty = [str(i) for i in range(world.bit_length()) if world >> i & 1]
    return "nobody muddy" if not dirty else f"muddy: {', '.join(dirty)}"


#: The shape of the box a picture is drawn in (width over height; the page's worlds card at
#: 1280 × 800): a big puzzle's rows are wrapped to fill it rather than drawn as a thin strip.
ASPECT = 1.2


def _muddy_positions(n: int, focus: int) -> Positions:
    """Layers by how many muddy children the focus child sees (the others' foreheads), fewest
    at the top, each world beside its twin that differs only in the focus child's own forehead
    (that pair is the focus child's class, so a layer holds the worlds with k and k + 1 muddy
    children). An announcement that nobody knows removes the top layers one by one. A layer
    too wide for the box is wrapped into lines, as many pairs a line as fills the box best."""
    others = [i for i in range(n) if i != focus]
    rows: dict[int, list[int]] = {}
    for pattern in range(2 ** len(others)):
        rows.setdefault(pattern.bit_count(), []).append(pattern)
    pitch, line, layer_gap = 2.2, 1.2, 0.6  # a pair's width; a line's height; between layers

    def size(per_line: int) -> tuple[float, float]:
        lines = sum(-(-len(r) // per_line) for r in rows.values())
        width = pitch * (min(per_line, max(len(r) for r in rows.values())) - 1) + 1
        return width, line * (lines - 1) + layer_gap * (len(rows) - 1)

    # the largest drawing: the one whose longer side, measured against the box, is shortest
    per_line = min(range(1, max(len(r) for r in rows.values()) + 1),
                   key=lambda p: max(size(p)[0] / ASPECT, size(p)[1]))
    width = size(per_line)[0]
    positions: Positions = {}
    y = 0.0
    for level in sorted(rows):
        patterns = rows[level]
        for start in range(0, len(patterns), per_line):
            chunk = patterns[start:start + per_line]
            for slot, pattern in enumerate(chunk):
                base = sum(1 << child for j, child in enumerate(others) if pattern >> j & 1)
                x = pitch * (slot - (len(chunk) - 1) / 2) + (width - 1) / 2
                positions[base] = (x, y)
                positions[base | 1 << focus] = (x + 1.0, y)
            y += line
        y += layer_gap
    return positions


# --- Cheryl's birthday --------------------------------------------------------------------------

def cheryl_birthday() -> Puzzle:
    model = cheryl()
    albert_knows = Or.of([Knows("albert", a) for a in model.atoms])
    bernard_knows = Or.of([Knows("bernard", a) for a in model.atoms])
    steps = (
        Step("Albert", "I don't know when Cheryl's birthday is, but I know that Bernard does "
             "not know too.", Not(albert_knows) & Knows("albert", Not(bernard_knows))),
        Step("Bernard", "At first I didn't know when Cheryl's birthday is, but I know now.",
             bernard_knows),
        Step("Albert", "Then I also know when Cheryl's birthday is.", albert_knows),
    )
    story = ("Albert and Bernard want to know Cheryl's birthday. She gives them ten dates: May "
             "15, 16, 19; June 17, 18; July 14, 16; August 14, 15, 17. Then she tells Albert the "
             "month and Bernard the day, in private. Atom d_July_16 says the birthday is July "
             "16; the agents are albert and bernard.")
    examples = ("K_albert d_July_16", "K_bernard ~d_May_19", "K_albert ~K_bernard d_July_16",
                "M_albert d_August_14", "[!d_July_16 | d_July_14] K_bernard d_July_16")
    return Puzzle("cheryl", "Cheryl's birthday", story, model, steps,
                  {"albert": "Albert", "bernard": "Bernard"}, _cheryl_world, examples,
                  "One date is left: July 16.", lambda focus: _cheryl_positions(model),
                  _cheryl_world)


def _cheryl_world(model: KripkeModel, index: int) -> str:
    _, month, day = model.world_label(index).split("_")
    return f"{month} {day}"


def _cheryl_positions(model: KripkeModel) -> Positions:
    months = ["May", "June", "July", "August"]
    positions: Positions = {}
    for index, world in enumerate(model.world_ids.tolist()):
        _, month, day = model.world_label(index).split("_")
        positions[world] = (float(int(day) - 14), float(months.index(month)))
    return positions


# --- Sum and Product ----------------------------------------------------------------------------

def sum_and_product() -> Puzzle:
    pairs = np.array(sum_and_product_pairs())
    ids = np.arange(len(pairs))
    # Bits for the announcements (as kripke.puzzles.classic tells them), and x4, y13, ... to type
    # in:
    # atoms computed from the world id when asked, so 190 of them cost nothing until used.
    valuation: dict[Atom | str, object] = {
        Atom(name, (b,)): (pairs[:, k] >> b) & 1 == 1 for k, name in enumerate("xy")
        for b in range(7)}
    for k, name in enumerate("xy"):
        for value in np.unique(pairs[:, k]).tolist():
            valuation[Atom(f"{name}{value}")] = _ValueIs(pairs[:, k], value)
    model = KripkeModel(valuation, {"S": pairs.sum(axis=1), "P": pairs.prod(axis=1)},
                        int(ids[(pairs[:, 0] == 4) & (pairs[:, 1] == 13)][0]))
    steps = (
        Step("S", "I knew you didn't know the numbers.", Knows("S", Not(knows_the_numbers("P")))),
        Step("P", "Now I know them.", knows_the_numbers("P")),
        Step("S", "Now I know them too.", knows_the_numbers("S")),
    )
    story = ("Two whole numbers x and y with 2 ≤ x < y and x + y ≤ 100 are chosen. S is told "
             "their sum, P their product, and both know all this. P: \"I don't know the "
             "numbers.\" S: \"I knew you didn't.\" P: \"Now I know them.\" S: \"Now I know them "
             "too.\" What are they? (Freudenthal, 1969.) 2,352 pairs are possible at first, too "
             "many to draw one by one. Atoms x4 and y13 say x = 4 and y = 13.")
    examples = ("K_P (x4 & y13)", "K_S ~K_P x4", "M_S y13", "K_S (x4 & y13)")
    def sees(m: KripkeModel, agent: Agent, index: int) -> tuple[str, ...]:
        x, y = pairs[int(m.world_ids[index])].tolist()
        return (str(x + y if agent == "S" else x * y),)

    return Puzzle("sum-product", "Sum and Product", story, model, steps,
                  {"S": "S (knows the sum)", "P": "P (knows the product)"},
                  lambda m, i: _pair_world(pairs, m, i), examples,
                  "One pair is left: x = 4, y = 13 (sum 17, product 52).", sees=sees,
                  short=lambda m, i: "{},{}".format(*pairs[int(m.world_ids[i])]))


class _ValueIs:
    """Atom "x is v" as a rule on world ids (a picklable callable, unlike a lambda)."""

    def __init__(self, column: np.ndarray, value: int) -> None:
        self.column, self.value = column, value

    def __call__(self, world_ids: np.ndarray) -> np.ndarray:
        values: np.ndarray = self.column[world_ids] == self.value
        return values


def _pair_world(pairs: np.ndarray, model: KripkeModel, index: int) -> str:
    x, y = pairs[int(model.world_ids[index])].tolist()
    return f"x = {x}, y = {y} (sum {x + y}, product {x * y})"


# --- Russian cards ------------------------------------------------------------------------------

#: Alice's classic announcement: her hand is one of these.
ALICE_SAYS = ((0, 1, 2), (0, 3, 4), (0, 5, 6), (1, 3, 5), (2, 4, 6))


def russian() -> Puzzle:
    model = russian_cards()
    hands = " ".join("".join(map(str, h)) for h in ALICE_SAYS)
    steps = (
        Step("Alice", f"My hand is one of {hands}.",
             Knows("a", Or.of([holds_hand("a", h) for h in ALICE_SAYS]))),
        Step("Bob", "Cath has card 6.", Knows("b", Atom("c6"))),
    )
    story = ("Seven cards 0–6 are dealt: three to Alice, three to Bob, one to Cath; each sees "
             "only her or his own hand. Alice and Bob want to learn each other's hands by public "
             "announcements, without Cath learning where any card she does not hold is. Here "
             "Alice holds 012, Bob 345, Cath 6. Of the 1,290 lists of five to seven hands that "
             "share at most one card pairwise, 102 are safe for Alice to announce. Atom a0 says "
             "Alice holds card 0.")
    examples = ("K_b (a0 & a1 & a2)", "K_c a0 | K_c ~a0", "C_{a,b} K_b a0",
                "K_c ~(K_b a0 | K_b ~a0)")
    return Puzzle("russian", "Russian cards", story, model, steps,
                  {"a": "Alice", "b": "Bob", "c": "Cath"}, _deal_world, examples,
                  "Alice and Bob know the deal, and Cath still knows no card of theirs.")


def _deal_world(model: KripkeModel, index: int) -> str:
    if not isinstance(model, DealModel):
        return model.world_label(index)
    return ", ".join(f"{who} {''.join(map(str, hand))}" for who, hand
                     in zip(("Alice", "Bob", "Cath"), model.deal(index), strict=True))


# --- consecutive numbers ------------------------------------------------------------------------

def consecutive(anne: int = 2, bill: int = 3, top: int = 8) -> Puzzle:
    """Anne and Bill are told numbers one apart, 0..``top`` (both know the bound)."""
    if abs(anne - bill) != 1 or not (0 <= min(anne, bill) and max(anne, bill) <= top):
        raise ModelError(f"Anne's and Bill's numbers must be one apart, in 0..{top}")
    pairs = [(a, b) for a in range(top + 1) for b in (a - 1, a + 1) if 0 <= b <= top]
    worlds = [{f"a{a}", f"b{b}"} for a, b in pairs]
    model = KripkeModel.from_worlds(worlds, {"anne": [a for a, _ in pairs],
                                             "bill": [b for _, b in pairs]},
                                    actual=pairs.index((anne, bill)))
    anne_knows = And.of([knows_whether("anne", Atom(f"b{b}")) for b in range(top + 1)])
    bill_knows = And.of([knows_whether("bill", Atom(f"a{a}")) for a in range(top + 1)])
    steps: list[Step] = []
    current = model
    turn = 0
    while len(steps) < 2 * top:
        speaker, knows = [("Anne", anne_knows), ("Bill", bill_knows)][turn % 2]
        if current.holds(knows):
            steps.append(Step(speaker, "I know your number.", knows))
            current = current.announce(knows)
            other, other_knows = [("Anne", anne_knows), ("Bill", bill_knows)][(turn + 1) % 2]
            if current.holds(other_knows):
                steps.append(Step(other, "I know your number too.", other_knows))
            break
        steps.append(Step(speaker, "I don't know your number.", Not(knows)))
        current = current.announce(Not(knows))
        turn += 1
    story = (f"Anne and Bill are each told a number from 0 to {top}, and the two numbers are "
             f"one apart; both know this. Anne is told {anne}, Bill {bill}. They take turns "
             "saying whether they know the other's number. Atom a2 says Anne's number is 2; "
             "b3, Bill's is 3. (The numbers stop at "
             f"{top} so that the picture can end: near {top} the bound tells them more.)")
    examples = (f"K_anne b{bill}", f"K_bill a{anne}", f"M_anne b{anne - 1 if anne else 1}",
                f"K_anne K_bill a{anne}")
    return Puzzle("consecutive", "Consecutive numbers", story, model, tuple(steps),
                  {"anne": "Anne", "bill": "Bill"}, lambda m, i: _numbers(pairs, m, i),
                  examples, "Both know each other's number, though neither ever said it.",
                  # Anne's number across; Bill's one less above, one more below: Anne's
                  # classes are columns, Bill's the diagonals
                  lambda focus: {w: (float(a), 1.2 * (b - a)) for w, (a, b) in enumerate(pairs)},
                  lambda m, i: "{},{}".format(*pairs[int(m.world_ids[i])]))


def _numbers(pairs: Sequence[tuple[int, int]], model: KripkeModel, index: int) -> str:
    a, b = pairs[int(model.world_ids[index])]
    return f"Anne {a}, Bill {b}"


# --- coordinated attack -------------------------------------------------------------------------

def coordinated_attack(messengers: int = 4) -> Puzzle:
    """Two generals, ``messengers`` messengers at most (1–8): world k is "k got through"."""
    if not 1 <= messengers <= 8:
        raise ModelError(f"the gallery sends 1 to 8 messengers, got {messengers}")
    m = messengers
    # World k: messengers 1..k got through (odd ones from a to b, even ones back), k+1 did not.
    # a has received the even ones, b the odd ones: that is all each general sees.
    worlds = [{f"got{j}" for j in range(1, k + 1)} for k in range(m + 1)]
    model = KripkeModel.from_worlds(worlds, {"a": [k // 2 for k in range(m + 1)],
                                             "b": [(k + 1) // 2 for k in range(m + 1)]},
                                    actual=0, atoms=[f"got{j}" for j in range(1, m + 1)])
    steps = [Step(f"Messenger {k}", f"got through to general {'b' if k % 2 else 'a'}.", actual=k)
             for k in range(1, m + 1)]
    steps.append(Step("A flare", "seen by both armies: messenger 1 got through.",
                      Atom("got1")))
    story = ("Two generals, a and b, must attack together or not at all. General a sends a "
             "messenger across the valley: \"attack at dawn\". Any messenger may be caught. "
             "Whoever receives one sends another back to confirm, "
             f"{m} messenger{'s' * (m != 1)} at most. Atom got1 says the first got through. "
             "Each messenger adds a level of knowledge about knowledge, but C_{a,b} got1 never "
             "holds: whoever sent the last messenger cannot tell whether it was caught.")
    examples = ("K_b got1", "K_a K_b got1", "K_b K_a K_b got1", "E_{a,b} E_{a,b} got1",
                "C_{a,b} got1")
    return Puzzle("attack", "Coordinated attack", story, model, tuple(steps),
                  {"a": "general a", "b": "general b"}, _attack_world, examples,
                  f"After {m} messengers every level of \"knows that knows\" up to {m} holds, "
                  "never common knowledge; one public flare makes it common knowledge at once.",
                  lambda focus: {k: (float(k), 0.0) for k in range(m + 1)},
                  lambda model, i: str(int(model.world_ids[i])))


def _attack_world(model: KripkeModel, index: int) -> str:
    k = int(model.world_ids[index])
    return f"{k} messenger{'s' * (k != 1)} got through" if k else "messenger 1 was caught"


def knowledge_depth(model: KripkeModel, formula: Formula, agents: Sequence[Agent],
                    limit: int = 20) -> int:
    """How many alternating K's (``K_a``, ``K_b K_a``, ...; the last agent first) hold over
    ``formula`` at the actual world: the coordinated attack's measure of what the messengers
    achieved."""
    depth, nested = 0, formula
    while depth < limit:
        nested = Knows(agents[depth % len(agents)], nested)
        if not model.holds(nested):
            return depth
        depth += 1
    return depth


# --- dining cryptographers ----------------------------------------------------------------------

def dining(payer: int = 1, coins: Sequence[bool] = (True, False, True)) -> Puzzle:
    """Three diners; ``payer`` 0 is the NSA, 1–3 a diner; ``coins`` true for heads."""
    n = 3
    model = dining_cryptographers(n, payer, coins)
    steps = tuple(Step(f"Diner {i}", _dining_words(model, i), dining_reveal(model, n, i))
                  for i in range(1, n + 1))
    story = ("Three cryptographers dine; the bill is paid either by one of them or by the NSA. "
             "Each pair of neighbours flips a coin that only those two see. Then each says "
             "whether the two coins it sees differ, saying the opposite if it paid. The "
             "number of \"differ\" answers is odd exactly when a diner paid, yet no one learns "
             "which. Atom paid0 says the NSA paid, paid2 that diner 2 did; coin1 is the coin "
             "between diners 1 and 2.")
    examples = ("K_1 paid0 | K_1 ~paid0", "K_2 ~paid1", "K_1 (paid2 | paid3)",
                "C (paid0 | paid1 | paid2 | paid3)", "D_{2,3} paid1")
    def sees(m: KripkeModel, agent: Agent, index: int) -> tuple[str, ...]:
        payer, flips = divmod(int(m.world_ids[index]), 8)
        coins = "".join("H" if flips >> c & 1 else "T" for c in dining_seen(3, int(agent)))
        return (coins, "paid") if payer == agent else (coins,)

    return Puzzle("dining", "Dining cryptographers", story, model, steps,
                  {i: f"diner {i}" for i in range(1, n + 1)}, _dining_world, examples,
                  "Everyone knows whether the NSA paid; if a diner paid, no other knows who.",
                  sees=sees)


def _dining_words(model: KripkeModel, i: int) -> str:
    return "\"Differ.\"" if model.holds(dining_parity(3, i)) else "\"Same.\""


def _dining_world(model: KripkeModel, index: int) -> str:
    world = int(model.world_ids[index])
    payer, flips = divmod(world, 8)
    who = "the NSA paid" if payer == 0 else f"diner {payer} paid"
    return f"{who}; coins " + " ".join("H" if flips >> i & 1 else "T" for i in range(3))


# --- three cards ---------------------------------------------------------------------------------

PLAYERS: dict[Agent, str] = {"a": "Anne", "b": "Bill", "c": "Cath"}


def cards(deal: str = "012") -> Puzzle:
    """The three cards 0, 1, 2 of van Ditmarsch, van der Hoek and Kooi's *Dynamic Epistemic
    Logic*; ``deal`` gives Anne's, Bill's and Cath's card in turn ("012": Anne 0, Bill 1)."""
    if sorted(deal) != ["0", "1", "2"]:
        raise ModelError(f"the deal gives the cards 0, 1, 2 to Anne, Bill and Cath in turn, "
                         f"e.g. 012 or 201, got {deal!r}")
    held = [int(c) for c in deal]
    model = three_cards([[c] for c in held])
    steps = (
        Step("Anne", f"shows Bill her card ({held[0]}); Cath sees that she shows him a card, "
             "not which.", event=shows_own_card("a", "b", held[0])),
        Step("Bill", f"shows Cath his card ({held[1]}); Anne sees that he shows her a card, "
             "not which.", event=shows_own_card("b", "c", held[1])),
    )
    story = ("Three cards 0, 1 and 2 are dealt to Anne, Bill and Cath, one each; each sees only "
             f"her or his own. Here Anne holds {held[0]}, Bill {held[1]}, Cath {held[2]}. Then "
             "cards are shown to one player while the third watches: she sees that a card is "
             "shown, not which. No world is removed, yet who knows what changes (the \"show\" "
             "of van Ditmarsch, van der Hoek and Kooi's Dynamic Epistemic Logic: six worlds "
             f"before and after). Atom a{held[0]} says Anne holds card {held[0]}; the agents are "
             "a, b and c.")
    a0 = f"a{held[0]}"
    examples = (f"K_b {a0}", f"K_c {a0} | K_c ~{a0}", "K_c (K_b a0 | K_b a1 | K_b a2)",
                f"K_a K_b {a0}", "C (K_b a0 | K_b a1 | K_b a2)")
    return Puzzle("cards", "Three cards", story, model, steps, PLAYERS, _three_cards_world,
                  examples, "Bill and Cath know the deal; Anne does not, though she knows "
                  "that both of them do. Six worlds throughout: a semi-private event changes "
                  "what the players know without removing a world.",
                  short=lambda m, i: "".join(_holders(m, i)))


def _holders(model: KripkeModel, index: int) -> list[str]:
    """Anne's, Bill's and Cath's card at a world, read off its atoms."""
    at = np.array([index])
    return [next(str(c) for c in range(3) if model.atom_values(f"{who}{c}", at)[0])
            for who in PLAYERS]


def _three_cards_world(model: KripkeModel, index: int) -> str:
    return ", ".join(f"{name} {card}" for name, card
                     in zip(PLAYERS.values(), _holders(model, index), strict=True))


# --- Alice reads a letter -------------------------------------------------------------------------

def reading(says: bool = True, may: bool = False) -> Puzzle:
    """A letter says p or not (``says``); Alice reads it while Bob watches, or (``may``)
    while Bob is out of the room, so he cannot tell whether she read it."""
    model = letter(says)
    knows = knows_whether("alice", Atom("p"))
    watched = ("reads the letter while Bob is out of the room: he cannot tell whether she "
               "read it." if may else "reads the letter; Bob sees her read it.")
    steps = (
        Step("Alice", watched, event=reads_letter(says, may)),
        Step("Alice", "I know what the letter says.", knows),
    )
    story = ("A sealed letter says whether p; neither Alice nor Bob knows which. Alice reads it "
             + ("while Bob is away: when he returns he cannot tell whether she did, so each "
                "world splits in two, read and not read (2 → 4). "
                if may else "in front of Bob, who cannot see the page: the two worlds stay "
                "(2 → 2), but Bob now knows that Alice knows whether p. ")
             + "Then she says that she knows what it says. Atom p says the letter says p.")
    examples = ("K_alice p", "K_bob (K_alice p | K_alice ~p)", "K_bob p | K_bob ~p",
                "C (K_alice p | K_alice ~p)", "M_bob ~(K_alice p | K_alice ~p)")
    ending = ("Alice knows what the letter says and Bob knows that she knows, yet not what it "
              "says: what Bob saw, or was told, is about Alice's knowledge, not about p.")

    def describe(m: KripkeModel, index: int) -> str:
        read = "Alice has read it" if m.holds(knows, index) else "Alice has not read it"
        return f"the letter says {'p' if m.holds('p', index) else 'not p'}; {read}"

    def short(m: KripkeModel, index: int) -> str:
        return ("p" if m.holds("p", index) else "¬p") + (" read" if m.holds(knows, index)
                                                         else "")

    return Puzzle("letter", "Reading a letter", story, model, steps,
                  {"alice": "Alice", "bob": "Bob"}, describe, examples, ending, short=short)


# --- false belief ------------------------------------------------------------------------------

def _believes(m: KripkeModel, agent: str, atom: str, index: int) -> str:
    """What the agent believes of an atom at a world, in words."""
    if m.holds(f"K_{agent} {atom}", index):
        return "yes"
    return "no" if m.holds(f"K_{agent} ~{atom}", index) else "does not know"


def sally_anne() -> Puzzle:
    """Sally and Anne (Baron-Cohen, Leslie and Frith 1985; in DEL, Bolander 2014). Worlds 1 →
    1 → 2. Step 1, Sally puts the marble in the basket and goes out: a public factual change
    (``sally_puts_marble``: basket := true, box := false), 1 world, now ``basket``. Step 2,
    Anne moves the marble to the box while Sally is out (``anne_moves_marble``): 2 worlds, the
    actual one ``w·move`` (box), the one Sally believes in ``w·skip`` (basket). Then
    ``K_sally basket`` (read: Sally believes it) is true and ``basket`` false; Anne knows the
    marble is in the box and that Sally believes it is in the basket
    (``K_anne (~basket & K_sally basket)``); Sally's relation is KD45, Anne's S5."""
    steps = (
        Step("Sally", "puts her marble in the basket and goes out for a walk; Anne sees it "
             "(basket := true).", event=sally_puts_marble()),
        Step("Anne", "moves the marble to the box while Sally is out; Sally believes nothing "
             "happened.", event=anne_moves_marble()),
    )
    story = ("Sally holds a marble; she and Anne watch it go into the basket. Sally goes out; "
             "Anne moves the marble to the box. Where will Sally look for it? Each move "
             "changes a fact (basket := true, then basket := false and box := true). The "
             "model after the move has two worlds: the real one (box) and the one Sally "
             "believes in (basket), since her arrows lead there: she believes something "
             "false. Atom basket: the marble is in the basket; box: in the box.")
    examples = ("K_sally basket", "basket", "K_anne ~basket", "K_anne K_sally basket",
                "B_sally box", "<sally> basket", "C_{sally,anne} basket")
    ending = ("Sally believes the marble is in the basket (K_sally basket) and it is not: a "
              "false belief, which an S5 model cannot hold. Anne knows both where it is and "
              "where Sally thinks it is. Sally's relation is KD45 (belief), Anne's S5.")

    def describe(m: KripkeModel, index: int) -> str:
        place = "in the basket" if m.holds("basket", index) else \
            "in the box" if m.holds("box", index) else "in Sally's hand"
        return f"the marble is {place}; Sally believes basket: " + \
            _believes(m, "sally", "basket", index)

    return Puzzle("sally-anne", "Sally and Anne", story, marble(), steps,
                  {"sally": "Sally", "anne": "Anne"}, describe, examples, ending)


def secret_coin() -> Puzzle:
    """The secret coin (van Ditmarsch, van der Hoek and Kooi's private look, with a secret
    flip after it). Worlds 2 → 4 → 8. Step 1, a looks under the cup and b believes nothing
    happened (``secret:a:heads``): 4 worlds; ``K_a heads`` and ``B_b ~(K_a heads | K_a
    ~heads)`` (b believes a does not know). Step 2, a turns the coin over in secret
    (``flip:a:heads``): 8 worlds (4 up to bisimulation); ``~heads & K_a ~heads``, b still
    believes a does not know and believes neither side. Every relation KD45."""
    steps = (
        Step("a", "looks under the cup; b believes nothing happened.",
             event=secret_look("a", "heads", ("a", "b"))),
        Step("a", "turns the coin over in secret; b believes nothing changed.",
             event=secret_flip("a", "heads", ("a", "b"))),
    )
    story = ("A coin lies under a cup, heads up; neither a nor b knows which side. a peeks "
             "while b looks away, and b believes nothing happened; then a turns the coin over, "
             "again unseen. Atom heads: the coin shows heads.")
    examples = ("K_a heads", "K_b ~(K_a heads | K_a ~heads)", "K_a ~heads", "M_b heads",
                "K_b heads | K_b ~heads")
    ending = ("a knows the coin now shows tails; b believes a never looked and believes "
              "neither side, the two beliefs b had at the start: b's beliefs did not change "
              "while the world and a's knowledge did.")

    def describe(m: KripkeModel, index: int) -> str:
        side = "heads" if m.holds("heads", index) else "tails"
        return f"{side} up; a knows the side: " + \
            ("yes" if m.holds("K_a heads | K_a ~heads", index) else "no")

    return Puzzle("coin", "The secret coin", story, covered_coin(), steps,
                  {"a": "a", "b": "b"}, describe, examples, ending)


def ice_cream() -> Puzzle:
    """Second-order false belief: Perner and Wimmer's ice-cream van ("John thinks that Mary
    thinks...", J. Exp. Child Psychology 39, 1985). Worlds 1 → 1 → 3. Step 1, Mary goes
    home: nothing anyone sees changes. Step 2 (``van_moves``): the van drives to the church;
    the driver tells John and, on his way, Mary, which John does not know: 3 worlds
    (``park·told``, the actual one; ``park·untold``; ``park·skip``). Then ``~park``, Mary
    and John both believe it (``B_mary ~park & B_john ~park``), and John believes Mary
    believes the van is still in the park (``B_john B_mary park``), which is false
    (``~B_mary park``): a false belief about a belief. Both relations KD45."""
    steps = (
        Step("Mary", "goes home; the van is in the park.", Top()),
        Step("Driver", "drives to the church, tells John, and on his way tells Mary; John "
             "does not know she was told.", event=van_moves()),
    )
    story = ("John and Mary see the ice-cream van in the park, and Mary goes home. The van "
             "drives to the church; its driver tells John, and on the way past Mary's house "
             "tells her too. John does not know that. Where does John think Mary will go to "
             "buy an ice cream? Atom park: the van is in the park.")
    examples = ("B_john B_mary park", "B_mary park", "B_john ~park", "B_mary ~park",
                "B_mary B_john ~park")
    ending = ("Both know the van is at the church, but John believes Mary still thinks it is "
              "in the park (B_john B_mary park): a second-order false belief, the test "
              "children pass about two years after Sally and Anne.")

    def describe(m: KripkeModel, index: int) -> str:
        place = "park" if m.holds("park", index) else "church"
        return f"the van is at the {place}; Mary believes park: " + \
            _believes(m, "mary", "park", index)

    return Puzzle("ice-cream", "The ice-cream van", story, van_in_park(), steps,
                  {"john": "John", "mary": "Mary"}, describe, examples, ending)


# --- belief revision ----------------------------------------------------------------------------
#
# Three stories from the literature on a plausibility model (kripke.explicit.plausibility): its
# steps are upgrades (⇑φ, ↑φ, a rank shift), which keep every world and move belief, and hard
# announcements !φ, which remove worlds.
#
# * The red bird (Darwiche and Pearl, "On the logic of iterated belief revision", 1997): radical
#   upgrades (Nayak's lexicographic revision) keep the belief that it is red, conservative ones
#   (Boutilier's natural revision) forget it: they differ on B_you red.
# * The whisper and the cup (van Benthem, "Dynamic logic for belief revision", 2007: hard
#   information !φ against soft ⇑φ): Bob's belief that Alice does not know survives the whisper
#   and dies when the cup is lifted.
# * The bluff (Spohn's ranking functions, "Ordinal conditional functions", 1988, as the open game
#   of design/open-game.md ranks deals): claims revise Bob's belief twice, a completion once more.

def _atoms_in_words(model: KripkeModel, index: int, atoms: tuple[str, ...]) -> str:
    """The atoms true in a world, in words (those false as 'not ...')."""
    return ", ".join(a if model.holds(a, index) else f"not {a}" for a in atoms)


def red_bird(kind: str = "radical") -> Puzzle:
    """Darwiche and Pearl's red bird, told with radical or conservative upgrades (``kind``).
    Four worlds (bird or not, red or not), one agent, "you", every world as plausible at the
    start; the animal is red and no bird. With ``radical`` the order ends ¬bird∧red <
    ¬bird∧¬red < bird∧red < bird∧¬red and ``B_you red`` is true; with ``conservative`` it
    ends {¬bird∧red, ¬bird∧¬red} < bird∧red < bird∧¬red and ``B_you red`` is false (so is
    ``B_you ~red``)."""
    if kind not in ("radical", "conservative"):
        raise ValueError(f"the red bird is told with radical or conservative upgrades, not "
                         f"{kind!r}")
    worlds = [{"bird", "red"}, {"bird"}, {"red"}, set()]
    model = PlausibilityModel.of(
        KripkeModel.from_worlds(worlds, {"you": [0, 0, 0, 0]}, actual=2),
        names=["bird·red", "bird·plain", "red", "plain"])
    symbol = UPGRADES[kind].format("")
    bird, red = Atom("bird"), Atom("red")
    steps = (
        Step("You", f"see a strange animal; it looks like a bird ({symbol}bird).",
             event=upgrade(kind, bird)),
        Step("You", f"see it come closer: it is red ({symbol}red).", event=upgrade(kind, red)),
        Step("Expert", f"It is not a bird ({symbol}¬bird).", event=upgrade(kind, Not(bird))),
    )
    story = ("Darwiche and Pearl (1997): we meet a strange animal that looks like a bird, so we "
             "believe it is one; it comes closer and we see it is red; then an expert tells us "
             "it is not a bird. Should we still believe it is red? Each piece of evidence is "
             f"soft, a {kind} upgrade (⇑: every φ-world above every other, their order kept; "
             "↑: only the best φ-worlds on top). Atoms: bird, red. Compare "
             f"'ttr-kripke puzzle red-bird --upgrade "
             f"{'conservative' if kind == 'radical' else 'radical'}'.")
    examples = ("B_you red", "B_you ~red", "B_you ~bird", "K_you red", "B_you[bird] red",
                "Sb_you red")
    ending = ("With radical upgrades you still believe the animal is red: being red was "
              "learnt apart from being a bird (Nayak's lexicographic revision). With "
              "conservative ones the belief is lost: only the best worlds moved, and the "
              "expert's word brings back every not-bird world as it was (Boutilier's natural "
              "revision, which Darwiche and Pearl criticise with this example)."
              if kind == "radical" else
              "With conservative upgrades the belief that it is red is lost: only the best "
              "worlds moved each time, so the expert's word brings back both not-bird worlds "
              "as equally plausible (Boutilier's natural revision). Radical upgrades keep it.")

    def describe(m: KripkeModel, index: int) -> str:
        return _atoms_in_words(m, index, ("bird", "red"))

    return Puzzle("red-bird", "The red bird", story, model, steps, {"you": "You"}, describe,
                  examples, ending)


def whisper() -> Puzzle:
    """Soft then hard information (van Benthem 2007). Two worlds, heads (actual) and tails;
    neither Alice nor Bob can tell them apart, and both find tails more plausible (it lay
    tails up yesterday). Start: ``B_alice ~heads`` (false), ``B_bob ~K_alice heads``. After
    the whisper, ⇑heads: ``B_alice heads & ~K_alice heads``, and ``B_bob ~K_alice heads``
    survives. After the cup is lifted, !heads: ``K_alice heads``, and ``B_bob ~K_alice
    heads`` is false: it died."""
    model = PlausibilityModel.of(
        KripkeModel.from_worlds([{"heads"}, set()], {"alice": [0, 0], "bob": [0, 0]},
                                actual=0),
        {"alice": [1, 0], "bob": [1, 0]}, names=["heads", "tails"])
    heads = Atom("heads")
    steps = (
        Step("A friend", "whispers to both: \"it is heads\" (soft: ⇑heads).",
             event=upgrade("radical", heads)),
        Step("Bob", "lifts the cup; both see heads (hard: !heads).", heads),
    )
    story = ("van Benthem (2007): hard information (!φ) removes the worlds where φ fails; soft "
             "information (⇑φ) keeps every world and makes the φ-worlds more plausible. A coin "
             "lies under a cup; it lay tails up yesterday, so Alice and Bob both believe tails. "
             "A friend whispers that it is heads; then Bob lifts the cup. Atom heads: the "
             "coin shows heads.")
    examples = ("B_alice heads", "K_alice heads", "B_bob ~K_alice heads", "Sb_alice heads",
                "B_alice[~heads] ~heads", "<B_alice>~heads")
    ending = ("After the whisper Alice believes heads but does not know it, and Bob's belief "
              "that she does not know survives: soft information makes belief, not "
              "knowledge. Lifting the cup is hard information: she knows, and Bob's belief "
              "that she does not is gone.")

    def describe(m: KripkeModel, index: int) -> str:
        return "heads up" if m.holds("heads", index) else "tails up"

    return Puzzle("whisper", "The whisper and the cup", story, model, steps,
                  {"alice": "Alice", "bob": "Bob"}, describe, examples, ending)


#: The bluff's tickets and the claims each one explains.
TICKETS = ("north", "south", "west")


def bluff() -> Puzzle:
    """Spohn's ranks, revised again and again (the open game in small). Alice holds one of
    three tickets, north (actual), south or west; Bob cannot tell which, and every ticket is
    as plausible (rank 0). Claim 1 is explained by north or south: west drops to rank 1.
    Claim 2, a bluff, is explained by south or west only: north drops to 1. Ranks north 1,
    south 0, west 1: ``B_bob south`` (false) and ``~K_bob south``. Alice completes north
    (hard, !north): ``K_bob north`` and the belief in south is gone."""
    model = PlausibilityModel.of(
        KripkeModel.from_worlds([{t} for t in TICKETS], {"bob": [0, 0, 0], "alice": [0, 1, 2]},
                                actual=0),  # Bob first: the picture shows his order
        names=list(TICKETS))
    north, south, west = (Atom(t) for t in TICKETS)
    steps = (
        Step("Alice", "claims a route on the way north and south (shift: north ∨ south).",
             event=upgrade("shift", Or(north, south))),
        Step("Alice", "claims a route only south or west would need, a bluff (shift: south ∨ "
             "west).", event=upgrade("shift", Or(south, west))),
        Step("Alice", "completes her ticket: north (hard: !north).", north),
    )
    story = ("Spohn (1988) ranks each world by how surprising it would be; the open game of "
             "this project ranks each deal by the claims it leaves unexplained. Alice holds one "
             "ticket, north, south or west; Bob cannot see it. Each claim Alice makes is "
             "explained by some tickets; the others drop one rank. Bob believes what holds in "
             "the tickets of least rank. Atoms north, south, west: Alice's ticket.")
    examples = ("B_bob south", "K_bob south", "B_bob[~south] north", "B_bob ~west",
                "K_alice north", "<B_bob>north")
    ending = ("Two claims made south the only ticket explaining both, so Bob believed south, "
              "falsely: a bluff planted it. The completed ticket is hard information: Bob now "
              "knows north, and the belief in south is revised away.")

    def describe(m: KripkeModel, index: int) -> str:
        return "Alice holds " + next(t for t in TICKETS if m.holds(t, index))

    return Puzzle("bluff", "The bluff", story, model, steps,
                  {"alice": "Alice", "bob": "Bob"}, describe, examples, ending)


# --- the gallery --------------------------------------------------------------------------------

#: Each puzzle's title, without building it.
TITLES = {"muddy": "Muddy children", "cheryl": "Cheryl's birthday",
          "sum-product": "Sum and Product", "russian": "Russian cards",
          "consecutive": "Consecutive numbers", "attack": "Coordinated attack",
          "dining": "Dining cryptographers", "cards": "Three cards", "letter": "Reading a letter",
          "sally-anne": "Sally and Anne", "coin": "Secret coin", "ice-cream": "Ice-cream van",
          "red-bird": "The red bird", "whisper": "The whisper and the cup",
          "bluff": "The bluff"}

#: Each puzzle with its default settings, in the order the gallery shows them.
GALLERY: dict[str, Callable[[], Puzzle]] = {
    "muddy": lambda: muddy(4, (0, 1, 2, 3)),
    "cheryl": cheryl_birthday,
    "sum-product": sum_and_product,
    "russian": russian,
    "consecutive": consecutive,
    "attack": coordinated_attack,
    "dining": dining,
    "cards": cards,
    "letter": reading,
    "sally-anne": sally_anne,
    "coin": secret_coin,
    "ice-cream": ice_cream,
    "red-bird": red_bird,
    "whisper": whisper,
    "bluff": bluff,
}


def russian_safe_count() -> tuple[int, int]:
    """(safe, candidates): how many of Alice's candidate announcements are safe (102, 1,290)."""
    model = russian_cards()
    candidates = list(russian_announcements())
    return sum(russian_safe(model, hands) for hands in candidates), len(candidates)
