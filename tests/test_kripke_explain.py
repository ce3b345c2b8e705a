"""Why a formula holds: every node of the explanation agrees with the textbook semantics, and its
evidence (a counterexample, a witness, a chain) really is what it claims to be, on S5 models
and on belief models (any relation), where an S5 model gives the same explanation either way."""

from __future__ import annotations

import re
from dataclasses import replace

import pytest
from hypothesis import given, settings
from kripke_strategies import PLAIN_ATOMS, announcement_formulas, belief_models, formulas, models

from kripke import Announce, AnnounceDual, Common, Knows, KripkeModel, ModelError, Possible, parse
from kripke.explain import Explanation, explain, render, steps
from kripke.explicit.belief import BeliefModel
from kripke.puzzles.gallery import (
    cheryl_birthday,
    coordinated_attack,
    ice_cream,
    sally_anne,
    secret_coin,
)
from kripke.reference import Structure


def truth(model: KripkeModel | BeliefModel, formula) -> list[bool]:
    """The textbook value of the formula at every world, whichever kind the model is."""
    return Structure.of(model).values(formula)


def check_node(model: KripkeModel | BeliefModel, node: Explanation) -> None:
    """The node's value is the reference value at its world, and its evidence holds."""
    w = model.world_index(node.world)
    assert w is not None
    assert node.value == truth(model, node.formula)[w]
    f = node.formula
    if isinstance(f, Knows | Possible) and node.witness is not None:
        witness = model.world_index(node.witness)
        assert witness in model.possible_worlds(f.agent, w)  # the agent considers it possible
        inner = truth(model, f.formula)[witness]
        assert inner == isinstance(f, Possible)  # fails for K, holds for M
        assert node.children[0].world == node.witness
    if isinstance(f, Knows) and not node.value:
        assert node.witness is not None
    if isinstance(f, Common) and not node.value:
        agents = model.agents if f.group is None else f.group
        chain = [node.world, *(x for _, x in node.chain)]
        for (agent, _), a, b in zip(node.chain, chain[:-1], chain[1:], strict=True):
            assert agent in agents  # each step an arrow of the group's, from a to b
            assert model.world_index(b) in model.possible_worlds(agent, model.world_index(a))
        assert chain[-1] == node.witness
        assert not truth(model, f.formula)[model.world_index(chain[-1])]
    for position, child in enumerate(node.children):
        if isinstance(f, Announce | AnnounceDual) and node.announcement and position == 1:
            after = model.restrict(model.evaluate(f.announcement))  # ψ is explained there
            assert node.worlds_after == after.n_worlds
            check_node(after, child)
        else:
            check_node(model, child)


@settings(max_examples=150, deadline=None)
@given(models(), formulas(max_leaves=8))
def test_every_node_agrees_with_the_textbook_semantics(model, formula):
    for w in range(model.n_worlds):
        check_node(model, explain(model, formula, w))


@settings(max_examples=150, deadline=None)
@given(belief_models(), formulas(max_leaves=8, atoms=PLAIN_ATOMS))
def test_every_node_agrees_with_the_textbook_on_a_belief_model(model, formula):
    """Belief (K_a read on arrows), its dual, E, D, C along arrows and announcements, with
    dead ends (K vacuously true) and worlds not reachable from themselves."""
    check_node(model, model.explain(formula))


@settings(max_examples=100, deadline=None)
@given(models(max_worlds=6), formulas(max_leaves=8))
def test_an_s5_model_as_a_belief_model_is_explained_the_same_way(model, formula):
    """The same verdicts, reasons, evidence and worlds, whether the classes are read as
    partitions or as the equivalence relations they are (only the worlds' own names differ:
    ``to_belief`` names a world by what holds there, where the S5 model says w and its id,
    and the sentences cite what holds there either way)."""
    if model.actual is None:
        model = model.at(0)
    assert unnamed(model.to_belief().explain(formula)) == unnamed(model.explain(formula))


def unnamed(node: Explanation) -> Explanation:
    return replace(node, name="", names=(), children=tuple(map(unnamed, node.children)))


def test_a_belief_is_explained_in_the_worlds_the_agent_considers_possible():
    """Sally believes the marble is in the basket: K_sally basket is true in the box world
    because her only arrow reaches the basket world, which the explanation cites."""
    end = sally_anne().models()[-1]
    node = end.explain(parse("K_sally basket & ~basket"))
    belief = node.children[0]
    assert node.value and belief.value
    assert "agent sally considers 1 world possible (“w·skip”), and basket holds in every " \
        "one" in belief.reason
    assert belief.children[0].world != node.world  # read where her arrow points, not here
    assert belief.children[0].value


