"""The open game's worlds card without a browser: the seeded story of ``open_game_story``
(a bluff plants a false belief, a declared block revises it) as the model has it, and as the
card draws and says it, the player's view saying only what the player may see."""

from __future__ import annotations

import re
from dataclasses import replace

from agents.model import TTRModel
from agents.timeline import Timeline
from app.web.components.belief_shading import (
    BELIEF_HINT,
    belief_examples,
    belief_legend,
    belief_step,
    news_html,
)
from app.web.components.session import Defaults, new_model
from app.web.components.worlds import Layouts, worlds_picture
from app.worlds.layout import ClassTiles
from app.worlds.ranks import BELIEVED, DROPPED
from kripke import parse
from tests.open_game_story import (
    BLUFF_TURN,
    BLUFFER,
    LINEUP,
    REVISION_TURN,
    SEED,
    SETTINGS,
    VIEWER,
    Story,
)


def card(story: Story, layouts: Layouts, perspective: int | None, focus: int = VIEWER):
    """The picture of the worlds card (``focus``'s classes) and what it says about belief."""
    model = story.model
    picture = worlds_picture(model, layouts, focus, perspective, None,
                             first=story.session.first_worlds)
    step = belief_step(model, story.session.timeline, focus)
    assert step is not None  # the open game's model orders the deals
    layout = layouts[(focus, perspective is not None)]
    return (step.picture(picture, layout, model.worlds),
            news_html(step, model, story.session.timeline, outside=perspective is None))


def plain(html: str) -> str:
    """What the card's words read as (tags dropped)."""
    return re.sub(r"<[^>]+>", "", html)


def marked(picture, belief: str) -> set[int]:
    return {int(m.key[1:]) for m in picture.marks if m.belief == belief}


def test_the_seeded_game_is_the_story_the_tests_tell():
    story = Story()
    story.play_to(BLUFF_TURN)
    assert story.false_beliefs() == []
    story.play_to(BLUFF_TURN + 1)
    bluff = story.model.history[-1]
    assert bluff.player == BLUFFER and bluff.claimed is not None
    planted = story.false_beliefs()
    assert planted, "the bluff planted no false belief in player 2"
    story.play_to(REVISION_TURN)
    assert story.false_beliefs() == planted  # it lasted until the block
    before = story.believed_ids()
    story.play_to(REVISION_TURN + 1)
    block = story.model.history[-1]
    assert block.block is not None and block.block[0] == BLUFFER
    left = set(story.model.worlds.world_ids.tolist())
    assert not before & left  # hard information ruled out every deal player 2 believed in
    assert story.believed_ids() and planted[0] not in story.false_beliefs()


def test_the_player_sees_its_new_belief_and_only_the_teacher_sees_it_is_false():
    story = Story()
    story.play_to(BLUFF_TURN + 1)
    [planted] = story.false_beliefs()
    own, said = card(story, {}, VIEWER)
    assert f"player 2 now believes player 0 holds {story.ticket(planted)}" in plain(said)
    assert "false" not in said and "bluff" not in said  # no leak: player 2 cannot know
    assert marked(own, BELIEVED) == story.believed_ids()
    outside, told = card(story, {}, None)
    assert "player 0's claim was a bluff" in plain(told)
    assert f"player 0 holds {story.ticket(planted)} (false)" in plain(told)
    assert marked(outside, BELIEVED) == story.believed_ids()
    legend = belief_legend(outside, VIEWER)
    assert "believed" in legend and "Knowledge is the class" in legend


def test_the_revision_is_said_at_its_turn_and_drawn_fading():
    story = Story()
    layouts: Layouts = {}
    story.play_to(BLUFF_TURN + 1)
    [planted] = story.false_beliefs()
    story.play_to(REVISION_TURN)
    card(story, layouts, VIEWER)  # the picture before: the layout remembers what it drew
    before = story.believed_ids()
    story.play_to(REVISION_TURN + 1)
    picture, said = card(story, layouts, VIEWER)
    assert re.search(rf"player 2 believed player 0 held {story.ticket(planted)}.*; player 1 "
                     rf"declared a block of player 0's t12 .*: belief revised", plain(said))
    assert marked(picture, DROPPED) == before
    assert {m.state for m in picture.marks if m.belief == DROPPED} == {"going"}
    # a second look at the same moment (another focus, then back) still shows the revision
    card(story, layouts, None)
    again, _ = card(story, layouts, VIEWER)
    assert marked(again, DROPPED) == before
    assert marked(picture, BELIEVED) == story.believed_ids()
    # one turn on, nothing is revised any more: the news belongs to the turn it happened
    story.play_to(REVISION_TURN + 2)
    assert "belief revised" not in card(story, layouts, VIEWER)[1]


