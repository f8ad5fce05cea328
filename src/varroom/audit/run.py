"""`audit_match`: the audit of one loaded match, by the kind of positions it has."""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping

from varroom.audit.model import Audit
from varroom.match.tracking import MatchTracking, Provider

# Called with (done, total, what) as the audit goes; the CLI draws a progress bar from it.
Progress = Callable[[int, int, str], None]


def _silent(done: int, total: int, what: str) -> None:
    """No progress to show."""


def audit_match(
    match: MatchTracking,
    progress: Progress = _silent,
    files: Mapping[str, str | os.PathLike[str]] | None = None,
) -> Audit:
    """Every offside incident in a match, and the officials' calls, matched by time.

    Freeze frames (one frame per event, no frame rate) are judged event by event; continuous
    tracking is cut into moments of play first. StatsBomb's camera views and pass ends are not
    in MatchTracking: they are read from `files` (kloppy's names: `event_data`,
    `three_sixty_data`).
    """
    if match.frame_rate_hz is None:
        from varroom.audit.freeze_frames import audit_freeze_frames, read_statsbomb_facts

        facts = None
        if match.provider is Provider.STATSBOMB and files is not None:
            facts = read_statsbomb_facts(match, files["event_data"], files.get("three_sixty_data"))
        return audit_freeze_frames(match, progress, facts)
    from varroom.audit.tracking import audit_tracking

    return audit_tracking(match, progress)
