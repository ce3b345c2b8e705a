"""Fixtures shared by the test files (helpers they import live in ``positions.py``)."""

from __future__ import annotations

import pytest
from positions import tiny_board

from boards import Board


@pytest.fixture(scope="session")
def tiny() -> Board:
    """The 8-city hand-made board described in ``positions.py``."""
    return tiny_board()


@pytest.fixture(scope="session")
def pdflatex() -> str:
    """Debian's pdflatex (texlive-latex-base; TikZ from texlive-pictures), to compile exported
    TikZ. Skipped without it on a developer's machine, failed under CI=true (.ci/run installs
    it)."""
    import os
    import shutil

    found = shutil.which("pdflatex")
    if found is None:
        message = "pdflatex is missing (apt-get install texlive-latex-base texlive-pictures)"
        if os.environ.get("CI") == "true":
            pytest.fail(f"cannot compile TikZ in CI: {message}")
        pytest.skip(message)
    return found


@pytest.fixture
def small_disk(tmp_path):
    """A 64 KB tmpfs (root only, skipped otherwise), unmounted afterwards even if a file on it
    is still open: a disk that is full after a few rows, for real."""
    import os
    import subprocess

    if os.geteuid() != 0:
        pytest.skip("mounting a tmpfs needs root")
    disk = tmp_path / "disk"
    disk.mkdir()
    if subprocess.run(["mount", "-t", "tmpfs", "-o", "size=64k", "tmpfs", str(disk)],
                      capture_output=True).returncode:
        pytest.skip("cannot mount a tmpfs here")
    try:
        yield disk
    finally:
        subprocess.run(["umount", "--lazy", str(disk)], check=True)
