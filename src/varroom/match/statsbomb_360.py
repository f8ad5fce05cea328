"""StatsBomb's own files for what MatchTracking does not carry: the passes' ends and outcomes,
and the part of the pitch each 360 frame's camera saw.

kloppy reads StatsBomb's events and freeze frames into MatchTracking (`load_match`), but drops
the pass's end location and outcome, and the frame's `visible_area` polygon. The freeze-frame
audit needs both: who played the ball next and where, and whether an opponent could stand out
of view. `read_statsbomb_facts` reads them, keyed by the event they belong to.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
from kloppy.domain import Point, StatsBombCoordinateSystem

from varroom.errors import DataError
from varroom.match.tracking import MatchEvent, MatchTracking
from varroom.model.situation import Pitch
from varroom.model.view import inside_polygon

# Pass outcomes after which a team-mate played the ball: none (complete), or offside called.
_REACHED_OUTCOMES = frozenset({None, "Pass Offside"})

EventKey = tuple[int, int, str | None, str]  # period, milliseconds, player id, raw type


@dataclass(frozen=True, slots=True)
class EventFacts:
    """What a StatsBomb event says that MatchTracking does not carry, in match metres."""

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
    events: Mapping[EventKey, EventFacts]
    views: Mapping[EventKey, FrameView]

    def event(self, event: MatchEvent) -> EventFacts | None:
        return self.events.get(_key_of(event))

    def view(self, event: MatchEvent) -> FrameView | None:
        return self.views.get(_key_of(event))


def read_statsbomb_facts(
    match: MatchTracking, event_data: str | Path, three_sixty_data: str | Path | None = None
) -> StatsBombFacts:
    """The passes' ends and outcomes, and the 360 frames' views, from StatsBomb's files.

    `match` is what `load_match` read from the same files: its pitch and the direction each
    team attacks turn StatsBomb's units into match metres. A bad file is a DataError.
    """
    to_metres = _Metres(match)
    events: dict[EventKey, EventFacts] = {}
    key_of_uuid: dict[str, tuple[EventKey, str]] = {}
    for index, raw in enumerate(_records(event_data)):
        try:
            if raw.get("team") is None:  # no team, no direction to read its locations in
                continue
            key, team = _raw_key(raw), str(raw["team"]["id"])
            events[key] = _event_facts(raw, team, key[0], to_metres)
            key_of_uuid[str(raw["id"])] = key, team
        except (KeyError, TypeError, ValueError, AttributeError) as error:
            raise DataError(
                event_data, f"not a StatsBomb event ({error!r})", f"[{index}]"
            ) from None
    views: dict[EventKey, FrameView] = {}
    records = [] if three_sixty_data is None else _records(three_sixty_data)
    for index, raw in enumerate(records):
        try:
            found = key_of_uuid.get(str(raw["event_uuid"]))
            if found is not None:
                key, team = found
                views[key] = _view(raw, team, key[0], to_metres)
        except (KeyError, TypeError, ValueError, AttributeError) as error:
            raise DataError(
                three_sixty_data, f"not a StatsBomb 360 frame ({error!r})", f"[{index}]"
            ) from None
    return StatsBombFacts(events, views)


def _key_of(event: MatchEvent) -> EventKey:
    return event.period, round(event.t_s * 1000), event.player, event.raw_type


def _raw_key(raw: Mapping[str, Any]) -> EventKey:
    hours, minutes, seconds = str(raw["timestamp"]).split(":")
    milliseconds = round((int(hours) * 3600 + int(minutes) * 60 + float(seconds)) * 1000)
    player = raw.get("player")
    player_id = None if player is None else str(player["id"])
    return int(raw["period"]), milliseconds, player_id, str(raw["type"]["name"])


class _Metres:
    """StatsBomb units to match metres.

    kloppy's own mapping of StatsBomb's pitch (piecewise, by the pitch markings); kloppy also
    moves each point to the centre of StatsBomb's location cell, a shift under 5 cm that no
    use here (the nearest player, the reach of the view) can notice.
    """

    def __init__(self, match: MatchTracking) -> None:
        self.match = match
        self.pitch = match.pitch
        self.dimensions = StatsBombCoordinateSystem(
            pitch_length=self.pitch.length_m, pitch_width=self.pitch.width_m
        ).pitch_dimensions

    def along(self, x: float, y: float) -> tuple[float, float]:
        """Metres from the centre spot, the team performing the event attacking +x."""
        base = self.dimensions.to_metric_base(
            Point(x=x, y=y), pitch_length=self.pitch.length_m, pitch_width=self.pitch.width_m
        )
        return base.x - self.pitch.half_length_m, self.pitch.half_width_m - base.y

    def __call__(self, x: float, y: float, team: str, period: int) -> tuple[float, float]:
        """Match metres: turned round where the team attacks -x in the match's frame."""
        x_m, y_m = self.along(x, y)
        sign = self.match.attack_of(team, period).direction.sign
        return sign * x_m, sign * y_m


def _records(path: str | Path) -> list[Any]:
    try:
        with open(path, encoding="utf-8") as stream:
            data = json.load(stream)
    except OSError as error:
        raise DataError(path, f"cannot read the file: {error.strerror or error}") from None
    except (json.JSONDecodeError, UnicodeDecodeError) as error:
        raise DataError(path, f"not JSON ({error})") from None
    if not isinstance(data, list):
        raise DataError(path, "expected a JSON array of StatsBomb records")
    return data


def _event_facts(raw: Mapping[str, Any], team: str, period: int, to_metres: _Metres) -> EventFacts:
    location = raw.get("location")
    pass_ = raw.get("pass") or {}
    end = pass_.get("end_location")
    outcome = (pass_.get("outcome") or {}).get("name")
    return EventFacts(
        location_m=None if location is None else to_metres(location[0], location[1], team, period),
        end_m=None if end is None else to_metres(end[0], end[1], team, period),
        reached=bool(pass_) and outcome in _REACHED_OUTCOMES,
        duration_s=float(raw.get("duration") or 0.0),
    )


def _view(raw: Mapping[str, Any], team: str, period: int, to_metres: _Metres) -> FrameView:
    corners = raw["visible_area"]
    area = [(float(x), float(y)) for x, y in zip(corners[0::2], corners[1::2], strict=False)]
    return FrameView(area_m=tuple(to_metres(x, y, team, period) for x, y in area))
