"""No text over text in the textbook graph (issue 43, item 3): a layer's heading over a world's
name ("event yes" over "heads"), a loop and its label over a heading ("event skip"), edges
through names, two edge labels stacked where double edges or diagonals meet. Checked on the
geometry of every picture a teacher is offered first and after every event: each starter model,
each gallery puzzle at every step of its story (products among them), each of those after an
event of one's own (a product drawn in layers, one per event, each named), and the event
models drawn beside them. Every curve, loop and arrowhead is sampled finely."""

from __future__ import annotations

import math
from functools import cache
from itertools import combinations

import pytest

from app.web.components.puzzles import Moment, moment_graph
from app.worlds.geometry import curve_point
from app.worlds.graph import GRAPH_LIMIT, NODE_R, event_graph
from app.worlds.layout import FONT, LOOP_R, Picture, Text, text_width
from kripke import load_model
from kripke.errors import ModelError
from kripke.events.model import EventModel
from kripke.files.eventfile import ready_made
from kripke.files.modelfile import starter_models
from kripke.puzzles.gallery import GALLERY, Puzzle

#: A world's own events to try on each small moment: someone learns, and a secret flip (a
#: factual change); up to this many worlds before the event.
OWN_EVENT_LIMIT = 12


def _own_events(model) -> list[EventModel]:
    agent, atom = model.agents[0], next(iter(model.atoms), None)
    if atom is None or model.n_worlds > OWN_EVENT_LIMIT:
        return []
    found = []
    for spec in (f"learns:{agent}:{atom}", f"flip:{agent}:{atom}"):
        try:
            found.append(ready_made(spec, model))
        except ValueError:
            continue
    return [e for e in found if model.holds(e.actual_event.precondition)]


@cache
def _drawings() -> dict[str, Picture]:
    """Every graph the page draws of the starters and the gallery: the story's moments as
    :func:`moment_graph` draws them (a product in layers after an event of one's own), and
    the event models beside them."""
    from app.web.components.model_page import as_puzzle

    puzzles: list[Puzzle] = [make() for make in GALLERY.values()]
    puzzles += [as_puzzle(load_model(text), name) for name, text in starter_models().items()]
    out: dict[str, Picture] = {}
    for puzzle in puzzles:
        if puzzle.model.n_worlds > 2000:  # Sum and Product, Russian cards: classes only
            continue
        story = [Moment("start", puzzle.model, 0)]
        for k, step in enumerate(puzzle.steps):
            story.append(Moment(step.said, step.apply(story[-1].model), k + 1))
        for k, step in enumerate(puzzle.steps):
            if step.event is not None:
                out[f"{puzzle.key} event of step {k + 1}"] = event_graph(
                    step.event, list(puzzle.model.agents))
        graphs: list = []  # kept across the story, as the page keeps them
        agent = puzzle.model.agents[0]
        for k, moment in enumerate(story):
            graph = moment_graph(puzzle, tuple(story[:k + 1]), k, agent, graphs)
            if graph is not None:
                out[f"{puzzle.key} step {k}"] = graph.picture(moment.model)
            # a puzzle's short names are for its own worlds (the consecutive numbers' pairs
            # by id), not for the new worlds of a product
            for event in _own_events(moment.model) if puzzle.short is None else ():
                try:
                    after = moment.model.update(event)
                except ModelError:  # a plausibility model takes no secret's arrows
                    continue
                if after.n_worlds > GRAPH_LIMIT:
                    continue
                chain = (*story[:k + 1], Moment("own", after, moment.told, 1, event))
                graph = moment_graph(puzzle, chain, k + 1, agent, list(graphs))
                if graph is not None:
                    out[f"{puzzle.key} step {k} then {event.names}"] = graph.picture(after)
                out[f"{puzzle.key} event {event.names}"] = event_graph(
                    event, list(puzzle.model.agents))
    return out


def _size(t: Text) -> float:
    return 11.0 if t.role in ("atoms", "ghost", "count") else FONT


def _box(t: Text) -> tuple[float, float, float, float]:
    """The letters of a text (left, top, right, bottom): its width as the picture measures
    text, from the cap height to the descenders."""
    size = _size(t)
    w = text_width(t.text.strip()) * size / FONT - 2
    left = t.x if t.anchor == "start" else t.x - w if t.anchor == "end" else t.x - w / 2
    return left, t.y - 0.72 * size, left + w, t.y + 0.2 * size


def _overlap(a, b) -> bool:
    return min(a[2], b[2]) - max(a[0], b[0]) > 0 and min(a[3], b[3]) - max(a[1], b[1]) > 0


def _lines(picture: Picture) -> list[tuple[int, list[tuple[float, float]]]]:
    """Every link as points a unit or so apart (with its arrowheads' outlines), by link."""
    out = []
    for k, link in enumerate(picture.links):
        if link.loop:
            points = [(link.x2 + LOOP_R * math.cos(t / 60 * math.tau),
                       link.y2 + LOOP_R * math.sin(t / 60 * math.tau)) for t in range(60)]
        else:
            n = max(int(math.dist((link.x1, link.y1), (link.x2, link.y2))), 2)
            points = [curve_point((link.x1, link.y1), (link.x2, link.y2), link.bend, t / n)
                      for t in range(n + 1)]
        for head in link.heads():
            for p, q in zip(head, (*head[1:], head[0]), strict=True):
                points += [(p[0] + (q[0] - p[0]) * s / 6, p[1] + (q[1] - p[1]) * s / 6)
                           for s in range(6)]
        out.append((k, points))
    return out


