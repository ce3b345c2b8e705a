"""Pretty-printing in ASCII and Unicode, with just the brackets the parser needs.

Precedence, loosest first: ↔, →, ∨, ∧, then the prefix operators (¬, K_a, M_a, E_G, C_G, D_G,
[!φ], <!φ>), which bind tightest. → and ↔ group to the right. A conjunction written inside a
conjunction is bracketed, so ``And(And(a, b), c)`` prints as ``(a & b) & c`` and parses back to
itself rather than to the flat ``And(a, b, c)``.
"""

from __future__ import annotations

from dataclasses import dataclass

from kripke.formula import (
    Agent,
    And,
    Announce,
    AnnounceDual,
    Atom,
    Bottom,
    Common,
    Distributed,
    Everyone,
    Formula,
    Iff,
    Implies,
    Knows,
    Not,
    Or,
    Possible,
    Top,
)


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


ASCII = _Symbols("true", "false", "~", "&", "|", "->", "<->", "<!", ">")
UNICODE = _Symbols("⊤", "⊥", "¬", "∧", "∨", "→", "↔", "⟨!", "⟩")

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
        case Knows(agent, g):
            return f"K_{agent} {wrap(g, _PREFIX)}"
        case Possible(agent, g):
            return f"M_{agent} {wrap(g, _PREFIX)}"
        case Everyone(group, g):
            return f"E{_subscript(group)} {wrap(g, _PREFIX)}"
        case Common(group, g):
            return f"C{_subscript(group)} {wrap(g, _PREFIX)}"
        case Distributed(group, g):
            return f"D{_subscript(group)} {wrap(g, _PREFIX)}"
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
