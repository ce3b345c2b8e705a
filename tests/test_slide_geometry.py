"""Pictures a teacher projects (issue 38, items 1-3): no edge runs through a world it does not
join (on the page's graph and in the TikZ), a product update is drawn in layers, one per event,
each world beside its origin, and the TikZ fits a beamer frame (or the size asked)."""

from __future__ import annotations

import math
import re
import subprocess
from pathlib import Path

import pytest

from app.cli.main import main
from app.worlds.geometry import curve_point
from app.worlds.graph import NODE_R, GraphLayout, graph_positions, layered
from app.worlds.tikz import to_tikz
from kripke.files.eventfile import ready_made
from kripke.files.modelfile import parse_model
from kripke.puzzles.gallery import GALLERY, cards

CARDS = cards()
MAY = ready_made("may:a:a0", CARDS.model)  # Anne may have looked: 6 worlds become 12
AFTER = CARDS.model.update(MAY)
MODELS = Path(__file__).resolve().parent.parent / "kripke" / "models"


def tikz_worlds(text: str) -> tuple[float, dict[str, tuple[float, float]]]:
    """The cm per unit and each world's node (name: place) of a TikZ export."""
    unit = float(re.search(r"x=([\d.]+)cm", text).group(1))
    nodes = {name: (float(x), float(y)) for name, x, y in re.findall(
        r"\\node\[(?:world|actual)\] \((w\d+)\) at \(([-\d.]+),([-\d.]+)\)", text)}
    return unit, nodes


def tikz_edges_through_worlds(text: str) -> list[str]:
    """The edges (straight or curved) that pass within a world's radius (5pt) of a world
    they do not join."""
    unit, nodes = tikz_worlds(text)
    bad = []
    for line in text.splitlines():
        if not line.startswith("\\draw[edge"):
            continue
        ends = re.findall(r"\((w\d+)\)", line)
        a, b = nodes[ends[0]], nodes[ends[1]]
        controls = [(float(x), float(y)) for x, y in re.findall(r"\(([-\d.]+),([-\d.]+)\)",
                                                               line)]
        c1, c2 = controls if controls else (a, b)
        for k in range(1, 100):
            t, u = k / 100, 1 - k / 100
            p = tuple(u ** 3 * a[i] + 3 * u * u * t * c1[i] + 3 * u * t * t * c2[i]
                      + t ** 3 * b[i] for i in (0, 1))
            hit = [n for n, o in nodes.items() if n not in ends and
                   math.dist(p, o) * unit < 5 / 28.45 * 1.2]
            if hit:
                bad.append(f"{ends[0]}-{ends[1]} through {hit[0]}")
                break
    return bad


def graph_edges_through_worlds(layout: GraphLayout, model) -> list[str]:
    picture = layout.picture(model)
    at = {(round(x, 6), round(y, 6)): w for w, (x, y) in layout.pos.items()}
    bad = []
    for link in picture.links:
        a, b = at[round(link.x1, 6), round(link.y1, 6)], at[round(link.x2, 6), round(link.y2, 6)]
        for w, o in layout.pos.items():
            if w not in (a, b) and any(math.dist(curve_point(
                    (link.x1, link.y1), (link.x2, link.y2), link.bend, k / 100), o) < NODE_R
                    for k in range(101)):
                bad.append(f"{a}-{b} ({link.agent}) through {w}")
    return bad


def test_the_tikz_of_the_three_cards_bends_every_edge_around_the_worlds_it_does_not_join():
    # a grid: 012 021 102 on the first row, Cath's 012-102 used to run through 021
    assert tikz_edges_through_worlds(to_tikz(CARDS.model, name=CARDS.describe)) == []
    assert tikz_edges_through_worlds(to_tikz(AFTER, name=CARDS.describe)) == []
    # and on the grid of a bigger model, where many worlds stand in line
    muddy = GALLERY["muddy"]().model
    assert tikz_edges_through_worlds(to_tikz(muddy)) == []


def test_the_product_is_drawn_in_layers_one_per_event_each_world_beside_its_origin():
    before = GraphLayout(CARDS.model, "a", label=CARDS.short, atoms=False)
    places = layered(before.pos, CARDS.model, MAY, AFTER)
    graph = GraphLayout(AFTER, "a", label=CARDS.short, atoms=False, positions=places)
    # a layer is the picture before moved as a whole: from any world's copy in one event's
    # layer to its copy in another's, always the same step
    by_origin: dict[int, dict[str, tuple[float, float]]] = {}
    for w in AFTER.world_ids.tolist():
        origin, event = CARDS.model.origin(MAY, w)
        by_origin.setdefault(origin, {})[event] = graph.pos[w]
    for e, f in (("yes", "skip"), ("no", "skip")):
        steps = {(round(p[f][0] - p[e][0], 3), round(p[f][1] - p[e][1], 3))
                 for p in by_origin.values() if e in p and f in p}
        assert len(steps) == 1 and steps != {(0.0, 0.0)}
    # within a layer, the worlds stand as they stood before (up to the scale)
    skip = {o: p["skip"] for o, p in by_origin.items()}
    ids = sorted(skip)
    ratio = {round(math.dist(skip[a], skip[b]) / math.dist(before.pos[a], before.pos[b]), 3)
             for a in ids for b in ids if a < b}
    assert len(ratio) == 1
    assert graph_edges_through_worlds(graph, AFTER) == []


def test_the_graph_never_draws_an_edge_through_a_world():
    for key in ("cards", "letter", "muddy"):
        puzzle = GALLERY[key]()
        for model in puzzle.models():
            if model.n_worlds <= 20:
                layout = GraphLayout(model, model.agents[0])
                assert graph_edges_through_worlds(layout, model) == [], key


