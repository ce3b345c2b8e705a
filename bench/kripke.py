"""The model checker's targets (issues 3 and 15) on this machine, as one table, with the
explicit and the symbolic backend side by side wherever both fit.

Explicit: the 4 agents × 4 tickets deal (63,063,000 worlds): build time and peak memory, one
public announcement and K_a over all worlds; the 3 × 3 deal built and updated. Both: muddy
children (the whole story: the father, then silence until the children know), the dining
cryptographers (reveals, then whether everyone knows if the NSA paid and nobody who did),
Russian cards (SMCDEL's 1,290 candidate announcements checked for safety), Sum and Product
(the three statements), and the 4 × 4 and 5 × 4 ticket deals with an announcement and a K_a.
Belief (issue 36): a random 100,000-world model with any relations, a private announcement,
K_a, C_G and its contraction up to bisimulation.
Symbolic belief (issue 46), in CPU seconds: the 5 × 4 deal as a belief structure after a secret
look and a private announcement (build, each update, frame classes, each K/B check), and
SMCDEL's benchmarks on the same work: gossip on belief structures
(``kripke.puzzles.gossip``), the dining cryptographers at n = 90 and 160 and muddy children at
n = 40.
Rows without a target are there for comparison. Small cases report the best of several runs,
since a millisecond timer on a shared machine measures the neighbours as much as the code.

Run: ``ttr-kripke bench kripke [--skip-4x4] [--quick]``.
"""

from __future__ import annotations

import argparse
import resource
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np

from agents.tables import Table
from bench.report import Report
from kripke import Atom, Knows, Or, deal_count, deal_model, symbolic_deal
from kripke.events.model import EventModel, private_announcement, shows_card
from kripke.factory import belief_structure, listed_model
from kripke.interface import EpistemicModel
from kripke.parts import Drawn
from kripke.puzzles.classic import (
    dining_cryptographers,
    dining_cryptographers_symbolic,
    dining_outcome,
    muddy_children,
    muddy_children_symbolic,
    muddy_story,
    russian_announcements,
    russian_cards,
    russian_cards_symbolic,
    russian_safe,
    sum_and_product,
    sum_and_product_story,
    sum_and_product_symbolic,
)

type Row = tuple[str, str, str, str, str]

GIB = 1 << 30


def _reset_peak_memory() -> bool:
    """Reset the kernel's peak-RSS mark (Linux), so the 4 × 4 peak is its own, not the run's."""
    try:
        Path("/proc/self/clear_refs").write_text("5")
    except OSError:
        return False
    return True


def _peak_memory() -> int:
    """Peak resident memory in bytes since the last reset (or since the process began)."""
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) * 1024
    except OSError:
        pass
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024


def _best_of[T](run: Callable[[], T], repeats: int) -> tuple[T, float]:
    """The result and the fastest of ``repeats`` runs: the neighbours only ever add time."""
    best = float("inf")
    for _ in range(repeats):
        start = time.perf_counter()
        result = run()
        best = min(best, time.perf_counter() - start)
    return result, best


def _row(case: str, measured: float, target: float | None, unit: str,
         backend: str = "explicit") -> Row:
    """measured and target in seconds (or GiB); shown in ``unit``, or in ms when a time is
    under a tenth of a second. No target: no verdict."""
    if unit == "s" and measured < 0.1:
        unit = "ms"
    scale = 1e3 if unit == "ms" else 1.0
    if target is None:
        return case, backend, f"{measured * scale:.2f} {unit}", "—", "—"
    return (case, backend, f"{measured * scale:.2f} {unit}", f"≤ {target * scale:g} {unit}",
            "yes" if measured <= target else "NO")


