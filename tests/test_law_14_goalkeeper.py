"""Law 14.1, the goalkeeper: part of one foot touching, in line with, or behind the goal line at
the kick; the line's markings lie inside the field, so its front edge is 12 cm in front of
x = length/2. Every case is judged attacking towards +x and mirrored towards -x."""

from __future__ import annotations

import pytest

from penalties import FRONT_EDGE, HALF, judged, keeper_feet, mirrored, penalty
from varroom.engine.policy import Policy
from varroom.law.penalty import Decision
from varroom.model.penalty import GoalLineWidth, InLineWith, PenaltySettings

DIRECTIONS = pytest.mark.parametrize("mirror", [False, True], ids=["+x", "-x"])


def kick(parts: dict[str, list[float]], result: str = "saved", x: float = HALF - 0.3) -> dict:
    return penalty(result, {"x": x, "y": 0.0, "parts": parts})


def maybe_mirrored(data: dict, mirror: bool) -> dict:
    return mirrored(data) if mirror else data


@DIRECTIONS
def test_one_heel_on_the_line_other_foot_forward_is_legal(mirror: bool) -> None:
    v = judged(maybe_mirrored(kick(keeper_feet(FRONT_EDGE + 0.02, FRONT_EDGE - 0.55)), mirror))
    assert v.keeper_measure is not None
    assert v.keeper_measure.margin_m == pytest.approx(-0.02)
    assert v.keeper_part is not None and v.keeper_part.value == "left_heel"
    assert v.offences == ()
    assert v.decision is Decision.NO_GOAL


@DIRECTIONS
def test_both_heels_two_cm_in_front_is_an_offence(mirror: bool) -> None:
    v = judged(maybe_mirrored(kick(keeper_feet(FRONT_EDGE - 0.02, FRONT_EDGE - 0.02)), mirror))
    assert v.keeper_measure is not None
    assert v.keeper_measure.margin_m == pytest.approx(0.02)
    assert [o.what.value for o in v.offences] == ["goalkeeper_off_line"]
    assert v.decision is Decision.RETAKE
    assert v.warnings == ("brandt",)


@DIRECTIONS
def test_a_heel_touching_the_front_edge_is_on_the_line(mirror: bool) -> None:
    v = judged(maybe_mirrored(kick(keeper_feet(FRONT_EDGE, FRONT_EDGE - 0.4)), mirror))
    assert v.keeper_measure is not None and abs(v.keeper_measure.margin_m) < 1e-9
    assert v.offences == ()
    assert "touching its front edge" in v.reason


@DIRECTIONS
def test_behind_the_line_is_legal(mirror: bool) -> None:
    v = judged(maybe_mirrored(kick(keeper_feet(HALF + 0.3, HALF + 0.3), x=HALF + 0.2), mirror))
    assert v.offences == ()


@DIRECTIONS
def test_the_line_width_setting_moves_the_line(mirror: bool) -> None:
    """A heel 6 cm in front of x = length/2 is on the marked line, but off a line of no width."""
    data = maybe_mirrored(kick(keeper_feet(HALF - 0.06, HALF - 0.06)), mirror)
    assert judged(data).offences == ()
    zero = judged(data, PenaltySettings(goal_line_width=GoalLineWidth.ZERO))
    assert zero.keeper_measure is not None
    assert zero.keeper_measure.margin_m == pytest.approx(0.06)
    assert zero.decision is Decision.RETAKE


@DIRECTIONS
def test_a_raised_heel_above_the_line_is_in_line_with_it(mirror: bool) -> None:
    parts = keeper_feet(FRONT_EDGE + 0.03, FRONT_EDGE - 0.6)
    parts["left_heel"] = [FRONT_EDGE + 0.03, -0.15, 0.09]
    parts["left_toe"] = [FRONT_EDGE - 0.2, -0.15, 0.02]
    data = maybe_mirrored(kick(parts), mirror)
    assert judged(data).offences == ()
    grounded = judged(data, PenaltySettings(in_line_with=InLineWith.GROUNDED_ONLY))
    assert grounded.keeper_measure is not None
    assert grounded.keeper_measure.margin_m == pytest.approx(0.2)  # the grounded toe
    assert grounded.decision is Decision.RETAKE


