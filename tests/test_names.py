"""Names as people write them (issue 22, item 3): the family name after the first mention,
whole, whichever order the lineup writes it in; the data's own short name where it gives one;
never half a name ("Park Ji-ho" was called "Ji-ho")."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

import varroom
from varroom.formats.situation_json import situation_from_dict, situation_to_dict
from varroom.model.names import short_name
from varroom.model.situation import Player

KANE = Path(__file__).resolve().parent.parent / "examples" / "tottenham-sporting-2022-kane.json"

CASES = {
    "Harry Kane": "Kane",
    "Pieter de Vries": "de Vries",
    "Giovanni Di Lorenzo": "Di Lorenzo",
    "Trent Alexander-Arnold": "Alexander-Arnold",
    "Park Ji-ho": "Park",
    "Son Heung-min": "Son",
    "PARK Ji-ho": "Park",
    "Kevin DE BRUYNE": "De Bruyne",
    "Kylian MBAPPÉ": "Mbappé",
    "Jorginho": "Jorginho",
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_the_family_name_whichever_order_it_is_written_in(name: str) -> None:
    assert short_name(name) == CASES[name]


def test_the_datas_own_short_name_comes_first() -> None:
    player = Player("p", "A", name="Jorge Luiz Frello Filho", short_name="Jorginho")
    assert player.short_label == "Jorginho"
    assert Player("p", "A", name="Park Ji-ho").short_label == "Park"
    assert Player("p", "A", number=7).short_label == "number 7"


word = st.text(
    st.sampled_from("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZéÉ-"), min_size=1
)


@given(st.lists(word, min_size=1, max_size=5))
def test_a_short_name_is_whole_words_of_the_name(words: list[str]) -> None:
    """Never half a word and never a word the name lacks (capitals made title case)."""
    name = " ".join(words)
    short = short_name(name).split()
    assert short
    given_words = [w.lower() for w in name.split()]
    assert all(w.lower() in given_words for w in short)


def _renamed(name: str, short: str | None = None) -> dict:
    data = json.loads(KANE.read_text())
    kane = next(p for p in data["players"] if p.get("name") == "Harry Kane")
    kane["name"] = name
    if short is not None:
        kane["short_name"] = short
    return data


def test_the_reason_calls_a_family_name_first_player_by_his_family_name() -> None:
    reason = varroom.judge(situation_from_dict(_renamed("Park Ji-ho"))).reason
    assert "Park" in reason
    assert reason.count("Ji-ho") == reason.count("Park Ji-ho")


def test_a_short_name_in_the_file_is_read_used_and_written_back() -> None:
    situation = situation_from_dict(_renamed("Harry Edward Kane", short="Kane"))
    assert "Edward Kane" not in varroom.judge(situation).reason
    written = situation_to_dict(situation)
    assert {"name": "Harry Edward Kane", "short_name": "Kane"}.items() <= next(
        p for p in written["players"] if p.get("name") == "Harry Edward Kane"
    ).items()
    assert situation_from_dict(written) == situation


def test_a_short_name_that_is_not_text_is_refused() -> None:
    with pytest.raises(varroom.InputError) as refused:
        situation_from_dict(_renamed("Harry Kane", short=7))  # type: ignore[arg-type]
    assert refused.value.where.endswith(".short_name")
