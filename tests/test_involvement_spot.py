"""An interference timed between touches, where the data knows where the offender stood
(issue 22, item 5): the indirect free kick is taken there (Law 11.5), not where he was at the
next touch. Towards +x and mirrored towards -x."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

import varroom
from varroom.errors import InputError
from varroom.formats.situation_json import situation_from_dict, situation_to_dict

EXAMPLE = (
    Path(__file__).resolve().parent.parent
    / "examples"
    / "obstructing-goalkeepers-line-of-vision-offence.json"
)


def obstructing(at: list[float] | None, mirror: bool) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(EXAMPLE.read_text())
    first, shot = data["touches"]
    fact = shot["involvement"][0]
    fact["t"] = (first["t"] + shot["t"]) / 2
    if at is not None:
        fact["at"] = at
    if mirror:
        data = copy.deepcopy(data)
        data["attack"]["towards"] = "-x" if data["attack"]["towards"] == "+x" else "+x"
        for touch in data["touches"]:
            touch["ball"][0] = -touch["ball"][0]
            for position in touch["positions"].values():
                position["x"] = -position["x"]
            for item in touch.get("involvement", []):
                if "at" in item:
                    item["at"][0] = -item["at"][0]
    return data


@pytest.mark.parametrize("mirror", [False, True], ids=["+x", "-x"])
def test_the_free_kick_is_where_he_interfered(mirror: bool) -> None:
    data = obstructing([44.0, -3.5], mirror)
    hale_at_shot = data["touches"][1]["positions"]["hale"]
    verdict = varroom.judge(situation_from_dict(data))
    assert verdict.offence
    assert verdict.restart_spot_m == pytest.approx(((-1 if mirror else 1) * 44.0, -3.5))
    without = varroom.judge(situation_from_dict(obstructing(None, mirror)))
    assert without.restart_spot_m == pytest.approx((hale_at_shot["x"], hale_at_shot["y"]))


def test_the_spot_is_written_back() -> None:
    situation = situation_from_dict(obstructing([44.0, -3.5], False))
    written = situation_to_dict(situation)
    assert written["touches"][1]["involvement"][0]["at"] == [44.0, -3.5]
    assert situation_from_dict(written) == situation


def test_a_spot_off_the_ground_is_refused() -> None:
    with pytest.raises(InputError) as refused:
        situation_from_dict(obstructing([90.0, 0.0], False))
    assert refused.value.where == "$.touches[1].involvement[0].at"
