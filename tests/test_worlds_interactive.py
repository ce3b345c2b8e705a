"""The interactive worlds page (pyvis, ``app.worlds.interactive``) and its outputs, ``--html``
of ``model`` and ``puzzle`` and the page's "interactive HTML": self-contained (nothing a browser
would fetch), the user's text inert, each world and relation drawn once in its agent's colour,
the actual world marked, and refused in one line where it cannot be written or drawn. The
browser half (it opens offline, its counts) is ``tests/browser/test_interactive_html.py``."""

from __future__ import annotations

import json
import re
from math import comb

import numpy as np
import pytest

from app.cli.main import main
from app.worlds.graph import graph_positions
from app.worlds.interactive import HTML_EDGES, HTML_WORLDS, drawn_edges, interactive_html
from app.worlds.palette import agent_colour
from kripke import KripkeModel, ModelError, ModelTooLargeError, load_model
from kripke.explicit.belief import BeliefModel
from kripke.puzzles.gallery import dining, ice_cream, sally_anne

#: What a browser would fetch: a src= or href= (or a CSS url(), an @import) naming a host.
FETCHED = re.compile(r"""(?:\b(?:src|href|action|poster|data)\s*=\s*["']?\s*"""
                     r"""|url\(\s*["']?\s*|@import\s+["']?\s*)(?:https?:)?//""", re.IGNORECASE)
#: Names a teacher may give worlds, and a title, that would run if written into the page raw.
HOSTILE = ['a"><img src=x onerror=alert(1)>', "<script>alert(2)</script>", "w'3&amp;"]


def data(page: str, name: str) -> list[dict]:
    """The page's ``nodes`` or ``edges``, as its script hands them to vis-network."""
    found = re.search(rf"var {name} = new vis\.DataSet\((.*)\);\n", page)
    assert found is not None
    return json.loads(found.group(1))


def expected_edges(model: KripkeModel | BeliefModel) -> int:
    """The relations worked out from the model without the page's code: an S5 model, a line
    per pair in a class; any other, a line per pair an agent relates either way, and a loop
    per world that points to itself, but for an agent whose every world does."""
    total = 0
    for agent in model.agents:
        arrows = set(model.arrows(agent))
        if model.frame_class() == "S5":
            _, sizes = np.unique(model.observation(agent), return_counts=True)
            total += sum(comb(int(k), 2) for k in sizes)
            continue
        total += len({frozenset(p) for p in arrows if p[0] != p[1]})
        loops = sum(1 for w, v in arrows if w == v)
        total += 0 if loops == model.n_worlds else loops
    return total


@pytest.mark.parametrize("model", [
    dining().model,  # 32 worlds, S5, dense
    sally_anne().models()[-1],  # belief: Sally's arrows, Anne's loops left out
    ice_cream().models()[-1],
    load_model("kripke/models/alice-bob.kripke"),
])
def test_each_world_and_relation_is_drawn_once_with_nothing_fetched(model):
    page = interactive_html(model, title="t", positions=graph_positions(model))
    assert not FETCHED.search(page), FETCHED.search(page)
    assert "<script src" not in page and "new vis.Network(" in page  # vis-network inlined
    nodes, edges = data(page, "nodes"), data(page, "edges")
    assert sorted(n["id"] for n in nodes) == sorted(model.world_ids.tolist())
    assert len(edges) == expected_edges(model) == len(drawn_edges(model))
    for edge in edges:  # in its agent's colour, the palette's by its place among the agents
        assert edge["color"] in {agent_colour(i) for i in range(len(model.agents))}


def test_the_agents_colours_the_actual_world_and_the_atoms_on_hover():
    puzzle = sally_anne()
    model = puzzle.models()[-1]
    page = interactive_html(model, title="Sally and Anne", agent_names=puzzle.agent_names,
                            describe=puzzle.describe)
    nodes = {n["label"]: n for n in data(page, "nodes")}
    actual = nodes["w·move"]
    assert actual["title"].splitlines() == [
        "w·move", "the marble is in the box; Sally believes basket: yes", "true here: box",
        "the actual world"]
    assert actual["borderWidth"] > nodes["w·skip"]["borderWidth"]
    assert "true here: basket" in nodes["w·skip"]["title"]
    sally = agent_colour(model.agents.index("sally"))
    # Sally's arrow from the box world to the basket world and her loop there; Anne's relation
    # is reflexive, so her loops are left out (and the legend says so)
    assert {(e["from"], e["to"], e["arrows"], e["color"], e["label"])
            for e in data(page, "edges")} == {(0, 1, "to", sally, "Sally"),
                                              (1, 1, "to", sally, "Sally")}
    assert "Loops left out for Anne" in page


