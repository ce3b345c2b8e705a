"""The ``engine`` source of the four strategy agents (``agents.engine_strategies``): decisions
the authors' engine makes, bugs included, and the ``--strategies`` option."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest
from positions import CONN, TICKET, cards, hand, tiny_board
from test_strategies import RNG, position

from agents import engine_strategies
from agents.engine_strategies import (
    GREY,
    EngineSeat,
    SeatMemory,
    ha_engine,
    hungry_plan,
    joint,
    least_points,
    lrja_engine,
    osta_engine,
    pa_engine,
)
from agents.kinds import standard_kinds
from agents.py2order import fewest_hops
from agents.standard_game import StandardSpec, play_standard_game
from agents.strategies import osta, pa
from app.cli.main import main
from boards.loader import load_board
from game.actions import Claim, DrawDeck, DrawFaceUp, DrawTickets, KeepTickets
from game.cards import card_index
from game.standard_rules import StandardRules
from game.standard_state import StandardState


def setup_view(seed: int = 3):
    rules = StandardRules(load_board("usa"), players=4)
    state = StandardState(rules, seed)
    return state.observation(state.current)


def test_hungry_stores_the_trains_of_the_last_set_it_evaluated_not_of_the_set_it_keeps():
    # engine: hungryAgent.decide sets current_threshold = x[1] after its loop over the
    # offered sets, x being the plan of the last set (all three tickets), whichever it kept
    view = setup_view()
    memory = SeatMemory()
    action = ha_engine(view, random.Random(0), memory)
    assert isinstance(action, KeepTickets)
    cities = list(dict.fromkeys(c for t in view.offer for c in (t.a, t.b)))
    every = hungry_plan(view, view.distances(), joint(view, SeatMemory()), cities)
    assert every is not None and memory.threshold == every.trains
    assert memory.kept == [t.id for t in view.offer if t.id in action.tickets]


def test_one_step_keeps_its_setup_tickets_and_the_long_route_junkie_the_two_least_valuable():
    # engine: oneStepThinkerAgent keeps the move with all 3 dealt tickets; longRouteJunkieAgent's
    # calculate_value calls graph.has_path (no such method), so every set is "least worst"
    # and it keeps the first with the fewest points
    view = setup_view()
    kept = osta_engine(view, random.Random(0), SeatMemory())
    assert isinstance(kept, KeepTickets) and len(kept.tickets) == 3
    junkie = lrja_engine(view, random.Random(0), SeatMemory())
    cheapest = sorted(view.offer, key=lambda t: t.points)[:2]
    assert isinstance(junkie, KeepTickets) and len(junkie.tickets) == 2
    assert sum(t.points for t in view.offer if t.id in junkie.tickets) == sum(
        t.points for t in cheapest)
    assert least_points(view) and len(least_points(view)) == 2


def test_an_engine_game_is_the_same_for_the_same_seed_with_fresh_memories():
    spec = StandardSpec(strategies="engine")
    first = play_standard_game(spec, 5)
    assert play_standard_game(spec, 5) == first
    assert play_standard_game(StandardSpec(), 5) != first  # the source is the variable
    assert standard_kinds("engine") == ("osta", "pa", "lrja", "ha")
    assert EngineSeat(ha_engine).memory is not EngineSeat(ha_engine).memory


@pytest.mark.parametrize("command", [
    ["batch", "--rules", "standard", "--games", "1"],
    ["metrics", "--games", "1", "--workers", "0"],
    ["balance", "--games", "1", "--workers", "0"],
    ["evolve", "deck", "--games", "1", "--workers", "0"],
])
def test_a_bad_strategies_value_is_one_line_and_exit_2(command, capsys, tmp_path):
    out = ["--csv", str(tmp_path / "b.csv")] if command[0] == "batch" else [
        "--out", str(tmp_path / "o")]
    with pytest.raises(SystemExit) as exit_:
        main([*command, *out, "--strategies", "papers"])
    assert exit_.value.code == 2
    err = capsys.readouterr().err
    assert "invalid choice: 'papers'" in err and err.count("\n") == 1


def test_the_engine_source_has_only_the_papers_four_agents(capsys, tmp_path):
    assert main(["batch", "--rules", "standard", "--games", "1", "--agents", "ha,baseline",
                 "--csv", str(tmp_path / "b.csv")]) == 2  # engine, the default
    err = capsys.readouterr().err
    assert "'baseline' has no engine version" in err and err.count("\n") == 1
    assert "--strategies described" in err  # where baseline plays


@pytest.mark.parametrize("command", [
    ["batch", "--rules", "standard"], ["metrics"], ["balance"], ["evolve", "deck"],
])
def test_the_standard_rules_commands_play_the_engines_agents_unless_told(command):
    """What reproduces the published figures is what a researcher gets by default (issue 39);
    the described agents stay one option away."""
    from app.cli.lab_options import lab_spec
    from app.cli.main import build_parser
    from app.cli.standard_batch import standard_spec

    def source(*extra: str) -> str:
        args = build_parser().parse_args([*command, *extra])
        spec = standard_spec(args)[0] if command[0] == "batch" else lab_spec(args)
        return spec.strategies

    assert source() == "engine"
    assert source("--strategies", "described") == "described"


def test_engine_batches_are_the_same_bytes_on_one_worker_and_on_two(tmp_path, capsys):
    # each worker builds fresh seat memories from the spec's source name, so where a game is
    # played does not change it
    outputs = []
    for workers in ("1", "2"):
        out = tmp_path / f"w{workers}.csv"
        assert main(["batch", "--rules", "standard", "--games", "4", "--rotate-seats",
                     "--strategies", "engine", "--workers", workers, "--csv", str(out),
                     "--no-progress"]) == 0
        outputs.append(out.read_bytes())
        assert "engine strategies" in capsys.readouterr().out
    assert outputs[0] == outputs[1]


# ----- decisions on the tiny board (tests/positions.py), the engine's choice beside each -------

RED, YELLOW, WHITE, GREEN = (card_index(c) for c in
                              ("red", "yellow", "white", "green"))


def test_path_claims_the_least_valuable_connection_once_its_tickets_are_done():
    # engine: pathAgent.decide queues every free connection by +points in a min-queue, so F–G
    # (1 point) comes before A–B (2 points); the described agent claims the most valuable
    view = position(tickets=[], hands={0: hand(red=2, white=1)})
    assert pa_engine(view, RNG, SeatMemory()) == Claim(CONN["FG"], WHITE, 0)
    assert pa(view, RNG) == Claim(CONN["AB"], RED, 0)


def test_path_never_takes_a_face_up_card():
    # engine: pathAgent compares the move's 'red' with its colour 'RED', never equal, so it
    # draws from the pile although A–B's red lies face up
    view = position(tickets=[TICKET["AD"]], face_up=cards("red", "blue", "green", "yellow",
                                                          "white"))
    assert pa_engine(view, RNG, SeatMemory()) == DrawDeck()


def test_one_step_follows_the_fewest_hop_path_not_the_fewest_trains():
    # engine: oneStepThinkerAgent.chooseNextRouteTarget takes nx.shortest_path without
    # weights: C–E direct (1 hop, 5 trains) rather than C–D–E (2 hops, 4 trains)
    view = position(tickets=[TICKET["CE"]], hands={0: hand(white=5, green=2)})
    assert osta_engine(view, RNG, SeatMemory(previous_points=-1)) == Claim(CONN["CE"], WHITE, 0)
    assert osta(view, RNG) == Claim(CONN["CD"], GREEN, 0)


def test_one_step_keeps_the_single_least_valuable_ticket_of_a_draw():
    # engine: calculate_value raises inside its try (graph.has_path), every set is "least
    # worst", and the first with the fewest points is the cheapest single ticket
    state = StandardState(StandardRules(tiny_board(), players=2), 0)
    while state.setup:
        state.apply(KeepTickets(state.offers[state.current]))
    state.offers[state.current] = (TICKET["FH"], TICKET["BC"], TICKET["AE"])
    view = state.observation(state.current)
    assert not view.setup and view.keep_at_least == 1
    assert osta_engine(view, RNG, SeatMemory()) == KeepTickets((TICKET["BC"],))


def test_hungry_draws_tickets_while_its_stored_threshold_is_below_its_trains_minus_8():
    # engine: hungryAgent.decide returns drawDestinationCards while current_threshold <
    # number_of_trains - 8, whatever its plan now needs
    view = position(tickets=[TICKET["AD"]])
    assert ha_engine(view, RNG, SeatMemory(threshold=0.0)) == DrawTickets()
    assert ha_engine(view, RNG, SeatMemory(threshold=float(view.my_trains))) != DrawTickets()


def test_hungry_takes_the_most_plentiful_face_up_colour_only_if_its_plan_needs_it():
    # engine: its test for the plan's most needed colour compares 'YELLOW' with 'yellow' and
    # never holds; it takes the colour lying face up most if the plan needs it, else the pile
    memory = SeatMemory(previous_points=-1, threshold=100.0)  # plans now, draws no tickets
    view = position(tickets=[TICKET["AD"]], face_up=cards("yellow", "pink", "pink", "black",
                                                          "white"))
    assert ha_engine(view, RNG, memory) == DrawDeck()  # pink is most plentiful, not needed
    assert memory.needs is not None and memory.needs[YELLOW] == 4  # plan: A–D, 4 yellow
    view = position(tickets=[TICKET["AD"]], face_up=cards("yellow", "yellow", "pink", "black",
                                                          "white"))
    assert ha_engine(view, RNG, SeatMemory(previous_points=-1, threshold=100.0)) \
        == DrawFaceUp(0)


def usa_connection(board, a: str, b: str, half: int = 0) -> int:
    """The id of the ``half``-th connection between two USA cities, in the board's order."""
    return [c.id for c in board.connections if {c.a, c.b} == {a, b}][half]


