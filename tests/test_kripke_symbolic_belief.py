"""The symbolic belief backend (belief structures and transformers on BDDs) held to the textbook
definitions of kripke.reference on random belief models, formulas and events with arrows and
assignments, and to the explicit backend on the shipped models and events."""

from __future__ import annotations

import re
from importlib import resources

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from kripke_strategies import (
    PLAIN_ATOMS,
    belief_models,
    formulas,
    general_event_models,
    models,
)
from textbook import truth_after

from app.cli.main import main
from kripke import AnnouncementError, ModelError
from kripke.events.model import EventModel, private_announcement, secret_look
from kripke.explicit.belief import BeliefModel
from kripke.files.modelfile import load_model, starter_models
from kripke.interface import EpistemicModel
from kripke.puzzles.classic import mirror_story, muddy_children, muddy_mirror
from kripke.puzzles.gallery import GALLERY
from kripke.puzzles.gossip import call, gossip_start, succeeds
from kripke.reference import Structure
from kripke.symbolic.belief import from_explicit, from_knowledge
from kripke.symbolic.deal import symbolic_deal
from kripke.symbolic.transformer import peek

PLAIN = formulas(max_leaves=8, atoms=PLAIN_ATOMS)


@settings(max_examples=120, deadline=None)
@given(belief_models(), PLAIN, st.data())
def test_the_belief_structure_agrees_with_the_textbook_on_any_relation(model, formula, data):
    """At a random world (the structure pointed there) and counted over all of them."""
    expected = Structure.of(model).values(formula)
    world = data.draw(st.integers(0, model.n_worlds - 1))
    symbolic = from_explicit(model.at(world))
    assert symbolic.n_worlds == model.n_worlds
    assert symbolic.holds(formula) == expected[world]
    assert symbolic.count(formula) == sum(expected)


@settings(max_examples=60, deadline=None)
@given(models(max_worlds=6), formulas(max_leaves=8))
def test_an_s5_model_as_a_belief_structure_answers_as_before(model, formula):
    symbolic = from_explicit(model)
    assert symbolic.frame_class() == "S5"
    assert symbolic.count(formula) == model.count(formula)
    if model.actual is not None:
        assert symbolic.holds(formula) == model.holds(formula)


@settings(max_examples=100, deadline=None)
@given(belief_models(max_worlds=5), general_event_models(), PLAIN, st.data())
def test_a_transformer_with_arrows_and_assignments_agrees_with_the_textbook_product(
        model, events, formula, data):
    """At the state of any pair (w, e) of the product, every formula has the textbook's value,
    and the update has as many states as the product has pairs."""
    expected = truth_after(model, events, formula)
    assume(expected)
    w, e = data.draw(st.sampled_from(sorted(expected)))
    after = from_explicit(model.at(w)).update(events.at(e))
    assert after.n_worlds == len(expected)
    assert after.holds(formula) == expected[(w, e)]
    assert after.count(formula) == sum(expected.values())
    explicit = model.at(w).update(events.at(e))
    assert after.frame_class() == explicit.frame_class()
    for agent in model.agents:
        assert after.properties(agent) == explicit.properties(agent)
        assert after.possible_count(agent) == explicit.possible_count(agent)
        assert after.known_atoms(agent) == explicit.known_atoms(agent)
        assert after.dead_end_count(agent) == explicit.dead_ends(agent).size


@settings(max_examples=40, deadline=None)
@given(belief_models(max_worlds=4), general_event_models(max_events=2),
       general_event_models(max_events=2), PLAIN)
def test_two_updates_in_a_row_agree_with_the_explicit_backend(model, first, second, formula):
    """A second transformer on top of the first (copies of atoms changed twice, event
    variables named apart), against the explicit product, itself held to the textbook."""
    def possible(m: EpistemicModel, events: EventModel) -> EventModel | None:
        happens = [e.name for e in events.events if m.holds(e.precondition)]
        return events.at(happens[0]) if happens else None

    first_here = possible(model, first)
    assume(first_here is not None)
    between = model.update(first_here)
    second_here = possible(between, second)
    # every assume before a diagram is made: CUDD's manager must not be collected in a cycle
    # with a failed example's frames before its diagrams
    assume(second_here is not None)
    explicit = between.update(second_here)
    symbolic = from_explicit(model).update(first_here).update(second_here)
    assert symbolic.n_worlds == explicit.n_worlds
    assert symbolic.holds(formula) == explicit.holds(formula)
    assert symbolic.count(formula) == explicit.count(formula)
    assert symbolic.frame_class() == explicit.frame_class()