def test_no_arrow_makes_a_belief_true_only_vacuously_and_common_belief_skips_the_world():
    """Where a has no arrow, K_a ⊥ holds; C_a p holds at a world where p fails when no arrow
    of a comes back to it (C needs p in the worlds reachable in one step or more)."""
    model = BeliefModel.of([set(), {"p"}, set()], {"a": [(0, 1), (1, 1)]}, actual=0)
    stuck = model.at(2).explain(parse("K_a false"))
    assert stuck.value and "considers no world possible" in stuck.reason
    assert not stuck.children  # nothing to explain in a world it does not consider
    assert "C is true only vacuously" in model.at(2).explain(parse("C_a false")).reason
    common = model.explain(parse("C_a p"))
    assert common.value and not model.holds("p")
    assert common.worlds == (model.world_id(1),) and common.n_worlds == 1
    check_node(model, common)


@settings(max_examples=200, deadline=None)
@given(models(max_worlds=8), announcement_formulas())
def test_nested_and_repeated_announcements_are_explained_in_their_own_models(model, formula):
    """Several announcements asking the same subformula, each of its own announced model:
    every node's value is the textbook value in the model it was made in (issue 23: values
    were cached by the address of an announced model, which the next one could reuse)."""
    for w in range(model.n_worlds):
        check_node(model, explain(model, formula, w))


def test_a_false_k_names_a_world_the_agent_cannot_rule_out_where_the_inner_formula_fails():
    puzzle = cheryl_birthday()
    node = explain(puzzle.model, parse("K_albert d_July_16"), name=puzzle.describe)
    assert not node.value and node.n_worlds == 2
    assert node.witness == 5 and node.children[0].label == "July 14"
    assert "July 14" in node.reason and "agent albert considers 2 worlds possible" in node.reason
    assert node.highlighted() == {5}


def test_a_false_common_knowledge_gives_the_chain_to_a_counterexample():
    puzzle = coordinated_attack(4)
    model = puzzle.models()[4]  # all four messengers got through
    node = explain(model, parse("C_{a,b} got1"), name=puzzle.describe)
    assert not node.value
    assert node.chain == (("b", 3), ("a", 2), ("b", 1), ("a", 0))
    # every world of the chain is ringed, the one it starts from too
    assert node.witness == 0 and node.highlighted() == {0, 1, 2, 3, 4}
    assert "messenger 1 was caught" in node.reason


def test_an_announcement_that_cannot_be_made_is_called_vacuous():
    puzzle = cheryl_birthday()
    node = explain(puzzle.model, parse("[!d_May_15] K_albert d_May_15"))
    assert node.value and node.announcement is False
    assert "vacuous" in node.reason
    made = explain(puzzle.model, parse("[!d_July_16 | d_August_14] K_bernard d_July_16"))
    assert made.announcement is True and made.worlds_after == 2
    assert "2 worlds remain of 10" in made.reason


def test_render_prints_one_line_per_subformula_with_its_value():
    puzzle = cheryl_birthday()
    text = render(explain(puzzle.model, parse("K_albert d_July_16 | K_bernard ~d_May_19"),
                          name=puzzle.describe))
    lines = text.splitlines()
    assert lines[0].startswith("TRUE   K_albert d_July_16 | K_bernard ~d_May_19  "
                               "[world July 16]")
    assert any(line.strip().startswith("FALSE  K_albert d_July_16") for line in lines)
    assert any(line.strip().startswith("TRUE   K_bernard ~d_May_19") for line in lines)
    assert "¬" in render(explain(puzzle.model, parse("~d_May_19")), unicode=True)


def test_a_world_out_of_range_is_refused():
    with pytest.raises(ModelError, match="out of range"):
        explain(cheryl_birthday().model, parse("true"), 10)


def test_agents_take_the_callers_names_and_worlds_are_cited_by_what_holds_there():
    puzzle = cheryl_birthday()
    node = explain(puzzle.model, parse("K_albert d_July_16"), name=puzzle.describe,
                   agent_name=lambda a: f"the logician {a}")
    assert node.reason.startswith("the logician albert considers 2 worlds possible")
    assert "agent" not in node.reason
    assert "world 5" not in node.reason and "“July 14”" in node.reason


def test_a_chain_names_each_agent_and_world_it_passes_through():
    puzzle = coordinated_attack(4)
    node = explain(puzzle.models()[4], parse("C_{a,b} got1"), name=puzzle.describe,
                   agent_name=str.upper)
    assert "B considers possible" in node.reason and "A considers possible" in node.reason
    assert not any(f"world {i}" in node.reason for i in range(5))


