"""Hypothesis strategies for random small models (explicit and symbolic) and random formulas.

For the property tests of ``kripke`` and of code built on it. They live with the tests, not in
the package, so the runtime never needs ``hypothesis`` (``tests/test_architecture.py`` keeps it
out of every package).
"""

from __future__ import annotations

from typing import Any

import numpy as np
from hypothesis import strategies as st

from kripke.events.model import Event, EventModel
from kripke.explicit.access import Access, label_matrix
from kripke.explicit.belief import BeliefModel
from kripke.explicit.model import KripkeModel
from kripke.explicit.plausibility import PlausibilityModel, RankedEvents
from kripke.language.formula import (
    Agent,
    And,
    Announce,
    AnnounceDual,
    Atom,
    BelievedPossible,
    Believes,
    Bottom,
    Common,
    ConditionalBelief,
    ConditionalPossible,
    Distributed,
    Everyone,
    Formula,
    Iff,
    Implies,
    Knows,
    Not,
    Or,
    Possible,
    SafeBelief,
    SafePossible,
    Top,
)
from kripke.symbolic.bdd import Vocabulary
from kripke.symbolic.structure import SymbolicModel

# Mixed names on purpose: agents are found by their text, so 0 and "b" must both work.
AGENTS: tuple[Agent, ...] = (0, "b", 2)
PLAIN_ATOMS = (Atom("p"), Atom("q"), Atom("r", (1,)))
# Atoms observed by one agent (tables over its keys), so the checker's table paths get exercised:
# s and t by agent 0, u by agent b.
OBSERVED_ATOMS = {Atom("s"): AGENTS[0], Atom("t"): AGENTS[0], Atom("u"): AGENTS[1]}
# v is given as a function of the world ids, evaluated lazily.
LAZY_ATOM = Atom("v")
ATOMS = (*PLAIN_ATOMS, *OBSERVED_ATOMS, LAZY_ATOM)


@st.composite
def models(draw: st.DrawFn, max_worlds: int = 7) -> KripkeModel:
    """A model on 1..max_worlds worlds with the agents AGENTS and the atoms ATOMS."""
    n = draw(st.integers(1, max_worlds))
    keys = st.lists(st.integers(0, 3), min_size=n, max_size=n)
    observations = {agent: np.array(draw(keys)) for agent in AGENTS}
    bools = st.lists(st.booleans(), min_size=n, max_size=n)
    valuation: dict[Atom, Any] = {atom: draw(bools) for atom in PLAIN_ATOMS}
    true_ids = np.array(draw(st.lists(st.integers(0, n - 1), max_size=n)), dtype=np.int64)
    valuation[LAZY_ATOM] = lambda ids: np.isin(ids, true_ids)
    tables = st.lists(st.booleans(), min_size=4, max_size=4)
    observed = {atom: (agent, draw(tables)) for atom, agent in OBSERVED_ATOMS.items()}
    actual = draw(st.integers(0, n - 1))
    return KripkeModel(valuation, observations, actual, observed_atoms=observed)


def groups(
    agents: tuple[Agent, ...] = AGENTS,
) -> st.SearchStrategy[tuple[Agent, ...] | None]:
    """None (all agents) or a non-empty subset of the agents."""
    return st.one_of(st.none(), st.lists(st.sampled_from(agents), min_size=1,
                                         max_size=len(agents), unique=True).map(tuple))


def formulas(
    max_leaves: int = 12, atoms: tuple[Atom, ...] = ATOMS, agents: tuple[Agent, ...] = AGENTS
) -> st.SearchStrategy[Formula]:
    """Random formulas over the atoms and agents using every connective and operator."""
    leaves = st.sampled_from((*atoms, Top(), Bottom()))
    agent = st.sampled_from(agents)

    def extend(inner: st.SearchStrategy[Formula]) -> st.SearchStrategy[Formula]:
        parts = st.lists(inner, min_size=2, max_size=3)
        return st.one_of(
            st.builds(Not, inner),
            parts.map(lambda ps: And(*ps)),
            parts.map(lambda ps: Or(*ps)),
            st.builds(Implies, inner, inner),
            st.builds(Iff, inner, inner),
            st.builds(Knows, agent, inner),
            st.builds(Possible, agent, inner),
            st.builds(Everyone, groups(agents), inner),
            st.builds(Common, groups(agents), inner),
            st.builds(Distributed, groups(agents), inner),
            st.builds(Announce, inner, inner),
            st.builds(AnnounceDual, inner, inner),
            announcements(inner, agents),
        )

    return st.recursive(leaves, extend, max_leaves=max_leaves)


