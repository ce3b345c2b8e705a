"""What may name an agent, in every format that carries one (the text format, JSON), and what
no name may hold (:func:`lookalike_problem`).

One rule for both readers, so a name the text format refuses cannot come in through a JSON file
or a share link and then reach a page, an SVG or a TikZ file that trusted the reader.
"""

from __future__ import annotations

import re
import unicodedata

from confusable_homoglyphs import categories

#: Words that start a line of the text format, so no agent may be called so.
KEYWORDS = ("agents", "atoms", "world", "actual")
#: An agent: letters, digits, ``_`` and ``'`` starting with a letter, or a number.
AGENT = re.compile(r"[A-Za-z][A-Za-z0-9_']*|[0-9]+")
#: Unicode's scripts of the characters every script uses: digits and punctuation (Common), and
#: accents that take the script of their letter (Inherited).
SHARED_SCRIPTS = frozenset({"COMMON", "INHERITED"})
#: Said wherever an agent's name is refused.
AGENT_RULE = ("an agent is a name of letters, digits, _ and ' starting with a letter (alice, "
              "a1), or a number (0)")


def agent_problem(agent: object) -> str | None:
    """Why ``agent`` cannot name an agent, or None when it can (a whole number or a name
    :data:`AGENT` matches that is no keyword)."""
    if isinstance(agent, bool) or not isinstance(agent, int | str):
        return f"{agent!r} cannot name an agent: {AGENT_RULE}"
    if isinstance(agent, int):
        return None if agent >= 0 else f"{agent!r} cannot name an agent: {AGENT_RULE}"
    if not AGENT.fullmatch(agent):
        return f"{agent[:40]!r} cannot name an agent: {AGENT_RULE}"
    if agent in KEYWORDS:
        return f"an agent cannot be called {agent!r}, a word of the format; rename it"
    return None


def lookalike_problem(name: str) -> str | None:
    """Why ``name`` would look like another name, or None when it would not: it holds an
    invisible character (Unicode's format characters: a zero-width space, a direction mark),
    or letters of two scripts in one word (a Cyrillic 'а' in a Latin 'Paris'; scripts as
    Unicode's data gives them; a digit, space or sign ends a word, so a product's "Ͱ·e0",
    a Greek world's name and an event's, is two words).

    Why: "w1" and "w\u200b1" were two worlds that looked the same on every page and file.
    (Two spellings of one letter, "é" as one character or as e and an accent, are the same
    name once read in Unicode's NFC form, as the readers read them.)"""
    for char in name:
        if unicodedata.category(char) == "Cf":
            return (f"{name[:40]!r} holds an invisible character (U+{ord(char):04X} "
                    f"{unicodedata.name(char, 'a format character')}); remove it")
    word = ""  # the script of the letters since the last digit, space or sign
    for char in name:
        script = categories.alias(char)
        if script in SHARED_SCRIPTS:
            word = "" if script == "COMMON" else word
        elif word and script != word:
            scripts = " and ".join(sorted((word.title(), script.title())))
            return (f"{name[:40]!r} mixes {scripts} letters in a word, so it looks like a name "
                    "it is not; write each word in one script")
        else:
            word = script
    return None
