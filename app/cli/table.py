"""The command line's plain-text tables: a command's own (``print_table``) and a benchmark's
report (``print_report``: ``bench`` measures, the command line prints)."""

from __future__ import annotations

import sys
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING

from agents.tables import Table

if TYPE_CHECKING:  # a command that prints a table of its own imports nothing of bench
    from bench.report import Report


def _numeric(cell: str) -> bool:
    try:
        float(cell.split()[0].replace(",", "").removesuffix("%"))
    except (ValueError, IndexError):
        return False
    return True


def print_table(headers: Sequence[str], rows: Sequence[Sequence[object]]) -> None:
    """Print rows under headers, columns padded to their widest cell."""
    cells = [[str(h) for h in headers]] + [[str(c) for c in row] for row in rows]
    widths = [max(len(row[i]) for row in cells) for i in range(len(headers))]
    for n, row in enumerate(cells):
        print("  ".join(c.rjust(w) if n and _numeric(c) else c.ljust(w)
                        for c, w in zip(row, widths, strict=True)).rstrip())
        if n == 0:
            print("  ".join("-" * w for w in widths))


def print_tables(tables: Iterable[Table]) -> None:
    """Each table with the lines before and after it."""
    for table in tables:
        for line in table.before:
            print(line)
        print_table(table.headers, table.rows)
        for line in table.after:
            print(line)


def print_report(report: Report) -> int:
    """A benchmark's tables on stdout, its errors on stderr; its exit status."""
    print_tables(report.tables)
    for line in report.errors:
        print(line, file=sys.stderr)
    return report.status
