"""Rules unit tests of the standard game: ticket deals and draws, hidden information, the last
round, doubles by player count, the longest-path bonus, the tie-break, the three-locomotive
redeal and refusals with reasons. Positions come from ``positions.arrange`` on the tiny board."""

from __future__ import annotations

import copy
import itertools
import random

import pytest
from positions import (
    CONN,
    TICKET,
    arrange,
    cards,
    hand,
    ticket_places,
    tiny_board,
    tiny_board_dict,
)

from boards import load_board, parse_board
from game import Claim, DrawDeck, DrawFaceUp, IllegalAction, Pass
from game.actions import BuildStation, DrawTickets, KeepTickets, TunnelGiveUp, TunnelPay
from game.cards import LOCO, card_index
from game.log import event_to_json, header, read_log, replay, write_log
from game.play import start_game
from game.standard_rules import StandardRules
from game.standard_state import StandardState
from game.state import GameState
from game.table import END_STALEMATE, END_TRAINS, win_shares

RED, BLUE, WHITE = (card_index(c) for c in ("red", "blue", "white"))
ROW = cards("yellow", "pink", "black", "white", "orange")


def dealt(players: int = 2, seed: int = 0, **settings) -> StandardState:
    """A standard game on the tiny board, dealt, nobody has chosen yet."""
    return StandardState(StandardRules(tiny_board(), players=players, **settings), seed)


def started(players: int = 2, seed: int = 0, **settings) -> StandardState:
    """A standard game after setup: every player kept all three tickets dealt."""
    state = dealt(players, seed, **settings)
    while state.setup:
        state.apply(KeepTickets(state.offers[state.current]))
    return state


def facts(state: StandardState) -> dict:
    """Everything an action may change (the generator by its state, the oracle by version)."""
    return copy.deepcopy(state.__dict__ | {"rng": state.rng.getstate(),
                                           "oracle": state.oracle.version, "_longest": None})


def refused(state: StandardState, action, *words: str) -> None:
    before = facts(state)
    assert action not in state.legal_actions()
    with pytest.raises(IllegalAction) as info:
        state.apply(action)
    for word in words:
        assert word in str(info.value), f"{word!r} not in {str(info.value)!r}"
    assert facts(state) == before, "a refused action changed the game"


# ----- setup --------------------------------------------------------------------------------


def test_setup_deals_three_tickets_each_and_four_cards_and_a_row_of_five():
    state = dealt(players=3)
    assert [len(o) for o in state.offers] == [3, 3, 3]
    assert len({t for o in state.offers for t in o}) == 9
    assert [sum(h) for h in state.hands] == [4, 4, 4]
    assert len(state.face_up) == 5
    assert ticket_places(state) == list(range(len(tiny_board().tickets)))
    assert state.setup and state.current == 0


def test_setup_requires_keeping_at_least_two_and_puts_the_rest_under_the_pile():
    state = dealt(players=2)
    offer = state.offers[0]
    refused(state, KeepTickets(offer[:1]), "keep at least 2")
    refused(state, DrawDeck(), "must first choose which tickets to keep")
    refused(state, KeepTickets((offer[0], offer[0])), "each once")
    top_before = state.ticket_pile[-1]
    event = state.apply(KeepTickets(offer[:2]))
    assert [t.id for t in state.tickets[0]] == sorted(offer[:2])
    assert state.ticket_pile[0] == offer[2] and state.ticket_pile[-1] == top_before
    assert event.turn_over and state.current == 1 and state.setup
    state.apply(KeepTickets(state.offers[1]))
    assert not state.setup and state.current == 0 and state.turn == 0
    assert ticket_places(state) == list(range(len(tiny_board().tickets)))


def test_the_legal_setup_choices_are_every_subset_of_two_or_three():
    state = dealt()
    choices = state.legal_actions()
    offer = state.offers[0]
    expected = {tuple(sorted(c)) for n in (2, 3) for c in itertools.combinations(offer, n)}
    assert {tuple(sorted(a.tickets)) for a in choices} == expected
    assert state.observation(0).move_count() == 4


# ----- ticket draws -------------------------------------------------------------------------


