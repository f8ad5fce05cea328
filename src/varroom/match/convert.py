"""kloppy datasets as a `MatchTracking`.

Coordinates go through kloppy's own transform into metres from the centre spot. Frames
are the tracking frames, or else the events' freeze frames (one per event that has one).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from kloppy.domain import (
    DEFAULT_PITCH_LENGTH,
    DEFAULT_PITCH_WIDTH,
    CustomCoordinateSystem,
    Dataset,
    Dimension,
    Event,
    Frame,
    MetricPitchDimensions,
    Origin,
    Point3D,
    PositionType,
    VerticalOrientation,
)
from kloppy.domain import Orientation as KloppyOrientation
from kloppy.domain import Player as KloppyPlayer

from varroom.errors import DataError
from varroom.match.columns import assemble, scatter_positions
from varroom.match.direction import DirectionSource, Team, TeamAttack, team_attacks
from varroom.match.events import match_events
from varroom.match.providers import DatasetKind, Loader, Orientation
from varroom.match.tracking import MatchTracking, PitchSource, Provider
from varroom.model.situation import Direction, Pitch, Player

_STATED_SOURCE = {
    Orientation.FILE: DirectionSource.METADATA,
    Orientation.NORMALISED: DirectionSource.NORMALISED,
}


@dataclass(frozen=True, slots=True)
class Loaded:
    """A kloppy dataset and the loader and main file it came from."""

    loader: Loader
    dataset: Dataset
    main_file: Path


def to_match_tracking(provider: Provider, loaded: list[Loaded]) -> MatchTracking:
    by_kind = {item.loader.kind: item for item in loaded}
    tracking, events = by_kind.get(DatasetKind.TRACKING), by_kind.get(DatasetKind.EVENT)
    main = tracking or events
    if main is None:  # the loaders of a provider are all tracking or event loaders
        raise DataError(None, f"{provider.value}: no tracking or event data among the files")
    pitch, pitch_source = _pitch(main)
    dataset = main.dataset.transform(to_coordinate_system=_metric(pitch))
    teams = _teams(dataset)
    framed = [] if tracking else _freeze_framed(dataset.records)
    frames = dataset.records if tracking else [event.freeze_frame for event in framed]
    listed = [player for team in dataset.metadata.teams for player in team.players]
    players, players_m = _positions(frames, listed, slot_unlisted=tracking is None)
    ball_m = np.array([_ball(frame) for frame in frames], dtype=np.float64).reshape(-1, 3)
    if tracking is None:
        away_facing = _away_facing(dataset, framed, teams)
        players_m[away_facing] *= -1
        ball_m[away_facing, :2] *= -1
    frame_of_event = {event.event_id: index for index, event in enumerate(framed)}
    events_of_match = (
        () if events is None else match_events(provider, events.dataset.records, frame_of_event)
    )
    return assemble(
        provider=provider,
        pitch=pitch,
        pitch_source=pitch_source,
        teams=teams,
        stated_attack=_stated_attack(loaded, main, teams),
        frame_rate_hz=None if tracking is None else float(dataset.metadata.frame_rate),
        t_s=np.array([frame.timestamp.total_seconds() for frame in frames]),
        period=np.array([frame.period.id for frame in frames]),
        ball_m=ball_m,
        players=players,
        players_m=players_m,
        events=events_of_match,
    )


def _pitch(main: Loaded) -> tuple[Pitch, PitchSource]:
    system = main.dataset.metadata.coordinate_system
    if main.loader.pitch is PitchSource.NOMINAL:
        # The same fallback kloppy's transform takes for a format without a pitch size.
        return (
            Pitch(
                float(system.pitch_length or DEFAULT_PITCH_LENGTH),
                float(system.pitch_width or DEFAULT_PITCH_WIDTH),
            ),
            PitchSource.NOMINAL,
        )
    # kloppy marks the dimensions it made up (105 x 68) as standardized.
    if (
        system is None
        or system.pitch_length is None
        or system.pitch_width is None
        or system.pitch_dimensions.standardized
    ):
        raise DataError(main.main_file, "no pitch dimensions", "pitch")
    return Pitch(float(system.pitch_length), float(system.pitch_width)), PitchSource.METADATA


def _metric(pitch: Pitch) -> CustomCoordinateSystem:
    return CustomCoordinateSystem(
        origin=Origin.CENTER,
        vertical_orientation=VerticalOrientation.BOTTOM_TO_TOP,
        pitch_dimensions=MetricPitchDimensions(
            x_dim=Dimension(-pitch.half_length_m, pitch.half_length_m),
            y_dim=Dimension(-pitch.half_width_m, pitch.half_width_m),
            pitch_length=pitch.length_m,
            pitch_width=pitch.width_m,
            standardized=False,
        ),
    )


def _teams(dataset: Dataset) -> tuple[Team, Team]:
    home, away = (Team(str(team.team_id), team.name) for team in dataset.metadata.teams)
    return home, away


def _away_facing(dataset: Dataset, framed: list[Event], teams: tuple[Team, Team]) -> np.ndarray:
    """Which frames show the pitch as the away team attacks it, to be turned round.

    Event providers give each event, and its freeze frame, in the direction of the team
    performing it; turning the away team's round makes the home team attack +x throughout.
    """
    per_team = dataset.metadata.orientation is KloppyOrientation.ACTION_EXECUTING_TEAM
    return np.array(
        [
            per_team and event.team is not None and str(event.team.team_id) == teams[1].id
            for event in framed
        ],
        dtype=bool,
    )


def _freeze_framed(events: list[Event]) -> list[Event]:
    """One event per freeze frame: kloppy splits some provider events in two, sharing it."""
    first: dict[str, Event] = {}
    for event in events:
        if event.freeze_frame is not None:
            first.setdefault(event.event_id, event)
    return list(first.values())


def _positions(
    frames: list[Frame], listed: list[KloppyPlayer], slot_unlisted: bool
) -> tuple[list[Player], np.ndarray]:
    """The players (listed ones first, then others as they appear) and their (T, P, 2) positions.

    Freeze-frame players nobody identified are anonymous in each frame on its own; they go
    into per-team slots, numbered in the frame's order, that name nobody across frames.
    """
    players = {str(player.player_id): _player(player) for player in listed}
    rows: list[tuple[int, str, float, float]] = []
    for index, frame in enumerate(frames):
        slots: Counter[str] = Counter()
        for kloppy_player, data in frame.players_data.items():
            if kloppy_player is None or data.coordinates is None:
                continue
            player_id = str(kloppy_player.player_id)
            if player_id not in players and slot_unlisted:
                team = str(kloppy_player.team.team_id)
                player_id = f"{team}-unidentified-{slots[team]}"
                slots[team] += 1
                players.setdefault(player_id, Player(player_id, team))
            elif player_id not in players:
                players[player_id] = _player(kloppy_player)
            rows.append((index, player_id, data.coordinates.x, data.coordinates.y))
    column = {player_id: index for index, player_id in enumerate(players)}
    frame_of_row = np.array([row[0] for row in rows], dtype=np.intp)
    column_of_row = np.array([column[row[1]] for row in rows], dtype=np.intp)
    xy_m = np.array([row[2:] for row in rows], dtype=np.float64).reshape(-1, 2)
    return list(players.values()), scatter_positions(
        len(frames), len(players), frame_of_row, column_of_row, xy_m
    )


def _player(player: KloppyPlayer) -> Player:
    positions = set(player.positions.items.values()) | {player.starting_position}
    return Player(
        id=str(player.player_id),
        team=str(player.team.team_id),
        goalkeeper=PositionType.Goalkeeper in positions,
        name=player.name,
        number=player.jersey_no,
        short_name=_last_name(player),
    )


def _last_name(player: KloppyPlayer) -> str | None:
    """Where the provider gives the last name apart, it is what he is called (kloppy numbers
    anonymous tracks there: no name)."""
    first, last = player.first_name, player.last_name
    return last if isinstance(first, str) and isinstance(last, str) and first and last else None


def _ball(frame: Frame) -> tuple[float, float, float]:
    point = frame.ball_coordinates
    if point is None:
        return (np.nan, np.nan, np.nan)
    z = point.z if isinstance(point, Point3D) and point.z is not None else np.nan
    return (point.x, point.y, z)


def _stated_attack(
    loaded: list[Loaded], main: Loaded, teams: tuple[Team, Team]
) -> tuple[TeamAttack, ...]:
    """The directions the files state, per period, or the convention of the frames' provider.

    A statement about the pitch holds for every file of the match; a convention holds only
    for the coordinates that follow it.
    """
    for item in loaded:
        source = _STATED_SOURCE.get(item.loader.orientation)
        if source is None or (source is DirectionSource.NORMALISED and item is not main):
            continue
        metadata = item.dataset.metadata
        return tuple(
            attack
            for period in metadata.periods
            if (home := _home_direction(metadata.orientation, period.id)) is not None
            for attack in team_attacks(teams, period.id, home, source)
        )
    return ()


def _home_direction(orientation: KloppyOrientation, period: int) -> Direction | None:
    if orientation in (
        KloppyOrientation.ACTION_EXECUTING_TEAM,  # turned round: the home team attacks +x
        KloppyOrientation.STATIC_HOME_AWAY,
    ):
        return Direction.PLUS_X
    if orientation is KloppyOrientation.STATIC_AWAY_HOME:
        return Direction.MINUS_X
    # Teams change ends at half-time, but a new toss decides the ends for extra time:
    # kloppy's guess that extra time repeats the first half is no statement of the files.
    alternating = (KloppyOrientation.HOME_AWAY, KloppyOrientation.AWAY_HOME)
    if orientation in alternating and period in (1, 2):
        home_first = orientation is KloppyOrientation.HOME_AWAY
        return Direction.PLUS_X if home_first == (period == 1) else Direction.MINUS_X
    return None