def announcements(parts: st.SearchStrategy[Formula], agents: tuple[Agent, ...] = AGENTS
                  ) -> st.SearchStrategy[Formula]:
    """Announcements nested and repeated over a pool of one or two formulas drawn from
    ``parts``: ``[!χ][!χ']ψ``, ``[!χ][!χ]ψ``, ``<!χ>K_a ψ``, and conjunctions or disjunctions
    of up to three such chains, all made of the same few formulas.

    These are what a class types after a few announcements, and what independent draws almost
    never produce: the same subformula asked of several announced models, and the same
    announcement made twice. "Why?" once answered for the wrong announced model on exactly
    these (issue 23), so every checker and the explanations are held to them."""
    agent = st.sampled_from(agents)

    @st.composite
    def build(draw: st.DrawFn) -> Formula:
        pool = draw(st.lists(parts, min_size=1, max_size=2))
        part = st.sampled_from(pool)

        def chain() -> Formula:
            core = draw(part)
            kind = draw(st.sampled_from((None, Knows, Possible)))
            formula: Formula = core if kind is None else kind(draw(agent), core)
            for said in draw(st.lists(part, min_size=1, max_size=3)):
                operator = draw(st.sampled_from((Announce, AnnounceDual)))
                formula = operator(said, formula)
            return formula

        chains = [chain() for _ in range(draw(st.integers(1, 3)))]
        if len(chains) == 1:
            return chains[0]
        return draw(st.sampled_from((And, Or)))(*chains)

    return build()


def announcement_formulas(max_leaves: int = 4, atoms: tuple[Atom, ...] = ATOMS,
                          agents: tuple[Agent, ...] = AGENTS) -> st.SearchStrategy[Formula]:
    """Only nested and repeated announcements (:func:`announcements`) over small random
    formulas: the focused strategy for tests of announcements."""
    return announcements(formulas(max_leaves, atoms, agents), agents)


@st.composite
def structures(draw: st.DrawFn, max_cubes: int = 6, max_free: int = len(ATOMS)
               ) -> SymbolicModel:
    """A knowledge structure over ATOMS with the agents AGENTS: a law that is a disjunction of
    up to ``max_cubes`` random partial cubes, each leaving at most ``max_free`` atoms free (so
    states come in many shapes and numbers, up to all 128), a random set of observed atoms per
    agent, and an actual state drawn among the law's states."""
    vocabulary = Vocabulary(draw(st.permutations(ATOMS)))  # the variable order varies too
    literals = st.dictionaries(st.sampled_from(ATOMS), st.booleans(),
                               min_size=len(ATOMS) - max_free, max_size=len(ATOMS))
    law = vocabulary.false
    for cube in draw(st.lists(literals, min_size=1, max_size=max_cubes)):
        law = law | vocabulary.cube(cube)
    observed = st.lists(st.sampled_from(ATOMS), unique=True, max_size=len(ATOMS))
    observations: dict[Agent, list[Atom]] = {agent: draw(observed) for agent in AGENTS}
    model = SymbolicModel(vocabulary, law, observations)
    states = model.states(max_worlds=2 ** len(ATOMS))
    actual = states[draw(st.integers(0, len(states) - 1))]
    return SymbolicModel(vocabulary, law, observations, actual)


