"""The four strategy agents do what the design note says: positions on the tiny board for each
named behaviour, and the same behaviours checked at every decision of whole USA games."""

from __future__ import annotations

import random

import pytest
from positions import CONN, TICKET, arrange, cards, hand, tiny_board, tiny_board_dict

from agents.kinds import parse_lineup, seat_policies
from agents.standard_game import StandardSpec, play_standard_game
from agents.strategies import (
    HUNGRY_MARGIN,
    TICKET_DRAW_TRAINS,
    baseline,
    ha,
    hungry_plan,
    lrja,
    osta,
    pa,
    workable,
)
from boards import load_board, parse_board
from game.actions import (
    Claim,
    DrawDeck,
    DrawFaceUp,
    DrawTickets,
    KeepTickets,
    TunnelGiveUp,
    TunnelPay,
)
from game.cards import card_index
from game.standard_rules import StandardRules
from game.standard_state import StandardState
from game.view import PlayerView

RED, BLUE, YELLOW = (card_index(c) for c in ("red", "blue", "yellow"))
ROW = cards("pink", "pink", "black", "white", "orange")  # nothing the positions need
RNG = random.Random(0)


def position(players: int = 2, tickets: list[int] | None = None, **arranged) -> PlayerView:
    """Player 0's view after setup, holding ``tickets`` (board ids), in an arranged position."""
    state = StandardState(StandardRules(tiny_board(), players=players), 0)
    while state.setup:
        state.apply(KeepTickets(state.offers[state.current]))
    arranged.setdefault("face_up", ROW)
    arranged.setdefault("pile", [])
    arrange(state, tickets={p: tickets or [] if p == 0 else [] for p in range(players)},
            current=0, **arranged)
    state.ticket_pile = [t.id for t in state.board.tickets if t.id not in (tickets or [])]
    return state.observation(0)


# ----- Long Route Junkie ----------------------------------------------------------------------


def test_lrja_does_not_claim_a_short_connection_it_can_pay_while_it_has_trains():
    view = position(tickets=[TICKET["AD"]], hands={0: hand(red=2, blue=2)})
    assert view.payments(CONN["AB"])  # A–B (2, red) is payable and on a shortest path
    assert not isinstance(lrja(view, RNG), Claim)


def test_lrja_claims_its_long_plan_connection():
    view = position(tickets=[TICKET["AD"]], hands={0: hand(yellow=4, red=2)})
    assert lrja(view, RNG) == Claim(CONN["AD"], YELLOW, 0)


def test_lrja_claims_short_connections_once_its_trains_run_low():
    view = position(tickets=[TICKET["AD"]], hands={0: hand(red=2)}, trains={0: 2})
    assert lrja(view, RNG) == Claim(CONN["AB"], RED, 0)


def test_lrja_keeps_the_tickets_long_connections_join():
    state = StandardState(StandardRules(tiny_board(), players=2), 0)
    state.offers[0] = (TICKET["AD"], TICKET["EG"], TICKET["BC"])
    # A–D has a 4-long connection; E–G needs F–G (1), B–C only 2-long ones: it keeps A–D and,
    # as it must keep two, the one of the others needing fewest trains (B–C, the lower id)
    assert lrja(state.observation(0), RNG) == KeepTickets((TICKET["AD"], TICKET["BC"]))


# ----- Path agent -----------------------------------------------------------------------------


def test_pa_ranks_a_connection_serving_two_tickets_first():
    # A–D (4, yellow) lies on shortest paths of both A–D and A–E: 7 + 2 × (4 + 6) points
    view = position(tickets=[TICKET["AD"], TICKET["AE"]], hands={0: hand(yellow=4, red=2)})
    assert pa(view, RNG) == Claim(CONN["AD"], YELLOW, 0)


def test_pa_claims_the_best_payable_one_and_else_collects_the_best_ones_colour():
    view = position(tickets=[TICKET["AD"], TICKET["AE"]], hands={0: hand(red=2)})
    assert pa(view, RNG) == Claim(CONN["AB"], RED, 0)
    row = cards("pink", "yellow", "black", "white", "orange")
    view = position(tickets=[TICKET["AD"], TICKET["AE"]], hands={}, face_up=row)
    assert pa(view, RNG) == DrawFaceUp(1)


