"""Which kloppy loaders read which provider's files, and what their datasets mean.

A provider has one or more loaders (events, tracking); `load_match` calls every loader
whose files are all given, at most one of each kind, and merges what they read.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from enum import Enum
from typing import Any

from kloppy import (
    datafactory,
    hawkeye,
    impect,
    metrica,
    opta,
    pff,
    secondspectrum,
    signality,
    skillcorner,
    sportec,
    statsbomb,
    statsperform,
    tracab,
    wyscout,
)

from varroom.match.files import FileFormat, FileSpec
from varroom.match.tracking import PitchSource, Provider


class DatasetKind(Enum):
    TRACKING = "tracking"
    EVENT = "event"


class Orientation(Enum):
    """Where kloppy's orientation of a loader's dataset comes from."""

    FILE = "file"  # stated in the files: the kick-off side, the first half's direction
    # The provider's coordinates follow a convention: each event in its team's direction,
    # or the home team always attacking one way.
    NORMALISED = "normalised"
    GUESSED = "guessed"  # kloppy guesses it from the first frames; varroom infers its own


@dataclass(frozen=True, slots=True)
class Loader:
    """A kloppy loader. Its first file carries the match's metadata: it is the one named
    when the pitch dimensions are missing, or when kloppy fails and no file is malformed."""

    read: Callable[..., Any]
    files: tuple[FileSpec, ...]
    kind: DatasetKind
    coordinates: str  # kloppy's name of the provider's own coordinate system
    orientation: Orientation
    pitch: PitchSource  # METADATA: the files must give it; NOMINAL: the format's fixed units
    options: Mapping[str, object] = field(default_factory=dict)


def _json(name: str, *markers: bytes, required: bool = True, many: bool = False) -> FileSpec:
    return FileSpec(name, FileFormat.JSON, markers, required, many)


def _xml(name: str, *markers: bytes) -> FileSpec:
    return FileSpec(name, FileFormat.XML, markers)


def _any(name: str, many: bool = False) -> FileSpec:
    return FileSpec(name, FileFormat.TEXT, many=many)


def _events(read: Callable[..., Any], coordinates: str, *files: FileSpec) -> Loader:
    """Event data in a fixed-units format, each event in the direction of its team."""
    return Loader(
        read, files, DatasetKind.EVENT, coordinates, Orientation.NORMALISED, PitchSource.NOMINAL
    )


def _tracking(
    read: Callable[..., Any], coordinates: str, *files: FileSpec, **options: Any
) -> Loader:
    """Tracking data in metres (or a unit square) of a pitch its metadata measures."""
    return Loader(
        read,
        files,
        DatasetKind.TRACKING,
        coordinates,
        Orientation.GUESSED,
        PitchSource.METADATA,
        options,
    )


def _directed(
    read: Callable[..., Any], kind: DatasetKind, coordinates: str, *files: FileSpec
) -> Loader:
    """Data whose files state the direction of play, on a pitch its metadata measures."""
    return Loader(read, files, kind, coordinates, Orientation.FILE, PitchSource.METADATA)


LOADERS: dict[Provider, tuple[Loader, ...]] = {
    Provider.DATAFACTORY: (_events(datafactory.load, "datafactory", _json("event_data")),),
    Provider.HAWKEYE: (
        # kloppy would fall back to 105 x 68 when the metadata has no pitch: forbid that.
        _tracking(
            hawkeye.load,
            "hawkeye",
            _any("meta_data"),
            _any("ball_feeds", many=True),
            _any("player_centroid_feeds", many=True),
            pitch_length=None,
            pitch_width=None,
        ),
    ),
    Provider.IMPECT: (
        _events(
            impect.load,
            "impect",
            _json("event_data"),
            _json("lineup_data"),
            _json("squads_data", required=False),
            _json("players_data", required=False),
        ),
    ),
    Provider.METRICA: (
        _directed(
            metrica.load_event,
            DatasetKind.EVENT,
            "metrica",
            _xml("meta_data", b"<Metadata"),
            _json("event_data", b'"subtypes"'),
        ),
        _directed(
            metrica.load_tracking_epts,
            DatasetKind.TRACKING,
            "metrica",
            _xml("meta_data", b"<Metadata"),
            _any("raw_data"),
        ),
        _tracking(metrica.load_tracking_csv, "metrica", _any("home_data"), _any("away_data")),
    ),
    Provider.OPTA: (_events(opta.load, "opta", _xml("f7_data"), _xml("f24_data")),),
    Provider.PFF: (
        _tracking(
            pff.load_tracking,
            "pff",
            _json("meta_data"),
            _json("roster_meta_data"),
            _json("raw_data"),
        ),
    ),
    Provider.SECONDSPECTRUM: (
        _tracking(
            secondspectrum.load,
            "secondspectrum",
            _any("meta_data"),
            _json("raw_data"),
            _json("additional_meta_data", required=False),
        ),
    ),
    Provider.SIGNALITY: (
        _tracking(
            signality.load,
            "signality",
            _json("meta_data"),
            _json("venue_information"),
            _json("raw_data_feeds", many=True),
        ),
    ),
    Provider.SKILLCORNER: (
        _tracking(
            skillcorner.load,
            "skillcorner",
            _json("meta_data", b'"home_team"'),
            _json("raw_data", b'"frame"'),
        ),
    ),
    Provider.SPORTEC: (
        _directed(
            sportec.load_event,
            DatasetKind.EVENT,
            "sportec",
            _xml("meta_data", b"<MatchInformation"),
            _xml("event_data", b"<Event"),
        ),
        _tracking(
            sportec.load_tracking,
            "sportec",
            _xml("meta_data", b"<MatchInformation"),
            _xml("raw_data", b"<Positions"),
        ),
    ),
    Provider.STATSBOMB: (
        _events(
            statsbomb.load,
            "statsbomb",
            _json("event_data", b'"possession_team"'),
            _json("lineup_data", b'"lineup"'),
            _json("three_sixty_data", b'"freeze_frame"', required=False),
        ),
    ),
    Provider.STATSPERFORM: (
        _events(statsperform.load_event, "opta", _any("ma1_data"), _any("ma3_data")),
        _tracking(statsperform.load_tracking, "sportvu", _any("ma1_data"), _any("ma25_data")),
    ),
    Provider.TRACAB: (_tracking(tracab.load, "tracab", _any("meta_data"), _any("raw_data")),),
    Provider.WYSCOUT: (_events(wyscout.load, "wyscout", _json("event_data")),),
}
