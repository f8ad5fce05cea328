"""Whole matches from providers' files: tracking frames, events, pitch and directions."""

from typing import TYPE_CHECKING, Any

from varroom.errors import DataError
from varroom.match.tracking import (
    DirectionSource,
    EventKind,
    MatchEvent,
    MatchTracking,
    PitchSource,
    Provider,
    Team,
    TeamAttack,
)

if TYPE_CHECKING:
    from varroom.match.load import load_match


def __getattr__(name: str) -> Any:
    # The readers import kloppy, slow to import: a module that only needs MatchTracking (a
    # synthetic match, an audit of one already loaded) does not pay for them.
    if name == "load_match":
        from varroom.match.load import load_match

        return load_match
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = [
    "DataError",
    "DirectionSource",
    "EventKind",
    "MatchEvent",
    "MatchTracking",
    "PitchSource",
    "Provider",
    "Team",
    "TeamAttack",
    "load_match",
]
