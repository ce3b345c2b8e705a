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
