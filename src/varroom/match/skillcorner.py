"""SkillCorner broadcast tracking read straight into columns.

`match_data.json` and a `structured_data.json` (a JSON list of frames, kloppy's "V2") give
the same `MatchTracking` as kloppy's reader, number for number, several times faster:
the JSON is parsed once and every field is gathered into numpy arrays in one pass, with no
object per frame or per sighting. The frames are kloppy's: those with a period and at
least one sighting. SkillCorner's coordinates are already metres from the centre spot.
"""

from __future__ import annotations

import gc
import json
from collections.abc import Callable
from operator import itemgetter
from pathlib import Path
from typing import Any

import numpy as np

from varroom.errors import DataError
from varroom.match.columns import assemble, scatter_positions
from varroom.match.direction import Team
from varroom.match.tracking import MatchTracking, PitchSource, Provider
from varroom.model.situation import Pitch, Player

FRAME_RATE_HZ = 10.0  # SkillCorner's broadcast tracking rate, which kloppy hard-codes too

# `time` is the match clock; kloppy counts each period from these minutes: 0, 45, 90, 105, 120.
_PERIOD_START_US = np.array([0, 0, 45, 90, 105, 120], dtype=np.int64) * 60_000_000
_GOALKEEPER_ROLE = 0  # `player_role.id` of a goalkeeper
_TEAM_GROUPS = ({"home team", "home_team"}, {"away team", "away_team"})
_NO_OBJECT = -1  # the trackable object of an anonymous track


def accepts(raw_data: Path) -> bool:
    """A JSON list of frames; JSON lines ("V3") are left to kloppy."""
    with raw_data.open("rb") as stream:
        return stream.read(64).lstrip()[:1] == b"["


def read(meta_data: Path, raw_data: Path) -> MatchTracking:
    meta = _json(meta_data)
    try:
        pitch = Pitch(float(meta["pitch_length"]), float(meta["pitch_width"]))
    except (KeyError, TypeError) as error:
        raise DataError(meta_data, "no pitch dimensions", "pitch_length, pitch_width") from error
    try:
        teams = (_team(meta["home_team"]), _team(meta["away_team"]))
        listed = [_listed_player(player, teams) for player in meta["players"]]
        ball_id = meta["ball"]["trackable_object"]
        referee_ids = [referee["trackable_object"] for referee in meta["referees"]]
    except (KeyError, TypeError) as error:
        raise DataError(meta_data, f"not SkillCorner match data: no {error}") from error
    # kloppy lists the home team's players, then the away team's, each in match_data's order.
    players = [item for team in teams for item in listed if item and item[1].team == team.id]
    try:
        return _read_frames(raw_data, _json(raw_data), pitch, teams, players, ball_id, referee_ids)
    except (KeyError, TypeError, ValueError) as error:
        raise DataError(raw_data, f"not SkillCorner structured data: {error}") from error


def _read_frames(
    raw_data: Path,
    records: list[dict[str, Any]],
    pitch: Pitch,
    teams: tuple[Team, Team],
    listed: list[tuple[int, Player]],
    ball_id: int,
    referee_ids: list[int],
) -> MatchTracking:
    frames = [record for record in records if record["period"] is not None and record["data"]]
    sightings = [sighting for frame in frames for sighting in frame["data"]]
    count = len(sightings)
    frame_of = np.repeat(np.arange(len(frames)), [len(frame["data"]) for frame in frames])
    objects = np.fromiter(
        (_NO_OBJECT if (o := s.get("trackable_object")) is None else o for s in sightings),
        dtype=np.int64,
        count=count,
    )
    xy_m = np.stack(
        [
            np.fromiter(map(itemgetter("x"), sightings), dtype=np.float64, count=count),
            np.fromiter(map(itemgetter("y"), sightings), dtype=np.float64, count=count),
        ],
        axis=1,
    )
    in_group = _group_masks(sightings)
    is_ball = (objects == ball_id) | in_group("balls")
    is_player = ~is_ball & ~np.isin(objects, referee_ids) & ~in_group("referee")
    side = np.select([in_group(*group) for group in _TEAM_GROUPS], [0, 1], -1)
    column, anonymous = _columns(objects, side, sightings, is_player, listed, teams)
    seen = column >= 0
    players = [player for _, player in listed] + anonymous
    players_m = scatter_positions(
        len(frames), len(players), frame_of[seen], column[seen], xy_m[seen]
    )

    ball_rows = np.flatnonzero(is_ball)
    ball_m = np.full((len(frames), 3), np.nan)
    ball_m[frame_of[ball_rows], :2] = xy_m[ball_rows]
    # A missing height is None, which numpy turns into NaN.
    ball_m[frame_of[ball_rows], 2] = np.array(
        [sightings[row].get("z") for row in ball_rows], dtype=np.float64
    )

    period = np.array([frame["period"] for frame in frames], dtype=np.int64)
    if np.any((period < 1) | (period >= len(_PERIOD_START_US))):
        raise DataError(raw_data, f"unknown period among {sorted(set(period.tolist()))}")
    time_key = _time_key(frames)
    clock_us = np.round(_clock_s([frame[time_key] for frame in frames]) * 1e6)
    return assemble(
        provider=Provider.SKILLCORNER,
        pitch=pitch,
        pitch_source=PitchSource.METADATA,
        teams=teams,
        stated_attack=(),
        frame_rate_hz=FRAME_RATE_HZ,
        t_s=(clock_us.astype(np.int64) - _PERIOD_START_US[period]) / 1e6,
        period=period,
        ball_m=ball_m,
        players=players,
        players_m=players_m,
    )


