"""The characters no name may hold, and a name as a message shows it.

Why: a world named ``ESC]0;…BEL`` retitled the terminal that printed it, ``w1`` and
``w\\u200b1`` were two worlds that looked the same on every page and file, and a trailing
space made ``"Paris "`` a second city. A name a user writes is refused when it holds any of
these (:func:`character_problem`), and every message shows a name through :func:`shown`, so
no raw control character reaches a terminal even from a name that is refused.
"""

from __future__ import annotations

import unicodedata

#: Unicode's categories no name holds: controls, format characters (zero-width spaces, direction
#: marks), surrogates, private use, unassigned, line and paragraph separators.
REFUSED_CATEGORIES = frozenset({"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"})
#: Characters that draw nothing though Unicode calls them letters, marks or symbols: its
#: Default_Ignorable_Code_Point list (DerivedCoreProperties.txt, which Python's unicodedata does
#: not carry; the Cf among them are refused by category anyway) and the blank braille pattern.
INVISIBLE_RANGES = ((0x00AD, 0x00AD), (0x034F, 0x034F), (0x061C, 0x061C), (0x115F, 0x1160),
                    (0x17B4, 0x17B5), (0x180B, 0x180F), (0x200B, 0x200F), (0x202A, 0x202E),
                    (0x2060, 0x206F), (0x2800, 0x2800), (0x3164, 0x3164), (0xFE00, 0xFE0F),
                    (0xFEFF, 0xFEFF), (0xFFA0, 0xFFA0), (0xFFF0, 0xFFF8),
                    (0x1BCA0, 0x1BCA3), (0x1D173, 0x1D17A), (0xE0000, 0xE0FFF))
#: Compatibility forms that are an ordinary character drawn another way (fullwidth ``１``,
#: halfwidth ``ｱ``, mathematical bold ``𝐰``): the same name to a reader, so written plainly.
STYLED = ("<wide>", "<narrow>", "<font>")
#: Unicode's scripts of the characters every script uses: digits and punctuation (Common), and
#: accents that take the script of their letter (Inherited).
SHARED_SCRIPTS = frozenset({"COMMON", "INHERITED"})
#: The longest part of a name a message quotes.
SHOWN = 40


def invisible(char: str) -> bool:
    """Whether ``char`` draws nothing, or moves or hides what follows it: a control or format
    character, a space other than ' ', a default-ignorable character (U+034F, U+FE0F, U+3164)
    or the blank braille pattern (U+2800)."""
    category = unicodedata.category(char)
    if category in REFUSED_CATEGORIES or (category == "Zs" and char != " "):
        return True
    code = ord(char)
    return any(low <= code <= high for low, high in INVISIBLE_RANGES)


def escaped(char: str) -> str:
    """``char`` as Python writes it in a string: ``\\x1b``, ``\\u200b``, ``\\U000e0001``."""
    code = ord(char)
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}" if code < 0x10000 \
        else f"\\U{code:08x}"


def shown(name: object, limit: int = SHOWN) -> str:
    """``name`` quoted for a message, as ``repr`` quotes it but also escaping what draws nothing
    (``'w\\u3164'``), cut after ``limit`` characters: safe to print on any terminal."""
    text = str(name)
    body = "".join(escaped(c) if invisible(c) or not c.isprintable()
                   else "\\" + c if c in "\\'" else c for c in text[:limit])
    return f"'{body}'" + ("…" if len(text) > limit else "")


def code_point(char: str) -> str:
    """``U+0430 CYRILLIC SMALL LETTER A``: which character a message means."""
    name = unicodedata.name(char, "")  # controls have none
    return f"U+{ord(char):04X} {name}".rstrip()


def describe(char: str) -> str:
    """``'а' U+0430 CYRILLIC SMALL LETTER A``: a character a message names, escaped."""
    return f"{shown(char)} {code_point(char)}"


def character_problem(name: str) -> str | None:
    """Why ``name`` cannot name anything a user names, or None when it can: empty; a
    character that draws nothing (:func:`invisible`); a space at either end; a styled form of
    an ordinary character (:data:`STYLED`); or letters of two scripts in one word (a Cyrillic
    'а' in a Latin 'Paris'; a digit, space or sign ends a word, so a product's "Ͱ·e0", a Greek
    world's name and an event's, is two words). Each message ends with the fix."""
    if not name:
        return "an empty name; give it a name"
    for char in name:
        if invisible(char):
            kind = "a control character" if unicodedata.category(char) == "Cc" else \
                "a space other than ' '" if unicodedata.category(char) == "Zs" else \
                "an invisible character"
            fix = "write a plain space or remove it" if kind.startswith("a space") else "remove it"
            return f"{shown(name)} holds {kind} ({code_point(char)}); {fix}"
    if name != name.strip():
        return f"{shown(name)} starts or ends with a space, which no reader sees; remove it"
    for char in name:
        if unicodedata.decomposition(char).startswith(STYLED):
            plain = "".join(unicodedata.normalize("NFKC", c)
                            if unicodedata.decomposition(c).startswith(STYLED) else c
                            for c in name)
            return (f"{shown(name)} holds {describe(char)}, another way of drawing "
                    f"{shown(unicodedata.normalize('NFKC', char))}; write {shown(plain)}")
    return mixed_scripts(name)


def mixed_scripts(name: str) -> str | None:
    """Why ``name`` mixes two scripts in a word (Unicode's data gives each letter's), or None.
    (The data is loaded on first use, with urllib, which its package imports: 0.2 s.)"""
    from confusable_homoglyphs import categories

    word = ""  # the script of the letters since the last digit, space or sign
    for char in name:
        script = categories.alias(char)
        if script in SHARED_SCRIPTS:
            word = "" if script == "COMMON" else word
        elif word and script != word:
            scripts = " and ".join(sorted((word.title(), script.title())))
            return (f"{shown(name)} mixes {scripts} letters in a word, so it looks like a name "
                    "it is not; write each word in one script")
        else:
            word = script
    return None
