"""Tracab `.dat` raw data read straight into columns.

Each line of a `.dat` file is one frame, `frame:players:ball:`, the players
`team,id,jersey,x,y,speed;` one after another and the ball `x,y,z,speed,owner,state;`.
The lines are split into their sections, the sections of all frames joined and their
fields converted by numpy at once, with no object per frame or per sighting. The metadata
(flat or hierarchical XML, or JSON) is read by kloppy's own Tracab metadata parsers, so
teams, players, periods and the pitch are kloppy's.

As kloppy does (without `only_alive`, which varroom does not ask for): the frames are the
lines whose time (frame number / frame rate) lies within a period, in the file's order, a
line once for each period it lies in; team 1 is the home team, 0 the away team, and -1, 3
and 4 (referees, others) are nobody; a player is his team's listed player of that jersey
number, or else a new player `home_<jersey>` / `away_<jersey>`, added to his team after
the listed ones in the order first seen. Positions are centimetres from the centre spot.
"""

from __future__ import annotations

import io
from datetime import timedelta
from pathlib import Path

import numpy as np
from kloppy.domain import Period
from kloppy.domain import Player as KloppyPlayer
from kloppy.domain import Team as KloppyTeam
from kloppy.infra.serializers.tracking.tracab.parsers import get_metadata_parser

from varroom.errors import DataError
from varroom.match.columns import assemble, scatter_positions
from varroom.match.convert import _player
from varroom.match.direction import Team
from varroom.match.files import _open
from varroom.match.tracking import MatchTracking, PitchSource, Provider
from varroom.model.situation import Pitch

_CM = 100.0
_HOME_TEAM, _AWAY_TEAM = 1, 0  # Tracab's team of a sighting
_NOBODY_TEAMS = (-1, 3, 4)  # referees and other objects
_PLAYER_FIELDS = 6  # team, target id, jersey, x, y, speed
_BALL_FIELDS = 6  # x, y, z, speed, owning team, state
_OWNERS = (b"H", b"A")
_STATES = (b"Alive", b"Dead")
_MICROSECOND = timedelta(microseconds=1)
_CHUNK = 1 << 20  # fields parsed at once
_MAX_DIGITS = 15


def accepts(raw_data: Path) -> bool:
    """A `.dat` file; Tracab's JSON raw data is left to kloppy."""
    with _open(raw_data) as stream:
        return stream.read(64).lstrip()[:1] != b"{"


