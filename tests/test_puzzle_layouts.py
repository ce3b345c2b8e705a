"""The puzzles' pictures read at 1280 × 800 (no browser): big puzzles drawn at the size the page
shows them, grouped the way the story reads, each world's name its own, eight agents in eight
colours a colour-blind reader tells apart. The browser checks the same on the drawn page
(``tests/browser/test_readable_pictures.py``)."""

from __future__ import annotations

import math
from itertools import combinations

import numpy as np
import pytest

from app.web.components.exports import agent_colour
from app.web.components.puzzles import graph_layout, puzzle_layout
from app.worlds.layout import GONE, HEIGHT, WIDTH, Picture, partitioned, text_box
from kripke.puzzles.classic import sum_and_product_pairs
from kripke.puzzles.gallery import GALLERY, muddy, russian, sum_and_product

#: Machado, Oliveira and Fernandes (2009), severity 1, on linear RGB: how a protanope, a
#: deuteranope and a tritanope see a colour.
DICHROMATS = [np.array(m) for m in (
    [[0.152286, 1.052583, -0.204868], [0.114503, 0.786281, 0.099216],
     [-0.003882, -0.048116, 1.051998]],
    [[0.367322, 0.860646, -0.227968], [0.280085, 0.672501, 0.047413],
     [-0.011820, 0.042940, 0.968881]],
    [[1.255528, -0.076749, -0.178779], [-0.078411, 0.930809, 0.147602],
     [0.004733, 0.691367, 0.303900]])]


def lab(linear: np.ndarray) -> np.ndarray:
    """CIE L*a*b* (D65) of a linear-RGB colour."""
    xyz = np.array([[0.4124, 0.3576, 0.1805], [0.2126, 0.7152, 0.0722],
                    [0.0193, 0.1192, 0.9505]]) @ np.clip(linear, 0, 1)
    f = xyz / np.array([0.95047, 1.0, 1.08883])
    f = np.where(f > 0.008856, np.cbrt(f), 7.787 * f + 16 / 116)
    return np.array([116 * f[1] - 16, 500 * (f[0] - f[1]), 200 * (f[1] - f[2])])


def seen(colour: str) -> list[np.ndarray]:
    """The colour as most people see it, then as each kind of dichromat does, in L*a*b*."""
    srgb = np.array([int(colour[i:i + 2], 16) / 255 for i in (1, 3, 5)])
    linear = np.where(srgb <= 0.04045, srgb / 12.92, ((srgb + 0.055) / 1.055) ** 2.4)
    return [lab(linear)] + [lab(m @ linear) for m in DICHROMATS]


def centres(picture: Picture) -> dict[int, tuple[float, float]]:
    return {int(m.key[1:]): (m.x, m.y) for m in picture.marks if not m.tile}


def test_eight_children_get_eight_colours_a_colour_blind_reader_tells_apart():
    colour = agent_colour(muddy(8, (0,)).agent_names)
    colours = [colour(i) for i in range(8)]
    assert len(set(colours)) == 8
    for a, b in combinations(colours, 2):
        views = list(zip(seen(a), seen(b), strict=True))
        assert np.linalg.norm(views[0][0] - views[0][1]) >= 20, (a, b)
        for x, y in views[1:]:
            assert np.linalg.norm(x - y) >= 12, (a, b)


def test_muddy_children_with_eight_are_drawn_in_layers_at_a_readable_spacing():
    puzzle = muddy(8, (0, 1, 2, 3))
    picture = puzzle_layout(puzzle, puzzle.model, 0).picture(puzzle.model)
    # drawn at about the size the worlds card shows it, not shrunk from a strip
    assert picture.width <= WIDTH + 1 and picture.height <= HEIGHT + 1
    at = centres(picture)
    assert len(at) == 256
    radius = min(m.r for m in picture.marks)
    nearest = min(math.dist(a, b) for a, b in combinations(at.values(), 2))
    assert radius >= 5 and nearest >= 18 and nearest >= 2 * radius + 6, (radius, nearest)
    seen_muddy = {w: (w & ~1).bit_count() for w in at}  # what child 0 sees
    for w, v in combinations(at, 2):
        if seen_muddy[w] < seen_muddy[v]:  # a layer per number of muddy children seen
            assert at[w][1] < at[v][1]
    for w in at:  # beside the twin child 0 cannot tell it from
        assert at[w ^ 1][1] == at[w][1] and abs(at[w ^ 1][0] - at[w][0]) < 1.5 * nearest


