"""Law 11.1: offside position."""

from __future__ import annotations

import numpy as np
import pytest

from situations import judged, situation, through_ball, touch
from varroom.law.position import (
    offside_line_depth_m,
    offside_margin_m,
    offside_position,
    second_last_opponent,
)
from varroom.model.settings import BallPoint, BodyReference, LawSettings


def test_second_last_opponent_is_the_second_deepest_of_any_role():
    depths = np.array([[40.0, 52.0, 30.0], [52.0, np.nan, 10.0]])
    assert second_last_opponent(depths).tolist() == [0, 2]


def test_second_last_opponent_needs_two_opponents_on_the_pitch():
    assert second_last_opponent(np.array([[5.0, np.nan]])).tolist() == [-1]
    assert second_last_opponent(np.empty((3, 0))).tolist() == [-1, -1, -1]


def test_level_is_onside_and_a_millimetre_past_is_not():
    line = offside_line_depth_m(10.0, 30.0, LawSettings())
    assert not offside_position(offside_margin_m(30.0, line))
    assert offside_position(offside_margin_m(30.001, line))


def test_line_is_the_deepest_of_ball_second_last_and_halfway():
    settings = LawSettings(halfway_line_width_m=0.12)
    assert offside_line_depth_m(35.0, 30.0, settings) == 35.0
    assert offside_line_depth_m(-5.0, -3.0, settings) == pytest.approx(0.06)


def test_through_ball_beyond_second_last_is_an_offence():
    verdict = judged(through_ball(attacker_x=30.8))
    assert verdict.offence and verdict.offender == "a2"
    assert verdict.margin_m == pytest.approx(0.8)
    assert verdict.judgement.line.second_last == "d1"


def test_goalkeeper_is_not_special_two_outfielders_are_the_last_two():
    data = situation(
        [
            touch(
                "a1",
                "pass",
                (0, 0),
                0.0,
                a1=(0, 0),
                a2=(38, 2),
                gk=(20, 0),
                d1=(36, 4),
                d2=(37, -3),
            ),
            touch(
                "a2",
                "shot",
                (40, 2),
                1.0,
                a1=(2, 0),
                a2=(40, 2),
                gk=(22, 0),
                d1=(37, 4),
                d2=(38, -3),
            ),
        ]
    )
    verdict = judged(data)
    assert verdict.offence and verdict.judgement.line.second_last == "d1"
    assert verdict.margin_m == pytest.approx(2.0)


@pytest.mark.parametrize("x", [-0.5, 0.0, 0.05])
def test_own_half_and_halfway_line_are_not_the_opponents_half(x):
    data = situation(
        [
            touch(
                "a1",
                "pass",
                (-20, 0),
                0.0,
                a1=(-20, 0),
                a2=(x, 5),
                d1=(-3, 3),
                d2=(-2, -3),
                gk=(50, 0),
            ),
            touch(
                "a2",
                "pass",
                (10, 5),
                2.0,
                a1=(-18, 0),
                a2=(10, 5),
                d1=(5, 3),
                d2=(5, -3),
                gk=(50, 0),
            ),
        ]
    )
    verdict = judged(data)
    assert not verdict.offence
    assert verdict.judgement.line.set_by.value == "halfway_line"


def test_attacker_past_the_halfway_line_edge_is_in_the_opponents_half():
    data = situation(
        [
            touch("a1", "pass", (-20, 0), 0.0, a1=(-20, 0), a2=(0.07, 5), d1=(-3, 3), d2=(-2, -3)),
            touch("a2", "pass", (10, 5), 2.0, a1=(-18, 0), a2=(10, 5), d1=(5, 3), d2=(5, -3)),
        ]
    )
    assert judged(data).offence


def test_ball_sets_the_line_when_the_attacker_is_ahead_of_a_cutback():
    data = situation(
        [
            touch(
                "a1", "header", (49, -2), 0.0, a1=(49, -2), a2=(49.04, 1), d1=(47, 0), gk=(51, 0)
            ),
            touch("a2", "shot", (49.5, 1), 0.5, a1=(49, -2), a2=(49.5, 1), d1=(47, 0), gk=(51, 0)),
        ]
    )
    verdict = judged(data)
    assert verdict.offence
    assert verdict.judgement.line.set_by.value == "ball"
    assert verdict.margin_m == pytest.approx(0.04)


def test_ball_point_setting_moves_the_line_by_the_radius():
    data = situation(
        [
            touch(
                "a1", "header", (49, -2), 0.0, a1=(49, -2), a2=(49.04, 1), d1=(47, 0), gk=(51, 0)
            ),
            touch("a2", "shot", (49.5, 1), 0.5, a1=(49, -2), a2=(49.5, 1), d1=(47, 0), gk=(51, 0)),
        ]
    )
    verdict = judged(data, ball_point=BallPoint.NEAREST_EDGE)
    assert not verdict.offence
    assert verdict.margin_m == pytest.approx(0.04 - 0.11)


def _with_parts(attacker_parts, defender_parts):
    return situation(
        [
            touch(
                "a1",
                "pass",
                (10, 0),
                0.0,
                a1=(10, 0),
                a2={"x": 29.8, "y": 5, "parts": attacker_parts},
                d1={"x": 29.9, "y": 3, "parts": defender_parts},
                gk=(50, 0),
            ),
            touch("a2", "shot", (33, 5), 1.0, a1=(12, 0), a2=(33, 5), d1=(31, 3), gk=(50, 0)),
        ]
    )


def test_attackers_head_beyond_the_line_counts():
    verdict = judged(_with_parts({"head": [30.06, 5, 1.8]}, {"left_foot": 30.0}))
    assert verdict.offence
    assert verdict.margin_m == pytest.approx(0.06)
    assert verdict.judgement.attackers["a2"].reach.part.value == "head"


def test_attackers_hand_and_arm_never_count_but_the_shoulder_does():
    assert not judged(
        _with_parts({"left_hand": 30.5, "right_arm": 30.3}, {"left_foot": 30.0})
    ).offence
    assert judged(_with_parts({"left_shoulder": 30.02}, {"left_foot": 30.0})).offence


def test_defenders_arm_does_not_set_the_line():
    verdict = judged(_with_parts({"right_foot": 30.1}, {"left_hand": 31.0, "left_foot": 30.0}))
    assert verdict.offence
    assert verdict.judgement.line.second_last_reach.part.value == "left_foot"


def test_tracked_point_setting_ignores_parts():
    verdict = judged(
        _with_parts({"head": [30.06, 5, 1.8]}, {"left_foot": 30.0}),
        body_reference=BodyReference.TRACKED_POINT,
    )
    assert not verdict.offence
