"""The language: one immutable formula type for multi-agent epistemic logic with announcements.

Formulas are frozen dataclasses so they hash and compare by structure: the model checker memoises
sub-formulas by value, and the game logs the exact formula it announced. ``str(f)`` prints the
ASCII syntax that :func:`kripke.parse` reads back to an equal formula; ``f.unicode()`` prints the
textbook notation, which the parser reads too (the printer is at the end of this module).

Agents are identifiers or non-negative integers. A group of agents is a tuple, or ``None`` for
"all agents of the model", resolved only when the formula is evaluated.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import ClassVar

type Agent = int | str
type AtomArg = int | str

_IDENT = re.compile(r"[A-Za-z][A-Za-z0-9_']*\Z")
_NUMBER = re.compile(r"[0-9]+\Z")
# Names the parser reads as operators or constants, so no atom may be called this.
RESERVED = frozenset({"K", "B", "M", "E", "C", "D", "true", "false", "not", "and", "or"})
# Sb_a (safe belief) takes the prefix Sb_ too, though an atom may still be called Sb.
_MODAL_PREFIX = re.compile(r"[KBMECD]_|Sb_")


def _name_or_number(value: int | str, what: str) -> int | str:
    """Agents and atom arguments alike are non-negative ints or identifiers, and a string of
    digits is the number: what prints as a subscript or an argument must parse back as the
    same value (``K_0`` names agent ``0``, ``p(0,12)`` has the arguments 0 and 12)."""
    if isinstance(value, bool) or not isinstance(value, int | str):
        raise TypeError(f"{what} is an int or an identifier, got {value!r}")
    if isinstance(value, int):
        if value < 0:
            raise ValueError(f"{what} number must be non-negative, got {value}")
        return value
    if _NUMBER.match(value):
        return int(value)
    if not _IDENT.match(value):
        raise ValueError(f"{what} must be an identifier or a number, got {value!r}")
    return value


def _agent_sort_key(agent: Agent) -> tuple[int, int | str]:
    return (0, agent) if isinstance(agent, int) else (1, agent)


class Formula:
    """Base of every formula; gives the connectives as Python operators for terse code.

    ``~f``, ``f & g``, ``f | g``, ``f >> g`` (implies) build formulas; ``str`` is ASCII syntax.
    """

    __slots__ = ()

    def __invert__(self) -> Formula:
        return Not(self)

    def __and__(self, other: Formula) -> Formula:
        return And(self, other)

    def __or__(self, other: Formula) -> Formula:
        return Or(self, other)

    def __rshift__(self, other: Formula) -> Formula:
        return Implies(self, other)

    def __str__(self) -> str:
        return to_ascii(self)

    def unicode(self) -> str:
        """Textbook rendering (¬ ∧ ∨ → ↔ ⊤ ⊥ ⟨!φ⟩ψ); the parser accepts it too."""
        return to_unicode(self)

    def atoms(self) -> frozenset[Atom]:
        """Every atom occurring in the formula, e.g. to check a model defines them all."""
        found: set[Atom] = set()
        stack: list[Formula] = [self]
        while stack:
            f = stack.pop()
            if isinstance(f, Atom):
                found.add(f)
            else:
                stack.extend(f.children())
        return frozenset(found)

    def children(self) -> tuple[Formula, ...]:
        """Direct sub-formulas, for generic traversals."""
        return ()


@dataclass(frozen=True, slots=True)
class Top(Formula):
    """The constant true (⊤); also the empty conjunction."""


@dataclass(frozen=True, slots=True)
class Bottom(Formula):
    """The constant false (⊥); also the empty disjunction."""


@dataclass(frozen=True, slots=True)
class Atom(Formula):
    """A proposition such as ``rain``, ``m3`` or ``p(0,12)``.

    ``Atom("p(0,12)")`` and ``Atom("p", (0, 12))`` are the same atom: the string form is split so
    that code and parsed text always agree on the arguments' types (numbers become ints).
    """

    name: str
    args: tuple[AtomArg, ...] = ()

    def __post_init__(self) -> None:
        name, args = self.name, tuple(self.args)
        if not args and "(" in name:
            match = re.fullmatch(r"\s*([A-Za-z][A-Za-z0-9_']*)\s*\((.*)\)\s*", name)
            if match is None:
                raise ValueError(f"not an atom: {name!r}")
            name = match.group(1)
            args = tuple(a.strip() for a in match.group(2).split(","))
        if not _IDENT.match(name) or name in RESERVED or _MODAL_PREFIX.match(name):
            raise ValueError(f"not a valid atom name: {name!r}")
        object.__setattr__(self, "name", name)
        args = tuple(_name_or_number(a, "an atom argument") for a in args)
        object.__setattr__(self, "args", args)


@dataclass(frozen=True, slots=True)
class Not(Formula):
    """Negation ¬φ."""

    formula: Formula

    def children(self) -> tuple[Formula, ...]:
        return (self.formula,)


@dataclass(frozen=True, slots=True, init=False)
class Junction(Formula):
    """What And and Or share: two or more parts, ``of`` for any number of them. Subclasses
    give ``UNIT``, the value of no parts at all."""

    UNIT: ClassVar[Formula]
    parts: tuple[Formula, ...]

    def __init__(self, *parts: Formula) -> None:
        if len(parts) < 2:
            name = type(self).__name__
            raise ValueError(f"{name} needs two or more parts; use {name}.of for fewer")
        object.__setattr__(self, "parts", tuple(parts))

    @classmethod
    def of(cls, parts: Iterable[Formula]) -> Formula:
        """The n-ary form: the unit (⊤ for And, ⊥ for Or) for none, the formula for one."""
        parts = tuple(parts)
        if not parts:
            return cls.UNIT  # each junction names its own unit
        return parts[0] if len(parts) == 1 else cls(*parts)

    def children(self) -> tuple[Formula, ...]:
        return self.parts


@dataclass(frozen=True, slots=True, init=False)
class And(Junction):
    """Conjunction of two or more formulas: ``And(a, b, c)``; ``And.of(xs)`` for any number."""

    UNIT: ClassVar[Formula] = Top()


@dataclass(frozen=True, slots=True, init=False)
class Or(Junction):
    """Disjunction of two or more formulas: ``Or(a, b)``; ``Or.of(xs)`` for any number."""

    UNIT: ClassVar[Formula] = Bottom()


@dataclass(frozen=True, slots=True)
class Binary(Formula):
    """What → and ↔ share: a left and a right formula (right-associative in text)."""

    left: Formula
    right: Formula

    def children(self) -> tuple[Formula, ...]:
        return (self.left, self.right)


@dataclass(frozen=True, slots=True)
class Implies(Binary):
    """Implication φ → ψ."""


@dataclass(frozen=True, slots=True)
class Iff(Binary):
    """Equivalence φ ↔ ψ."""


@dataclass(frozen=True, slots=True)
class AgentFormula(Formula):
    """What K_a and M_a share: one agent and a formula."""

    agent: Agent
    formula: Formula

    def __post_init__(self) -> None:
        object.__setattr__(self, "agent", _name_or_number(self.agent, "an agent"))

    def children(self) -> tuple[Formula, ...]:
        return (self.formula,)


@dataclass(frozen=True, slots=True)
class Knows(AgentFormula):
    """K_a φ: φ holds in every world agent a considers possible."""


@dataclass(frozen=True, slots=True)
class Possible(AgentFormula):
    """M_a φ: agent a considers some world possible where φ holds (¬K_a¬φ)."""


# --- plausibility: belief, conditional belief, safe belief and their duals --------------------
#
# On a plausibility model (:mod:`kripke.explicit.plausibility`) these quantify over the most
# plausible worlds of a class, or those at least as plausible as the current one. On a model
# without an order every world of a class is equally plausible, and each operator is exactly the
# modal operator it subclasses (B_a φ and Sb_a φ are K_a φ, B_a[ψ] φ is K_a (ψ → φ), their duals
# M_a ...), so every other checker, the explanations and the budget read them right unchanged.


@dataclass(frozen=True, slots=True)
class Believes(Knows):
    """B_a φ: φ holds in the most plausible worlds of a's class (on a model without an order:
    every world of the class, K_a φ; on a model with arrows: where a's arrows lead)."""


