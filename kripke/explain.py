"""Why a formula is true or false at a world: an explanation a student can follow, as plain data.

:func:`explain` walks the formula's parse tree and gives each subformula its value at the world
where it matters, with the evidence the semantics asks for:

* ``K_a φ`` (``B_a φ`` on a belief model, printed as typed): every world ``a`` considers
  possible, named, and ``φ`` explained in each; when false, first one of them where ``φ`` fails
  (the counterexample); ``M_a φ`` dually, a witness where ``φ`` holds first;
* ``E_G φ``: one ``K_a φ`` per agent; ``D_G φ``: the worlds the group's pooled knowledge leaves;
* ``C_G φ``: when false, a shortest path from the world to one where ``φ`` fails, each step
  a world an agent of G considers possible at the one before (an arrow, on a belief model),
  named with its agent; a path back to the world itself too (Anne's arrow from the box world
  to itself), since ``C_G`` reads the worlds one step or more away, not the world;
* ``[!φ]ψ`` and ``<!φ>ψ``: whether ``φ`` can be announced here (if not, ``[!φ]ψ`` is true only
  vacuously) and, if so, the model after it, where ``ψ`` is explained.

Worlds are kept by their ids (``model.world_ids``, stable across announcements), so a picture
can ring them, but the sentences cite a world by what holds there (its label) and, where the
model names its worlds itself (a belief model's ``basket·move``, a hand-written model's
``w1``), by that name first, as the picture writes it: never by its id (a product's ids run
past its number of worlds), which a picture shows only on hover; agents are named as the caller
names them (a game's "player 0"). Parts a value does not rest on (the false side of a true
disjunction) are kept but marked ``relied=False``: neither the rings nor :func:`steps` follow
them. :func:`steps` turns the tree into a short numbered chain, evidence first and verdict
last, each step with the worlds it rests on. :func:`render` prints the tree as indented text
(``ttr-kripke check --explain``). The values come from the array checker, one evaluation per
subformula and model; the formula's own value, when its caller already has it, is not worked
out again.

It reads a list of worlds through :class:`Listed` and imports no backend: the explicit models
call it (:class:`kripke.explicit.listed.PerWorld`), a symbolic one on its states listed.
:class:`Listed` asks for what an agent considers possible, not for a partition, so the same
walk explains an S5 model (its classes) and a belief model (its arrows,
:class:`kripke.explicit.belief.BeliefModel`): ``K_a`` there is belief, read in every world a's
arrows
reach, and ``C_G`` follows G's arrows one step or more, which need not come back to the world
itself.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, replace
from typing import Any, Protocol, Self, runtime_checkable

import numpy as np

from kripke.budget import check_budget, model_work
from kripke.errors import ModelError
from kripke.language.formula import (
    Agent,
    And,
    Announce,
    AnnounceDual,
    Atom,
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

#: A bool per world and world indices, as a list of worlds gives them (the explicit
#: backend's arrays; this module imports no backend).
type BoolArray = np.ndarray
type IntArray = np.ndarray


@runtime_checkable
class Ordered(Protocol):
    """A list of worlds with a plausibility order
    (:class:`kripke.explicit.plausibility.PlausibilityModel`): where B_a, B_a[ψ], Sb_a and
    their duals look, which on a model without an order is the class (as for K_a)."""

    def ranged(self, formula: Formula, world: int) -> IntArray | None:
        """The worlds a plausibility operator quantifies over at a world; None for any
        other formula."""
        ...


class Listed(Protocol):
    """What an explanation reads of a list of worlds (:class:`kripke.explicit.model.KripkeModel` and
    its deals, :class:`kripke.explicit.belief.BeliefModel`): values per world, what each agent
    considers possible from a world (a class, or a world's arrows) and a step of it forwards
    and backwards (for a chain), stable world ids, and the model after an announcement."""

    actual: int | None

    @property
    def agents(self) -> tuple[Agent, ...]: ...

    @property
    def n_worlds(self) -> int: ...

    @property
    def world_ids(self) -> IntArray: ...

    def agent_indices(self, group: Iterable[Agent] | None) -> tuple[int, ...]: ...

    def evaluate(self, formula: Formula | str) -> BoolArray: ...

    def possible_worlds(self, agent: Agent, world: int | None = None) -> IntArray:
        """The worlds (indices, increasing) the agent considers possible at ``world``."""
        ...

    def image(self, agent: Agent, worlds: IntArray) -> BoolArray:
        """Per world: whether the agent considers it possible at one of ``worlds``."""
        ...

    def pointing(self, agent: Agent, worlds: IntArray, target: int) -> IntArray:
        """Those of ``worlds`` at which the agent considers ``target`` possible."""
        ...

    def restrict(self, mask: BoolArray) -> Self: ...

    def world_id(self, world: int) -> int: ...

    def world_index(self, world_id: int) -> int | None: ...

    def world_label(self, world: int | None = None) -> str: ...

    def world_name(self, world: int | None = None) -> str:
        """The world's own name, as the model file and the picture write it (``w`` and its id
        for a model that names no world)."""
        ...


#: How a caller names a world of the model explained (by index), e.g. a game's deal.
type Namer = Callable[[Any, int], str]

#: How many worlds a node lists (and a K or M step explains); beyond it, only their number.
LISTED = 8
#: Past this many nodes an explanation explains a K or M step in one world only (its
#: counterexample or witness, else the first): nested operators multiply the worlds to visit
#: (K_a K_b K_c p on classes of 8 would be 512), and a student follows a few dozen steps.
EXPANDED = 64


@dataclass(frozen=True)
class Explanation:
    """One subformula at one world, and why it has its value there."""

    formula: Formula
    world: int  # the world's id
    label: str  # the world in words (what is true there, or the caller's name for it)
    #: the world's own name where the model names it (a belief model's "basket·move", a
    #: hand-written model's), else "" (a deal or a puzzle's model calls it w and its id)
    name: str
    cited: str  # how a sentence cites it: "the world “…”", its name first where it has one
    value: bool
    reason: str  # one sentence, in words
    children: tuple[Explanation, ...] = ()
    #: The worlds that matter (K_a, M_a, D_G: those considered possible; C_G: those reachable),
    #: by id: the first LISTED of them, the actual one and any witness first.
    worlds: tuple[int, ...] = ()
    #: the same worlds as a list cites them, in the same order: own names, else what holds
    names: tuple[str, ...] = ()
    n_worlds: int = 0  # how many there are in all
    witness: int | None = None  # a world where the inner formula fails (K, C) or holds (M)
    chain: tuple[tuple[Agent, int], ...] = ()  # C_G: each step's agent and the world reached
    announcement: bool | None = None  # [!φ]ψ, <!φ>ψ: whether φ could be announced here
    worlds_after: int | None = None  # and how many worlds the model had after it
    relied: bool = True  # False: a part the parent's value does not rest on

    def evidence(self) -> tuple[int, ...]:
        """The worlds this node itself points at: a chain's every world, from this one to the
        counterexample; a K's counterexample or an M's witness."""
        if self.chain:  # a step back to the world itself is one world
            return tuple(dict.fromkeys((self.world, *(w for _, w in self.chain))))
        return () if self.witness is None else (self.witness,)

    def highlighted(self) -> set[int]:
        """Every world the explanation rests on as evidence (witnesses and whole chains), for
        a picture to ring; parts the value does not rest on are not followed."""
        found = set(self.evidence())
        for child in self.children:
            if child.relied:
                found |= child.highlighted()
        return found


@dataclass(frozen=True)
class Step:
    """One link of the chain a student follows: a subformula's value, why, and the worlds
    (ids) that sentence rests on, for a picture to ring."""

    formula: Formula
    value: bool
    text: str
    worlds: tuple[int, ...]


def steps(explanation: Explanation, show: Callable[[Formula], str] = str
          ) -> tuple[Step, ...]:
    """The explanation as numbered steps: the evidence first, each subformula after the parts
    it rests on, the formula's own value last. Parts the value does not rest on are left
    out, and so are steps that only restate a value (a negation, a constant). ``show``
    writes a formula (``Formula.unicode`` for the textbook's ¬ ∧ ∨ →, as the page does)."""
    found: list[Step] = []

    def walk(node: Explanation) -> None:
        for child in node.children:
            if child.relied:
                walk(child)
        text = f"{show(node.formula)} is {_tf(node.value)}"
        if node.world != explanation.world:  # a K step reads several worlds: say which
            text += f" in {node.cited}"
        if not isinstance(node.formula, Atom):
            text += f": {node.reason}"
        own = node.evidence()
        if not own and node.world != explanation.world and not node.children:
            own = (node.world,)  # a fact at a world the steps before pointed to
        if not isinstance(node.formula, Not | Top | Bottom) or node is explanation:
            found.append(Step(node.formula, node.value, text, own))

    walk(explanation)
    return tuple(found)


def quoted(label: str) -> str:
    """A world as a sentence cites it: by what holds there."""
    return f"the world “{label}”"


def explain(model: Listed, formula: Formula, world: int | None = None,
            name: Namer | None = None, agent_name: Callable[[Agent], str] | None = None,
            values: BoolArray | None = None,
            show: Callable[[Formula], str] = str) -> Explanation:
    """Why ``formula`` has its value at ``world`` (an index; default the actual world).
    ``name`` says what holds in a world, ``agent_name`` what an agent is called (by default
    "agent a"); ``values``, the formula's value per world of ``model`` when the caller has it
    already (what it shows is then what is explained, evaluated once); ``show``, how a formula
    is written in the reasons (default ASCII)."""
    if world is None:
        if model.actual is None:
            raise ModelError("the model has no actual world; say at which world to explain")
        world = model.actual
    if not 0 <= world < model.n_worlds:
        raise ModelError(f"world {world} is out of range 0..{model.n_worlds - 1}")
    # each subformula is evaluated on its own: a deep formula the checker takes in 10 s took
    # 24 s to explain, so the explanation has its own bound, checked before any work
    check_budget(formula, model.n_worlds, len(model.agents), explaining=True,
                 work=model_work(model))
    explainer = _Explainer(name, agent_name, show)
    if values is not None:
        if values.shape != (model.n_worlds,):
            raise ModelError(f"{values.shape} values for a model of {model.n_worlds} worlds")
        explainer.values[model] = {formula: values}
    return explainer.node(model, formula, world)


class _Explainer:
    """One explanation's walk. It keeps every model it meets, announced ones too, for as long
    as it lives: values are cached per model object (a model hashes by identity), so a cached
    value can only ever be that model's, and each announcement is made once per model, so
    repeating it explains in the same announced model and reuses its values. (Keying by
    ``id(model)`` alone let an announced model be freed and its id reused by the next one,
    which then got the first one's values: issue 23.)"""

    def __init__(self, name: Namer | None,
                 agent_name: Callable[[Agent], str] | None,
                 show: Callable[[Formula], str] = str) -> None:
        self.name, self.show = name, show
        self.agent_name = agent_name or (lambda a: f"agent {a}")
        self.values: dict[Listed, dict[Formula, BoolArray]] = {}
        self.announced: dict[tuple[Listed, Formula], Listed] = {}
        self.labels: dict[tuple[Listed, int], str] = {}  # a caller's description, asked once
        self.made = 0  # nodes made so far (past EXPANDED, a K or M step explains one world)

    def value(self, model: Listed, formula: Formula) -> BoolArray:
        known = self.values.setdefault(model, {})
        if formula not in known:
            known[formula] = model.evaluate(formula)
        return known[formula]

    def after(self, model: Listed, said: Formula) -> Listed:
        """The model after announcing ``said``, made once per model and announcement."""
        key = (model, said)
        if key not in self.announced:
            self.announced[key] = model.restrict(self.value(model, said))
        return self.announced[key]

    def explanation(self, model: Listed, f: Formula, w: int, value: bool, reason: str,
                    children: Sequence[Explanation] = (), worlds: Sequence[int] = (),
                    **more: Any) -> Explanation:
        """A node at world ``w`` (an index), citing it and the ``worlds`` it lists (indices)
        as this model names them."""
        self.made += 1
        return Explanation(f, model.world_id(w), self.label(model, w),
                           model.world_name(w) if self.named(model, w) else "",
                           self.cite(model, w), value, reason, tuple(children),
                           tuple(model.world_id(i) for i in worlds),
                           tuple(self.listed(model, i) for i in worlds), **more)

    def node(self, model: Listed, f: Formula, w: int) -> Explanation:
        wid = model.world_id(w)
        value = bool(self.value(model, f)[w])

        def make(reason: str, children: Sequence[Explanation] = (),
                 announcement: bool | None = None, worlds_after: int | None = None
                 ) -> Explanation:
            return self.explanation(model, f, w, value, reason, children,
                                    announcement=announcement, worlds_after=worlds_after)

        match f:
            case Top() | Bottom():
                return make("a constant")
            case Atom():
                return make(f"{self.show(f)} is {'true' if value else 'false'} in this world")
            case Not(g):
                return make(f"its negation {self.show(g)} is {_tf(not value)}",
                            [self.node(model, g, w)])
            case And(parts) | Or(parts):
                kids = [self.node(model, p, w) for p in parts]
                # one false part makes a conjunction false, one true part a disjunction true:
                # the value rests on that part alone, else on every part
                deciding = [k for k in kids if k.value == isinstance(f, Or)]
                if deciding:
                    kids = [k if k is deciding[0] else replace(k, relied=False) for k in kids]
                    more = len(deciding) - 1
                    reason = (f"{self.show(deciding[0].formula)} is {_tf(deciding[0].value)}"
                              + (f" (and {_count(more, 'other part')} {'are' if more > 1 else 'is'}"
                                 f" too)" if more else ""))
                else:
                    reason = f"every part is {_tf(value)}"
                return make(reason, kids)
            case Implies(left, right):
                cond, concl = self.node(model, left, w), self.node(model, right, w)
                if not cond.value:
                    reason, kids = "the condition is false", [cond, replace(concl, relied=False)]
                elif value:
                    reason, kids = "the conclusion is true", [replace(cond, relied=False), concl]
                else:
                    reason, kids = "the condition is true but the conclusion false", [cond, concl]
                return make(reason, kids)
            case Iff(left, right):
                kids = [self.node(model, left, w), self.node(model, right, w)]
                return make("both sides agree" if value else "the sides differ", kids)
            case Knows(agent, g) | Possible(agent, g):
                who = self.agent_name(agent)
                ranged = model.ranged(f, w) if isinstance(model, Ordered) else None
                if ranged is None:
                    return self.box(model, f, g, w, model.possible_worlds(agent, w), who,
                                    must=isinstance(f, Knows))
                if isinstance(f, SafeBelief | SafePossible):
                    phrase = "at least as plausible as this one"
                elif isinstance(f, ConditionalBelief | ConditionalPossible):
                    phrase = f"the most plausible where {self.show(f.condition)} holds"
                else:
                    phrase = "the most plausible"
                return self.box(model, f, g, w, ranged, who, must=isinstance(f, Knows),
                                phrase=phrase)
            case Distributed(group, g):
                agents = [model.agents[i] for i in model.agent_indices(group)]
                seen = np.arange(model.n_worlds)
                for agent in agents:
                    seen = np.intersect1d(seen, model.possible_worlds(agent, w),
                                          assume_unique=True)
                return self.box(model, f, g, w, seen,
                                f"{', '.join(map(self.agent_name, agents))} together",
                                must=True, plural=True)
            case Everyone(group, g):
                agents = [model.agents[i] for i in model.agent_indices(group)]
                kids = [self.node(model, Knows(a, g), w) for a in agents]
                missing = [self.agent_name(a) for a, k in zip(agents, kids, strict=True)
                           if not k.value]
                return make("every agent of the group knows it" if value else
                            f"not known by {', '.join(missing)}", kids)
            case Common(group, g):
                return self.common(model, f, g, w,
                                   [model.agents[i] for i in model.agent_indices(group)])
            case Announce(said, g) | AnnounceDual(said, g):
                first = self.node(model, said, w)
                if not first.value:
                    reason = ("it cannot be announced here (false in this world), so [!φ]ψ is "
                              "true only vacuously" if isinstance(f, Announce) else
                              "it cannot be announced here (false in this world)")
                    return make(reason, [first], announcement=False)
                after = self.after(model, said)
                index = after.world_index(wid)
                assert index is not None
                then = self.node(after, g, index)
                return make(f"it can be announced; {_count(after.n_worlds, 'world')} remain "
                            f"of {model.n_worlds:,}, and then {self.show(g)} is "
                            f"{_tf(then.value)}",
                            [first, then], announcement=True, worlds_after=after.n_worlds)
        raise TypeError(f"not a formula: {f!r}")

    def box(self, model: Listed, f: Formula, g: Formula, w: int, seen: IntArray,
            who: str, must: bool, plural: bool = False, phrase: str = "") -> Explanation:
        """K (must) or M over the worlds ``seen`` from ``w``: each of them named (up to
        LISTED) and ``g`` explained in each, the counterexample (K) or witness (M) first and
        the others only shown (the value does not rest on them); with ``phrase``, a
        plausibility operator over the worlds ``who`` finds so ("the most plausible")."""
        inner = self.value(model, g)[seen]
        value = bool(inner.all()) if must else bool(inner.any())
        target = (~inner if must else inner)  # a counterexample to K, a witness for M
        found = seen[target]
        pick: int | None = None
        if found.size:
            pick = int(found[found != w][0]) if (found != w).any() else int(found[0])
        listed = _listed(seen, w, pick)
        verb = "consider" if plural else "considers"
        where = f"{who} {verb} {_count(seen.size, 'world')} possible" if not phrase else \
            f"{who} finds {_count(seen.size, 'world')} {phrase}"
        if 0 < seen.size <= LISTED:
            where += f" ({', '.join(f'“{self.listed(model, int(i))}”' for i in seen)})"
        if self.made >= EXPANDED:  # a big explanation already: one world is enough
            listed = listed[:1]
        if not seen.size:  # no arrow from here (a belief model), no world where the condition
            # of B_a[ψ] holds: K holds, M fails, vacuously
            none = f"{who} {verb} no world possible from here" if not phrase else \
                f"{who} finds no world {phrase}"
            reason = f"{none}, so {'it is true only vacuously' if must else 'it is false'}"
            children = []
        elif pick is None:  # K true, M false: every one of them stands, the world itself first
            reason = f"{where}, and {self.show(g)} holds in {'every' if must else 'no'} one of them"
            children = [self.node(model, g, i) for i in listed]
        else:
            reason = (f"{where}; {self.show(g)} {'fails' if must else 'holds'} in "
                      f"{self.cite(model, pick)}")
            children = [self.node(model, g, pick),
                        *(replace(self.node(model, g, i), relied=False)
                          for i in listed if i != pick)]
        return self.explanation(model, f, w, value, reason, children, listed,
                                n_worlds=int(seen.size),
                                witness=None if pick is None else model.world_id(pick))

    def common(self, model: Listed, f: Formula, g: Formula, w: int,
               group: Sequence[Agent]) -> Explanation:
        """C_G g: g throughout the worlds reachable from w in one step or more of the group's
        (the world itself only when a step comes back to it: always in S5, not always for
        belief); else the shortest path to a world where it fails, found breadth first, each
        step named with an agent whose arrow it is (a path back to w itself too: that w fails
        g is no reason unless an arrow of the group's comes back to it)."""
        inner = self.value(model, g)
        reached = np.zeros(model.n_worlds, dtype=bool)
        levels = [np.array([w])]
        bad = None
        while True:
            grow = np.zeros(model.n_worlds, dtype=bool)
            for agent in group:
                grow |= model.image(agent, levels[-1])
            grow &= ~reached
            if not grow.any():
                break
            reached |= grow
            levels.append(np.flatnonzero(grow))
            failing = levels[-1][~inner[levels[-1]]]
            if failing.size:  # the world itself first, as it is the shortest path to see
                bad = w if (failing == w).any() else int(failing[0])
                break
        n_reached = int(reached.sum())
        if bad is None:
            kept = np.flatnonzero(reached)
            if not kept.size:  # no arrow of the group's from here (a belief model)
                return self.explanation(model, f, w, True,
                                        "the group considers no world possible from here, so "
                                        "C is true only vacuously")
            return self.explanation(model, f, w, True,
                                    f"{self.show(g)} holds in every world the group can reach "
                                    f"from here ({n_reached:,})",
                                    (self.node(model, g, w if reached[w] else int(kept[0])),),
                                    _listed(kept, w, None), n_worlds=n_reached)
        # walk back from the bad world, one level at a time, through an arrow of the group
        path = [bad]
        steps: list[tuple[Agent, int]] = []
        for level in reversed(levels[:-1]):
            here = path[-1]
            for agent in group:
                before = model.pointing(agent, level, here)
                if before.size:
                    steps.append((agent, here))
                    path.append(int(before[0]))
                    break
        steps.reverse()
        links = "; then ".join(
            f"{self.agent_name(a)} considers possible "
            + ("this very world" if x == w else self.cite(model, x)) for a, x in steps)
        why = "C needs it in every world the group can reach in one step or more"
        if len(steps) == 1:
            reason = f"from here, {links}, and {self.show(g)} fails there ({why})"
        else:
            reason = (f"a path of {len(steps)} steps, each to a world an agent of the group "
                      f"considers possible at the one before: from here, {links}; "
                      f"{self.show(g)} fails in that last world ({why})")
        on_path = list(dict.fromkeys([w, *(x for _, x in steps)]))
        return self.explanation(model, f, w, False, reason, (self.node(model, g, bad),),
                                on_path, n_worlds=len(on_path), witness=model.world_id(bad),
                                chain=tuple((a, model.world_id(x)) for a, x in steps))

    def label(self, model: Listed, index: int) -> str:
        """What holds in the world, on one line (a game's deal names its players in turn)."""
        key = (model, index)
        if key not in self.labels:
            text = self.name(model, index) if self.name else model.world_label(index)
            self.labels[key] = "; ".join(line.strip() for line in text.splitlines()
                                         if line.strip())
        return self.labels[key]

    @staticmethod
    def named(model: Listed, index: int) -> bool:
        """Whether the model names the world itself (a belief model's ``basket·move``, a
        hand-written model's name), not only as ``w`` and its id, which a reader never sees
        on the page and which runs past the number of worlds in a product."""
        return model.world_name(index) != f"w{model.world_id(index)}"

    def cite(self, model: Listed, index: int) -> str:
        """A world as a sentence cites it: by its own name, as the picture writes it, and
        what holds there (a caller's description can be the same for two worlds of a
        belief model: Sally's beliefs in two worlds with the marble in the box)."""
        label, name = self.label(model, index), model.world_name(index)
        if not self.named(model, index) or _names(label, name):
            return quoted(label)
        return f"{quoted(name)} ({label})"

    def listed(self, model: Listed, index: int) -> str:
        """A world in a list: its own name where the model names it, else what holds there."""
        return model.world_name(index) if self.named(model, index) else self.label(model, index)


def _names(label: str, name: str) -> bool:
    """Whether a world's description says its name already (the name alone, or "w2: p" as
    the model page describes a world), or there is no name to say."""
    return not name or label == name or label.startswith(f"{name}:")


def _tf(value: bool) -> str:
    return "true" if value else "false"


def _count(n: int, word: str) -> str:
    return f"{n:,} {word}{'s' * (n != 1)}"


def _listed(worlds: IntArray, w: int, pick: int | None) -> list[int]:
    """Up to LISTED of ``worlds`` (indices): the world itself and the witness first."""
    first = [i for i in (w, pick) if i is not None and (worlds == i).any()]
    rest = [int(i) for i in worlds[:LISTED + 2].tolist() if i not in first]
    return list(dict.fromkeys(first + rest))[:LISTED]


def render(explanation: Explanation, unicode: bool = False) -> str:
    """The explanation as an indented tree, one subformula a line."""
    lines: list[str] = []

    def walk(node: Explanation, depth: int) -> None:
        text = node.formula.unicode() if unicode else str(node.formula)
        where = node.label if _names(node.label, node.name) else f"{node.name}: {node.label}"
        lines.append(f"{'  ' * depth}{'TRUE ' if node.value else 'FALSE'}  {text}  "
                     f"[world {where}] {node.reason}")
        # names with commas in them ("muddy: 2, 3") are told apart by semicolons
        listed = ("; " if any(", " in n for n in node.names) else ", ").join(node.names)
        if node.names and node.n_worlds > len(node.names):
            lines.append(f"{'  ' * depth}       worlds: {listed}, … ({node.n_worlds:,} in all)")
        elif len(node.names) > 1:
            lines.append(f"{'  ' * depth}       worlds: {listed}")
        for child in node.children:
            walk(child, depth + 1)

    walk(explanation, 0)
    return "\n".join(lines)