@settings(max_examples=60, deadline=None)
@given(belief_models(max_worlds=5), PLAIN, PLAIN)
def test_the_neutral_interface_answers_as_the_explicit_backend(model, said, then):
    symbolic = from_explicit(model)
    assert isinstance(symbolic, EpistemicModel)
    values = symbolic.values(said)
    assert symbolic.count_values(values) == model.count(said)
    assert symbolic.actual_value(values) == model.holds(said)
    kept = symbolic.restrict(values)
    assert kept.count(then) == model.restrict(model.values(said)).count(then)
    if model.holds(said):
        assert symbolic.announce(said).holds(then) == model.announce(said).holds(then)
    else:
        with pytest.raises(AnnouncementError):
            symbolic.announce(said)


def test_a_listed_copy_is_the_same_belief_model():
    model = load_model(starter_models()["sally-anne"])
    listed = from_explicit(model).as_list()
    assert isinstance(listed, BeliefModel)
    assert listed.n_worlds == model.n_worlds
    assert {a: len(listed.arrows(a)) for a in listed.agents} == \
        {a: len(model.arrows(a)) for a in model.agents}
    assert from_explicit(model).explain(model.atoms[0]).value == model.holds(model.atoms[0])


def ordered(name: str) -> bool:
    """Whether a starter orders its worlds by plausibility (a belief structure has no order)."""
    return " ranks:" in starter_models()[name]


def revises(build) -> bool:
    """Whether a gallery story changes a plausibility order (an upgrade)."""
    return any(s.event is not None and s.event.reorders for s in build().steps)


@pytest.mark.parametrize("name", sorted(n for n in starter_models() if not ordered(n)))
def test_every_shipped_model_gets_the_same_answers_after_a_secret_look(name):
    """A secret look by the first agent at the first atom, then a private announcement by the
    last: both backends give the same counts, verdicts and frame classes."""
    model = load_model(starter_models()[name])
    symbolic = from_explicit(model)
    atom = model.atoms[0]
    look = secret_look(model.agents[0], atom, model.agents, holds=model.holds(atom))
    steps: list[EventModel] = [look, private_announcement(model.agents[-1], "true",
                                                          model.agents)]
    explicit: EpistemicModel = model
    for events in steps:
        explicit, symbolic = explicit.update(events), symbolic.update(events)
        assert symbolic.n_worlds == explicit.n_worlds
        assert symbolic.frame_class() == explicit.frame_class()
        for agent in model.agents:
            assert symbolic.frame_class(agent) == explicit.frame_class(agent)
            for f in (atom, f"K_{agent} {atom}", f"C ({atom} | ~{atom}) & M_{agent} ~{atom}"):
                assert symbolic.holds(f) == explicit.holds(f)
                assert symbolic.count(f) == explicit.count(f)


def test_an_event_naming_an_atom_the_model_lacks_is_refused():
    symbolic = from_explicit(load_model(starter_models()["sally-anne"]))
    events = EventModel.of({"e": "true"}, post={"e": {"nowhere": "true"}})
    with pytest.raises(ModelError, match="assigns nowhere"):
        symbolic.update(events)