def test_fewest_hop_paths_are_the_ones_networkx_22_found_in_the_engine():
    # engine (Python 2.7, networkx 2.2, its usa.txt), nothing claimed, Path's joint graph:
    # nx.shortest_path(joint, 'LOS ANGELES', 'NEW YORK') and the same the other way round
    view = setup_view()
    graph = joint(view, SeatMemory()).graph
    assert fewest_hops(graph, "Los Angeles", "New York") == [
        "Los Angeles", "El Paso", "Dallas", "Little Rock", "Nashville", "Pittsburgh", "New York"]
    assert fewest_hops(graph, "New York", "Los Angeles") == [
        "New York", "Pittsburgh", "Chicago", "Omaha", "Denver", "Phoenix", "Los Angeles"]


def test_own_connections_join_the_engine_graph_last_in_the_order_they_were_claimed():
    # engine: El Paso-Dallas taken by player 1, one half of Pittsburgh-New York by 2 and of
    # Chicago-Pittsburgh by 3; player 0 claimed Los Angeles-Phoenix, then Phoenix-Denver.
    # nx.shortest_path(joint, 'LOS ANGELES', 'NEW YORK') for player 0:
    state = StandardState(StandardRules(load_board("usa"), players=4), 3)
    board = state.rules.board
    for a, b, who in [("El Paso", "Dallas", 1), ("Pittsburgh", "New York", 2),
                      ("Chicago", "Pittsburgh", 3), ("Los Angeles", "Phoenix", 0),
                      ("Phoenix", "Denver", 0)]:
        state.owner[usa_connection(board, a, b)] = who
    view = state.observation(0)
    mine = [usa_connection(board, "Los Angeles", "Phoenix"),
            usa_connection(board, "Phoenix", "Denver")]
    graph = joint(view, SeatMemory(claimed=mine)).graph
    assert fewest_hops(graph, "Los Angeles", "New York") == [
        "Los Angeles", "Phoenix", "Denver", "Omaha", "Chicago", "Pittsburgh", "New York"]