@dataclass(frozen=True, slots=True)
class SafeBelief(Knows):
    """Sb_a φ: φ holds in every world of a's class at least as plausible as this one (Baltag
    and Smets' safe belief, the "defeasible knowledge" of Stalnaker)."""


@dataclass(frozen=True, slots=True)
class ConditionalBelief(Knows):
    """B_a[ψ] φ: φ holds in the most plausible ψ-worlds of a's class (true when it has none).
    Held as K_a (ψ → φ), which it is on a model without an order; build it with :meth:`of`."""

    def __post_init__(self) -> None:
        AgentFormula.__post_init__(self)
        if not isinstance(self.formula, Implies):
            raise TypeError("ConditionalBelief holds ψ → φ; build it with "
                            "ConditionalBelief.of(agent, ψ, φ)")

    @classmethod
    def of(cls, agent: Agent, condition: Formula, formula: Formula) -> ConditionalBelief:
        return cls(agent, Implies(condition, formula))

    @property
    def condition(self) -> Formula:
        assert isinstance(self.formula, Implies)
        return self.formula.left

    @property
    def consequent(self) -> Formula:
        assert isinstance(self.formula, Implies)
        return self.formula.right


@dataclass(frozen=True, slots=True)
class BelievedPossible(Possible):
    """⟨B_a⟩φ, ¬B_a ¬φ: some most plausible world of a's class is a φ-world."""


