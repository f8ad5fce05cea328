"""`audit_match`: the audit of one loaded match, by the kind of positions it has."""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING

from varroom.audit.model import Audit, Progress
from varroom.match.tracking import MatchTracking, Provider

if TYPE_CHECKING:
    from varroom.match.statsbomb_360 import StatsBombFacts


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
        from varroom.audit.freeze_frames import audit_freeze_frames

        return audit_freeze_frames(match, progress, freeze_frame_facts(match, files))
    from varroom.audit.tracking import audit_tracking

    return audit_tracking(match, progress)


def freeze_frame_facts(
    match: MatchTracking, files: Mapping[str, str | os.PathLike[str]] | None
) -> StatsBombFacts | None:
    """StatsBomb's camera views and pass ends, which MatchTracking does not carry, read from
    its files; None for other providers or without the files."""
    if match.provider is not Provider.STATSBOMB or files is None:
        return None
    from varroom.match.statsbomb_360 import read_statsbomb_facts

    three_sixty = files.get("three_sixty_data")
    return read_statsbomb_facts(
        match, Path(files["event_data"]), None if three_sixty is None else Path(three_sixty)
    )
