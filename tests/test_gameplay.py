"""The gameplay report: what one game showed, and how rows fold many games, as the design lab
and the europe24 search read them."""

from __future__ import annotations

from dataclasses import replace

import pytest

from agents.batch import GameSpec
from agents.gameplay import (
    GOALS,
    OPENING_TURNS,
    GameStats,
    Goal,
    game_stats,
    gameplay_row,
    gameplay_rows,
    goals_key,
    longest_run,
)
from agents.model import TTRModel
from app.web.components.session import DEFAULT_SEED


def test_longest_run_counts_consecutive_turns():
    assert longest_run([]) == 0
    assert longest_run([False, True, True, False, True]) == 2
    assert longest_run([True] * 5) == 5


def test_one_games_stats_agree_with_its_history():
    model = TTRModel(players=3, rng=11)
    model.run()
    stats = game_stats(GameSpec(players=3), 11)
    turns = model.history
    assert stats.turns == len(turns) == model.state.turn
    assert stats.claim_turns == sum(t.claimed is not None for t in turns)
    assert stats.blocks == model.blocks == sum(t.block is not None for t in turns)
    assert stats.completions == stats.tickets_finished == sum(map(len, model.state.finished))
    assert stats.tickets_dealt == 6 and stats.end_reason == model.state.end_reason
    removing = [t.turn for t in turns for a in t.announcements if a.kind == "claim" and a.removed]
    assert stats.informative_claims == len(removing)
    assert stats.first_informative_claim == (removing[0] if removing else None)
    gaps, run = [], 0
    for t in turns:  # the longest stretch without a claim, counted the slow way
        run = 0 if t.claimed is not None else run + 1
        gaps.append(run)
    assert stats.longest_without_claim == max(gaps)


def _stats(seed: int, **values) -> GameStats:
    base = GameStats(seed=seed, turns=40, claim_turns=10, longest_without_claim=5,
                     tickets_dealt=6, tickets_finished=2, informative_claims=3, blocks=1,
                     completions=2, first_informative_claim=1, first_block=8,
                     first_completion=20, end_reason="trains")
    return replace(base, **values)


def test_a_row_folds_games_into_medians_percentiles_and_shares():
    games = [_stats(s, turns=30 + 10 * s, longest_without_claim=s, blocks=s % 2,
                    first_completion=None if s == 0 else 25 + s, end_reason=(
                        "tickets" if s < 3 else "stalemate")) for s in range(10)]
    row = gameplay_row(GameSpec(players=3), games)
    assert row["games"] == 10 and row["trains"] == TTRModel(players=3).rules.trains
    assert row["turns_median"] == 75 and row["turns_p90"] == 110  # a turn count some game had
    assert row["gap_median"] == 4.5 and row["gap_p90"] == 8
    assert row["claim_turn_share"] == pytest.approx(100 / sum(30 + 10 * s for s in range(10)))
    assert row["finished_share"] == pytest.approx(20 / 60)
    assert row["with_block"] == 0.5 and row["blocks_per_game"] == 0.5
    assert row["opening_shows_all"] == 0.4  # completions in the first 30 turns: seeds 1–4
    assert (row["ended_by_tickets"], row["ended_by_stalemate"], row["ended_by_trains"]) == \
        (0.3, 0.7, 0.0)


def test_goals_say_how_far_a_row_misses():
    assert Goal("x", high=8).shortfall({"x": 10}) == pytest.approx(0.25)
    assert Goal("x", low=0.9).shortfall({"x": 0.45}) == pytest.approx(0.5)
    assert Goal("x", low=30, high=60).shortfall({"x": 45}) == 0
    assert [str(g) for g in GOALS][:3] == ["≤ 8", "≤ 15", "≥ 90%"]
    good = {g.column: (g.low if g.low > float("-inf") else g.high) for g in GOALS}
    assert goals_key(good) == (len(GOALS), 0)
    worse = {**good, "finished_share": 0.15}
    assert goals_key(worse) < goals_key({**good, "finished_share": 0.25}) < goals_key(good)


def test_rows_are_the_same_whatever_runs_the_games():
    spec = GameSpec(players=2)
    serial = gameplay_rows([spec], range(5))
    shuffled = gameplay_rows([spec], range(5), map=lambda f, seeds: reversed(
        [f(s) for s in reversed(list(seeds))]))
    assert serial == shuffled


def test_the_demos_default_game_shows_every_kind_of_announcement_in_its_first_30_turns():
    # What a new user sees after make demo and a few Steps: a claim that gives a ticket away, a
    # declared block and a completed ticket, each announced, well before turn 30.
    from app.web.components.session import defaults, new_model

    d = defaults({})
    model = new_model(d)
    while model.running and model.turn < OPENING_TURNS:
        model.step()
    seen = {a.kind for turn in model.history for a in turn.announcements
            if a.kind != "claim" or a.removed}
    assert seen == {"claim", "block", "completion"}, f"seed {d.seed} shows only {seen}"
    assert (d.board, d.players, d.tickets, d.agents, d.seed) == \
        ("europe24", 3, 2, "epistemic", DEFAULT_SEED)
    assert game_stats(GameSpec(), DEFAULT_SEED).opening_shows_all  # the report agrees
