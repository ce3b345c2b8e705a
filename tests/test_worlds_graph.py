"""The textbook graph of a small model (``app.worlds.graph``): what is drawn, where, and that
it stays put across announcements; its SVG, PNG and the TikZ export's palette."""

from __future__ import annotations

import math
import re
from functools import cache
from itertools import combinations
from math import dist as math_dist

import pytest

from app.web.components.exports import agent_colour, tikz_file
from app.web.components.style import PLAYER_COLOURS
from app.worlds.graph import CLIQUE_LIMIT, GRAPH_LIMIT, NODE_R, GraphLayout, too_big
from app.worlds.layout import FONT, GOING, GONE, LOOP_R, Marking, Picture, text_width
from app.worlds.png import picture_png
from app.worlds.svg import picture_svg
from kripke import KripkeModel
from kripke.explicit.belief import BeliefModel
from kripke.puzzles.gallery import GALLERY

#: Two agents on four worlds: a tells p, b tells q (the square of every logic course).
SQUARE = KripkeModel.from_worlds([{"p", "q"}, {"p"}, {"q"}, set()],
                                 {"a": [0, 0, 1, 1], "b": [0, 1, 0, 1]}, actual=0)
COLOUR = agent_colour({"a": "a", "b": "b"})


def edges(picture: Picture) -> dict[str, set[frozenset[int]]]:
    """Each agent's edges, as pairs of world ids (read back from the positions)."""
    at = {(m.x, m.y): int(m.key[1:]) for m in picture.marks}
    out: dict[str, set[frozenset[int]]] = {}
    for k in picture.links:
        out.setdefault(str(k.agent), set()).add(frozenset({at[(k.x1, k.y1)],
                                                          at[(k.x2, k.y2)]}))
    return out


def test_one_edge_per_pair_an_agent_cannot_tell_apart_and_no_loops():
    picture = GraphLayout(SQUARE, "a").picture(SQUARE)
    assert edges(picture) == {"a": {frozenset({0, 1}), frozenset({2, 3})},
                              "b": {frozenset({0, 2}), frozenset({1, 3})}}
    assert all((k.x1, k.y1) != (k.x2, k.y2) for k in picture.links)  # no reflexive loop
    labels = [(t.text.rstrip(","), str(t.agent)) for t in picture.texts if t.role == "edge"]
    assert sorted(labels) == [("a", "a"), ("a", "a"), ("b", "b"), ("b", "b")]
    svg = picture_svg(picture, COLOUR)
    assert svg.count(f'style="stroke:{COLOUR("a")}"') == 2
    assert svg.count(f'style="stroke:{COLOUR("b")}"') == 2


def test_each_node_shows_its_name_and_true_atoms_and_the_actual_world_is_doubly_circled():
    picture = GraphLayout(SQUARE, "a").picture(SQUARE)
    names = [t.text for t in picture.texts if t.role == "node"]
    assert sorted(names) == ["w0", "w1", "w2", "w3"]
    atoms = [t.text for t in picture.texts if t.role == "atoms"]
    assert sorted(atoms) == ["p", "p q", "q", "∅"]
    svg = picture_svg(picture, COLOUR)
    actual = re.findall(r'<g class="w node"[^>]*data-actual="1">(.*?)</g>', svg, re.S)
    assert len(actual) == 1 and 'class="ring"' in actual[0] and "polygon" not in actual[0]
    assert svg.count('class="ring"') == 1
    assert picture.caption.endswith("The actual world is doubly circled.")


def test_several_agents_on_one_pair_get_one_curve_each_and_one_label_each():
    model = KripkeModel.from_worlds([{"p"}, set()], {"a": [0, 0], "b": [1, 1]}, actual=0)
    picture = GraphLayout(model, "a").picture(model)
    assert sorted(str(k.agent) for k in picture.links) == ["a", "b"]
    assert len({k.bend for k in picture.links}) == 2  # side by side, not on top
    assert [t.text for t in picture.texts if t.role == "edge"] == ["a,", "b"]