def test_pa_keeps_every_ticket_and_draws_none_when_all_are_done():
    state = StandardState(StandardRules(tiny_board(), players=2), 0)
    assert pa(state.observation(0), RNG) == KeepTickets(state.offers[0])
    view = position(tickets=[TICKET["AD"]], owner={CONN["AD"]: 0}, hands={0: hand(red=2)})
    view = _finished(view)
    assert pa(view, RNG) == Claim(CONN["AB"], RED, 0)  # the most valuable it can pay


def _finished(view: PlayerView) -> PlayerView:
    from dataclasses import replace
    return replace(view, finished=frozenset(t.id for t in view.tickets))


# ----- One Step Thinker -----------------------------------------------------------------------


def test_osta_collects_its_target_colour_face_up_then_a_locomotive_then_the_pile():
    # most valuable ticket A–E (6); its path A–D–E; the next connection A–D needs yellow
    tickets = [TICKET["AD"], TICKET["AE"]]
    row = cards("pink", "yellow", "locomotive", "white", "orange")
    assert osta(position(tickets=tickets, hands={}, face_up=row), RNG) == DrawFaceUp(1)
    row = cards("pink", "red", "locomotive", "white", "orange")
    assert osta(position(tickets=tickets, hands={}, face_up=row), RNG) == DrawFaceUp(2)
    assert osta(position(tickets=tickets, hands={}, face_up=ROW,
                         pile=cards("red")), RNG) == DrawDeck()


def test_osta_claims_its_target_as_soon_as_it_can_pay():
    view = position(tickets=[TICKET["AD"], TICKET["AE"]], hands={0: hand(yellow=4)})
    assert osta(view, RNG) == Claim(CONN["AD"], YELLOW, 0)


def test_osta_draws_tickets_only_with_nothing_left_to_work_on_and_far_from_the_end():
    view = position(tickets=[TICKET["AD"]], hands={}, pile=cards("red"))
    assert osta(view, RNG) != DrawTickets()
    assert osta(_finished(view), RNG) == DrawTickets()
    # an opponent down to 7 trains: a new ticket would seldom be finished; it claims instead
    near_end = position(tickets=[TICKET["AD"]], hands={0: hand(orange=6)}, trains={1: 7})
    assert osta(_finished(near_end), RNG) == Claim(CONN["BH"], card_index("orange"), 0)


def test_either_half_of_a_double_serves_a_plan():
    # Ticket D–F with D–E owned: the shortest path names E–F red (the lower id). An agent
    # holding blue claims the blue half instead, and collects a face-up blue card for it
    # (the One Step Thinker used to draw the pile for red while holding the blue it needed)
    owned = {"players": 4, "tickets": [TICKET["DF"]], "owner": {CONN["DE"]: 0},
             "trains": {0: 3 + HUNGRY_MARGIN}}
    view = position(**owned, hands={0: hand(blue=3)})
    for agent in (osta, pa, lrja, ha):
        assert agent(view, RNG) == Claim(CONN["EF_blue"], BLUE, 0), agent.__name__
    view = position(**owned, hands={0: hand(blue=1)},
                    face_up=cards("pink", "blue", "black", "white", "orange"))
    for agent in (osta, pa, lrja, ha):
        assert agent(view, RNG) == DrawFaceUp(1), agent.__name__


# ----- Hungry agent ---------------------------------------------------------------------------


def test_ha_draws_tickets_while_its_plan_fits_with_the_margin():
    # ticket D–F: plan D–E (2) + E–F (3) = 5 trains
    fits = position(players=4, tickets=[TICKET["DF"]], hands={},
                    trains={0: 5 + HUNGRY_MARGIN + 1})
    assert hungry_plan(fits, fits.distances(), fits.unfinished())[1] == 5
    assert ha(fits, RNG) == DrawTickets()
    full = position(players=4, tickets=[TICKET["DF"]], hands={}, trains={0: 5 + HUNGRY_MARGIN})
    assert ha(full, RNG) != DrawTickets()