def test_hungrys_plan_takes_the_fewest_trains_path_networkx_22s_dijkstra_found():
    # engine (its usa.txt with Salt Lake City-San Francisco at 5 trains, as published; nothing
    # claimed): HungryAgent().generate_game_plan(['VANCOUVER', 'PITTSBURGH'], joint_graph)
    # returns 37 points, 19 trains, Vancouver-Seattle grey, Seattle-Helena yellow,
    # Helena-Omaha red, Omaha-Chicago blue, Chicago-Pittsburgh orange (one of several paths
    # of 19 trains)
    view = setup_view()
    plan = hungry_plan(view, view.distances(), joint(view, SeatMemory()),
                       ["Vancouver", "Pittsburgh"])
    assert plan is not None and (plan.points, plan.trains) == (37, 19)
    colour = {name: card_index(name) for name in ("yellow", "red", "blue", "orange")}
    assert plan.routes[colour["yellow"]] == [("Helena", "Seattle")]
    assert plan.routes[colour["red"]] == [("Helena", "Omaha")]
    assert plan.routes[colour["blue"]] == [("Chicago", "Omaha")]
    assert plan.routes[colour["orange"]] == [("Chicago", "Pittsburgh")]
    assert plan.routes[GREY] == [("Seattle", "Vancouver")]


def test_an_evolve_checkpoint_of_one_source_does_not_resume_with_the_other(tmp_path, capsys):
    argv = ["evolve", "deck", "--games", "1", "--population", "2", "--generations", "1",
            "--tournament", "2", "--confirm", "1", "--workers", "0", "--no-progress",
            "--out", str(tmp_path / "deck")]
    assert main(argv) == 0  # engine, the default
    capsys.readouterr()
    assert main([*argv, "--resume", "--strategies", "described"]) == 2
    err = capsys.readouterr().err
    assert "saved by another search" in err and err.count("\n") == 1


@pytest.mark.parametrize("command", [
    ["batch", "--games", "1"],  # the simplified game is batch's default
    ["metrics", "--rules", "simplified", "--games", "1", "--workers", "0"],
])
def test_strategies_belong_to_the_standard_rules(command, capsys, tmp_path):
    out = ["--csv", str(tmp_path / "b.csv")] if command[0] == "batch" else [
        "--out", str(tmp_path / "o")]
    assert main([*command, *out, "--strategies", "engine"]) == 2
    err = capsys.readouterr().err
    assert "--strategies belong" in err and err.count("\n") == 1


def test_tables_kept_per_board_stay_bounded_over_a_search_of_many_boards():
    # a search plays board after board; each kept its tables for good before (a leak)
    base = StandardRules(load_board("usa"), players=4)
    for i in range(3 * engine_strategies.KEPT_TABLES):
        board = replace(base.board, name=f"usa-{i}")
        state = StandardState(StandardRules(board, players=4), i)
        pa_engine(state.observation(state.current), RNG, SeatMemory())
        assert len(engine_strategies._KEPT) <= engine_strategies.KEPT_TABLES
