"""Belief on the worlds picture (``app.worlds.ranks``): worlds shaded by plausibility within
the class of the agent in focus, its believed worlds ringed, a belief hard information
overturned marked as dropped, fading with its worlds."""

from __future__ import annotations

import re

import numpy as np

from app.worlds.layout import GOING, LIVE, ClassGrid, Marking
from app.worlds.ranks import BELIEVED, DROPPED, plausibility, revision, shaded
from app.worlds.svg import picture_svg
from kripke.explicit.model import KripkeModel
from kripke.explicit.plausibility import PlausibilityModel

#: Six worlds: agent a tells apart {0, 1, 2} from {3, 4, 5}, agent b sees w mod 3; p holds in
#: 0, 3, 5. World 0 is actual. Ranks (shared, as in the open game): 1 0 2 0 0 1.
RANKS = [1, 0, 2, 0, 0, 1]


def model() -> PlausibilityModel:
    n = 6
    plain = KripkeModel({"p": np.array([1, 0, 0, 1, 0, 1], bool)},
                        {"a": np.arange(n) // 3, "b": np.arange(n) % 3}, 0, n_worlds=n)
    return PlausibilityModel.of(plain, {"a": RANKS, "b": RANKS})


def by_world(picture) -> dict[int, object]:
    return {int(m.key[1:]): m for m in picture.marks}


def test_worlds_are_shaded_by_level_in_the_focus_class_and_its_beliefs_ringed():
    m = model()
    grid = ClassGrid(m, "a")
    now = plausibility(m, "a")
    marks = by_world(shaded(grid.picture(m, Marking()), now, name="a"))
    # a's class of the actual world is {0, 1, 2}: world 1 is its most plausible
    assert [marks[w].level for w in (0, 1, 2)] == [1, 0, 2]
    assert [marks[w].belief for w in (0, 1, 2)] == ["", BELIEVED, ""]
    # the other class has its own levels (3 and 4 tie for first), but a believes only at
    # the actual world, so nothing there is ringed
    assert [marks[w].level for w in (3, 4, 5)] == [0, 0, 1]
    assert all(not marks[w].belief for w in (3, 4, 5))


def test_a_hard_announcement_against_every_believed_world_is_a_revision_drawn_going():
    m = model()
    grid = ClassGrid(m, "a")
    before = plausibility(m, "a")
    grid.picture(m, Marking())
    after_model = m.announce("p")  # removes world 1, the only one a believed in
    now = plausibility(after_model, "a")
    revised = revision(before, now)
    assert revised is not None
    assert revised.dropped == {1} and revised.believed == {0}  # the false belief is gone
    marks = by_world(shaded(grid.picture(after_model, Marking()), now, before, name="a"))
    assert marks[1].state == GOING and marks[1].belief == DROPPED
    assert marks[0].state == LIVE and marks[0].belief == BELIEVED and marks[0].level == 0
    svg = picture_svg(shaded(grid.picture(after_model, Marking()), now, before, name="a"),
                      lambda a: "#8e24aa")
    assert re.search(r'data-world="0"[^>]*data-level="0" data-belief="believed"', svg)


def test_a_belief_that_survives_an_announcement_is_no_revision():
    m = model()
    before = plausibility(m, "a")
    # removing worlds 2 and 3 leaves world 1, which a believed in: its belief survives
    kept = plausibility(m.restrict(np.array([1, 1, 0, 0, 1, 1], bool)), "a")
    assert kept is not None and kept.believed == {1}
    assert revision(before, kept) is None


def test_a_model_without_an_order_is_drawn_as_before():
    m = model()
    plain = PlausibilityModel.of(m, {"a": [0] * 6, "b": [0] * 6})
    grid = ClassGrid(plain, "a")
    picture = grid.picture(plain, Marking())
    assert shaded(picture, plausibility(plain, "a")) == picture
    flat = KripkeModel({"p": np.ones(6, bool)}, {"a": np.arange(6) // 3}, 0, n_worlds=6)
    assert plausibility(flat, "a") is None