def read(meta_data: Path, raw_data: Path) -> MatchTracking:
    try:
        with _open(meta_data) as stream:
            parser = get_metadata_parser(io.BytesIO(stream.read()))
        length, width = parser.extract_pitch_dimensions()
        kloppy_teams = parser.extract_lineups()
        periods = parser.extract_periods()
        frame_rate = parser.extract_frame_rate()
    except Exception as error:  # lxml's errors, AttributeError, KeyError, kloppy's own
        message = " ".join(f"{type(error).__name__}: {error}".split())
        raise DataError(meta_data, f"not Tracab metadata: {message}") from error
    if length is None or width is None:
        raise DataError(meta_data, "no pitch dimensions", "pitch")
    with _open(raw_data) as stream:
        lines = [line for line in (line.strip() for line in stream.readlines()) if line]
    number, lines, period_of = _frames(raw_data, lines, periods, float(frame_rate))
    sections = [line.split(b":") for line in lines]
    short = next((i for i, parts in enumerate(sections) if len(parts) < 3), None)
    if short is not None:
        raise DataError(raw_data, f"frame {number[short]} has no players and ball sections")

    frame, team, jersey, xy_m = _sightings(raw_data, number, [parts[1] for parts in sections])
    ball_m = _ball(raw_data, number, [parts[2] for parts in sections])
    players, column = _players(kloppy_teams, team, jersey)
    starts = np.array([period.start_timestamp // _MICROSECOND for period in periods])
    t_us = _microseconds(number, float(frame_rate)) - starts[period_of]
    home, away = (
        Team(str(kloppy_team.team_id), str(kloppy_team.name)) for kloppy_team in kloppy_teams
    )
    return assemble(
        provider=Provider.TRACAB,
        pitch=Pitch(float(length), float(width)),
        pitch_source=PitchSource.METADATA,
        teams=(home, away),
        stated_attack=(),
        frame_rate_hz=float(frame_rate),
        t_s=t_us / 1e6,
        period=np.array([period.id for period in periods], dtype=np.int64)[period_of],
        ball_m=ball_m,
        players=[_player(player) for player in players],
        players_m=scatter_positions(len(number), len(players), frame, column, xy_m),
    )


def _frames(
    raw_data: Path, lines: list[bytes], periods: list[Period], frame_rate: float
) -> tuple[np.ndarray, list[bytes], np.ndarray]:
    """The frames' numbers, lines and periods (index into `periods`), as kloppy keeps them."""
    try:
        # kloppy reads a frame's number from the first ten characters of its line.
        number = np.array([int(line[:10].split(b":", 1)[0]) for line in lines], dtype=np.int64)
    except ValueError as error:
        raise DataError(raw_data, f"not Tracab .dat frames: {error}") from error
    t_us = _microseconds(number, frame_rate)
    bounds = np.array(
        [[p.start_timestamp // _MICROSECOND, p.end_timestamp // _MICROSECOND] for p in periods],
        dtype=np.int64,
    ).reshape(-1, 2)
    inside = (bounds[:, 0] <= t_us[:, None]) & (t_us[:, None] <= bounds[:, 1])
    line_of, period_of = np.nonzero(inside)  # line by line, period by period within a line
    return number[line_of], [lines[i] for i in line_of], period_of


def _microseconds(number: np.ndarray, frame_rate: float) -> np.ndarray:
    """`timedelta(seconds=number / frame_rate)` in whole microseconds, rounded as it rounds."""
    seconds = number / frame_rate
    whole = np.trunc(seconds)
    return whole.astype(np.int64) * 1_000_000 + np.rint((seconds - whole) * 1e6).astype(np.int64)


def _sightings(
    raw_data: Path, number: np.ndarray, sections: list[bytes]
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Each player sighting's frame, team (1 home, 0 away), jersey and (x, y) in metres."""
    # kloppy drops what follows a section's last `;`.
    cut = [section[: section.rfind(b";") + 1] for section in sections]
    counts = np.array([section.count(b";") for section in cut], dtype=np.int64)
    joined = b"".join(cut)
    text = np.frombuffer(joined, dtype=np.uint8)
    separators = np.flatnonzero((text == ord(",")) | (text == ord(";")))
    if (
        len(separators) != _PLAYER_FIELDS * counts.sum()
        or not (text[separators[_PLAYER_FIELDS - 1 :: _PLAYER_FIELDS]] == ord(";")).all()
    ):
        _wrong_player(raw_data, number, counts, text)
    # The fields wanted: team, jersey, x, y.
    end = separators.reshape(-1, _PLAYER_FIELDS)[:, [0, 2, 3, 4]]
    start = np.concatenate(([0], separators[:-1] + 1)).reshape(-1, _PLAYER_FIELDS)[:, [0, 2, 3, 4]]
    values = _integers(text, start.reshape(-1), end.reshape(-1))
    if values is None:  # decimals, or anything else float() might take: field by field
        fields = joined.replace(b";", b",").split(b",")
        try:
            values = np.array(
                [fields[i::_PLAYER_FIELDS] for i in (0, 2, 3, 4)], dtype=np.bytes_
            ).T.astype(np.float64)
        except ValueError as error:
            raise DataError(raw_data, f"not Tracab .dat players: {error}") from error
    values = values.reshape(-1, 4)
    frame = np.repeat(np.arange(len(sections)), counts)
    team = values[:, 0].astype(np.int64)
    unknown = ~np.isin(team, (_HOME_TEAM, _AWAY_TEAM, *_NOBODY_TEAMS))
    if unknown.any():
        first = np.argmax(unknown)
        raise DataError(raw_data, f"frame {number[frame[first]]}: unknown team {team[first]}")
    player = (team == _HOME_TEAM) | (team == _AWAY_TEAM)
    return (
        frame[player],
        team[player],
        values[player, 1].astype(np.int64),
        values[player, 2:4] / _CM,
    )


def _wrong_player(raw_data: Path, number: np.ndarray, counts: np.ndarray, text: np.ndarray) -> None:
    ends = np.flatnonzero(text == ord(";"))
    commas = np.diff(np.cumsum(text == ord(","))[ends], prepend=0)
    wrong = np.flatnonzero(commas != _PLAYER_FIELDS - 1)[0]
    frame = np.searchsorted(np.cumsum(counts), wrong, side="right")
    raise DataError(
        raw_data,
        f"frame {number[frame]} has a player of {commas[wrong] + 1} fields, not {_PLAYER_FIELDS}",
    )


def _integers(text: np.ndarray, start: np.ndarray, end: np.ndarray) -> np.ndarray | None:
    """The fields `text[start:end]` as numbers, if every one is a whole number (an optional
    `-`, then digits), as Tracab writes positions; None otherwise."""
    values = np.empty(len(start), dtype=np.float64)
    for at in range(0, len(start), _CHUNK):
        first, last = start[at : at + _CHUNK], end[at : at + _CHUNK]
        width = int((last - first).max(initial=1))
        if width > _MAX_DIGITS or (last <= first).any():
            return None
        # Digit by digit from the left, the fields right-aligned: before its start a field
        # reads as zeros.
        magnitude = np.zeros(len(first), dtype=np.int64)
        sign = np.ones(len(first), dtype=np.int64)
        for column in range(width):
            where = last - width + column
            char = text[np.maximum(where, 0)].astype(np.int64)
            minus = (where == first) & (char == ord("-")) & (last - first > 1)
            digit = np.where((where < first) | minus, 0, char - ord("0"))
            if ((digit < 0) | (digit > 9)).any():
                return None
            magnitude = magnitude * 10 + digit
            sign[minus] = -1
        values[at : at + _CHUNK] = sign * magnitude
    return values


def _ball(raw_data: Path, number: np.ndarray, sections: list[bytes]) -> np.ndarray:
    """The ball's (x, y, z) in metres; its owning team and state must be Tracab's."""
    fields = [section.rstrip(b";").split(b",")[:_BALL_FIELDS] for section in sections]
    short = next((i for i, ball in enumerate(fields) if len(ball) < _BALL_FIELDS), None)
    if short is not None:
        raise DataError(raw_data, f"frame {number[short]} has a ball of too few fields")
    values = np.array(fields, dtype=np.bytes_).reshape(-1, _BALL_FIELDS)
    for index, known, what in ((4, _OWNERS, "ball owning team"), (5, _STATES, "ball state")):
        unknown = ~np.isin(values[:, index], known)
        if unknown.any():
            first = np.argmax(unknown)
            raise DataError(
                raw_data,
                f"frame {number[first]}: unknown {what} {values[first, index].decode(errors='replace')!r}",
            )
    try:
        return values[:, :3].astype(np.float64) / _CM
    except ValueError as error:
        raise DataError(raw_data, f"not Tracab .dat ball: {error}") from error


def _players(
    teams: tuple[KloppyTeam, KloppyTeam], team: np.ndarray, jersey: np.ndarray
) -> tuple[list[KloppyPlayer], np.ndarray]:
    """The players (each team's listed ones, then its unlisted ones as first seen), and each
    sighting's column among them."""
    key = np.where(team == _HOME_TEAM, 0, 1) << 32 | (jersey & 0xFFFFFFFF)
    seen, first, inverse = np.unique(key, return_index=True, return_inverse=True)
    players: list[KloppyPlayer] = []
    column_of: dict[int, int] = {}
    for side, kloppy_team in enumerate(teams):
        for player in kloppy_team.players:  # the first listed player of a jersey is his
            column_of.setdefault(side << 32 | (player.jersey_no & 0xFFFFFFFF), len(players))
            players.append(player)
        for index in np.argsort(first):
            if seen[index] >> 32 == side and int(seen[index]) not in column_of:
                number = int(jersey[first[index]])
                column_of[int(seen[index])] = len(players)
                players.append(
                    KloppyPlayer(
                        player_id=f"{kloppy_team.ground}_{number}",
                        team=kloppy_team,
                        jersey_no=number,
                    )
                )
    column = np.array([column_of[int(k)] for k in seen], dtype=np.intp)[inverse.reshape(-1)]
    return players, column
