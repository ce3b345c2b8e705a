"""Rules unit tests: paying for claims, drawing, the face-up row, reshuffles, the end of the game,
scoring and the refusal of illegal actions. Positions are set up with ``conftest.arrange``."""

from __future__ import annotations

import copy
import itertools
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from positions import CONN, TICKET, arrange, card_counts, cards, deck_counts, hand, new_game

from boards import parse_board
from boards.board import DEFAULT_ROUTE_POINTS
from game import Claim, DrawDeck, DrawFaceUp, IllegalAction, Pass, Rules
from game.actions import DeclareBlock
from game.cards import LOCO, N_CARD_TYPES, card_index
from game.state import GameState
from game.table import END_STALEMATE, END_TICKETS, END_TRAINS

RED, BLUE, GREEN, WHITE = (card_index(c) for c in ("red", "blue", "green", "white"))
ROW = cards("yellow", "pink", "black", "white", "orange")  # a face-up row without locomotives


def snapshot(state: GameState) -> tuple:
    """Everything an action may change."""
    return (copy.deepcopy(state.hands), list(state.face_up), list(state.pile), list(state.discard),
            list(state.trains), list(state.owner), [set(f) for f in state.finished],
            state.current, state.turn, state.drawn, state.final_turns_left, state.end_reason,
            len(state.history))


def refused(state: GameState, action, *words: str) -> str:
    """Assert ``action`` is refused with a message containing ``words`` and changes nothing."""
    before = snapshot(state)
    assert action not in state.legal_actions()
    with pytest.raises(IllegalAction) as info:
        state.apply(action)
    message = str(info.value)
    for word in words:
        assert word in message, f"{word!r} not in the refusal {message!r}"
    assert snapshot(state) == before, "a refused action changed the game"
    return message


#: Tickets whose shortest paths cover every connection the tests claim, so that the claims are
#: allowed (for one's own tickets): A–D (A–B, B–D, A–C, C–D, A–D), D–F (D–E, E–F), F–H (F–G,
#: G–H), A–H (A–B, B–H) for player 0; B–C (A–B, A–C, B–D, C–D), E–G (E–F, F–G) for player 1.
OWN_TICKETS = {0: [TICKET["AD"], TICKET["DF"], TICKET["FH"], TICKET["AH"]],
               1: [TICKET["BC"], TICKET["EG"]]}


def claim_position(players: int = 2, **hand0: int) -> GameState:
    """Player 0 to move with ``hand0``, a locomotive-free row and a full pile, players 0 and 1
    holding ``OWN_TICKETS``."""
    state = new_game(players=players)
    return arrange(state, hands={0: hand(**hand0)}, face_up=ROW, pile=[], current=0,
                   tickets=OWN_TICKETS)


def draw_twice(state: GameState) -> None:
    state.apply(DrawDeck())
    state.apply(DrawDeck())


# ----- paying for a claim ---------------------------------------------------------------------


def test_exact_colour_pays_and_the_cards_go_to_the_discard_pile():
    state = claim_position(red=3, blue=1)
    discard = Counter(state.discard)
    assert state.payments(0, state.board.connections[CONN["AB"]]) == [Claim(CONN["AB"], RED, 0)]
    event = state.apply(Claim(CONN["AB"], RED, 0))
    assert state.owner[CONN["AB"]] == 0
    assert state.hands[0] == hand(red=1, blue=1)
    assert Counter(state.discard) - discard == Counter({RED: 2})
    assert state.trains[0] == state.rules.trains - 2
    assert event.turn_over and state.current == 1
    assert card_counts(state) == deck_counts(state.rules)


def test_locomotives_stand_in_for_missing_colour_cards():
    state = claim_position(red=1, locomotive=1)
    assert state.payments(0, state.board.connections[CONN["AB"]]) == [Claim(CONN["AB"], RED, 1)]
    state.apply(Claim(CONN["AB"], RED, 1))
    assert state.hands[0] == hand()
    assert state.owner[CONN["AB"]] == 0


def test_locomotives_alone_pay_for_any_connection():
    state = claim_position(locomotive=2)
    options = state.payments(0, state.board.connections[CONN["AB"]])
    assert options == [Claim(CONN["AB"], None, 2)]
    state.apply(options[0])
    assert state.hands[0] == hand() and state.owner[CONN["AB"]] == 0