@dataclass(frozen=True, slots=True)
class SafePossible(Possible):
    """⟨Sb_a⟩φ, ¬Sb_a ¬φ: some world of a's class at least as plausible as this one is a
    φ-world."""


@dataclass(frozen=True, slots=True)
class ConditionalPossible(Possible):
    """⟨B_a[ψ]⟩φ, ¬B_a[ψ] ¬φ: some most plausible ψ-world of a's class is a φ-world. Held as
    M_a (ψ ∧ φ), which it is on a model without an order; build it with :meth:`of`."""

    def __post_init__(self) -> None:
        AgentFormula.__post_init__(self)
        if not (isinstance(self.formula, And) and len(self.formula.parts) == 2):
            raise TypeError("ConditionalPossible holds ψ ∧ φ; build it with "
                            "ConditionalPossible.of(agent, ψ, φ)")

    @classmethod
    def of(cls, agent: Agent, condition: Formula, formula: Formula) -> ConditionalPossible:
        return cls(agent, And(condition, formula))

    @property
    def condition(self) -> Formula:
        assert isinstance(self.formula, And)
        return self.formula.parts[0]

    @property
    def consequent(self) -> Formula:
        assert isinstance(self.formula, And)
        return self.formula.parts[1]


#: The operators only a plausibility order tells apart from K_a and M_a.
PLAUSIBILITY = (Believes, SafeBelief, ConditionalBelief, BelievedPossible, SafePossible,
                ConditionalPossible)


def _normalise_group(group: Iterable[Agent] | None) -> tuple[Agent, ...] | None:
    """A group is a set: sort it and drop repeats so equal groups compare equal."""
    if group is None:
        return None
    if isinstance(group, int | str):
        group = (group,)
    agents = {_name_or_number(a, "an agent") for a in group}
    if not agents:
        raise ValueError("a group needs at least one agent (use None for all agents)")
    return tuple(sorted(agents, key=_agent_sort_key))


@dataclass(frozen=True, slots=True)
class GroupFormula(Formula):
    """What E_G, C_G and D_G share: a group (``None`` for all agents of the model) and a
    formula; the group is normalised to a sorted tuple so equal groups compare equal.
    ``written`` keeps the group as the teacher typed it, for the printer only (not compared):
    ``C_{sally,anne} basket`` reads back as typed, not as ``C_{anne,sally}``."""

    group: tuple[Agent, ...] | None
    formula: Formula
    written: tuple[Agent, ...] | None = field(default=None, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "group", _normalise_group(self.group))

    def children(self) -> tuple[Formula, ...]:
        return (self.formula,)


@dataclass(frozen=True, slots=True)
class Everyone(GroupFormula):
    """E_G φ: every agent in G knows φ."""


@dataclass(frozen=True, slots=True)
class Common(GroupFormula):
    """C_G φ: φ is common knowledge in G (holds along every path of G's relations)."""


@dataclass(frozen=True, slots=True)
class Distributed(GroupFormula):
    """D_G φ: φ follows from the pooled knowledge of G (the intersection of their relations)."""


@dataclass(frozen=True, slots=True)
class AnnouncementFormula(Formula):
    """What [!φ]ψ and <!φ>ψ share: the announced formula and the one evaluated after it."""

    announcement: Formula
    formula: Formula

    def children(self) -> tuple[Formula, ...]:
        return (self.announcement, self.formula)


@dataclass(frozen=True, slots=True)
class Announce(AnnouncementFormula):
    """[!φ]ψ: if φ is true, then after publicly announcing φ, ψ holds."""


@dataclass(frozen=True, slots=True)
class AnnounceDual(AnnouncementFormula):
    """<!φ>ψ: φ is true and after publicly announcing it, ψ holds."""


def knows_whether(agent: Agent, formula: Formula) -> Formula:
    """K_a φ ∨ K_a ¬φ: the agent knows the truth value of φ, whichever it is."""
    return Or(Knows(agent, formula), Knows(agent, Not(formula)))