def test_placed_worlds_stay_still_and_unplaced_ones_settle_once_then_stay():
    model = ice_cream().models()[-1]
    still = interactive_html(model, positions=graph_positions(model))
    assert json.loads(re.search(r"var options = (.*);", still).group(1))["physics"] == {
        "enabled": False, "stabilization": {"iterations": 400}}
    assert all("x" in n and "y" in n for n in data(still, "nodes"))
    settling = interactive_html(model)
    assert '"physics": {"enabled": true' in settling
    assert 'network.once("stabilizationIterationsDone"' in settling
    assert "network.setOptions({physics: false})" in settling


def test_the_users_text_is_written_as_text():
    """World names and a title that would run as HTML stay text: escaped in the heading,
    JSON escaped for a script in the data (vis-network draws a label on its canvas and sets
    a hover text as text)."""
    model = BeliefModel.of([{"p"}, set(), {"p"}], {"a": [(0, 1), (1, 2), (2, 2)]},
                           actual=0, names=HOSTILE)
    page = interactive_html(model, title="<script>alert(3)</script>",
                            agent_names={"a": "<b onmouseover=alert(4)>a</b>"})
    for raw in [*HOSTILE, "<script>alert(3)", "<b onmouseover"]:
        assert raw not in page
    assert "<h1>&lt;script&gt;alert(3)&lt;/script&gt;</h1>" in page
    assert [n["label"] for n in data(page, "nodes")] == HOSTILE  # the names, unchanged
    assert page.count("</script>") == 2  # two scripts end: vis-network's and the page's own


def test_a_model_too_big_to_draw_interactively_is_refused_in_words():
    big = KripkeModel({"p": np.arange(HTML_WORLDS + 1) % 2 == 0},
                      {"a": np.arange(HTML_WORLDS + 1)}, actual=0)
    with pytest.raises(ModelTooLargeError, match=f"more than max_worlds={HTML_WORLDS}"):
        interactive_html(big)
    dense = KripkeModel({"p": np.arange(120) % 2 == 0}, {"a": np.zeros(120, dtype=int)},
                        actual=0)  # one class of 120: 7,140 pairs
    with pytest.raises(ModelError, match=f"7,140 edges, more than {HTML_EDGES:,}"):
        interactive_html(dense)


# ----- the command line -------------------------------------------------------------------------

def test_model_and_puzzle_write_the_page(tmp_path, capsys):
    out = tmp_path / "sally.html"
    assert main(["model", "kripke/models/sally-anne.kripke", "--html", str(out)]) == 0
    assert f"model (interactive HTML): {out}" in capsys.readouterr().out
    page = out.read_text(encoding="utf-8")
    assert not FETCHED.search(page)
    assert {n["label"] for n in data(page, "nodes")} == {"basket", "box"}
    told = tmp_path / "van.html"
    assert main(["puzzle", "ice-cream", "--html", str(told)]) == 0
    assert "<h1>The ice-cream van</h1>" in told.read_text(encoding="utf-8")
    assert not list(tmp_path.glob("*.part"))  # written through a file renamed into place


@pytest.mark.parametrize(("where", "said"), [
    ("missing/x.html", "folder {tmp}/missing does not exist; create it or choose another "
                       "--html"),
    ("", "{tmp} is a folder; give --html a file name inside it"),
    # a long path is cut in the middle (pytest's folders are long), its end kept
    ("old.html", "/old.html exists; choose another --html or add --overwrite"),
])
def test_a_bad_path_is_refused_in_one_line_before_any_work(tmp_path, capsys, where, said):
    (tmp_path / "old.html").write_text("kept")
    for argv in (["model", "kripke/models/sally-anne.kripke"], ["puzzle", "sally-anne"]):
        assert main([*argv, "--html", str(tmp_path / where) if where else str(tmp_path)]) == 2
        captured = capsys.readouterr()
        assert captured.out == ""  # refused before the model was read or told
        assert captured.err.count("\n") == 1 and said.format(tmp=tmp_path) in captured.err
    assert (tmp_path / "old.html").read_text() == "kept"


def test_a_model_too_big_for_the_page_writes_nothing_and_says_so(tmp_path, capsys):
    out = tmp_path / "sp.html"
    assert main(["puzzle", "sum-product", "--steps", "0", "--html", str(out)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "2,352 worlds, more than max_worlds=300" in err
    assert not out.exists() and not list(tmp_path.iterdir())


def test_pyvis_own_page_would_fetch_bootstrap_which_is_why_the_page_has_its_own_template():
    """The check above can fail: pyvis's own template, even with vis-network inlined, loads
    Bootstrap from a CDN."""
    from pyvis.network import Network

    net = Network(cdn_resources="in_line")
    net.add_node(0)
    assert FETCHED.search(net.generate_html())