def test_payments_are_listed_fewest_locomotives_first():
    state = claim_position(red=2, locomotive=2)
    options = state.payments(0, state.board.connections[CONN["AB"]])
    assert options == [Claim(CONN["AB"], RED, 0), Claim(CONN["AB"], RED, 1),
                       Claim(CONN["AB"], None, 2)]


@pytest.mark.parametrize("colour", ["red", "blue", "white", "pink"])
def test_grey_takes_any_one_colour(colour):
    state = claim_position(**{colour: 2})
    state.apply(Claim(CONN["AC"], card_index(colour), 0))
    assert state.owner[CONN["AC"]] == 0 and state.hands[0] == hand()


def test_grey_refuses_mixed_colours():
    state = claim_position(red=1, blue=1)
    assert state.payments(0, state.board.connections[CONN["AC"]]) == []
    refused(state, Claim(CONN["AC"], RED, 0), "cannot pay", "A–C")
    refused(state, Claim(CONN["AC"], BLUE, 0), "cannot pay")


def test_grey_with_one_colour_and_a_locomotive():
    state = claim_position(red=1, blue=1, locomotive=1)
    options = state.payments(0, state.board.connections[CONN["AC"]])
    assert set(options) == {Claim(CONN["AC"], RED, 1), Claim(CONN["AC"], BLUE, 1)}


def test_coloured_connection_refuses_another_colour():
    state = claim_position(blue=2)
    refused(state, Claim(CONN["AB"], BLUE, 0), "must be paid in red")


def test_ferry_needs_at_least_its_locomotives():
    ferry = CONN["DE"]
    state = claim_position(red=2)
    assert state.payments(0, state.board.connections[ferry]) == []
    refused(state, Claim(ferry, RED, 0), "ferry", "1 locomotive")

    state = claim_position(red=2, locomotive=1)
    assert state.payments(0, state.board.connections[ferry]) == [Claim(ferry, RED, 1)]
    state.apply(Claim(ferry, RED, 1))
    assert state.hands[0] == hand(red=1)


def test_ferry_paid_with_locomotives_only():
    state = claim_position(locomotive=2)
    state.apply(Claim(CONN["DE"], None, 2))
    assert state.owner[CONN["DE"]] == 0


def test_not_enough_cards_is_refused_with_a_reason():
    state = claim_position(red=1)
    assert state.payments(0, state.board.connections[CONN["AB"]]) == []
    refused(state, Claim(CONN["AB"], RED, 0), "cannot pay", "A–B")
    refused(state, Claim(CONN["AB"], RED, 1), "cannot pay")  # no locomotive in hand
    refused(state, Claim(CONN["AB"], None, 2), "cannot pay")


def test_not_enough_trains_is_refused():
    state = claim_position(red=2)
    arrange(state, trains={0: 1})
    assert not any(isinstance(a, Claim) and a.connection == CONN["AB"]
                   for a in state.legal_actions())
    refused(state, Claim(CONN["AB"], RED, 0), "needs 2 trains", "has 1")


def test_exactly_enough_trains_is_enough():
    state = claim_position(red=2)
    arrange(state, trains={0: 2})
    state.apply(Claim(CONN["AB"], RED, 0))
    assert state.trains[0] == 0


def test_a_taken_connection_cannot_be_claimed():
    state = claim_position(red=2)
    arrange(state, owner={CONN["AB"]: 1})
    refused(state, Claim(CONN["AB"], RED, 0), "already taken by player 1")


def test_a_connection_owned_by_oneself_cannot_be_claimed_again():
    state = claim_position(red=4)
    state.apply(Claim(CONN["AB"], RED, 0))
    draw_twice(state)
    refused(state, Claim(CONN["AB"], RED, 0), "already taken by player 0")


def test_unknown_connection_is_refused():
    state = claim_position(red=2)
    refused(state, Claim(99, RED, 0), "no connection 99")
    refused(state, Claim(-1, RED, 0), "no connection -1")