def test_a_many_line_world_description_is_cited_on_one_line_with_separators():
    model = KripkeModel({"p": [True, False]}, {"a": [0, 0]}, actual=0)
    node = explain(model, parse("K_a p"), name=lambda m, i: f"first line {i}\nsecond line")
    assert node.label == "first line 0; second line"
    assert "“first line 1; second line”" in node.reason


def test_a_true_disjunction_rests_on_its_true_part_alone():
    puzzle = cheryl_birthday()
    # K_albert d_July_16 is false (a counterexample, July 14); d_July_16 is true
    node = explain(puzzle.model, parse("K_albert d_July_16 | d_July_16"), name=puzzle.describe)
    assert node.value and node.highlighted() == set()
    assert [k.relied for k in node.children] == [False, True]
    assert [s.formula for s in steps(node)] == [parse("d_July_16"), node.formula]
    false_and = explain(puzzle.model, parse("d_July_16 & K_albert d_July_16"),
                        name=puzzle.describe)
    assert false_and.highlighted() == {5}  # the counterexample the false part rests on


def test_steps_go_from_the_evidence_to_the_verdict_with_the_worlds_of_each():
    puzzle = coordinated_attack(4)
    node = explain(puzzle.models()[4], parse("C_{a,b} got1"), name=puzzle.describe)
    chain = steps(node)
    assert [s.formula for s in chain] == [parse("got1"), node.formula]
    assert chain[0].worlds == (0,) and "messenger 1 was caught" in chain[0].text
    assert chain[-1].worlds == (4, 3, 2, 1, 0) and not chain[-1].value
    cheryl = cheryl_birthday()
    k = steps(explain(cheryl.model, parse("K_albert d_July_16"), name=cheryl.describe))
    assert [s.worlds for s in k] == [(5,), (5,)]
    assert k[0].text == "d_July_16 is false in the world “July 14”"


# --- belief, worked by hand (issue 43) ---------------------------------------------------------
# The end of two gallery stories, explained as the page and the command line explain them (the
# puzzle's words for worlds and agents). Sally and Anne: the actual world ``w·move`` (the
# marble in the box), Sally's arrow to ``w·skip`` (in the basket), which points to itself;
# Anne's arrows are loops. The ice-cream van: ``park·told`` (actual; the van at the church),
# ``park·untold``, ``park·skip`` (the van in the park); John: told → untold, untold → untold,
# skip → skip; Mary: told → told, untold → skip, skip → skip.


def story_end(make):
    puzzle = make()
    end = puzzle.models()[-1]
    worlds = {end.world_name(i): i for i in range(end.n_worlds)}

    def why(text: str) -> Explanation:
        return end.explain(parse(text), name=puzzle.describe, agent_name=puzzle.agent_name)

    def cited(name: str) -> str:
        return f"the world “{name}” ({puzzle.describe(end, worlds[name])})"

    return end, worlds, why, cited


def test_sally_believes_the_marble_is_in_the_basket_and_the_reason_names_her_only_world():
    end, worlds, why, cited = story_end(sally_anne)
    assert set(worlds) == {"w·move", "w·skip"}
    assert end.world_name(end.actual) == "w·move"
    node = why("B_sally basket")
    assert node.value and str(node.formula) == "B_sally basket"  # as typed, not K_sally
    assert node.reason == ("Sally considers 1 world possible (“w·skip”), and basket holds "
                           "in every one of them")
    assert [(c.name, c.value) for c in node.children] == [("w·skip", True)]
    assert [s.text for s in steps(node)] == [
        f"basket is true in {cited('w·skip')}",
        f"B_sally basket is true: {node.reason}"]
    false = why("B_sally box")
    assert not false.value and false.reason == (
        f"Sally considers 1 world possible (“w·skip”); box fails in "
        f"{cited('w·skip')}")
    assert why("B_anne B_sally basket").value and not why("basket").value
    assert why("<sally> basket").value and why("B_anne ~basket").value


def test_a_false_common_belief_gives_annes_arrow_back_to_the_world_where_basket_fails():
    """C_{sally,anne} basket is false at w·move, and not because of the world alone: C
    reads the worlds one arrow or more away. Sally's arrows reach only w·skip (so
    C_sally basket is true here); Anne's arrow comes back to w·move, where basket fails."""
    end, worlds, why, _ = story_end(sally_anne)
    assert why("C_sally basket").value
    node = why("C_{sally,anne} basket")
    assert not node.value
    assert node.chain == (("anne", end.world_id(worlds["w·move"])),)
    assert node.reason == ("from here, Anne considers possible this very world, and basket fails "
                           "there (C needs it in every world the group can reach in one step or "
                           "more)")
    assert node.highlighted() == {end.world_id(worlds["w·move"])}


