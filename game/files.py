"""Files a user asks for: checked before any work starts, written so that none is ever half there.

Every output goes to a temporary file in the folder it is meant for and is renamed into place
only when complete (a rename within one folder is atomic), so a reader never sees a half-written
file and ``--overwrite`` never destroys the old file before the new one exists. A stream written
as results arrive (a batch's CSV) is kept when the user stops the run with Ctrl-C: the rows
finished so far are renamed into place, since they are what the user asked for, complete line
by line. Any other failure removes the temporary file and leaves the old one as it was; a full
disk (or any failure of the disk itself) is then one line naming the file, an
:class:`OutputError`, since nothing the program did was wrong. A run killed outright (SIGKILL,
power loss) cannot clean up: its temporary file, named for its output alone, is removed by the
next run that claims the same output, which says so. Whether a temporary file's writer still
lives is read from a lock (the writer holds one on the file for its life, the system lets it go
when the writer dies), never from a process id: ids are reused, and a name read loosely once
let a run remove another output's live file and lose its 4,000 games.

The checks run before a game is dealt, so a typo in a path costs nothing: the folder must exist,
the path must not be a folder or a device, an existing file needs ``overwrite``, and the folder
must take a new file (tried, not guessed from permission bits: ``/proc`` looks writable to root).
An output that passes is then claimed for the run (a lock on ``.NAME.claim`` beside it), so
a second run on the same file is refused in one line instead of both writing it and one run's
work being lost; the command gives its claims up when it ends, the system when it dies. The
claim file is opened without following a link and used only if it is a regular file: a link
planted in its place would have had the program truncate whatever file it named.
It lives in ``game`` because the game's event log is the lowest writer; every package above
uses it too.
"""

from __future__ import annotations

import atexit
import contextlib
import errno
import fcntl
import json
import os
import re
import stat
import sys
import tempfile
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import IO, Any, Literal, overload

from game.fields import figure_format

#: The temporary file's suffix: a leftover (the machine lost power mid-write) is easy to spot.
PART = ".part"
#: The suffix of an output's claim (:func:`claim_output`), a hidden file beside it.
CLAIM = ".claim"
#: The outputs this process has claimed (their real path): each one's claim file and the
#: open descriptor that holds its lock.
_claims: dict[Path, tuple[Path, int]] = {}
#: Failures of the disk rather than of the program: said in one line, the old file kept.
DISK_ERRORS = frozenset({errno.ENOSPC, errno.EDQUOT, errno.EFBIG, errno.EIO, errno.EROFS})


class OutputError(ValueError):
    """An output path that cannot be written; the message names the option and the fix."""


def check_output(path: str | Path, option: str, *, overwrite: bool = False,
                 overwrite_option: str | None = "--overwrite") -> Path:
    """``path`` as a :class:`Path` if a new file can be written there, claimed for this run
    (:func:`claim_output`), else :class:`OutputError`.

    ``overwrite_option`` names the option that allows replacing an existing file; ``None``
    means the command always replaces it (the user named the file to be written)."""
    out = _checked(path, option, overwrite, overwrite_option)
    claim_output(out, option)
    return out


def _checked(path: str | Path, option: str, overwrite: bool,
             overwrite_option: str | None) -> Path:
    """``path`` once :func:`check_output`'s checks pass, not yet claimed."""
    text = str(path)
    if not text.strip():
        raise OutputError(f"{option} needs a file name")
    out = Path(path)
    shown = _short(text)
    if out.is_dir():
        raise OutputError(f"{shown} is a folder; give {option} a file name inside it")
    folder = out.parent
    if not folder.is_dir():
        raise OutputError(f"folder {_short(str(folder))} does not exist; create it or choose "
                          f"another {option}")
    if out.exists() or out.is_symlink():
        try:
            mode = out.stat().st_mode
        except OSError as e:
            raise OutputError(f"{shown} cannot be read ({e.strerror}); choose another "
                              f"{option}") from None
        if not stat.S_ISREG(mode):
            raise OutputError(f"{shown} is not a regular file; choose another {option}")
        if overwrite_option is not None and not overwrite:
            raise OutputError(f"{shown} exists; choose another {option} or add "
                              f"{overwrite_option}")
    return out


