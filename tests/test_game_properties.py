"""Whole seeded games: invariants checked after every action, and exact replay from the log.

2,000 games on the shipped europe24 board (the tiny test board until europe24 is shipped) plus
500 on the tiny board, which has the double connections europe24 lacks and, being short of
trains' worth of connections, ends games by stalemate with passes (europe24 games end by trains
or tickets). Each
game mixes 2–4 players, 1–3 tickets each, and baseline and uniform-random players. The games
are split into chunks of 100 seeds so that ``pytest -n 2`` spreads them over workers.
"""

from __future__ import annotations

import copy
import random
from collections import Counter

import pytest
from positions import card_counts, deck_counts, fresh_oracle, tiny_board

from agents.policies import baseline, uniform_random
from boards import builtin_boards, load_board
from game import Claim, DrawDeck, DrawFaceUp, IllegalAction, Pass, Rules
from game.actions import DeclareBlock
from game.cards import LOCO
from game.log import event_to_json, header, read_log, replay, write_log
from game.state import GameState
from game.table import END_REASONS

PER_CHUNK = 100
STEP_CAP = 20_000  # far above any real game: each claim uses trains, each draw a card
MAIN_BOARD = "europe24" if "europe24" in builtin_boards() else None
MAIN_CHUNKS = 20
TINY_CHUNKS = 5
POLICIES = {"baseline": baseline, "uniform_random": uniform_random}


def board_named(name: str | None):
    return tiny_board() if name is None else load_board(name)


