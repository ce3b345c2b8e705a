"""Seeded games replay exactly as stored: the same seeds and line-ups played by today's code give
the very events (and announcements) recorded in ``tests/data/logs`` before policies moved onto
per-player views. A change that means to change play regenerates them (``stored_logs.py``)."""

from __future__ import annotations

import pytest
from stored_logs import FOLDER, SIMPLIFIED, STANDARD, simplified_game, standard_records

from agents import log
from game.log import header, read_log, replay


@pytest.mark.parametrize("name", sorted(SIMPLIFIED))
def test_simplified_games_play_as_stored(name):
    head, stored = read_log(FOLDER / f"{name}.jsonl")
    model = simplified_game(name)
    final = head.pop("final", None)  # the end a log written since says, checked by replay
    assert header(model.state, agents=[s.kind for s in model.seats],
                  model_seed=model.seed) == head
    assert final in (None, {"turn": model.state.turn, "trains": model.state.trains,
                            "scores": model.state.scores()})
    assert list(log.records(model)) == stored
    state, worlds = log.replay(FOLDER / f"{name}.jsonl")
    assert state.scores() == model.state.scores() and worlds.n_worlds == model.world_count


@pytest.mark.parametrize("name", sorted(STANDARD))
def test_standard_games_play_as_stored(name):
    head, stored = read_log(FOLDER / f"{name}.jsonl")
    assert standard_records(name) == (head, stored)
    assert replay(head, stored).end_reason == stored[-1]["end_reason"]
