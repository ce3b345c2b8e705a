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

Every error is a :class:`FormulaError` that names the line and column (1-based), what was
expected and what to write (:mod:`kripke.language.tokens` reads the text).
"""

from __future__ import annotations

from collections.abc import Callable

from kripke.errors import FormulaError
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
from kripke.language.tokens import (
    IDENT,
    MAX_DIGITS,
    FormulaText,
    Token,
    check_digits,
    formula_tokens,
)

__all__ = ["MAX_DIGITS", "FormulaError", "parse", "parse_assignments_in_line", "parse_in_line"]

# Tokens that cannot begin a formula: meeting one where an operand belongs is an error.
_CANNOT_START = frozenset(
    {"end", "rparen", "rbracket", "dual_close", "and", "or", "imp", "iff", "comma", "rbrace",
     "assign", "equals"}
)
# What may stand between an assignment's atom and its ':='.
_OPENING, _CLOSING = frozenset({"lparen", "lbracket", "lbrace"}), frozenset(
    {"rparen", "rbracket", "rbrace"})
# How tokens are named in "expected ..., found ..." messages.
_DESCRIBE = {"end": "end of input"}


def _found(token: Token) -> str:
    return _DESCRIBE.get(token.kind, repr(token.text))


class _Parser:
    def __init__(self, formula: FormulaText, start: int = 0, end: int | None = None,
                 comments: bool = False) -> None:
        self.source = formula
        self.tokens = formula_tokens(formula, start, end, comments)
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
        found = _found(self.token)
        if self.token.kind == "end":
            fix = f"add {expected} at the end"
        elif expected == "an operator or end of input":
            fix = f"remove {found}, or join what follows with an operator such as &"
        else:
            fix = f"write {expected} before {found}, or remove {found}"
        return self.error(f"expected {expected}{where}, found {found}", fix, self.token)

    def error(self, problem: str, fix: str, token: Token, offset: int = 0) -> FormulaError:
        """An error at ``token`` (``offset`` characters into it)."""
        return self.source.error(problem, fix, token.line, token.column + offset)

    def assignment_sign(self) -> Token | None:
        """The ':=' of the assignment that starts here (outside brackets, before a ',' or the
        end), leaving the parser where it was; None when there is none."""
        depth = 0
        for index in range(self.index, len(self.tokens)):
            token = self.tokens[index]
            if token.kind in _OPENING:
                depth += 1
            elif token.kind in _CLOSING:
                depth -= 1
            elif depth == 0 and token.kind in ("comma", "end", "equals"):
                return None
            elif depth == 0 and token.kind == "assign":
                self.index = index
                return token
        return None

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
                    raise self.error(f"expected an agent after '<', found {_found(who)}",
                                     "write an agent's name between '<' and '>', as in <a>p",
                                     who)
                close = self.expect("dual_close", ">", who)
                return Possible(self.agent(who.text, who), self.operand(close))
            case "ident":
                return self.word()
        raise self.fail("a formula")

    def plausible_dual(self, opening: Token) -> Formula:
        """⟨B_a⟩φ, ⟨Sb_a⟩φ or ⟨B_a[ψ]⟩φ, after the opening bracket."""
        token = self.advance()
        head, _, rest = token.text.partition("_")
        if not rest:
            raise self.fail("an agent", token)
        agent = self.agent(rest, token, len(head) + 1)
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
            return SafeBelief(self.agent(rest, token, 3), self.operand(token))
        if head in ("K", "B", "M") and (underscore or text == head):
            if rest:
                agent = self.agent(rest, token, 2)
            elif underscore and self.token.kind == "lbrace":
                brace = self.token
                agents = self.group(token)
                if len(agents) != 1:
                    raise self.error(f"expected one agent after '{head}_', found a group",
                                     f"write {head}_a for one agent (E_{{a,b}} or C_{{a,b}} "
                                     "for a group)", brace)
                agent = agents[0]
            elif underscore:
                raise self.fail("an agent", token)
            else:
                raise self.error(f"expected '_' and an agent after {head!r}",
                                 f"write {head}_a, a for the agent's name", token, 1)
            if head == "B":
                condition = self.condition(token)
                if condition is not None:
                    return ConditionalBelief.of(agent, condition, self.operand(token))
            cls = {"M": Possible, "K": Knows, "B": Believes}[head]
            return cls(agent, self.operand(token))
        if head in ("E", "C", "D") and (underscore or text == head):
            group: tuple[Agent, ...] | None = None
            if rest:
                group = (self.agent(rest, token, 2),)
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

    def agent(self, text: str, token: Token, offset: int = 0) -> Agent:
        """The agent ``text``, written ``offset`` characters into ``token``."""
        if text.isdigit():
            check_digits(text, self.source, token.line, token.column + offset)
            return int(text)
        if not IDENT.fullmatch(text):
            raise self.error(f"expected an agent, found {text!r}", "name an agent by letters, "
                             "digits, _ and ' starting with a letter, or by a number", token,
                             offset)
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


def parse(text: str) -> Formula:
    """Read a formula written in ASCII or Unicode syntax, e.g. ``K_0 p(1,5) -> C rain``.

    Raises :class:`FormulaError` with the line and column of the first problem; ``str()`` of
    it shows the formula there with a caret.
    """
    return _parsed(_Parser(FormulaText(text)))


def parse_in_line(text: str, start: int, end: int | None, line: int,
                  source: str | None) -> Formula:
    """The formula ``text[start:end]`` inside line ``line`` (``text``) of a file (``source``,
    None for a text given directly), read in place: ``#`` starts a comment there as in the
    rest of the line, and an error names the file's line and column (and shows no caret: the
    file's viewer shows the line)."""
    formula = FormulaText(text, line, source, alone=False)
    return _parsed(_Parser(formula, start, end, comments=True))


