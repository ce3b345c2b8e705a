"""Fixtures shared by the test files (helpers they import live in ``positions.py``)."""

from __future__ import annotations

import pytest
from positions import tiny_board

from boards import Board


@pytest.fixture(scope="session")
def tiny() -> Board:
    """The 8-city hand-made board described in ``positions.py``."""
    return tiny_board()
