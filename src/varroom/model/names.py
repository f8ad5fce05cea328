"""What a player is called after the first mention, when the data gives no short name.

A lineup writes a name as the player's people do: given name first ("Harry Kane", "Pieter de
Vries"), family name first ("Park Ji-ho", "Son Heung-min"), or the family name in capitals as
FIFA's and UEFA's lists do ("PARK Ji-ho", "Kevin DE BRUYNE"). The short name is the family
name, whole; where nothing tells which words that is, the name is kept whole rather than cut
to a given name (issue 22: "Park Ji-ho" became "Ji-ho").
"""

from __future__ import annotations

import re

# A Korean given name in the usual romanisation: two syllables joined by a hyphen, the second
# in lower case ("Ji-ho", "Heung-min", "Min-jae"). After a one-word family name it says the
# family name came first. A Western double-barrelled name capitalises both halves
# ("Alexander-Arnold") and is not one.
_KOREAN_GIVEN = re.compile(r"^[A-Z][a-z]+-[a-z]+$")


def short_name(name: str) -> str:
    """The family name of `name`, as a fan reads it in running text and in pictures."""
    words = name.split()
    if len(words) < 2:
        return name
    capitals = [w for w in words if _in_capitals(w)]
    if capitals and len(capitals) < len(words):
        return " ".join(_titled(w) for w in capitals)
    if len(words) == 2 and _KOREAN_GIVEN.match(words[1]):
        return words[0]
    # Given name first: everything after it, particles and second family names kept
    # ("de Vries", "Di Lorenzo", "Ramos García").
    return " ".join(words[1:])


def _in_capitals(word: str) -> bool:
    letters = [c for c in word if c.isalpha()]
    return len(letters) >= 2 and all(c.isupper() for c in letters)


def _titled(word: str) -> str:
    """ "DE" -> "De", "MBAPPÉ" -> "Mbappé", "ALEXANDER-ARNOLD" -> "Alexander-Arnold"."""
    return "-".join(part[:1] + part[1:].lower() for part in word.split("-"))
