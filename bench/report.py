"""What a benchmark hands back: its tables and the lines around them, for ``ttr-kripke bench``
to print. Benchmarks measure; the command line prints (``app.cli.table``), so ``bench`` needs
nothing of the app."""

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


@dataclass(frozen=True)
class Report:
    """A benchmark's whole output: its tables in order, what goes to stderr (a missing browser,
    an interrupted run) and the exit status (0 when every goal is met or none is set)."""

    tables: tuple[Table, ...] = ()
    errors: tuple[str, ...] = ()
    status: int = 0
