"""The open game (``design/open-game.md``): its rules, the shared rank worked by hand on the tiny
board, belief revised by hard information, both backends giving the same answers, its agent
kinds, its log and its command line.

The hand-worked position (tiny board, 3 players, 1 ticket each: 6 deals). Player 0 holds F–H,
player 1 E–G, player 2 A–D. Player 1 bluffs: it claims A–B, which lies on its shortest paths
for A–D only (A–B–D, A–C–D and A–D tie at 4 trains; E–G and F–H never use it). The claim's
inference is p(1,0) ("1 holds A–D"): false, so the actual deal drops to rank 1, with the three
other deals where 1 does not hold A–D; the two where it does stay at rank 0. Player 0's class
(it holds F–H) is the actual deal (rank 1) and the deal where 1 holds A–D and 2 holds E–G (rank
0): player 0 believes p(1,0), falsely, and knows nothing more. Player 2's class (it holds A–D)
has two deals of rank 1: it believes only what it knows.
"""

from __future__ import annotations

import random

import numpy as np
import pytest
from positions import CONN, TICKET, arrange, cards, hand, tiny_board

from agents import log
from agents.belief import BeliefTally, BeliefWatch, FalseBelief
from agents.kinds import AgentKind
from agents.model import TTRModel
from agents.policies import BLUFF_LENGTH, bluff_connections
from app.cli.main import main
from game.actions import Claim, DeclareBlock, DrawDeck
from game.cards import card_index
from game.knowledge import AnnouncementKind, Backend, ticket_atom
from game.open_state import OpenState
from game.rules import OpenRules
from game.table import IllegalAction
from kripke import deal_model, parse, ranked_deal, symbolic_deal
from kripke.parts import Leveled
from kripke.reference import Structure
from lab.games import LabSpec, play_lab_game

BACKENDS = [Backend.EXPLICIT, Backend.SYMBOLIC]
AD, EG, FH = TICKET["AD"], TICKET["EG"], TICKET["FH"]


def bluffed(backend: Backend) -> OpenState:
    """The module docstring's position, right after player 1's bluff."""
    state = OpenState(OpenRules(board=tiny_board(), players=3, tickets_each=1), 0, backend)
    arrange(state, tickets={0: [FH], 1: [EG], 2: [AD]}, current=1,
            hands={0: hand(blue=2), 1: hand(red=2)}, pile=cards(*["white"] * 10))
    bluff = Claim(CONN["AB"], card_index("red"), 0)
    assert bluff in state.legal_actions(), "any claim the hand pays for is legal"
    assert CONN["AB"] not in state.own_connections(1), "and this one is a bluff"
    event = state.apply(bluff)
    assert event.turn_over
    return state


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_bluff_is_legal_and_shifts_the_ranks_as_worked_by_hand(backend):
    state = bluffed(backend)
    [said] = state.announced
    assert said.kind is AnnouncementKind.SHIFT and said.formula == ticket_atom(1, AD)
    assert (said.worlds_before, said.worlds_after) == (6, 6), "evidence removes no deal"
    worlds = state.worlds
    assert worlds.rank_counts() == (2, 4)
    assert worlds.actual_rank() == 1
    assert [worlds.best_rank(p) for p in range(3)] == [0, 1, 1]
    assert state.believed(0) == ((1, AD), (2, EG)) and state.known(0) == ()
    assert state.believed(2) == () and state.known(2) == ()
    assert worlds.holds("B_0 p(1,0)") and not worlds.holds("K_0 p(1,0)")
    assert not worlds.holds("p(1,0)"), "the belief is false"
    assert worlds.holds("B_0 p(2,5)") and not worlds.holds("B_2 p(1,0)")
    assert worlds.holds("B_0[p(2,0)] p(1,5)"), "believed in the best deals where 2 holds A–D"
    assert not worlds.holds("Sb_0 p(1,0)"), "the actual deal is less plausible than the best"
    assert worlds.count("B_0 p(1,0)") == 4  # at the 2 deals where 0 holds F–H or E–G each


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_block_on_a_false_belief_is_legal_and_keeps_the_actual_deal(backend):
    state = bluffed(backend)
    state.apply(DrawDeck())
    state.apply(DrawDeck())  # player 2's turn
    assert state.current == 0
    block = DeclareBlock(Claim(CONN["BD"], card_index("blue"), 0), 1, AD)
    assert block in state.legal_actions()
    with pytest.raises(IllegalAction, match="does not believe it"):
        state.apply(DeclareBlock(block.claim, 2, AD))
    state.apply(block)
    said = state.announced[-1]
    assert said.kind is AnnouncementKind.BLOCK and str(said.formula) == "B_0 p(1,0)"
    # it removes the 2 deals where player 0 holds A–D (there it would believe nothing of
    # player 1, both deals of its class having rank 1), never the actual one
    assert (said.worlds_before, said.worlds_after) == (6, 4)
    assert state.worlds.holds(parse("p(0,6) & p(1,5) & p(2,0)"))
    # player 1 (E–G) could not tell whether 0 held F–H or A–D: the block tells it
    assert set(state.known(1)) == {(0, FH), (2, AD)} and state.known(2) == ()