@DIRECTIONS
def test_without_feet_the_tracked_point_stands_for_them(mirror: bool) -> None:
    data = maybe_mirrored(penalty("saved", {"x": FRONT_EDGE - 0.5, "y": 0.0}), mirror)
    v = judged(data)
    assert v.keeper_measure is not None and v.keeper_part is None
    assert v.keeper_measure.margin_m == pytest.approx(0.5)
    # Centroid noise and the body's reach: a wider spread than for measured feet.
    assert v.keeper_measure.se_m == pytest.approx((0.10**2 + 0.15**2) ** 0.5)
    assert "no foot measured" in v.reason


def test_the_probability_off_the_line_needs_both_feet_off() -> None:
    one_on = judged(kick(keeper_feet(FRONT_EDGE + 0.01, FRONT_EDGE - 0.5)))
    both_close = judged(kick(keeper_feet(FRONT_EDGE - 0.01, FRONT_EDGE - 0.01)))
    assert one_on.keeper_measure is not None and both_close.keeper_measure is not None
    assert 0.2 < one_on.keeper_measure.probability < 0.5
    single = both_close.keeper_measure.probability**0.5
    assert single == pytest.approx(0.6306, abs=0.005)  # Phi(1 cm / 3 cm) for each foot


def test_a_moving_goalkeeper_has_a_wider_spread() -> None:
    still = kick(keeper_feet(FRONT_EDGE - 0.05, FRONT_EDGE - 0.05))
    moving = kick(keeper_feet(FRONT_EDGE - 0.05, FRONT_EDGE - 0.05))
    moving["positions"]["brandt"]["v"] = [-3.0, 0.0]
    a, b = judged(still).keeper_measure, judged(moving).keeper_measure
    assert a is not None and b is not None
    assert b.se_m > a.se_m
    assert b.margin_m == a.margin_m


@pytest.mark.parametrize(
    ("policy", "decision"),
    [
        ("ifab", Decision.RETAKE),
        ("tolerance:5cm", Decision.NO_GOAL),
        ("tolerance:2cm", Decision.RETAKE),
        ("confidence:0.95", Decision.NO_GOAL),
    ],
)
def test_policies_settle_a_3cm_margin(policy: str, decision: Decision) -> None:
    data = kick(keeper_feet(FRONT_EDGE - 0.03, FRONT_EDGE - 0.03))
    v = judged(data, policy=Policy.parse(policy))
    assert v.decision is decision
    assert v.policy == str(Policy.parse(policy))
    assert v.policy_outcomes["ifab"] is Decision.RETAKE
    assert v.policy_outcomes["tolerance:5cm"] is Decision.NO_GOAL


def test_the_goalkeeper_must_be_between_the_posts() -> None:
    data = penalty("saved", {"x": HALF - 0.05, "y": 4.2})
    v = judged(data)
    offence = next(o for o in v.offences if o.what.value == "goalkeeper_not_between_posts")
    assert offence.measure is not None
    assert offence.measure.margin_m == pytest.approx(0.54)
    assert v.decision is Decision.RETAKE


@pytest.mark.parametrize(
    ("fact", "what"),
    [
        ({"keeper_touching_frame": True}, "goalkeeper_touching_frame"),
        ({"keeper_facing_kicker": False}, "goalkeeper_not_facing_kicker"),
    ],
)
def test_reviewer_facts_about_the_goalkeeper(fact: dict, what: str) -> None:
    v = judged(penalty("saved", facts=fact))
    assert [o.what.value for o in v.offences] == [what]
    assert v.decision is Decision.RETAKE and v.warnings == ("brandt",)
