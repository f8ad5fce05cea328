"""From a still's marks to a verdict: calibrate, map the marks to the pitch, build the situation,
judge it, and carry the pixel error into the margin.

The margin's standard error is linearised (docs/still.md): each mapped depth moves with the
camera's parameters (whose covariance the calibration gives) and with its own mark's pixels
(independent, sigma in each coordinate: the larger of the stated `pixel_sd` and what the
landmarks' residuals show, `Calibration.landmark_sd_px`), so

    var(margin) = g^T C g + sigma^2 (|d_a/dp|^2 + |d_l/dp|^2),   g = d_a/dtheta - d_l/dtheta

for the attacker a and whatever sets the line l. The camera's part is shared by every mark (two
players side by side err together), which the engine's independent noise model cannot say; so
the situation's noise is set so that the engine's own standard error of the margin that decides
equals this one, and P(offside position) and every policy then follow from the engine as for any
situation.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np

from varroom.engine.judge import DEFAULT_SETTINGS, judge
from varroom.engine.judgement import LineSetter
from varroom.engine.policy import IFAB, Policy
from varroom.engine.verdict import Verdict
from varroom.errors import InputError
from varroom.formats.situation_json import situation_from_dict
from varroom.model.settings import LawSettings
from varroom.model.situation import Action, Situation
from varroom.still.calibrate import Calibration, Method, calibrate
from varroom.still.camera import Floats
from varroom.still.marks import BALL, StillMarks, marks_from_dict

# Past this the still cannot settle anything: the margin's 95% interval would be 4 m wide.
MAX_MARGIN_SE_M = 1.0
_OFF_PITCH_M = 5.0  # a mark mapped further than this outside the pitch was misplaced


@dataclass(frozen=True, slots=True)
class StillVerdict:
    """Everything `varroom still` prints and draws (and what the review room will show)."""

    marks: StillMarks
    calibration: Calibration
    points_m: dict[str, tuple[float, float]]  # each mark (and the ball, key BALL) on the pitch
    situation_json: dict[str, Any]
    situation: Situation
    verdict: Verdict
    margin_se_m: float | None  # the propagated SE of the margin the verdict is about

    def to_dict(self) -> dict[str, Any]:
        calibration = self.calibration
        return {
            **self.verdict.to_dict(),
            "calibration": {
                "landmarks": len(calibration.residuals_px),
                "reprojection_px": round(calibration.reprojection_px, 2),
                "method": calibration.method.value,
                "landmark_sd_px": round(calibration.landmark_sd_px, 2),
                "pixel_sd": self.marks.pixel_sd,
            },
            "situation": self.situation_json,
        }


def still_verdict(
    data: Any, size: tuple[int, int], source: str = "<marks>", policy: Policy = IFAB
) -> StillVerdict:
    """A pure function from a still's size and its marks (parsed JSON) to the verdict: what the
    review room calls when a reviewer moves a mark."""
    return judge_still(marks_from_dict(data, size, source), policy)


def judge_still(
    marks: StillMarks, policy: Policy = IFAB, settings: LawSettings = DEFAULT_SETTINGS
) -> StillVerdict:
    calibration = calibrate(marks.landmarks, marks.size, marks.pixel_sd, marks.source)
    keys, pixels, heights = _pixels(marks, calibration)
    mapped = calibration.ground(pixels, heights)
    for key, point in zip(keys, mapped, strict=True):
        _check_mapped(marks, key, point)
    points = {key: (float(p[0]), float(p[1])) for key, p in zip(keys, mapped, strict=True)}
    d_theta, d_pixel = calibration.ground_jacobians(pixels, heights)
    sign = marks.direction.sign
    spread = _Spread(
        {key: sign * d_theta[k, 0] for k, key in enumerate(keys)},
        {key: sign * d_pixel[k, 0] for k, key in enumerate(keys)},
        calibration.covariance,
        # The players were clicked by the same hand on the same picture as the landmarks:
        # the error the landmarks' residuals show is theirs too, never less than pixel_sd.
        calibration.landmark_sd_px,
    )
    # Judge once to learn which margin decides, then again with the noise that margin has.
    first = judge(
        situation_from_dict(_situation(marks, points, 0.0, 0.0), marks.source), settings, policy
    )
    se, position_sd, ball_sd = _noise(first, marks, spread)
    if se is not None and se > MAX_MARGIN_SE_M:
        raise InputError(
            marks.source,
            "$.landmarks",
            f"the camera is too poorly determined to judge: the margin's standard error would "
            f"be {se:.2f} m (limit {MAX_MARGIN_SE_M:g} m); mark more landmarks, spread over the "
            "picture and near the players",
        )
    data = _situation(marks, points, position_sd, ball_sd)
    situation = situation_from_dict(data, marks.source)
    return StillVerdict(
        marks, calibration, points, data, situation, judge(situation, settings, policy), se
    )


def _pixels(marks: StillMarks, calibration: Calibration) -> tuple[list[str], Floats, Floats]:
    items = marks.pixels()
    for mark in items.values():
        if mark.height_m and calibration.method is Method.HOMOGRAPHY:
            raise InputError(
                marks.source,
                f"{mark.where}.height_m",
                "a mark above the ground needs a full camera: add landmarks off the ground "
                "(the goalposts' tops, the crossbar's corners), six or more in all",
            )
    keys = list(items)
    pixels = np.array([items[k].pixel for k in keys], dtype=float)
    heights = np.array([items[k].height_m for k in keys], dtype=float)
    return keys, pixels, heights


def _check_mapped(marks: StillMarks, key: str, point: Floats) -> None:
    mark = marks.pixels()[key]
    if not np.all(np.isfinite(point)):
        raise InputError(
            marks.source, f"{mark.where}.pixel", "above the horizon: it is not on the ground"
        )
    x, y = float(point[0]), float(point[1])
    pitch = marks.pitch
    if abs(x) > pitch.half_length_m + _OFF_PITCH_M or abs(y) > pitch.half_width_m + _OFF_PITCH_M:
        raise InputError(
            marks.source,
            f"{mark.where}.pixel",
            f"maps to [{x:.1f}, {y:.1f}] m, off the pitch: a mark or a landmark is misplaced",
        )


@dataclass(frozen=True, slots=True)
class _Spread:
    """Each mapped depth's sensitivity to the camera (theta) and to its own pixel."""

    by_theta: dict[str, Floats]
    by_pixel: dict[str, Floats]
    covariance: Floats
    pixel_sd: float

    def var(self, a: str, b: str | None = None) -> float:
        """var(depth a - depth b), or var(depth a) with no b."""
        g = self.by_theta[a] - (self.by_theta[b] if b is not None else 0.0)
        own = float(self.by_pixel[a] @ self.by_pixel[a])
        if b is not None:
            own += float(self.by_pixel[b] @ self.by_pixel[b])
        return float(g @ self.covariance @ g) + self.pixel_sd**2 * own


