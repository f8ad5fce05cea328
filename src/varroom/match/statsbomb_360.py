"""Reading StatsBomb's own files for what kloppy drops: the passes' ends and outcomes, and
the part of the pitch each 360 frame's camera saw (`varroom.match.statsbomb_facts`).

kloppy reads StatsBomb's events and freeze frames into MatchTracking, but drops the pass's
end location and outcome, and the frame's `visible_area` polygon. `load_match` reads each of
the two files once, hands kloppy the bytes and `read_statsbomb_facts` the same bytes, and the
match carries the facts, keyed by the event they belong to.
"""

from __future__ import annotations

import json
import unicodedata
from collections.abc import Mapping
from typing import Any

from kloppy.domain import Point, StatsBombCoordinateSystem

from varroom.errors import DataError
from varroom.match.files import Contents
from varroom.match.statsbomb_facts import EventFacts, EventKey, FrameView, StatsBombFacts
from varroom.match.tracking import MatchTracking

# Pass outcomes after which a team-mate played the ball: none (complete), or offside called.
_REACHED_OUTCOMES = frozenset({None, "Pass Offside"})
# The files the facts are read from, besides kloppy: `load_match` reads each once.
FACT_FILES = ("event_data", "lineup_data", "three_sixty_data")


def nicknames(lineup_data: Contents) -> dict[str, str]:
    """Each player's name as his people say it, where StatsBomb's lineup gives one
    (`player_nickname`: "Jorginho" for Jorge Luiz Frello Filho), by player id. kloppy keeps
    only the full name, whose family name is no name a fan knows him by. A nickname that is
    words of the full name written without their accents ("Zeki Celik" for Mehmet Zeki Çelik)
    is those words as the full name writes them."""
    try:
        return {
            str(player["player_id"]): _as_written(
                str(player["player_nickname"]), str(player["player_name"])
            )
            for team in json.loads(lineup_data.data)
            for player in team["lineup"]
            if player.get("player_nickname")
        }
    except (KeyError, TypeError, ValueError) as error:
        raise DataError(lineup_data.path, f"not a StatsBomb lineup ({error!r})") from None


def _as_written(nickname: str, name: str) -> str:
    said, words = nickname.split(), name.split()
    folded = [_unaccented(word) for word in words]
    wanted = [_unaccented(word) for word in said]
    for start in range(len(words) - len(said) + 1):
        if folded[start : start + len(said)] == wanted:
            return " ".join(words[start : start + len(said)])
    return nickname


def _unaccented(word: str) -> str:
    # The dotless i has no decomposition: it is the i a keyboard without Turkish letters types.
    decomposed = unicodedata.normalize("NFKD", word.replace("ı", "i"))
    return "".join(c for c in decomposed if not unicodedata.combining(c)).lower()


def read_statsbomb_facts(
    match: MatchTracking, event_data: Contents, three_sixty_data: Contents | None = None
) -> StatsBombFacts:
    """The passes' ends and outcomes, and the 360 frames' views, from StatsBomb's files.

    `match` is what kloppy read from the same files: its pitch and the direction each team
    attacks turn StatsBomb's units into match metres. A bad file is a DataError naming it.
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
                event_data.path, f"not a StatsBomb event ({error!r})", f"[{index}]"
            ) from None
    views = {} if three_sixty_data is None else _views(three_sixty_data, key_of_uuid, to_metres)
    return StatsBombFacts(events, views)


def _views(
    three_sixty_data: Contents,
    key_of_uuid: Mapping[str, tuple[EventKey, str]],
    to_metres: _Metres,
) -> dict[EventKey, FrameView]:
    views: dict[EventKey, FrameView] = {}
    for index, raw in enumerate(_records(three_sixty_data)):
        try:
            found = key_of_uuid.get(str(raw["event_uuid"]))
            if found is not None:
                key, team = found
                views[key] = _view(raw, team, key[0], to_metres)
        except (KeyError, TypeError, ValueError, AttributeError) as error:
            raise DataError(
                three_sixty_data.path, f"not a StatsBomb 360 frame ({error!r})", f"[{index}]"
            ) from None
    return views


def _raw_key(raw: Mapping[str, Any]) -> EventKey:
    # The key `StatsBombFacts` looks a MatchEvent up by: kloppy's events keep these four.
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


def _records(file: Contents) -> list[Any]:
    try:
        data = json.loads(file.data)
    except (json.JSONDecodeError, UnicodeDecodeError) as error:
        raise DataError(file.path, f"not JSON ({error})") from None
    if not isinstance(data, list):
        raise DataError(file.path, "expected a JSON array of StatsBomb records")
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
