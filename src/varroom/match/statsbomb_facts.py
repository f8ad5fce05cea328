"""What StatsBomb's files say that the positions do not: the passes' ends and outcomes, and the
part of the pitch each 360 frame's camera saw.

`load_match` reads them with a StatsBomb match (`varroom.match.statsbomb_360`) and the match
carries them (`MatchTracking.statsbomb_facts`): the freeze-frame audit needs who played the
ball next and where, and whether an opponent could stand out of view. These are the types
alone, without kloppy, so that MatchTracking can hold them.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from varroom.model.situation import Pitch
from varroom.model.view import inside_polygon

if TYPE_CHECKING:
    from varroom.match.tracking import MatchEvent

EventKey = tuple[int, int, str | None, str]  # period, milliseconds, player id, raw type


@dataclass(frozen=True, slots=True)
class EventFacts:
    """What a StatsBomb event says that MatchTracking's events do not, in match metres."""

    location_m: tuple[float, float] | None
    end_m: tuple[float, float] | None  # where a pass ended
    reached: bool  # a team-mate played the pass: complete, or stopped for offside
    duration_s: float


@dataclass(frozen=True, slots=True)
class FrameView:
    """What a 360 frame says beyond positions: the part of the pitch the camera saw."""

    area_m: tuple[tuple[float, float], ...]  # the visible area's polygon, in match metres

    def covers(self, point_m: tuple[float, float], pitch: Pitch) -> bool:
        # The area is clipped to the pitch: a point on a touchline or goal line lies on its
        # edge, so it is tested a centimetre inside the pitch.
        x_limit, y_limit = pitch.half_length_m - 0.01, pitch.half_width_m - 0.01
        x_m, y_m = point_m
        inside = (float(np.clip(x_m, -x_limit, x_limit)), float(np.clip(y_m, -y_limit, y_limit)))
        return len(self.area_m) >= 3 and bool(
            inside_polygon(np.array(self.area_m), np.array(inside[0]), np.array(inside[1]))
        )


@dataclass(frozen=True, slots=True)
class StatsBombFacts:
    """The facts of a match's events and frames, keyed by the event they belong to."""

    events: Mapping[EventKey, EventFacts]
    views: Mapping[EventKey, FrameView]

    def event(self, event: MatchEvent) -> EventFacts | None:
        return self.events.get(_key_of(event))

    def view(self, event: MatchEvent) -> FrameView | None:
        return self.views.get(_key_of(event))


def _key_of(event: MatchEvent) -> EventKey:
    # The same key as `statsbomb_360` gives the raw event the facts are read from.
    return event.period, round(event.t_s * 1000), event.player, event.raw_type