def _group_masks(sightings: list[dict[str, Any]]) -> Callable[..., np.ndarray]:
    """`in_group(*names)`: which sightings carry one of these group names.

    Only anonymous tracks (and, in some files, the ball and referees) carry a group name,
    so only those few are looked at.
    """
    named = np.fromiter(
        (index for index, sighting in enumerate(sightings) if "group_name" in sighting),
        dtype=np.intp,
    )
    names = np.array([sightings[index]["group_name"] for index in named], dtype=np.str_)

    def in_group(*group: str) -> np.ndarray:
        mask = np.zeros(len(sightings), dtype=bool)
        mask[named[np.isin(names, group)]] = True
        return mask

    return in_group


def _columns(
    objects: np.ndarray,
    side: np.ndarray,
    sightings: list[dict[str, Any]],
    is_player: np.ndarray,
    listed: list[tuple[int, Player]],
    teams: tuple[Team, Team],
) -> tuple[np.ndarray, list[Player]]:
    """Each sighting's player column (-1: nobody's), and the anonymous tracks' players.

    Listed players come first; anonymous tracks (a team's group name but no trackable
    object) follow as they first appear, as kloppy numbers them.
    """
    column = np.full(len(objects), -1, dtype=np.intp)
    if listed:
        listed_objects = np.array([trackable for trackable, _ in listed], dtype=np.int64)
        order = np.argsort(listed_objects)
        at = np.searchsorted(listed_objects, objects, sorter=order).clip(max=len(listed) - 1)
        found = is_player & (listed_objects[order[at]] == objects)
        column[found] = order[at[found]]

    anonymous = np.flatnonzero(is_player & (objects == _NO_OBJECT) & (side >= 0))
    track = np.array([sightings[index]["track_id"] for index in anonymous], dtype=np.int64)
    keys = np.stack([side[anonymous], track], axis=1)
    unique, first, inverse = np.unique(keys, axis=0, return_index=True, return_inverse=True)
    appearance = np.argsort(first)
    rank = np.empty_like(appearance)
    rank[appearance] = np.arange(len(appearance))
    column[anonymous] = len(listed) + rank[inverse.reshape(-1)]
    players = [_anonymous_player(teams, int(s), int(t)) for s, t in unique[appearance]]
    return column, players


def _anonymous_player(teams: tuple[Team, Team], side: int, track_id: int) -> Player:
    ground = ("home", "away")[side]
    return Player(f"{ground}_anon_{track_id}", teams[side].id, name=f"Anon_{track_id}")


def _listed_player(player: dict[str, Any], teams: tuple[Team, Team]) -> tuple[int, Player] | None:
    """(trackable object, player) of a player of either team; None for anybody else."""
    team = str(player["team_id"])
    if team not in (teams[0].id, teams[1].id):
        return None
    return player["trackable_object"], Player(
        id=str(player["id"]),
        team=team,
        goalkeeper=player["player_role"]["id"] == _GOALKEEPER_ROLE,
        name=f"{player['first_name']} {player['last_name']}",
        number=player["number"],
        short_name=player["last_name"] or None,
    )


def _team(team: dict[str, Any]) -> Team:
    return Team(str(team["id"]), team["name"])


def _time_key(frames: list[dict[str, Any]]) -> str:
    # Older files call the clock `timestamp`.
    return "time" if not frames or "time" in frames[0] else "timestamp"


def _clock_s(clock: list[str]) -> np.ndarray:
    """Seconds of "[h:]mm:ss.ff" clock strings."""
    rest, _, seconds = np.strings.rpartition(np.array(clock, dtype=np.str_), ":")
    hours, _, minutes = np.strings.rpartition(rest, ":")
    hours = np.where(hours == "", "0", hours).astype(np.float64)
    seconds_s: np.ndarray = (
        hours * 3600 + minutes.astype(np.float64) * 60 + seconds.astype(np.float64)
    )
    return seconds_s


def _json(path: Path) -> Any:
    # json builds a tree, never a cycle: the garbage collector's passes over the half
    # million new dicts would be a third of the parse, for nothing.
    collecting = gc.isenabled()
    gc.disable()
    try:
        with path.open("rb") as stream:
            return json.load(stream)
    except (json.JSONDecodeError, UnicodeDecodeError) as error:
        raise DataError(path, f"malformed JSON: {error}") from error
    finally:
        if collecting:
            gc.enable()
