"""Law 11.4: players off the field, and the sanction."""

from __future__ import annotations

import pytest

from situations import judged, situation, touch
from varroom.law.off_field import defender_off_field_depth_m
from varroom.law.sanction import Restart, sanction
from varroom.model.settings import DefenderOffFieldLine, LawSettings, PermittedAbsence
from varroom.model.situation import Direction, OffField, Pitch, Position


def test_sanction_is_an_indirect_free_kick_where_it_happened():
    assert sanction((-10.0, 3.0)) == (Restart.INDIRECT_FREE_KICK, (-10.0, 3.0))


@pytest.mark.parametrize(
    ("x", "y", "expected"),
    [
        (54.0, 0.0, 52.5),
        (30.0, 36.0, 30.0),
        (51.0, 33.0, 51.0),
        (51.0, 20.0, 52.5),
        (-54.0, 0.0, -52.5),
    ],
)
def test_defender_counts_on_the_nearest_line_he_crossed(x, y, expected):
    position = Position(x, y, off_field=OffField.WITHOUT_PERMISSION)
    depth = defender_off_field_depth_m(position, Direction.PLUS_X, Pitch(), LawSettings())
    assert depth == pytest.approx(expected)


def test_defender_goal_line_setting():
    position = Position(30.0, 36.0, off_field=OffField.WITHOUT_PERMISSION)
    settings = LawSettings(defender_off_field_line=DefenderOffFieldLine.GOAL_LINE)
    assert defender_off_field_depth_m(position, Direction.PLUS_X, Pitch(), settings) == 52.5


def _pass_with(d2_position, a2_position=(45, 5)):
    first = touch(
        "a1",
        "pass",
        (20, 0),
        0.0,
        a1=(20, 0),
        a2=a2_position,
        d1=(44, 3),
        d2=d2_position,
        gk=(51, 0),
    )
    shot = touch("a2", "shot", (48, 5), 1.0, a1=(22, 0), a2=(48, 5), d1=(46, 3), gk=(51, 0))
    return situation([first, shot])


def test_defender_off_the_field_without_permission_plays_the_attacker_onside():
    # Without d2 the attacker is 1 m past d1; d2 behind his goal line counts on it.
    assert judged(_pass_with((44, 30))).offence
    verdict = judged(_pass_with({"x": 54.0, "y": 2.0, "off_field": "without_permission"}))
    assert verdict.offence is False
    # d2 now counts at 52.5, deeper than the goalkeeper, who becomes the second-last.
    assert verdict.judgement.line.second_last == "gk"


def test_defender_off_the_field_with_permission_is_ignored_by_default():
    injured = {"x": 53.0, "y": 20.0, "off_field": "with_permission"}
    assert judged(_pass_with(injured)).offence
    assert (
        judged(_pass_with(injured), permitted_absence=PermittedAbsence.WHERE_STANDING).offence
        is False
    )


def test_attacker_who_stepped_off_counts_on_the_goal_line():
    stepped = {"x": 54.0, "y": 8.0, "off_field": "stepped_off"}
    verdict = judged(_pass_with((40, 30), a2_position=stepped))
    assert verdict.offence
    assert verdict.margin_m == pytest.approx(52.5 - 44)
