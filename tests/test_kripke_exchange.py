"""Models written out: JSON reads back to the same model; TikZ compiles with pdflatex."""

from __future__ import annotations

import json
import subprocess

import pytest
from hypothesis import given, settings
from kripke_strategies import formulas, models

from app.worlds.tikz import latex, to_tikz
from kripke import ModelError, ModelTooLargeError, deal_model
from kripke.explicit.belief import BeliefModel
from kripke.files.exchange import from_json, to_json
from kripke.puzzles.gallery import GALLERY, cheryl_birthday, coordinated_attack, muddy


def round_trip(model):
    return from_json(json.loads(json.dumps(to_json(model))))


@settings(max_examples=60, deadline=None)
@given(models(), formulas(max_leaves=8))
def test_json_reads_back_to_a_model_with_the_same_answers(model, formula):
    back = round_trip(model)
    assert back.world_ids.tolist() == model.world_ids.tolist()
    assert back.actual == model.actual
    assert back.evaluate(formula).tolist() == model.evaluate(formula).tolist()


@pytest.mark.parametrize("key", ["muddy", "cheryl", "russian", "attack"])
def test_a_puzzle_after_its_steps_reads_back_with_its_world_ids_and_labels(key):
    puzzle = GALLERY[key]()
    model = puzzle.models()[-2]
    data = to_json(model, name=puzzle.describe)
    back = from_json(json.loads(json.dumps(data)))
    assert back.world_ids.tolist() == model.world_ids.tolist()
    assert back.n_worlds == model.n_worlds and set(back.agents) == set(model.agents)
    for example in puzzle.examples:
        assert back.evaluate(example).tolist() == model.evaluate(example).tolist()
    assert data["worlds"][model.actual]["label"] == puzzle.describe(model, model.actual)


def test_bad_model_files_are_refused_with_what_is_wrong():
    good = to_json(cheryl_birthday().model)
    with pytest.raises(ModelError, match="not a model file"):
        from_json({"worlds": []})
    with pytest.raises(ModelError, match="version 9"):
        from_json({**good, "version": 9})
    # each content error names the field by its path
    with pytest.raises(ModelError, match="^observations: 1 lists for 2 agents; give one list "
                                         "per agent"):
        from_json({**good, "observations": good["observations"][:1]})
    with pytest.raises(ModelError, match="^actual: must be the id of one of the worlds or null, "
                                         "not 99"):
        from_json({**good, "actual": 99})
    with pytest.raises(ModelError, match=r"^worlds\[0\]\.true: must be a list of atoms, "
                                         "not null"):
        from_json({**good, "worlds": [{"id": 0}]})


def test_a_model_too_big_to_write_is_refused_before_any_work():
    deal = deal_model(range(12), [4, 4, 4], [range(4), range(4, 8), range(8, 12)])
    with pytest.raises(ModelTooLargeError, match="34,650 worlds"):
        to_json(deal, max_worlds=10_000)
    with pytest.raises(ModelTooLargeError, match="for a slide"):
        to_tikz(deal)


def test_latex_specials_are_escaped():
    assert latex("0:{1,2} a_b & 50% #1 $x ~^\\") == (
        r"0:\{1,2\} a\_b \& 50\% \#1 \$x \textasciitilde{}\textasciicircum{}"
        r"\textbackslash{}")


def test_tikz_draws_every_world_the_actual_one_double_and_chains_not_cliques():
    puzzle = muddy(3, (0, 1))
    model = puzzle.models()[1]  # after the father: 7 worlds
    text = to_tikz(model, puzzle.positions(0), puzzle.describe, puzzle.agent_names)
    assert text.count("\\node[world]") == 6 and text.count("\\node[actual]") == 1
    # each child's classes are pairs; one removed world leaves 3 pairs per child: 9 - 3 = 6 + ...
    edges = text.count("\\draw[edge")
    expected = sum(len(set(model.observation(a).tolist())) for a in model.agents)
    assert edges == 3 * model.n_worlds - expected  # a chain of k worlds has k - 1 edges


@pytest.mark.parametrize("key", list(GALLERY))
def test_tikz_of_every_puzzle_is_a_whole_document_naming_every_world(key):
    puzzle = GALLERY[key]()
    model = next(m for m in puzzle.models() if m.n_worlds <= 200)
    positions = puzzle.positions(model.agents[0]) if puzzle.positions else None
    text = to_tikz(model, positions, puzzle.describe, puzzle.agent_names, title=puzzle.title)
    assert text.count("\\node[world]") + text.count("\\node[actual]") == model.n_worlds
    assert text.count("\\begin{") == text.count("\\end{")