@pytest.mark.parametrize("backend", BACKENDS)
def test_hard_information_against_a_belief_revises_it(backend):
    state = bluffed(backend)
    assert state.believed(0) == ((1, AD), (2, EG))
    state.announce("p(1,5)")  # as player 1's completion of E–G would
    assert set(state.believed(0)) == {(1, EG), (2, AD)} == set(state.known(0))
    assert state.worlds.holds("B_0 p(1,5)") and state.worlds.best_rank(0) == 1


def test_claims_in_the_simplified_game_shift_nothing():
    """In the simplified game a claim is announced (hard), and the open game's kinds play
    there without bluffing: their claims are all allowed ones."""
    model = TTRModel(players=3, agent_kinds="bluffer", rng=4)
    model.run()
    kinds = {a.kind for t in model.history for a in t.announcements}
    assert AnnouncementKind.CLAIM in kinds and AnnouncementKind.SHIFT not in kinds


def _same_answers(explicit: TTRModel, symbolic: TTRModel, formulas: list[str]) -> None:
    e, s = explicit.state, symbolic.state
    assert e.worlds.rank_counts() == s.worlds.rank_counts()
    assert e.worlds.actual_rank() == s.worlds.actual_rank()
    for p in range(e.rules.players):
        assert e.worlds.best_rank(p) == s.worlds.best_rank(p)
        assert e.believed(p) == s.believed(p) and e.known(p) == s.known(p)
    for f in formulas:
        assert e.worlds.count(f) == s.worlds.count(f), f
        assert e.worlds.holds(f) == s.worlds.holds(f), f


@pytest.mark.parametrize("seed", range(3))
def test_both_backends_play_the_same_open_game_and_answer_alike(seed):
    models = [TTRModel(players=3, tickets_each=2, agent_kinds="believer,bluffer,sceptic",
                       rng=seed, backend=b, variant="open") for b in BACKENDS]
    explicit, symbolic = models
    tickets = [t.id for t in explicit.state.dealt_tickets]
    rng = random.Random(seed)
    shifts = 0
    while explicit.running:
        for m in models:
            m.step()
        assert [a.text for a in explicit.history[-1].announcements] == \
            [a.text for a in symbolic.history[-1].announcements]
        shifts += sum(a.kind == AnnouncementKind.SHIFT
                      for a in explicit.history[-1].announcements)
        i, j = rng.sample(range(3), 2)
        t, u = rng.sample(tickets, 2)
        _same_answers(explicit, symbolic, [
            f"B_{i} p({j},{t})", f"B_{i}[p({j},{u})] p({i},{t})", f"Sb_{i} !p({j},{t})",
            f"<B_{i}> p({j},{t})", f"B_{i} B_{j} p({i},{t})", f"K_{i} p({j},{t})"])
    assert not symbolic.running and shifts > 5
    for listed in symbolic.worlds.as_list(), symbolic.worlds.listed({}):
        assert np.array_equal(listed.world_ids, explicit.worlds.world_ids)
        assert np.array_equal(listed.shared_rank(), explicit.worlds.shared_rank())
    for r in range(len(explicit.worlds.rank_counts())):  # per class and rank: the shading
        for p in range(3):
            assert np.array_equal(
                explicit.worlds.class_sizes(p, explicit.worlds.rank_values(r)),
                symbolic.worlds.class_sizes(p, symbolic.worlds.rank_values(r)))