def test_a_big_class_is_a_ring_and_the_caption_says_so():
    n = CLIQUE_LIMIT + 2
    model = KripkeModel.from_worlds([{f"p{i}"} for i in range(n)], {"a": [0] * n}, actual=0)
    picture = GraphLayout(model, "a").picture(model)
    assert len(picture.links) == n  # a ring, not n(n-1)/2
    degree = {w: sum(w in e for e in edges(picture)["a"]) for w in range(n)}
    assert set(degree.values()) == {2}
    assert "drawn as a ring" in picture.caption
    small = GraphLayout(SQUARE, "a").picture(SQUARE)
    assert "ring" not in small.caption


def test_worlds_keep_their_places_and_removed_ones_fade_where_they_stood():
    layout = GraphLayout(SQUARE, "a")
    first = {m.key: (m.x, m.y) for m in layout.picture(SQUARE).marks}
    after = SQUARE.announce("p")
    picture = layout.picture(after)
    assert {m.key: (m.x, m.y) for m in picture.marks} == first
    assert {m.key for m in picture.marks if m.state == GOING} == {"w2", "w3"}
    assert edges(picture) == {"a": {frozenset({0, 1})}}  # b's edges went with the worlds
    assert 'class="going"' in picture_svg(picture, COLOUR)
    again = layout.picture(after)
    assert {m.key for m in again.marks if m.state == GONE} == {"w2", "w3"}
    ghosts = [t.text for t in picture.texts if t.role == "ghost"]
    assert "w2" in ghosts and "w3" in ghosts  # the class still sees what went


def test_a_viewer_fades_what_it_rules_out_and_a_formula_fills_nodes():
    layout = GraphLayout(SQUARE, "a")
    values = SQUARE.evaluate("q")
    picture = layout.picture(SQUARE, Marking("a", values))
    states = {m.key: m.state for m in picture.marks}
    assert states == {"w0": "live", "w1": "live", "w2": "faded", "w3": "faded"}
    svg = picture_svg(picture, COLOUR)
    assert svg.count('class="w node holds"') == 1  # w0 (q true, live)


@pytest.mark.parametrize("key", ["muddy", "cheryl", "consecutive", "attack", "dining",
                                 "cards", "letter"])
def test_gallery_graphs_keep_names_atoms_and_edge_labels_apart(key):
    puzzle = GALLERY[key]()
    layout = GraphLayout(puzzle.model, puzzle.model.agents[0], label=puzzle.short,
                         atoms=puzzle.short is None)
    universe = set(puzzle.model.world_ids.tolist())
    # at every step of the story (its edges change as worlds go; event puzzles make new ones)
    for model in [m for m in puzzle.models() if set(m.world_ids.tolist()) <= universe]:
        picture = layout.picture(model)
        boxes = []
        for t in picture.texts:
            w = text_width(t.text)
            left = t.x if t.anchor == "start" else t.x - w / 2
            boxes.append((left, t.y - FONT + 2, left + w, t.y + 1, t))
        for a, b in combinations(boxes, 2):
            if a[4].role == b[4].role == "edge" and a[4].y == b[4].y and \
                    abs(a[2] - b[0]) < 0.01:
                continue  # "a," and "b": one label in two colours
            # at least 2 units apart: text that touches reads as one word on a projector
            assert not (min(a[2], b[2]) - max(a[0], b[0]) > -2 and
                        min(a[3], b[3]) - max(a[1], b[1]) > -2), (a[4], b[4])
    for left, top, right, bottom, _ in boxes:
        assert left >= 0 and top >= 0 and right <= picture.width and bottom <= picture.height
    marks = [(m.x, m.y) for m in picture.marks]
    assert all((x1 - x2) ** 2 + (y1 - y2) ** 2 > (4 * 11) ** 2
               for (x1, y1), (x2, y2) in combinations(marks, 2))


def test_the_square_is_drawn_without_crossings():
    picture = GraphLayout(SQUARE, "a").picture(SQUARE)
    lines = [((k.x1, k.y1), (k.x2, k.y2)) for k in picture.links]

    def side(p, q, r):
        return (q[0] - p[0]) * (r[1] - p[1]) - (q[1] - p[1]) * (r[0] - p[0])

    for (p, q), (r, s) in combinations(lines, 2):
        if len({p, q, r, s}) == 4:
            assert not (side(p, q, r) * side(p, q, s) < 0 and side(r, s, p) * side(r, s, q) < 0)


