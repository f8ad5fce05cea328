"""varroom's Tracab `.dat` reader, which parses the file a piece at a time on its bytes, against
the reader it replaced (issue 26), kept here as the oracle: on random small files, good and
mangled, the same match bit for bit or the same error with the same message, with pieces of
the usual size and with pieces smaller than a line.

The oracle is the old reader as it was meant to be: it refused any player field that was not
a whole number with numpy's "inhomogeneous shape" error (its fallback to floats split the
fields with one too many), where kloppy reads a decimal. Here that fallback works, as the new
reader's does.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

import kloppy
import numpy as np
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from kloppy.domain import Player as KloppyPlayer
from kloppy.domain import Team as KloppyTeam

from varroom.match import DataError, MatchTracking, tracab_dat
from varroom.match.columns import scatter_positions

TRACAB = Path(kloppy.__file__).parent / "tests" / "files"
# Listed players, and none (every player unlisted, added as first seen).
METADATA = [TRACAB / "tracab_meta.xml", TRACAB / "tracab_meta_2.xml"]
# Frames in period 1, in period 2, in none (half time), and frame 0: in periods 3, 4 and 5.
NUMBERS = [1848508, 1848509, 1916408, 1942114, 2017933, 1900000, 1930000, 0]
ARRAYS = ("t_s", "period", "ball_m", "players_m", "player_ids", "player_teams", "goalkeeper")
OTHERS = ("teams", "attack", "pitch", "frame_rate_hz", "player_names", "player_numbers")


def read_before(meta_data: Path, raw_data: Path) -> MatchTracking:
    """The reader before issue 26: every line split and every field indexed at once."""
    metadata = tracab_dat._metadata(meta_data)
    with raw_data.open("rb") as stream:
        lines = [line for line in (line.strip() for line in stream.readlines()) if line]
    try:
        every = np.array([int(line[:10].split(b":", 1)[0]) for line in lines], dtype=np.int64)
    except ValueError as error:
        raise DataError(raw_data, f"not Tracab .dat frames: {error}") from error
    line_of, period_of = tracab_dat._in_periods(every, metadata.periods, metadata.frame_rate_hz)
    number, lines = every[line_of], [lines[i] for i in line_of]
    sections = [line.split(b":") for line in lines]
    short = next((i for i, parts in enumerate(sections) if len(parts) < 3), None)
    if short is not None:
        raise DataError(raw_data, f"frame {number[short]} has no players and ball sections")
    frame, team, jersey, xy_m = _sightings(raw_data, number, [parts[1] for parts in sections])
    ball_m = _ball(raw_data, number, [parts[2] for parts in sections])
    players, column = _players(metadata.teams, team, jersey)
    players_m = scatter_positions(len(number), len(players), frame, column, xy_m)
    return tracab_dat._match(metadata, number, period_of, ball_m, players, players_m)


def _sightings(
    raw_data: Path, number: np.ndarray, sections: list[bytes]
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    cut = [section[: section.rfind(b";") + 1] for section in sections]
    counts = np.array([section.count(b";") for section in cut], dtype=np.int64)
    joined = b"".join(cut)
    text = np.frombuffer(joined, dtype=np.uint8)
    separators = np.flatnonzero((text == ord(",")) | (text == ord(";")))
    if len(separators) != 6 * counts.sum() or not (text[separators[5::6]] == ord(";")).all():
        _wrong_player(raw_data, number, counts, text)
    end = separators.reshape(-1, 6)[:, [0, 2, 3, 4]]
    start = np.concatenate(([0], separators[:-1] + 1)).reshape(-1, 6)[:, [0, 2, 3, 4]]
    values = _integers(text, start.reshape(-1), end.reshape(-1))
    if values is None:
        fields = joined.replace(b";", b",").split(b",")[:-1]  # (the fix: without the last "")
        try:
            values = np.array([fields[i::6] for i in (0, 2, 3, 4)], dtype=np.bytes_).T.astype(
                np.float64
            )
        except ValueError as error:
            raise DataError(raw_data, f"not Tracab .dat players: {error}") from error
    values = values.reshape(-1, 4)
    frame = np.repeat(np.arange(len(sections)), counts)
    team = values[:, 0].astype(np.int64)
    unknown = ~np.isin(team, (1, 0, -1, 3, 4))
    if unknown.any():
        first = np.argmax(unknown)
        raise DataError(raw_data, f"frame {number[frame[first]]}: unknown team {team[first]}")
    player = (team == 1) | (team == 0)
    return (
        frame[player],
        team[player],
        values[player, 1].astype(np.int64),
        values[player, 2:4] / 100,
    )


def _wrong_player(raw_data: Path, number: np.ndarray, counts: np.ndarray, text: np.ndarray) -> None:
    ends = np.flatnonzero(text == ord(";"))
    commas = np.diff(np.cumsum(text == ord(","))[ends], prepend=0)
    wrong = np.flatnonzero(commas != 5)[0]
    frame = np.searchsorted(np.cumsum(counts), wrong, side="right")
    raise DataError(
        raw_data, f"frame {number[frame]} has a player of {commas[wrong] + 1} fields, not 6"
    )


def _integers(text: np.ndarray, start: np.ndarray, end: np.ndarray) -> np.ndarray | None:
    values = np.empty(len(start), dtype=np.float64)
    width = int((end - start).max(initial=1))
    if width > 15 or (end <= start).any():
        return None
    magnitude = np.zeros(len(start), dtype=np.int64)
    sign = np.ones(len(start), dtype=np.int64)
    for column in range(width):
        where = end - width + column
        char = text[np.maximum(where, 0)].astype(np.int64)
        minus = (where == start) & (char == ord("-")) & (end - start > 1)
        digit = np.where((where < start) | minus, 0, char - ord("0"))
        if ((digit < 0) | (digit > 9)).any():
            return None
        magnitude = magnitude * 10 + digit
        sign[minus] = -1
    values[:] = sign * magnitude
    return values


def _ball(raw_data: Path, number: np.ndarray, sections: list[bytes]) -> np.ndarray:
    fields = [section.rstrip(b";").split(b",")[:6] for section in sections]
    short = next((i for i, ball in enumerate(fields) if len(ball) < 6), None)
    if short is not None:
        raise DataError(raw_data, f"frame {number[short]} has a ball of too few fields")
    values = np.array(fields, dtype=np.bytes_).reshape(-1, 6)
    for index, known, what in (
        (4, (b"H", b"A"), "ball owning team"),
        (5, (b"Alive", b"Dead"), "ball state"),
    ):
        unknown = ~np.isin(values[:, index], known)
        if unknown.any():
            first = np.argmax(unknown)
            value = values[first, index].decode(errors="replace")
            raise DataError(raw_data, f"frame {number[first]}: unknown {what} {value!r}")
    try:
        return values[:, :3].astype(np.float64) / 100
    except ValueError as error:
        raise DataError(raw_data, f"not Tracab .dat ball: {error}") from error


def _players(
    teams: tuple[KloppyTeam, KloppyTeam], team: np.ndarray, jersey: np.ndarray
) -> tuple[list[KloppyPlayer], np.ndarray]:
    key = np.where(team == 1, 0, 1) << 32 | (jersey & 0xFFFFFFFF)
    seen, first, inverse = np.unique(key, return_index=True, return_inverse=True)
    players: list[KloppyPlayer] = []
    column_of: dict[int, int] = {}
    for side, kloppy_team in enumerate(teams):
        for player in kloppy_team.players:
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


def outcome(read: Callable[[Path, Path], MatchTracking], meta: Path, raw: Path) -> object:
    """The match's arrays as bytes and its other fields, or the DataError's message."""
    try:
        match = read(meta, raw)
    except DataError as error:
        return str(error)
    arrays = tuple((getattr(match, a).dtype, getattr(match, a).tobytes()) for a in ARRAYS)
    return arrays + tuple(getattr(match, name) for name in OTHERS)


coordinate = st.integers(-6000, 6000).map(str)
sighting = st.tuples(
    st.sampled_from([*["1", "0"] * 10, "3", "4", "-1", "2"]),  # 2: an unknown team
    st.integers(1, 40).map(str),
    st.sampled_from(["1", "5", "7", "9", "10", "12", "20", "55", "-1", "07"]),
    coordinate,
    coordinate,
    st.sampled_from(["0.00", "1.36"]),
).map(lambda fields: ",".join(fields) + ";")
ball = st.tuples(
    st.one_of(coordinate, st.just("nan")),
    st.one_of(coordinate, st.just("nan")),
    st.one_of(st.integers(0, 300).map(str), st.just("nan"), st.just("-0")),
    st.sampled_from(["0.00", "9.91"]),
    st.sampled_from(["H", "A"]),
    st.sampled_from(["Alive", "Dead"]),
).map(lambda fields: ",".join(fields) + ";")
frame_line = st.tuples(
    st.sampled_from(NUMBERS).map(str), st.lists(sighting, max_size=5).map("".join), ball
).map(lambda parts: f"{parts[0]}:{parts[1]}:{parts[2]}:")
ending = st.sampled_from(["\n", "\n", "\n", "\r\n", " \n", "\n\n"])
MANGLING = b"0123456789,;:-.xHA \n"


@st.composite
def dat_file(draw: st.DrawFn) -> bytes:
    lines = draw(st.lists(frame_line, min_size=1, max_size=8))
    text = "".join(
        line + draw(ending)
        for line in [f"{NUMBERS[0]}:1,1,1,0,0,0.00;:0,0,0,0.00,H,Alive;:", *lines]
    )
    data = bytearray(text.encode())
    mangle = draw(st.sampled_from(["none", "none", "delete", "insert", "truncate"]))
    at = draw(st.integers(0, len(data) - 1))
    if mangle == "delete":
        del data[at]
    elif mangle == "insert":
        data.insert(at, draw(st.sampled_from(MANGLING)))
    elif mangle == "truncate":
        del data[at:]
    return bytes(data)


@pytest.fixture(params=[None, 40], ids=["pieces of 256 KiB", "pieces of 40 bytes"])
def piece_bytes(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> None:
    if request.param is not None:
        monkeypatch.setattr(tracab_dat, "_PIECE_BYTES", request.param)


@settings(max_examples=300, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=dat_file(), meta=st.sampled_from(METADATA))
def test_the_reader_equals_the_one_it_replaced(
    piece_bytes: None, tmp_path: Path, data: bytes, meta: Path
) -> None:
    raw = tmp_path / "tracking.dat"
    raw.write_bytes(data)
    try:
        before = outcome(read_before, meta, raw)
    except ValueError:  # the old reader crashed on a file without a player in any period
        assume(False)
    assert outcome(tracab_dat.read, meta, raw) == before


def test_a_synthetic_match_equals_the_one_it_replaced(tmp_path: Path) -> None:
    """Ten minutes of `varroom synthetic`'s Tracab at 25 Hz: unseen players, an unseen ball."""
    from varroom.synthetic.match import SyntheticConfig
    from varroom.synthetic.provider_files import season_plan, write_match

    config = SyntheticConfig(seed=3, period_s=300.0, with_events=False, incidents_per_kind=1)
    write_match(tmp_path, season_plan(1, seed=3)[0], config)
    meta, raw = tmp_path / "meta.xml", tmp_path / "tracking.dat"
    assert b"nan" in raw.read_bytes()
    assert outcome(tracab_dat.read, meta, raw) == outcome(read_before, meta, raw)


@pytest.mark.parametrize("field", [b"1x", b"", b"--1"])
def test_a_field_that_is_no_number_is_named_as_numpy_names_it(tmp_path: Path, field: bytes) -> None:
    text = (TRACAB / "tracab_raw.dat").read_bytes()
    raw = tmp_path / "tracking.dat"
    raw.write_bytes(text.replace(b",-913,", b"," + field + b",", 1))
    with pytest.raises(ValueError) as numpy_error:
        np.array([field], dtype=np.bytes_).astype(np.float64)
    message = f"not Tracab .dat players: {numpy_error.value}"
    with pytest.raises(DataError, match=re.escape(message)):
        tracab_dat.read(TRACAB / "tracab_meta.xml", raw)


def test_frames_without_players_are_read(tmp_path: Path) -> None:
    """The reader before crashed on them (numpy's reshape error)."""
    raw = tmp_path / "tracking.dat"
    raw.write_bytes(b"1848508::0,0,0,0.00,H,Alive;:\n1848509::100,-200,30,0.00,A,Dead;:\n")
    match = tracab_dat.read(METADATA[0], raw)
    assert np.isnan(match.players_m).all()
    np.testing.assert_array_equal(match.ball_m, [[0, 0, 0], [1, -2, 0.3]])