def test_the_formula_box_shows_belief_in_the_open_game_only():
    story = Story()
    story.play_to(BLUFF_TURN + 1)
    shown = re.findall(r"<code>([^<]+)</code>", BELIEF_HINT)
    suggested = belief_examples(story.model)
    assert any(text.startswith("B_") for text in shown)
    assert any("B_0[" in text for text in suggested)  # conditional belief, B_i[ψ]
    for text in suggested:
        story.model.worlds.holds(parse(text))  # an unknown atom or agent raises
    default = new_model(replace(Defaults(), rules="open"))  # the hint names its tickets
    for text in shown:
        default.worlds.holds(parse(text))
    # here belief and knowledge come apart: player 2 believes, and does not know, that player 0
    # holds the ticket the bluff pointed at
    [planted] = story.false_beliefs()
    assert story.model.worlds.holds(parse(f"B_2 p(0,{planted}) & ~K_2 p(0,{planted})"))
    # the simplified game has no order: B_i is K_i there, and the box does not suggest it
    assert belief_examples(new_model(Defaults())) == []


def test_a_game_held_as_diagrams_says_its_beliefs_and_rings_their_tiles():
    """4 × 4: 63,063,000 deals, held symbolically; the card says what a player believes (the
    model's own answers, as the formula box has them), rings the tiles of its believed deals
    and draws no level it cannot list."""
    story = Story(replace(SETTINGS, players=4, tickets=4))
    story.play_to(3)
    step = belief_step(story.model, story.session.timeline, 1)
    assert step is not None and step.now is None  # ordered, but listing no deal
    assert step.believed, "player 1 believes nothing it does not know after 3 turns"
    worlds = story.model.worlds
    for fact in step.believed:
        atom = f"p({fact.holder},{fact.ticket})"
        assert worlds.holds(parse(f"B_1 {atom} & ~K_1 {atom}"))
        assert worlds.holds(parse(atom)) == fact.true
    picture, said = card(story, {}, 1, focus=1)
    assert all(m.level is None for m in picture.marks)  # no deal listed, no level drawn
    # but counted per rank, the tiles inside its class that hold its believed deals are ringed
    believed = [m for m in picture.marks if m.belief]
    assert believed and all(m.tile and m.belief == BELIEVED for m in believed)
    first = step.believed[0]
    assert f"player {first.holder} holds {story.ticket(first.ticket)}" in plain(said)


def test_a_summary_rings_the_tiles_of_believed_deals_alike_on_both_backends():
    """4 × 3 (369,600 deals) is drawn by tiles: inside player 1's own class, the next
    player's tiles that hold deals player 1 believes in are ringed, counted per rank on
    either backend, and they are exactly the tiles of its believed deals listed one by one;
    3 × 3 opens its class into worlds, and the same deals are ringed on both backends."""
    for players, tickets in ((4, 3), (3, 3)):
        ringed = {}
        for backend in ("explicit", "symbolic"):
            model = TTRModel(players=players, tickets_each=tickets,
                             agent_kinds=",".join((LINEUP.split(",") * 2)[:players]),
                             rng=SEED, variant="open", backend=backend)
            timeline = Timeline(model)
            for _ in range(12):
                timeline.step()
            layouts: Layouts = {}
            picture = worlds_picture(model, layouts, 1, 1, None)
            layout = layouts[(1, True)]
            assert isinstance(layout, ClassTiles)
            step = belief_step(model, timeline, 1)
            assert step is not None
            drawn = step.picture(picture, layout, model.worlds)
            ringed[backend] = {m.key for m in drawn.marks if m.belief == BELIEVED}
            if backend == "explicit" and len(layout.levels) > 1:
                worlds = model.worlds
                inner = layout.levels[1]
                keys = {int(worlds.class_key(inner.agent, w)) for w in worlds.best(1)}
                assert ringed[backend] == {t.key for t in inner.tiles if keys & set(t.members)}
        assert ringed["explicit"] and ringed["explicit"] == ringed["symbolic"], (players, tickets)