def test_russian_cards_are_drawn_a_box_per_hand_of_alice_with_bobs_under_each_world():
    puzzle = russian()
    model = puzzle.model
    picture = puzzle_layout(puzzle, model, "a").picture(model)
    assert picture.width <= WIDTH + 1 and picture.height <= HEIGHT + 1
    boxes = [r for r in picture.regions if r.agent == "a"]
    assert len(boxes) == 35 and {r.kind for r in boxes} == {"box"}
    at = centres(picture)
    alice, bob = model.observation("a"), model.observation("b")
    for key in set(alice.tolist()):
        worlds = [int(w) for w in model.world_ids[alice == key]]
        inside = [r for r in boxes if all(r.x <= at[w][0] <= r.x + r.w and
                                           r.y <= at[w][1] <= r.y + r.h for w in worlds)]
        assert len(inside) == 1  # Alice's class is one box, holding all of its worlds
    names = {(t.x, t.y): t.text for t in picture.texts if t.role == "count"}
    for i, w in enumerate(model.world_ids.tolist()):
        x, y = at[int(w)]
        below = [text for (tx, ty), text in names.items() if tx == x and 0 < ty - y < 30]
        assert below == ["".join(map(str, model.hand("b", int(bob[i]))))]
    after = puzzle.models()[1]  # Alice's announcement: 20 worlds left, in 5 of her boxes
    assert sum(m.state != GONE for m in
               puzzle_layout(puzzle, model, "a").picture(after).marks) == 20


def names_are_their_worlds(picture: Picture) -> dict[int, str]:
    """Each world's name, checked: no two names overlap, and each name is nearer its own
    world's edge than any other world's (the browser checks the same on drawn boxes). A
    summary's tiles carry counts, not names: nothing to check there."""
    if any(m.tile for m in picture.marks):
        return {}
    at = centres(picture)
    radius = {int(m.key[1:]): max(m.r * 1.35, 8.0) if m.actual else m.r
              for m in picture.marks}
    named: dict[int, str] = {}
    texts = [t for t in picture.texts if t.role in ("count", "ghost")]
    for a, b in combinations([text_box(t) for t in texts], 2):
        assert min(a[2], b[2]) <= max(a[0], b[0]) or min(a[3], b[3]) <= max(a[1], b[1]), (a, b)
    for t in texts:
        box = text_box(t)

        def gap(w: int, box=box) -> float:
            x, y = at[w]
            return math.hypot(max(box[0] - x, 0, x - box[2]),
                              max(box[1] - y, 0, y - box[3])) - radius[w]

        owner = min(at, key=gap)
        assert all(gap(w) > gap(owner) for w in at if w != owner), t  # no tie either
        named[owner] = t.text
    return named


def test_sum_and_products_names_each_belong_to_their_own_world():
    puzzle = sum_and_product()
    models = puzzle.models()
    pairs = {w: f"{x},{y}" for w, (x, y) in enumerate(sum_and_product_pairs())}
    for focus in "SP":  # S's 10 classes of up to 25 worlds; P's 113, most of one world
        layout = puzzle_layout(puzzle, models[1], focus)
        for model in models[1:3]:  # 145 worlds, then 86 (the rest pale where they were)
            picture = layout.picture(model)
            named = names_are_their_worlds(picture)
            assert len(named) == 145 and all(pairs[w] == text for w, text in named.items())
            star = next(int(m.key[1:]) for m in picture.marks if m.actual)
            assert named[star] == "4,13"


@pytest.mark.parametrize("key", sorted(GALLERY))
def test_every_puzzles_names_are_apart_and_their_own_at_every_step(key):
    """Drawn as the page draws each model: by classes, or as the graph where the model has no
    classes (a belief puzzle after its event with arrows)."""
    puzzle = GALLERY[key]()
    for model in puzzle.models():
        for focus in puzzle.model.agents:
            layout = puzzle_layout(puzzle, model, focus) if partitioned(model) else \
                graph_layout(puzzle, model, focus)
            names_are_their_worlds(layout.picture(model))


def test_sum_and_products_tiles_say_which_sums_they_hold():
    puzzle = sum_and_product()
    picture = puzzle_layout(puzzle, puzzle.model, "S").picture(puzzle.model)
    star = next(m for m in picture.marks if m.tile and m.actual and m.key.startswith("c0:"))
    named = {t.text for t in picture.texts if abs(t.x - star.x) < 1 and t.y < star.y}
    assert "17–20" in named  # the tile of sums 17 to 20, not "17…"
    assert "each a run of classes" in picture.caption
