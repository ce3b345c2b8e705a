"""The one tokenizer of what a user types: formulas, and the lines of the model and event
formats (:mod:`kripke.files.reader`). Each text is read once, left to right, into
:class:`Token` s that know their line and column (1-based), so every error, wherever it is
found, names the same place the same way (:class:`kripke.errors.TextError`); a formula inside
a file's line is tokenized from where it starts in that line, so its errors point into the
file.

A line of the formats holds names (bare, or quoted in ``"``), braces, ``:``, the arrow ``->``
and, in an order, ``<`` ``=`` ``>``; ``#`` outside quotes ends it (a comment), in every line
alike. A formula's tokens are its operators, identifiers and numbers (:mod:`.parser`).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from kripke.errors import FormulaError
from lookalikes.characters import shown


@dataclass(frozen=True, slots=True)
class Token:
    """One token: its text (a name unquoted), its line and column (1-based), and its kind: a
    formula's (:data:`SYMBOLS`, ``ident``, ``number``, ``end``) or a format's (``name``,
    ``{``, ``}``, ``:``, ``->``, ``<``, ``=``, ``>``; a quoted ``"{"`` is a name)."""

    text: str
    line: int
    column: int
    kind: str = "name"

    @property
    def brace(self) -> bool:
        return self.kind in ("{", "}")


# --- formulas -----------------------------------------------------------------------------------

# Longest spellings first, so "<->" is never read as "<" "-" ">".
SYMBOLS: tuple[tuple[str, str], ...] = (
    ("<->", "iff"), ("<=>", "iff"), ("↔", "iff"),
    ("->", "imp"), ("=>", "imp"), ("→", "imp"),
    (":=", "assign"), ("=", "equals"),  # an event's assignment p := φ (and a slip for it)
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
IDENT = re.compile(r"[A-Za-z][A-Za-z0-9_']*")
# Subscripts as textbooks print them: K₀ is K_0, Kₐ is K_a, C₁₂ is C_12.
_SUBSCRIPTS = dict(zip("₀₁₂₃₄₅₆₇₈₉ₐₑₕᵢⱼₖₗₘₙₒₚᵣₛₜᵤᵥₓ", "0123456789aehijklmnoprstuvx", strict=True))
_SUBSCRIPT = re.compile(f"[{''.join(_SUBSCRIPTS)}]+")
_NUMBER = re.compile(r"[0-9]+")
#: The most digits a number in a formula (an agent, an atom's argument) may have: ``int``
#: refuses 4,300 with an error that names no place.
MAX_DIGITS = 30
_SPACE = re.compile(r"\s+")
_SYNTAX = "~ & | -> <-> K_a M_a B_a C E D [!φ] ( )"


class FormulaText:
    """A formula's text and where it stands: in a text of its own (``line`` 1) or in a line
    of a file (``source``, ``line``), so that its tokens' and errors' columns are the file's.
    ``alone``: the text is the formula only, and an error shows it with a caret."""

    def __init__(self, text: str, line: int = 1, source: str | None = None,
                 alone: bool = True) -> None:
        self.text = text
        self.line = line
        self.source = source
        self.alone = alone

    def token(self, kind: str, text: str, offset: int) -> Token:
        line, column = self.place(offset)
        return Token(text, line, column, kind)

    def place(self, offset: int) -> tuple[int, int]:
        """The line and column (1-based) of a character of the text."""
        start = self.text.rfind("\n", 0, offset) + 1
        return self.line + self.text.count("\n", 0, start), offset - start + 1

    def error(self, problem: str, fix: str, line: int, column: int) -> FormulaError:
        return FormulaError(problem, line, column, self.source, fix=fix,
                            text=self.text if self.alone else None)

    def error_at(self, problem: str, fix: str, offset: int) -> FormulaError:
        return self.error(problem, fix, *self.place(offset))


def formula_tokens(formula: FormulaText, start: int = 0, end: int | None = None,
                   comments: bool = False) -> list[Token]:
    """The tokens of ``formula.text[start:end]``, then an ``end`` token; with ``comments``
    (a formula in a file's line), ``#`` ends the formula as it ends the line."""
    text = formula.text
    stop = len(text) if end is None else end
    tokens: list[Token] = []
    pos = start
    while pos < stop:
        if space := _SPACE.match(text, pos, stop):
            pos = space.end()
            continue
        if comments and text[pos] == "#":
            stop = pos
            break
        if comments and text[pos] == '"' and '"' not in text[pos + 1:stop]:
            raise formula.error_at("this quoted name is not closed",
                                   'end it with " on the same line', pos)
        if ident := IDENT.match(text, pos, stop):
            word, end_at = ident.group(), ident.end()
            if (sub := _SUBSCRIPT.match(text, end_at, stop)) and \
                    word in ("K", "B", "M", "E", "C", "D"):
                word += "_" + "".join(_SUBSCRIPTS[c] for c in sub.group())
                end_at = sub.end()
            tokens.append(formula.token(_WORDS.get(word, "ident"), word, pos))
            pos = end_at
            continue
        if number := _NUMBER.match(text, pos, stop):
            check_digits(number.group(), formula, *formula.place(pos))
            tokens.append(formula.token("number", number.group(), pos))
            pos = number.end()
            continue
        for spelling, kind in SYMBOLS:
            if text.startswith(spelling, pos, stop):
                tokens.append(formula.token(kind, spelling, pos))
                pos += len(spelling)
                break
        else:
            raise formula.error_at(f"unexpected character {shown(text[pos])}",
                                   f"remove it (a formula is written with atoms and {_SYNTAX})",
                                   pos)
    while stop > start and text[stop - 1].isspace():  # the end is right after the formula
        stop -= 1
    tokens.append(formula.token("end", "", stop))
    return tokens


def check_digits(digits: str, formula: FormulaText, line: int, column: int) -> None:
    """Refuse a number of more than :data:`MAX_DIGITS` digits (at ``line``, ``column``)."""
    if len(digits) > MAX_DIGITS:
        raise formula.error(f"a number of {len(digits):,} digits",
                            f"agents and tickets are numbered with at most {MAX_DIGITS}",
                            line, column)


# --- the lines of the model and event formats -------------------------------------------------

# A bare name: no space, comma, brace, quote, colon, '#' or arrow; a parenthesised part may
# hold commas and spaces, so that atoms such as p(0, 3) and names such as (1,2) read as one
# word.
WORD = re.compile(r"(?:(?!->)[^\s,{}\":#()]|\([^()\"{}#]*\))+")
#: A bare name in an order (``w1 < w2 = w3``), where '<', '=' and '>' stand between names.
ORDER_WORD = re.compile(r"(?:(?!->)[^\s,{}\":#()<=>]|\([^()\"{}#<=>]*\))+")
QUOTED = re.compile(r"\"([^\"]*)\"")
_SEPARATORS = re.compile(r"[\s,]*")  # commas separate names as spaces do
_PUNCTUATION = ("->", "{", "}", ":")
_ORDER = ("<", "=", ">")
_SYMBOL_START = frozenset("-{}:<=>")  # a name's first character is none of these but '-'

#: How a reader makes an error at a line and column: its own kind of :class:`TextError`.
Fail = Callable[[str, int, int], Exception]


@dataclass(frozen=True)
class Line:
    """A line's tokens from a column on, and where its text ends (before a comment and the
    spaces before it), where an error about something missing at the end points."""

    tokens: tuple[Token, ...]
    end: int


def line_tokens(text: str, number: int, start: int, fail: Fail, word: re.Pattern[str] = WORD,
                order: bool = False) -> Line:
    """The tokens of line ``number`` (``text``) from ``start`` (0-based) to its end or a
    ``#`` outside quotes: names (a quoted one unquoted), braces, ':', '->' and, in an
    ``order``, '<', '=', '>'. ``word`` is what a bare name is; ``fail`` makes the error for
    an unclosed quote, an empty name or a character no name holds."""
    tokens: list[Token] = []
    pattern = ORDER_WORD if order else word
    pos = skip(text, start, _SEPARATORS)
    while pos < len(text) and text[pos] != "#":
        char = text[pos]
        symbol = None if char not in _SYMBOL_START else next(
            (s for s in (*_PUNCTUATION, *(_ORDER if order else ())) if text.startswith(s, pos)),
            None)
        if symbol is not None:
            tokens.append(Token(symbol, number, pos + 1, symbol))
            pos += len(symbol)
        elif char == '"':
            match = QUOTED.match(text, pos)
            if match is None:
                raise fail('this quoted name is not closed; end it with " on the same line',
                           number, pos + 1)
            if not match.group(1):
                raise fail('an empty name ""; give it a name', number, pos + 1)
            tokens.append(Token(match.group(1), number, pos + 1))
            pos = match.end()
        elif match := pattern.match(text, pos):
            tokens.append(Token(match.group(), number, pos + 1))
            pos = match.end()
        else:
            fix = "close it with ')'" if char == "(" else "remove it or quote the name"
            raise fail(f"unexpected {shown(char)}; {fix}", number, pos + 1)
        pos = skip(text, pos, _SEPARATORS)
    return Line(tuple(tokens), len(text[:pos].rstrip()) + 1)


def skip(text: str, position: int, space: re.Pattern[str] = re.compile(r"\s*")) -> int:
    """Past the spaces at ``position`` (or what else ``space`` matches: a format's line also
    steps over the commas between names)."""
    match = space.match(text, position)
    return match.end() if match else position
