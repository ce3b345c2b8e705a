"""A name's confusable form: Unicode's skeleton (UTS #39), equal for two names a reader cannot
tell apart in any pair of scripts (a Cyrillic ``а`` and a Latin ``a``, a Greek ``ο`` and an
``o``, ``rn`` and ``m``, ``1`` and ``l``), after NFKC (a fullwidth ``１`` is a ``1``).

Why not only "two scripts in one word": ``А`` alone is one whole Cyrillic word, yet a board
with ``A`` and ``А`` had two cities a player could not tell apart, and ``route A North`` and
``route А North`` answered differently.

The data is ``confusable-homoglyphs``' copy of Unicode's confusables.txt. That package answers
whether a string holds confusable characters, not what a string's skeleton is, and it stores
each mapping both ways (source to prototype and back). The skeleton is read back from it: the
mappings form stars, each prototype at the centre of its sources; a star of two single
characters has no telling centre, and either serves, since picking one for every such pair
renames prototypes one to one, which keeps two skeletons equal exactly when Unicode's are.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable
from functools import cache

from lookalikes.characters import describe, shown

_MARK = "\u200e"  # the data wraps right-to-left characters in left-to-right marks


def _bare(text: str) -> str:
    return text[1:-1] if len(text) > 2 and text[0] == text[-1] == _MARK else text


@cache
def prototypes() -> dict[str, str]:
    """Each confusable character to its prototype, itself already mapped (so a prototype of
    two characters, ``rn``, maps each of them). Built on first use: the data is 0.9 MB of JSON,
    which no command that reads no name should load."""
    from confusable_homoglyphs.confusables import confusables_data

    neighbours = {_bare(key): [_bare(entry["c"]) for entry in entries]
                  for key, entries in confusables_data.items()}
    centre: dict[str, str] = {}
    for key, others in neighbours.items():
        if len(others) > 1 or len(key) > 1:  # a prototype: several sources, or a sequence
            for other in others:
                centre[other] = key
        elif len(neighbours[others[0]]) == 1 and len(others[0]) == 1 and key not in centre:
            centre[others[0]] = key  # a pair of single characters: the first met is the centre

    def mapped(char: str) -> str:
        return "".join(mapped(c) for c in centre[char]) if char in centre else char

    return {char: mapped(char) for char in centre if len(char) == 1}

def confusable_form(name: str) -> str:
    """``name``'s skeleton after NFKC, its runs of spaces as one: two names with the same form
    look the same to a reader. (NFKC and the skeleton are applied until neither changes the
    form: a few prototypes, such as ``～`` for ``〜``, are compatibility forms themselves.)"""
    table = prototypes()
    form = re.sub(" +", " ", name)
    for _ in range(4):
        decomposed = unicodedata.normalize("NFD", unicodedata.normalize("NFKC", form))
        again = unicodedata.normalize("NFD", "".join(table.get(c, c) for c in decomposed))
        if again == form:
            break
        form = again
    return form

def first_lookalike(names: Iterable[str]) -> tuple[str, str] | None:
    """The first name (in order) that looks like an earlier, different one, with that one; or
    None when no two do (the same name twice is another mistake, a duplicate)."""
    seen: dict[str, str] = {}
    for name in names:
        form = confusable_form(name)
        if form in seen and seen[form] != name:
            return name, seen[form]
        seen.setdefault(form, name)
    return None


def looks_like(name: str, other: str) -> str:
    """``'wа' looks like 'wa' ('а' U+0430 CYRILLIC SMALL LETTER A for 'a' U+0061 LATIN SMALL
    LETTER A)``: the two names and the first characters that tell them apart, for a message
    that goes on to say what to rename."""
    said = f"{shown(name)} looks like {shown(other)}"
    a, b = unicodedata.normalize("NFC", name), unicodedata.normalize("NFC", other)
    for x, y in zip(a, b, strict=False):
        if x != y:
            return f"{said} ({describe(x)} for {describe(y)})"
    return said
