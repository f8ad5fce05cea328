"""Metrica's EPTS tracking (an XML metadata file and a text file of frames) read into columns.

The metadata is read once, by kloppy's own EPTS metadata reader, so that the teams,
players, periods and directions are kloppy's; its data format specification gives the
layout of every line of the frames file. The frames are then parsed by numpy's text
reader in one pass, with no object per frame, giving the same `MatchTracking` as kloppy.

A line is a frame number and then fields, split by the specification's separators
(":", ";", ","); the coordinates are fractions of the pitch from its top-left corner,
y growing downwards. As kloppy does, a frame belongs to the first period whose first and
last frame hold it, counted in seconds from that period's first frame; a frame outside
every period is left out, and an empty field is NaN.
"""

from __future__ import annotations

import io
import re
from pathlib import Path
from typing import Any

import numpy as np
from kloppy.infra.serializers.tracking.metrica_epts.metadata import load_metadata
from kloppy.infra.serializers.tracking.metrica_epts.models import (
    BallChannelRef,
    DataFormatSpecification,
    EPTSMetadata,
    PlayerChannelRef,
    SplitRegister,
    StringRegister,
)

from varroom.errors import DataError
from varroom.match.columns import assemble
from varroom.match.convert import _home_direction, _player
from varroom.match.direction import DirectionSource, Team, team_attacks
from varroom.match.files import _open
from varroom.match.tracking import MatchTracking, PitchSource, Provider
from varroom.model.situation import Pitch

_SEPARATORS = b":;,"
_FIELD = b","  # every separator becomes this one
_ONE_SEPARATOR = bytes.maketrans(_SEPARATORS, _FIELD * len(_SEPARATORS))
_EMPTY_FIELD = re.compile(rb"(?<![^,\n])(?![^,\n])")
_US = 1_000_000


def accepts(raw_data: Path) -> bool:
    del raw_data  # any EPTS frames file
    return True


def read(meta_data: Path, raw_data: Path) -> MatchTracking:
    metadata = _metadata(meta_data)
    if metadata.coordinate_system is None or metadata.pitch_dimensions is None:
        # kloppy gives no coordinates without a provider and a pitch.
        raise DataError(meta_data, "no pitch dimensions", "pitch")
    pitch = Pitch(
        float(metadata.pitch_dimensions.pitch_length), float(metadata.pitch_dimensions.pitch_width)
    )
    teams = (Team(str(team.team_id), team.name) for team in metadata.teams)
    home, away = teams
    players = [_player(player) for team in metadata.teams for player in team.players]
    fields, frame_id = _frames(raw_data, metadata)

    rate = metadata.frame_rate
    clock_us = np.round(frame_id / rate * _US).astype(np.int64)
    period = np.zeros(len(frame_id), dtype=np.int64)
    start_us = np.zeros(len(frame_id), dtype=np.int64)
    for item in reversed(metadata.periods):  # the first period holding a frame wins
        start, end = (
            round(bound.total_seconds() * _US)
            for bound in (item.start_timestamp, item.end_timestamp)
        )
        held = (clock_us >= start) & (clock_us <= end)
        period[held], start_us[held] = item.id, start
    kept = period > 0

    def column(name: str) -> np.ndarray:
        values = fields.get(name)
        return np.full(len(frame_id), np.nan) if values is None else values

    length, width = pitch.length_m, pitch.width_m
    players_m = np.full((len(frame_id), len(players), 2), np.nan, dtype=np.float32)
    for index, player in enumerate(players):
        x, y = (fields.get(f"player_{player.id}_{axis}") for axis in "xy")
        if x is not None and y is not None:
            players_m[:, index, 0] = (x - 0.5) * length
            players_m[:, index, 1] = (0.5 - y) * width
    ball_m = np.stack(
        [(column("ball_x") - 0.5) * length, (0.5 - column("ball_y")) * width, column("ball_z")],
        axis=1,
    )
    return assemble(
        provider=Provider.METRICA,
        pitch=pitch,
        pitch_source=PitchSource.METADATA,
        teams=(home, away),
        stated_attack=tuple(
            attack
            for item in metadata.periods
            if (direction := _home_direction(metadata.orientation, item.id)) is not None
            for attack in team_attacks((home, away), item.id, direction, DirectionSource.METADATA)
        ),
        frame_rate_hz=float(rate),
        t_s=(clock_us[kept] - start_us[kept]) / _US,
        period=period[kept],
        ball_m=ball_m[kept],
        players=players,
        players_m=players_m[kept],
    )


def _metadata(meta_data: Path) -> EPTSMetadata:
    try:
        with _open(meta_data) as stream:
            metadata = load_metadata(stream)
    except Exception as error:  # lxml's and objectify's errors, KeyError, AttributeError
        message = " ".join(f"{type(error).__name__}: {error}".split())
        raise DataError(meta_data, f"not Metrica EPTS metadata: {message}") from error
    if not metadata.data_format_specifications:
        raise DataError(meta_data, "no data format specification of the frames")
    return metadata


