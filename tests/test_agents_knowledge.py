"""The epistemic game's announcements: give-aways, declared blocks, and what agents know."""

from __future__ import annotations

import pytest
from positions import arrange, hand

from agents.kinds import AgentKind
from agents.model import TTRModel
from agents.policies import best_payment
from boards import parse_board
from game.actions import DeclareBlock, DrawDeck
from game.knowledge import AnnouncementKind, announced_by, completions, ticket_atom
from game.play import play_turn
from game.table import IllegalAction
from kripke import Common, Knows

# A–B–C is the only short way between A and C (2 trains; the detour A–H–C takes 6), and no other
# ticket's shortest path uses A–B: claiming it gives ticket A–C away.
GIVEAWAY_BOARD = parse_board({
    "format": "ttr-kripke-board", "version": 1, "name": "giveaway",
    "cities": [{"name": n, "x": i / 8, "y": (i % 2) / 2} for i, n in enumerate("ABCDEFGH")],
    "connections": [
        {"a": "A", "b": "B", "length": 1, "colour": "red"},
        {"a": "B", "b": "C", "length": 1, "colour": "blue"},
        {"a": "A", "b": "H", "length": 3, "colour": "yellow"},
        {"a": "H", "b": "C", "length": 3, "colour": "yellow"},
        {"a": "C", "b": "D", "length": 4, "colour": "black"},
        {"a": "D", "b": "E", "length": 2, "colour": "green"},
        {"a": "E", "b": "F", "length": 4, "colour": "black"},
        {"a": "F", "b": "G", "length": 2, "colour": "white"},
    ],
    "tickets": [{"a": "A", "b": "C", "points": 5}, {"a": "D", "b": "E", "points": 4},
                {"a": "F", "b": "G", "points": 4}],
}, "giveaway test board")
AB, BC = 0, 1
AC_TICKET = 0


def scripted_model() -> TTRModel:
    """Three epistemic players, one ticket each; player 0 holds A–C, player 1 holds D–E.
    Player 0 can pay only A–B, player 1 only B–C (its own ticket needs green)."""
    for seed in range(200):
        model = TTRModel(board=GIVEAWAY_BOARD, players=3, tickets_each=1, rng=seed)
        if [t.id for t in model.state.tickets[0]] == [0] and \
                [t.id for t in model.state.tickets[1]] == [1]:
            arrange(model.state, hands={0: hand(red=1), 1: hand(blue=1)}, pile=[], current=0)
            return model
    raise AssertionError("no seed deals A–C to player 0 and D–E to player 1")


def test_a_giveaway_claim_lets_the_opponent_know_block_and_announce():
    model = scripted_model()
    ticket = ticket_atom(0, AC_TICKET)
    assert model.world_count == 6
    assert not model.worlds.knows(1, ticket)

    model.step()  # player 0 claims A–B: only A–C's shortest path uses it
    turn = model.history[-1]
    assert turn.claimed == AB
    [claim] = turn.announcements
    assert claim.kind == "claim" and claim.formula == ticket
    assert (claim.worlds_before, claim.worlds_after) == (6, 2)
    assert model.worlds.knows(1, ticket)
    assert (0, AC_TICKET) in model.seats[1].known_opponent_tickets()

    model.step()  # player 1 cannot pay for its own ticket, knows A–C is player 0's: blocks B–C
    turn = model.history[-1]
    assert turn.player == 1 and turn.block == (0, AC_TICKET)
    assert model.state.owner[BC] == 1
    [block] = turn.announcements
    assert block.kind == "block" and block.formula == Knows(1, ticket)
    assert block.text == "K_1 p(0,0)"
    assert model.seats[1].blocks == 1 and model.blocks == 1


def test_the_inference_uses_the_paths_of_the_board_as_it_is_when_claiming():
    model = scripted_model()
    arrange(model.state, hands={0: hand(yellow=3)}, pile=[], current=0,
            owner={AB: 2})  # A–B gone: the detour A–H–C is now player 0's shortest path
    model.step()
    [claim] = model.history[-1].announcements
    assert model.history[-1].claimed in (2, 3)
    assert claim.formula == ticket_atom(0, AC_TICKET)


def _said(state, player, *actions):
    """What ``actions`` announce by the protocol alone, applied to a copy (the state
    untouched): each read on the position before it, then the completions."""
    after, out = state.clone(), []
    for action in actions:
        out += announced_by(after, player, action)
        out += completions(player, after.apply(action).completed)
    return tuple(out)


def test_the_protocol_alone_an_undeclared_claim_tells_its_tickets():
    state = scripted_model().state  # player 0 holds A–C and can pay only A–B
    claim = best_payment(state.observation(0), AB)
    assert _said(state, 0, claim) == ((AnnouncementKind.CLAIM, ticket_atom(0, AC_TICKET)),)


