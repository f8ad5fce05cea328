"""Laws 9 and 10 in a whole match: the ball-outs play went on after (missed ball-outs) and
the goal-line moments of `varroom.audit.ball_out`, as incidents listed beside offside and
penalty kicks, and every goal scored after a ball out of play earlier in the same play.

A missed ball-out is judged as a ball line on its frames and `WINDOW_FRAMES` either side
(the path into and out of it). "Earlier in the same play" means: in the same period, after
the last stoppage before the goal (an event that stops play, a ball-out play did not go on
after, or the ball unseen for `GAP_S` or more), so a ball out of play before the restart
that followed it is not held against a goal.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import Any

import numpy as np

from varroom.audit.ball_out import STOPPAGES, BallOut, BallOutScan, GoalLineMoment
from varroom.audit.model import IncidentKind, clock
from varroom.audit.phases import GAP_S
from varroom.engine.ball_line import judge_ball_line
from varroom.engine.ball_line_verdict import BallLineVerdict
from varroom.match.tracking import MatchTracking
from varroom.model.ball_line import (
    BallLineCase,
    BallLineDecision,
    BallTrack,
    BallTrackingSource,
)
from varroom.model.measures import BALL_RADIUS_M
from varroom.model.noise_defaults import NoiseDefaults
from varroom.profiles import Profile

WINDOW_FRAMES = 3


class BallLineWhat(Enum):
    MISSED_BALL_OUT = "missed_ball_out"  # wholly out of play, and play went on
    GOAL_LINE = "goal_line"  # the ball within a metre of the goal line between the posts


@dataclass(frozen=True, slots=True)
class BallLineIncident:
    what: BallLineWhat
    period: int
    t_s: float  # the first frame of the moment
    start_frame: int
    end_frame: int
    verdict: BallLineVerdict
    case: BallLineCase  # the ball line judged, as a file would give it (the review room queues it)
    between_frames: bool = False  # a ball-out only the path between two frames shows
    # A goal: the earlier missed ball-out in the same play (its t_s), if any.
    out_before_goal_t_s: float | None = None

    @property
    def kind(self) -> IncidentKind:
        return IncidentKind.BALL_LINE

    @property
    def goal_after_ball_out(self) -> bool:
        return self.out_before_goal_t_s is not None

    @property
    def file_tag(self) -> str:
        """What its file's name says of it besides the clock: `-goal-line`, `-missed-ball-out`."""
        return "-" + self.what.value.replace("_", "-")

    @property
    def alert_decision(self) -> str:
        """Its `decision` in a live alert: `ball_out` (a missed ball-out) or `goal_line`."""
        return "ball_out" if self.what is BallLineWhat.MISSED_BALL_OUT else "goal_line"

    def case_file(self) -> dict[str, Any]:
        """The ball line in its format, as `varroom check` judges it."""
        from varroom.formats.ball_line_json import ball_line_to_dict

        return ball_line_to_dict(self.case)

    def alert_fields(self, case: dict[str, Any]) -> dict[str, Any]:
        """What a live alert says of the ball line besides when (docs/formats/frames.md)."""
        return {
            "between_frames": self.between_frames,
            "out_before_goal_t": None
            if self.out_before_goal_t_s is None
            else round(self.out_before_goal_t_s, 3),
            "verdict": self.verdict.to_dict(),
            "ball_line": case,
        }

    def said(self) -> str:
        """The call in a line, as `varroom live` prints it."""
        what = (
            "ball out of play, play went on"
            if self.what is BallLineWhat.MISSED_BALL_OUT
            else "goal line"
        )
        return f"{what}: {self.verdict.decision.value}"

    def to_dict(self) -> dict[str, Any]:
        return {
            "kind": self.kind.value,
            "what": self.what.value,
            "period": self.period,
            "t_s": round(self.t_s, 3),
            "clock": clock(self.period, self.t_s),
            "between_frames": self.between_frames,
            "goal_after_ball_out": self.goal_after_ball_out,
            "out_before_goal_t_s": None
            if self.out_before_goal_t_s is None
            else round(self.out_before_goal_t_s, 3),
            "verdict": self.verdict.to_dict(),
        }


