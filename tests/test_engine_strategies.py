"""The ``engine`` source of the four strategy agents (``agents.engine_strategies``): decisions
the authors' engine makes, bugs included, and the ``--strategies`` option."""

from __future__ import annotations

import random

import pytest

from agents.engine_strategies import (
    ENGINE_STRATEGIES,
    EngineSeat,
    SeatMemory,
    ha_engine,
    hungry_plan,
    joint,
    least_points,
    lrja_engine,
    osta_engine,
)
from agents.standard_game import StandardSpec, play_standard_game
from app.cli import main
from boards.loader import load_board
from game.actions import KeepTickets
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
    every = hungry_plan(view, view.distances(), joint(view), cities)
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
    assert set(ENGINE_STRATEGIES) == {"osta", "pa", "lrja", "ha"}
    assert EngineSeat("ha").memory is not EngineSeat("ha").memory


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
                 "--strategies", "engine", "--csv", str(tmp_path / "b.csv")]) == 2
    err = capsys.readouterr().err
    assert "'baseline' has no engine version" in err and err.count("\n") == 1