def test_a_secret_look_in_the_five_by_four_deal_and_a_private_announcement():
    """305,540,235,000 deals: player 0 looks at p(1,7) in secret, then player 2 learns in
    private that player 1 holds card 4; nobody's beliefs about the others' looks change."""
    deal = symbolic_deal(range(20), [4] * 5, [range(4 * i, 4 * i + 4) for i in range(5)])
    structure = from_knowledge(deal)
    assert structure.n_worlds == 305_540_235_000
    looked = structure.update(secret_look(0, "p(1,7)", deal.agents, holds=True))
    assert looked.holds("K_0 p(1,7) & ~K_2 p(1,7) & K_2 ~K_0 p(1,7) & K_1 ~K_0 p(1,7)")
    told = looked.update(private_announcement(2, "p(1,4)", deal.agents))
    assert told.holds("K_2 p(1,4) & K_0 p(1,7) & ~K_0 p(1,4) & K_0 ~K_2 p(1,4)")
    assert told.frame_class(0) == "KD45"  # 0 believes 2 learned nothing; still consistent


def test_a_peek_at_one_of_many_cards_is_one_transformer():
    """Player 0 looks at one of player 1's cards in secret: one event variable per bit of
    the card's number, not one event per card."""
    deal = symbolic_deal(range(8), [2] * 4, [[0, 1], [2, 3], [4, 5], [6, 7]])
    structure = from_knowledge(deal)
    cards = [f"p(1,{c})" for c in range(8)]
    after = structure.update(peek(0, cards, "p(1,3)", deal.agents))
    assert len(after.vocabulary) == len(structure.vocabulary) + 4  # 3 bits and "a look"
    assert after.holds("K_0 p(1,3) & ~K_0 p(1,2) & ~K_2 p(1,3) & K_1 ~K_0 p(1,3)")
    assert after.n_worlds == 3 * structure.n_worlds  # no look, or a look at either card



# --- the command line: either backend from the same files ---------------------------------------

MODELS = resources.files("kripke") / "models"


def answers(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, list[str]]:
    """The exit code and what ``ttr-kripke`` says that both backends must say alike: each
    verdict with its count, each event's count of worlds, each frame class (a world's name
    left out: the explicit backend names worlds, the symbolic one lists their atoms)."""
    code = main(argv)
    out = capsys.readouterr().out
    kept = [re.sub(r"at the actual world \(.*\); it holds", "; it holds", line)
            for line in out.splitlines()
            if re.search(r"at the actual world|^event .*worlds|^# frame class|^announce ",
                         line)]
    return code, kept


@pytest.mark.parametrize("name", sorted(n for n in starter_models() if not ordered(n)))
def test_the_model_command_answers_alike_with_symbolic(name, capsys):
    path = str(MODELS / f"{name}.kripke")
    model = load_model(path)
    a, b, p = model.agents[0], model.agents[-1], model.atoms[0]
    argv = ["model", path, "--check", f"K_{a} {p} | M_{b} ~{p}", "--event", f"secret:{a}:{p}",
            "--check", f"K_{b} K_{a} {p} | C ~K_{a} {p}", "--event", f"flip:{b}:{p}",
            "--check", f"D {p} & E ({p} | K_{a} ~{p})", "--event", f"private:{b}:~{p} | {p}",
            "--check", f"[!~K_{a} {p}] K_{b} {p}"]
    explicit = answers(argv, capsys)
    assert len(explicit[1]) >= 9  # two frame classes, four checks, three events
    assert answers([*argv, "--symbolic"], capsys) == explicit


def table(argv: list[str], capsys: pytest.CaptureFixture[str]) -> list[str]:
    """A story's table (worlds and value after each step) and its frame class."""
    main(argv)
    return [line for line in capsys.readouterr().out.splitlines()
            if re.match(r"\s+[\d,]+\s+(TRUE|FALSE)?|# frame class", line)]


@pytest.mark.parametrize("name", [key for key, build in GALLERY.items()
                                  if all(s.actual is None for s in build().steps)
                                  and not revises(build)])
def test_every_gallery_story_of_announcements_and_events_tells_alike_with_symbolic(name,
                                                                                  capsys):
    """The worlds left after each step, and the frame class, on both backends (the stories
    that move the actual world, the coordinated attack's, are refused with --symbolic)."""
    puzzle = GALLERY[name]()
    formula = puzzle.examples[0]
    explicit = table(["puzzle", name, "--formula", formula], capsys)
    assert len(explicit) == len(puzzle.steps) + 2
    assert table(["puzzle", name, "--formula", formula, "--symbolic"], capsys) == explicit