@pytest.mark.parametrize("seed", range(30))
def test_random_ranked_deals_agree_with_the_plausibility_reference(seed):
    """Random small deals, random evidence and announcements: the explicit ranked deal, the
    symbolic one and the plausibility reference (from the definitions) agree at every deal."""
    rng = random.Random(seed)
    n, sizes = rng.choice([(4, [1, 1, 2]), (5, [2, 2, 1]), (6, [2, 2, 2]), (5, [1, 1, 1])])
    cards_ = list(range(n))
    rng.shuffle(cards_)
    actual = [cards_[sum(sizes[:i]):sum(sizes[:i + 1])] for i in range(len(sizes))]
    atoms = [f"p({a},{c})" for a in range(len(sizes)) for c in range(n)]
    explicit = ranked_deal(deal_model(range(n), sizes, actual))
    symbolic = ranked_deal(symbolic_deal(range(n), sizes, actual))
    for _ in range(rng.randint(1, 5)):
        said = " | ".join(rng.sample(atoms, rng.randint(1, 3)))
        if rng.random() < 0.8:
            explicit, symbolic = explicit.shift(said), symbolic.shift(said)
        elif explicit.holds(said):
            explicit, symbolic = explicit.announce(said), symbolic.announce(said)
    agents = range(len(sizes))
    for _ in range(12):
        a, b = rng.sample(agents, 2)
        p, q = rng.sample(atoms, 2)
        f = parse(rng.choice([f"B_{a} {p}", f"B_{a}[{q}] {p}", f"Sb_{a} {p}", f"<B_{a}> {p}",
                              f"B_{a} !B_{b} {p}", f"K_{a} ({q} -> B_{b} {p})",
                              f"<B_{a}[{q}]> {p}", f"<Sb_{a}> {p}"]))
        expected = Structure.of(explicit).values(f)
        assert explicit.evaluate(f).tolist() == expected, f
        assert symbolic.listed_values(symbolic.values(f), {}).tolist() == expected, f


def test_the_ranked_deals_answer_the_pictures_questions():
    worlds = bluffed(Backend.EXPLICIT).worlds
    assert isinstance(worlds, Leveled) and not worlds.is_flat()
    assert worlds.best(0).tolist() == [w for w in worlds.possible_worlds(0).tolist()
                                       if worlds.shared_rank()[w] == 0]
    assert worlds.level(0).tolist() == [int(r == 1 and c) for r, c in zip(
        worlds.shared_rank().tolist(), _two_ranks_in_class(worlds, 0), strict=True)]
    assert bluffed(Backend.SYMBOLIC).worlds.is_flat() is False
    dealt = ranked_deal(deal_model(range(3), [1, 1, 1], [[0], [1], [2]]))
    assert dealt.is_flat() and ranked_deal(symbolic_deal(range(3), [1, 1, 1],
                                                         [[0], [1], [2]])).is_flat()


def _two_ranks_in_class(worlds, agent) -> list[bool]:
    """Per world: whether its class holds deals of two ranks (then rank 1 is level 1)."""
    keys, rank = worlds.observation(agent), worlds.shared_rank()
    return [len(set(rank[keys == k].tolist())) > 1 for k in keys.tolist()]


def test_bluffs_are_made_off_the_bluffers_own_paths():
    """Over seeded open games the bluffer bluffs, each bluff a short connection that no ticket
    of its own explains, and the other kinds never claim off their own paths unless they
    block (or can no longer draw)."""
    bluffs = 0
    for seed in range(6):
        model = TTRModel(players=3, agent_kinds="bluffer,believer,sceptic", rng=seed,
                         variant="open")
        while model.running:
            player, view = model.state.current, model.state.observation(model.state.current)
            candidates, own = bluff_connections(view), view.own_connections()
            can_draw = model.state.can_draw()
            model.step()
            turn = model.history[-1]
            if turn.claimed is None or turn.block is not None or turn.claimed in own or \
                    not can_draw:  # a player that cannot draw claims what it can (policies.draw)
                continue
            assert model.seats[player].kind is AgentKind.BLUFFER
            assert turn.claimed in candidates
            assert model.board.connections[turn.claimed].length <= BLUFF_LENGTH
            bluffs += 1
    assert bluffs >= 3


