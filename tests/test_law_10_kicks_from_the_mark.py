"""Law 10.3, kicks from the penalty mark: the kicker's own goalkeeper stays on the field,
outside the penalty area, on the goal line where it meets the penalty-area line. In his place
he is no encroacher (issue 22: he was listed "10.95 m in front of the penalty mark"); out of it
he is, and the reason says where he had to be. Margins worked by hand here from the Law's
measures (the area 16.5 m deep and 20.16 m to each side of the centre, lines 12 cm wide),
towards +x and mirrored towards -x."""

from __future__ import annotations

import math
from typing import Any

import pytest

from penalties import ATTACK, HALF, judged, mirrored, penalty
from varroom.engine.penalty_verdict import OffenceKind
from varroom.law.penalty import Zone
from varroom.model.penalty import PenaltySettings

DIRECTIONS = pytest.mark.parametrize("mirror", [False, True], ids=["+x", "-x"])
AREA_SIDE = 20.16  # the penalty-area line's outer edge, from the pitch's long axis
LINE = 0.12
PLACE_M = PenaltySettings().kickers_keeper_place_m
OWN_KEEPER = "kowalski"


def away(x: float, y: float) -> float:
    """How much farther than his allowance he stands from the nearer corner of the area."""
    return math.hypot(HALF - x, abs(y) - AREA_SIDE) - PLACE_M


# where he stands -> the zones he is out of place in, with their margins (empty: in place)
CASES: dict[str, tuple[tuple[float, float], dict[Zone, float]]] = {
    "where the lines meet, outside the area": ((HALF - 0.2, 20.6), {}),
    "on the area's line where it meets the goal line": ((HALF - 0.2, 20.1), {}),
    "at the other corner": ((HALF - 0.3, -20.7), {}),
    "up the touchline side": ((HALF - 6.0, 25.0), {Zone.AWAY_FROM_PLACE: away(HALF - 6.0, 25.0)}),
    "inside the area": (
        (HALF - 3.0, 15.0),
        {Zone.PENALTY_AREA: 3.0, Zone.AWAY_FROM_PLACE: away(HALF - 3.0, 15.0)},
    ),
    "just inside the line's inner edge": ((HALF - 0.2, 19.9), {Zone.PENALTY_AREA: 0.14}),
    "behind the goal line": ((HALF + 0.5, 21.0), {Zone.OFF_FIELD: 0.5}),
}


def shootout(where: tuple[float, float], *, kicks_from_the_mark: bool = True) -> dict[str, Any]:
    data = penalty(
        "goal",
        others={OWN_KEEPER: (ATTACK, where)},
        facts={"shootout": kicks_from_the_mark},
    )
    for player in data["players"]:
        if player["id"] == OWN_KEEPER:
            player.update(goalkeeper=True, name="Adam Kowalski")
    return data


@DIRECTIONS
@pytest.mark.parametrize("case", sorted(CASES))
def test_the_kickers_goalkeeper_is_judged_against_his_place(case: str, mirror: bool) -> None:
    where, zones = CASES[case]
    data = shootout(where)
    verdict = judged(mirrored(data) if mirror else data)
    his = [o for o in verdict.offences if o.player == OWN_KEEPER]
    if not zones:
        assert his == []
        assert "Kowalski" not in verdict.reason
        return
    (offence,) = his
    assert offence.what is OffenceKind.KICKERS_GOALKEEPER_OUT_OF_PLACE
    assert dict(offence.zones) == {z: pytest.approx(m, abs=1e-9) for z, m in zones.items()}
    assert offence.measure is not None
    assert offence.measure.margin_m == pytest.approx(max(zones.values()))
    assert "the kicker's goalkeeper" in verdict.reason
    assert "where it meets the penalty-area line" in verdict.reason
    assert "Law 10.3" in verdict.reason


@DIRECTIONS
def test_out_of_his_place_he_counts_as_a_kickers_team_mate_encroaching(mirror: bool) -> None:
    """Law 14.2 (24/25) applies: a goal is retaken only if it mattered (here he then played
    the ball); without that fact it stands."""
    data = shootout((HALF - 6.0, 25.0))
    assert judged(mirrored(data) if mirror else data).decision.value == "goal"
    data["facts"]["encroacher_involved"] = [OWN_KEEPER]
    verdict = judged(mirrored(data) if mirror else data)
    assert verdict.decision.value == "retake"
    assert "the kicker's goalkeeper, was out of his place" in verdict.announcement


def test_his_allowance_is_a_setting() -> None:
    where = (HALF - 2.5, 21.0)  # about 2.6 m from the corner
    assert [o.player for o in judged(shootout(where)).offences] == [OWN_KEEPER]
    wider = PenaltySettings(kickers_keeper_place_m=3.0)
    assert judged(shootout(where), wider).offences == ()


def test_in_a_match_a_goalkeeper_there_is_an_encroacher_of_law_14() -> None:
    """Only kicks from the mark give the kicker's goalkeeper that place: at a penalty kick in
    a match the same spot is in front of the mark, as for any other player."""
    verdict = judged(shootout((HALF - 0.2, 20.6), kicks_from_the_mark=False))
    (offence,) = [o for o in verdict.offences if o.player == OWN_KEEPER]
    assert offence.what is OffenceKind.ENCROACHMENT
    assert dict(offence.zones)[Zone.IN_FRONT_OF_MARK] == pytest.approx(11.0 - 0.2)