def four_by_four() -> list[Row]:
    """Build the 63,063,000-world deal, announce once, evaluate one K_a over all worlds."""
    reset = _reset_peak_memory()
    hands = [range(4 * i, 4 * i + 4) for i in range(4)]
    model, build = _best_of(lambda: deal_model(range(16), [4, 4, 4, 4], hands), 1)
    assert model.n_worlds == deal_count(16, [4, 4, 4, 4]) == 63_063_000
    # The game's claim inference: agent 1 holds one of the tickets the claimed connection serves.
    claim = Or.of([Atom("p", (1, t)) for t in (4, 5, 6)])
    after, announce = _best_of(lambda: model.announce(claim), 3)
    # K_a of what one other agent observes takes the class-level path; a formula about two
    # agents' hands needs the general scatter-and-gather over the worlds.
    knows, k_time = _best_of(lambda: model.values(Knows(2, ~Atom("p", (1, 5)))), 3)
    mixed = Knows(2, ~(Atom("p", (1, 5)) & Atom("p", (3, 6))))
    mixed_knows, mixed_time = _best_of(lambda: model.values(mixed), 3)
    peak = _peak_memory()
    memory_case = "deal 4×4: peak memory (build, announce, both K_a)"
    if not reset:
        memory_case += " [whole run]"
    announced = f"deal 4×4: announce {claim} → {after.n_worlds:,} worlds (best of 3)"
    known = (f"deal 4×4: K_2 ~p(1,5) over all worlds, {model.count_values(knows):,} true "
             "(best of 3)")
    mixed_known = (f"deal 4×4: {mixed} over all worlds, {model.count_values(mixed_knows):,} "
                   "true (best of 3)")
    return [
        _row(f"deal 4×4: build {model.n_worlds:,} worlds", build, 10.0, "s"),
        _row(announced, announce, 1.0, "s"),
        _row(known, k_time, 1.0, "s"),
        _row(mixed_known, mixed_time, 1.0, "s"),
        _row(memory_case, peak / GIB, 4.0, "GiB"),
    ]


def three_by_three() -> Row:
    """Build the 1,680-world deal and take one announcement, as a game does at its start."""
    hands = [range(0, 3), range(3, 6), range(6, 9)]

    def run() -> EpistemicModel:
        model = deal_model(range(9), [3, 3, 3], hands)
        return model.announce(Knows(0, Atom("p", (0, 1))) & Atom("p", (1, 4)))

    assert run().n_worlds < 1680
    return _row("deal 3×3: build 1,680 worlds + 1 announcement (best of 50)",
                _best_of(run, 50)[1], 0.005, "ms")


def muddy(n: int, build: Callable[[int, range], EpistemicModel], backend: str,
          target: float | None) -> Row:
    """Muddy children, all n muddy (the longest story): the father speaks, then n-1 rounds of
    silence, after which every child knows it is muddy."""

    def run() -> None:
        _, rounds, knowers = muddy_story(build(n, range(n)), n)
        assert rounds == n - 1 and len(knowers) == n

    repeats = 1 if backend == "explicit" and n > 12 else 5
    return _row(f"muddy children n={n}: build + {n} announcements (best of {repeats})",
                _best_of(run, repeats)[1], target, "s", backend)


def dining(n: int, build: Callable[[int, int, list[bool]], EpistemicModel], backend: str
           ) -> Row:
    """The dining cryptographers: cryptographer 1 paid; reveals, then the two checks."""
    coins = [i % 3 == 0 for i in range(n)]

    def run() -> None:
        assert dining_outcome(build(n, 1, coins), n) == (True, True)

    return _row(f"dining cryptographers n={n}: build, reveal, n² checks (best of 3)",
                _best_of(run, 3)[1], None, "s", backend)


def russian(build: Callable[[], EpistemicModel], backend: str) -> Row:
    """All 1,290 candidate announcements checked for safety: 102 are safe."""
    candidates = list(russian_announcements())
    model = build()

    def run() -> int:
        return sum(russian_safe(model, hands) for hands in candidates)

    safe, seconds = _best_of(run, 3)
    assert safe == 102
    return _row("Russian cards: 102 safe of 1,290 announcements (best of 3)", seconds, 1.0, "s",
                backend)


def sum_product(build: Callable[[], EpistemicModel], backend: str) -> Row:
    """Build the 2,352 pairs, then the three statements leave 4 and 13."""

    def run() -> None:
        assert sum_and_product_story(build()).n_worlds == 1

    return _row("Sum and Product: build + 3 announcements → 1 pair (best of 3)",
                _best_of(run, 3)[1], None, "s", backend)