def test_john_believes_mary_believes_the_van_is_in_the_park_every_step_named():
    end, worlds, why, cited = story_end(ice_cream)
    assert end.world_name(end.actual) == "park·told"
    node = why("B_john B_mary park")
    assert node.value and str(node.formula) == "B_john B_mary park"
    assert node.reason == ("John considers 1 world possible (“park·untold”), and B_mary park "
                           "holds in every one of them")
    inner = node.children[0]
    assert inner.name == "park·untold" and inner.value
    assert inner.reason == ("Mary considers 1 world possible (“park·skip”), and park holds in "
                            "every one of them")
    assert inner.children[0].name == "park·skip" and inner.children[0].value
    mary = why("B_mary park")  # she was told: her arrow stays in the actual world
    assert not mary.value and mary.reason == (
        f"Mary considers 1 world possible (“park·told”); park fails in {cited('park·told')}")
    assert why("B_mary ~park").value and why("B_john ~park").value
    assert why("B_mary B_john ~park").value and not why("park").value
    never = why("M_john park")
    assert not never.value and never.reason == (
        "John considers 1 world possible (“park·untold”), and park holds in no one of them")


def test_a_false_common_belief_in_the_van_gives_the_two_arrows_to_the_park():
    end, worlds, why, cited = story_end(ice_cream)
    node = why("C_{john,mary} ~park")
    assert not node.value
    assert node.chain == (("john", end.world_id(worlds["park·untold"])),
                          ("mary", end.world_id(worlds["park·skip"])))
    assert node.reason == (
        f"a path of 2 steps, each to a world an agent of the group considers possible at the "
        f"one before: from here, John considers possible {cited('park·untold')}; then Mary "
        f"considers possible {cited('park·skip')}; ~park fails in that last world (C needs it "
        f"in every world the group can reach in one step or more)")


def test_a_true_belief_explains_every_world_the_agent_considers_possible():
    """The secret coin after a's look: b's arrows reach the two worlds where nothing
    happened, and the explanation explains b's belief in both, each step naming its world."""
    puzzle = secret_coin()
    model = puzzle.models()[1]
    node = model.explain(parse("B_b ~(K_a heads | K_a ~heads)"), name=puzzle.describe,
                         agent_name=puzzle.agent_name)
    assert node.value and node.names == ("heads·skip", "tails·skip")
    assert node.reason.startswith("b considers 2 worlds possible (“heads·skip”, “tails·skip”)")
    assert [(c.name, c.relied) for c in node.children] == [("heads·skip", True),
                                                          ("tails·skip", True)]
    texts = [s.text for s in steps(node)]
    assert "K_a heads | K_a ~heads is false in the world “heads·skip” (heads up; a knows the " \
        "side: no): every part is false" in texts
    assert "K_a heads | K_a ~heads is false in the world “tails·skip” (tails up; a knows the " \
        "side: no): every part is false" in texts


def test_render_cites_the_worlds_by_their_names_never_by_their_ids():
    """A product's ids run past its number of worlds (the coin after the look: ids 0, 2, 4
    and 5 of 4 worlds); the tree names each world as the model and the picture do, the
    counterexample first."""
    puzzle = secret_coin()
    model = puzzle.models()[1]
    text = render(model.explain(parse("B_b heads"), name=puzzle.describe))
    assert text.splitlines()[0] == (
        "FALSE  B_b heads  [world heads·yes: heads up; a knows the side: yes] agent b considers "
        "2 worlds possible (“heads·skip”, “tails·skip”); heads fails in the world “tails·skip” "
        "(tails up; a knows the side: no)")
    assert "       worlds: tails·skip, heads·skip" in text.splitlines()
    assert not re.search(r"world \d|worlds: \d", text)


def test_render_lists_worlds_whose_names_hold_commas_apart_with_semicolons():
    """Muddy children's worlds are "muddy: 0, 1": a list of them by commas would run them
    together. Both of child 0's worlds are explained, the witness first."""
    from kripke.puzzles.gallery import muddy

    puzzle = muddy(3, (0, 1))
    text = render(puzzle.model.explain(parse("M_0 ~m0"), name=puzzle.describe))
    assert "       worlds: muddy: 0, 1; muddy: 1" in text.splitlines()
    assert "agent 0 considers 2 worlds possible (“muddy: 1”, “muddy: 0, 1”); ~m0 holds in the " \
        "world “muddy: 1”" in text
