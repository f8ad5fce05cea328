"""Restarts seen in tracking: a dead ball played again, named by where it was taken.

The ball is dead (Law 9) while it is wholly over a line, unseen, or lying still (moving
less than `STILL_MPS` over `STILL_WINDOW_S`); a play after it was dead for `DEAD_S` is a
restart. Where the ball was then says which one: the centre
spot (kick-off), a corner (corner kick), a touchline (throw-in), the goal area of the
kicker's own goal (goal kick), anywhere else a free kick. Only the first three exempt the
receiver from offside (Law 11.3), and they are the ones a line or a corner pins down; a
dropped ball or a penalty kick read as a free kick is judged the same way (Law 11.3).
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from varroom.match.tracking import MatchTracking
from varroom.model.measures import GOAL_AREA_DEPTH_M, GOAL_AREA_HALF_WIDTH_M
from varroom.model.situation import Action, Pitch

Floats = npt.NDArray[np.float64]
Bools = npt.NDArray[np.bool_]
Indices = npt.NDArray[np.intp]

DEAD_S = 2.5  # quicker than a throw-in, free kick or corner is taken; longer than a player
# stands still with the ball at his feet
STILL_MPS = 0.5  # slower than this the ball is lying still
STILL_WINDOW_S = 1.0  # judged over this long, so that the tracking's jitter averages out
CENTRE_SPOT_M = 1.5
CORNER_M = 2.0  # the corner arc (1 m) and a little room for the tracking
TOUCHLINE_M = 1.0  # a throw is taken from behind the line, the ball a little inside or out
GOAL_AREA_SLACK_M = 0.5
# A still ball at a line's spot played again is rarely anything else; an assumption, not
# a measurement.
RESTART_CONFIDENCE = 0.9


def in_play_area(ball_xy_m: Floats, pitch: Pitch, ball_radius_m: float) -> Bools:
    """Law 9: the ball is out only when wholly over a line; NaN (unseen) is not in play."""
    return (np.abs(ball_xy_m[..., 0]) <= pitch.half_length_m + ball_radius_m) & (
        np.abs(ball_xy_m[..., 1]) <= pitch.half_width_m + ball_radius_m
    )


def dead_before_s(match: MatchTracking, steps: Indices, ball_radius_m: float) -> Floats:
    """For a play in each of `steps` (the step from frame j to j + 1), how long the ball had
    been dead before it: since the end of the last `STILL_WINDOW_S` in which it stayed in
    play and moved at `STILL_MPS` or more; infinite when there was none since the period
    began. The speed compares the ball's mean positions over the window's two halves: the
    tracking's jitter averages out."""
    assert match.frame_rate_hz is not None
    half = max(1, round(STILL_WINDOW_S * match.frame_rate_hz / 2))
    t_s, period, ball = match.t_s, match.period, match.ball_m[:, :2]
    n_windows = len(t_s) - 2 * half + 1  # frames [k, k + 2 half)
    if n_windows <= 0:
        return np.full(len(steps), np.inf)
    outside = np.concatenate([[0], np.cumsum(~in_play_area(ball, match.pitch, ball_radius_m))])
    # Sums over frames [a, b) read off cumulative sums: of the ball's position and of time.
    total = np.concatenate(
        [np.zeros((1, 3)), np.cumsum(np.column_stack([np.nan_to_num(ball), t_s]), axis=0)]
    )
    first = np.arange(n_windows)
    middle, last = first + half, first + 2 * half
    whole = (outside[last] - outside[first] == 0) & (period[first] == period[last - 1])
    moved = ((total[last] - total[middle]) - (total[middle] - total[first])) / half
    speed = np.hypot(moved[:, 0], moved[:, 1]) / moved[:, 2]
    live = whole & (speed >= STILL_MPS)
    last_live = np.maximum.accumulate(np.where(live, first, -1))
    # Windows that end by the frame before the play: the play's own motion is not 'live'.
    latest = steps + 1 - 2 * half
    before = np.where(latest >= 0, last_live[np.clip(latest, 0, n_windows - 1)], -1)
    found = (before >= 0) & (period[np.maximum(before, 0)] == period[steps])
    return np.where(found, t_s[steps] - t_s[np.maximum(before, 0) + 2 * half - 1], np.inf)


_RESTARTS = (
    Action.KICK_OFF,
    Action.CORNER_KICK,
    Action.THROW_IN,
    Action.GOAL_KICK,
    Action.FREE_KICK,
)


def restart_actions(ball_xy_m: Floats, own_goal_x_m: Floats, pitch: Pitch) -> list[Action]:
    """Which restart each dead ball was, by where it was taken; `own_goal_x_m` is the goal line
    the taker's team defends (a goal kick is taken in its own goal area)."""
    x, y = np.abs(ball_xy_m[:, 0]), np.abs(ball_xy_m[:, 1])
    own_goal_area = (
        np.abs(ball_xy_m[:, 0] - own_goal_x_m) <= GOAL_AREA_DEPTH_M + GOAL_AREA_SLACK_M
    ) & (y <= GOAL_AREA_HALF_WIDTH_M + GOAL_AREA_SLACK_M)
    which = np.select(
        [
            (x <= CENTRE_SPOT_M) & (y <= CENTRE_SPOT_M),
            (x >= pitch.half_length_m - CORNER_M) & (y >= pitch.half_width_m - CORNER_M),
            y >= pitch.half_width_m - TOUCHLINE_M,
            own_goal_area,
        ],
        [0, 1, 2, 3],
        default=4,
    )
    return [_RESTARTS[k] for k in which]