def symbolic_deals(players: int, target: float | None) -> list[Row]:
    """A players × 4 ticket deal on the symbolic backend: build, announce a claim, one K_a."""
    n = 4 * players
    hands = [range(4 * i, 4 * i + 4) for i in range(players)]
    model, build = _best_of(lambda: symbolic_deal(range(n), [4] * players, hands), 3)
    assert model.n_worlds == deal_count(n, [4] * players)
    claim = Or.of([Atom("p", (1, t)) for t in (4, 5, 6)])
    # One run each: CUDD keeps the results of recent operations, so a second run would
    # measure its cache.
    after, announce = _best_of(lambda: model.announce(claim), 1)
    mixed = Knows(2, ~(Atom("p", (1, 5)) & Atom("p", (3, 6))))
    true, k_time = _best_of(lambda: model.count(mixed), 1)
    size = f"{players}×4"
    return [
        _row(f"deal {size}: build {model.n_worlds:,} deals (best of 3)", build, target, "s",
             "symbolic"),
        _row(f"deal {size}: announce {claim} → {after.n_worlds:,}", announce, target, "s",
             "symbolic"),
        _row(f"deal {size}: {mixed}, true in {true:,} deals", k_time, target, "s", "symbolic"),
    ]


def card_shown() -> list[Row]:
    """Player 0 shows player 1 one of its cards while the others see that a card is shown:
    the product update with one event per card (``kripke.events.model.shows_card``), each deal
    becoming one world per card player 0 holds."""
    deal = deal_model(range(12), [3] * 4, [range(3 * i, 3 * i + 3) for i in range(4)])
    after, explicit = _best_of(lambda: deal.update(shows_card(0, 1, range(12), 2)), 1)
    assert after.n_worlds == 3 * deal.n_worlds
    big = symbolic_deal(range(20), [4] * 5, [range(4 * i, 4 * i + 4) for i in range(5)])
    shown, symbolic = _best_of(lambda: big.update(shows_card(0, 1, range(20), 2)), 1)
    assert shown.n_worlds == 4 * big.n_worlds
    return [
        _row(f"deal 4×3: a card shown, {deal.n_worlds:,} → {after.n_worlds:,} worlds",
             explicit, None, "s"),
        _row(f"deal 5×4: a card shown, {big.n_worlds:,} → {shown.n_worlds:,} worlds",
             symbolic, 1.0, "s", "symbolic"),
    ]


def _cpu[T](run: Callable[[], T]) -> tuple[T, float]:
    """The result and the CPU seconds it took (``time.process_time``): CUDD runs in this one
    thread, so the figure is the work done, whatever else the shared machine runs."""
    start = time.process_time()
    result = run()
    return result, time.process_time() - start


def smcdel_rows() -> list[Row]:
    """SMCDEL's benchmarks on the same work (issue 46), in CPU seconds: gossip on belief
    structures (``kripke.puzzles.gossip``, GossipKw's definition; the answers are its ``succeeds``),
    the dining cryptographers at n = 90 and 160 and muddy children at n = 40 on knowledge
    structures. SMCDEL's documentation: 16.2 s for one gossip sequence, 1.10 s for n = 90."""
    from kripke.puzzles.gossip import succeeds

    rows = []
    for calls, expected in (([(1, 2), (3, 4), (1, 3), (2, 4)], True),
                            ([(1, 2), (3, 4), (1, 3)], False)):
        answer, seconds = _cpu(lambda: succeeds(calls))  # noqa: B023
        assert answer == expected
        said = " ".join(f"{a}{b}" for a, b in calls)
        rows.append(_row(f"gossip n=4 (belief): calls {said}, everyone knows all: {answer} "
                         "(CPU)", seconds, 1.6, "s", "symbolic"))
    for n, goal in ((90, 0.5), (160, 2.0)):
        coins = [i % 3 == 0 for i in range(n)]
        outcome, seconds = _cpu(lambda: dining_outcome(  # noqa: B023
            dining_cryptographers_symbolic(n, 1, coins), n))  # noqa: B023
        assert outcome == (True, True)
        rows.append(_row(f"dining cryptographers n={n}: build, reveal, n² checks (CPU)",
                         seconds, goal, "s", "symbolic"))
    (_, rounds, knowers), seconds = _cpu(
        lambda: muddy_story(muddy_children_symbolic(40, range(40)), 40))
    assert rounds == 39 and len(knowers) == 40
    rows.append(_row("muddy children n=40: build + 40 announcements (CPU)", seconds, 0.1, "s",
                     "symbolic"))
    return rows