def test_ha_takes_tickets_only_in_its_opening_then_plays_its_plan():
    # The same roomy plan as above, but it has claimed A–B: its opening is over (Smith & Anton:
    # it takes destinations, *then* formulates a plan), so it collects for its plan instead.
    after_first_claim = position(players=4, tickets=[TICKET["DF"]], hands={},
                                 trains={0: 5 + HUNGRY_MARGIN + 1}, owner={CONN["AB"]: 0})
    assert ha(after_first_claim, RNG) != DrawTickets()
    # An opponent's claim does not end its opening.
    others_claimed = position(players=4, tickets=[TICKET["DF"]], hands={},
                              trains={0: 5 + HUNGRY_MARGIN + 1}, owner={CONN["AB"]: 1})
    assert ha(others_claimed, RNG) == DrawTickets()


def test_ha_keeps_the_best_set_whose_plan_leaves_the_keep_margin():
    # Offered A–D, F–H, B–G (keep at least one); their plans need 4, 9 and 8 trains, two of
    # them 12 to 17, all three 18. Points per train count the tickets' and the plan's
    # connection points: F–H with B–G is best (56 points over 15 trains), then F–H alone.
    from dataclasses import replace
    board = tiny_board()
    offer = tuple(board.tickets[TICKET[t]] for t in ("AD", "FH", "BG"))

    def keeps(trains: int) -> KeepTickets:
        view = position(players=4, hands={}, trains={0: trains})
        action = ha(replace(view, offer=offer, keep_at_least=1), RNG)
        assert isinstance(action, KeepTickets)
        return action

    assert keeps(20) == KeepTickets(tuple(sorted((TICKET["FH"], TICKET["BG"]))))
    assert keeps(18) == KeepTickets((TICKET["FH"],))  # all three need all 18: no margin
    assert keeps(8) == KeepTickets((TICKET["AD"],))  # none leaves 5 spare: the fewest trains


def test_grey_connections_are_paid_as_each_agent_pays_them():
    # Ticket D–F: plan D–E (a grey ferry needing one locomotive) + E–F (red or blue, a double
    # that is not at risk with 4 players, so D–E comes first). The hand pays D–E with red or
    # blue plus the locomotive. The Hungry agent needs red elsewhere (E–F red, the lower id),
    # so it pays in blue; One Step Thinker pays in the colour it holds most.
    view = position(players=4, tickets=[TICKET["DF"]],
                    hands={0: hand(red=3, blue=1, locomotive=1)}, trains={0: 5 + HUNGRY_MARGIN})
    assert set(view.payments(CONN["DE"])) == {Claim(CONN["DE"], RED, 1),
                                              Claim(CONN["DE"], BLUE, 1)}
    assert ha(view, RNG) == Claim(CONN["DE"], BLUE, 1)
    assert osta(view, RNG) == Claim(CONN["DE"], RED, 1)


# ----- the same behaviours at every decision of whole games ---------------------------------


def watched_games(n: int):
    """Yield (kind, view, action) for every decision of ``n`` USA games, seats rotated."""
    rules = StandardRules(load_board("usa"))
    lineup = ("osta", "pa", "lrja", "ha")
    for seed in range(n):
        rng = random.Random(seed)
        state = StandardState(rules, seed)
        kinds = StandardSpec(lineup=lineup).rotated(seed % 4).lineup
        policies = seat_policies("described", kinds)
        while not state.is_terminal():
            view = state.observation(state.current)
            action = policies[state.current](view, rng)
            yield kinds[state.current], view, action
            state.apply(action)


def forced(view: PlayerView) -> bool:
    """The rules leave no draw of any kind: only claims (or a pass) remain."""
    return not (view.can_draw_deck or view.face_up_slots() or view.can_draw_tickets)


@pytest.fixture(scope="module")
def decisions():
    return list(watched_games(24))


def test_in_games_lrja_never_claims_short_while_it_has_three_trains(decisions):
    claims = [(v, a) for k, v, a in decisions if k == "lrja" and isinstance(a, Claim)]
    assert len(claims) > 100
    for view, action in claims:
        if view.my_trains >= 3 and not forced(view):
            assert view.board.connections[action.connection].length >= 3


def test_in_games_pa_and_lrja_never_draw_tickets(decisions):
    for kind, view, action in decisions:
        if kind in ("pa", "lrja") and not forced(view):
            assert not isinstance(action, DrawTickets)


