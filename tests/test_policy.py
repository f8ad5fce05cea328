"""Policies for tight calls, each on crafted cases at and around its threshold."""

from __future__ import annotations

import pytest

import varroom
from situations import situation, through_ball, touch
from varroom.engine.policy import Policy, PolicyError, PolicyKind
from varroom.formats.situation_json import situation_from_dict


def verdict(data, policy: str) -> varroom.Verdict:
    return varroom.judge(situation_from_dict(data), policy=Policy.parse(policy))


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("ifab", Policy()),
        ("daylight", Policy(PolicyKind.DAYLIGHT)),
        ("tolerance:5cm", Policy(PolicyKind.TOLERANCE, tolerance_m=0.05)),
        ("tolerance:0.1m", Policy(PolicyKind.TOLERANCE, tolerance_m=0.1)),
        ("confidence:0.95", Policy(PolicyKind.CONFIDENCE, confidence=0.95)),
    ],
)
def test_parse_and_print_round_trip(text, expected):
    assert Policy.parse(text) == expected
    assert Policy.parse(str(expected)) == expected


@pytest.mark.parametrize("text", ["", "var", "tolerance:5", "tolerance:-5cm", "confidence:1.5"])
def test_unknown_policies_are_user_errors(text):
    with pytest.raises(PolicyError):
        Policy.parse(text)


def test_cli_rejects_an_unknown_policy_with_exit_2(run_cli, write_json):
    result = run_cli("check", str(write_json(through_ball(30.5))), "--policy", "vibes")
    assert result.exit_code == 2 and "unknown policy" in result.stderr


@pytest.mark.parametrize(
    ("attacker_x", "offence"), [(30.049, False), (30.05, False), (30.051, True)]
)
def test_tolerance_offside_only_beyond_the_tolerance(attacker_x, offence):
    result = verdict(through_ball(attacker_x), "tolerance:5cm")
    assert result.offence is offence
    assert result.policy == "tolerance:5cm"


def test_tolerance_reason_says_why_no_offence():
    result = verdict(through_ball(30.03), "tolerance:5cm")
    assert "tolerance" in result.reason and result.policy_outcomes["ifab"].value == "offence"
    assert result.policy_would_differ


def _body(rear_x: float, front_x: float):
    # a2's tracked point at rear_x, his head at front_x; d1's deepest part at 30.0
    first = touch(
        "a1",
        "pass",
        (10, 0),
        0.0,
        a1=(10, 0),
        a2={"x": rear_x, "y": 5, "parts": {"head": front_x}},
        d1=(30.0, 3),
        gk=(50, 0),
    )
    second = touch("a2", "shot", (35, 5), 1.0, a1=(12, 0), a2=(35, 5), d1=(31, 3), gk=(50, 0))
    return situation([first, second])


@pytest.mark.parametrize(
    ("rear_x", "offence"), [(29.9, False), (30.0, False), (30.001, True), (30.2, True)]
)
def test_daylight_needs_the_whole_body_past_the_line(rear_x, offence):
    data = _body(rear_x, front_x=30.5)
    assert verdict(data, "ifab").offence is True
    assert verdict(data, "daylight").offence is offence


def _tight(attacker_x: float, on_field: str | None):
    data = through_ball(attacker_x)
    data["tracking"] = {"source": "skeletal_optical", "position_sd_m": 0.05, "ball_sd_m": 0.05}
    if on_field:
        data["on_field"] = {"decision": on_field}
    return data


def test_confidence_offside_when_probability_reaches_the_threshold():
    clear = verdict(_tight(30.3, "goal"), "confidence:0.95")
    assert clear.uncertainty.probability >= 0.95 and clear.offence is True


@pytest.mark.parametrize(("on_field", "offence"), [("goal", False), ("offside", True)])
def test_confidence_too_close_to_call_keeps_the_on_field_decision(on_field, offence):
    close = verdict(_tight(30.03, on_field), "confidence:0.95")
    assert 0.05 < close.uncertainty.probability < 0.95
    assert close.offence is offence
    assert verdict(_tight(30.03, on_field), "ifab").offence is True


def test_confidence_clearly_onside_overrides_an_offside_flag():
    onside = verdict(_tight(29.5, "offside"), "confidence:0.95")
    assert onside.uncertainty.probability <= 0.05 and onside.offence is False


@pytest.mark.parametrize("probability", [0.949, 0.95])
def test_confidence_threshold_is_inclusive(probability):
    judged = varroom.judge(situation_from_dict(through_ball(30.2))).judgement.attackers["a2"]
    policy = Policy(PolicyKind.CONFIDENCE, confidence=0.95)
    assert policy.offside(judged, lambda: probability, False) is (probability >= 0.95)


def test_every_verdict_lists_the_standard_policies():
    data = verdict(through_ball(30.5), "ifab").to_dict()
    assert set(data["policy_outcomes"]) == {"ifab", "tolerance:5cm", "daylight", "confidence:0.95"}
    assert data["policy_would_differ"] is False  # 50 cm: every policy agrees