def test_the_state_makes_the_turns_announcements_and_records_them():
    state = scripted_model().state
    before = state.worlds.n_worlds
    state.apply(best_payment(state.observation(0), AB))
    [made] = state.announced
    assert (made.kind, made.formula) == (AnnouncementKind.CLAIM, ticket_atom(0, AC_TICKET))
    assert (made.worlds_before, made.worlds_after) == (before, state.worlds.n_worlds) == (6, 2)
    assert (0, AC_TICKET) in state.observation(1).known


@pytest.mark.parametrize("lineup", ["epistemic,baseline,random", "osta,pa,lrja", "ha,random,pa"])
def test_every_kinds_claims_are_announced_because_the_rules_allow_no_other(lineup):
    # The rules allow an undeclared claim only on the claimant's own shortest paths, so the
    # claim inference holds for a random player's and the strategy agents' claims too: each one
    # is announced.
    claims = 0
    for seed in range(6):
        model = TTRModel(players=3, agent_kinds=lineup, rng=seed)
        model.run()
        for turn in model.history:
            kinds = [a.kind for a in turn.announcements if a.kind != "completion"]
            if turn.claimed is None:
                assert kinds == []
            else:
                assert kinds == ["block" if turn.block else "claim"]
                claims += turn.kind not in (AgentKind.EPISTEMIC, AgentKind.BASELINE) \
                    and not turn.block
    assert claims >= 5, "too few claims by the other kinds to say anything"


def test_a_claim_off_ones_own_paths_must_be_a_declared_block_of_a_known_ticket():
    model = scripted_model()
    arrange(model.state, hands={0: hand(red=1), 1: hand(red=1, blue=1)}, pile=[], current=1)
    # player 1 holds D–E; A–B and B–C lie only on A–C's path
    claim = model.state.payments(1, model.board.connections[AB])[0]  # the hand pays; the
    assert best_payment(model.state.observation(1), AB) is None  # view offers no such claim
    with pytest.raises(IllegalAction, match="allowed only for one's own tickets"):
        play_turn(model.state, lambda view, rng: claim, model.random)  # undeclared, unknown
    with pytest.raises(IllegalAction, match="allowed only for one's own tickets or as a "
                                            "declared block"):
        model.state.apply(claim)
    with pytest.raises(IllegalAction, match="does not know it"):  # player 1 does not know
        play_turn(model.state, lambda view, rng: DeclareBlock(claim, 0, AC_TICKET),
                  model.random)  # yet who holds A–C
    assert model.state.owner[AB] is None and model.state.turn == 0


def test_the_protocol_alone_a_declared_block_announces_what_the_blocker_knows():
    state = scripted_model().state
    arrange(state, hands={1: hand(blue=1)}, current=1)
    state.announce(ticket_atom(0, AC_TICKET))  # now player 1 knows it
    claim = best_payment(state.observation(1), BC)
    block = DeclareBlock(claim, victim=0, ticket=AC_TICKET)
    assert block in state.legal_actions() and claim not in state.legal_actions()
    assert _said(state, 1, block) == (
        (AnnouncementKind.BLOCK, Knows(1, ticket_atom(0, AC_TICKET))),)


def test_the_protocol_alone_a_finishing_claim_is_a_claim_then_a_completion():
    state = scripted_model().state
    arrange(state, hands={0: hand(blue=1)}, owner={AB: 0}, current=0)
    claim = best_payment(state.observation(0), BC)
    assert _said(state, 0, claim) == (
        (AnnouncementKind.CLAIM, ticket_atom(0, AC_TICKET)),
        (AnnouncementKind.COMPLETION, ticket_atom(0, AC_TICKET)))


def test_the_protocol_alone_draws_announce_nothing():
    state = scripted_model().state
    arrange(state, pile=[0, 1, 2, 3], current=0)
    assert _said(state, 0, DrawDeck(), DrawDeck()) == ()


def blocked_games(seeds):
    for seed in seeds:
        model = TTRModel(players=3, tickets_each=2, rng=seed)
        while model.running:
            model.step()
            if model.history[-1].block is not None:
                yield model


def test_after_a_declared_block_the_blocked_ticket_is_common_knowledge():
    seen = 0
    for model in blocked_games(range(40)):
        victim, ticket = model.history[-1].block
        assert model.worlds.holds(Common(None, ticket_atom(victim, ticket)))
        seen += 1
    assert seen >= 10, "too few blocks to say anything"


@pytest.mark.parametrize("seed", range(30))
def test_knowledge_of_atoms_never_shrinks(seed):
    model = TTRModel(players=3, tickets_each=2, agent_kinds="epistemic,baseline,epistemic",
                     rng=seed)
    before = [model.worlds.known_atoms(a) for a in range(3)]
    while model.running:
        model.step()
        now = [model.worlds.known_atoms(a) for a in range(3)]
        for old, new in zip(before, now, strict=True):
            assert old.items() <= new.items()
        before = now


def test_every_agent_knows_its_own_hand_from_the_deal():
    model = TTRModel(players=3, tickets_each=2, rng=3)
    for p in range(3):
        known = model.state.knowledge(p)
        for t in model.state.tickets[p]:
            assert known.known(t.id) == p