def test_an_order_or_an_upgrade_is_refused_with_symbolic_in_one_line(capsys):
    """A belief structure's B_a reads arrows: a model ordered by plausibility, or a story that
    revises belief by upgrades, would be answered wrongly, so --symbolic refuses them."""
    ranked = [n for n in starter_models() if ordered(n)]
    stories = [key for key, build in GALLERY.items() if revises(build)]
    assert ranked and stories
    for name in ranked:
        assert main(["model", str(MODELS / f"{name}.kripke"), "--check", "true",
                     "--symbolic"]) == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and "orders its worlds by plausibility" in err
    for key in stories:
        assert main(["puzzle", key, "--symbolic"]) == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and "plausibility" in err, err


def test_a_story_that_moves_the_actual_world_is_refused_with_symbolic(capsys):
    assert main(["puzzle", "attack", "--symbolic"]) == 2
    assert "--symbolic tells a story of announcements and events" in capsys.readouterr().err


@pytest.mark.parametrize("name", ["sally-anne", "coin", "ice-cream"])
def test_the_false_belief_stories_tell_alike_with_symbolic(name, capsys):
    for example in GALLERY[name]().examples:
        main(["puzzle", name, "--formula", example])
        explicit = [line for line in capsys.readouterr().out.splitlines()
                    if re.match(r"\s+\d+\s+(TRUE|FALSE)|# frame class", line)]
        main(["puzzle", name, "--formula", example, "--symbolic"])
        symbolic = [line for line in capsys.readouterr().out.splitlines()
                    if re.match(r"\s+\d+\s+(TRUE|FALSE)|# frame class", line)]
        assert symbolic == explicit and len(explicit) == 4


def test_gossip_on_belief_structures_agrees_with_smcdel():
    """GossipKw's ``succeeds``: after the calls 12, 34, 13, 24 every agent knows every
    secret; after 12, 34, 13 agent 2 still misses secret 4 (and 4 misses 2)."""
    assert succeeds([(1, 2), (3, 4), (1, 3), (2, 4)])
    assert not succeeds([(1, 2), (3, 4), (1, 3)])
    model = gossip_start(4)
    for t, (a, b) in enumerate([(1, 2), (3, 4), (1, 3)]):
        model = model.update(call(model, a, b, 4, t))
    assert model.holds("K_1 s(4) & K_3 s(2) & ~K_2 s(4) & ~K_4 s(2) & K_2 s(1)")
    assert model.frame_class() == "S5"  # calls are seen by the callers, and known to happen


def test_muddy_children_with_a_mirror_at_twenty():
    """Child 0 peeks in a mirror in secret; at the father's question it steps forward, which
    every other child (seeing mud on two others) believed impossible: they then believe
    everything, while child 0 knows it is muddy and that the others believe nothing happened."""
    steps = muddy_mirror(20, {0, 1, 2})
    assert [m.n_worlds for _, m in steps] == [2**20, 2**20 - 1, 2 * 2**20 - 2, 1_048_557]
    looked, asked = steps[2][1], steps[3][1]
    assert looked.holds("K_0 m0 & K_1 ~(K_0 m0 | K_0 ~m0) & ~K_1 m1")
    assert asked.holds("K_0 m0 & K_1 false & K_3 false & K_0 K_1 false")
    assert asked.frame_class(0) == "S5" and asked.frame_class(1) == "K"


@pytest.mark.parametrize("muddy", [{0, 1}, {0}, {1, 2}])
def test_the_mirror_story_tells_alike_on_both_backends(muddy):
    explicit = mirror_story(muddy_children(4, muddy), 4, 0)
    symbolic = muddy_mirror(4, muddy)
    for (said, a), (same, b) in zip(explicit, symbolic, strict=True):
        assert said == same and a.n_worlds == b.n_worlds
        assert a.frame_class() == b.frame_class()
        for f in ("K_0 m0 | K_0 ~m0", "K_1 false", "C (m0 | m1 | m2 | m3)", "M_2 m2"):
            assert a.holds(f) == b.holds(f) and a.count(f) == b.count(f)