@pytest.mark.parametrize("players", [2, 3])
def test_doubles_with_2_or_3_players_only_one_half(players):
    state = claim_position(players=players, blue=3)
    arrange(state, owner={CONN["EF_red"]: 1})
    refused(state, Claim(CONN["EF_blue"], BLUE, 0), "other half", "fewer than 4 players")


@pytest.mark.parametrize("players", [4, 5])
def test_doubles_with_4_or_more_players_both_halves_open(players):
    state = claim_position(players=players, blue=3)
    arrange(state, owner={CONN["EF_red"]: 1})
    state.apply(Claim(CONN["EF_blue"], BLUE, 0))
    assert state.owner[CONN["EF_blue"]] == 0 and state.owner[CONN["EF_red"]] == 1


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_never_both_halves_of_a_double(players):
    state = claim_position(players=players, red=3, blue=3)
    state.apply(Claim(CONN["EF_red"], RED, 0))
    for _ in range(players - 1):
        draw_twice(state)
    assert state.current == 0
    refused(state, Claim(CONN["EF_blue"], BLUE, 0), "already owns the other half")


def test_a_turn_that_began_with_a_draw_cannot_claim():
    state = claim_position(red=2)
    state.apply(DrawDeck())
    assert state.current == 0 and not any(isinstance(a, Claim) for a in state.legal_actions())
    refused(state, Claim(CONN["AB"], RED, 0), "began by drawing")


@settings(max_examples=300, deadline=None)
@given(counts=st.lists(st.integers(0, 4), min_size=N_CARD_TYPES, max_size=N_CARD_TYPES),
       conn=st.sampled_from(sorted(CONN.values())))
def test_payments_are_exactly_the_ways_the_hand_can_pay(counts, conn):
    """Brute force: a claim (colour, locomotives) is offered iff the hand holds the cards, the
    colour fits, the ferry's locomotives are there, and locomotives-only names no colour."""
    state = new_game(players=2, trains=45)
    arrange(state, hands={0: counts}, face_up=ROW, pile=[], current=0, tickets=OWN_TICKETS)
    if conn == CONN["CE"]:  # C–E is on a shortest path only when C–D–E is closed
        arrange(state, tickets={0: [TICKET["CE"]]}, owner={CONN["DE"]: 1})
    connection = state.board.connections[conn]
    fits = range(LOCO) if connection.colour == "grey" else [card_index(connection.colour)]
    expected = set()
    for colour, locos in itertools.product([None, *range(LOCO)], range(connection.length + 1)):
        rest = connection.length - locos
        if locos > counts[LOCO] or locos < connection.ferry:
            continue
        if colour is None and rest == 0 or colour in fits and 0 < rest <= counts[colour]:
            expected.add(Claim(conn, colour, locos))
    offered = state.payments(0, connection)
    assert len(offered) == len(set(offered))
    assert set(offered) == expected
    for claim in offered:  # every offered payment goes through and leaves no negative count
        trial = copy.deepcopy(state)
        trial.apply(claim)
        assert min(trial.hands[0]) >= 0
        assert sum(trial.hands[0]) == sum(counts) - connection.length
        assert card_counts(trial) == deck_counts(trial.rules)


# ----- drawing, the face-up row and the reshuffle ---------------------------------------------


def test_two_cards_make_a_turn():
    state = claim_position()
    arrange(state, pile=cards("red", "blue"))
    first = state.apply(DrawDeck())
    assert first.cards == (BLUE,) and not first.turn_over and state.current == 0
    second = state.apply(DrawFaceUp(0))  # yellow, refilled from the pile's red
    assert second.turn_over and state.current == 1
    assert state.hands[0] == hand(blue=1, yellow=1) and state.face_up[0] == RED


def test_face_up_locomotive_as_the_first_card_is_the_whole_turn():
    state = claim_position()
    arrange(state, face_up=cards("locomotive", "red", "blue", "green", "white"),
            pile=cards("pink", "black"))
    event = state.apply(DrawFaceUp(0))
    assert event.cards == (LOCO,) and event.turn_over
    assert state.current == 1 and state.hands[0] == hand(locomotive=1)
    assert state.face_up[0] == card_index("black")  # refilled from the top of the pile


