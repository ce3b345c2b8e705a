"""What a user may type in a field, one validator per kind: whole numbers (seeds, counts),
seconds, id lists and file names. The command line (argparse types in ``app.cli.options``) and the
web page (the seed box) call the same function, so both refuse the same text with the same
words, and a page shows the words inline instead of a traceback.

Each validator returns the value or raises :class:`FieldError`, whose message is the refusal
without the field's name ("must be from 0 to 9,223,372,036,854,775,807, got '²'"): argparse
puts ``argument --seed:`` before it, the page its label. It lives in ``game`` because the
benchmarks (which may not import the app) take seconds and counts too; nothing here knows
the rules.
"""

from __future__ import annotations

import argparse
import math
import re
from collections.abc import Callable

#: More digits than any number a field means can have: longer text is refused before ``int``
#: (which refuses 4,300 digits with an error that names no field).
MAX_DIGITS = 30
#: Seeds run from 0 to 2⁶³ − 1 (numpy's and Mesa's generators take any), on the page as in
#: every command.
MAX_SEED = 2**63 - 1
#: Games a command plays at most: a batch holds one row per game for its summary (about 1 kB
#: each): 10⁹ games ran out of memory, 10⁵ hold about 100 MB. The same bound in every command.
MAX_GAMES = 100_000
#: Worker processes at most, even with ``--force``: each is a Python process (about 100 MB);
#: 100,000 of them grew at 5 MB/s while the cluster started.
MAX_WORKERS = 256
#: A time limit of at most a day: ``1e9999`` seconds is infinity, and a bench row that long
#: never ends.
MAX_SECONDS = 86_400.0
_WHOLE = re.compile(r"[+-]?[0-9]+")


class FieldError(ValueError):
    """Text a field does not take; the message says what it takes and what it got."""


def argument[T](check: Callable[[str], T], name: str) -> Callable[[str], T]:
    """An argparse ``type`` from a validator here: argparse puts the option's name before its
    message (``argument --players: must be 2 to 5, got -1``)."""
    def parse(text: str) -> T:
        try:
            return check(text)
        except FieldError as e:
            raise argparse.ArgumentTypeError(str(e)) from None
    parse.__name__ = name
    return parse


def shown(text: str, limit: int = 24) -> str:
    """Text a user typed, as a message quotes it: escaped, and cut when long."""
    quoted = repr(text)
    return quoted if len(quoted) <= limit else f"{quoted[:limit]}… ({len(text):,} characters)"


def whole_number(text: str) -> int | None:
    """``text`` as a whole number (ASCII digits, a sign, at most ``MAX_DIGITS``), else None:
    ``int`` alone also takes "١" (an Arabic one), "²" passes ``str.isdigit``, and ``int``
    takes "1_000" and fails on 5,000 digits."""
    text = text.strip()
    if not _WHOLE.fullmatch(text) or len(text.lstrip("+-")) > MAX_DIGITS:
        return None
    return int(text)


def span(low: int, high: int | None) -> str:
    """The range a whole-number field takes, in words."""
    if high is None:
        return f"{low:,} or more"
    return f"{low} to {high}" if high - low < 10 else f"from {low:,} to {high:,}"


def whole(text: str, low: int, high: int | None = None) -> int:
    """A whole number from ``low`` to ``high`` (None: no upper bound), else FieldError."""
    value = whole_number(text)
    if value is None:
        digits = text.strip().lstrip("+-")
        long = len(digits) > MAX_DIGITS and digits.isascii() and digits.isdigit()
        got = f"a {len(text.strip()):,}-digit number" if long else shown(text)
        raise FieldError(f"must be a whole number {span(low, high)}, got {got}")
    if value < low or (high is not None and value > high):
        raise FieldError(f"must be {span(low, high)}, got {value:,}")
    return value


def seed(text: str) -> int:
    """A seed: a whole number from 0 to 2⁶³ − 1."""
    return whole(text, 0, MAX_SEED)


def seconds(text: str, high: float = MAX_SECONDS) -> float:
    """A time limit: a positive finite number of seconds, at most ``high``."""
    try:
        value = float(text) if len(text) <= MAX_DIGITS else math.nan
    except ValueError:
        value = math.nan
    if not (math.isfinite(value) and 0 < value <= high):
        raise FieldError(f"must be a positive number of seconds, at most {high:,g}, e.g. 60, "
                         f"got {shown(text)}")
    return value


def ids(text: str, count: int) -> tuple[int, ...]:
    """Distinct ids from 0 to ``count`` − 1, separated by commas (empty text: none): an id
    named twice would count twice (three times ticket 1 scored it three times)."""
    parts = [p for p in text.split(",") if p.strip()]
    values = [whole_number(p) for p in parts]
    if any(v is None for v in values):
        raise FieldError(f"wants ids separated by commas, e.g. 3,17, got {shown(text)}")
    found = [v for v in values if v is not None]
    if bad := [i for i in found if not 0 <= i < count]:
        raise FieldError(f"has no id {bad[0]:,}; ids run from 0 to {count - 1}")
    if twice := sorted({i for i in found if found.count(i) > 1}):
        raise FieldError(f"names id {twice[0]} more than once; give each id once")
    return tuple(found)


#: The formats a figure is saved in, by the file name's suffix (matplotlib writes each).
FIGURE_FORMATS = ("png", "svg", "pdf")


def figure_format(text: str) -> str:
    """The format a figure's file name asks for by its suffix, else FieldError."""
    suffix = text.rpartition(".")[2].lower() if "." in text.rpartition("/")[2] else ""
    if suffix not in FIGURE_FORMATS:
        raise FieldError(f"must end in .png, .svg or .pdf (the picture's format), got "
                         f"{shown(text)}")
    return suffix


def figure_file(text: str) -> str:
    """A figure's file name: not empty, ending in a format's suffix."""
    figure_format(file_name(text))
    return text


def file_name(text: str) -> str:
    """A file name or prefix: not empty or blank (``--out ''`` wrote "-games.csv")."""
    if not text.strip():
        raise FieldError(f"needs a file name, got {shown(text)}")
    return text