def test_drawing_tickets_offers_the_top_three_and_keeps_at_least_one():
    state = started()
    top3 = state.ticket_pile[-3:][::-1]
    event = state.apply(DrawTickets())
    assert state.offers[0] == tuple(top3) and event.tickets == tuple(top3)
    assert not event.turn_over
    assert all(isinstance(a, KeepTickets) for a in state.legal_actions())
    assert len(state.legal_actions()) == 7  # every non-empty subset of three
    refused(state, KeepTickets(()), "keep at least 1")
    refused(state, Claim(CONN["AB"], RED, 0), "must first choose")
    refused(state, DrawTickets(), "must first choose")
    held = len(state.tickets[0])
    state.apply(KeepTickets((top3[1],)))
    assert len(state.tickets[0]) == held + 1
    assert state.ticket_pile[:2] == [top3[2], top3[0]]  # returned, under the pile
    assert state.current == 1 and state.turn == 1
    assert ticket_places(state) == list(range(len(tiny_board().tickets)))


def test_fewer_tickets_are_offered_when_fewer_remain_and_none_when_the_pile_is_empty():
    state = started()
    state.ticket_pile = state.ticket_pile[-2:]
    state.apply(DrawTickets())
    assert len(state.offers[0]) == 2
    state.apply(KeepTickets(state.offers[0]))
    state.apply(DrawDeck())
    state.apply(DrawDeck())
    assert DrawTickets() not in state.legal_actions()
    refused(state, DrawTickets(), "ticket pile is empty")


def test_tickets_cannot_be_drawn_after_a_card():
    state = arrange(started(), face_up=ROW, hands={}, pile=[], current=0)
    state.apply(DrawDeck())
    refused(state, DrawTickets(), "began by drawing cards")


def test_a_kept_ticket_already_joined_counts_as_finished_at_once():
    state = arrange(started(), owner={CONN["AB"]: 0, CONN["BD"]: 0}, hands={}, current=0)
    state.tickets = tuple(tuple(t for t in ts if t.id != TICKET["AD"]) for ts in state.tickets)
    state.ticket_pile = [t for t in state.ticket_pile if t != TICKET["AD"]] + [TICKET["AD"]]
    state.apply(DrawTickets())
    event = state.apply(KeepTickets((TICKET["AD"],)))
    assert TICKET["AD"] in state.finished[0] and event.completed == (TICKET["AD"],)


# ----- hidden information -------------------------------------------------------------------


def test_a_view_shows_own_hand_and_tickets_and_only_counts_of_the_others():
    state = started(players=3)
    view = state.observation(1)
    assert view.hand == tuple(state.hands[1])
    assert view.tickets == state.tickets[1]
    assert view.hand_sizes == tuple(sum(h) for h in state.hands)
    assert view.ticket_counts == tuple(len(t) for t in state.tickets)
    # what others hold never shows: change it and player 1's view stays the same
    other = copy.deepcopy(state)
    other.hands[0], other.hands[2] = other.hands[2], other.hands[0]
    other.tickets = (other.tickets[2], other.tickets[1], other.tickets[0])
    other.finished = [other.finished[2], other.finished[1], other.finished[0]]
    other.ticket_pile.reverse()
    assert other.observation(1) == view


def test_a_view_cannot_be_changed_and_takes_every_field_by_name():
    import dataclasses
    import inspect

    from game.view import PlayerView
    view = started(players=3).observation(0)
    with pytest.raises(dataclasses.FrozenInstanceError):
        view.hand = (9,) * 9  # type: ignore[misc]
    changed = dataclasses.replace(view, drawn=1)
    assert changed.drawn == 1 and view.drawn == 0 and changed.hand == view.hand
    assert list(inspect.signature(PlayerView).parameters) == [
        f.name for f in dataclasses.fields(PlayerView)]


def test_during_setup_a_player_sees_only_its_own_offer():
    state = dealt(players=3)
    view = state.observation(1)
    assert [t.id for t in view.offer] == list(state.offers[1])
    assert view.ticket_counts == (3, 3, 3)  # kept counts show once setup is over
    state.apply(KeepTickets(state.offers[0][:2]))
    assert state.observation(1).ticket_counts == (0, 3, 3)


def test_a_view_offers_exactly_the_states_legal_actions_and_counts_them():
    for seed in range(5):
        state = started(players=3, seed=seed)
        rng = random.Random(seed)
        while not state.is_terminal():
            view = state.observation(state.current)
            legal = view.legal_actions()
            assert legal == state.legal_actions()
            assert view.move_count() == len(legal)
            assert state.observation((state.current + 1) % 3).legal_actions() == []
            state.apply(rng.choice(legal))


# ----- the last round, doubles --------------------------------------------------------------


