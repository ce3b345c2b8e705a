"""What the worlds picture writes under each world is what holds there now (issue 43, item 1).

A factual change that splits no world keeps every world's id but not its atoms: the page drew
a one-world Sally model after ``here := false, basket := true`` as ``w0 here`` while the status
line said ``w0: basket``. Here every starter model and every step of every gallery puzzle small
enough to draw as a graph meets a public change (``set:p:~p``, no world splits), a private one
(``flip:a:p``, the worlds split) and an announcement after it, and after each the graph the
page draws (``moment_graph``), its SVG and the TikZ slide name each world by what holds in the
model at that moment.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from app.web.components.model_page import as_puzzle
from app.web.components.puzzles import Moment, moment_graph, own_names
from app.worlds.graph import too_big
from app.worlds.layout import Marking
from app.worlds.svg import picture_svg
from kripke.errors import ModelError
from kripke.files.eventfile import ready_made
from kripke.files.modelfile import load_model
from kripke.language.formula import Not
from kripke.puzzles.gallery import GALLERY, Puzzle

STARTERS = sorted((Path(__file__).parents[1] / "kripke" / "models").glob("*.kripke"))


def starters() -> list[tuple[str, Puzzle]]:
    """The starters drawn as a graph (the biggest, Russian cards, is drawn by classes)."""
    made = [(path.stem, as_puzzle(load_model(path), path.stem)) for path in STARTERS]
    return [(name, puzzle) for name, puzzle in made if too_big(puzzle.model) is None]


def gallery() -> list[tuple[str, Puzzle]]:
    return [(key, build()) for key, build in GALLERY.items()]


def truth(model, index: int) -> frozenset[str]:
    return frozenset(str(a) for a in model.atoms if model.atom_values(a)[index])


def drawn_worlds(picture) -> list[tuple[str, frozenset[str]]]:
    """Each live world's name and the atoms written with it, read from the picture's texts
    (a world's name, then its atom lines, '∅' for none)."""
    groups: list[list[str]] = []
    for text in picture.texts:
        if text.role == "node":
            groups.append([text.text])
        elif text.role == "atoms":
            groups[-1].append(text.text)
    # a plausibility model's names carry the level and the belief star: "south (0) ★"
    return [(re.sub(r" \(\d+\)( ★)?$", "", g[0]),
             frozenset(w for line in g[1:] for w in line.split() if w != "∅"))
            for g in groups]


def expected(puzzle: Puzzle, model) -> list[tuple[str, frozenset[str]]]:
    """What a reader must see: each world's name in the model now, with its atoms unless the
    puzzle's short name already says them."""
    if puzzle.short is not None:
        return [(puzzle.short(model, i), frozenset()) for i in range(model.n_worlds)]
    return [(model.world_name(i), truth(model, i)) for i in range(model.n_worlds)]


def story(puzzle: Puzzle, told: int) -> list[Moment]:
    """The page's moments of the story up to step ``told``."""
    models = puzzle.models()
    return [Moment("the start", models[0], 0),
            *(Moment(f"step {k}", models[k], k) for k in range(1, told + 1))]


def changes(model) -> list[Moment]:
    """After ``model``: a public factual change, a private one and an announcement of the
    changed atom's new value, each as the page makes it."""
    atom = sorted(model.atoms, key=str)[0]
    agent = model.agents[0]
    public = ready_made(f"set:{atom}:~{atom}", model)
    after = model.update(public)
    moments = [Moment("set", after, 0, 1, public)]
    private = ready_made(f"flip:{agent}:{atom}", after)
    try:
        flipped = after.update(private)
    except ModelError:  # a plausibility model takes events with classes, not a secret's arrows
        return moments
    if too_big(flipped) is None:
        moments.append(Moment("flip", flipped, 0, 2, private))
        true_now = flipped.actual_value(flipped.values(atom))
        held = flipped.values(atom if true_now else Not(atom))
        moments.append(Moment("announce", flipped.restrict(held), 0, 2))
    return moments


def check_moments(puzzle: Puzzle, moments: list[Moment], graphs: list,
                  start: int = 0) -> int:
    """Draw moments ``start`` on as the page does (``graphs`` the page's kept graphs) and
    compare each world's drawn name and atoms with the model's."""
    checked = 0
    for index, moment in enumerate(moments[start:], start):
        model = moment.model
        if too_big(model) is not None:
            continue
        named = own_names(puzzle, moment)  # as the page names this moment's worlds
        graph = moment_graph(named, tuple(moments), index, model.agents[0], graphs)
        assert graph is not None
        picture = graph.picture(model, Marking(None))
        assert sorted(drawn_worlds(picture)) == sorted(expected(named, model)), moment.label
        svg = ET.fromstring(picture_svg(picture, lambda a: "#000"))
        written = {re.sub(r" \(\d+\)( ★)?$", "", "".join(t.itertext()))
                   for t in svg.iter("{http://www.w3.org/2000/svg}text")}
        assert {name for name, _ in expected(named, model)} <= written, moment.label
        assert named.actual_world(model)  # the status line names the actual world
        checked += 1
    return checked


@pytest.mark.parametrize("name,puzzle", starters(), ids=[name for name, _ in starters()])
def test_a_starter_s_picture_writes_the_atoms_of_the_moment(name: str, puzzle: Puzzle) -> None:
    moments = story(puzzle, 0)
    assert check_moments(puzzle, moments + changes(puzzle.model), []) >= 2


@pytest.mark.parametrize("key,puzzle", gallery(), ids=list(GALLERY))
def test_every_puzzle_step_s_picture_writes_the_atoms_of_the_moment(key: str,
                                                                    puzzle: Puzzle) -> None:
    """At every step of the story, and after changes of one's own at its first and last
    step drawn as a graph."""
    told = story(puzzle, len(puzzle.steps))
    kept: list = []  # the story's graphs, kept as the page keeps them
    drawn = check_moments(puzzle, told, kept)
    drawable = [k for k, moment in enumerate(told) if too_big(moment.model) is None]
    assert drawn == len(drawable) and drawable  # every story becomes small enough to draw
    for step in sorted({drawable[0], drawable[-1]}):
        moments = told[:step + 1] + changes(told[step].model)
        assert check_moments(puzzle, moments, list(kept), step + 1) >= 1


def test_a_one_world_sally_after_the_marble_is_put_in_the_basket_is_drawn_basket() -> None:
    """The audit's case, written by a teacher: the status said ``w0: basket`` while the
    picture still drew ``here``."""
    model = load_model("agents: sally anne\nworld w0: here\nworld w1: basket\n"
                       "sally: w0 -> w0\nsally: w1 -> w1\nanne: w0 -> w0\nanne: w1 -> w1\n"
                       "actual: w0\n")
    put = ready_made("set:here:false", model)
    after = model.update(put)
    basket = ready_made("set:basket:true", after)
    last = after.update(basket)
    puzzle = as_puzzle(model, "sally")
    moments = [Moment("start", model, 0), Moment("out", after, 0, 1, put),
               Moment("in", last, 0, 2, basket)]
    graphs: list = []
    graph = moment_graph(puzzle, tuple(moments), 2, model.agents[0], graphs)
    assert graph is not None
    drawn = dict(drawn_worlds(graph.picture(last, Marking(None))))
    assert drawn == {"w0": frozenset({"basket"}), "w1": frozenset({"basket"})}
    assert re.search(r"\bhere\b", picture_svg(graph.picture(last, Marking(None)),
                                              lambda a: "#000")) is None
