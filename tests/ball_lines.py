"""Ball tracks for the tests: analytic paths written in a line's own frame, placed on any line.

In a line's frame `u` is how far the ball's nearest point is past the line's outer edge (what
the margin measures), `w` runs along the line and `z` is up; `place` puts such a path on the
105 x 68 m pitch over any of the four lines.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from varroom.model.ball_line import Line

RADIUS_M = 0.11
EDGE_M = {True: 52.5, False: 34.0}  # outer edge of the goal lines, of the touchlines

Path = Callable[[np.ndarray], np.ndarray]


@dataclass(frozen=True)
class Flight:
    """An analytic flight near a line, with what the Laws make of it."""

    name: str
    u: Path
    w: Path
    z: Path
    duration_s: float  # a whole number of samples at 25, 50 and 500 Hz
    margin_m: float  # the analytic largest u
    crossed_at_s: float | None  # the analytic first moment u > 0
    in_goal_mouth: bool = True


def place(line: Line, t: np.ndarray, u: np.ndarray, w: np.ndarray, z: np.ndarray) -> np.ndarray:
    """[t, x, y, z] rows of a path given in `line`'s frame."""
    across = line.sign * (EDGE_M[line.is_goal_line] + RADIUS_M + u)
    x, y = (across, w) if line.is_goal_line else (w, across)
    return np.column_stack([t, x, y, z])


def samples(flight: Flight, line: Line, rate_hz: float, t0_s: float = 0.0) -> np.ndarray:
    t = np.arange(round(flight.duration_s * rate_hz) + 1) / rate_hz
    return place(line, t + t0_s, flight.u(t), flight.w(t), flight.z(t))


def document(rows: np.ndarray, **extra: Any) -> dict[str, Any]:
    return {
        "kind": "ball_line",
        "ball_track": rows.tolist(),
        "ball_radius_m": RADIUS_M,
        "noise": {"ball_sd_m": 0.0},
        **extra,
    }


def _curl(peak_m: float, peak_s: float, pull_mps2: float) -> Path:
    return lambda t: peak_m - 0.5 * pull_mps2 * (t - peak_s) ** 2


def _crossing(peak_m: float, peak_s: float, pull_mps2: float) -> float | None:
    return peak_s - float(np.sqrt(2 * peak_m / pull_mps2)) if peak_m > 0 else None


# The curls peak between samples at every rate (0.0187 s after a 25 Hz sample, 0.0013 s before a
# 50 Hz one, 0.0007 s after a 500 Hz one): at 25 Hz the samples of the 'over' curl are 1.7 mm
# short, the path 0.4 mm over.
CURL_PEAK_S = 0.4987
CURL_PULL_MPS2 = 12.0
# A curl of constant curvature (20 m/s on a 50 m radius), which no quadratic fits exactly.
ARC_SPEED_MPS, ARC_RADIUS_M, ARC_PEAK_M = 20.0, 50.0, 0.001


def _arc_angle(t: np.ndarray) -> np.ndarray:
    return ARC_SPEED_MPS * (t - CURL_PEAK_S) / ARC_RADIUS_M


FLIGHTS = (
    Flight(
        "straight, rolling over",
        u=lambda t: -0.30 + 1.5 * t,
        w=lambda t: 1.0 - 0.5 * t,
        z=lambda t: RADIUS_M + 0 * t,
        duration_s=0.48,
        margin_m=-0.30 + 1.5 * 0.48,
        crossed_at_s=0.2,
    ),
    Flight(
        "straight, stopping short",
        u=lambda t: -0.30 + 0.6 * t,
        w=lambda t: -2.0 + 0 * t,
        z=lambda t: RADIUS_M + 0 * t,
        duration_s=0.48,
        margin_m=-0.30 + 0.6 * 0.48,
        crossed_at_s=None,
    ),
    Flight(
        "parabola in the air, under the bar",
        u=lambda t: -0.40 + 1.3 * t,
        w=lambda t: 2.0 + 0.8 * t,
        z=lambda t: 1.0 + 4.0 * t - 4.905 * t**2,
        duration_s=0.6,
        margin_m=-0.40 + 1.3 * 0.6,
        crossed_at_s=0.40 / 1.3,
    ),
    Flight(
        "parabola in the air, over the bar",
        u=lambda t: -0.40 + 1.3 * t,
        w=lambda t: 0.5 + 0 * t,
        z=lambda t: 2.4 + 4.0 * t - 4.905 * t**2,
        duration_s=0.6,
        margin_m=-0.40 + 1.3 * 0.6,
        crossed_at_s=0.40 / 1.3,
        in_goal_mouth=False,
    ),
    Flight(
        "curling back, path over between samples",
        u=_curl(0.0004, CURL_PEAK_S, CURL_PULL_MPS2),
        w=lambda t: -1.5 + 3.0 * t,
        z=lambda t: 0.6 + 0 * t,
        duration_s=1.0,
        margin_m=0.0004,
        crossed_at_s=_crossing(0.0004, CURL_PEAK_S, CURL_PULL_MPS2),
    ),
    Flight(
        "curling on a circle, path over between samples",
        u=lambda t: ARC_PEAK_M - ARC_RADIUS_M * (1 - np.cos(_arc_angle(t))),
        w=lambda t: ARC_RADIUS_M * np.sin(_arc_angle(t)),
        z=lambda t: 0.6 + 0 * t,
        duration_s=1.0,
        margin_m=ARC_PEAK_M,
        crossed_at_s=CURL_PEAK_S
        - ARC_RADIUS_M / ARC_SPEED_MPS * float(np.arccos(1 - ARC_PEAK_M / ARC_RADIUS_M)),
    ),
    Flight(
        "curling back, path short between samples",
        u=_curl(-0.0004, CURL_PEAK_S, CURL_PULL_MPS2),
        w=lambda t: -1.5 + 3.0 * t,
        z=lambda t: 0.6 + 0 * t,
        duration_s=1.0,
        margin_m=-0.0004,
        crossed_at_s=None,
    ),
)
