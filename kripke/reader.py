"""What the two hand-written formats share: the model format (:mod:`kripke.modelfile`) and the
event model format (:mod:`kripke.eventfile`) are read from a file or from the text itself
(:func:`read_source`), and both report a mistake the same way: a :class:`ReadError` with the
1-based line and column, the file's name in front, and a message that says what to change
(:class:`LineReader` places it).
"""

from __future__ import annotations

import os
import re
from pathlib import Path

from kripke.errors import ModelError

_SPACE = re.compile(r"\s*")
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


class LineReader[E: ReadError]:
    """A reader of a line-oriented text: ``error`` places a mistake at a line and column,
    ``at_end`` after the last line (something missing), each as the format's own
    :class:`ReadError` (``failure``, which a format's reader sets)."""

    failure: type[E]

    def __init__(self, text: str, source: str | None) -> None:
        self.source = source
        self.text_lines = text.splitlines()

    def error(self, message: str, line: int, column: int) -> E:
        return self.failure(message, line, column, self.source)

    def at_end(self, message: str) -> E:
        """An error about something missing: placed after the last line."""
        last = len(self.text_lines)
        return self.error(message, max(last, 1),
                          len(self.text_lines[-1]) + 1 if self.text_lines else 1)


def skip(text: str, position: int, space: re.Pattern[str] = _SPACE) -> int:
    """Past the spaces at ``position`` (or what else ``space`` matches: the model format also
    steps over the commas between names)."""
    match = space.match(text, position)
    return match.end() if match else position