def test_face_up_locomotive_never_as_the_second_card():
    state = claim_position()
    arrange(state, face_up=cards("locomotive", "red", "blue", "green", "white"),
            pile=cards("pink", "black"))
    state.apply(DrawDeck())
    assert DrawFaceUp(0) not in state.legal_actions()
    assert DrawFaceUp(1) in state.legal_actions()
    refused(state, DrawFaceUp(0), "locomotive", "second card")


def test_a_locomotive_from_the_pile_is_not_a_whole_turn():
    state = claim_position()
    arrange(state, pile=cards("red", "locomotive"))
    event = state.apply(DrawDeck())
    assert event.cards == (LOCO,) and not event.turn_over and state.current == 0


def test_three_face_up_locomotives_discard_and_redeal_the_row():
    state = claim_position()
    new_row = cards("yellow", "pink", "black", "white", "orange")
    arrange(state, face_up=cards("locomotive", "locomotive", "red", "blue", "green"),
            pile=[*new_row[::-1], LOCO], discard=[], conserve=False)  # LOCO is drawn first
    state.apply(DrawFaceUp(2))  # red leaves, a third locomotive arrives
    assert state.face_up == new_row
    assert Counter(state.discard) == Counter({LOCO: 3, BLUE: 1, GREEN: 1})
    assert state.pile == []


def test_the_redeal_repeats_while_the_row_still_has_three_locomotives():
    state = claim_position()
    second = cards("locomotive", "locomotive", "locomotive", "red", "blue")
    third = cards("yellow", "pink", "black", "white", "orange")
    arrange(state, face_up=cards("locomotive", "locomotive", "red", "blue", "green"),
            pile=[*third[::-1], *second[::-1], LOCO], conserve=False)
    state.apply(DrawFaceUp(2))
    assert state.face_up == third
    assert sum(c == LOCO for c in state.face_up) < state.rules.face_up_locomotive_limit


def test_two_face_up_locomotives_stay():
    state = claim_position()
    arrange(state, face_up=cards("locomotive", "red", "blue", "green", "white"),
            pile=cards("pink", "locomotive"))
    state.apply(DrawFaceUp(1))
    assert state.face_up == cards("locomotive", "locomotive", "blue", "green", "white")


def test_no_endless_redeal_when_only_locomotives_are_left():
    state = claim_position()
    arrange(state, face_up=cards("locomotive", "locomotive", "locomotive", "locomotive", "red"),
            pile=[], discard=[], conserve=False)
    state.apply(DrawFaceUp(4))  # nothing refills slot 4; no better row can ever be dealt
    assert state.face_up == cards("locomotive", "locomotive", "locomotive", "locomotive", None)
    assert state.hands[0] == hand(red=1)


def test_a_row_of_three_locomotives_is_redealt_once_a_claim_brings_other_cards_back():
    """The rulebook redeals three face-up locomotives "at any time": a row left for want of
    other cards is redealt as soon as a claim's cards reach the discard pile, not only after
    the next draw (a row of three once stayed after a claim, in 2 of 5,000 games)."""
    state = claim_position(red=3)
    arrange(state, face_up=cards("locomotive", "locomotive", "locomotive", "locomotive", "red"),
            pile=[], discard=[], conserve=False)
    assert state.face_up.count(LOCO) == 4  # no other card anywhere: the row must stay
    state.apply(Claim(CONN["AB"], RED, 0))  # three red cards go to the discard pile
    assert state.face_up.count(LOCO) < state.rules.face_up_locomotive_limit
    assert state.face_up.count(None) == 0


def test_the_initial_row_never_shows_three_locomotives():
    for seed in range(300):
        state = GameState(Rules(board=new_game().board, locomotives=40), seed)
        assert sum(c == LOCO for c in state.face_up) < 3, seed


def test_the_discard_pile_is_reshuffled_when_the_pile_runs_out():
    state = claim_position()
    arrange(state, pile=[], discard=cards("red", "blue", "green"), conserve=False)
    assert DrawDeck() in state.legal_actions()
    event = state.apply(DrawDeck())
    assert state.discard == []
    assert len(state.pile) == 2
    assert Counter([*state.pile, *event.cards]) == Counter([RED, BLUE, GREEN])
    assert state.hands[0][event.cards[0]] == 1