def test_too_big_a_model_gets_no_graph_and_is_told_why():
    n = GRAPH_LIMIT + 1
    model = KripkeModel.from_worlds([set()] * n, {"a": list(range(n))}, actual=0)
    assert "up to 40 worlds" in (too_big(model) or "")
    with pytest.raises(ValueError, match="up to 40 worlds"):
        GraphLayout(model, "a")
    assert too_big(SQUARE) is None


def test_the_png_draws_the_graph_and_tikz_uses_the_pages_palette():
    picture = GraphLayout(SQUARE, "a").picture(SQUARE)
    png = picture_png(picture, COLOUR)
    assert png.startswith(b"\x89PNG")
    tex = tikz_file(lambda limit: SQUARE, picture, lambda m, i: m.world_label(i),
                    {"a": "a", "b": "b"}, "square")
    for k in (0, 1):
        assert f"\\definecolor{{agent{k}}}{{HTML}}{{{PLAYER_COLOURS[k][1:].upper()}}}" in tex
    assert COLOUR("a") == PLAYER_COLOURS[0] and COLOUR("b") == PLAYER_COLOURS[1]


# --- belief models: arrows, as a textbook draws them --------------------------------------------

def _belief_graph() -> tuple[BeliefModel, Picture, GraphLayout]:
    """Sally believes the marble is in the basket (world 0) though it is in the box (world 1,
    actual); Anne tells the worlds apart (reflexive: loops left out); Bob, from the box, also
    considers the basket possible, and from the basket only the box (not reflexive)."""
    model = BeliefModel.of([{"basket"}, {"box"}],
                           {"sally": [(0, 0), (1, 0)], "anne": [(0, 0), (1, 1)],
                            "bob": [(1, 0), (1, 1), (0, 1)]}, actual=1,
                           names=["basket", "box"])
    graph = GraphLayout(model, "sally", label=lambda m, i: m.world_label(i))
    return model, graph.picture(model), graph


def test_a_belief_model_is_drawn_with_arrows_whose_heads_end_at_the_rims():
    _, picture, graph = _belief_graph()
    arrows = {str(k.agent): k for k in picture.links if not k.loop}
    assert set(arrows) == {"sally", "bob"}  # anne only has loops, left out
    sally, bob = arrows["sally"], arrows["bob"]
    # sally: one head, at the basket (id 0), where her arrow from the box points
    basket, box = graph.pos[0], graph.pos[1]
    (tip, *_), = sally.heads()
    assert abs(math_dist(tip, basket) - (NODE_R + 1.5)) < 0.5  # on the rim, not under it
    # bob's two opposite arrows: one line with a head at each end; the box is actual, so
    # the head there stops at its outer ring
    tips = sorted(math_dist(points[0], box) for points in bob.heads())
    assert len(tips) == 2 and abs(tips[0] - (NODE_R + 5.5)) < 0.5


def test_loops_are_left_out_only_for_a_reflexive_relation_and_the_caption_says_so():
    _, picture, _ = _belief_graph()
    loops = sorted((str(k.agent), round(k.x1)) for k in picture.links if k.loop)
    assert [a for a, _ in loops] == ["bob", "sally"]  # sally's at the basket, bob's at box
    assert "anne" not in {a for a, _ in loops}  # reflexive: every world's loop left out
    assert "drawn for agent sally and agent bob, not reflexive; left out for agent anne" \
        in picture.caption
    assert "Frame class KD (agent sally KD45, agent anne S5, agent bob KD)" in picture.caption
    svg = picture_svg(picture, lambda a: "#123456")
    assert svg.count('data-loop="1"') == 2
    assert svg.count('data-head-of="sally"') == 2 and svg.count('data-head-of="bob"') == 3
    assert picture_png(picture, lambda a: "#123456")[:4] == b"\x89PNG"


def test_an_s5_model_keeps_its_plain_lines():
    model = KripkeModel.from_worlds([{"p"}, set()], {"a": [0, 0]}, actual=0)
    picture = GraphLayout(model, "a").picture(model)
    assert [k.heads() for k in picture.links] == [[]]
    assert not any(k.loop for k in picture.links)


