"""TTRModel as users drive it: seeded, replayable, Mesa-compatible, and truthful to the end."""

from __future__ import annotations

import json
from functools import partial

import mesa
import numpy as np
import pytest

from agents import kinds as agent_kinds
from agents import log
from agents.model import TTRModel
from game import play as game_loop
from game.cards import N_CARD_TYPES
from game.knowledge import deal_worlds, ticket_atom
from game.log import event_to_json
from game.state import GameState
from kripke import deal_count


def play(seed: int, **params) -> TTRModel:
    model = TTRModel(rng=seed, **params)
    model.run()
    return model


def fingerprint(model: TTRModel):
    return ([(t.player, t.actions, [a.text for a in t.announcements]) for t in model.history],
            model.state.scores(), model.worlds.world_ids.tolist())


def test_same_seed_same_game_and_different_seeds_differ():
    params = dict(players=3, tickets_each=2, agent_kinds="epistemic,baseline,random")
    assert fingerprint(play(11, **params)) == fingerprint(play(11, **params))
    assert fingerprint(play(11, **params)) != fingerprint(play(12, **params))


KINDS = ["epistemic", "baseline", "epistemic,baseline", "random,epistemic,baseline",
         "epistemic,epistemic,baseline,random"]


@pytest.mark.parametrize("chunk", range(20))
def test_the_actual_world_survives_every_turn_of_thousands_of_games(chunk):
    """2,000 games of every size up to 4×3 and every mix of kinds. ``announce`` raises on an
    untruthful announcement, so finishing is already the claim; the deal is checked too."""
    for seed in range(chunk * 100, chunk * 100 + 100):
        players = 2 + seed % 3
        tickets = 1 + (seed // 3) % 3
        kinds = KINDS[seed % len(KINDS)]
        if kinds.count(",") + 1 not in (1, players):
            kinds = kinds.split(",")[0]
        model = play(seed, players=players, tickets_each=tickets, agent_kinds=kinds)
        assert model.worlds.actual is not None
        for p, held in enumerate(model.state.tickets):
            for t in held:
                assert model.worlds.holds(ticket_atom(p, t.id))
        assert 1 <= model.world_count <= deal_count(players * tickets, [tickets] * players)


def test_blocks_and_giveaways_happen_in_a_fair_share_of_epistemic_games():
    games = [play(seed, players=3, tickets_each=2) for seed in range(100)]
    with_block = sum(m.blocks > 0 for m in games)
    with_giveaway = sum(any(a.kind == "claim" and a.removed for t in m.history
                            for a in t.announcements) for m in games)
    assert with_block >= 30, f"blocks in only {with_block} of 100 games"
    assert with_giveaway >= 50, f"claims revealed something in only {with_giveaway} of 100 games"


def test_the_event_log_replays_to_the_same_state_and_kripke_model(tmp_path):
    model = play(5, players=3, tickets_each=3, agent_kinds="epistemic,baseline,epistemic")
    assert model.blocks, "the replay must allow the blocks as play did (knowledge and all)"
    path = tmp_path / "game.jsonl"
    log.save(model, path)
    state, worlds = log.replay(path)
    assert state.scores() == model.state.scores()
    assert state.owner == model.state.owner
    assert state.hands == model.state.hands
    assert state.history == model.state.history
    assert np.array_equal(worlds.world_ids, model.worlds.world_ids)
    assert worlds.actual is not None and worlds.world_ids[worlds.actual] == \
        model.worlds.world_ids[model.worlds.actual]


def test_a_tampered_log_is_refused_with_the_event_named(tmp_path):
    model = play(5, players=2, tickets_each=2)
    path = tmp_path / "game.jsonl"
    log.save(model, path)
    lines = [json.loads(line) for line in path.read_text().splitlines()]
    draw = next(line for line in lines[1:] if line.get("cards"))
    draw["cards"] = [(draw["cards"][0] + 1) % N_CARD_TYPES]  # a card the pile did not hold there
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))
    with pytest.raises(ValueError, match=f"replay diverges at event {draw['index']}"):
        log.replay(path)


