"""The max-score optimiser on a game in progress (a player's own connections free, the ones it may
still claim open, everyone else's closed) agrees with brute force on the tiny board."""

from __future__ import annotations

import itertools
import random

import networkx as nx
import pytest
from positions import CONN, TICKET, arrange, new_game

from agents.policies import uniform_random
from game.state import GameState
from game.table import TableState
from maxscore import MaxScoreResult, max_score


def best_remaining(state: TableState, player: int, *,
                   time_limit: float | None = None) -> MaxScoreResult:
    """The highest final score ``player`` can reach with its remaining trains: its own
    connections cost nothing, connections it may still claim are open, everyone else's are
    closed; its own tickets count plus when finished and minus when not. Cards are ignored: it
    is the bound a perfect draw would reach. The halves of a double are merged: one player may
    never own both."""
    usable = [c.id for c in state.board.connections
              if state.owner[c.id] is None and state.claimable(player, c) is None
              or state.owner[c.id] == player]
    owned = [c.id for c in state.board.connections if state.owner[c.id] == player]
    return max_score(state.board, state.trains[player], tickets=state.tickets[player],
                     usable=usable, owned=owned, penalise_unfinished=True,
                     merge_doubles=True, time_limit=time_limit)

def brute_force(state: GameState, player: int) -> int:
    """Every set of connections the player may still claim within its trains, scored."""
    board = state.board
    owned = [c for c in board.connections if state.owner[c.id] == player]
    free = [c for c in board.connections
            if state.owner[c.id] is None and state.claimable(player, c) is None]
    best = None
    for r in range(len(free) + 1):
        for extra in itertools.combinations(free, r):
            pairs = [c.pair for c in extra if c.pair is not None]
            if sum(c.length for c in extra) > state.trains[player] or len(pairs) != len(set(pairs)):
                continue
            net = nx.MultiGraph()
            net.add_edges_from((c.a, c.b) for c in (*owned, *extra))
            score = sum(board.route_points[c.length] for c in (*owned, *extra))
            for t in state.tickets[player]:
                done = t.a in net and t.b in net and nx.has_path(net, t.a, t.b)
                score += t.points if done else -t.points
            best = score if best is None else max(best, score)
    return best


def test_own_connections_are_free_and_others_closed(tiny):
    state = arrange(new_game(tiny, players=3), tickets={0: [TICKET["AD"]]},
                    owner={CONN["AB"]: 0, CONN["BD"]: 1}, trains={0: 2})
    result = best_remaining(state, 0)
    # A–D cannot be finished with 2 trains now that B–D is taken: own A–B (2) + a 2-train
    # connection (2) − the unfinished ticket (4).
    assert result.total == 0 == brute_force(state, 0)
    assert result.proven


@pytest.mark.parametrize("seed", range(12))
def test_mid_game_optimum_matches_brute_force(tiny, seed):
    state = new_game(tiny, players=2 + seed % 2, seed=seed, tickets_each=2, trains=9)
    rng = random.Random(seed)
    for _ in range(rng.randrange(0, 60)):
        if state.is_terminal():
            break
        view = state.observation(state.current)
        state.apply(uniform_random(view, rng))
    for player in range(state.rules.players):
        assert best_remaining(state, player).total == brute_force(state, player)
