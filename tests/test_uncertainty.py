"""The margin's uncertainty: the analytic model against a seeded Monte Carlo, and its inputs."""

from __future__ import annotations

import math

import numpy as np
import pytest

from situations import judged, situation, through_ball, touch
from varroom.engine.uncertainty import (
    ConfidenceClass,
    Depth,
    confidence_class,
    linearised_se_m,
    normal_cdf,
    probability_offside_position,
)
from varroom.formats.situation_json import situation_from_dict

HALFWAY_M = 0.06


def monte_carlo(attacker, ball, defenders, timing_sd_s, rng, samples):
    """Draw every depth and the shared timing error; count how often the attacker is past."""
    dt = rng.normal(0.0, timing_sd_s, samples)

    def draw(depth):
        return depth.depth_m + depth.speed_mps * dt + rng.normal(0.0, depth.sd_m, samples)

    a = draw(attacker)
    d = np.stack([draw(x) for x in defenders], axis=1)
    second_last = -np.partition(-d, 1, axis=1)[:, 1]
    line = np.maximum(np.maximum(draw(ball), second_last), HALFWAY_M)
    return float(np.mean(a > line))


def random_case(rng):
    """Tight cases on purpose: everyone within a metre or two of the attacker."""
    centre = rng.uniform(5, 50)

    def depth(spread):
        return Depth(
            centre + rng.normal(0, spread),
            rng.choice([0.0, 0.03, 0.1, 0.18, 0.4]),
            rng.normal(0, 5),
        )

    attacker = depth(0.3)
    ball = depth(3.0)
    defenders = [depth(0.6) for _ in range(rng.integers(2, 6))]
    return attacker, ball, defenders, rng.choice([0.0, 0.01, 0.02, 0.05])


def test_analytic_probability_agrees_with_monte_carlo_on_1000_situations():
    rng = np.random.default_rng(2022)
    differences = []
    for _ in range(1000):
        attacker, ball, defenders, timing = random_case(rng)
        analytic = probability_offside_position(attacker, ball, defenders, HALFWAY_M, timing)
        simulated = monte_carlo(attacker, ball, defenders, timing, rng, 100_000)
        differences.append(abs(analytic - simulated))
    assert max(differences) < 0.01, f"worst {max(differences):.4f}"
    assert np.mean(differences) < 0.003


def test_probability_is_half_when_exactly_level_and_tends_to_certainty():
    ball = Depth(0.0, 0.0)
    defenders = [Depth(30.0, 0.1), Depth(50.0, 0.1)]
    level = probability_offside_position(Depth(30.0, 0.1), ball, defenders, HALFWAY_M, 0.0)
    assert level == pytest.approx(0.5, abs=0.005)
    far = probability_offside_position(Depth(31.0, 0.1), ball, defenders, HALFWAY_M, 0.0)
    assert far > 0.999
    behind = probability_offside_position(Depth(29.0, 0.1), ball, defenders, HALFWAY_M, 0.0)
    assert behind < 0.001


def test_timing_error_grows_with_relative_speed():
    still = linearised_se_m(Depth(0, 0.03, 0.0), Depth(0, 0.03, 0.0), 0.02)
    running = linearised_se_m(Depth(0, 0.03, 8.0), Depth(0, 0.03, -2.0), 0.02)
    assert still == pytest.approx(math.hypot(0.03, 0.03))
    assert running == pytest.approx(math.sqrt(0.03**2 * 2 + (10 * 0.02) ** 2))


@pytest.mark.parametrize(
    ("p", "expected"),
    [
        (0.9995, ConfidenceClass.CLEAR),
        (0.0005, ConfidenceClass.CLEAR),
        (0.98, ConfidenceClass.TIGHT),
        (0.02, ConfidenceClass.TIGHT),
        (0.5, ConfidenceClass.TOO_CLOSE_TO_CALL),
        (0.97, ConfidenceClass.TOO_CLOSE_TO_CALL),
    ],
)
def test_confidence_classes_at_their_thresholds(p, expected):
    assert confidence_class(p) is expected


def test_verdict_carries_margin_se_interval_and_probability():
    verdict = judged(through_ball(attacker_x=30.2))
    data = verdict.to_dict()
    assert data["margin_m"] == pytest.approx(0.2)
    # centroid tracking by default: 0.10 m each, plus 0.15 m of body reach each
    se = math.sqrt(2 * (0.10**2 + 0.15**2))
    assert data["margin_se_m"] == pytest.approx(se, abs=1e-3)
    low, high = data["margin_ci_m"]
    assert low == pytest.approx(0.2 - 1.96 * se, abs=1e-3)
    assert high == pytest.approx(0.2 + 1.96 * se, abs=1e-3)
    assert 0.5 < data["probability"] < 0.95
    assert data["confidence_class"] == "too_close_to_call"
    assert data["tracking"]["source"] == "centroid_optical"


def test_situation_noise_settings_and_velocities_are_read_and_used():
    data = through_ball(attacker_x=30.2)
    data["tracking"] = {"source": "broadcast", "position_sd_m": 0.5, "timing_sd_s": 0.05}
    data["touches"][0]["positions"]["a2"]["v"] = [8.0, 0.0]
    data["touches"][0]["ball_v"] = [20.0, 0.0]
    situation_ = situation_from_dict(data)
    assert situation_.tracking.noise.position_sd_m == 0.5
    assert situation_.tracking.noise.ball_sd_m == 0.40  # the broadcast default
    verdict = judged(data)
    expected = math.sqrt(2 * (0.5**2 + 0.15**2) + (8.0 * 0.05) ** 2)
    assert verdict.uncertainty.margin_se_m == pytest.approx(expected)


def test_body_parts_mean_skeletal_tracking_and_no_reach_term():
    data = situation(
        [
            touch(
                "a1",
                "pass",
                (10, 0),
                0.0,
                a1=(10, 0),
                a2={"x": 29.9, "y": 5, "parts": {"head": 30.1}},
                d1={"x": 29.9, "y": 3, "parts": {"left_foot": 30.0}},
                gk=(50, 0),
            ),
            touch("a2", "shot", (33, 5), 1.0, a1=(12, 0), a2=(33, 5), d1=(31, 3), gk=(50, 0)),
        ]
    )
    verdict = judged(data)
    assert verdict.to_dict()["tracking"]["source"] == "skeletal_optical"
    assert verdict.uncertainty.margin_se_m == pytest.approx(math.hypot(0.03, 0.03))


@pytest.mark.parametrize("bad", [{"source": "radar"}, {"position_sd_m": -1}, {"frame_rate_hz": 0}])
def test_bad_tracking_settings_are_input_errors(bad, write_json, run_cli):
    data = through_ball(attacker_x=30.2)
    data["tracking"] = bad
    result = run_cli("check", str(write_json(data)))
    assert result.exit_code == 2 and "$.tracking." in result.stderr


def test_normal_cdf_is_exact_to_a_rounding() -> None:
    rng = np.random.default_rng(4)
    z = np.concatenate([rng.normal(0.0, 3.0, 5000), rng.uniform(-12.0, 12.0, 5000), [0.0]])
    exact = np.array([0.5 * math.erfc(-value / math.sqrt(2.0)) for value in z])
    assert np.max(np.abs(normal_cdf(z) - exact)) <= 4e-16
    far_below, far_above = normal_cdf(np.array([-40.0, 40.0]))
    assert 0.0 <= far_below < 1e-18 and far_above == 1.0
