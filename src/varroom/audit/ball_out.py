"""A whole match's ball track against Laws 9.1 and 10.1: every moment the tracked ball was
wholly out of play while play went on, and every goal-line moment, each judged.

One vectorised pass over the match per period: the ball's nearest point past each line at every
frame, and, from the local quadratics of `varroom.engine.ball_line_path`, between every two
frames. Runs of frames wholly out are ball-outs; a ball-out counts as *played on* (a missed
ball-out) when the ball came back onto the field within `resume_s` and no event records a
stoppage in that time. Runs of frames with the ball within a metre of a goal line between the
posts are goal-line moments, each judged as a ball line.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from varroom.engine.ball_line import judge_ball_line
from varroom.engine.ball_line_path import LINES, between_samples, fit_path, past_lines_m
from varroom.engine.ball_line_verdict import BallLineVerdict
from varroom.law.ball_line import wholly_over
from varroom.match.tracking import EventKind, MatchTracking
from varroom.model.ball_line import (
    BallLineCase,
    BallTrack,
    BallTrackingSource,
    Goal,
    Line,
)
from varroom.model.measures import BALL_RADIUS_M
from varroom.profiles import Profile

Ints = npt.NDArray[np.intp]

# Events after which the ball is out of play or play has been stopped (Law 9.1).
STOPPAGES = frozenset(
    {
        EventKind.BALL_OUT,
        EventKind.THROW_IN,
        EventKind.CORNER_KICK,
        EventKind.GOAL_KICK,
        EventKind.FREE_KICK,
        EventKind.KICK_OFF,
        EventKind.PENALTY_KICK,
        EventKind.FOUL,
        EventKind.OFFSIDE,
    }
)
DEFAULT_GOAL = Goal()
GOAL_LINE_REACH_M = 1.0  # a goal-line moment: the ball's nearest point within 1 m of the line


@dataclass(frozen=True, slots=True)
class BallOut:
    """A run of frames (or the path between two frames) with the ball wholly out of play."""

    period: int
    start_frame: int  # first frame of the run (between frames: the frame after the crossing)
    end_frame: int  # last frame of the run, inclusive
    t_s: float
    line: Line
    margin_m: float  # how far past the line the ball's nearest point got
    between_frames: bool  # no frame shows it out: only the path between two frames
    back_in_s: float | None  # from the first frame out until a frame on the field again
    played_on: bool  # back on the field within resume_s and no stoppage recorded: missed


@dataclass(frozen=True, slots=True)
class GoalLineMoment:
    """A run of frames with the ball within a metre of a goal line between the posts, judged."""

    period: int
    start_frame: int
    end_frame: int
    verdict: BallLineVerdict
    case: BallLineCase  # the ball line judged (the review room queues it as a file)


@dataclass(frozen=True, slots=True)
class BallOutScan:
    ball_outs: tuple[BallOut, ...]
    goal_line: tuple[GoalLineMoment, ...]

    @property
    def missed(self) -> tuple[BallOut, ...]:
        """The ball-outs play went on after."""
        return tuple(out for out in self.ball_outs if out.played_on)


def scan_ball_out(
    match: MatchTracking,
    profile: Profile,
    ball_radius_m: float = BALL_RADIUS_M,
    goal: Goal = DEFAULT_GOAL,
    resume_s: float = 2.0,
) -> BallOutScan:
    """Every ball-out and goal-line moment of a match's ball track (frames with the ball unseen
    are never out); goal-line moments judged as `profile` applies Laws 9 and 10."""
    outs: list[BallOut] = []
    moments: list[GoalLineMoment] = []
    for period in np.unique(match.period):
        frames = np.flatnonzero(match.period == period)
        if len(frames) < 3:
            continue
        outs += _ball_outs(match, int(period), frames, ball_radius_m, resume_s)
        moments += _goal_line(match, int(period), frames, ball_radius_m, goal, profile)
    return BallOutScan(tuple(outs), tuple(moments))


def _runs(mask: npt.NDArray[np.bool_]) -> tuple[Ints, Ints]:
    """Starts and inclusive ends of the runs of True in `mask`."""
    edges = np.diff(np.concatenate([[0], mask.astype(np.int8), [0]]))
    return np.flatnonzero(edges == 1), np.flatnonzero(edges == -1) - 1


def _run_max(values: npt.NDArray[np.float64], starts: Ints, ends: Ints) -> npt.NDArray[np.float64]:
    """(R, 4): the largest value of each run, NaN read as -inf."""
    padded = np.vstack([np.nan_to_num(values, nan=-np.inf), np.full((1, values.shape[1]), -np.inf)])
    bounds = np.column_stack([starts, ends + 1]).ravel()
    return np.asarray(np.maximum.reduceat(padded, bounds, axis=0)[::2], dtype=np.float64)


def _ball_outs(
    match: MatchTracking, period: int, frames: Ints, radius: float, resume_s: float
) -> list[BallOut]:
    t = match.t_s[frames]
    track = BallTrack(t, match.ball_m[frames])
    past = past_lines_m(track.xyz_m, match.pitch, radius)  # NaN where unseen: never over
    _, _, _, vertex = between_samples(fit_path(track), past)
    # A frame is out when it shows the ball wholly over, or when the path peaks wholly over
    # between it and its neighbours.
    furthest = np.fmax(past, np.pad(vertex, ((1, 1), (0, 0)), constant_values=-np.inf))
    out = np.asarray(np.any(wholly_over(np.nan_to_num(furthest, nan=-np.inf)), axis=1))
    starts, ends = _runs(out)
    if not len(starts):
        return []
    reach = _run_max(furthest, starts, ends)
    shown = _run_max(past, starts, ends).max(axis=1) > 0
    # The first frame after each run with the ball seen on the field again.
    on_field = np.flatnonzero(np.isfinite(past).all(axis=1) & ~out)
    back = np.searchsorted(on_field, ends)
    returned = back < len(on_field)
    back_in = np.full(len(starts), np.inf)  # never back (no frame on the field after it)
    back_in[returned] = t[on_field[back[returned]]] - t[starts[returned]]
    # A stoppage recorded from a second before the ball went out until resume_s after it came
    # back means play did not go on.
    stops = np.sort([e.t_s for e in match.events if e.period == period and e.kind in STOPPAGES])
    until = t[starts] + np.where(returned, back_in, 0.0) + resume_s
    stopped = np.searchsorted(stops, until, "right") > np.searchsorted(stops, t[starts] - 1.0)
    played_on = returned & (back_in <= resume_s) & ~stopped
    lines = reach.argmax(axis=1)
    return [
        BallOut(
            period=period,
            start_frame=int(frames[starts[i]]),
            end_frame=int(frames[ends[i]]),
            t_s=float(t[starts[i]]),
            line=LINES[lines[i]],
            margin_m=float(reach[i, lines[i]]),
            between_frames=not shown[i],
            back_in_s=float(back_in[i]) if returned[i] else None,
            played_on=bool(played_on[i]),
        )
        for i in range(len(starts))
    ]


def _goal_line(
    match: MatchTracking, period: int, frames: Ints, radius: float, goal: Goal, profile: Profile
) -> list[GoalLineMoment]:
    t, xyz = match.t_s[frames], match.ball_m[frames]
    past = past_lines_m(xyz, match.pitch, radius)[:, :2]  # the two goal lines
    near = (np.fmax(past[:, 0], past[:, 1]) > -GOAL_LINE_REACH_M) & (
        np.abs(xyz[:, 1]) <= goal.width_m / 2
    )
    near &= ~(xyz[:, 2] > goal.height_m)  # an unknown height counts as under the bar
    starts, ends = _runs(near)
    source = BallTrackingSource.nearest(match.frame_rate_hz or 25.0)
    noise = profile.noise.ball(source)
    moments = []
    for start, end in zip(starts, ends, strict=True):
        # A frame either side, so the path into and out of the moment is fitted too.
        lo, hi = max(start - 1, 0), min(end + 2, len(t))
        seen = np.isfinite(xyz[lo:hi]).all(axis=1)
        if seen.sum() < 2:
            continue
        window = np.column_stack([xyz[lo:hi, :2], np.nan_to_num(xyz[lo:hi, 2], nan=radius)])
        case = BallLineCase(
            BallTrack(t[lo:hi][seen], window[seen]),
            pitch=match.pitch,
            goal=goal,
            ball_radius_m=radius,
            noise=noise,
        )
        moments.append(
            GoalLineMoment(
                period,
                int(frames[start]),
                int(frames[end]),
                judge_ball_line(case, profile.policy),
                case,
            )
        )
    return moments
