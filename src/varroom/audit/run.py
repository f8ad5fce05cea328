"""`audit_match`: the audit of one loaded match, by the kind of positions it has."""

from __future__ import annotations

from collections.abc import Sequence

from varroom.audit.model import Audit, Incident, Progress
from varroom.match.tracking import MatchTracking
from varroom.profiles import Profile, ifab


def _silent(done: int, total: int, what: str) -> None:
    """No progress to show."""


def judged_event_by_event(match: MatchTracking) -> bool:
    """The one rule choosing how a match is judged: without a frame rate its frames are
    freeze frames (or it has none, events alone), judged event by event; continuous
    tracking is cut into moments of play first."""
    return match.frame_rate_hz is None


def audit_match(
    match: MatchTracking, progress: Progress = _silent, profile: Profile | None = None
) -> Audit:
    """Every offside incident in a match, and the officials' calls, matched by time, judged
    as `profile` applies the Laws (the Laws as written, `ifab`, unless given).

    The match carries all the audit needs: `load_match` reads StatsBomb's camera views and
    pass ends with its freeze frames (`MatchTracking.statsbomb_facts`).
    """
    profile = profile or ifab()
    if judged_event_by_event(match):
        from varroom.audit.freeze_frames import audit_freeze_frames

        return audit_freeze_frames(match, progress, profile)
    from varroom.audit.tracking import audit_tracking

    return audit_tracking(match, progress, profile)


def call_phases(match: MatchTracking, audit: Audit) -> Sequence[Incident | None]:
    """The engine's verdict on the play each official call refers to, where plays are judged
    event by event (`freeze_frames.call_phases`); empty for continuous tracking, whose audit
    judges moments of play, not the play a call names."""
    if not judged_event_by_event(match):
        return ()
    from varroom.audit.freeze_frames import call_phases as framed_call_phases

    return framed_call_phases(match, audit)