def check_outputs(paths: Sequence[tuple[str | Path, str]], *, overwrite: bool = False,
                  overwrite_option: str | None = "--overwrite") -> list[Path]:
    """:func:`check_output` for each ``(path, option)``, and no file named twice; claimed only
    once every one passes."""
    checked = [_checked(p, option, overwrite, overwrite_option) for p, option in paths]
    seen: dict[str, str] = {}
    for out, (_, option) in zip(checked, paths, strict=True):
        key = os.path.realpath(out)
        if key in seen:
            raise OutputError(f"{seen[key]} and {option} name the same file {_short(str(out))}; "
                              "give each its own")
        seen[key] = option
    for out, (_, option) in zip(checked, paths, strict=True):
        claim_output(out, option)
    return checked


def claim_output(out: Path, option: str) -> None:
    """Claim ``out`` for this run until :func:`release_claims`: a lock on ``.NAME.claim``
    beside it (``flock``), the file holding this process's id for the message. Once claimed,
    the folder is tried (it takes a new file) and the temporary files a killed run left for
    ``out`` are removed.

    Why: two runs writing one file each checked that it was free, both wrote it, both said
    so, and the file held one run's work (two ``batch --csv same.csv`` at once); the other's
    was lost. Now the second run is refused in one line before it starts. The lock, not the
    file, is the claim: the system lets it go when its run dies however it dies, so a killed
    run's claim is free without anyone removing it (runs that each removed a stale claim at
    once removed each other's new ones, and a process id reused by another program kept a
    claim forever). This process's own claim is kept. A full disk while the claim is made is
    one line, and the claim is given up with the rest when the command ends."""
    target = _target(out)
    if target in _claims:
        return
    claim = target.parent / f".{target.name}{CLAIM}"
    for _ in range(3):
        fd = _open_claim(claim, target, option)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            pid = _claimed_by(fd)
            os.close(fd)
            who = f"process {pid}" if pid is not None else f"see {_short(claim.name)}"
            raise OutputError(f"another run ({who}) is writing {_short(str(out))}; wait "
                              f"for it to end or choose another {option}") from None
        if _still_named(fd, claim):
            _claims[target] = (claim, fd)  # given up with the rest, even if what follows fails
            try:
                os.ftruncate(fd, 0)
                os.write(fd, str(os.getpid()).encode("ascii"))
            except OSError as e:
                raise _disk_error(target, e, option) from None
            _try_folder(target, option)
            _remove_leftovers(target)
            return
        os.close(fd)  # a run gave this claim up (and removed it) as we locked it: again
    raise OutputError(f"another run is claiming {_short(str(out))}; wait for it to end or "
                      f"choose another {option}")


def _open_claim(claim: Path, target: Path, option: str) -> int:
    """A descriptor of ``target``'s claim file, made if missing; refused in one line, nothing
    touched, when the name is a link (not followed), a folder, a FIFO or anything but a
    regular file."""
    try:
        # O_NONBLOCK: a FIFO planted there opens at once (to be refused) instead of hanging
        fd = os.open(claim, os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW | os.O_NONBLOCK |
                     os.O_CLOEXEC, 0o644)
    except OSError as e:
        if e.errno == errno.ELOOP:
            raise _not_a_claim(claim, "a symbolic link", option) from None
        if e.errno == errno.EISDIR:
            raise _not_a_claim(claim, "a folder", option) from None
        if e.errno in DISK_ERRORS:
            raise _disk_error(target, e, option) from None
        raise OutputError(f"cannot write in {_short(str(claim.parent))} ({e.strerror}); "
                          f"choose another {option}") from None
    mode = os.fstat(fd).st_mode
    if not stat.S_ISREG(mode):
        os.close(fd)
        raise _not_a_claim(claim, "a FIFO" if stat.S_ISFIFO(mode) else "not a regular file",
                           option)
    return fd


def _not_a_claim(claim: Path, what: str, option: str) -> OutputError:
    return OutputError(f"{_short(str(claim))} is {what}, where this program keeps its claim "
                       f"on the output; remove it or choose another {option}")


def release_claims() -> None:
    """Give up every output this process claimed (the command has ended): another run may
    write them now. Also run at exit, so a run that ends in an error leaves no claim. The
    file goes before the lock, so a run waiting on it sees it gone and makes a new one."""
    for claim, fd in _claims.values():
        _remove(str(claim))
        os.close(fd)
    _claims.clear()


