"""How the pages count things in words: "1 world", "2 worlds", "1 event" (a page said "1
worlds" and "2 of 1 worlds possible")."""

from __future__ import annotations


def counted(n: int, word: str) -> str:
    """``n`` and the word, plural unless ``n`` is one: ``counted(1, "world")`` is "1 world",
    ``counted(1200, "event")`` "1,200 events"."""
    return f"{n:,} {word}{'s' * (n != 1)}"