@pytest.mark.parametrize("key", ["muddy", "cheryl", "dining"])
def test_tikz_of_a_puzzle_compiles_with_pdflatex(key, pdflatex, tmp_path):
    """Three shapes of picture (own geometry, a month grid, a grid of classes); each
    compile costs seconds, so not every puzzle."""
    puzzle = GALLERY[key]()
    model = next(m for m in puzzle.models() if m.n_worlds <= 200)
    positions = puzzle.positions(model.agents[0]) if puzzle.positions else None
    source = tmp_path / f"{key}.tex"
    source.write_text(to_tikz(model, positions, puzzle.describe, puzzle.agent_names,
                              title=puzzle.title))
    run = subprocess.run([pdflatex, "-interaction=nonstopmode", "-halt-on-error",
                          source.name], cwd=tmp_path, capture_output=True, text=True,
                         timeout=120)
    assert run.returncode == 0, run.stdout[-2000:]
    assert (tmp_path / f"{key}.pdf").stat().st_size > 1000


def test_tikz_of_the_coordinated_attack_labels_edges_with_the_agents_names():
    puzzle = coordinated_attack(2)
    text = to_tikz(puzzle.model, puzzle.positions("a"), puzzle.describe, puzzle.agent_names)
    assert "{general a}" in text and "{general b}" in text


def test_tikz_draws_each_agents_edges_in_the_colour_the_page_gives_it():
    from app.web.components.exports import agent_colour as page_colour

    puzzle = coordinated_attack(2)
    text = to_tikz(puzzle.model, puzzle.positions("a"), puzzle.describe, puzzle.agent_names)
    on_page = page_colour(puzzle.agent_names)
    for k, agent in enumerate(puzzle.model.agents):
        code = on_page(agent)[1:].upper()
        assert f"\\definecolor{{agent{k}}}{{HTML}}{{{code}}}" in text
        name = puzzle.agent_names[agent]
        edges = [line for line in text.splitlines() if f"{{{name}}}" in line]
        assert edges and all(line.startswith(f"\\draw[edge,agent{k}]") for line in edges)


def test_tikz_of_a_belief_model_draws_arrows_loops_by_the_convention_and_compiles(pdflatex,
                                                                                  tmp_path):
    """Sally's arrow from the box to the basket (one head), her loop at the basket (her
    relation is not reflexive), Bob's two opposite arrows as one <-> line, and no loop of
    Anne's (reflexive: textbooks leave them out)."""
    model = BeliefModel.of([{"basket"}, {"box"}],
                           {"sally": [(0, 0), (1, 0)], "anne": [(0, 0), (1, 1)],
                            "bob": [(0, 1), (1, 0), (1, 1), (0, 0)]}, actual=1,
                           names=["basket", "box"])
    text = to_tikz(model, {0: (1.0, 0.0), 1: (0.0, 0.0)})
    sally, anne, bob = "agent0", "agent1", "agent2"
    assert f"\\draw[edge,->,{sally}] (w1) -- node" in text  # box to basket
    assert f"\\draw[edge,->,{sally}] (w0) to[loop above" in text
    assert f"\\draw[edge,<->,{bob}] (w0)" in text and f"{anne}] (w" not in text
    assert "loops left out for anne, bob" in text  # both reflexive
    source = tmp_path / "belief.tex"
    source.write_text(text)
    run = subprocess.run([pdflatex, "-interaction=nonstopmode", "-halt-on-error",
                          source.name], cwd=tmp_path, capture_output=True, text=True,
                         timeout=120)
    assert run.returncode == 0, run.stdout[-2000:]


def test_a_tikz_title_writes_formulas_in_latex_math(pdflatex, tmp_path):
    """Issue 38: a caption such as "you announced ¬K_a p ∧ q" in the slide's notation."""
    from app.worlds.tikz import latex_formula_text

    said = latex_formula_text("Cards: you announced ¬K_a p ∧ C_{a,b} (q → r), 50% & #1")
    assert said == (r"Cards: you announced $\neg$$\mathit{K}_{a}$ p $\land$ "
                    r"$\mathit{C}_{a,b}$ (q $\to$ r), 50\% \& \#1")
    puzzle = coordinated_attack(2)
    text = to_tikz(puzzle.model, puzzle.positions("a"), puzzle.describe,
                   title="Attack: you announced ¬K_a d1 ∨ ⊤")
    assert r"$\neg$$\mathit{K}_{a}$ d1 $\lor$ $\top$" in text
    (tmp_path / "t.tex").write_text(text)
    run = subprocess.run([pdflatex, "-interaction=nonstopmode", "-halt-on-error", "t.tex"],
                         cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stdout[-2000:]