@st.composite
def event_models(draw: st.DrawFn, max_events: int = 3, atoms: tuple[Atom, ...] = ATOMS,
                 agents: tuple[Agent, ...] = AGENTS) -> EventModel:
    """An event model of 1..max_events events whose preconditions are random formulas
    (epistemic ones too), a random partition of the events for some of the agents (the others
    tell none apart) and a random actual event, which may or may not be possible."""
    n = draw(st.integers(1, max_events))
    names = [f"e{i}" for i in range(n)]
    events = tuple(Event(name, draw(formulas(max_leaves=4, atoms=atoms, agents=agents)))
                   for name in names)
    partitions = []
    for agent in draw(st.lists(st.sampled_from(agents), unique=True, max_size=len(agents))):
        keys = draw(st.lists(st.integers(0, n - 1), min_size=n, max_size=n))
        classes = tuple(tuple(name for name, k in zip(names, keys, strict=True) if k == key)
                        for key in sorted(set(keys)))
        partitions.append((agent, classes))
    return EventModel(events, tuple(partitions), draw(st.sampled_from(names)))


@st.composite
def belief_models(draw: st.DrawFn, max_worlds: int = 6,
                  agents: tuple[Agent, ...] = AGENTS) -> BeliefModel:
    """A model with any relations: each agent's arrows a random set of pairs (loops, dead
    ends and one-way arrows included), the plain atoms random, the actual world random."""
    n = draw(st.integers(1, max_worlds))
    pairs = st.lists(st.tuples(st.integers(0, n - 1), st.integers(0, n - 1)),
                     max_size=n * n)
    bools = st.lists(st.booleans(), min_size=n, max_size=n)
    worlds = [{a for a, v in zip(PLAIN_ATOMS, row, strict=True) if v}
              for row in zip(*[draw(bools) for _ in PLAIN_ATOMS], strict=True)]
    return BeliefModel.of(worlds, {a: draw(pairs) for a in agents},
                          draw(st.integers(0, n - 1)), atoms=PLAIN_ATOMS)


@st.composite
def classed_belief_models(draw: st.DrawFn, max_worlds: int = 6,
                          agents: tuple[Agent, ...] = AGENTS) -> BeliefModel:
    """A belief model whose agents hold their relations by classes, each drawn as one of the
    three kinds: a partition (random keys), arrows world by world, or labels (some worlds
    sharing one) with random arrows between the labels; the plain atoms random."""
    n = draw(st.integers(1, max_worlds))
    bools = st.lists(st.booleans(), min_size=n, max_size=n)
    valuation = {a: draw(bools) for a in PLAIN_ATOMS}
    relations = {}
    for agent in agents:
        kind = draw(st.sampled_from(["partition", "arrows", "labels"]))
        size = n if kind == "arrows" else draw(st.integers(1, n))
        labels = list(range(n)) if kind == "arrows" else \
            draw(st.lists(st.integers(0, size - 1), min_size=n, max_size=n))
        if kind == "partition":
            relations[agent] = Access.partition(np.array(labels))
            continue
        used = sorted(set(labels))  # every label some world's, numbered 0..
        dense = np.array([used.index(label) for label in labels])
        pairs = draw(st.lists(st.tuples(st.integers(0, len(used) - 1),
                                        st.integers(0, len(used) - 1)), max_size=len(used) ** 2))
        rows = np.array([p for p, _ in pairs], dtype=np.int64)
        cols = np.array([q for _, q in pairs], dtype=np.int64)
        relations[agent] = Access(dense, len(used), label_matrix(rows, cols, len(used)))
    return BeliefModel(valuation, relations, draw(st.integers(0, n - 1)), n_worlds=n)


