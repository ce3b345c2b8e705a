"""Plain-text tables for benchmark output."""

from __future__ import annotations

from collections.abc import Sequence


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
