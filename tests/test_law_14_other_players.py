"""Law 14.1, other players: at least 9.15 m from the mark, behind it, inside the field and
outside the penalty area, whose lines belong to it. One player at a time in each zone, towards
+x and mirrored towards -x; hand-worked margins (the mark is 11 m out, the area 16.5 m)."""

from __future__ import annotations

import numpy as np
import pytest

from penalties import ATTACK, DEFENCE, HALF, LEGAL_OTHERS, MARK, judged, mirrored, penalty
from varroom.law.penalty import Decision, Zone, encroachment_margins_m
from varroom.model.penalty import EncroachPoint, PenaltySettings
from varroom.model.situation import Direction, Pitch

DIRECTIONS = pytest.mark.parametrize("mirror", [False, True], ids=["+x", "-x"])
AREA_EDGE = HALF - 16.5

# (where, the zones he is in with their margins)
ZONE_CASES = {
    "in the area": ((AREA_EDGE + 1.0, 12.0), {Zone.PENALTY_AREA: 1.0}),
    "on the area's line": ((AREA_EDGE, 12.0), {Zone.PENALTY_AREA: 0.0}),
    "inside the arc": ((AREA_EDGE - 1.0, 4.0), {Zone.ARC: 9.15 - float(np.hypot(6.5, 4.0))}),
    "in front of the mark": ((MARK + 2.0, 25.0), {Zone.IN_FRONT_OF_MARK: 2.0}),
    "off the field": ((AREA_EDGE - 5.0, 34.6), {Zone.OFF_FIELD: 0.6}),
}


def with_player(team: str, xy: tuple[float, float], result: str = "saved", **facts: object) -> dict:
    others = {**LEGAL_OTHERS, "reyes" if team == ATTACK else "lindqvist": (team, xy)}
    return penalty(result, others=others, facts=dict(facts))


@DIRECTIONS
@pytest.mark.parametrize("team", [ATTACK, DEFENCE])
@pytest.mark.parametrize("case", sorted(ZONE_CASES))
def test_each_zone_is_found_with_its_margin(case: str, team: str, mirror: bool) -> None:
    xy, zones = ZONE_CASES[case]
    data = with_player(team, xy)
    v = judged(mirrored(data) if mirror else data)
    encroachments = [o for o in v.offences if o.what.value == "encroachment"]
    if all(m == 0.0 for m in zones.values()):
        # On the area's line: inside by Law 1, but by nothing, so no margin past zero.
        assert encroachments == []
        return
    assert len(encroachments) == 1
    (offence,) = encroachments
    assert offence.player == ("reyes" if team == ATTACK else "lindqvist")
    assert {z: pytest.approx(m, abs=1e-9) for z, m in zones.items()} == dict(offence.zones)
    assert offence.measure is not None
    assert offence.measure.margin_m == pytest.approx(max(zones.values()))


def test_the_areas_line_belongs_to_the_area() -> None:
    margins = encroachment_margins_m(
        np.array([AREA_EDGE, AREA_EDGE - 0.01]),
        np.array([12.0, 12.0]),
        Direction.PLUS_X,
        Pitch(),
        PenaltySettings(),
    )
    assert margins[0, 0] == 0.0  # on the outer edge of the line: in the area, level
    assert margins[1, 0] < 0


@DIRECTIONS
def test_legal_players_are_not_encroaching(mirror: bool) -> None:
    data = penalty("goal")
    v = judged(mirrored(data) if mirror else data)
    assert v.offences == ()
    assert v.decision is Decision.GOAL


def test_a_player_in_the_area_with_his_toe_only_feet_setting() -> None:
    """Where he stands: with feet measured, a toe over the area's line is in the area; with
    ANY_PART an arm reaching in counts too."""
    data = with_player(ATTACK, (AREA_EDGE - 0.5, 12.0))
    data["positions"]["reyes"]["parts"] = {
        "left_toe": [AREA_EDGE + 0.05, 12.0, 0.0],
        "right_hand": [AREA_EDGE + 0.4, 12.3, 1.0],
    }
    (offence,) = judged(data).offences
    assert offence.measure is not None and offence.measure.margin_m == pytest.approx(0.05)
    (any_part,) = judged(data, PenaltySettings(encroach_point=EncroachPoint.ANY_PART)).offences
    assert any_part.measure is not None and any_part.measure.margin_m == pytest.approx(0.4)


@pytest.mark.parametrize(
    ("team", "result", "facts", "decision", "penalised"),
    [
        # 24/25: an encroachment counts only with an impact or involvement.
        (ATTACK, "goal", {}, Decision.GOAL, False),
        (ATTACK, "goal", {"clearly_affected_keeper": True}, Decision.RETAKE, True),
        (ATTACK, "saved", {"encroacher_involved": ["reyes"]}, Decision.INDIRECT_FREE_KICK, True),
        (DEFENCE, "saved", {}, Decision.NO_GOAL, False),
        (DEFENCE, "saved", {"clearly_affected_kicker": True}, Decision.RETAKE, True),
        (DEFENCE, "missed", {"encroacher_involved": ["lindqvist"]}, Decision.RETAKE, True),
        # The other team's facts do not make an encroachment count.
        (ATTACK, "goal", {"clearly_affected_kicker": True}, Decision.GOAL, False),
    ],
)
def test_encroachment_counts_only_with_an_impact(
    team: str, result: str, facts: dict, decision: Decision, penalised: bool
) -> None:
    v = judged(with_player(team, (AREA_EDGE + 2.0, 10.0), result, **facts))
    (offence,) = v.offences
    assert offence.penalised is penalised
    assert v.decision is decision
    if not penalised:
        assert "not penalised" in v.reason or "goal stands" in v.reason


def test_before_24_25_every_encroachment_counts() -> None:
    from varroom.model.penalty import EncroachmentRule

    data = with_player(ATTACK, (AREA_EDGE + 2.0, 10.0), "goal")
    v = judged(data, PenaltySettings(encroachment_rule=EncroachmentRule.EVERY))
    assert v.decision is Decision.RETAKE


def test_a_fast_encroacher_has_a_wider_spread() -> None:
    data = with_player(ATTACK, (AREA_EDGE + 0.1, 10.0))
    still = judged(data).offences[0].measure
    data["positions"]["reyes"]["v"] = [6.0, 0.0]
    fast = judged(data).offences[0].measure
    assert still is not None and fast is not None
    assert fast.se_m > still.se_m and fast.probability < still.probability
