"""Whole matches from providers' files: tracking frames, events, pitch and directions."""

from typing import TYPE_CHECKING

from varroom.errors import DataError
from varroom.lazy_names import lazy_names
from varroom.match.direction import DirectionSource, Team, TeamAttack
from varroom.match.tracking import EventKind, MatchEvent, MatchTracking, PitchSource, Provider

if TYPE_CHECKING:
    from varroom.match.load import load_match


# The readers import kloppy, slow to import: a module that only needs MatchTracking (a
# synthetic match, an audit of one already loaded) does not pay for them.
__getattr__, __dir__ = lazy_names(__name__, {"load_match": "varroom.match.load"})

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