def _noise(
    verdict: Verdict, marks: StillMarks, spread: _Spread
) -> tuple[float | None, float, float]:
    """The propagated SE of the margin that decides, and the engine's position and ball SD that
    reproduce it (see the module's docstring)."""
    ball_sd = math.sqrt(spread.var(BALL)) if BALL in spread.by_theta else 0.0
    player = verdict.offender or verdict.nearest_attacker
    judgement = verdict.judgement
    if player is None or judgement is None or judgement.line is None:
        # Nothing decides: each player's own depth error.
        worst = max(math.sqrt(spread.var(key)) for key in marks.marks)
        return None, worst, ball_sd
    line = judgement.line
    if line.set_by is LineSetter.SECOND_LAST_OPPONENT and line.second_last is not None:
        se = math.sqrt(spread.var(player, line.second_last))
        return se, se / math.sqrt(2), ball_sd
    if line.set_by is LineSetter.BALL and BALL in spread.by_theta:
        se = math.sqrt(spread.var(player, BALL))
        ball_sd = min(ball_sd, se)
        return se, math.sqrt(se**2 - ball_sd**2), ball_sd
    se = math.sqrt(spread.var(player))  # the halfway line, or a ball given on the pitch
    return se, se, ball_sd


def _situation(
    marks: StillMarks, points: dict[str, tuple[float, float]], position_sd: float, ball_sd: float
) -> dict[str, Any]:
    """The situation the marks give, in the situation format."""
    positions = {
        pid: {"x": round(points[pid][0], 4), "y": round(points[pid][1], 4)} for pid in marks.marks
    }
    ball = points.get(BALL, marks.ball_m)
    assert ball is not None
    players = list(marks.raw["players"])
    if marks.touch_player is not None and marks.touch_player not in marks.players:
        players.append({"id": marks.touch_player, "team": marks.attacking_team})
    touches: list[dict[str, Any]] = [
        {
            "t": 0.0,
            "player": marks.touch_player,
            "action": marks.touch_action.value,
            "ball": [round(ball[0], 4), round(ball[1], 4)],
            "positions": positions,
        }
    ]
    if marks.involved is not None:
        # The attacker then played the ball where he stood: the still is one moment, so he is
        # shown there.
        x, y = points[marks.involved]
        touches.append(
            {
                "t": 1.0,
                "player": marks.involved,
                "action": Action.RECEIVE.value,
                "ball": [round(x, 4), round(y, 4)],
                "positions": positions,
            }
        )
    return {
        **{key: marks.raw[key] for key in ("pitch", "attack") if key in marks.raw},
        "players": players,
        "touches": touches,
        # A still is one frame, marked by hand: no timing error, and its own depth error.
        "tracking": {
            "source": "manual",
            "position_sd_m": round(position_sd, 5),
            "ball_sd_m": round(ball_sd, 5),
            "centroid_reach_sd_m": 0.0,
            "timing_sd_s": 0.0,
        },
        "meta": {"source": "still marks", "marks": marks.source},
    }