def test_the_last_round_gives_every_player_one_more_turn_the_trigger_included():
    state = arrange(started(players=3), hands={0: hand(red=2)}, face_up=ROW,
                    pile=[], trains={0: 4}, current=0)
    state.apply(Claim(CONN["AB"], RED, 0))  # 2 trains left: the last round begins
    assert state.final_turns_left == 3
    for player in (1, 2, 0):
        assert not state.is_terminal() and state.current == player
        state.apply(DrawDeck())
        state.apply(DrawDeck())
    assert state.end_reason == END_TRAINS


def test_with_four_players_both_halves_of_a_double_open_but_never_to_one_player():
    state = arrange(started(players=4), hands={0: hand(red=3, blue=3), 1: hand(blue=3)},
                    face_up=ROW, pile=[], current=0)
    state.apply(Claim(CONN["EF_red"], RED, 0))
    state.current = 0
    assert not state.payments(0, state.board.connections[CONN["EF_blue"]])
    state.current = 1
    assert Claim(CONN["EF_blue"], BLUE, 0) in state.legal_actions()


def test_with_three_players_a_taken_half_closes_the_double():
    state = arrange(started(players=3), hands={0: hand(red=3), 1: hand(blue=3)},
                    face_up=ROW, pile=[], current=0)
    state.apply(Claim(CONN["EF_red"], RED, 0))
    refused(state, Claim(CONN["EF_blue"], BLUE, 0), "only one half")


def test_no_card_no_ticket_and_no_payable_claim_ends_the_game():
    state = arrange(started(), hands={}, face_up=[None] * 5, pile=[], discard=[],
                    current=0, conserve=False)
    state.ticket_pile = []
    assert state.legal_actions() == [Pass()]
    state.apply(Pass())
    assert state.end_reason == END_STALEMATE


def test_a_player_who_can_only_draw_tickets_must_draw_tickets():
    state = arrange(started(), hands={}, face_up=[None] * 5, pile=[], discard=[],
                    current=0, conserve=False)
    assert state.legal_actions() == [DrawTickets()]
    refused(state, Pass(), "only allowed when")


# ----- the face-up row ----------------------------------------------------------------------


def test_three_face_up_locomotives_are_discarded_and_a_new_row_laid():
    state = arrange(started(), face_up=cards("locomotive", "locomotive", "red", "blue",
                                             "green"),
                    pile=cards("red", "red", "red", "red", "red", "locomotive"), hands={},
                    current=0)
    state.apply(DrawFaceUp(2))  # the pile's top locomotive makes three
    assert state.face_up.count(LOCO) < 3
    assert state.discard.count(LOCO) >= 3


# ----- scoring ------------------------------------------------------------------------------


def test_the_longest_path_bonus_goes_to_every_player_tied_for_it():
    state = arrange(started(players=3),
                    owner={CONN["AB"]: 0, CONN["BD"]: 0, CONN["AC"]: 1, CONN["CD"]: 1,
                           CONN["FG"]: 2})
    assert state.longest_paths() == [4, 4, 1]
    assert state.longest_holders() == {0, 1}
    parts = [state.score_parts(p) for p in range(3)]
    assert [p.longest for p in parts] == [10, 10, 0]
    assert parts[0].total == parts[0].connections + parts[0].finished - parts[0].unfinished + 10


def test_the_longest_path_is_a_trail_through_repeated_cities():
    # A–B–D–C–A is a cycle of 8 trains; with D–E (2) a trail runs E–D–B–A–C–D: 10 trains
    state = arrange(started(), owner={CONN["AB"]: 0, CONN["BD"]: 0, CONN["CD"]: 0,
                                      CONN["AC"]: 0, CONN["DE"]: 0})
    assert state.longest_paths()[0] == 10


def test_ties_on_score_go_to_more_finished_tickets_then_the_longest_path():
    assert win_shares([50, 60, 60], [3, 2, 2], [False, False, False]) == [0, 0.5, 0.5]
    assert win_shares([60, 60, 40], [2, 3, 5], [True, False, False]) == [0, 1, 0]
    assert win_shares([60, 60, 40], [3, 3, 5], [False, True, False]) == [0, 1, 0]
    assert win_shares([60, 60, 60], [3, 3, 3], [True, True, False]) == [0.5, 0.5, 0]


def test_a_game_shares_the_win_between_players_tied_on_everything():
    state = arrange(started(players=2), owner={CONN["AB"]: 0, CONN["CD"]: 1})
    state.tickets, state.finished = ((), ()), [set(), set()]
    assert state.scores() == [12, 12]  # 2 points and the shared 10-point bonus each
    assert state.win_shares() == [0.5, 0.5]


# ----- logs and refusals --------------------------------------------------------------------


