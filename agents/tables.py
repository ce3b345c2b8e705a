"""A table of plain values with the lines around it: what a report (a benchmark's, the gameplay
report of ``agents.gameplay``) hands the command line to print (``app.cli.table``), so the
report needs nothing of the app and the command line nothing of ``bench``."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass


@dataclass(frozen=True)
class Table:
    """One table: the lines printed before it, its headers and rows, the lines after it."""

    headers: tuple[str, ...]
    rows: tuple[tuple[object, ...], ...]
    before: tuple[str, ...] = ()
    after: tuple[str, ...] = ()

    @staticmethod
    def of(headers: Sequence[str], rows: Sequence[Sequence[object]],
           before: Sequence[str] = (), after: Sequence[str] = ()) -> Table:
        """A table from any sequences (lists as a benchmark builds them)."""
        return Table(tuple(headers), tuple(tuple(row) for row in rows), tuple(before),
                     tuple(after))