def setup(seed: int) -> tuple[int, int, list[str]]:
    """Players, tickets each and the policy of each player for one seed; every combination of
    player count and ticket count occurs, and games mix the two policies."""
    players = 2 + seed % 3
    tickets = 1 + (seed // 3) % 3
    pick = random.Random(f"policies {seed}")
    policies = [pick.choice(sorted(POLICIES)) for _ in range(players)]
    return players, tickets, policies


def play_checked(board, seed: int) -> GameState:
    """Play one game, asserting the invariants after every action."""
    players, tickets, names = setup(seed)
    rules = Rules(board=board, players=players, tickets_each=tickets)
    state = GameState(rules, seed)
    rng = random.Random(seed)
    deck = deck_counts(rules)
    owner = list(state.owner)
    assert card_counts(state) == deck and state.total_cards() == rules.deck_size

    for _step in range(STEP_CAP):
        if state.is_terminal():
            break
        player, drawn = state.current, state.drawn
        legal = state.legal_actions()
        view = state.observation(player)
        action = POLICIES[names[player]](view, rng)
        assert action in legal, f"seed {seed}: {names[player]} chose {action}, not legal"
        assert (action == Pass()) == (legal == [Pass()]), f"seed {seed}: pass with {legal}"
        event = state.apply(action)

        where = f"seed {seed}, event {event.index}"
        assert state.total_cards() == rules.deck_size, where
        assert card_counts(state) == deck, f"{where}: card kinds not conserved"
        assert all(n >= 0 for h in state.hands for n in h), where
        assert all(t >= 0 for t in state.trains), where

        changed = [c for c, (old, new) in enumerate(zip(owner, state.owner, strict=True))
                   if old != new]
        assert all(owner[c] is None for c in changed), f"{where}: a connection changed owner"
        if isinstance(action, Claim | DeclareBlock):
            claim = action.claim if isinstance(action, DeclareBlock) else action
            assert changed == [claim.connection] and state.owner[claim.connection] == player
        else:
            assert changed == [], where
        owner = list(state.owner)
        for p in range(players):
            used = sum(c.length for c in board.connections if owner[c.id] == p)
            assert state.trains[p] == rules.trains - used, where
        halves = Counter((c.pair, owner[c.id]) for c in board.connections
                         if c.pair is not None and owner[c.id] is not None)
        assert max(halves.values(), default=0) <= 1, f"{where}: both halves of a double"
        if not rules.doubles_both_usable:
            pairs = Counter(c.pair for c in board.connections
                            if c.pair is not None and owner[c.id] is not None)
            assert max(pairs.values(), default=0) <= 1, f"{where}: double used twice"

        if isinstance(action, DrawFaceUp) and event.cards == (LOCO,):
            assert drawn == 0 and event.turn_over, f"{where}: face-up locomotive as 2nd card"
        assert drawn + len(event.cards) <= 2, where
        if event.turn_over:
            assert state.drawn == 0
    else:
        pytest.fail(f"seed {seed}: no end after {STEP_CAP} actions")

    assert state.end_reason in END_REASONS
    assert state.legal_actions() == []
    return state


def final_facts(state: GameState) -> dict:
    return {
        "owner": list(state.owner), "hands": [list(h) for h in state.hands],
        "trains": list(state.trains), "finished": [set(f) for f in state.finished],
        "tickets": state.tickets, "scores": state.scores(),
        "score_parts": [state.score_parts(p) for p in range(state.rules.players)],
        "pile": list(state.pile), "discard": list(state.discard),
        "face_up": list(state.face_up), "history": list(state.history),
        "current": state.current, "turn": state.turn, "end_reason": state.end_reason,
    }


def logged_lines(state: GameState) -> list[dict]:
    """The game's events as log lines: a declared block is logged as the action taken, so the
    replay declares it again from the line alone (no announcement needed)."""
    return [event_to_json(event) for event in state.history]


def check_chunk(board, seeds: range, tmp_path) -> None:
    for seed in seeds:
        state = play_checked(board, seed)
        path = tmp_path / f"game-{seed}.jsonl"
        write_log(path, header(state), logged_lines(state))
        head, events = read_log(path)
        assert len(events) == len(state.history)
        replayed = replay(head, events, board=board)
        assert final_facts(replayed) == final_facts(state), f"seed {seed}: replay differs"
        path.unlink()


@pytest.mark.parametrize("chunk", range(MAIN_CHUNKS))
def test_seeded_games_on_the_main_board(chunk, tmp_path):
    check_chunk(board_named(MAIN_BOARD), range(chunk * PER_CHUNK, (chunk + 1) * PER_CHUNK),
                tmp_path)


@pytest.mark.parametrize("chunk", range(TINY_CHUNKS))
def test_seeded_games_on_the_tiny_board(chunk, tmp_path):
    start = 100_000 + chunk * PER_CHUNK
    check_chunk(tiny_board(), range(start, start + PER_CHUNK), tmp_path)


def test_a_tampered_log_is_refused(tmp_path):
    board = tiny_board()
    state = play_checked(board, 7)
    path = tmp_path / "game.jsonl"
    records = [event_to_json(e) for e in state.history]
    draws = [r for r in records if r["cards"]]
    draws[0]["cards"] = [(draws[0]["cards"][0] + 1) % (LOCO + 1)]
    write_log(path, header(state), records)
    head, events = read_log(path)
    with pytest.raises(ValueError, match="diverges"):
        replay(head, events, board=board)


def test_the_same_seed_and_players_give_the_same_game():
    board = tiny_board()
    first, second = play_checked(board, 12), play_checked(board, 12)
    assert final_facts(first) == final_facts(second)


def test_a_file_that_is_not_a_log_is_refused_with_its_line(tmp_path):
    state = play_checked(tiny_board(), 3)
    path = tmp_path / "game.jsonl"
    write_log(path, header(state), (event_to_json(e) for e in state.history[:3]))
    lines = path.read_text().splitlines()
    path.write_text("\n".join([*lines[:2], "{not json", *lines[2:]]) + "\n")
    with pytest.raises(ValueError, match="line 3: not JSON"):
        read_log(path)
    path.write_text(lines[1] + "\n")  # an event where the header should be
    with pytest.raises(ValueError, match="line 1: not a ttr-kripke-log header"):
        read_log(path)


def candidate_actions(state: GameState) -> list:
    """Every action worth trying now, legal or not: every claim plain, and every claim the hand
    pays for also declared as a block of every dealt ticket of every other player."""
    out = [DrawDeck(), Pass(), *(DrawFaceUp(s) for s in range(-1, len(state.face_up) + 1))]
    p = state.current
    for conn in state.board.connections:
        for colour in [None, *range(LOCO)]:
            out += [Claim(conn.id, colour, n) for n in range(conn.length + 2)]
        out += [DeclareBlock(claim, victim, t.id) for claim in state.payments(p, conn)
                for victim in range(state.rules.players) if victim != p
                for t in state.dealt_tickets]
    return out


@pytest.mark.parametrize("seed", range(200_000, 200_012))
def test_apply_accepts_exactly_the_legal_actions(seed):
    board = tiny_board()
    players, tickets, names = setup(seed)
    state = GameState(Rules(board=board, players=players, tickets_each=tickets), seed)
    rng = random.Random(seed)
    step = 0
    while not state.is_terminal():
        if step % 7 == 0:
            legal = state.legal_actions()
            before = final_facts(state)
            for action in candidate_actions(state):
                if action in legal:
                    copy.deepcopy(state).apply(action)
                else:
                    with pytest.raises(IllegalAction):
                        state.apply(action)
            assert final_facts(state) == before, f"seed {seed}: a refusal changed the game"
        view = state.observation(state.current)
        state.apply(POLICIES[names[state.current]](view, rng))
        step += 1



@pytest.mark.parametrize("board_name", ["tiny", "main"])
def test_cached_paths_equal_freshly_computed_ones(board_name):
    """``GameState.paths`` caches; after every action each player's paths for every dealt ticket
    must be what a search from scratch gives (the cache was filled before the action)."""
    board = tiny_board() if board_name == "tiny" else board_named(MAIN_BOARD)
    for seed in range(300_000, 300_025):
        players, tickets, names = setup(seed)
        state = GameState(Rules(board=board, players=players, tickets_each=tickets), seed)
        rng = random.Random(seed)
        dealt = state.dealt_tickets
        while not state.is_terminal():
            cached = {(p, t.id): state.paths(p, t) for p in range(players) for t in dealt}
            assert cached  # the cache is now full
            view = state.observation(state.current)
            state.apply(POLICIES[names[state.current]](view, rng))
            fresh = copy.copy(state)
            fresh.oracle = fresh_oracle(state)
            for p in range(players):
                for t in dealt:
                    assert state.paths(p, t) == fresh.paths(p, t), (
                        f"seed {seed}, event {len(state.history) - 1}: stale paths of player "
                        f"{p} for {t}")