def test_the_caption_and_the_png_key_say_what_the_graph_shows():
    """Issue 38, item 8: in an agent's view the caption said the actual world is doubly
    circled when none is; the PNG's key showed a star for it and listed the agents in the
    order their edges came, not the page's."""
    from app.worlds.png import _key_items

    three = GALLERY["cards"]()
    layout = GraphLayout(three.model, "a")
    outside = layout.picture(three.model)
    assert any(m.actual for m in outside.marks) and "doubly circled" in outside.caption
    viewed = layout.picture(three.model, Marking(viewer="b"))
    assert not any(m.actual for m in viewed.marks)
    assert "doubly circled" not in viewed.caption and "No world is marked actual" in \
        viewed.caption
    assert [str(a) for a in outside.agents] == [str(a) for a in three.model.agents]
    key = [label for line in _key_items(outside, three.agent_names) for _, label, _ in line]
    assert key == ["Anne", "Bill", "Cath", "the actual world (doubly circled)"]


def test_the_graph_s_key_circles_no_world_in_an_agent_s_view():
    """Issue 38, item 8: in an agent's view the graph circles no world as actual, but the
    page's key under it still said "Doubly circled: the actual world"."""
    from app.web.components.puzzles import GRAPH, legend_html

    three = GALLERY["cards"]()
    agents = list(three.model.agents)
    for arrows in (False, True):
        outside = legend_html(three, agents, COLOUR, GRAPH, arrows)
        viewed = legend_html(three, agents, COLOUR, GRAPH, arrows, viewed=True)
        assert "Doubly circled: the actual world." in outside
        assert "Doubly circled: the actual" not in viewed
        assert "in an agent's view none is marked actual" in viewed


@cache
def _drawings() -> dict[str, list[Picture]]:
    """Every graph a teacher is offered first, drawn as the page draws it: each starter model
    and each gallery puzzle of up to 16 worlds, the puzzle at every step of its story."""
    from kripke import load_model
    from kripke.files.modelfile import starter_models

    out = {}
    for name, text in starter_models().items():
        model = load_model(text)
        if model.n_worlds <= 16:
            layout = GraphLayout(model, model.agents[0], label=lambda m, i: m.world_name(i))
            out[f"model {name}"] = [layout.picture(model)]
    for key, make in GALLERY.items():
        puzzle = make()
        if puzzle.model.n_worlds <= 16:
            layout = GraphLayout(puzzle.model, puzzle.model.agents[0],
                                 label=puzzle.short or (lambda m, i: m.world_name(i)),
                                 atoms=puzzle.short is None)
            universe = set(puzzle.model.world_ids.tolist())
            out[f"puzzle {key}"] = [layout.picture(m) for m in puzzle.models()
                                    if set(m.world_ids.tolist()) <= universe]
    return out


@pytest.mark.parametrize("name", sorted(_drawings()))
def test_no_edge_or_loop_runs_through_a_world_s_name_or_atoms(name):
    """A vertical edge leaving a world ran through the name under it ("t" read as "+" in the
    secret coin; Cheryl's and the muddy children's names crossed by their own edges): each
    name now goes where no line crosses it, the picture grown to hold it."""
    for picture in _drawings()[name]:
        _no_line_crosses_a_name(picture)


def _no_line_crosses_a_name(picture: Picture) -> None:
    from app.worlds.geometry import curve_point

    points = []  # every line of the picture, finely sampled
    for k in picture.links:
        if k.loop:
            points += [(k.x2 + LOOP_R * math.cos(t / 30 * math.tau),
                        k.y2 + LOOP_R * math.sin(t / 30 * math.tau)) for t in range(30)]
        else:
            points += [curve_point((k.x1, k.y1), (k.x2, k.y2), k.bend, t / 300)
                       for t in range(301)]
    for t in picture.texts:
        if t.role not in ("node", "atoms"):
            continue
        w = text_width(t.text.strip()) - 2
        left = t.x if t.anchor == "start" else t.x - w if t.anchor == "end" else t.x - w / 2
        top, bottom = t.y - FONT + 3, t.y  # the letters, not the line's spacing
        crossing = [p for p in points if left < p[0] < left + w and top < p[1] < bottom]
        assert not crossing, f"{t.text!r} is crossed at {crossing[0]}"
        assert left >= 0 and top >= 0 and left + w <= picture.width and \
            bottom <= picture.height, f"{t.text!r} is outside the picture"