def _rewritten(path, **header_changes):
    lines = path.read_text().splitlines()
    head = json.loads(lines[0])
    for key, value in header_changes.items():
        if value is None:
            head.pop(key)
        else:
            head[key] = value
    path.write_text("\n".join([json.dumps(head), *lines[1:]]) + "\n")


@pytest.mark.parametrize("change, message", [
    (dict(board_fingerprint="0123456789abcdef"),
     r"line 1: the log was played on a board europe24 with fingerprint 0123456789abcdef, but "
     r"board europe24 here has fingerprint [0-9a-f]{16} \(the board has changed since\)"),
    (dict(rules_version=1), "line 1: the log was played under rules version 1, this program "
                            "plays version 2; record the game again"),
    (dict(version=1, board_fingerprint=None, rules_version=None),
     r"line 1: log version 1 is not 3, the version this program reads \(written before logs "
     r"named their board's fingerprint and rules' version"),
])
def test_a_log_of_another_board_or_rules_is_refused_before_replay(tmp_path, change, message):
    model = play(5, players=2, tickets_each=2)
    path = tmp_path / "game.jsonl"
    log.save(model, path)
    _rewritten(path, **change)
    with pytest.raises(ValueError, match=message):
        log.replay(path)


def test_the_data_collector_records_every_turn():
    model = play(3, players=3, tickets_each=2)
    frame = model.datacollector.get_model_vars_dataframe()
    assert len(frame) == model.turn + 1
    assert frame["Worlds"].iloc[0] == 90 and frame["Worlds"].iloc[-1] == model.world_count
    assert list(frame["Worlds"]) == sorted(frame["Worlds"], reverse=True)
    assert all(len(scores) == 3 for scores in frame["Scores"])
    assert list(frame["Scores"].iloc[-1]) == model.state.scores()
    assert list(frame["Blocks"].iloc[-1]) == [seat.blocks for seat in model.seats]


def test_it_works_with_mesa_batch_run():
    results = mesa.batch_run(TTRModel, parameters={"players": [2, 3], "tickets_each": 2,
                                                   "agent_kinds": "epistemic"},
                             max_steps=1000, number_processes=1,
                             data_collection_period=-1, display_progress=False, rng=[1, 2])
    assert {r["players"] for r in results} == {2, 3}
    assert all(r["Worlds"] >= 1 for r in results)


@pytest.mark.parametrize(("params", "message"), [
    (dict(players=3, agent_kinds="epistemic,baseline"), "2 agent kinds given for 3 players"),
    (dict(agent_kinds="genius"), "unknown agent kind 'genius'"),
    (dict(players=1), "players must be 2 to 5"),
    (dict(players=4, tickets_each=5), "need 20 tickets"),
    (dict(board="atlantis"), "unknown board"),
])
def test_bad_parameters_are_named(params, message):
    with pytest.raises(ValueError, match=message):
        TTRModel(**params)


def test_the_deal_model_has_the_textbook_world_count():
    model = TTRModel(players=3, tickets_each=3, rng=1)
    dealt = deal_worlds(model.rules, model.state.tickets)
    assert dealt.n_worlds == deal_count(9, [3, 3, 3]) == 1680


def test_a_seed_plays_the_same_game_through_mesa_and_through_the_bare_loop():
    """TTRModel is the Mesa face of the one game loop: the same seed and line-up played by
    ``game.play`` without Mesa give the very same events, whoever watches."""
    kinds = ("epistemic", "baseline", "random")
    model = TTRModel(board="europe24", players=3, tickets_each=2, agent_kinds=kinds, rng=5)
    watched: list[int] = []
    model.on_event = lambda state, event: watched.append(event.index)
    model.run()
    state, rng = game_loop.seeded(partial(GameState, model.rules), 5)
    game_loop.play(state, [agent_kinds.KINDS[agent_kinds.AgentKind(k)].simplified
                           for k in kinds], rng)
    assert [event_to_json(e) for e in state.history] == [
        event_to_json(e) for e in model.state.history]
    assert watched == list(range(len(model.state.history))) and model.blocks > 0