def _still_named(fd: int, claim: Path) -> bool:
    """Whether the locked file is still the one the claim's name leads to (the name itself,
    not a link put there since)."""
    try:
        named = os.lstat(claim)
    except OSError:
        return False
    held = os.fstat(fd)
    return (named.st_dev, named.st_ino) == (held.st_dev, held.st_ino)


def _claimed_by(fd: int) -> int | None:
    """The process id a claim holds (read through its open descriptor, for the message
    only); None when it cannot be read or is being written."""
    try:
        text = os.pread(fd, 32, 0).decode("ascii").strip()
    except (OSError, UnicodeDecodeError):
        return None
    return int(text) if text.isdigit() else None


@overload
def atomic_output(path: str | Path, *, binary: Literal[False] = ...,
                  keep_on_interrupt: bool = ...) -> contextlib.AbstractContextManager[IO[str]]: ...
@overload
def atomic_output(path: str | Path, *, binary: Literal[True],
                  keep_on_interrupt: bool = ...) -> contextlib.AbstractContextManager[IO[bytes]]:
    ...
def atomic_output(path: str | Path, *, binary: bool = False,
                  keep_on_interrupt: bool = False
                  ) -> contextlib.AbstractContextManager[IO[str]] | \
        contextlib.AbstractContextManager[IO[bytes]]:
    """A file to write ``path`` through: a temporary file beside it, renamed into place when the
    block ends. With ``keep_on_interrupt`` a Ctrl-C (``KeyboardInterrupt``) also renames what
    was written into place (a stream of whole rows); otherwise, and on any other exception, the
    temporary file is removed and an existing ``path`` stays as it was."""
    # the overloads say which file type; the one generator yields either
    return _atomic(Path(path), binary, keep_on_interrupt)  # type: ignore[return-value]


@contextlib.contextmanager
def _atomic(path: Path, binary: bool, keep_on_interrupt: bool) -> Iterator[IO[str] | IO[bytes]]:
    target = _target(path)
    try:
        fd, temp = _new_part(target)
    except OSError as e:
        raise _disk_error(target, e) from None
    try:
        os.fchmod(fd, _mode(target))
        f: IO[str] | IO[bytes] = os.fdopen(fd, "wb") if binary else \
            os.fdopen(fd, "w", encoding="utf-8", newline="")
        with f:
            try:
                yield f
            finally:
                f.flush()
                os.fsync(f.fileno())
        os.replace(temp, target)
    except KeyboardInterrupt:
        if keep_on_interrupt:
            os.replace(temp, target)
        else:
            _remove(temp)
        raise
    except OSError as e:
        _remove(temp)
        if e.errno in DISK_ERRORS:
            raise _disk_error(target, e) from None
        raise
    except BaseException:
        _remove(temp)
        raise


def _new_part(target: Path) -> tuple[int, str]:
    """A new temporary file of ``target``, locked: the lock, held while it is written, says
    its writer lives (:func:`_removed_if_abandoned`). A run sweeping ``target``'s leftovers
    may take the file in the instant before the lock; then it is made again."""
    for _ in range(3):
        fd, temp = tempfile.mkstemp(dir=target.parent, prefix=_prefix(target), suffix=PART)
        fcntl.flock(fd, fcntl.LOCK_EX)
        if _still_named(fd, Path(temp)):
            return fd, temp
        os.close(fd)
    raise OSError(errno.EAGAIN, "another run removed its temporary file three times")


def _disk_error(target: Path, error: OSError, option: str | None = None) -> OutputError:
    kept = "; the old file is kept" if target.exists() else ""
    fix = "free some space or choose another folder" if error.errno in \
        (errno.ENOSPC, errno.EDQUOT, errno.EFBIG) else "choose another folder"
    if option is not None:
        fix += f" for {option}"
    return OutputError(f"cannot write {_short(str(target))} ({error.strerror}); {fix}, then "
                       f"run again{kept}")


def _prefix(target: Path) -> str:
    """The start of a temporary file's name: hidden, named for its file; the rest is a random
    word of letters, digits and ``_`` and :data:`PART` (see :func:`_is_part_of`)."""
    return f".{target.name}."