def test_start_game_picks_the_rule_set():
    board = tiny_board()
    assert type(start_game(StandardRules(board, players=2), 1)) is StandardState
    from game.rules import Rules
    assert type(start_game(Rules(board, players=2), 1)) is GameState


def test_standard_rules_refuse_bad_settings_with_the_reason():
    with pytest.raises(ValueError, match="setup keep"):
        StandardRules(tiny_board(), players=2, setup_keep=4)
    with pytest.raises(ValueError, match="kept from a draw"):
        StandardRules(tiny_board(), players=2, ticket_keep=0)
    with pytest.raises(ValueError, match="need 15 tickets"):
        StandardRules(tiny_board(), players=5)


def test_the_usa_rules_are_the_rulebooks():
    rules = StandardRules(load_board("usa"))
    assert (rules.players, rules.trains, rules.deck_size, rules.initial_hand, rules.face_up,
            rules.tickets_each, rules.setup_keep, rules.ticket_draw, rules.ticket_keep,
            rules.longest_path_bonus) == (4, 45, 110, 4, 5, 3, 2, 3, 1, 10)
    state = StandardState(rules, 3)
    assert ticket_places(state) == list(range(30)) and state.total_cards() == 110


# ----- Europe options: tunnels, ferries -----------------------------------------------------


def tunnel_game(seed: int = 0, players: int = 2) -> StandardState:
    """The tiny board with A–B (2, red) made a tunnel, after setup."""
    doc = tiny_board_dict()
    doc["connections"][CONN["AB"]]["tunnel"] = True
    board = parse_board(doc, "tiny board with a tunnel")
    state = StandardState(StandardRules(board, players=players), seed)
    while state.setup:
        state.apply(KeepTickets(state.offers[state.current]))
    return state


def test_a_tunnel_whose_revealed_cards_do_not_match_is_claimed_at_once():
    state = arrange(tunnel_game(), hands={0: hand(red=2)}, face_up=ROW, current=0,
                    pile=cards("blue", "green", "white", "black"))
    event = state.apply(Claim(CONN["AB"], RED, 0))
    assert event.revealed == tuple(cards("black", "white", "green"))  # the top three
    assert event.turn_over and state.owner[CONN["AB"]] == 0
    assert state.total_cards() == state.rules.deck_size


def test_a_tunnel_asks_one_more_card_per_matching_or_locomotive_card_revealed():
    state = arrange(tunnel_game(), hands={0: hand(red=3, locomotive=2)}, face_up=ROW,
                    current=0, pile=cards("blue", "red", "locomotive", "white"))
    event = state.apply(Claim(CONN["AB"], RED, 0))
    assert not event.turn_over and state.owner[CONN["AB"]] is None
    assert state.observation(0).tunnel == (CONN["AB"], RED, 2)
    assert state.total_cards() == state.rules.deck_size  # the played cards are set aside
    assert state.legal_actions() == [TunnelPay(1), TunnelPay(2), TunnelGiveUp()]
    refused(state, DrawDeck(), "extra cards or give it up")
    refused(state, TunnelPay(0), "cannot pay")  # one red card left: not enough alone
    event = state.apply(TunnelPay(1))
    assert event.turn_over and state.owner[CONN["AB"]] == 0
    assert state.hands[0] == hand(locomotive=1)
    assert state.total_cards() == state.rules.deck_size


def test_giving_a_tunnel_up_returns_the_cards_and_ends_the_turn():
    state = arrange(tunnel_game(), hands={0: hand(red=2)}, face_up=ROW, current=0,
                    pile=cards("blue", "red", "red", "white"))
    state.apply(Claim(CONN["AB"], RED, 0))
    assert state.legal_actions() == [TunnelGiveUp()]  # two more red: the hand has none
    event = state.apply(TunnelGiveUp())
    assert event.turn_over and state.current == 1 and state.owner[CONN["AB"]] is None
    assert state.hands[0] == hand(red=2)
    assert state.total_cards() == state.rules.deck_size


def test_a_tunnel_paid_with_locomotives_alone_counts_only_revealed_locomotives():
    state = arrange(tunnel_game(), hands={0: hand(locomotive=3)}, face_up=ROW, current=0,
                    pile=cards("red", "red", "locomotive", "white"))
    state.apply(Claim(CONN["AB"], None, 2))
    assert state.observation(0).tunnel == (CONN["AB"], None, 1)
    assert state.legal_actions() == [TunnelPay(1), TunnelGiveUp()]


