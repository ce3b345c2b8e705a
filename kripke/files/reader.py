"""What the two hand-written formats share, written once: the model format
(:mod:`kripke.files.modelfile`) and the event model format (:mod:`kripke.files.eventfile`) are read
from a
file or from the text itself (:func:`read_source`); both are read by a :class:`LineReader`,
which holds their one comment rule (``#`` outside a quoted name starts a comment), their words
(names, quoted names, commas or spaces between them), their class lists (``{w1 w2} {w3}``)
and their arrow lists (``w1 -> w2 w3``); and both report a mistake the same way: a
:class:`ReadError` with the 1-based line and column, the file's name in front, and a message
that says what to change, whose example of a fix reads without error itself.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import ClassVar

from kripke.errors import ModelError
from lookalikes.characters import shown
from lookalikes.skeleton import confusable_form, looks_like

_SPACE = re.compile(r"\s*")
# A bare name: no space, comma, brace, quote, colon or '#'; a parenthesised part may hold commas
# and spaces, so that atoms such as p(0, 3) and names such as (1,2) read as one word.
WORD = re.compile(r"(?:[^\s,{}\":#()]|\([^()\"{}#]*\))+")
QUOTED = re.compile(r"\"([^\"]*)\"")
_SEPARATORS = re.compile(r"[\s,]*")  # commas separate names as spaces do
# An arrow between names, outside quotes: from the left one to the right ones.
#: The tokens of an order (``w1 < w2 = w3``): '<', '=', '>' (refused) and names.
_CHAIN = re.compile(r'\s*("[^"]*"|[<=>]|[^\s<=>"]+)')
ARROW = re.compile(r'->(?=(?:[^"]*"[^"]*")*[^"]*\Z)')
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


class ReadError(ModelError):
    """A text in a hand-written format that cannot be read: ``line`` and ``column`` (1-based)
    say where, the message what is wrong and how to fix it; ``source``, a file name, goes in
    front of it. A :class:`ModelError`, so a ValueError."""

    def __init__(self, message: str, line: int, column: int, source: str | None = None) -> None:
        self.message = message
        self.line = line
        self.column = column
        self.source = source
        where = f"{source}: " if source else ""
        super().__init__(f"{where}line {line}, column {column}: {message}")


@dataclass(frozen=True)
class Word:
    """One word of a line: its text (unquoted), its line and where it starts (1-based column);
    a brace that opens or closes a class is a word too (a quoted "{" is a name)."""

    text: str
    line: int
    column: int
    brace: bool = False


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

    def error(self, message: str, line: int, column: int) -> E:
        return self.failure(message, line, column, self.source)

    def at_end(self, message: str) -> E:
        """An error about something missing: placed after the last line."""
        last = len(self.text_lines)
        return self.error(message, max(last, 1),
                          len(self.text_lines[-1]) + 1 if self.text_lines else 1)

    def spelled(self, name: str) -> str:
        """A name as the format writes it (the model format quotes some)."""
        return name

    # --- comments and words -----------------------------------------------------------------

    def uncommented(self, number: int, raw: str) -> str:
        """The line up to a '#' outside quotes; an unclosed quote is an error."""
        quoted = None
        for i, char in enumerate(raw):
            if char == '"':
                quoted = None if quoted is not None else i
            elif char == "#" and quoted is None:
                return raw[:i]
        if quoted is not None:
            raise self.error('this quoted name is not closed; end it with " on the same line',
                             number, quoted + 1)
        return raw

    @staticmethod
    def word(text: str, number: int, start: int) -> Word:
        """A name found at ``start`` (0-based), unquoted."""
        quoted = QUOTED.fullmatch(text)
        return Word(quoted.group(1) if quoted else text, number, start + 1)

    def tokens(self, number: int, text: str, start: int) -> Iterator[Word]:
        """The words after ``start``, with '{' and '}' as words of their own."""
        pos = skip(text, start, _SEPARATORS)
        while pos < len(text):
            char = text[pos]
            if char in "{}":
                yield Word(char, number, pos + 1, brace=True)
                pos += 1
            elif match := QUOTED.match(text, pos):
                if not match.group(1):
                    raise self.error('an empty name ""; give it a name', number, pos + 1)
                yield Word(match.group(1), number, pos + 1)
                pos = match.end()
            elif match := self.word_pattern.match(text, pos):
                yield Word(match.group(), number, pos + 1)
                pos = match.end()
            else:
                fix = "close it with ')'" if char == "(" else "remove it or quote the name"
                raise self.error(f"unexpected {shown(char)}; {fix}", number, pos + 1)
            pos = skip(text, pos, _SEPARATORS)

    def words(self, number: int, text: str, start: int) -> tuple[Word, ...]:
        """A list of names (no braces)."""
        found = []
        for word in self.tokens(number, text, start):
            if word.brace:
                raise self.error(f"unexpected {word.text!r}: braces hold an agent's classes "
                                 f"('a: {{{self.noun[0]}1 {self.noun[0]}2}}'); remove it here",
                                 number, word.column)
            found.append(word)
        return tuple(found)

    # --- class lists and arrow lists -----------------------------------------------------------

    def classes(self, number: int, text: str, start: int, head: str
                ) -> tuple[tuple[Word, ...], ...]:
        """``{w1 w2} {w3}``: the classes of one agent (``head``)."""
        found: list[tuple[Word, ...]] = []
        current: list[Word] | None = None
        opened = 0
        for word in self.tokens(number, text, start):
            if word.brace and word.text == "{" and current is None:
                current, opened = [], word.column
            elif word.brace and word.text == "{":
                raise self.error("a class inside a class; close the first with '}' before "
                                 "opening another", number, word.column)
            elif word.brace and current is None:
                raise self.error("'}' closes no class; remove it or open the class with '{'",
                                 number, word.column)
            elif word.brace:
                if not current:
                    raise self.error(f"an empty class {{}}; remove it (every class holds "
                                     f"a{'n' * (self.noun[0] in 'aeiou')} {self.noun})",
                                     number, opened)
                found.append(tuple(current))
                current = None
            elif current is None:
                agent, note = self.agent_for_hint(head)
                raise self.error(f"{shown(word.text)} is outside braces: an agent's classes are "
                                 f"written in braces, e.g. '{self.class_hint(agent, text, start)}'"
                                 f" (a{'n' * (self.noun[0] in 'aeiou')} {self.noun}'s line "
                                 f"starts with '{self.noun}'{note})", number, word.column)
            else:
                current.append(word)
        if current is not None:
            raise self.error("this class is not closed; end it with '}'", number, opened)
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

    def arrow_list(self, number: int, text: str, head: str, start: int,
                   arrow: re.Match[str]) -> tuple[Word, ...]:
        """``a: w1 -> w2 w3``: the name the arrows leave, then the names they reach."""
        left = self.words(number, text[:arrow.start()], start)
        right = self.words(number, text, arrow.end())
        head, note = self.agent_for_hint(head)
        if len(left) != 1:
            at = left[1].column if left else arrow.start() + 1
            names = self.examples(3)
            first, rest = names[0], names[1:] or names[:1]  # a loop if one is declared
            raise self.error(f"an arrow line is '{head}: {first} -> {' '.join(rest)}', one "
                             f"{self.noun} before '->' (write one line per {self.noun} the "
                             f"arrows leave{note})", number, at)
        if (again := ARROW.search(text, arrow.end())) is not None:
            source = self.spelled(left[0].text) if left[0].text in self.declared else \
                self.examples(1)[0]
            rest = [n for n in self.examples(3) if n != source][:2]
            raise self.error(f"a second '->' in one line; write one line per {self.noun}, "
                             f"e.g. '{head}: {source} -> {' '.join(rest)}'{note}", number,
                             again.start() + 1)
        return (*left, *right)

    def distinct(self, named: Iterable[tuple[str, Word]], noun: str) -> None:
        """Refuse the first of ``named`` (a name and where it is written) that looks like an
        earlier, different one (:func:`lookalikes.skeleton.confusable_form`): a reader could
        not tell which of the two a line means."""
        seen: dict[str, tuple[str, Word]] = {}
        for name, word in named:
            form = confusable_form(name)
            if form in seen and seen[form][0] != name:
                other, first = seen[form]
                raise self.error(f"{noun} {looks_like(name, other)}, the {noun} on line "
                                 f"{first.line}; a reader cannot tell them apart, so rename "
                                 "one", word.line, word.column)
            seen.setdefault(form, (name, word))

    def chain(self, number: int, text: str, start: int, head: str
              ) -> tuple[tuple[Word, ...], ...]:
        """``w1 < w2 = w3``: a plausibility order, most plausible first, as its levels (the
        names of each level equally plausible). ``<`` and ``=`` separate names, so a name
        holding one is quoted."""
        levels: list[list[Word]] = [[]]
        expect_name, last = True, None
        for match in _CHAIN.finditer(text, start):
            token, column = match.group(1), match.start(1) + 1
            if token == ">":
                raise self.error(f"an order is written most plausible first, with '<': "
                                 f"'{head} ranks: {' < '.join(self.examples(2))}'",
                                 number, column)
            if token in "<=":
                if expect_name:
                    raise self.error(f"expected a {self.noun} before {token!r}, as in "
                                     f"'{head} ranks: {' < '.join(self.examples(2))}'",
                                     number, column)
                if token == "<":
                    levels.append([])
                expect_name, last = True, token
                continue
            if not expect_name:
                raise self.error(f"put '<' (less plausible after) or '=' (as plausible) "
                                 f"between {levels[-1][-1].text} and {token.strip(chr(34))}",
                                 number, column)
            word = self.word(token, number, match.start(1))
            if not word.text:
                raise self.error('an empty name ""; give it a name', number, column)
            levels[-1].append(word)
            expect_name = False
        if expect_name:
            end = len(text.rstrip()) + 1
            if last is None:
                raise self.error(f"an order names the {self.noun}s of a class, most plausible "
                                 f"first: '{head} ranks: {' < '.join(self.examples(2))}'",
                                 number, end)
            raise self.error(f"expected a {self.noun} after {last!r}", number, end)
        return tuple(tuple(level) for level in levels)

    def examples(self, k: int) -> list[str]:
        """Up to ``k`` names for an example of a fix: declared ones (as written, each once), so
        the example reads without error; made-up ones (w1, w2, ...) only if none is declared."""
        names = [self.spelled(n) for n in dict.fromkeys(self.declared)][:k]
        return names or [f"{self.noun[0]}{i}" for i in range(1, k + 1)]


def skip(text: str, position: int, space: re.Pattern[str] = _SPACE) -> int:
    """Past the spaces at ``position`` (or what else ``space`` matches: the model format also
    steps over the commas between names)."""
    match = space.match(text, position)
    return match.end() if match else position