def test_the_face_up_row_is_refilled_from_the_reshuffled_discard_pile():
    state = claim_position()
    arrange(state, pile=[], discard=cards("green"), conserve=False)
    state.apply(DrawFaceUp(0))
    assert state.face_up[0] == GREEN and state.discard == [] and state.pile == []


def test_the_reshuffle_is_seeded():
    piles = []
    for _ in range(2):
        state = claim_position()
        arrange(state, pile=[], discard=list(range(LOCO)) * 3, conserve=False)
        state.apply(DrawDeck())
        piles.append(list(state.pile))
    assert piles[0] == piles[1]


def test_no_draw_from_an_empty_pile_and_discard():
    state = claim_position()
    arrange(state, pile=[], discard=[], conserve=False)
    assert DrawDeck() not in state.legal_actions()
    refused(state, DrawDeck(), "draw pile", "empty")


def test_an_empty_face_up_slot_cannot_be_drawn():
    state = claim_position()
    arrange(state, face_up=cards("red", None, "blue", "green", "white"))
    refused(state, DrawFaceUp(1), "slot 1", "empty")
    refused(state, DrawFaceUp(7), "slot 7")


def test_one_card_is_the_turn_when_no_second_card_can_be_drawn():
    state = claim_position()
    arrange(state, face_up=cards("locomotive", None, None, None, None), pile=cards("red"),
            discard=[], conserve=False, hands={1: hand(red=2)})
    event = state.apply(DrawDeck())
    assert event.turn_over and state.current == 1 and not state.is_terminal()


# ----- the end of the game --------------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 4])
def test_few_trains_give_every_other_player_one_more_turn(players):
    state = claim_position(players=players, red=2)
    arrange(state, trains={0: 4})
    event = state.apply(Claim(CONN["AB"], RED, 0))
    assert state.trains[0] == 2 and event.end_reason is None
    for other in range(1, players):
        assert not state.is_terminal() and state.current == other
        draw_twice(state)
    assert state.is_terminal() and state.end_reason == END_TRAINS
    assert state.history[-1].player == players - 1
    assert [e.player for e in state.history].count(0) == 1  # the trigger plays no more
    assert state.legal_actions() == []


def test_three_trains_left_do_not_start_the_last_round():
    state = claim_position(red=2)
    arrange(state, trains={0: 5})
    state.apply(Claim(CONN["AB"], RED, 0))
    assert state.trains[0] == 3
    for _ in range(3):
        draw_twice(state)
    assert not state.is_terminal()


def test_a_second_low_train_claim_does_not_extend_the_last_round():
    state = claim_position(players=3, red=2)
    arrange(state, trains={0: 4, 1: 3}, hands={0: hand(red=2), 1: hand(blue=2)})
    state.apply(Claim(CONN["AB"], RED, 0))
    state.apply(Claim(CONN["BD"], BLUE, 0))  # player 1 also drops to 1 train
    assert not state.is_terminal()
    draw_twice(state)  # player 2's last turn
    assert state.end_reason == END_TRAINS and len(state.history) == 4


def test_finishing_all_tickets_ends_the_game_at_once():
    state = claim_position(players=3, blue=2)
    arrange(state, tickets={0: [TICKET["AD"]]}, owner={CONN["AB"]: 0})
    event = state.apply(Claim(CONN["BD"], BLUE, 0))
    assert event.completed == (TICKET["AD"],)
    assert state.is_terminal() and state.end_reason == END_TICKETS == event.end_reason
    assert state.finished[0] == {TICKET["AD"]}
    assert state.legal_actions() == []


def test_finishing_some_tickets_does_not_end_the_game():
    state = claim_position(blue=2)
    arrange(state, tickets={0: [TICKET["AD"], TICKET["FH"]]}, owner={CONN["AB"]: 0})
    event = state.apply(Claim(CONN["BD"], BLUE, 0))
    assert event.completed == (TICKET["AD"],) and not state.is_terminal()
    assert state.unfinished(0) == (state.board.tickets[TICKET["FH"]],)