def test_a_tunnel_game_replays_and_conserves_cards(tmp_path):
    for seed in range(3):
        state = tunnel_game(seed)
        rng = random.Random(seed)
        while not state.is_terminal():
            state.apply(rng.choice(state.legal_actions()))
            assert state.total_cards() == state.rules.deck_size
        path = tmp_path / "tunnel.jsonl"
        write_log(path, header(state), (event_to_json(e) for e in state.history))
        head, events = read_log(path)
        assert replay(head, events, board=state.board).history == state.history


def test_a_ferry_needs_its_locomotives():
    state = arrange(started(), hands={0: hand(blue=2, locomotive=1)}, face_up=ROW, pile=[],
                    current=0)
    refused(state, Claim(CONN["DE"], BLUE, 0), "ferry", "1 locomotive")
    state.apply(Claim(CONN["DE"], BLUE, 1))
    assert state.owner[CONN["DE"]] == 0


# ----- Europe options: stations -------------------------------------------------------------


def station_game(players: int = 2) -> StandardState:
    state = StandardState(StandardRules(tiny_board(), players=players, stations=3), 0)
    while state.setup:
        state.apply(KeepTickets(state.offers[state.current]))
    return state


def test_stations_cost_one_two_then_three_cards_of_one_colour():
    state = arrange(station_game(), hands={0: hand(red=3, blue=2, locomotive=1),
                                           1: hand(white=6)}, face_up=ROW, pile=[], current=0)
    first = state.observation(0).station_choices()
    assert BuildStation("A", RED, 0) in first and BuildStation("A", None, 1) in first
    assert all(a.city in "ABCDEFGH" for a in first)
    state.apply(BuildStation("A", RED, 0))
    assert state.stations == {"A": 0} and state.hands[0] == hand(red=2, blue=2, locomotive=1)
    state.apply(BuildStation("C", WHITE, 0))  # player 1: its first station, one card
    arrange(state, hands={0: hand(red=2, blue=1, locomotive=1), 1: list(state.hands[1])},
            face_up=list(state.face_up), pile=[], current=0)
    refused(state, BuildStation("B", BLUE, 0), "cannot pay")  # the second costs two
    refused(state, BuildStation("A", RED, 0), "has a station already")
    state.apply(BuildStation("B", BLUE, 1))  # two cards: a blue and a locomotive
    assert state.hands[0] == hand(red=2)
    assert state.total_cards() == state.rules.deck_size


def test_a_player_builds_at_most_its_stations_and_not_after_drawing():
    state = arrange(station_game(), hands={0: hand(red=6)}, face_up=ROW, pile=[], current=0)
    state.stations = {"A": 0, "B": 0, "C": 0}
    refused(state, BuildStation("D", RED, 0), "no station left")
    state.stations = {}
    state.apply(DrawDeck())
    refused(state, BuildStation("D", RED, 0), "began by drawing cards")


def test_a_station_lends_one_opponent_connection_for_tickets_and_unbuilt_ones_score_four():
    state = arrange(station_game(), owner={CONN["AB"]: 0, CONN["BD"]: 1, CONN["DE"]: 1})
    state.tickets = ((tiny_board().tickets[TICKET["AD"]], tiny_board().tickets[TICKET["AE"]]),
                     ())
    state.finished = [set(), set()]
    parts = state.score_parts(0)
    assert (parts.finished, parts.unfinished, parts.stations) == (0, 4 + 6, 12)
    state.stations = {"B": 0}  # borrows B–D: A–D is joined; A–E would need D–E as well
    parts = state.score_parts(0)
    assert (parts.finished, parts.unfinished, parts.stations) == (4, 6, 8)
    state.stations = {"B": 0, "E": 0}  # a second station borrows D–E: both tickets
    parts = state.score_parts(0)
    assert (parts.finished, parts.unfinished, parts.stations) == (10, 0, 4)
    assert state.longest_paths()[0] == 2  # borrowed connections never count for the path


def test_a_station_game_replays_and_conserves_cards(tmp_path):
    for seed in range(3):
        state = StandardState(StandardRules(tiny_board(), players=2, stations=3), seed)
        rng = random.Random(seed)
        built = 0
        while not state.is_terminal():
            action = rng.choice(state.legal_actions())
            built += isinstance(action, BuildStation)
            state.apply(action)
            assert state.total_cards() == state.rules.deck_size
        path = tmp_path / "stations.jsonl"
        write_log(path, header(state), (event_to_json(e) for e in state.history))
        head, events = read_log(path)
        assert replay(head, events, board=state.board).stations == state.stations
        assert built == len(state.stations)
