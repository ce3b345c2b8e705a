"""Parser for textbook epistemic syntax: a hand-written recursive descent, never ``eval``.

Grammar (loosest first; → and ↔ group to the right)::

    formula  := imp ( ('<->' | '↔' | '<=>') formula )?
    imp      := disj ( ('->' | '→' | '=>') imp )?
    disj     := conj ( ('|' | '∨' | '\\/' | 'or') conj )*
    conj     := prefix ( ('&' | '∧' | '/\\' | 'and') prefix )*
    prefix   := ('~' | '¬' | '!' | 'not') prefix
              | ('K_' | 'B_' | 'M_' | 'Sb_') agent prefix   agent: identifier, number or
                                                       {agent}; K₀, Kₐ: subscripts as in print
              | 'B_' agent '[' formula ']' prefix      conditional belief B_a[ψ] φ ('[!' after
                                                       B_a is an announcement: B_a[~p] q)
              | ('<' | '⟨') ('B_' | 'Sb_') agent ('[' formula ']')? ('>' | '⟩') prefix
                                                       the duals ⟨B_a⟩φ, ⟨Sb_a⟩φ, ⟨B_a[ψ]⟩φ
              | ('E' | 'C' | 'D') group? prefix        no group: all agents of the model
              | '[' '!' formula ']' prefix
              | ('<!' | '⟨!') formula ('>' | '⟩') prefix
              | ('<' | '⟨') agent ('>' | '⟩') prefix   <a>φ is M_a φ
              | '(' formula ')' | 'true' | '⊤' | 'false' | '⊥' | atom
    group    := '_' agent | '_{' agent (',' agent)* '}'     C_{ab}: a and b, if the model
                                                       has no agent named ab
    atom     := identifier ( '(' arg (',' arg)* ')' )?

Every error is a :class:`FormulaError` that names the 0-based position and what was expected.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from kripke.language.formula import (
    Agent,
    And,
    Announce,
    AnnounceDual,
    Atom,
    AtomArg,
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

#: How much of the text an error shows on each side of the position: a formula pasted by
#: mistake (thousands of characters) must not come back as a wall of text.
CONTEXT = 30


class FormulaError(ValueError):
    """A malformed formula; ``str(error)`` shows the text around ``position`` with a caret
    under it (``CONTEXT`` characters each side, ``…`` where the text is cut)."""

    def __init__(self, message: str, position: int, text: str) -> None:
        self.message = message
        self.position = position
        self.text = text
        super().__init__(f"position {position}: {message}")

    def excerpt(self) -> tuple[str, int]:
        """The part of the text an error shows, and where the caret goes in it."""
        start = max(0, self.position - CONTEXT)
        end = min(len(self.text), self.position + CONTEXT)
        head = "…" if start else ""
        shown = head + self.text[start:end] + ("…" if end < len(self.text) else "")
        return shown.replace("\n", " "), self.position - start + len(head)

    def __str__(self) -> str:
        shown, caret = self.excerpt()
        return f"position {self.position}: {self.message}\n  {shown}\n  {' ' * caret}^"


@dataclass(frozen=True, slots=True)
class Token:
    kind: str  # one of the _SYMBOLS kinds, "ident", "number" or "end"
    text: str
    position: int


# Longest spellings first, so "<->" is never read as "<" "-" ">".
_SYMBOLS: tuple[tuple[str, str], ...] = (
    ("<->", "iff"), ("<=>", "iff"), ("↔", "iff"),
    ("->", "imp"), ("=>", "imp"), ("→", "imp"),
    ("<!", "dual_open"), ("⟨!", "dual_open"), ("<", "diamond_open"), ("⟨", "diamond_open"),
    (">", "dual_close"), ("⟩", "dual_close"),
    ("/\\", "and"), ("&", "and"), ("∧", "and"),
    ("\\/", "or"), ("|", "or"), ("∨", "or"),
    ("~", "not"), ("¬", "not"), ("!", "not"),
    ("⊤", "top"), ("⊥", "bottom"),
    ("(", "lparen"), (")", "rparen"), ("[", "lbracket"), ("]", "rbracket"),
    ("{", "lbrace"), ("}", "rbrace"), (",", "comma"),
)
_WORDS = {"not": "not", "and": "and", "or": "or", "true": "top", "false": "bottom"}
_IDENT = re.compile(r"[A-Za-z][A-Za-z0-9_']*")
# Subscripts as textbooks print them: K₀ is K_0, Kₐ is K_a, C₁₂ is C_12.
_SUBSCRIPTS = dict(zip("₀₁₂₃₄₅₆₇₈₉ₐₑₕᵢⱼₖₗₘₙₒₚᵣₛₜᵤᵥₓ", "0123456789aehijklmnoprstuvx", strict=True))
_SUBSCRIPT = re.compile(f"[{''.join(_SUBSCRIPTS)}]+")
_NUMBER = re.compile(r"[0-9]+")
MAX_DIGITS = 30
_SPACE = re.compile(r"\s+")

# Tokens that cannot begin a formula: meeting one where an operand belongs is an error.
_CANNOT_START = frozenset(
    {"end", "rparen", "rbracket", "dual_close", "and", "or", "imp", "iff", "comma", "rbrace"}
)
# How tokens are named in "expected ..., found ..." messages.
_DESCRIBE = {"end": "end of input"}


def _tokenize(text: str) -> list[Token]:
    tokens: list[Token] = []
    pos = 0
    while pos < len(text):
        if space := _SPACE.match(text, pos):
            pos = space.end()
            continue
        if ident := _IDENT.match(text, pos):
            word, end = ident.group(), ident.end()
            if (sub := _SUBSCRIPT.match(text, end)) and word in ("K", "B", "M", "E", "C", "D"):
                word += "_" + "".join(_SUBSCRIPTS[c] for c in sub.group())
                end = sub.end()
            tokens.append(Token(_WORDS.get(word, "ident"), word, pos))
            pos = end
            continue
        if number := _NUMBER.match(text, pos):
            _check_digits(number.group(), pos, text)
            tokens.append(Token("number", number.group(), pos))
            pos = number.end()
            continue
        for spelling, kind in _SYMBOLS:
            if text.startswith(spelling, pos):
                tokens.append(Token(kind, spelling, pos))
                pos += len(spelling)
                break
        else:
            raise FormulaError(f"unexpected character {text[pos]!r}", pos, text)
    tokens.append(Token("end", "", len(text)))
    return tokens


def _found(token: Token) -> str:
    return _DESCRIBE.get(token.kind, repr(token.text))


class _Parser:
    def __init__(self, text: str) -> None:
        self.text = text
        self.tokens = _tokenize(text)
        self.index = 0

    @property
    def token(self) -> Token:
        return self.tokens[self.index]

    def advance(self) -> Token:
        token = self.tokens[self.index]
        self.index += 1
        return token

    def fail(self, expected: str, after: Token | None = None) -> FormulaError:
        where = f" after {after.text!r}" if after is not None else ""
        message = f"expected {expected}{where}, found {_found(self.token)}"
        return FormulaError(message, self.token.position, self.text)

    def expect(self, kind: str, spelling: str, after: Token | None = None) -> Token:
        if self.token.kind != kind:
            raise self.fail(repr(spelling), after)
        return self.advance()

    def parse(self) -> Formula:
        if self.token.kind == "end":
            raise self.fail("a formula")
        formula = self.formula()
        if self.token.kind != "end":
            raise self.fail("an operator or end of input")
        return formula

    def operand(self, after: Token) -> Formula:
        """The prefix formula that must follow ``after`` (an operator or a closing bracket)."""
        return self.operand_then(self.prefix, after)

    def formula(self) -> Formula:
        left = self.implication()
        if self.token.kind == "iff":
            op = self.advance()
            return Iff(left, self.operand_then(self.formula, op))
        return left

    def implication(self) -> Formula:
        left = self.disjunction()
        if self.token.kind == "imp":
            op = self.advance()
            return Implies(left, self.operand_then(self.implication, op))
        return left

    def disjunction(self) -> Formula:
        parts = [self.conjunction()]
        while self.token.kind == "or":
            op = self.advance()
            parts.append(self.operand_then(self.conjunction, op))
        return Or.of(parts)

    def conjunction(self) -> Formula:
        parts = [self.prefix()]
        while self.token.kind == "and":
            op = self.advance()
            parts.append(self.operand_then(self.prefix, op))
        return And.of(parts)

    def operand_then(self, rule: Callable[[], Formula], op: Token) -> Formula:
        """Check that a formula starts here before descending, for a precise error message."""
        self.operand_check(op)
        return rule()

    def operand_check(self, after: Token) -> None:
        """Name the operator in the error when its operand is missing, not just 'a formula'."""
        if self.token.kind in _CANNOT_START:
            raise self.fail("a formula", after)

    def prefix(self) -> Formula:
        token = self.token
        match token.kind:
            case "not":
                self.advance()
                return Not(self.operand(token))
            case "top":
                self.advance()
                return Top()
            case "bottom":
                self.advance()
                return Bottom()
            case "lparen":
                self.advance()
                self.operand_check(token)
                inner = self.formula()
                self.expect("rparen", ")", None)
                return inner
            case "lbracket":
                self.advance()
                bang = self.expect("not", "!", token)
                self.operand_check(bang)
                announcement = self.formula()
                close = self.expect("rbracket", "]")
                return Announce(announcement, self.operand(close))
            case "dual_open":
                self.advance()
                self.operand_check(token)
                announcement = self.formula()
                close = self.expect("dual_close", ">")
                return AnnounceDual(announcement, self.operand(close))
            case "diamond_open":  # <a>φ: M_a φ, as dynamic logic writes the diamond
                self.advance()
                if self.token.kind == "ident" and self.token.text.startswith(("B_", "Sb_")):
                    return self.plausible_dual(token)
                who = self.advance()
                if who.kind not in ("ident", "number"):
                    raise FormulaError(f"expected an agent after '<', as in <a>p; found "
                                       f"{_found(who)}", who.position, self.text)
                close = self.expect("dual_close", ">", who)
                return Possible(self.agent(who.text, who.position), self.operand(close))
            case "ident":
                return self.word()
        raise self.fail("a formula")

    def plausible_dual(self, opening: Token) -> Formula:
        """⟨B_a⟩φ, ⟨Sb_a⟩φ or ⟨B_a[ψ]⟩φ, after the opening bracket."""
        token = self.advance()
        head, _, rest = token.text.partition("_")
        if not rest:
            raise self.fail("an agent", token)
        agent = self.agent(rest, token.position + len(head) + 1)
        condition = self.condition(token) if head == "B" else None
        close = self.expect("dual_close", ">", token)
        body = self.operand(close)
        if condition is not None:
            return ConditionalPossible.of(agent, condition, body)
        return (BelievedPossible if head == "B" else SafePossible)(agent, body)

    def condition(self, op: Token) -> Formula | None:
        """The ψ of B_a[ψ], if a bracket follows that opens no announcement ``[!φ]``."""
        after = self.tokens[self.index + 1] if self.token.kind == "lbracket" else None
        if after is None or after.text == "!":
            return None
        bracket = self.advance()
        self.operand_check(bracket)
        condition = self.formula()
        self.expect("rbracket", "]", op)
        return condition

    def word(self) -> Formula:
        token = self.advance()
        text = token.text
        head, underscore, rest = text.partition("_")
        if head == "Sb" and underscore:
            if not rest:
                raise self.fail("an agent", token)
            return SafeBelief(self.agent(rest, token.position + 3), self.operand(token))
        if head in ("K", "B", "M") and (underscore or text == head):
            if rest:
                agent = self.agent(rest, token.position + 2)
            elif underscore and self.token.kind == "lbrace":
                brace = self.token
                agents = self.group(token)
                if len(agents) != 1:
                    raise FormulaError(f"expected one agent after '{head}_', found a group",
                                       brace.position, self.text)
                agent = agents[0]
            elif underscore:
                raise self.fail("an agent", token)
            else:
                raise FormulaError(
                    f"expected '_' and an agent after {head!r}", token.position + 1, self.text
                )
            if head == "B":
                condition = self.condition(token)
                if condition is not None:
                    return ConditionalBelief.of(agent, condition, self.operand(token))
            cls = {"M": Possible, "K": Knows, "B": Believes}[head]
            return cls(agent, self.operand(token))
        if head in ("E", "C", "D") and (underscore or text == head):
            group: tuple[Agent, ...] | None = None
            if rest:
                group = (self.agent(rest, token.position + 2),)
            elif underscore:
                group = self.group(token)
            group_cls = {"E": Everyone, "C": Common, "D": Distributed}[head]
            return group_cls(group, self.operand(token), written=group)
        args: list[AtomArg] = []
        if self.token.kind == "lparen":
            open_paren = self.advance()
            args.append(self.atom_arg(open_paren))
            while self.token.kind == "comma":
                comma = self.advance()
                args.append(self.atom_arg(comma))
            self.expect("rparen", ")")
        return Atom(text, tuple(args))

    def atom_arg(self, after: Token) -> AtomArg:
        return self.name_or_number(after, "an identifier or a number")

    def name_or_number(self, after: Token, expected: str) -> AtomArg:
        """An identifier or a whole number (atom arguments and group members alike)."""
        token = self.token
        if token.kind == "number":
            self.advance()
            return int(token.text)
        if token.kind == "ident":
            self.advance()
            return token.text
        raise self.fail(expected, after)

    def agent(self, text: str, position: int) -> Agent:
        if text.isdigit():
            _check_digits(text, position, self.text)
            return int(text)
        if not _IDENT.fullmatch(text):
            raise FormulaError(f"expected an agent, found {text!r}", position, self.text)
        return text

    def group(self, op: Token) -> tuple[Agent, ...]:
        brace = self.expect("lbrace", "{", op)
        agents = [self.group_member(brace)]
        while self.token.kind == "comma":
            comma = self.advance()
            agents.append(self.group_member(comma))
        self.expect("rbrace", "}")
        return tuple(agents)

    def group_member(self, after: Token) -> Agent:
        return self.name_or_number(after, "an agent")


def _check_digits(digits: str, position: int, text: str) -> None:
    """``int`` refuses more than 4,300 digits with an error that names no position."""
    if len(digits) > MAX_DIGITS:
        raise FormulaError(f"a number of {len(digits):,} digits; agents and tickets are "
                           f"numbered with at most {MAX_DIGITS}", position, text)


def parse(text: str) -> Formula:
    """Read a formula written in ASCII or Unicode syntax, e.g. ``K_0 p(1,5) -> C rain``.

    Raises :class:`FormulaError` with the position of the first problem.
    """
    parser = _Parser(text)
    try:
        return parser.parse()
    except RecursionError:
        raise FormulaError("the formula is nested too deeply to read", parser.token.position,
                           text) from None
