"""The path fit against analytic flights at 25, 50 and 500 Hz, mirrored over every line:
with no noise the decision is always right and the margin within 1 mm of the analytic value."""

from __future__ import annotations

import numpy as np
import pytest

from ball_lines import FLIGHTS, Flight, document, samples
from varroom.engine.ball_line import judge_ball_line
from varroom.formats.ball_line_json import ball_line_from_dict
from varroom.model.ball_line import BallLineDecision, Line

RATES_HZ = (25, 50, 500)


def expected(flight: Flight, line: Line) -> BallLineDecision:
    if flight.crossed_at_s is None:
        return BallLineDecision.IN_PLAY
    if line.is_goal_line and flight.in_goal_mouth:
        return BallLineDecision.GOAL
    return BallLineDecision.OUT_OF_PLAY


@pytest.mark.parametrize("line", list(Line), ids=lambda line: line.value)
@pytest.mark.parametrize("rate_hz", RATES_HZ)
@pytest.mark.parametrize("flight", FLIGHTS, ids=lambda f: f.name)
def test_decision_margin_and_crossing_match_the_analytic_flight(flight, rate_hz, line):
    verdict = judge_ball_line(ball_line_from_dict(document(samples(flight, line, rate_hz))))
    assert verdict.decision is expected(flight, line)
    assert verdict.nearest_line is line
    assert verdict.margin_m == pytest.approx(flight.margin_m, abs=0.001)
    if flight.crossed_at_s is None:
        assert verdict.crossed_at_t_s is None and verdict.line is None
        assert verdict.probability == 0.0
    else:
        # Sub-sample: far finer than the sampling interval.
        assert verdict.crossed_at_t_s == pytest.approx(flight.crossed_at_s, abs=0.05 / rate_hz)
        assert verdict.line is line and verdict.probability == 1.0


@pytest.mark.parametrize("line", list(Line), ids=lambda line: line.value)
def test_at_25_hz_the_samples_are_short_but_the_curling_path_is_over(line):
    flight = next(f for f in FLIGHTS if f.name == "curling back, path over between samples")
    rows = samples(flight, line, 25)
    verdict = judge_ball_line(ball_line_from_dict(document(rows)))
    assert verdict.samples_margin_m < -0.001  # no sample shows the ball wholly over
    assert verdict.wholly_over and verdict.peak_between_samples
    assert verdict.margin_m == pytest.approx(flight.margin_m, abs=1e-6)
    assert "between the samples" in verdict.reason


def test_a_ball_already_over_at_the_first_sample_crossed_then():
    flight = FLIGHTS[0]
    rows = samples(flight, Line.TOUCHLINE_MINUS_Y, 25)[8:]  # starts 0.18 m past the edge
    verdict = judge_ball_line(ball_line_from_dict(document(rows)))
    assert verdict.crossed_at_t_s == rows[0, 0]


def test_two_samples_are_enough_for_a_straight_path():
    flight = FLIGHTS[0]
    rows = samples(flight, Line.GOAL_LINE_MINUS_X, 1 / flight.duration_s)  # first and last
    verdict = judge_ball_line(ball_line_from_dict(document(rows)))
    assert len(rows) == 2 and verdict.decision is BallLineDecision.GOAL
    assert verdict.crossed_at_t_s == pytest.approx(flight.crossed_at_s)


def test_the_first_line_crossed_decides_at_a_corner():
    # Over the touchline at +y first, then over the goal line at +x beside the corner flag.
    t = np.linspace(0.0, 0.5, 26)
    rows = np.column_stack([t, 51.0 + 4.0 * t, 33.5 + 2.0 * t, 0.11 + 0 * t])
    verdict = judge_ball_line(ball_line_from_dict(document(rows)))
    assert verdict.line is Line.TOUCHLINE_PLUS_Y
    assert verdict.decision is BallLineDecision.OUT_OF_PLAY
    assert verdict.crossed_at_t_s == pytest.approx((34.11 - 33.5) / 2.0)


def test_a_jump_in_the_tracking_beside_the_line_is_not_a_path_over_it():
    # The ball rests 10 cm short of the goal line, then the track jumps to midfield: a quadratic
    # through the jump would peak metres past the line.
    t = np.arange(10) / 25
    x = np.where(t < 0.2, 52.5 + 0.11 - 0.10, 0.0)
    rows = np.column_stack([t, x, 0 * t + 1.0, 0 * t + 0.11])
    verdict = judge_ball_line(ball_line_from_dict(document(rows)))
    assert verdict.decision is BallLineDecision.IN_PLAY
    assert verdict.margin_m == pytest.approx(-0.10)


def _noisy_margins(rows: np.ndarray, sd_m: float, draws: int) -> np.ndarray:
    rng = np.random.default_rng(7)
    margins = []
    for _ in range(draws):
        noisy = rows.copy()
        noisy[:, 1:] += rng.normal(0.0, sd_m, noisy[:, 1:].shape)
        case = ball_line_from_dict(document(noisy, noise={"ball_sd_m": sd_m}))
        margins.append(judge_ball_line(case).margin_m)
    return np.array(margins)


def test_at_500_hz_the_noisy_samples_near_the_furthest_point_are_smoothed_not_maxed():
    # Dozens of samples within the noise of the furthest point: their largest overstates it by
    # about 5 mm; the least-squares quadratic by well under the noise.
    flight = next(f for f in FLIGHTS if f.name == "curling back, path short between samples")
    rows = samples(flight, Line.GOAL_LINE_PLUS_X, 500)
    errors = _noisy_margins(rows, 0.003, 40) - flight.margin_m
    assert abs(errors.mean()) < 0.001
    assert errors.std() < 0.003


def test_a_corner_in_the_path_is_not_smoothed_away():
    # A ball driven at 3 m/s onto the line and saved straight back at a sample: no quadratic fits
    # the corner, so the samples decide, within the noise.
    t = np.arange(200) / 500
    u = 0.004 - 3.0 * np.abs(t - 0.2)
    rows = np.column_stack([t, 52.5 + 0.11 + u, 0 * t + 1.0, 0 * t + 0.11])
    errors = _noisy_margins(rows, 0.001, 20) - 0.004
    assert abs(errors.mean()) < 0.001