def tikz_box(text: str, pdflatex: str, tmp: Path) -> tuple[float, float]:
    """The tikzpicture's width and height in cm, as LaTeX sets it (what a slide gets)."""
    start, end = text.index("\\begin{tikzpicture}"), text.index("\\end{tikzpicture}")
    body = text[start:end + len("\\end{tikzpicture}")]
    (tmp / "box.tex").write_text(
        "\\documentclass{article}\\usepackage{tikz}\\begin{document}\\newsavebox\\pic"
        f"\\sbox\\pic{{{body}}}\\typeout{{BOX \\the\\wd\\pic\\space \\the\\ht\\pic\\space "
        "\\the\\dp\\pic}\\end{document}")
    run = subprocess.run([pdflatex, "-interaction=nonstopmode", "box.tex"], cwd=tmp,
                         capture_output=True, text=True, timeout=120)
    found = re.search(r"BOX ([\d.]+)pt ([\d.]+)pt ([\d.]+)pt", run.stdout)
    assert found, run.stdout[-2000:]
    width, height, depth = map(float, found.groups())
    return width / 28.4528, (height + depth) / 28.4528


def test_the_cli_tikz_fits_a_beamer_frame_or_the_size_asked(pdflatex, tmp_path, capsys):
    three = MODELS / "three-cards.kripke"
    for extra, most in (([], (12.0, 8.5)), (["--size", "8x5"], (8.0, 5.0))):
        out = tmp_path / "m.tex"
        assert main(["model", str(three), "--event", "may:a:red(a)", "--tikz", str(out),
                     "--overwrite", *extra]) == 0
        text = out.read_text()
        width, height = tikz_box(text, pdflatex, tmp_path)
        assert width <= most[0] + 0.05 and height <= most[1] + 0.05, (width, height)
        assert width >= most[0] * 0.6 or height >= most[1] * 0.6  # not a stamp either
        assert tikz_edges_through_worlds(text) == []
    capsys.readouterr()
    cheryl = GALLERY["cheryl"]()
    text = to_tikz(cheryl.model, name=cheryl.describe)
    width, height = tikz_box(text, pdflatex, tmp_path)
    assert width <= 12.05 and height <= 8.55


def test_the_cli_tikz_places_the_worlds_as_the_page_s_graph_does(tmp_path, capsys):
    out = tmp_path / "c.tex"
    assert main(["puzzle", "cards", "--steps", "0", "--tikz", str(out)]) == 0
    capsys.readouterr()
    _, nodes = tikz_worlds(out.read_text())
    graph = graph_positions(CARDS.model, CARDS.describe)
    assert graph is not None
    # the same shape: distances in the TikZ proportional to the graph's
    ids = sorted(graph)
    ratio = {round(math.dist(nodes[f"w{a}"], nodes[f"w{b}"]) /
                   math.dist(graph[a], graph[b]), 2) for a in ids for b in ids if a < b}
    assert len(ratio) == 1


def test_a_bad_size_is_refused(tmp_path, capsys):
    with pytest.raises(SystemExit):
        main(["model", str(MODELS / "three-cards.kripke"), "--tikz",
              str(tmp_path / "x.tex"), "--size", "big"])
    assert "WIDTHxHEIGHT" in capsys.readouterr().err


def test_layers_of_a_named_model_too():
    model = parse_model((MODELS / "three-cards.kripke").read_text())
    events = ready_made("may:a:red(a)", model)
    after = model.update(events)
    places = layered(graph_positions(model) or {}, model, events, after)
    assert set(places) == set(after.world_ids.tolist())


def test_the_page_draws_an_event_of_yours_as_the_graph_before_it_in_layers():
    from app.web.components.puzzles import Moment, moment_graph

    moments = (Moment("the start", CARDS.model, 0), Moment("may", AFTER, 0, 1, MAY))
    graphs: list = []
    start = moment_graph(CARDS, moments, 0, "a", graphs)
    graph = moment_graph(CARDS, moments, 1, "a", graphs)
    assert start is not None and graph is not None and graph is not start
    # the skip layer is the start's picture, moved and scaled as a whole
    skip = {CARDS.model.origin(MAY, w)[0]: graph.pos[w] for w in AFTER.world_ids.tolist()
            if CARDS.model.origin(MAY, w)[1] == "skip"}
    (o1, p1), (o2, p2) = list(skip.items())[:2]
    scale = math.dist(p1, p2) / math.dist(start.pos[o1], start.pos[o2])
    for origin, (x, y) in skip.items():
        sx, sy = start.pos[origin]
        assert x - p1[0] == pytest.approx(scale * (sx - start.pos[o1][0]), abs=0.01)
        assert y - p1[1] == pytest.approx(scale * (sy - start.pos[o1][1]), abs=0.01)
    assert moment_graph(CARDS, moments, 1, "a", graphs) is graph  # kept: worlds stay put
    headings = [t.text for t in graph.picture(AFTER).texts if t.role == "heading"]
    assert sorted(headings) == ["event no", "event skip", "event yes"]  # each layer named


def test_the_tikz_writes_the_worlds_names_over_the_edges_on_white():
    """An edge that passes under a world's name no longer strikes it through on the slide."""
    lines = to_tikz(AFTER, name=CARDS.describe).splitlines()
    last_edge = max(i for i, line in enumerate(lines) if line.startswith("\\draw[edge"))
    names = [i for i, line in enumerate(lines) if line.startswith("\\node[label text")]
    assert len(names) == AFTER.n_worlds and min(names) > last_edge
    assert any("label text/.style" in line and "fill=white" in line for line in lines)
