"""Planted ball-line moments (Laws 9 and 10) with their truth, over a generated period.

Across the line, the ball's nearest point follows a parabola (`CURL_MPS2` back towards the
field: a curling or spinning ball), along it a straight line at constant speed; its peak
past the line's outer edge is the planted margin. The ball is on the field for
`APPROACH_S` either side of the peak, so play goes on after it; nothing records a stoppage.

- `OUT_OVER` / `OUT_SHORT`: a touchline, or a goal line outside the posts, by 1-30 mm over
  (a frame shows it: the peak falls on a frame) or short;
- `GOAL_OVER` / `GOAL_SHORT`: the goal line between the posts, by 1-30 mm, the ball then
  cleared back into play;
- `CURL_OUT`: over between two frames only: the peak falls midway between them and every
  sample shows the ball short (at 25 Hz a curl can stay over for about 2 mm);
- `OUT_THEN_GOAL`: a cut-back from over the goal line outside the posts, by 1-30 mm, then
  the ball straight into the goal: a goal that follows a ball out of play.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

import numpy as np
import numpy.typing as npt

from varroom.model.ball_line import Line
from varroom.model.measures import BALL_RADIUS_M
from varroom.model.situation import Pitch

Floats = npt.NDArray[np.float64]

BALL_LINE_S = 6.0
HIDDEN_S = 1.0  # the ball unseen at each end of the scene
APPROACH_S = 0.8
CURL_MPS2 = 10.0
MARGIN_M = (0.001, 0.030)  # issue 11: over or short by 1-30 mm
ALONG_MPS = 2.0
INTO_GOAL_MPS = 15.0


class BallLinePlant(Enum):
    OUT_OVER = "out_over"
    OUT_SHORT = "out_short"
    GOAL_OVER = "goal_over"
    GOAL_SHORT = "goal_short"
    CURL_OUT = "curl_out"
    OUT_THEN_GOAL = "out_then_goal"

    @property
    def out(self) -> bool:
        """Whether the ball was wholly out of play while play went on (a missed ball-out)."""
        return self in (
            BallLinePlant.OUT_OVER,
            BallLinePlant.GOAL_OVER,
            BallLinePlant.CURL_OUT,
            BallLinePlant.OUT_THEN_GOAL,
        )

    @property
    def goal_mouth(self) -> bool:
        """Whether the moment is at the goal line between the posts (a goal-line moment)."""
        return self in (BallLinePlant.GOAL_OVER, BallLinePlant.GOAL_SHORT)


@dataclass(frozen=True, slots=True)
class PlantedBallLine:
    kind: BallLinePlant
    period: int
    t_s: float  # the ball's peak past (or towards) the line
    line: Line
    margin_m: float  # the peak's nearest point past the line's outer edge: > 0 wholly over
    goal_t_s: float | None = None  # OUT_THEN_GOAL: when the ball crosses into the goal


def plant_ball_line(
    kind: BallLinePlant,
    period: int,
    start_s: float,
    t_s: Floats,
    ball_m: Floats,
    rng: np.random.Generator,
) -> PlantedBallLine:
    """Write one ball-line scene into a period's ball (in place) and return its truth."""
    pitch = Pitch()
    rate = 1.0 / float(t_s[1] - t_s[0])
    first = np.ceil((start_s + HIDDEN_S + APPROACH_S) * rate)
    # On a frame, or (a curl) midway between two.
    peak_s = float((first + (0.5 if kind is BallLinePlant.CURL_OUT else 0.0)) / rate)
    if kind is BallLinePlant.CURL_OUT:
        # Over at the peak, short at the frames half a period either side.
        drop = 0.5 * CURL_MPS2 * (0.5 / rate) ** 2
        margin = float(rng.uniform(0.1, 0.9)) * drop
    else:
        margin = float(rng.uniform(*MARGIN_M))
        if kind in (BallLinePlant.OUT_SHORT, BallLinePlant.GOAL_SHORT):
            margin = -margin
    side = float(rng.choice([-1.0, 1.0]))
    if kind.goal_mouth:
        line = Line.GOAL_LINE_PLUS_X if side > 0 else Line.GOAL_LINE_MINUS_X
        along0 = float(rng.uniform(-1.5, 1.5))
    elif kind is BallLinePlant.OUT_THEN_GOAL or (
        kind is not BallLinePlant.OUT_SHORT and rng.uniform() < 0.5
    ):
        line = Line.GOAL_LINE_PLUS_X if side > 0 else Line.GOAL_LINE_MINUS_X
        along0 = float(rng.choice([-1.0, 1.0])) * float(rng.uniform(8.0, 15.0))
    else:
        line = Line.TOUCHLINE_PLUS_Y if side > 0 else Line.TOUCHLINE_MINUS_Y
        along0 = float(rng.uniform(-40.0, 40.0))
    edge = pitch.half_length_m if line.is_goal_line else pitch.half_width_m
    end_s = start_s + BALL_LINE_S
    inside = (t_s >= start_s) & (t_s < end_s)
    ball_m[inside] = np.nan
    path = inside & (t_s >= peak_s - APPROACH_S) & (t_s <= peak_s + APPROACH_S)
    dt = t_s[path] - peak_s
    across = line.sign * (edge + BALL_RADIUS_M + margin - 0.5 * CURL_MPS2 * dt**2)
    # Along the line towards the middle of the goal or the pitch.
    along = along0 - np.sign(along0) * ALONG_MPS * dt
    axis = line.axis
    ball_m[path, axis] = across
    ball_m[path, 1 - axis] = along
    ball_m[path, 2] = BALL_RADIUS_M
    goal_t_s = None
    if kind is BallLinePlant.OUT_THEN_GOAL:
        goal_t_s = _into_goal(t_s, ball_m, inside, peak_s, line, edge)
    return PlantedBallLine(kind, period, peak_s, line, margin, goal_t_s)


def _into_goal(
    t_s: Floats,
    ball_m: Floats,
    inside: npt.NDArray[np.bool_],
    peak_s: float,
    line: Line,
    edge: float,
) -> float:
    """From where the cut-back came back into the field, straight into the goal; the time
    the ball is wholly over the goal line."""
    last = np.flatnonzero(inside & (t_s <= peak_s + APPROACH_S))[-1]
    start = ball_m[last, :2].copy()
    to = np.array([line.sign * (edge + 1.0), 0.0])
    t0 = float(t_s[last])
    t1 = t0 + float(np.hypot(*(to - start))) / INTO_GOAL_MPS
    flight = inside & (t_s > t0) & (t_s <= t1)
    s = ((t_s[flight] - t0) / (t1 - t0))[:, None]
    ball_m[flight, :2] = start + (to - start) * s
    ball_m[flight, 2] = BALL_RADIUS_M
    rest = inside & (t_s > t1) & (t_s <= t1 + 0.4)
    ball_m[rest] = (*to, BALL_RADIUS_M)
    # Wholly over once the centre is a radius past the line's outer edge.
    share = (edge + BALL_RADIUS_M - abs(start[0])) / (abs(to[0]) - abs(start[0]))
    return t0 + (t1 - t0) * float(share)