def ball_line_incidents(
    match: MatchTracking, scan: BallOutScan, profile: Profile
) -> tuple[BallLineIncident, ...]:
    """Every missed ball-out and goal-line moment of a match, judged, in time order."""
    found = [missed_incident(match, out, profile) for out in scan.missed]
    found += [goal_line_incident(match, scan, moment) for moment in scan.goal_line]
    return tuple(sorted(found, key=lambda i: (i.period, i.t_s, i.what.value)))


def missed_incident(match: MatchTracking, out: BallOut, profile: Profile) -> BallLineIncident:
    """A ball-out play went on after, judged on its frames."""
    case = case_of_frames(match, out.start_frame, out.end_frame, profile.noise)
    return BallLineIncident(
        BallLineWhat.MISSED_BALL_OUT,
        out.period,
        out.t_s,
        out.start_frame,
        out.end_frame,
        judge_ball_line(case, profile.policy),
        case,
        between_frames=out.between_frames,
    )


def goal_line_incident(
    match: MatchTracking, scan: BallOutScan, moment: GoalLineMoment
) -> BallLineIncident:
    """A goal-line moment; a goal with the missed ball-out of `scan` earlier in its play."""
    verdict = moment.verdict
    earlier = None
    if verdict.decision is BallLineDecision.GOAL:
        earlier = out_before(match, scan, moment.period, moment.start_frame)
    return BallLineIncident(
        BallLineWhat.GOAL_LINE,
        moment.period,
        float(match.t_s[moment.start_frame]),
        moment.start_frame,
        moment.end_frame,
        verdict,
        moment.case,
        out_before_goal_t_s=None if earlier is None else earlier.t_s,
    )


def case_of_frames(
    match: MatchTracking, start: int, end: int, noise_defaults: NoiseDefaults
) -> BallLineCase:
    """The ball line of frames `start`..`end` of one period and `WINDOW_FRAMES` either side."""
    period = match.period[start]
    lo, hi = max(start - WINDOW_FRAMES, 0), min(end + WINDOW_FRAMES + 1, len(match.t_s))
    frames = np.arange(lo, hi)
    frames = frames[(match.period[frames] == period) & np.isfinite(match.ball_m[frames, :2]).all(1)]
    xyz = match.ball_m[frames]
    xyz = np.column_stack([xyz[:, :2], np.nan_to_num(xyz[:, 2], nan=BALL_RADIUS_M)])
    source = BallTrackingSource.nearest(match.frame_rate_hz or 25.0)
    return BallLineCase(
        BallTrack(match.t_s[frames], xyz),
        pitch=match.pitch,
        ball_radius_m=BALL_RADIUS_M,
        noise=noise_defaults.ball(source),
    )


def out_before(match: MatchTracking, scan: BallOutScan, period: int, frame: int) -> BallOut | None:
    """The latest missed ball-out before `frame` in the same play (module docstring)."""
    earlier = [o for o in scan.ball_outs if o.period == period and o.end_frame < frame]
    if not earlier or not earlier[-1].played_on:
        return None
    out, goal_s = earlier[-1], float(match.t_s[frame])
    stopped = any(
        e.period == period and e.kind in STOPPAGES and out.t_s < e.t_s <= goal_s
        for e in match.events
    )
    return None if stopped or _unseen_gap(match, out.end_frame, frame) else out


def _unseen_gap(match: MatchTracking, start: int, end: int) -> bool:
    """Whether the ball was unseen for `GAP_S` or more between two frames."""
    seen = np.flatnonzero(np.isfinite(match.ball_m[start : end + 1, 0]))
    times = match.t_s[start : end + 1][seen]
    return len(times) < 2 or bool(np.any(np.diff(times) >= GAP_S))