def test_finishing_all_tickets_in_the_last_round_ends_it_early():
    state = claim_position(players=3, red=2)
    arrange(state, trains={0: 4}, hands={0: hand(red=2), 1: hand(blue=2)},
            tickets={1: [TICKET["BC"]]}, owner={CONN["CD"]: 1})
    state.apply(Claim(CONN["AB"], RED, 0))  # player 0 starts the last round
    event = state.apply(Claim(CONN["BD"], BLUE, 0))  # joins B–D–C for player 1
    assert event.completed == (TICKET["BC"],)
    assert state.end_reason == END_TICKETS and len(state.history) == 2


def test_stalemate_when_no_card_can_be_drawn_and_no_hand_pays_for_an_allowed_claim():
    state = claim_position()
    arrange(state, face_up=[None] * 5, pile=cards("green"), discard=[], conserve=False,
            hands={0: hand(red=1), 1: hand(blue=1)})
    event = state.apply(DrawDeck())  # the last card: the turn ends after it
    assert event.turn_over and event.end_reason is None  # the position's end, not the draw's
    assert state.is_terminal() and state.end_reason == END_STALEMATE
    assert state.legal_actions() == []
    refused(state, DrawDeck(), "game is over", "no player can ever make an allowed claim")


def test_no_stalemate_while_someone_can_still_claim():
    state = claim_position()
    arrange(state, face_up=[None] * 5, pile=cards("green"), discard=[], conserve=False,
            hands={0: hand(red=1), 1: hand(white=1)})
    state.apply(DrawDeck())
    assert not state.is_terminal()  # player 1 can claim F–G with its white card
    assert state.observation(1).claim_choices() == [Claim(CONN["FG"], WHITE, 0)]


def test_pass_is_legal_only_when_nothing_else_is():
    state = claim_position(red=2)
    assert Pass() not in state.legal_actions()
    refused(state, Pass(), "only allowed when no claim or draw")

    state = claim_position()  # cannot claim, cannot draw, but player 1 can claim
    arrange(state, face_up=[None] * 5, pile=[], discard=[], conserve=False,
            hands={0: hand(red=1), 1: hand(white=1)})
    assert state.legal_actions() == [Pass()]
    event = state.apply(Pass())
    assert event.turn_over and state.current == 1 and not state.is_terminal()
    state.apply(Claim(CONN["FG"], WHITE, 0))  # its spent white card refills the empty row
    assert state.current == 0 and state.legal_actions() == [DrawFaceUp(0)]


def test_no_one_passes_for_ever_when_no_one_can_act():
    state = claim_position()
    arrange(state, face_up=[None] * 5, pile=[], discard=[], conserve=False,
            hands={0: hand(red=1), 1: hand(blue=1)})
    assert state.end_reason == END_STALEMATE and state.legal_actions() == []


# ----- the third end: no player can ever make an allowed claim again ---------------------------
# A ring of six cities, every connection 2 trains: A–B–C–D–E–F–A. Player 0 holds A–C, player 1
# holds D–F; each has a short way (2 connections) and a long way round (4).

RING = parse_board({
    "format": "ttr-kripke-board", "version": 1, "name": "ring",
    "cities": [{"name": n, "x": i / 6, "y": (i % 2) / 2} for i, n in enumerate("ABCDEF")],
    "connections": [{"a": a, "b": b, "length": 2, "colour": colour} for a, b, colour in
                    [("A", "B", "red"), ("B", "C", "blue"), ("C", "D", "green"),
                     ("D", "E", "white"), ("E", "F", "black"), ("F", "A", "yellow")]],
    "tickets": [{"a": "A", "b": "C", "points": 4}, {"a": "D", "b": "F", "points": 4},
                {"a": "B", "b": "F", "points": 4}],
}, "ring test board")
AB, BC, CD, DE, EF, FA = range(6)
A_C, D_F, B_F = 0, 1, 2


def ring_position(owner: dict[int, int], players: int = 2, **arranged) -> GameState:
    """Two players on the ring, player 0 holding A–C and player 1 D–F, player 0 to move (each
    knows the other's ticket from the deal); with three, player 2 holds B–F and has no train
    left, and player 0 does not know who holds D–F until it is announced."""
    state = GameState(Rules(board=RING, players=players, tickets_each=1), seed=0)
    arranged.setdefault("pile", [])  # the rest of the deck goes to the discard pile
    arranged.setdefault("face_up", ROW)
    tickets = {0: [A_C], 1: [D_F], 2: [B_F]}
    if players == 3:
        arranged["trains"] = {2: 0, **arranged.get("trains", {})}
    return arrange(state, tickets={p: tickets[p] for p in range(players)}, owner=owner,
                   current=0, **arranged)