# --- printing ----------------------------------------------------------------------------------
#
# ASCII and Unicode, with just the brackets the parser needs. It lives with the formulas (as
# SMCDEL's Language module keeps ppForm beside Form), so str(f) needs no import back into here.
#
# Precedence, loosest first: ↔, →, ∨, ∧, then the prefix operators (¬, K_a, M_a, E_G, C_G, D_G,
# [!φ], <!φ>), which bind tightest. → and ↔ group to the right. A conjunction written inside a
# conjunction is bracketed, so ``And(And(a, b), c)`` prints as ``(a & b) & c`` and parses back to
# itself rather than to the flat ``And(a, b, c)``.


@dataclass(frozen=True, slots=True)
class _Symbols:
    top: str
    bottom: str
    neg: str
    conj: str
    disj: str
    imp: str
    iff: str
    dual_open: str
    dual_close: str
    diamond_open: str


ASCII = _Symbols("true", "false", "~", "&", "|", "->", "<->", "<!", ">", "<")
UNICODE = _Symbols("⊤", "⊥", "¬", "∧", "∨", "→", "↔", "⟨!", "⟩", "⟨")

_IFF, _IMP, _OR, _AND, _PREFIX = range(5)


def _precedence(f: Formula) -> int:
    match f:
        case Iff():
            return _IFF
        case Implies():
            return _IMP
        case Or():
            return _OR
        case And():
            return _AND
        case _:
            return _PREFIX


def _subscript(agents: tuple[Agent, ...] | None) -> str:
    if agents is None:
        return ""
    if len(agents) == 1:
        return f"_{agents[0]}"
    return "_{" + ",".join(str(a) for a in agents) + "}"


def _render(f: Formula, s: _Symbols) -> str:
    def wrap(child: Formula, at_least: int) -> str:
        text = _render(child, s)
        return f"({text})" if _precedence(child) < at_least else text

    match f:
        case Top():
            return s.top
        case Bottom():
            return s.bottom
        case Atom(name, args):
            return f"{name}({','.join(str(a) for a in args)})" if args else name
        case Not(g):
            return s.neg + wrap(g, _PREFIX)
        case And(parts):
            return f" {s.conj} ".join(wrap(p, _AND + 1) for p in parts)
        case Or(parts):
            return f" {s.disj} ".join(wrap(p, _OR + 1) for p in parts)
        case Implies(left, right):
            return f"{wrap(left, _IMP + 1)} {s.imp} {wrap(right, _IMP)}"
        case Iff(left, right):
            return f"{wrap(left, _IFF + 1)} {s.iff} {wrap(right, _IFF)}"
        case ConditionalBelief(agent):
            return f"B_{agent}[{_render(f.condition, s)}] {wrap(f.consequent, _PREFIX)}"
        case Believes(agent, g):
            return f"B_{agent} {wrap(g, _PREFIX)}"
        case SafeBelief(agent, g):
            return f"Sb_{agent} {wrap(g, _PREFIX)}"
        case ConditionalPossible(agent):
            return (f"{s.diamond_open}B_{agent}[{_render(f.condition, s)}]{s.dual_close}"
                    f"{wrap(f.consequent, _PREFIX)}")
        case BelievedPossible(agent, g):
            return f"{s.diamond_open}B_{agent}{s.dual_close}{wrap(g, _PREFIX)}"
        case SafePossible(agent, g):
            return f"{s.diamond_open}Sb_{agent}{s.dual_close}{wrap(g, _PREFIX)}"
        case Knows(agent, g):
            return f"K_{agent} {wrap(g, _PREFIX)}"
        case Possible(agent, g):
            return f"M_{agent} {wrap(g, _PREFIX)}"
        case Everyone(group, g, written):
            return f"E{_subscript(written or group)} {wrap(g, _PREFIX)}"
        case Common(group, g, written):
            return f"C{_subscript(written or group)} {wrap(g, _PREFIX)}"
        case Distributed(group, g, written):
            return f"D{_subscript(written or group)} {wrap(g, _PREFIX)}"
        case Announce(a, g):
            return f"[!{_render(a, s)}]{wrap(g, _PREFIX)}"
        case AnnounceDual(a, g):
            return f"{s.dual_open}{_render(a, s)}{s.dual_close}{wrap(g, _PREFIX)}"
    raise TypeError(f"not a formula: {f!r}")


def to_ascii(f: Formula) -> str:
    """The ASCII syntax, e.g. ``K_0 (p(1,5) | ~rain)``."""
    return _render(f, ASCII)


def to_unicode(f: Formula) -> str:
    """The textbook syntax, e.g. ``K_0 (p(1,5) ∨ ¬rain)``."""
    return _render(f, UNICODE)
