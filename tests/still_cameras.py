"""Test support: broadcast cameras drawn independently of `varroom.still` and
`varroom.synthetic`, for measuring the still's judgement against a truth it did not make.

Nothing here imports varroom: the pitch is written out from the Laws (Law 1, a 105 x 68 m
pitch) and the camera is a pinhole with an off-centre principal point and a two-term radial
(Brown) distortion, a model richer than the one the still fits, so that the tests see what a
real lens does to it.

The pitch frame is the still-marks format's (docs/formats/still-marks.md): origin at the centre
spot, x along the length (the attacked goal at x = +52.5), y across, z up. The broadcast side
is y < 0: the main cameras stand beyond the touchline y = -34.

The eleven kinds follow issue 29: high and low main cameras, the penalty-box camera, high
behind-the-goal, the far touchline (looking back across the pitch), a camera rolled off level,
an off-centre principal point, strong barrel distortion (k1 down to -0.15 with a k2 term), and
tight zooms that show a few lines and hardly any corners.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

Floats = npt.NDArray[np.float64]

LENGTH_M, WIDTH_M = 105.0, 68.0
HALF_L, HALF_W = LENGTH_M / 2, WIDTH_M / 2
PENALTY_DEPTH_M, PENALTY_HALF_WIDTH_M = 16.5, 20.16
GOAL_AREA_DEPTH_M, GOAL_AREA_HALF_WIDTH_M = 5.5, 9.16
PENALTY_MARK_M = 11.0
GOAL_HALF_WIDTH_M, GOAL_HEIGHT_M = 3.66, 2.44
CIRCLE_M = 9.15

SIZE_PX = (1920, 1080)

CAMERA_KINDS: tuple[str, ...] = (
    "main_high",
    "main_low_halfway",
    "penalty_box",
    "behind_goal_high",
    "far_touchline",
    "rolled",
    "off_centre",
    "barrel",
    "tight_zoom_box",
    "tight_zoom_touchline",
    "wide_low",
)


@dataclass(frozen=True, slots=True)
class TestCamera:
    """A pinhole camera, world to camera by `rotation` (rows: the camera's right, down and
    forward axes in pitch metres), at `eye`, with radial distortion k1, k2 on the normalised
    image plane."""

    __test__ = False  # not a pytest test class

    kind: str
    eye_m: tuple[float, float, float]
    rotation: Floats
    focal_px: float
    principal_px: tuple[float, float]
    k1: float
    k2: float
    size_px: tuple[int, int]

    def project(self, points_m: npt.ArrayLike) -> Floats:
        """Pitch points (N x 3) to pixels (N x 2), distorted; NaN behind the camera or where the
        distortion folds back."""
        pts = np.atleast_2d(np.asarray(points_m, dtype=float))
        cam = (pts - np.asarray(self.eye_m)) @ self.rotation.T
        with np.errstate(divide="ignore", invalid="ignore"):
            xn = cam[:, :2] / cam[:, 2:3]
        r2 = (xn**2).sum(axis=1)
        factor = 1.0 + self.k1 * r2 + self.k2 * r2**2
        # d(r factor)/dr > 0: beyond where it is not, the lens maps two radii to one pixel.
        monotone = 1.0 + 3.0 * self.k1 * r2 + 5.0 * self.k2 * r2**2 > 0.0
        uv = np.asarray(self.principal_px) + self.focal_px * xn * factor[:, None]
        uv[(cam[:, 2] <= 1e-6) | ~monotone] = np.nan
        out: Floats = uv
        return out

    def visible(self, points_px: npt.ArrayLike) -> npt.NDArray[np.bool_]:
        """Which pixels (N x 2) are inside the still."""
        px = np.atleast_2d(np.asarray(points_px, dtype=float))
        w, h = self.size_px
        with np.errstate(invalid="ignore"):
            inside = (px[:, 0] >= 0) & (px[:, 0] <= w) & (px[:, 1] >= 0) & (px[:, 1] <= h)
        return np.asarray(inside & np.all(np.isfinite(px), axis=1))

    def height_px(self, foot_m: npt.ArrayLike, height_m: float = 1.8) -> float:
        """How tall a player standing at `foot_m` (x, y) looks, in pixels."""
        x, y = np.asarray(foot_m, dtype=float)[:2]
        uv = self.project(np.array([[x, y, 0.0], [x, y, height_m]]))
        return float(np.hypot(*(uv[0] - uv[1])))


def _look(eye: Floats, target: Floats, roll_rad: float) -> Floats:
    """The rotation of a camera at `eye` looking at `target`, rolled by `roll_rad` about its
    axis (0: the horizon level)."""
    forward = target - eye
    forward /= np.linalg.norm(forward)
    right = np.cross(forward, np.array([0.0, 0.0, 1.0]))
    right /= np.linalg.norm(right)
    down = np.cross(forward, right)
    c, s = np.cos(roll_rad), np.sin(roll_rad)
    right, down = c * right + s * down, -s * right + c * down
    return np.vstack([right, down, forward])


# Per kind: eye (x, y, z) ranges, target (x, y) ranges, focal range, |roll| max in degrees,
# k1 range, principal point offset max (px).
_KINDS: dict[str, dict[str, Any]] = {
    "main_high": {
        "eye": ((5.0, 30.0), (-75.0, -60.0), (25.0, 40.0)),
        "target": ((30.0, 42.0), (-12.0, 12.0)),
        "focal": (1400.0, 2200.0),
    },
    "main_low_halfway": {
        "eye": ((-2.0, 2.0), (-50.0, -42.0), (8.0, 12.0)),
        "target": ((30.0, 40.0), (-10.0, 10.0)),
        "focal": (1600.0, 2600.0),
    },
    "penalty_box": {
        "eye": ((30.0, 40.0), (-62.0, -50.0), (14.0, 22.0)),
        "target": ((38.0, 46.0), (-12.0, 12.0)),
        "focal": (1000.0, 1500.0),
    },
    "behind_goal_high": {
        "eye": ((70.0, 80.0), (-15.0, 15.0), (22.0, 32.0)),
        "target": ((30.0, 40.0), (-10.0, 10.0)),
        "focal": (1100.0, 1700.0),
    },
    "far_touchline": {
        "eye": ((15.0, 30.0), (55.0, 65.0), (15.0, 25.0)),
        "target": ((32.0, 42.0), (-10.0, 10.0)),
        "focal": (1300.0, 2000.0),
    },
    "rolled": {
        "eye": ((10.0, 30.0), (-72.0, -58.0), (20.0, 35.0)),
        "target": ((30.0, 42.0), (-10.0, 10.0)),
        "focal": (1300.0, 2100.0),
        "roll": (2.0, 5.0),
    },
    "off_centre": {
        "eye": ((10.0, 30.0), (-72.0, -58.0), (20.0, 35.0)),
        "target": ((30.0, 42.0), (-10.0, 10.0)),
        "focal": (1300.0, 2100.0),
        "principal": (30.0, 60.0),
    },
    "barrel": {
        "eye": ((25.0, 40.0), (-52.0, -44.0), (10.0, 18.0)),
        "target": ((36.0, 46.0), (-8.0, 8.0)),
        "focal": (938.0, 1200.0),
        "k1": (-0.15, -0.08),
    },
    "tight_zoom_box": {
        "eye": ((10.0, 30.0), (-75.0, -60.0), (25.0, 40.0)),
        "target": ((34.0, 38.0), (16.0, 22.0)),
        "focal": (3200.0, 4357.0),
    },
    "tight_zoom_touchline": {
        "eye": ((10.0, 30.0), (-75.0, -60.0), (25.0, 40.0)),
        "target": ((30.0, 40.0), (-32.0, -28.0)),
        "focal": (3000.0, 4000.0),
    },
    "wide_low": {
        "eye": ((20.0, 35.0), (-48.0, -40.0), (8.0, 11.0)),
        "target": ((38.0, 46.0), (-10.0, 10.0)),
        "focal": (938.0, 1300.0),
        "k1": (-0.06, -0.02),
    },
}


def draw_camera(kind: str, rng: np.random.Generator) -> TestCamera:
    """A camera of `kind` (one of CAMERA_KINDS) drawn from its ranges with `rng`; every camera
    also carries a little roll, principal point offset and distortion, as real ones do."""
    spec = _KINDS[kind]

    def uniform(bounds: tuple[float, float]) -> float:
        return float(rng.uniform(bounds[0], bounds[1]))

    eye = np.array([uniform(b) for b in spec["eye"]])
    target = np.array([uniform(b) for b in spec["target"]] + [0.0])
    roll_deg = uniform(spec.get("roll", (0.0, 0.5))) * rng.choice([-1.0, 1.0])
    offset = uniform(spec.get("principal", (0.0, 8.0)))
    angle = float(rng.uniform(0.0, 2 * np.pi))
    w, h = SIZE_PX
    principal = (w / 2 + offset * np.cos(angle), h / 2 + offset * np.sin(angle))
    k1 = uniform(spec.get("k1", (-0.01, 0.0)))
    # A k2 term of the opposite sign, as fitted broadcast lenses show.
    k2 = -0.2 * k1 * float(rng.uniform(0.5, 1.5))
    return TestCamera(
        kind=kind,
        eye_m=(float(eye[0]), float(eye[1]), float(eye[2])),
        rotation=_look(eye, target, np.radians(roll_deg)),
        focal_px=uniform(spec["focal"]),
        principal_px=(float(principal[0]), float(principal[1])),
        k1=k1,
        k2=k2,
        size_px=SIZE_PX,
    )


def pitch_points_m() -> dict[str, Floats]:
    """The named points of the markings of the half attacked (x > 0) and the halfway line, in
    3D (z = 0 on the ground; the goalposts' tops at the crossbar's height)."""
    pa_x = HALF_L - PENALTY_DEPTH_M
    ga_x = HALF_L - GOAL_AREA_DEPTH_M
    spot_x = HALF_L - PENALTY_MARK_M
    arc_dy = float(np.sqrt(CIRCLE_M**2 - (pa_x - spot_x) ** 2))
    ground = {
        "corner_left": (HALF_L, HALF_W),
        "corner_right": (HALF_L, -HALF_W),
        "halfway_left": (0.0, HALF_W),
        "halfway_right": (0.0, -HALF_W),
        "centre_spot": (0.0, 0.0),
        "penalty_goal_left": (HALF_L, PENALTY_HALF_WIDTH_M),
        "penalty_goal_right": (HALF_L, -PENALTY_HALF_WIDTH_M),
        "penalty_front_left": (pa_x, PENALTY_HALF_WIDTH_M),
        "penalty_front_right": (pa_x, -PENALTY_HALF_WIDTH_M),
        "goal_area_goal_left": (HALF_L, GOAL_AREA_HALF_WIDTH_M),
        "goal_area_goal_right": (HALF_L, -GOAL_AREA_HALF_WIDTH_M),
        "goal_area_front_left": (ga_x, GOAL_AREA_HALF_WIDTH_M),
        "goal_area_front_right": (ga_x, -GOAL_AREA_HALF_WIDTH_M),
        "penalty_mark": (spot_x, 0.0),
        "arc_left": (pa_x, arc_dy),
        "arc_right": (pa_x, -arc_dy),
        "post_left": (HALF_L, GOAL_HALF_WIDTH_M),
        "post_right": (HALF_L, -GOAL_HALF_WIDTH_M),
    }
    out = {name: np.array([x, y, 0.0]) for name, (x, y) in ground.items()}
    out["post_top_left"] = np.array([HALF_L, GOAL_HALF_WIDTH_M, GOAL_HEIGHT_M])
    out["post_top_right"] = np.array([HALF_L, -GOAL_HALF_WIDTH_M, GOAL_HEIGHT_M])
    return out


def pitch_lines_m() -> dict[str, tuple[Floats, Floats]]:
    """The straight markings as named segments (start, end), in 3D on the ground."""
    p = pitch_points_m()
    return {
        "halfway": (p["halfway_right"], p["halfway_left"]),
        "touchline_left": (p["halfway_left"], p["corner_left"]),
        "touchline_right": (p["halfway_right"], p["corner_right"]),
        "goal_line": (p["corner_right"], p["corner_left"]),
        "penalty_front": (p["penalty_front_right"], p["penalty_front_left"]),
        "penalty_side_left": (p["penalty_front_left"], p["penalty_goal_left"]),
        "penalty_side_right": (p["penalty_front_right"], p["penalty_goal_right"]),
        "goal_area_front": (p["goal_area_front_right"], p["goal_area_front_left"]),
        "goal_area_side_left": (p["goal_area_front_left"], p["goal_area_goal_left"]),
        "goal_area_side_right": (p["goal_area_front_right"], p["goal_area_goal_right"]),
    }
