"""Whole seeded standard games: invariants after every action, exact replay from the log, and
the same game from the same seed.

2,000 games on the USA board with 2–5 players drawn from the four strategy agents, the baseline
and a uniformly random player (which also draws tickets, pays oddly and passes), in chunks of 50
seeds so ``pytest -n 2`` spreads them (each rule is also tested on its own position in
``test_standard_rules``; these games look for what positions miss). After every action: every
train card is somewhere (110, each kind conserved), every ticket is somewhere exactly once
(hands + offers + pile = the board's 30), no player holds both halves of a double (nobody holds
a closed half with 2–3 players), trains match the connections owned.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest
from positions import card_counts, deck_counts, ticket_places

from agents.kinds import seat_policies, standard_kinds
from boards import load_board
from game.actions import Action, Claim, DrawDeck, DrawFaceUp, DrawTickets, KeepTickets
from game.log import event_to_json, header, read_log, replay, write_log
from game.play import MAX_ACTIONS
from game.standard_rules import StandardRules
from game.standard_state import StandardState
from game.view import PlayerView

PER_CHUNK = 50
CHUNKS = 40
USA = load_board("usa")


def setup(seed: int) -> list[str]:
    """The line-up of one seed: 2–5 players, mostly strategy agents."""
    pick = random.Random(f"standard line-up {seed}")
    kinds = [str(k) for k in standard_kinds() if k != "random"]
    return [pick.choice(kinds) if pick.random() < 0.9 else "random"
            for _ in range(2 + seed % 4)]


def play_checked(seed: int) -> StandardState:
    lineup = setup(seed)
    rules = StandardRules(USA, players=len(lineup))
    state = StandardState(rules, seed)
    rng = random.Random(seed)
    policies = seat_policies("described", lineup)
    deck = deck_counts(rules)
    n_tickets = len(USA.tickets)
    for _ in range(MAX_ACTIONS):
        if state.is_terminal():
            break
        player = state.current
        view = state.observation(player)
        action = policies[player](view, rng)
        assert offered(view, action), f"seed {seed}: {lineup[player]} chose {action}"
        event = state.apply(action)
        where = f"seed {seed}, event {event.index}"
        assert card_counts(state) == deck, f"{where}: cards not conserved"
        assert all(n >= 0 for h in state.hands for n in h), where
        assert ticket_places(state) == list(range(n_tickets)), f"{where}: tickets not conserved"
        if isinstance(action, Claim):  # only claims change owners and trains
            halves = Counter((c.pair, state.owner[c.id]) for c in USA.connections
                             if c.pair is not None and state.owner[c.id] is not None)
            assert max(halves.values(), default=0) <= 1, f"{where}: both halves of a double"
            if not rules.doubles_both_usable:
                pairs = Counter(c.pair for c in USA.connections
                                if c.pair is not None and state.owner[c.id] is not None)
                assert max(pairs.values(), default=0) <= 1, f"{where}: a closed half claimed"
            for p in range(rules.players):
                used = sum(c.length for c in USA.connections if state.owner[c.id] == p)
                assert state.trains[p] == rules.trains - used, where
    else:
        pytest.fail(f"seed {seed}: no end after {MAX_ACTIONS} actions")
    assert state.legal_actions() == []
    assert sum(state.win_shares()) == pytest.approx(1.0)
    return state


def offered(view: PlayerView, action: Action) -> bool:
    """Whether the view offers ``action`` (the same as ``action in view.legal_actions()``,
    which ``test_standard_rules`` checks, without listing every claim on every action)."""
    match action:
        case Claim():
            return action in view.payments(action.connection)
        case DrawFaceUp():
            return action.slot in view.face_up_slots()
        case DrawDeck():
            return view.can_draw_deck
        case DrawTickets():
            return view.can_draw_tickets
        case KeepTickets():
            return action in view.keep_choices()
    return view.legal_actions() == [action]


def final_facts(state: StandardState) -> dict:
    return {"owner": list(state.owner), "hands": [list(h) for h in state.hands],
            "tickets": state.tickets, "finished": [set(f) for f in state.finished],
            "pile": list(state.pile), "discard": list(state.discard),
            "face_up": list(state.face_up), "ticket_pile": list(state.ticket_pile),
            "history": list(state.history), "scores": state.scores(),
            "wins": state.win_shares(), "turn": state.turn, "end": state.end_reason}


@pytest.mark.slow
@pytest.mark.parametrize("chunk", range(CHUNKS))
def test_seeded_standard_games_keep_every_invariant_and_replay(chunk, tmp_path):
    for seed in range(chunk * PER_CHUNK, (chunk + 1) * PER_CHUNK):
        state = play_checked(seed)
        path = tmp_path / "game.jsonl"
        write_log(path, header(state), (event_to_json(e) for e in state.history))
        head, events = read_log(path)
        assert head["variant"] == "standard"
        assert final_facts(replay(head, events)) == final_facts(state), f"seed {seed}"


def test_the_same_seed_gives_the_same_standard_game():
    assert final_facts(play_checked(4242)) == final_facts(play_checked(4242))


def test_a_tampered_standard_log_is_refused(tmp_path):
    state = play_checked(7)
    records = [event_to_json(e) for e in state.history]
    draws = [r for r in records if r.get("tickets")]
    assert draws, "seed 7 should draw tickets"
    draws[0]["tickets"] = draws[0]["tickets"][::-1]
    path = tmp_path / "game.jsonl"
    write_log(path, header(state), records)
    head, events = read_log(path)
    with pytest.raises(ValueError, match="diverges"):
        replay(head, events)
