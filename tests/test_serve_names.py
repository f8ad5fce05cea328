"""Reviewers' names: each look-alike of "Ana" the security review found is refused with the
field's path; names people are called by are taken, folded to one form."""

from __future__ import annotations

import json
import unicodedata
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from hypothesis import given
from hypothesis import strategies as st

from varroom.serve import create_app
from varroom.serve.names import reviewer_name

KANE = json.loads(
    (
        Path(__file__).resolve().parent.parent / "examples" / "tottenham-sporting-2022-kane.json"
    ).read_text()
)

# Each displays as "Ana" (or "Ana" with nothing visible after it) in the room's log.
LOOK_ALIKES = [
    "An\u00ada",  # soft hyphen
    "\u0410na",  # Cyrillic capital A
    "An\u034fa",  # combining grapheme joiner
    "Ana\ufe0f",  # variation selector 16
    "Ana\U000e0041",  # tag letter A
    "Ana\u3164",  # Hangul filler
    "\u115fAna",  # Hangul choseong filler
    "An\u180ea",  # Mongolian vowel separator
    "Ana\u2800",  # braille blank
    "Ana\U0001d173",  # musical begin beam (a format character)
    "Ana\u2028",  # line separator
    "A\u200bna",  # zero-width space
    "Ana\u202e",  # right-to-left override
]


@pytest.mark.parametrize("name", LOOK_ALIKES, ids=[ascii(n) for n in LOOK_ALIKES])
def test_look_alikes_refused(name: str) -> None:
    with pytest.raises(ValueError, match="U\\+|script"):
        reviewer_name(name)


@pytest.mark.parametrize(
    ("sent", "kept"),
    [
        ("Ana", "Ana"),
        ("\uff21\uff4e\uff41", "Ana"),
        ("José Müller", "José Müller"),
        ("O'Neil", "O'Neil"),
        ("山田 たろう", "山田 たろう"),
        ("김민수", "김민수"),
        ("AVAR 2", "AVAR 2"),
    ],
)
def test_names_people_have(sent: str, kept: str) -> None:
    assert reviewer_name(sent) == kept


@given(st.text(min_size=1, max_size=20))
def test_a_taken_name_is_one_visible_form(text: str) -> None:
    """Whatever is taken is NFKC already, holds no control, format or separator character
    but the plain space, and taken again is the same name."""
    try:
        name = reviewer_name(text)
    except ValueError:
        return
    assert unicodedata.normalize("NFKC", name) == name
    assert all(unicodedata.category(c)[0] not in "CZ" or c == " " for c in name)
    assert reviewer_name(name) == name


def test_the_room_refuses_each_look_alike_with_the_path_and_logs_nothing(tmp_path: Path) -> None:
    app = create_app(None, None, tmp_path / "data")
    with TestClient(app, base_url="http://127.0.0.1") as room:
        sid = room.post("/api/situations", json=KANE).json()["id"]
        decisions = f"/api/situations/{sid}/decisions"
        for name in LOOK_ALIKES:
            body = {"reviewer": name, "decision": "offside", "duration_s": 3.0}
            answer = room.post(decisions, json=body)
            assert answer.status_code == 422, (name, answer.text)
            assert answer.json()["where"] == "$.reviewer"
        assert room.get("/api/decisions.json").json() == []
        full_width = {"reviewer": "\uff21\uff4e\uff41", "decision": "offside", "duration_s": 3.0}
        assert room.post(decisions, json=full_width).json()["reviewer"] == "Ana"