def text_over_text(picture: Picture) -> list[str]:
    """Each text that overlaps another text or a world, or that a link, loop or arrowhead
    runs through (an edge's label may sit on its own pair's curves, as labels do), or that
    lies outside the picture."""
    texts = [t for t in picture.texts if t.text.strip()]
    boxes = [_box(t) for t in texts]
    found = []
    for (a, ba), (b, bb) in combinations(zip(texts, boxes, strict=True), 2):
        if a.role == b.role == "edge" and a.y == b.y and abs(ba[2] + 2 - bb[0]) < 0.5:
            continue  # "a," and "b": one label in two colours
        if _overlap(ba, bb):
            found.append(f"{a.text!r} over {b.text!r}")
    lines = _lines(picture)
    for t, box in zip(texts, boxes, strict=True):
        left, top, right, bottom = box
        if left < 0 or top < 0 or right > picture.width or bottom > picture.height:
            found.append(f"{t.text!r} outside the picture")
        for m in picture.marks:
            r = NODE_R + (4 if m.actual else 0)
            dx = max(left - m.x, 0, m.x - right)
            dy = max(top - m.y, 0, m.y - bottom)
            if math.hypot(dx, dy) < r:
                found.append(f"{t.text!r} over the world {m.key}")
        own: set[tuple[float, ...]] = set()
        if t.role == "edge":  # the pair whose curve passes nearest the label's middle
            cx, cy = (left + right) / 2, (top + bottom) / 2
            k = min(lines, key=lambda kp: min(math.dist((cx, cy), p) for p in kp[1]))[0]
            nearest = picture.links[k]
            if not nearest.loop:
                own = {(nearest.x1, nearest.y1, nearest.x2, nearest.y2)}
        for k, points in lines:
            link = picture.links[k]
            if (link.x1, link.y1, link.x2, link.y2) in own and not link.loop:
                continue
            hit = next((p for p in points if left < p[0] < right and top < p[1] < bottom),
                       None)
            if hit is not None:
                what = "loop" if link.loop else "edge"
                found.append(f"{t.text!r} crossed by {link.agent}'s {what} at "
                             f"({hit[0]:.0f}, {hit[1]:.0f})")
    return found


def test_the_drawings_include_products_their_layers_and_event_models():
    names = list(_drawings())
    assert any(" then " in n for n in names) and any("event" in n for n in names)
    headed = [n for n, p in _drawings().items() if any(t.role == "heading" for t in p.texts)]
    assert headed  # a product in layers names each event's
    assert len(names) > 60


@pytest.mark.parametrize("name", sorted(_drawings()))
def test_no_text_over_text_nor_over_a_world(name):
    found = text_over_text(_drawings()[name])
    assert [f for f in found if "crossed by" not in f and "outside" not in f] == []


#: Pictures where a world's name is still crossed by an edge or a loop (a dense graph: the
#: dining cryptographers' 32 worlds, whose removed worlds' names stay where the whole model's
#: edges left room; Russian cards; a flip that doubles a model of six or more worlds) or a
#: loop's name falls outside: left to do (issue 43); each must keep failing until mended, then
#: leave this list.
CROSSED = {
    "coin step 2 then ('flip', 'skip')",
    'dining step 0',
    'dining step 1',
    'dining step 2',
    "dining step 2 then ('flip', 'skip')",
    "dining step 2 then ('yes', 'no')",
    'dining step 3',
    "dining step 3 then ('flip', 'skip')",
    "dining step 3 then ('yes', 'no')",
    "model:consecutive step 0 then ('flip', 'skip')",
    'model:dining-cryptographers step 0',
    "model:muddy-children step 0 then ('flip', 'skip')",
    "model:three-cards step 0 then ('flip', 'skip')",
    'russian step 1',
    'russian step 2',
    "russian step 2 then ('flip', 'skip')",
    "russian step 2 then ('yes', 'no')",
}


@pytest.mark.parametrize("name", [
    pytest.param(n, marks=pytest.mark.xfail(strict=True, reason="a name still crossed"))
    if n in CROSSED else n for n in sorted(_drawings())])
def test_no_line_runs_through_a_text_and_every_text_is_inside(name):
    found = text_over_text(_drawings()[name])
    assert [f for f in found if "crossed by" in f or "outside" in f] == []


def test_the_checker_finds_a_heading_over_a_name():
    """The check itself: two texts on one spot, and an edge through a name, are found."""
    picture = next(iter(_drawings().values()))
    name = next(t for t in picture.texts if t.role == "node")
    from dataclasses import replace

    stacked = replace(picture, texts=(*picture.texts, Text(name.x, name.y, "event yes",
                                                           role="heading")))
    assert any("over" in f for f in text_over_text(stacked))


def test_the_slide_writes_each_name_on_the_side_the_page_does():
    """The 8-world coin's TikZ wrote every name under its world, where the page had moved
    them off the curves that run there: the slide now takes the page's side for each."""
    import re

    from app.web.components.exports import tikz_file

    puzzle = GALLERY["coin"]()
    model = puzzle.models()[2]
    picture = _drawings()["coin step 2"]
    tex = tikz_file(lambda limit: model, picture, lambda m, i: m.world_label(i),
                    puzzle.agent_names, "the coin after the flip")
    written = {int(w): at for at, w, side in re.findall(
        r"\\node\[label text,anchor=(\w+)\] at \(w(\d+)\.(\w+)\)", tex)}
    sides = {int(w): side for _, w, side in re.findall(
        r"\\node\[label text,anchor=(\w+)\] at \(w(\d+)\.(\w+)\)", tex)}
    assert set(written) == set(model.world_ids.tolist())
    for wid, dx, dy in picture.name_sides:
        angle = round(math.degrees(math.atan2(-dy, dx))) % 360
        assert sides[wid] == str(angle), (wid, sides[wid], angle)
        assert written[wid] == str((angle + 180) % 360)
    assert any(abs(dx) > abs(dy) for _, dx, dy in picture.name_sides)  # some beside
