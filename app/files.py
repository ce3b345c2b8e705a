"""Writing the files a user asks for without ever leaving half of one: a temporary file in the
same folder, then a rename (atomic on one file system)."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path


def write_atomically(path: str | Path, data: str | bytes) -> None:
    """Write ``data`` to ``path``: either the whole new file is there or the old one is."""
    path = Path(path)
    folder = path.parent if str(path.parent) else Path(".")
    if not folder.is_dir():
        raise ValueError(f"no folder {folder} to write {path.name} in; create it first")
    fd, temp = tempfile.mkstemp(dir=folder, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data.encode("utf-8") if isinstance(data, str) else data)
        os.replace(temp, path)
    except BaseException:
        Path(temp).unlink(missing_ok=True)
        raise