def test_in_games_osta_draws_tickets_only_with_nothing_to_work_on(decisions):
    draws = [v for k, v, a in decisions if k == "osta" and isinstance(a, DrawTickets)]
    assert draws, "One Step Thinker should draw tickets in 24 games"
    for view in draws:
        assert not workable(view, view.distances())
        assert min(view.trains) >= TICKET_DRAW_TRAINS


def test_in_games_ha_draws_tickets_exactly_in_its_opening_while_its_plan_fits(decisions):
    turns = [(v, a) for k, v, a in decisions
             if k == "ha" and v.drawn == 0 and not v.offer and not v.setup
             and v.can_draw_tickets and not v.final_round]
    assert any(isinstance(a, DrawTickets) for _, a in turns)
    for view, action in turns:
        _, cost = hungry_plan(view, view.distances(), view.unfinished())
        opening = view.player not in view.owner
        assert isinstance(action, DrawTickets) == (
            opening and cost < view.my_trains - HUNGRY_MARGIN)


def test_the_game_function_is_pure_and_rotation_moves_agents():
    spec = StandardSpec()
    assert play_standard_game(spec, 11) == play_standard_game(spec, 11)
    assert spec.rotated(1).lineup == ("ha", "osta", "pa", "lrja")
    result = play_standard_game(spec.rotated(1), 11)
    assert [s.kind for s in result.seats] == ["ha", "osta", "pa", "lrja"]
    assert sum(s.win for s in result.seats) == pytest.approx(1)
    for s in result.seats:
        assert s.score == s.connections + s.tickets + s.longest


def test_a_board_with_its_own_ticket_deck_plays():
    board = tiny_board()
    result = play_standard_game(StandardSpec(board=board, lineup=("osta", "ha"), trains=20), 3)
    assert result.board == "tiny" and result.end_reason
    assert all(s.kept >= 2 for s in result.seats)


def test_lineups_are_checked():
    assert parse_lineup("osta, pa,lrja,ha") == ("osta", "pa", "lrja", "ha")
    assert parse_lineup("ha", players=3) == ("ha", "ha", "ha")
    with pytest.raises(ValueError, match="unknown agent kind 'epistemic'"):
        parse_lineup("osta,epistemic")
    with pytest.raises(ValueError, match="2 to 5 players"):
        parse_lineup("osta")


def test_every_agent_pays_a_tunnels_extra_cards_if_it_can_else_gives_it_up():
    doc = tiny_board_dict()
    doc["connections"][CONN["AB"]]["tunnel"] = True
    board = parse_board(doc, "tiny board with a tunnel")
    for policy in (osta, pa, lrja, ha, baseline):
        for red, expected in ((3, TunnelPay(0)), (2, TunnelGiveUp())):
            state = StandardState(StandardRules(board, players=2), 0)
            while state.setup:
                state.apply(KeepTickets(state.offers[state.current]))
            arrange(state, hands={0: hand(red=red)}, face_up=ROW, current=0,
                    pile=cards("blue", "red", "white", "black"))
            state.apply(Claim(CONN["AB"], RED, 0))
            assert policy(state.observation(0), RNG) == expected, policy.__name__


def test_the_strategy_agents_play_the_simplified_game_by_its_rules():
    # The simplified rules allow a claim only for one's own tickets or as a declared block, and
    # a view offers no other: the strategy agents' plans bend to that, so each of their claims
    # is on their own shortest paths (and announced as the claim inference) or a declared block.
    from agents.model import TTRModel

    claims = 0
    for seed in range(4):
        model = TTRModel(board="europe24", players=4, tickets_each=2,
                         agent_kinds="osta,pa,lrja,ha", rng=seed)
        while model.running:
            p = model.state.current
            own, targets = model.state.own_connections(p), model.state.block_targets(p)
            model.step()
            turn = model.history[-1]
            if turn.claimed is None:
                continue
            claims += 1
            announced = [a.kind for a in turn.announcements if a.kind != "completion"]
            if turn.block is None:
                assert turn.claimed in own and announced == ["claim"], (seed, turn.turn)
            else:
                assert turn.claimed in targets[turn.block] and announced == ["block"]
        assert model.state.is_terminal()
        assert model.worlds.n_worlds >= 1  # every announcement kept the actual world
    assert claims >= 20, "too few claims to say anything"
