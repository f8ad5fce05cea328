"""The Laws besides offside that a match audit checks from tracking: penalty kicks (Law 14,
`varroom.audit.penalties`) and the ball over the line (Laws 9 and 10,
`varroom.audit.ball_lines`), added to an offside audit."""

from __future__ import annotations

import dataclasses

from varroom.audit.ball_lines import ball_line_incidents
from varroom.audit.ball_out import BallOutScan
from varroom.audit.model import Audit
from varroom.audit.moments import Moments
from varroom.audit.penalties import find_penalties
from varroom.engine.explain import counted
from varroom.match.tracking import MatchTracking
from varroom.model.noise import Tracking
from varroom.profiles import Profile


def with_match_laws(
    audit: Audit,
    match: MatchTracking,
    moments: Moments,
    tracking: Tracking,
    scan: BallOutScan,
    profile: Profile,
) -> Audit:
    """The audit with every penalty kick and ball-line incident of the match (`scan`: its
    ball-out scan), as `profile` applies the Laws."""
    penalties, notes = find_penalties(match, moments, tracking, scan, profile)
    ball_lines = ball_line_incidents(match, scan, profile)
    goals_after_out = sum(b.goal_after_ball_out for b in ball_lines)
    counts = (
        f"{counted(len(penalties), 'penalty kick')} judged; "
        f"{counted(len(scan.missed), 'ball', 'balls')} wholly out of play while play went on; "
        f"{counted(len(scan.goal_line), 'goal-line moment')}; "
        f"{counted(goals_after_out, 'goal')} after a ball out of play earlier in the same play."
    )
    return dataclasses.replace(
        audit,
        penalties=penalties,
        ball_lines=ball_lines,
        notes=(*audit.notes, counts, *notes),
    )
