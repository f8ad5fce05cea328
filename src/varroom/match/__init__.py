"""Whole matches from providers' files: tracking frames, events, pitch and directions."""

from varroom.errors import DataError
from varroom.match.load import load_match
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