def _is_part_of(name: str, target: Path) -> bool:
    """Whether ``name`` is a temporary file of ``target`` and of no other output: its prefix,
    a word with no dot, :data:`PART`. Matched exactly, since ``games``' temporary files are
    no pattern away from ``games.csv``'s: a glob ``.games.*.part`` took the live file of
    ``games.csv`` for a leftover of ``games``. Files of older versions carried a process id
    (``.games.csv.1234-x1y2.part``) and match too."""
    return re.fullmatch(rf"{re.escape(_prefix(target))}(?:\d+-)?\w+{re.escape(PART)}", name,
                        re.ASCII) is not None


def _remove_leftovers(target: Path) -> None:
    """Remove the temporary files of ``target`` that a killed run left, naming each on stderr:
    they hold a half-written output nobody will finish. Called only under ``target``'s claim,
    so no other run of this program is writing it; a file whose lock is held (a writer that
    claims nothing, a library caller) is still being written and stays."""
    try:
        names = [n for n in os.listdir(target.parent) if _is_part_of(n, target)]
    except OSError:
        return
    for name in names:
        if _removed_if_abandoned(target.parent / name):
            print(f"note: removed {_short(name)} beside {_short(target.name)}, half-written "
                  "by a run that was killed", file=sys.stderr)


def _removed_if_abandoned(part: Path) -> bool:
    """Remove ``part`` if it is a regular file no writer holds (its lock is free): whether it
    was removed."""
    try:
        fd = os.open(part, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC)
    except OSError:
        return False
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            return False
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        os.unlink(part)
        return True
    except OSError:  # locked: its writer lives; or gone already
        return False
    finally:
        os.close(fd)


def write_atomically(path: str | Path, data: str | bytes) -> None:
    """Write all of ``data`` to ``path``: afterwards either the whole new file is there or the
    old one (if any) is."""
    if isinstance(data, str):
        with atomic_output(path) as text:
            text.write(data)
    else:
        with atomic_output(path, binary=True) as raw:
            raw.write(data)


def write_json(path: str | Path, doc: Any) -> None:
    """``doc`` as an indented JSON file (UTF-8 text as it is), atomically."""
    write_atomically(path, json.dumps(doc, indent=1, ensure_ascii=False) + "\n")


def save_figure(figure: Any, path: str | Path, dpi: int) -> None:
    """A matplotlib figure (anything with ``savefig``) in the format the file name's suffix
    names (PNG, SVG or PDF: ``--plot x.svg`` once wrote PNG bytes), atomically: a failed draw
    leaves no half picture."""
    with atomic_output(path, binary=True) as f:
        figure.savefig(f, format=figure_format(str(path)), dpi=dpi)


def _target(path: Path) -> Path:
    """Where the bytes go: through a symbolic link to the file it names, so the link stays."""
    return Path(os.path.realpath(path)) if path.is_symlink() else path


def _mode(target: Path) -> int:
    """The new file's permissions: an existing file's own, else what ``open`` would give."""
    try:
        return stat.S_IMODE(target.stat().st_mode)
    except OSError:
        umask = os.umask(0o022)
        os.umask(umask)
        return 0o666 & ~umask


def _try_folder(target: Path, option: str) -> None:
    """Create and remove a temporary file of ``target`` beside it: the only sure test that its
    folder takes one (named as the output's own, a run killed here leaves nothing the next
    run on it does not remove)."""
    try:
        fd, temp = tempfile.mkstemp(dir=target.parent, prefix=_prefix(target), suffix=PART)
    except OSError as e:
        if e.errno in DISK_ERRORS:
            raise _disk_error(target, e, option) from None
        raise OutputError(f"cannot write in {_short(str(target.parent))} ({e.strerror}); "
                          f"choose another {option}") from None
    os.close(fd)
    _remove(temp)


def _remove(temp: str) -> None:
    with contextlib.suppress(FileNotFoundError):
        os.unlink(temp)


def _short(text: str, limit: int = 80) -> str:
    """A path as a message shows it: printable, and cut in the middle when very long."""
    shown = text.encode("unicode_escape").decode("ascii") if not text.isprintable() else text
    return shown if len(shown) <= limit else f"{shown[:limit // 2]}…{shown[-limit // 2:]}"


atexit.register(release_claims)
