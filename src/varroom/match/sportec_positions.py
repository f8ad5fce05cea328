"""Sportec (DFL) positions XML read straight into columns.

The positions file holds one FrameSet per period and object (a player, a referee, the
ball), each a run of `<Frame N=.. X=.. Y=.. Z=../>`: it is streamed with ElementTree's
`iterparse`, each FrameSet's attributes gathered into numpy arrays and scattered into the
frames by frame number, with no object per frame. The match information file is read by
kloppy's own Sportec metadata reader, so teams, players and periods are kloppy's.

As kloppy does: the frames are the metadata's periods' frame numbers, in order, at which
the ball is seen; a missing coordinate is 0; objects that are no listed player (referees)
are nobody. The positions are metres from the centre spot already.
"""

from __future__ import annotations

import xml.etree.ElementTree as ElementTree
from pathlib import Path

import numpy as np
from kloppy.infra.serializers.event.sportec.deserializer import sportec_metadata_from_xml_elm
from lxml import objectify

from varroom.errors import DataError
from varroom.match.columns import assemble, scatter_positions
from varroom.match.convert import _player
from varroom.match.direction import Team
from varroom.match.files import _open
from varroom.match.tracking import MatchTracking, PitchSource, Provider
from varroom.model.situation import Pitch

_PERIOD_OF_SECTION = {"firstHalf": 1, "secondHalf": 2, "firstHalfExtra": 3, "secondHalfExtra": 4}
_BALL = "ball"


def accepts(raw_data: Path) -> bool:
    del raw_data  # any positions file
    return True


def read(meta_data: Path, raw_data: Path) -> MatchTracking:
    try:
        with _open(meta_data) as stream:
            metadata = sportec_metadata_from_xml_elm(objectify.fromstring(stream.read()))
    except Exception as error:  # lxml's errors, AttributeError, KeyError, kloppy's own
        message = " ".join(f"{type(error).__name__}: {error}".split())
        raise DataError(meta_data, f"not Sportec match information: {message}") from error
    listed = [player for team in metadata.teams for player in team.players]
    column_of = {player.player_id: index for index, player in enumerate(listed)}
    sets = _frame_sets(raw_data)

    # The frames: (period, frame number) at which the ball is seen, period by period.
    fps = metadata.fps
    frame_keys, t_s, periods = [], [], []
    for period in metadata.periods:
        ball_frames = [n for (p, obj), (n, _) in sets.items() if p == period.id and obj == _BALL]
        if not ball_frames:
            continue
        numbers = np.unique(np.concatenate(ball_frames))
        frame_keys.append(numbers + period.id * (1 << 40))
        t_s.append((numbers - period.start_timestamp.seconds * fps) / fps)
        periods.append(np.full(len(numbers), period.id))
    keys = np.concatenate(frame_keys) if frame_keys else np.empty(0, dtype=np.int64)
    n_frames = len(keys)

    ball_m = np.full((n_frames, 3), np.nan)
    rows, columns, xy = [], [], []
    for (period_id, obj), (numbers, values) in sets.items():
        at = np.searchsorted(keys, numbers + period_id * (1 << 40)).clip(max=max(n_frames - 1, 0))
        found = (keys[at] == numbers + period_id * (1 << 40)) if n_frames else at < 0
        if obj == _BALL:
            ball_m[at[found]] = values[found]
        elif obj in column_of:
            rows.append(at[found])
            columns.append(np.full(np.count_nonzero(found), column_of[obj]))
            xy.append(values[found, :2])
    players_m = scatter_positions(
        n_frames,
        len(listed),
        np.concatenate(rows) if rows else np.empty(0, dtype=np.intp),
        np.concatenate(columns) if columns else np.empty(0, dtype=np.intp),
        np.concatenate(xy) if xy else np.empty((0, 2)),
    )
    home, away = (Team(str(team.team_id), team.name) for team in metadata.teams)
    return assemble(
        provider=Provider.SPORTEC,
        pitch=Pitch(float(metadata.x_max), float(metadata.y_max)),
        pitch_source=PitchSource.METADATA,
        teams=(home, away),
        stated_attack=(),
        frame_rate_hz=float(fps),
        t_s=np.concatenate(t_s) if t_s else np.empty(0),
        period=np.concatenate(periods) if periods else np.empty(0, dtype=np.int64),
        ball_m=ball_m,
        players=[_player(player) for player in listed],
        players_m=players_m,
    )


def _frame_sets(raw_data: Path) -> dict[tuple[int, str], tuple[np.ndarray, np.ndarray]]:
    """Each (period, object)'s frame numbers and (x, y, z), object "ball" for the ball.

    A later FrameSet of the same period and object adds to, and overrides, an earlier one.
    """
    gathered: dict[tuple[int, str], list[tuple[list[str], ...]]] = {}
    try:
        with _open(raw_data) as stream:
            for _, element in ElementTree.iterparse(stream, events=("end",)):
                if element.tag != "FrameSet":
                    continue
                period = _PERIOD_OF_SECTION.get(element.get("GameSection", ""))
                obj = _BALL if element.get("TeamId") == "BALL" else element.get("PersonId")
                if period is not None and obj is not None:
                    frames = [frame for frame in element if "N" in frame.attrib]
                    gathered.setdefault((period, obj), []).append(
                        (
                            [frame.get("N") for frame in frames],
                            [frame.get("X", "0") for frame in frames],
                            [frame.get("Y", "0") for frame in frames],
                            [frame.get("Z", "0") for frame in frames],
                        )
                    )
                element.clear()
    except ElementTree.ParseError as error:
        raise DataError(raw_data, f"malformed XML: {error}") from error
    try:
        return {key: _arrays(parts) for key, parts in gathered.items()}
    except ValueError as error:
        raise DataError(raw_data, f"not Sportec positions: {error}") from error


def _arrays(parts: list[tuple[list[str], ...]]) -> tuple[np.ndarray, np.ndarray]:
    numbers = np.array([n for part in parts for n in part[0]]).astype(np.float64).astype(np.int64)
    values = np.stack(
        [
            np.array([v for part in parts for v in part[axis]]).astype(np.float64)
            for axis in (1, 2, 3)
        ],
        axis=1,
    ).reshape(-1, 3)
    # The last of each frame number wins, as in kloppy's dict.
    last = len(numbers) - 1 - np.unique(numbers[::-1], return_index=True)[1]
    return numbers[last], values[last]