def test_all_tickets_cut_off_end_the_game_with_cards_still_to_draw():
    # Player 1 holds A–B and C–D, player 0 D–E and F–A: both ways round are closed to both.
    state = ring_position({AB: 1, CD: 1, DE: 0, FA: 0})
    assert state.paths(0, RING.tickets[A_C]) is None and state.paths(1, RING.tickets[D_F]) is None
    assert state.can_draw()
    assert state.end_reason == END_STALEMATE and state.legal_actions() == []


def test_one_ticket_still_open_keeps_the_game_going():
    state = ring_position({AB: 1, CD: 1, FA: 0})  # D–E–F is still open to player 1
    assert not state.is_terminal()
    state.apply(DrawDeck())
    state.apply(DrawDeck())
    assert state.current == 1 and not state.is_terminal()


@pytest.mark.parametrize("known", [False, True])
def test_a_known_opponent_ticket_still_reachable_keeps_the_game_going(known):
    # Player 0's A–C is cut off; player 1's D–F is open (D–E–F, or C–B and F–A between the two
    # connections it owns) but player 1 has 1 train, too few for any connection. Only a block
    # by player 0 can still happen: if player 0 knows D–F is player 1's, the game goes on; if
    # no one knows, no one can ever claim again.
    state = ring_position({AB: 1, CD: 1}, players=3, trains={1: 1}, hands={0: hand(white=2)})
    if known:
        state.announce(f"p(1,{D_F})")
    assert state.allowed_connections(1) == set()
    assert state.allowed_connections(0) == ({BC, DE, EF, FA} if known else set())
    assert state.is_terminal() is not known
    if known:
        assert DeclareBlock(Claim(DE, card_index("white"), 0), 1, D_F) in state.legal_actions()


@pytest.mark.parametrize("known", [False, True])
def test_no_card_left_a_payable_block_keeps_the_game_going(known):
    # No card can be drawn; player 1 cannot pay for its own D–F, player 0 can pay for D–E.
    state = ring_position({AB: 1, CD: 1}, players=3, face_up=[None] * 5, pile=[], discard=[],
                          conserve=False, hands={0: hand(white=2), 1: hand(red=1)})
    if known:
        state.announce(f"p(1,{D_F})")
    assert state.is_terminal() is not known
    if known:
        assert state.legal_actions() == [DeclareBlock(Claim(DE, card_index("white"), 0), 1,
                                                      D_F)]


def test_a_finished_or_cut_off_ticket_allows_no_block():
    state = ring_position({AB: 1, CD: 1, DE: 1, EF: 1}, hands={0: hand(black=2)})
    state.finished[1] = {D_F}  # D–E–F is player 1's: finished (player 0 knows it is 1's)
    assert state.block_targets(0) == {} and state.end_reason == END_STALEMATE


def test_every_action_is_refused_after_the_game_is_over():
    state = claim_position(blue=2, red=2)
    arrange(state, tickets={0: [TICKET["AD"]]}, owner={CONN["AB"]: 0})
    state.apply(Claim(CONN["BD"], BLUE, 0))
    assert state.is_terminal()
    for action in [DrawDeck(), DrawFaceUp(0), Pass(), Claim(CONN["AC"], RED, 0)]:
        refused(state, action, "game is over", "finished all of its tickets")


def test_a_non_action_is_refused():
    state = claim_position()
    refused(state, "draw", "not an action")


# ----- scoring --------------------------------------------------------------------------------


def test_connection_points_table_matches_the_design_notes():
    design = {1: 1, 2: 2, 3: 4, 4: 7, 5: 10, 6: 15, 8: 21}
    assert {k: DEFAULT_ROUTE_POINTS[k] for k in design} == design
    assert {k: new_game().board.route_points[k] for k in design} == design