def _frames(raw_data: Path, metadata: EPTSMetadata) -> tuple[dict[str, np.ndarray], np.ndarray]:
    """Every named field (kloppy's names: `player_<id>_x`, `ball_x`) and the frame numbers.

    As kloppy reads them: each specification reads lines until one reaches its last frame,
    and keeps those up to that frame; after the last specification the rest is not read.
    A field only some specifications name is NaN in the others' lines.
    """
    lines = _Lines(raw_data)
    first = np.trunc(lines.first_fields())
    specifications = metadata.data_format_specifications
    chunks: list[dict[str, np.ndarray]] = []
    start = 0
    for specification in specifications:
        reaching = np.flatnonzero(first[start:] >= specification.end_frame)
        stop = len(first) if len(reaching) == 0 else start + int(reaching[0]) + 1
        count, names = _layout(specification, metadata, raw_data)
        fields = lines.parse(start, stop, count, names)
        keep = first[start:stop] <= specification.end_frame
        chunks.append({name: values[keep] for name, values in fields.items()})
        chunks[-1][""] = first[start:stop][keep]
        start = stop
        if start == len(first):
            break
    sizes = [len(chunk[""]) for chunk in chunks]
    every_name = {name for chunk in chunks for name in chunk}
    named = {
        name: np.concatenate(
            [
                chunk.get(name, np.full(size, np.nan))
                for chunk, size in zip(chunks, sizes, strict=True)
            ]
        )
        for name in every_name
    }
    return named, named.pop("").astype(np.int64)


class _Lines:
    """The frames file as one block of comma-separated fields, its lines located."""

    def __init__(self, raw_data: Path) -> None:
        self.path = raw_data
        with _open(raw_data) as stream:
            text = stream.read().replace(b"\r", b"").strip()
        text = text.translate(_ONE_SEPARATOR)
        empty_field = (b",,", b",\n", b"\n,")
        if any(empty in text for empty in empty_field) or b"," in (text[:1], text[-1:]):
            text = _EMPTY_FIELD.sub(b"nan", text)
        self.text = text
        codes = np.frombuffer(text, dtype=np.uint8)
        ends = np.flatnonzero(codes == ord("\n"))
        self.starts = np.concatenate([[0], ends + 1])
        self.ends = np.concatenate([ends, [len(text)]])
        separators = np.concatenate([[0], np.cumsum(codes == _FIELD[0])])
        self.field_counts = separators[self.ends] - separators[self.starts] + 1

    def first_fields(self) -> np.ndarray:
        """Each line's first field, a number (the frame number)."""
        return self._load(0, len(self.starts), [0])[:, 0]

    def parse(
        self, start: int, stop: int, count: int, names: dict[str, int]
    ) -> dict[str, np.ndarray]:
        """The named fields of lines [start, stop), of `count` fields each, as float columns."""
        wrong = np.flatnonzero(self.field_counts[start:stop] != count)
        if len(wrong):
            line = start + int(wrong[0])
            raise DataError(
                self.path,
                f"line {line + 1} has {self.field_counts[line]} fields where the metadata's "
                f"data format specification has {count}",
            )
        values = self._load(start, stop, list(names.values()))
        return dict(zip(names, values.T, strict=True))

    def _load(self, start: int, stop: int, columns: list[int]) -> np.ndarray:
        if stop <= start or not columns:
            return np.empty((max(stop - start, 0), len(columns)))
        block = self.text[self.starts[start] : self.ends[stop - 1]]
        try:
            return np.loadtxt(
                io.BytesIO(block),
                delimiter=",",
                usecols=columns,
                comments=None,
                ndmin=2,
                dtype=np.float64,
                encoding="ascii",
            ).reshape(stop - start, len(columns))
        except ValueError as error:
            raise DataError(self.path, f"not Metrica EPTS frames: {error}") from error


def _layout(
    specification: DataFormatSpecification, metadata: EPTSMetadata, raw_data: Path
) -> tuple[int, dict[str, int]]:
    """A line's field count, and the position of each field kloppy names (`player_<id>_x`,
    `ball_x`), the frame number's first, under the name ""."""
    channels = {item.player_channel_id: item for item in metadata.player_channels}
    ball = {
        channel.channel_id
        for sensor in metadata.sensors
        if sensor.sensor_id == "position"
        for channel in sensor.channels
    }
    leaves: list[str | None] = []

    def walk(register: Any) -> None:
        if isinstance(register, SplitRegister):
            for child in register.children:
                walk(child)
        elif isinstance(register, PlayerChannelRef):
            item = channels.get(register.player_channel_id)
            player_id = None if item is None else item.player.player_id
            leaves.append(None if item is None else f"player_{player_id}_{item.channel.channel_id}")
        elif isinstance(register, BallChannelRef):
            leaves.append(f"ball_{register.channel_id}" if register.channel_id in ball else None)
        else:  # a StringRegister: only the first, the frame number, means anything
            leaves.append("" if not leaves else None)

    walk(specification.split_register)
    if not isinstance(specification.split_register.children[0], StringRegister):
        raise DataError(raw_data, "the data format specification starts with no frame number")
    names = {name: position for position, name in enumerate(leaves) if name is not None}
    return len(leaves), names