def belief_deal() -> list[Row]:
    """Issue 46's game scale: the 5 × 4 deal (305,540,235,000 deals) as a belief structure
    (``kripke.symbolic.belief``), player 0 looking at p(1,7) in secret (the others believe
    nothing happened), then player 2 learning in private that player 1 holds card 4, and a
    K/B check at each step, in CPU seconds (:func:`_cpu`)."""
    from kripke.events.model import secret_look

    timed = _cpu
    hands = [range(4 * i, 4 * i + 4) for i in range(5)]
    model, build = timed(lambda: belief_structure(symbolic_deal(range(20), [4] * 5, hands)))
    looked, look = timed(lambda: model.update(secret_look(0, "p(1,7)", model.agents)))
    told, tell = timed(lambda: looked.update(private_announcement(2, "p(1,4)", model.agents)))
    rows = [_row(f"belief deal 5×4: build {model.n_worlds:,} deals (CPU)", build, 1.0, "s",
                 "symbolic"),
            _row(f"belief deal 5×4: secret:0:p(1,7) → {looked.n_worlds:,} worlds (CPU)", look,
                 1.0, "s", "symbolic"),
            _row(f"belief deal 5×4: private:2:p(1,4) → {told.n_worlds:,} worlds (CPU)", tell,
                 1.0, "s", "symbolic")]
    classes, frames = timed(lambda: [looked.frame_class(a) for a in looked.agents])
    assert classes == ["S5", "KD45", "KD45", "KD45", "KD45"]
    rows.append(_row(f"belief deal 5×4 after the secret look: frame classes {' '.join(classes)} "
                     "(CPU)", frames, 1.0, "s", "symbolic"))
    for where, after, formula in ((looked, "secret look", "K_0 p(1,7) & K_2 ~K_0 p(1,7)"),
                                  (told, "private", "B_0 ~K_2 p(1,4) & K_2 p(1,4)")):
        holds, check = timed(lambda: where.holds(formula))  # noqa: B023
        assert holds
        rows.append(_row(f"belief deal 5×4 after the {after}: {formula}, true (CPU)", check,
                         1.0, "s", "symbolic"))
    return rows


def random_belief(n: int = 100_000, arrows: int = 3, seed: int = 36) -> Drawn:
    """A belief model of ``n`` worlds: three agents, each with ``arrows`` random arrows from
    every world and four atoms true at random, seeded; the actual world is the first where
    p0 holds. Nothing in it is regular, so no checker gets a shortcut."""
    rng = np.random.default_rng(seed)
    worlds = np.repeat(np.arange(n), arrows)
    relations = {agent: np.stack([worlds, rng.integers(0, n, worlds.size)], axis=1)
                 for agent in "abc"}
    valuation = {f"p{i}": rng.random(n) < 0.5 for i in range(4)}
    return listed_model(valuation, relations, int(np.argmax(valuation["p0"])))


def belief_rows() -> list[Row]:
    """Issue 36's targets on a 100,000-world belief model (per-agent CSR matrices): a private
    announcement, K_a and C_G over all worlds, and the contraction up to bisimulation."""
    model = random_belief()
    after, private = _best_of(
        lambda: model.update(private_announcement("a", "p0", model.agents)), 3)
    knows, k_time = _best_of(lambda: model.values("K_a p0"), 3)
    common, c_time = _best_of(lambda: model.values("C_{a,b} (p0 | p1)"), 3)
    small, minimise = _best_of(model.minimised, 1)
    return [
        _row(f"belief {model.n_worlds:,} worlds: private:a:p0 → {after.n_worlds:,} worlds "
             "(best of 3)", private, 1.0, "s"),
        _row(f"belief {model.n_worlds:,}: K_a p0 over all worlds, {model.count_values(knows):,} "
             "true (best of 3)", k_time, 1.0, "s"),
        _row(f"belief {model.n_worlds:,}: C_{{a,b}} (p0 | p1), {model.count_values(common):,} true "
             "(best of 3)", c_time, 1.0, "s"),
        _row(f"belief {model.n_worlds:,}: minimised → {small.n_worlds:,} worlds", minimise,
             2.0, "s"),
    ]


def s5_model(n: int, seed: int) -> Drawn:
    """``n`` worlds, p and q true at random, a seeing p, b seeing nothing (one class of n:
    n² arrows, were it listed as arrows), seeded."""
    rng = np.random.default_rng(seed)
    p, q = rng.random(n) < 0.5, rng.random(n) < 0.5
    return listed_model({"p": p, "q": q}, {"a": p.astype(np.int64),
                                           "b": np.zeros(n, dtype=np.int64)},
                        int(np.argmax(q)))


