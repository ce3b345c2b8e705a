"""Output files the house way: every path checked before any game is played, every file written
to a temporary file in its own folder and renamed into place, so an existing file is replaced
only once its successor is whole, and an interrupted run leaves the games it finished.
"""

from __future__ import annotations

import contextlib
import json
import os
import stat
import tempfile
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import IO, Any


def check_outputs(paths: Sequence[str | Path], overwrite: bool, option: str = "--out") -> None:
    """ValueError naming the first path that cannot be written: its folder missing, a folder
    in its place, or a file there already without ``overwrite``."""
    for raw in paths:
        path = Path(raw)
        if path.is_dir():
            raise ValueError(f"{path} is a folder; give {option} a file name")
        if not path.parent.is_dir():
            raise ValueError(f"{path.parent} does not exist; create it or choose another "
                             f"{option}")
        if not os.access(path.parent, os.W_OK):
            raise ValueError(f"cannot write in {path.parent}; choose another {option}")
        if path.exists() and not overwrite:
            raise ValueError(f"{path} exists; choose another {option} or add --overwrite")


@contextlib.contextmanager
def streamed(path: str | Path) -> Iterator[IO[str]]:
    """A file written as results arrive: a temporary file beside ``path``, renamed into place
    when the block ends, normally or by Ctrl-C (what was written is kept); on any other error
    it is removed and the old file, if any, stays."""
    target = Path(path)
    fd, tmp = _temp_beside(target)
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="") as f:
            try:
                yield f
            finally:
                f.flush()
                os.fsync(f.fileno())
    except BaseException as e:
        if isinstance(e, KeyboardInterrupt):
            os.replace(tmp, target)
        else:
            os.unlink(tmp)
        raise
    os.replace(tmp, target)


def write_atomic(path: str | Path, write: Callable[[IO[Any]], object], binary: bool = False
                 ) -> None:
    """Write a whole file through ``write(f)``, atomically."""
    target = Path(path)
    fd, tmp = _temp_beside(target)
    try:
        with (os.fdopen(fd, "wb") if binary else os.fdopen(fd, "w", encoding="utf-8")) as f:
            write(f)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, target)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)
        raise


def _temp_beside(target: Path) -> tuple[int, str]:
    """A temporary file in the target's folder with the mode the target would get (the old
    file's, else what the umask allows): mkstemp alone makes it readable by its owner only."""
    fd, tmp = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.", suffix=".part")
    try:
        mode = stat.S_IMODE(target.stat().st_mode)
    except FileNotFoundError:
        umask = os.umask(0o022)
        os.umask(umask)
        mode = 0o666 & ~umask
    os.fchmod(fd, mode)
    return fd, tmp


def write_json(path: str | Path, doc: Any) -> None:
    write_atomic(path, lambda f: f.write(json.dumps(doc, indent=1, ensure_ascii=False) + "\n"))


def save_figure(figure: Any, path: str | Path) -> None:
    """A matplotlib figure as a PNG, atomically."""
    write_atomic(path, lambda f: figure.savefig(f, format="png", dpi=110), binary=True)
