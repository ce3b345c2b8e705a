"""Outside announcements in a game ("what if everyone learned p(1,14)?") and the timeline: the
players act on what was announced, the log replays it, and going back restores everything."""

from __future__ import annotations

import pytest

from agents import log
from agents.model import TTRModel
from agents.timeline import Timeline
from game.knowledge import AnnouncementKind
from kripke import AnnouncementError


def new_game(**params) -> TTRModel:
    return TTRModel(players=3, tickets_each=2, agent_kinds="epistemic", rng=5, **params)


def opponent_ticket(model: TTRModel, player: int = 1) -> tuple[int, int]:
    return player, model.state.tickets[player][0].id


def everything(model: TTRModel):
    """What the page shows of a game: board, scores, the shared model, records, chart."""
    state = model.state
    return (state.turn, state.current, tuple(state.owner), tuple(map(tuple, state.hands)),
            tuple(state.trains), state.scores(), model.worlds.world_ids.tolist(),
            [(t.turn, t.actions, [(a.text, a.worlds_after) for a in t.announcements])
             for t in model.history], [a.text for a in model.opening], model.blocks,
            [s.blocks for s in model.seats], model.running,
            {name: list(values) for name, values in model.datacollector.model_vars.items()},
            model.random.getstate())


def test_a_false_announcement_is_refused_and_changes_nothing():
    model = new_game()
    before = everything(model)
    player, ticket = opponent_ticket(model)
    with pytest.raises(AnnouncementError, match="false at the actual world"):
        model.announce_outside(f"~p({player},{ticket})")
    assert everything(model) == before


def test_players_act_on_an_outside_announcement_from_the_next_turn():
    model = new_game()
    player, ticket = opponent_ticket(model)
    assert (player, ticket) not in model.state.knowledge(0).known_opponent_tickets
    made = model.announce_outside(f"p({player},{ticket})", by="Ms Smith")
    assert made.kind is AnnouncementKind.OUTSIDE and made.by == "Ms Smith"
    assert made.worlds_after < made.worlds_before == model.initial_worlds
    assert (player, ticket) in model.state.knowledge(0).known_opponent_tickets
    assert model.opening == [made]
    model.step()
    later = model.announce_outside("true")  # after a turn it joins that turn's record
    assert model.history[-1].announcements[-1] == later


def test_the_log_replays_outside_announcements_to_the_same_model(tmp_path):
    model = new_game()
    player, ticket = opponent_ticket(model)
    model.announce_outside(f"p({player},{ticket})")
    for _ in range(5):
        model.step()
    other, other_ticket = opponent_ticket(model, 2)
    model.announce_outside(f"p({other},{other_ticket}) | p(0,{other_ticket})")
    model.run()
    path = tmp_path / "game.jsonl"
    log.save(model, path)
    state, worlds = log.replay(path)
    assert state.scores() == model.state.scores()
    assert worlds.world_ids.tolist() == model.worlds.world_ids.tolist()
    head = path.read_text().splitlines()[0]
    assert '"kind": "outside"' in head and '"by": "the teacher"' in head


def test_back_then_forward_restores_every_moment_exactly():
    model = new_game()
    timeline = Timeline(model)
    seen = [everything(model)]
    for turn in range(12):
        timeline.step()
        if turn == 4:
            player, ticket = opponent_ticket(model)
            timeline.announce(f"p({player},{ticket})")
            seen.append(everything(model))
        seen.append(everything(model))
    assert len(timeline.moments) == len(seen) == 14
    for index in [3, 0, 13, 6, 7, 1]:
        timeline.go(index)
        assert everything(model) == seen[index]
    timeline.go(2)
    while not timeline.at_end:
        timeline.forward()
    assert everything(model) == seen[-1]


def test_playing_on_after_going_back_is_the_same_game_as_never_going_back():
    straight = new_game()
    for _ in range(30):
        straight.step()
    model = new_game()
    timeline = Timeline(model)
    for _ in range(20):
        timeline.step()
    timeline.go(8)
    for _ in range(22):
        timeline.step()
    assert everything(model) == everything(straight)


def test_a_new_announcement_after_going_back_starts_a_new_branch():
    model = new_game()
    timeline = Timeline(model)
    for _ in range(10):
        timeline.step()
    timeline.go(3)
    player, ticket = opponent_ticket(model)
    timeline.announce(f"p({player},{ticket})")
    assert len(timeline.moments) == 5 and timeline.at_end  # turns 4..10 dropped
    for _ in range(20):
        timeline.step()
    # the same as a game told straight: three turns, the announcement, twenty turns
    straight = new_game()
    for _ in range(3):
        straight.step()
    straight.announce_outside(f"p({player},{ticket})")
    for _ in range(20):
        straight.step()
    assert everything(model) == everything(straight)


def test_a_refused_announcement_keeps_the_recorded_future():
    model = new_game()
    timeline = Timeline(model)
    for _ in range(6):
        timeline.step()
    timeline.go(2)
    with pytest.raises(AnnouncementError):
        timeline.announce("false")
    assert len(timeline.moments) == 7 and timeline.position == 2