@st.composite
def changes(draw: st.DrawFn, max_events: int = 3, atoms: tuple[Atom, ...] = PLAIN_ATOMS,
            agents: tuple[Agent, ...] = AGENTS, arrows: bool = True, assignments: bool = True,
            max_leaves: int = 3) -> EventModel:
    """An event model of 1..max_events events, each with a random precondition (epistemic
    too); with ``arrows``, arrows for some agents and partitions for others (else partitions
    only); with ``assignments``, random assignments ``p := φ`` (φ epistemic too) on some
    events; a random actual event, which may or may not be possible."""
    n = draw(st.integers(1, max_events))
    names = [f"e{i}" for i in range(n)]
    events = []
    for name in names:
        changed = draw(st.lists(st.sampled_from(atoms), unique=True, max_size=2)) \
            if assignments else []
        post = tuple((a, draw(formulas(max_leaves=max_leaves, atoms=atoms, agents=agents)))
                     for a in changed)
        events.append(Event(name, draw(formulas(max_leaves=max_leaves, atoms=atoms,
                                                agents=agents)), post))
    partitions, given = [], []
    for agent in draw(st.lists(st.sampled_from(agents), unique=True, max_size=len(agents))):
        if arrows and draw(st.booleans()):
            pairs = draw(st.lists(st.tuples(st.sampled_from(names), st.sampled_from(names)),
                                  unique=True, max_size=n * n))
            given.append((agent, tuple(pairs)))
        else:
            keys = draw(st.lists(st.integers(0, n - 1), min_size=n, max_size=n))
            partitions.append((agent, tuple(
                tuple(x for x, k in zip(names, keys, strict=True) if k == key)
                for key in sorted(set(keys)))))
    return EventModel(tuple(events), tuple(partitions), draw(st.sampled_from(names)),
                      tuple(given))


def general_event_models(max_events: int = 3, atoms: tuple[Atom, ...] = PLAIN_ATOMS,
                         agents: tuple[Agent, ...] = AGENTS) -> st.SearchStrategy[EventModel]:
    """An event model with arrows for some agents, partitions for others, and random
    assignments ``p := φ`` (φ epistemic too) on some events (:func:`changes`)."""
    return changes(max_events, atoms, agents)


@st.composite
def plausibility_models(draw: st.DrawFn, max_worlds: int = 6) -> PlausibilityModel:
    """A random S5 model of :func:`models` with random ranks (ties likely) for some agents."""
    model = draw(models(max_worlds))
    n = model.n_worlds
    ranked = draw(st.lists(st.sampled_from(AGENTS), unique=True))
    return PlausibilityModel.of(model, {a: draw(st.lists(st.integers(0, 3), min_size=n,
                                                         max_size=n)) for a in ranked})


def plausibility_formulas(max_leaves: int = 8, atoms: tuple[Atom, ...] = ATOMS
                          ) -> st.SearchStrategy[Formula]:
    """Random formulas with every plausibility operator among the others (the leaves are
    small formulas of :func:`formulas`, with E, C, D and announcements)."""
    agent = st.sampled_from(AGENTS)

    def extend(inner: st.SearchStrategy[Formula]) -> st.SearchStrategy[Formula]:
        return st.one_of(
            st.builds(Not, inner),
            st.builds(lambda a, b: And(a, b), inner, inner),
            st.builds(lambda a, b: Or(a, b), inner, inner),
            st.builds(Implies, inner, inner),
            st.builds(Knows, agent, inner),
            st.builds(Possible, agent, inner),
            st.builds(Believes, agent, inner),
            st.builds(SafeBelief, agent, inner),
            st.builds(BelievedPossible, agent, inner),
            st.builds(SafePossible, agent, inner),
            st.builds(ConditionalBelief.of, agent, inner, inner),
            st.builds(ConditionalPossible.of, agent, inner, inner),
            st.builds(Common, groups(), inner),
            st.builds(Announce, inner, inner),
            st.builds(AnnounceDual, inner, inner),
        )
    return st.recursive(formulas(max_leaves=2, atoms=atoms), extend, max_leaves=max_leaves)


@st.composite
def ranked_events(draw: st.DrawFn, atoms: tuple[Atom, ...] = ATOMS, assignments: bool = False
                  ) -> RankedEvents:
    """A random event model of :func:`changes` (partitions only) with a random order for some
    agents."""
    events = draw(changes(atoms=atoms, arrows=False, assignments=assignments, max_leaves=4))
    n = len(events.events)
    ranks = tuple((a, tuple(draw(st.lists(st.integers(0, 2), min_size=n, max_size=n))))
                  for a in draw(st.lists(st.sampled_from(AGENTS), unique=True)))
    return RankedEvents(events.events, events.partitions, events.actual, ranks=ranks)
