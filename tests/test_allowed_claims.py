"""The design notes' claim rule and third end condition, checked over whole seeded games.

Every claim in 1,000 seeded games of every line-up is allowed: on a shortest path of one of the
claimant's own unfinished tickets (then announced as the claim inference), or a declared block
of a ticket the claimant knew an opponent held, on that opponent's shortest path for it. And
where a game ends because no one can ever claim again, playing on under the old end rule (until
no card is left to draw and no hand pays for a claim) changes no score and no world count.
"""

from __future__ import annotations

import pytest

from agents.kinds import AgentKind
from agents.model import TTRModel
from game.actions import DeclareBlock, Pass
from game.paths import ticket_paths
from game.state import GameState
from game.table import END_STALEMATE, IllegalAction, TableState

LINEUPS = ["epistemic", "baseline", "random", "epistemic,baseline,random", "osta,pa,lrja,ha"]
#: Per line-up: every (players, tickets) deal 111 times; 2,000 were a fifth of the suite's CPU.
GAMES = 1_000
PER_CHUNK = 250


def deal(seed: int) -> tuple[int, int]:
    """Players (2–4) and tickets each (1–3) of a seed's game: every combination occurs."""
    return 2 + seed % 3, 1 + (seed // 3) % 3


def _own_connections(model: TTRModel, player: int) -> set[int]:
    """Unclaimed connections on a shortest path of ``player``'s unfinished tickets, computed
    from the owners alone (not through the state's own cache and rule)."""
    state = model.state
    out: set[int] = set()
    for t in state.tickets[player]:
        if t.id not in state.finished[player]:
            found = ticket_paths(state.board, state.owner, player, t)
            out |= found.connections if found else set()
    return {c for c in out if state.owner[c] is None}


def check_game(kinds: str, seed: int) -> int:
    """Play one game, checking each claim against the rule; returns the number of claims."""
    players, tickets = deal(seed)
    lineup = kinds.split(",")  # repeated over the seats
    model = TTRModel(players=players, tickets_each=tickets, rng=seed,
                     agent_kinds=",".join(lineup[p % len(lineup)] for p in range(players)))
    claims = 0
    while model.running:
        player = model.state.current
        own = _own_connections(model, player)
        known = set(model.state.known(player))
        owner = list(model.state.owner)
        model.step()
        turn = model.history[-1]
        if turn.claimed is None:
            continue
        claims += 1
        where = f"{kinds}, seed {seed}, turn {turn.turn}"
        kinds_announced = [a.kind for a in turn.announcements if a.kind != "completion"]
        if turn.block is None:
            assert turn.claimed in own, f"{where}: a claim off the player's own shortest paths"
            assert kinds_announced == ["claim"], where
        else:
            victim, ticket = turn.block
            assert (victim, ticket) in known, f"{where}: a block of a ticket it did not know"
            found = ticket_paths(model.board, owner, victim, model.board.tickets[ticket])
            assert found is not None and turn.claimed in found.connections, where
            assert kinds_announced == ["block"], where
    return claims


@pytest.mark.slow
@pytest.mark.parametrize("kinds", LINEUPS)
@pytest.mark.parametrize("chunk", range(GAMES // PER_CHUNK))
def test_no_disallowed_claim_in_seeded_games(kinds, chunk):
    seeds = range(chunk * PER_CHUNK, (chunk + 1) * PER_CHUNK)
    assert sum(check_game(kinds, seed) for seed in seeds) > PER_CHUNK


def _old_end_rule(state: GameState) -> bool:
    """The end before the design notes' third condition: only when no card is left to draw
    and no hand pays for an (allowed) claim."""
    return not state.can_draw() and not any(
        state.payments(q, state.board.connections[c])
        for q in range(state.rules.players) for c in state.allowed_connections(q))


@pytest.mark.parametrize("kinds", ["epistemic", "epistemic,baseline,baseline", "random,osta,pa",
                                   "lrja,ha,epistemic"])
def test_past_the_new_end_the_old_rule_changes_no_score_and_no_world_count(kinds, monkeypatch):
    ended_early = extra_turns = 0
    for seed in range(60):
        model = TTRModel(players=3, agent_kinds=kinds, rng=seed)
        model.run()
        if model.state.end_reason != END_STALEMATE:
            continue
        scores, worlds, turn = model.state.scores(), model.world_count, model.turn
        with monkeypatch.context() as m:
            m.setattr(GameState, "_no_claim_ever_cached", _old_end_rule)
            model.running = not model.state.is_terminal()
            model.run(max_turns=turn + 2_000)
        assert model.state.is_terminal()
        assert model.state.scores() == scores, f"seed {seed}: a score changed past the end"
        assert model.world_count == worlds, f"seed {seed}: knowledge changed past the end"
        assert all(t.claimed is None for t in model.history[turn:]), f"seed {seed}: a claim"
        ended_early += model.turn > turn
        extra_turns += model.turn - turn
    assert ended_early >= 10, "too few games the new rule ends early to say anything"
    assert extra_turns >= 10 * ended_early  # the tail of draws the new rule spares


def _views_agree_with_the_state(state: TableState) -> None:
    """Every player's view lists what the state does: the legal actions of the player to move
    (declared blocks included), nothing for the others; each claim the player may make is
    listed as every way the rules take it; and the state refuses, changing nothing, what is
    not listed: a claim played plain that must be declared (the old ``moves()`` offered 606 of
    1,486 such), a block of a ticket it does not know, a pass while something else is legal."""
    legal = state.legal_actions()
    for p in range(state.rules.players):
        view = state.observation(p)
        assert view.legal_actions() == (legal if p == state.current else []), (p, state.turn)
    listed = set(legal)
    view = state.observation(state.current)
    others = [q for q in range(state.rules.players) if q != state.current]
    tried = [Pass()]
    for k, claim in enumerate(view.claim_choices()):
        forms = view.declarations(claim)
        assert forms and listed.issuperset(forms)
        if k < 3:  # a few per position: each refusal is worked out on a copy of the state
            tried += [claim, *(DeclareBlock(claim, q, t.id) for q in others
                               for t in state.tickets[q][:1])]
    for action in tried:
        if action in listed:
            continue
        before = (len(state.history), state.owner.copy(), [h.copy() for h in state.hands])
        with pytest.raises(IllegalAction):
            state.apply(action)
        assert (len(state.history), state.owner, state.hands) == before


def _choices_were_legal(before: TableState, actions: list) -> None:
    """Each action a policy chose in the turn (the events keep the actions taken, a declared
    block as such) was one of the legal actions of its position, played again on a copy of
    the position the turn started from."""
    for action in actions:
        assert action in before.legal_actions(), (before.turn, action)
        before.apply(action)


@pytest.mark.parametrize("variant", ["simplified", "open"])
@pytest.mark.parametrize("chunk", range(4))
def test_the_view_and_the_state_list_the_same_legal_actions(chunk, variant):
    """200 seeded games of each rule set (the simplified game, and the open one, where any
    claim is legal and a block is of a believed ticket), every position, every player: what a
    policy is offered is what the rules list, declared blocks included, every kind of player's
    choice is one of them (so no driver declares anything for it), and the rules refuse what
    is not listed."""
    blocks = 0
    for seed in range(chunk * 50, (chunk + 1) * 50):
        players, tickets = deal(seed)
        kinds = [list(AgentKind)[(seed + 2 * p) % len(AgentKind)] for p in range(players)]
        model = TTRModel(board="europe24", players=players, tickets_each=min(tickets, 2),
                         agent_kinds=kinds, rng=seed, variant=variant)
        # mid-turn positions as they come, each turn's first as the model steps to it
        model.on_event = lambda state, event: event.turn_over or _views_agree_with_the_state(
            state)
        while model.running:
            _views_agree_with_the_state(model.state)
            start = model.state.clone()
            model.step()
            _choices_were_legal(start, [e.action for e in model.history[-1].events])
        blocks += model.blocks
    assert blocks > 0, "no block declared: the test says nothing of them"