def parse_assignments_in_line(text: str, start: int, line: int, source: str | None
                              ) -> list[tuple[Token, str, Formula]]:
    """The assignments ``p := φ, q := ψ`` that ``text[start:]`` (line ``line`` of a file)
    holds, read in place as :func:`parse_in_line` reads a formula (one pass of the tokenizer
    over the line's rest): per assignment where its atom is written, the atom as written, and
    the formula. A comma inside brackets belongs to its formula. The atom's text is the
    caller's to check (:class:`~kripke.language.formula.Atom`); a formula's error is a
    :class:`FormulaError` at the file's line and column, as is an assignment without ':='."""
    formula = FormulaText(text, line, source, alone=False)
    parser = _Parser(formula, start, None, comments=True)
    found: list[tuple[Token, str, Formula]] = []
    while True:
        first = parser.token
        assign = parser.assignment_sign()
        if assign is None:
            raise parser.error("an assignment is 'atom := formula'", "write e.g. 'p := ~p'",
                               first)
        written = text[first.column - 1:assign.column - 1].strip()
        parser.index += 1
        parser.operand_check(assign)
        try:
            value = parser.formula()
        except RecursionError:
            raise parser.error("the formula is nested too deeply to read", "write it with "
                               "fewer brackets or operators one inside another",
                               parser.token) from None
        except FormulaError as e:
            raise FormulaError(f"{e.problem} (in the value of {written})", e.line, e.column,
                               source, fix=e.fix) from None
        found.append((first, written, value))
        if parser.token.kind == "end":
            return found
        if parser.token.kind != "comma":
            found_there = _found(parser.token)
            raise parser.error(f"expected ',' between assignments, found {found_there}",
                               f"put ',' before {found_there} or remove it", parser.token)
        parser.advance()


def _parsed(parser: _Parser) -> Formula:
    try:
        return parser.parse()
    except RecursionError:
        raise parser.error("the formula is nested too deeply to read",
                           "write it with fewer brackets or operators one inside another",
                           parser.token) from None