def test_score_is_connections_plus_finished_minus_unfinished():
    state = arrange(new_game(trains=45), hands={0: hand(red=2, orange=6, black=8)},
                    face_up=ROW, pile=[],
                    tickets={0: [TICKET["AH"], TICKET["FH"]], 1: [TICKET["BC"], TICKET["EG"]]})
    state.apply(Claim(CONN["AB"], RED, 0))
    draw_twice(state)
    state.apply(Claim(CONN["GH"], card_index("black"), 0))  # length 8, on F–G–H
    draw_twice(state)
    event = state.apply(Claim(CONN["BH"], card_index("orange"), 0))
    assert event.completed == (TICKET["AH"],)

    tickets = state.board.tickets
    parts = state.score_parts(0)
    assert parts.connections == 2 + 15 + 21
    assert parts.finished == tickets[TICKET["AH"]].points
    assert parts.unfinished == tickets[TICKET["FH"]].points
    assert parts.total == 2 + 15 + 21 + tickets[TICKET["AH"]].points - tickets[TICKET["FH"]].points
    assert state.score_parts(1).connections == 0 and state.score_parts(1).finished == 0
    assert state.scores() == [parts.total,
                              -(tickets[TICKET["BC"]].points + tickets[TICKET["EG"]].points)]


def test_score_counts_only_the_players_own_connections():
    state = claim_position(red=3)
    arrange(state, hands={0: hand(red=3), 1: hand(blue=2)})
    state.apply(Claim(CONN["EF_red"], RED, 0))
    state.apply(Claim(CONN["BD"], BLUE, 0))
    assert state.score_parts(0).connections == 4  # length 3
    assert state.score_parts(1).connections == 2  # length 2


# ----- settings -------------------------------------------------------------------------------


@pytest.mark.parametrize("settings, words", [
    ({"players": 1}, ["players must be 2 to 5", "1"]),
    ({"players": 6}, ["players must be 2 to 5", "6"]),
    ({"players": 5, "tickets_each": 3}, ["15 tickets", "has only 12", "deal fewer"]),
    ({"tickets_each": 0}, ["tickets each must be at least 1"]),
    ({"trains": 0}, ["trains must be at least 1"]),
    ({"cards_per_colour": 1, "locomotives": 0}, ["cannot deal 4 to each of 2 players"]),
])
def test_bad_settings_are_named_before_any_card_is_dealt(settings, words):
    with pytest.raises(ValueError) as info:
        Rules(board=new_game().board, **{"players": 2, **settings})
    for word in words:
        assert word in str(info.value)


def test_spent_cards_refill_an_empty_face_up_row(tiny):
    """When the pile and discard ran dry the row empties; the next claim's cards come back."""
    empty_row = cards(None, None, None, None, None)
    state = arrange(new_game(tiny), hands={0: hand(red=2)}, face_up=empty_row, pile=[],
                    discard=[], conserve=False, current=0)
    state.apply(Claim(CONN["AB"], card_index("red"), 0))
    assert sorted(c for c in state.face_up if c is not None) == [card_index("red")] * 2
    assert state.face_up.count(None) == 3


def test_an_all_locomotive_payment_naming_a_colour_is_refused_with_the_fix(tiny):
    state = arrange(new_game(tiny), hands={0: hand(locomotive=2)}, current=0)
    with pytest.raises(IllegalAction, match="names no colour: give colour None"):
        state.apply(Claim(CONN["AB"], card_index("red"), 2))


def test_a_players_observation_holds_its_own_cards_and_only_public_facts(tiny):
    state = new_game(tiny, players=3, seed=5, tickets_each=2)
    state.apply(DrawDeck())
    view = state.observation(1)
    assert view.hand == tuple(state.hands[1]) and view.tickets == state.tickets[1]
    assert view.hand_sizes == tuple(sum(h) for h in state.hands)
    assert view.dealt == frozenset(t.id for t in state.dealt_tickets)
    assert (view.owner, view.trains, view.face_up, view.pile_size, view.current) == (
        tuple(state.owner), tuple(state.trains), tuple(state.face_up), len(state.pile),
        state.current)
    other = state.observation(2)
    assert other.tickets == state.tickets[2] and other.hand == tuple(state.hands[2])
    public = ("owner", "trains", "hand_sizes", "face_up", "pile_size", "discard_size", "dealt")
    assert all(getattr(view, f) == getattr(other, f) for f in public)