def dense_belief(n: int, believed: int, seed: int) -> Drawn:
    """``n`` worlds: a's classes of ``believed`` worlds each (kept as classes), b believing
    from every world the same ``believed`` worlds (n · believed arrows, stored), seeded."""
    rng = np.random.default_rng(seed)
    chosen = rng.choice(n, believed, replace=False)
    pairs = np.stack([np.repeat(np.arange(n), believed), np.tile(chosen, n)], axis=1)
    keys = np.arange(n) // believed
    return listed_model({"p": rng.random(n) < 0.5}, {"a": keys, "b": pairs}, 0)


def classes_rows() -> list[Row]:
    """Issue 44's targets: relations kept by classes (an S5 part never listed as arrows). A
    private event on 20,000 S5 worlds (over 120 s at 2,000 before), minimising 100,000 (asked
    37 GiB), the frame class of a dense 10,000-world belief model (170 s), what printing a
    dense 2,000-world one asks (its frame class and dead ends: 82.6 s), and the audit's
    events b cannot tell apart (18,500 worlds that held 342 million arrows)."""
    s5 = s5_model(20_000, seed=44)
    private = private_announcement("a", "q", ["b"])
    after, event_time = _best_of(lambda: s5.update(private), 3)
    big = s5_model(100_000, seed=45)
    small, minimise = _best_of(big.minimised, 1)
    dense = dense_belief(10_000, 1_000, seed=46)
    frame, frame_time = _best_of(dense.frame_class, 1)  # once: a model keeps its answer
    printed = dense_belief(2_000, 1_000, seed=47)
    _, print_time = _best_of(lambda: (printed.frame_class(), printed.frame_class("b"),
                                      [printed.dead_ends(a) for a in printed.agents]), 1)
    audit = s5_model(1_850, seed=48)
    ten = EventModel.of({f"e{i}": "true" for i in range(10)}, {"b": [[f"e{i}" for i in
                                                                     range(10)]]},
                        arrows={"a": [(f"e{i}", "e0") for i in range(10)]})
    product, audit_time = _best_of(lambda: audit.update(ten), 3)
    return [
        _row(f"classes: private:a:q on {s5.n_worlds:,} S5 worlds → {after.n_worlds:,} "
             "(best of 3)", event_time, 2.0, "s"),
        _row(f"classes: minimise {big.n_worlds:,} S5 worlds → {small.n_worlds:,}", minimise,
             5.0, "s"),
        _row(f"classes: frame class of {dense.n_worlds:,} dense belief worlds ({frame}, "
             "b believing the same 1,000 from each)", frame_time, 2.0, "s"),
        _row(f"classes: print {printed.n_worlds:,} dense belief worlds (frame class, dead "
             "ends)", print_time, 1.0, "s"),
        _row(f"classes: 10 events b cannot tell apart on {audit.n_worlds:,} S5 worlds → "
             f"{product.n_worlds:,} (best of 3)", audit_time, 1.0, "s"),
    ]


def main(argv: list[str]) -> Report:
    parser = argparse.ArgumentParser(prog="ttr-kripke bench kripke", description=__doc__)
    parser.add_argument("--skip-4x4", action="store_true",
                        help="leave out the explicit 63M-world deal")
    parser.add_argument("--quick", action="store_true",
                        help="leave out the explicit rows that take seconds (muddy n=20)")
    args = parser.parse_args(argv)
    rows = [three_by_three()]
    for n in (10, 20, 40):
        if n <= 12 or (n == 20 and not args.quick):
            rows.append(muddy(n, muddy_children, "explicit", None))
        rows.append(muddy(n, muddy_children_symbolic, "symbolic", 1.0 if n == 40 else None))
    rows += [dining(10, dining_cryptographers, "explicit"),
             dining(10, dining_cryptographers_symbolic, "symbolic"),
             dining(50, dining_cryptographers_symbolic, "symbolic")]
    rows += [russian(russian_cards, "explicit"), russian(russian_cards_symbolic, "symbolic")]
    rows += [sum_product(sum_and_product, "explicit"),
             sum_product(sum_and_product_symbolic, "symbolic")]
    if not args.skip_4x4:
        rows += four_by_four()
    rows += symbolic_deals(4, None) + symbolic_deals(5, 1.0)
    rows += card_shown()
    rows += belief_deal()
    rows += smcdel_rows()
    rows += belief_rows()
    rows += classes_rows()
    return Report((Table.of(("case", "backend", "measured", "target", "ok"), rows),),
                  status=0 if all(row[4] in ("yes", "—") for row in rows) else 1)
