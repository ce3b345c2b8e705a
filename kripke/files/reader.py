"""What the two hand-written formats share, written once: the model format
(:mod:`kripke.files.modelfile`) and the event model format (:mod:`kripke.files.eventfile`) are read
from a
file or from the text itself (:func:`read_source`); both are read by a :class:`LineReader`,
which reads each line once through the one tokenizer (:func:`kripke.language.tokens.line_tokens`:
its one comment rule, ``#`` outside a quoted name, names, quoted names, commas or spaces
between them, braces, arrows) and then reads the tokens as class lists (``{w1 w2} {w3}``),
arrow lists (``w1 -> w2 w3``) and orders (``w1 < w2``); and both report a mistake the same way:
a :class:`ReadError` (:class:`kripke.errors.TextError`) with the 1-based line and column, the
file's name in front, and a message that says what to change, whose example of a fix reads
without error itself.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable
from pathlib import Path
from typing import ClassVar

from kripke.errors import ModelError, TextError
from kripke.language.tokens import WORD, Line, Token, line_tokens
from lookalikes.characters import shown
from lookalikes.skeleton import confusable_form, looks_like

#: The most bytes a model or event file may have: a model of 100,000 worlds, the most any
#: writer writes, takes a few MB; past this the file is read no further.
MAX_FILE_BYTES = 64 << 20


def read_source(source: str | os.PathLike[str], suffixes: tuple[str, ...] = (".kripke", ".json"),
                what: str = "model", example: str = "agents: a b") -> tuple[str, str | None]:
    """The text to read and the file's name (None for a text given directly): a ``str`` of
    one line is a path when such a file exists or it ends in one of ``suffixes``; a
    :class:`~pathlib.Path` always is. ``what`` and ``example`` word the errors (a model, an
    event model), which name the file and say what to do."""
    if isinstance(source, str) and ("\n" in source or not os.path.isfile(source)
                                    and not source.endswith(suffixes)):
        return source, None
    path = Path(source)
    try:
        if path.exists() and not path.is_file():  # /dev/zero never ends, a folder is no text
            raise ModelError(f"{path} is not a file; give the {what} file's path")
        with path.open("rb") as f:
            data = f.read(MAX_FILE_BYTES + 1)  # a size on disk may lie (/proc) or grow
        if len(data) > MAX_FILE_BYTES:
            raise ModelError(f"{path} has more than {MAX_FILE_BYTES:,} bytes, more than "
                             f"this reads; is it the {what} file?")
        # utf-8-sig: Notepad starts a UTF-8 file with a byte-order mark
        return data.decode("utf-8-sig"), str(path)
    except FileNotFoundError:
        raise ModelError(f"no file {str(path)!r}; check the path (or pass the {what}'s text "
                         "itself)") from None
    except UnicodeDecodeError:
        raise ModelError(f"{path} is not a text file (UTF-8); a {what} file is text such as "
                         f"'{example}'") from None
    except OSError as e:
        raise ModelError(f"cannot read {path}: {e.strerror}; choose another file") from None


class ReadError(TextError, ModelError):
    """A text in a hand-written format (or a model's JSON) that cannot be read: the
    :class:`~kripke.errors.TextError` of the formats, and a :class:`ModelError`, so a
    ValueError."""


class ModelFileError(ReadError):
    """A model file that cannot be read: ``line`` and ``column`` (1-based) say where, or for
    a JSON model's content the ``field``'s path; the message what is wrong and how to fix
    it."""


class EventFileError(ReadError):
    """An event model's text that cannot be read: ``line`` and ``column`` (1-based) say where,
    the message what is wrong and how to fix it."""


class LineReader[E: ReadError]:
    """A reader of a line-oriented text: ``error`` places a mistake at a line and column,
    ``at_end`` after the last line (something missing), each as the format's own
    :class:`ReadError` (``failure``, which a format's reader sets). ``noun`` names what the
    format's classes and arrows hold (world, event); ``declared`` lists the names its text
    declares, so that a suggested fix names only those."""

    failure: type[E]
    noun: ClassVar[str]
    #: What a bare name is: the model format's words (``p(0, 3)`` is one); the event format
    #: takes any run of other characters and says when it is no event's name.
    word_pattern: ClassVar[re.Pattern[str]] = WORD

    def __init__(self, text: str, source: str | None) -> None:
        self.source = source
        self.text_lines = text.splitlines()
        self.declared: list[str] = []
        #: The agents the text declares (the model format's 'agents:' line); None where any
        #: agent's name may stand (the event format).
        self.agents_declared: list[str] | None = None

    def error(self, message: str, line: int, column: int, fix: str | None = None) -> E:
        return self.failure(message, line, column, self.source, fix=fix)

    def at_end(self, message: str) -> E:
        """An error about something missing: placed after the last line."""
        last = len(self.text_lines)
        return self.error(message, max(last, 1),
                          len(self.text_lines[-1]) + 1 if self.text_lines else 1)

    def spelled(self, name: str) -> str:
        """A name as the format writes it (the model format quotes some)."""
        return name

    # --- a line's tokens ---------------------------------------------------------------------

    def rest(self, number: int, text: str, start: int, order: bool = False) -> Line:
        """The tokens of a line after its head (from ``start``), read once: the one
        tokenizer (:func:`kripke.language.tokens.line_tokens`), with this format's words."""
        return line_tokens(text, number, start, self.error, self.word_pattern, order)

    @staticmethod
    def word(text: str, number: int, start: int) -> Token:
        """A line's head (a name the line's pattern found at ``start``, 0-based), unquoted."""
        quoted = text.startswith('"') and text.endswith('"') and len(text) > 1
        return Token(text[1:-1] if quoted else text, number, start + 1)

    def unexpected(self, token: Token) -> E:
        """The error for a token no name may be where it stands (a ':', an arrow)."""
        return self.error(f"unexpected {token.text!r}; remove it or quote the name",
                          token.line, token.column)

    def words(self, tokens: Iterable[Token]) -> tuple[Token, ...]:
        """A list of names (no braces)."""
        found = []
        for word in tokens:
            if word.brace:
                raise self.error(f"unexpected {word.text!r}: braces hold an agent's classes "
                                 f"('a: {{{self.noun[0]}1 {self.noun[0]}2}}'); remove it here",
                                 word.line, word.column)
            if word.kind != "name":
                raise self.unexpected(word)
            found.append(word)
        return tuple(found)

    # --- class lists and arrow lists -----------------------------------------------------------

    def classes(self, line: Line, text: str, start: int, head: str
                ) -> tuple[tuple[Token, ...], ...]:
        """``{w1 w2} {w3}``: the classes of one agent (``head``), from the tokens of
        ``text`` after ``start``."""
        found: list[tuple[Token, ...]] = []
        current: list[Token] | None = None
        opened = 0
        for word in line.tokens:
            number = word.line
            if word.kind == "{" and current is None:
                current, opened = [], word.column
            elif word.kind == "{":
                raise self.error("a class inside a class; close the first with '}' before "
                                 "opening another", number, word.column)
            elif word.kind == "}" and current is None:
                raise self.error("'}' closes no class; remove it or open the class with '{'",
                                 number, word.column)
            elif word.kind == "}":
                if not current:
                    raise self.error(f"an empty class {{}}; remove it (every class holds "
                                     f"a{'n' * (self.noun[0] in 'aeiou')} {self.noun})",
                                     number, opened)
                found.append(tuple(current))
                current = None
            elif word.kind != "name":
                raise self.unexpected(word)
            elif current is None:
                agent, note = self.agent_for_hint(head)
                raise self.error(f"{shown(word.text)} is outside braces: an agent's classes are "
                                 f"written in braces", number, word.column,
                                 fix=f"write them so, e.g. '{self.class_hint(agent, text, start)}'"
                                     f" (a{'n' * (self.noun[0] in 'aeiou')} {self.noun}'s line "
                                     f"starts with '{self.noun}'{note})")
            else:
                current.append(word)
        if current is not None and line.tokens:
            raise self.error("this class is not closed; end it with '}'", line.tokens[0].line,
                             opened)
        return tuple(found)

    def agent_for_hint(self, head: str) -> tuple[str, str]:
        """The agent a suggested fix names: the line's own when it is one, else the first
        declared, with a note saying the line's is none (a misspelt 'actual:', say)."""
        if self.agents_declared is None or head in self.agents_declared or \
                not self.agents_declared:
            return head, ""
        return self.agents_declared[0], f"; {head!r} is not on the 'agents:' line"

    def class_hint(self, head: str, text: str, start: int) -> str:
        """The line as classes of declared names, so the fix offered reads as it stands: the
        names the line holds (also inside 'w1-w2' or '(w1 w2)'), a class per part between
        braces or commas, each name once; without any, the first two names declared."""
        known = set(self.declared)
        groups: list[list[str]] = []
        used: set[str] = set()
        for part in re.split(r"[{},]", text[start:]):
            names = []
            for token in re.findall(r'"[^"]*"|[^\s()"]+', part):
                token = token.strip('"')
                for name in [token] if token in known else token.split("-"):
                    if name in known and name not in used:
                        used.add(name)
                        names.append(name)
            if names:
                groups.append(names)
        if not groups:
            return f"{head}: {{{' '.join(self.examples(2))}}}"
        return f"{head}: " + " ".join("{" + " ".join(self.spelled(n) for n in g) + "}"
                                     for g in groups)

    def arrow_list(self, line: Line, number: int, head: str) -> tuple[Token, ...]:
        """``a: w1 -> w2 w3``: the name the arrows leave, then the names they reach."""
        arrows = [k for k, token in enumerate(line.tokens) if token.kind == "->"]
        first = arrows[0]
        left = self.words(line.tokens[:first])
        head, note = self.agent_for_hint(head)
        if len(left) != 1:
            at = left[1].column if left else line.tokens[first].column
            names = self.examples(3)
            start, rest = names[0], names[1:] or names[:1]  # a loop if one is declared
            raise self.error(f"an arrow line is '{head}: {start} -> {' '.join(rest)}', one "
                             f"{self.noun} before '->'", number, at,
                             fix=f"write one line per {self.noun} the arrows leave{note}")
        if len(arrows) > 1:
            source = self.spelled(left[0].text) if left[0].text in self.declared else \
                self.examples(1)[0]
            rest = [n for n in self.examples(3) if n != source][:2]
            raise self.error(f"a second '->' in one line; write one line per {self.noun}, "
                             f"e.g. '{head}: {source} -> {' '.join(rest)}'{note}", number,
                             line.tokens[arrows[1]].column)
        return (*left, *self.words(line.tokens[first + 1:]))

    def distinct(self, named: Iterable[tuple[str, Token]], noun: str) -> None:
        """Refuse the first of ``named`` (a name and where it is written) that looks like an
        earlier, different one (:func:`lookalikes.skeleton.confusable_form`): a reader could
        not tell which of the two a line means."""
        seen: dict[str, tuple[str, Token]] = {}
        for name, word in named:
            form = confusable_form(name)
            if form in seen and seen[form][0] != name:
                other, first = seen[form]
                raise self.error(f"{noun} {looks_like(name, other)}, the {noun} on line "
                                 f"{first.line}; a reader cannot tell them apart, so rename "
                                 "one", word.line, word.column)
            seen.setdefault(form, (name, word))

    def chain(self, line: Line, number: int, head: str) -> tuple[tuple[Token, ...], ...]:
        """``w1 < w2 = w3``: a plausibility order, most plausible first, as its levels (the
        names of each level equally plausible), from a line read with ``order``: '<' and
        '=' separate names, so a name holding one is quoted."""
        levels: list[list[Token]] = [[]]
        expect_name, last = True, None
        example = f"'{head} ranks: {' < '.join(self.examples(2))}'"
        for token in line.tokens:
            column = token.column
            if token.kind == ">":
                raise self.error("an order is written most plausible first, with '<'",
                                 number, column, fix=f"write it so: {example}")
            if token.kind in ("<", "="):
                if expect_name:
                    raise self.error(f"expected a {self.noun} before {token.text!r}", number,
                                     column, fix=f"write one there, as in {example}")
                if token.kind == "<":
                    levels.append([])
                expect_name, last = True, token.text
                continue
            if token.kind != "name":
                raise self.unexpected(token)
            if not expect_name:
                raise self.error(f"nothing between {levels[-1][-1].text} and {token.text}",
                                 number, column, fix="put '<' (less plausible after) or '=' "
                                                     "(as plausible) between them")
            levels[-1].append(token)
            expect_name = False
        if expect_name:
            if last is None:
                raise self.error(f"an order names the {self.noun}s of a class, most plausible "
                                 "first", number, line.end, fix=f"name them: {example}")
            raise self.error(f"expected a {self.noun} after {last!r}", number, line.end,
                             fix=f"add a {self.noun} after {last!r} or remove it")
        return tuple(tuple(level) for level in levels)

    def examples(self, k: int) -> list[str]:
        """Up to ``k`` names for an example of a fix: declared ones (as written, each once), so
        the example reads without error; made-up ones (w1, w2, ...) only if none is declared."""
        names = [self.spelled(n) for n in dict.fromkeys(self.declared)][:k]
        return names or [f"{self.noun[0]}{i}" for i in range(1, k + 1)]
