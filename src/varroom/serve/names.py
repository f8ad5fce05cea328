"""Reviewers' names: one person, one name that reads as it is.

A name is folded to NFKC (full-width and other compatibility forms become the usual
letters) and then refused if a reader could not see every character of it, or could take
it for another's: controls and format characters, Unicode's default-ignorable code points
(soft hyphen, combining grapheme joiner, variation selectors, Hangul fillers, tags...),
blanks that are not a plain space, and letters of more than one script ("Ana" with a
Cyrillic "А"). Japanese (Han with kana) and Korean (Han with Hangul) count as one script.
"""

from __future__ import annotations

import unicodedata

# Unicode's Default_Ignorable_Code_Point ranges (DerivedCoreProperties.txt, Unicode 15):
# characters a renderer draws as nothing.
_IGNORABLE = (
    (0x00AD, 0x00AD),
    (0x034F, 0x034F),
    (0x061C, 0x061C),
    (0x115F, 0x1160),
    (0x17B4, 0x17B5),
    (0x180B, 0x180F),
    (0x200B, 0x200F),
    (0x202A, 0x202E),
    (0x2060, 0x206F),
    (0x3164, 0x3164),
    (0xFE00, 0xFE0F),
    (0xFEFF, 0xFEFF),
    (0xFFA0, 0xFFA0),
    (0xFFF0, 0xFFF8),
    (0x1BCA0, 0x1BCA3),
    (0x1D173, 0x1D17A),
    (0xE0000, 0xE0FFF),
)
# Besides letters, digits and combining marks: what names are written with.
_PUNCTUATION = frozenset(" '-.\u2019")
# Scripts used together in one language's names.
_SAME_SCRIPT = {"HIRAGANA": "CJK", "KATAKANA": "CJK", "HANGUL": "CJK"}


def _ignorable(code: int) -> bool:
    return any(low <= code <= high for low, high in _IGNORABLE)


def _script(char: str) -> str:
    """The script of a letter, as the first word of its Unicode name says it."""
    first = unicodedata.name(char, "UNKNOWN").split()[0]
    return _SAME_SCRIPT.get(first, first)


def reviewer_name(text: str) -> str:
    """`text` as a reviewer's name (NFKC, single spaces), or a ValueError saying which
    character a reader could not see or would misread."""
    name = unicodedata.normalize("NFKC", text)
    scripts: dict[str, str] = {}
    for char in name:
        code = ord(char)
        category = unicodedata.category(char)
        if _ignorable(code) or category[0] in "CZ" and char != " ":
            raise ValueError(
                f"U+{code:04X} ({unicodedata.name(char, 'unnamed')}) cannot be seen as it is: "
                "not allowed in a name"
            )
        if category[0] == "L":
            scripts.setdefault(_script(char), char)
        elif category[0] not in "MN" and char not in _PUNCTUATION:
            raise ValueError(
                f"U+{code:04X} ({unicodedata.name(char, 'unnamed')}) is not used in names"
            )
    if len(scripts) > 1:
        shown = ", ".join(f"{script.lower()} {char!r}" for script, char in scripts.items())
        raise ValueError(f"letters of more than one script ({shown}): not allowed in a name")
    if not name or "  " in name or name != name.strip(" "):
        raise ValueError("a name is words separated by single spaces")
    return name
