"""`audit_match`: the audit of one loaded match, by the kind of positions it has."""

from __future__ import annotations

from collections.abc import Callable

from varroom.audit.model import Audit
from varroom.match.tracking import MatchTracking

# Called with (done, total, what) as the audit goes; the CLI draws a progress bar from it.
Progress = Callable[[int, int, str], None]


def _silent(done: int, total: int, what: str) -> None:
    """No progress to show."""


def audit_match(match: MatchTracking, progress: Progress = _silent) -> Audit:
    """Every offside incident in a match, and the officials' calls, matched by time.

    Freeze frames (one frame per event, no frame rate) are judged event by event; continuous
    tracking is cut into moments of play first.
    """
    if match.frame_rate_hz is None:
        from varroom.audit.freeze_frames import audit_freeze_frames

        return audit_freeze_frames(match, progress)
    from varroom.audit.tracking import audit_tracking

    return audit_tracking(match, progress)