def test_an_open_game_logs_its_rules_and_replays(tmp_path):
    model = TTRModel(players=3, agent_kinds="bluffer,believer,sceptic", rng=2, variant="open")
    model.run()
    path = tmp_path / "open.jsonl"
    log.save(model, path)
    head, _ = log.read_log(path)
    assert head["variant"] == "open"
    state, worlds = log.replay(path)
    assert state.history == model.state.history
    assert worlds.rank_counts() == model.worlds.rank_counts()


def test_play_and_check_take_the_open_rules(capsys):
    assert main(["play", "--rules", "open", "--agents", "bluffer", "--seed", "3"]) == 0
    out = capsys.readouterr().out
    assert "open rules" in out and "the deals that do not explain the claim drop one rank" in out
    assert "plausibility (claims a deal leaves unexplained): " in out
    model = TTRModel(players=3, agent_kinds="bluffer", rng=3, variant="open")
    while model.turn < 30:
        model.step()
    formula = f"B_0 p(1,{model.state.tickets[1][0].id})"
    holds, count = model.worlds.holds(formula), model.worlds.count(formula)
    code = main(["check", "--rules", "open", "--agents", "bluffer", "--seed", "3", "--turn",
                 "30", formula])
    out = capsys.readouterr().out
    assert code == (0 if holds else 1)
    assert f"is {'TRUE' if holds else 'FALSE'} at the actual world; it holds in {count} of" in out
    with pytest.raises(SystemExit) as stopped:
        main(["play", "--rules", "nope"])
    assert stopped.value.code == 2
    assert "invalid choice: 'nope'" in capsys.readouterr().err


def test_the_belief_watch_counts_the_bluffs_false_beliefs_by_hand():
    """In the module docstring's position: as dealt every seat believes the actual deal; after
    the bluff player 0 does not, and holds two false beliefs (1 holds A–D, 2 holds E–G),
    planted by the unexplained claim; hard information ends both after one turn."""
    state = OpenState(OpenRules(board=tiny_board(), players=3, tickets_each=1), 0,
                      Backend.EXPLICIT)
    arrange(state, tickets={0: [FH], 1: [EG], 2: [AD]}, current=1,
            hands={0: hand(blue=2), 1: hand(red=2)}, pile=cards(*["white"] * 10))
    watch = BeliefWatch(state)
    state.apply(Claim(CONN["AB"], card_index("red"), 0))
    watch.turn()
    state.announce("p(1,5)")
    watch.turn()
    record = watch.record()
    assert record.accurate == ((True, True, True), (False, True, True), (True, True, True))
    assert record.unexplained == 1 and record.blocks_on_false_belief == 0
    assert record.false_beliefs == (
        FalseBelief(0, 1, AD, start=1, turns=1, by_bluff=True, outlived=False),
        FalseBelief(0, 2, EG, start=1, turns=1, by_bluff=True, outlived=False))
    tally = BeliefTally()
    tally.add(record, ("believer", "bluffer", "sceptic"))
    summary = tally.summary()
    assert summary.accurate_by_turn == ((3, 3), (2, 3), (3, 3))
    assert summary.held_by_kind == {"believer": 2} and summary.about_kind == {
        "bluffer": 1, "sceptic": 1}
    assert summary.mean_turns == 1.0 and summary.by_bluff == 2


def test_the_lab_measures_belief_in_open_games_only():
    """Every turn is recorded; while no claim is unexplained the actual deal keeps rank 0, the
    least there is, so every seat believes it and holds no false belief."""
    spec = LabSpec(rules="open", board="europe24", lineup=("believer", "bluffer", "sceptic"))
    unexplained = 0
    for seed in range(4):
        game = play_lab_game(spec, seed)
        assert game.beliefs is not None
        assert len(game.beliefs.accurate) == game.turns + 1
        if game.beliefs.unexplained == 0:
            assert all(all(seats) for seats in game.beliefs.accurate)
            assert game.beliefs.false_beliefs == ()
        unexplained += game.beliefs.unexplained
    assert unexplained >= 1
    simplified = play_lab_game(LabSpec(rules="simplified", board="europe24",
                                       lineup=("believer", "bluffer", "sceptic")), 1)
    assert simplified.beliefs is None
