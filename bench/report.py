"""What a benchmark hands back: its tables (:class:`agents.tables.Table`) and the lines around
them, for ``ttr-kripke bench`` to print. Benchmarks measure; the command line prints
(``app.cli.table``), so ``bench`` needs nothing of the app."""

from __future__ import annotations

from dataclasses import dataclass

from agents.tables import Table


@dataclass(frozen=True)
class Report:
    """A benchmark's whole output: its tables in order, what goes to stderr (a missing browser,
    an interrupted run) and the exit status (0 when every goal is met or none is set)."""

    tables: tuple[Table, ...] = ()
    errors: tuple[str, ...] = ()
    status: int = 0
