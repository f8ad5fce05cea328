"""Tracab `.dat` raw data read straight into the match's arrays.

Each line of a `.dat` file is one frame, `frame:players:ball:`, the players
`team,id,jersey,x,y,speed;` one after another and the ball `x,y,z,speed,owner,state;`.
The file is read twice, a quarter of a megabyte of whole lines at a time: once for the frames'
numbers (which lines lie in a period, so how many frames there are), then for the positions,
parsed by numpy on the bytes of each piece and written into the match's arrays. No object is
made per frame or per sighting, and what a piece needs beside the arrays is the piece's own
size, whatever the match's length or frame rate. The metadata (flat or hierarchical XML, or
JSON) is read by kloppy's own Tracab metadata parsers, so teams, players, periods and the
pitch are kloppy's.

As kloppy does (without `only_alive`, which varroom does not ask for): the frames are the
lines whose time (frame number / frame rate) lies within a period, in the file's order, a
line once for each period it lies in; team 1 is the home team, 0 the away team, and -1, 3
and 4 (referees, others) are nobody; a player is his team's listed player of that jersey
number, or else a new player `home_<jersey>` / `away_<jersey>`, added to his team after
the listed ones in the order first seen. Positions are centimetres from the centre spot:
whole numbers (as Tracab writes them) are read by arithmetic on their bytes, any other as
numpy reads a number from bytes.
A bad file is refused with the first fault found in this order, each the first in the file:
a frame number, a frame without sections, a player's fields, a player's number, a team, the
ball's fields, its owning team, its state, its position.
"""

from __future__ import annotations

import io
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import timedelta
from pathlib import Path

import numpy as np
from kloppy.domain import Period
from kloppy.domain import Player as KloppyPlayer
from kloppy.domain import Team as KloppyTeam
from kloppy.infra.serializers.tracking.tracab.parsers import get_metadata_parser

from varroom.errors import DataError
from varroom.match.columns import assemble
from varroom.match.convert import _player
from varroom.match.direction import Team
from varroom.match.files import _open
from varroom.match.tracking import MatchTracking, PitchSource, Provider
from varroom.model.situation import Pitch

_CM = 100.0
_HOME_TEAM, _AWAY_TEAM = 1, 0  # Tracab's team of a sighting
_NOBODY_TEAMS = (-1, 3, 4)  # referees and other objects
_FIELDS = 6  # of a player (team, target id, jersey, x, y, speed) and of the ball
_MICROSECOND = timedelta(microseconds=1)
# A piece of the file parsed at once: its working arrays stay in the processor's cache (the
# whole read took 1.2x as long with pieces of 64 KiB or of 512 KiB, 1.3x with 1 MiB).
_PIECE_BYTES = 1 << 18
_NUMBER_CHARS = 10  # kloppy reads a frame's number from the first ten characters of its line
_ROWS_PER_COPY = 1 << 12  # frames whose players are put in their final order at once
_JERSEYS = 1 << 10  # jersey numbers 0.._JERSEYS-1 found by table, any other by dictionary


@dataclass(frozen=True)
class _Word:
    """Fields read as little-endian words of `size` bytes ending with a field's last byte, so
    that its digits are the word's high bytes: the bytes before them are set to "0", and the
    digits combined pairwise, pairs of pairs... (simdjson's method, for any power of two). The
    narrowest word that holds a piece's widest field is used: the arithmetic goes as fast as
    the words are narrow."""

    size: int

    @property
    def dtype(self) -> np.dtype[np.unsignedinteger]:
        return np.dtype(f"<u{self.size}")

    def each_byte(self, byte: int) -> np.unsignedinteger:
        return self.dtype.type(int.from_bytes(bytes([byte]) * self.size, "little"))

    def before(self) -> np.ndarray:
        """For a field of d digits, its word's bytes before them: the low size - d ones."""
        low = [(1 << 8 * (self.size - digits)) - 1 for digits in range(self.size)]
        return np.array([*low, 0], self.dtype)

    def steps(self) -> list[tuple[np.unsignedinteger, np.unsignedinteger, np.unsignedinteger]]:
        """(times, shift, mask) for each pairing: the 1, 2, 4-byte lanes combined in turn."""
        out = []
        lane_bytes = 1
        while lane_bytes < self.size:
            lane = (1 << 8 * lane_bytes) - 1
            mask = sum(lane << 16 * lane_bytes * k for k in range(self.size // (2 * lane_bytes)))
            kind = self.dtype.type
            out.append((kind(10**lane_bytes), kind(8 * lane_bytes), kind(mask)))
            lane_bytes *= 2
        return out


_WORDS = {size: _Word(size) for size in (1, 2, 4, 8)}
_PADDING = max(_WORDS)  # bytes before a piece, so that every field has a whole word
_ZERO_DIGITS = {size: word.each_byte(ord("0")) for size, word in _WORDS.items()}
# A byte above "9" plus this has its high bit set (as has one below "0" minus "0").
_OVER_NINE = {size: word.each_byte(0x80 - 1 - ord("9")) for size, word in _WORDS.items()}
_HIGH_BITS = {size: word.each_byte(0x80) for size, word in _WORDS.items()}
_BEFORE = {size: word.before() for size, word in _WORDS.items()}
_STEPS = {size: word.steps() for size, word in _WORDS.items()}
_ALIVE = np.uint64(int.from_bytes(b"Alive", "little"))
_DEAD = np.uint64(int.from_bytes(b"Dead", "little"))
_NAN = np.uint64(int.from_bytes(b"nan", "little"))  # an unseen ball, as varroom writes it

# A fault's place among the others: the one found first in this order is the file's.
(_SECTIONS, _PLAYER_FIELDS, _PLAYER_NUMBER, _TEAM) = range(4)
(_BALL_FIELDS, _OWNER, _STATE, _BALL_NUMBER) = range(4, 8)


def accepts(raw_data: Path) -> bool:
    """A `.dat` file; Tracab's JSON raw data is left to kloppy."""
    with _open(raw_data) as stream:
        return stream.read(64).lstrip()[:1] != b"{"


def read(meta_data: Path, raw_data: Path) -> MatchTracking:
    metadata = _metadata(meta_data)
    line_number, pieces = _line_numbers(raw_data)
    line_of, period_of = _in_periods(line_number, metadata.periods, metadata.frame_rate_hz)
    number = line_number[line_of]
    roster = _Roster(metadata.teams, len(number))
    ball_m = np.empty((len(number), 3))
    _read_positions(raw_data, pieces, line_of, number, roster, ball_m)
    players, players_m = roster.in_order()
    return _match(metadata, number, period_of, ball_m, players, players_m)


@dataclass(frozen=True)
class _Metadata:
    pitch: Pitch
    teams: tuple[KloppyTeam, KloppyTeam]
    periods: list[Period]
    frame_rate_hz: float


def _metadata(meta_data: Path) -> _Metadata:
    try:
        with _open(meta_data) as stream:
            parser = get_metadata_parser(io.BytesIO(stream.read()))
        length, width = parser.extract_pitch_dimensions()
        teams = parser.extract_lineups()
        periods = parser.extract_periods()
        frame_rate = parser.extract_frame_rate()
    except Exception as error:  # lxml's errors, AttributeError, KeyError, kloppy's own
        message = " ".join(f"{type(error).__name__}: {error}".split())
        raise DataError(meta_data, f"not Tracab metadata: {message}") from error
    if length is None or width is None:
        raise DataError(meta_data, "no pitch dimensions", "pitch")
    return _Metadata(Pitch(float(length), float(width)), teams, periods, float(frame_rate))


def _match(
    metadata: _Metadata,
    number: np.ndarray,
    period_of: np.ndarray,
    ball_m: np.ndarray,
    players: list[KloppyPlayer],
    players_m: np.ndarray,
) -> MatchTracking:
    """The match of the frames (`number`, each in its period: index into the metadata's)."""
    periods = metadata.periods
    starts = np.array([period.start_timestamp // _MICROSECOND for period in periods])
    t_us = _microseconds(number, metadata.frame_rate_hz) - starts[period_of]
    home, away = (Team(str(team.team_id), str(team.name)) for team in metadata.teams)
    return assemble(
        provider=Provider.TRACAB,
        pitch=metadata.pitch,
        pitch_source=PitchSource.METADATA,
        teams=(home, away),
        stated_attack=(),
        frame_rate_hz=metadata.frame_rate_hz,
        t_s=t_us / 1e6,
        period=np.array([period.id for period in periods], dtype=np.int64)[period_of],
        ball_m=ball_m,
        players=[_player(player) for player in players],
        players_m=players_m,
    )


def _pieces(raw_data: Path) -> Iterator[bytes]:
    """The file in pieces of whole lines (of about `_PIECE_BYTES`), each ended by a newline."""
    with _open(raw_data) as stream:
        rest = b""
        while block := stream.read(_PIECE_BYTES):
            block = rest + block
            cut = block.rfind(b"\n") + 1
            rest = block[cut:]
            if cut:
                yield block[:cut]
        if rest:
            yield rest + b"\n"


def _stripped(text: _Text) -> _Text:
    """The piece's lines as kloppy reads them: stripped, the empty ones left out."""
    # Whitespace is the only text at or below the space: where no line starts or ends with
    # any, none is empty (its newline would end it), and strip() would leave every one as is.
    edges = np.concatenate((text.bytes[text.line_start], text.bytes[text.line_end - 1]))
    if (edges > ord(" ")).all():
        return text
    lines = (line.strip() for line in text.piece.split(b"\n"))
    return _Text(b"".join(line + b"\n" for line in lines if line))


@dataclass(frozen=True, slots=True)
class _Lines:
    """Where a piece's lines end and its colons are, found reading the frames' numbers and
    kept for reading the positions (a piece kloppy would strip is found again)."""

    end: np.ndarray
    colon: np.ndarray


class _Text:
    """A piece of whole lines as numpy reads it: its bytes, its lines, and at each position
    the words of the bytes before it."""

    def __init__(self, piece: bytes, lines: _Lines | None = None) -> None:
        self.piece = piece
        self.padded = bytes(_PADDING) + piece
        self.bytes = np.frombuffer(self.padded, np.uint8)[_PADDING:]
        if lines is None:
            self.line_end = np.flatnonzero(self.bytes == ord("\n"))
            self.colon = np.flatnonzero(self.bytes == ord(":"))
        else:
            self.line_end, self.colon = lines.end, lines.colon
        self.line_start = np.concatenate(([0], self.line_end + 1))[:-1]

    def words(self, size: int) -> np.ndarray:
        """At each position of the piece, the word of the `size` bytes before it."""
        offset = _PADDING - size
        return np.ndarray((len(self.piece) + 1,), f"<u{size}", self.padded, offset, (1,))

    def field(self, start: int, end: int) -> bytes:
        return self.piece[start:end]

    def digits(
        self, start: np.ndarray, end: np.ndarray
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """The fields `[start, end)` as whole numbers of up to eight digits after an optional
        `-` (as Tracab writes them): their magnitudes and which are negative, and the fields
        that are not such a number (their magnitudes then meaningless)."""
        negative = self.bytes[start] == ord("-")
        digits = end - start
        digits -= negative
        most = int(digits.max(initial=1))
        size = next((size for size in _WORDS if size >= most), _PADDING)
        text = self.words(size)[end]
        value = text ^ _ZERO_DIGITS[size]
        value &= _BEFORE[size].take(digits, mode="clip")
        text ^= value  # the bytes before the digits now "0"
        value = text - _ZERO_DIGITS[size]
        text += _OVER_NINE[size]
        text |= value
        bad = np.empty(0, np.intp)
        if digits.size and (
            most > _PADDING
            or digits.min() < 1
            or np.bitwise_or.reduce(text, axis=None) & _HIGH_BITS[size]
        ):
            wrong = (text & _HIGH_BITS[size] != 0) | (digits < 1) | (digits > _PADDING)
            bad = np.flatnonzero(wrong)
        for times, shift, mask in _STEPS[size]:
            high = value >> shift
            value *= times
            value += high
            value &= mask
        return value, negative, bad

    def integers(self, start: np.ndarray, end: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """The fields as whole numbers (`digits`), and those that are not."""
        magnitude, negative, bad = self.digits(start, end)
        whole = magnitude.astype(np.int64)
        np.negative(whole, out=whole, where=negative)
        return whole, bad

    def whole_numbers(self, start: np.ndarray, end: np.ndarray) -> np.ndarray:
        """The fields as whole numbers (`digits`), or as numpy reads a number, truncated."""
        whole, bad = self.integers(start, end)
        if len(bad):
            with np.errstate(invalid="ignore"):  # `nan` as an integer: an unknown team, say
                whole.flat[bad] = self.as_numpy_reads(start, end, bad).astype(np.int64)
        return whole

    def metres(self, start: np.ndarray, end: np.ndarray, signed_zero: bool) -> np.ndarray:
        """The fields `[start, end)`, centimetres, in metres: whole numbers as `digits` reads
        them, any other as numpy reads a number. `-0` is negative where `signed_zero` (as a
        float is), zero otherwise (as an integer is)."""
        magnitude, negative, bad = self.digits(start, end)
        out = magnitude / _CM
        if signed_zero:
            np.negative(out, out=out, where=negative)
        else:
            np.subtract(0.0, out, out=out, where=negative)  # 0 - 0 is +0
        if len(bad):
            out.flat[bad] = self.as_numpy_reads(start, end, bad) / _CM
        return out

    def as_numpy_reads(self, start: np.ndarray, end: np.ndarray, some: np.ndarray) -> np.ndarray:
        """Some of the fields (flat indices) as numpy reads a number from bytes; _Unreadable
        for the first it cannot."""
        start, end = start.flat[some], end.flat[some]
        out = np.full(len(some), np.nan)
        # An unseen ball as varroom writes it, read without numpy's parser.
        nan = (end - start == 3) & (self.words(8)[end] >> np.uint64(40) == _NAN)
        fields = [self.field(s, e) for s, e in zip(start[~nan], end[~nan], strict=True)]
        try:
            out[~nan] = np.array(fields, dtype=np.bytes_).astype(np.float64)
        except ValueError:
            for at, field in zip(some[~nan], fields, strict=True):  # which one
                try:
                    np.array([field], dtype=np.bytes_).astype(np.float64)
                except ValueError as error:
                    raise _Unreadable(at, str(error)) from None
            raise
        return out


class _Unreadable(ValueError):
    """A field numpy cannot read as a number; `at` its flat index among the fields read."""

    def __init__(self, at: int, message: str) -> None:
        super().__init__(message)
        self.at = int(at)


def _line_numbers(raw_data: Path) -> tuple[np.ndarray, list[_Lines | None]]:
    """Every line's frame number, and each piece's lines (None where kloppy would strip
    them)."""
    numbers, pieces = [], []
    for piece in _pieces(raw_data):
        text = _stripped(_Text(piece))
        start, end = text.line_start, text.line_end
        colon = np.append(text.colon, len(text.piece))
        number_end = np.minimum(colon[np.searchsorted(colon, start)], end)
        number_end = np.minimum(number_end, start + _NUMBER_CHARS)
        number, bad = text.integers(start, number_end)
        for line in bad:  # as kloppy reads them: int() takes `+1`, `1 ` and `1_0` too
            try:
                number[line] = int(text.field(start[line], number_end[line]))
            except ValueError as error:
                raise DataError(raw_data, f"not Tracab .dat frames: {error}") from error
        numbers.append(number)
        # Positions within a piece fit 32 bits: half the memory kept.
        lines = _Lines(end.astype(np.int32), text.colon.astype(np.int32))
        pieces.append(lines if text.piece is piece else None)
    return np.concatenate([np.empty(0, np.int64), *numbers]), pieces


def _in_periods(
    number: np.ndarray, periods: list[Period], frame_rate: float
) -> tuple[np.ndarray, np.ndarray]:
    """The frames as kloppy keeps them: each one's line and period (index into `periods`)."""
    t_us = _microseconds(number, frame_rate)
    bounds = np.array(
        [[p.start_timestamp // _MICROSECOND, p.end_timestamp // _MICROSECOND] for p in periods],
        dtype=np.int64,
    ).reshape(-1, 2)
    inside = (bounds[:, 0] <= t_us[:, None]) & (t_us[:, None] <= bounds[:, 1])
    line_of, period_of = np.nonzero(inside)  # line by line, period by period within a line
    return line_of, period_of


def _microseconds(number: np.ndarray, frame_rate: float) -> np.ndarray:
    """`timedelta(seconds=number / frame_rate)` in whole microseconds, rounded as it rounds."""
    seconds = number / frame_rate
    whole = np.trunc(seconds)
    return whole.astype(np.int64) * 1_000_000 + np.rint((seconds - whole) * 1e6).astype(np.int64)


@dataclass(frozen=True, slots=True)
class _Fault:
    kind: int  # its place among the faults (_SECTIONS, ...)
    line: int  # its frame's line in the piece
    message: str


def _read_positions(
    raw_data: Path,
    pieces: list[_Lines | None],
    line_of: np.ndarray,
    number: np.ndarray,
    roster: _Roster,
    ball_m: np.ndarray,
) -> None:
    """Each frame's players into `roster` and ball into `ball_m`, piece by piece."""
    fault: _Fault | None = None
    first_line = first_row = 0
    for piece, known in zip(_pieces(raw_data), pieces, strict=True):
        text = _stripped(_Text(piece)) if known is None else _Text(piece, known)
        lines = len(text.line_end)
        last_row = int(np.searchsorted(line_of, first_line + lines))
        kept = line_of[first_row:last_row] - first_line
        if len(kept) and not np.array_equal(kept, np.arange(lines)):
            line, row_line = np.unique(kept, return_inverse=True)
            bounds = map(slice, text.line_start[line], text.line_end[line] + 1)
            text = _Text(b"".join(map(text.piece.__getitem__, bounds)))
        else:
            row_line = np.arange(len(kept))
        if len(kept):
            rows = np.arange(first_row, last_row)
            found = _read_piece(text, number[rows], row_line, rows, roster, ball_m, fault)
            if found is not None and (fault is None or found.kind < fault.kind):
                fault = found
        first_line, first_row = first_line + lines, last_row
    if fault is not None:
        raise DataError(raw_data, fault.message)


@dataclass(frozen=True, slots=True)
class _Layout:
    """Where a piece's fields are: each row of separators (a player's or a ball's six), where
    each row's first field starts, and each line's ball's row (its last)."""

    separator: np.ndarray  # (rows, 6): the ',' and ';' ending each field
    field_start: np.ndarray  # each row's first field's start
    ball_row: np.ndarray


def _layout(text: _Text) -> _Layout | None:
    """The piece's layout if every line is `number:player;...;:x,y,z,speed,owner,state;:`,
    every player of six fields; None otherwise."""
    b = text.bytes
    lines = len(text.line_end)
    colon = text.colon
    semicolon = b == ord(";")
    separator = np.flatnonzero((b == ord(",")) | semicolon)
    if len(colon) != 3 * lines or len(separator) % _FIELDS or not len(separator):
        return None
    first, second, third = colon[0::3], colon[1::3], colon[2::3]
    rows_before = np.searchsorted(separator, text.line_end)
    if (rows_before % _FIELDS).any() or not (third == text.line_end - 1).all():
        return None
    row = separator.reshape(-1, _FIELDS)
    # Every row's last separator a `;`, and no other: the five before it are `,`.
    if np.count_nonzero(semicolon) != len(row) or not semicolon[row[:, -1]].all():
        return None
    ball_row = rows_before // _FIELDS - 1
    first_row = np.concatenate(([0], ball_row[:-1] + 1))
    if (ball_row < first_row).any():  # a line without a ball
        return None
    players_end = np.where(ball_row > first_row, row[ball_row - 1, -1] + 1, first + 1)
    if not (
        (players_end == second).all()
        & (row[first_row, 0] > first).all()
        & (row[ball_row, 0] > second).all()
        & (row[ball_row, -1] + 1 == third).all()
    ):
        return None
    field_start = np.empty(len(row), np.int64)
    field_start[1:] = row[:-1, -1] + 1
    field_start[first_row] = first + 1
    field_start[ball_row] = second + 1
    return _Layout(row, field_start, ball_row)


def _canonical(
    piece: bytes, number: np.ndarray, row_line: np.ndarray
) -> tuple[bytes, list[_Fault]]:
    """The piece's lines as `_layout` reads them (without their frame numbers, read before),
    with the faults found on the way: each line cut as kloppy cuts it (its players after
    their last `;`, its ball to its first six fields, its speed unread); a line without
    players and ball sections, or whose ball would not read as six fields, is written with
    its ball at the centre spot, and its faults are given."""
    frame = _frame_numbers(number, row_line)
    faults, lines = [], []
    for line, text in enumerate(piece.split(b"\n")[:-1]):
        sections = text.split(b":")
        if len(sections) < 3:
            faults.append(
                _Fault(_SECTIONS, line, f"frame {frame[line]} has no players and ball sections")
            )
            lines.append(b"::0,0,0,0,H,Alive;:\n")
            continue
        players = sections[1][: sections[1].rfind(b";") + 1]
        ball = sections[2].rstrip(b";").split(b",")[:_FIELDS]
        if len(ball) == _FIELDS:
            ball[3] = b"0"  # the speed, read by no one
        if len(ball) == _FIELDS and not any(b";" in field for field in ball):
            lines.append(b":" + players + b":" + b",".join(ball) + b";:\n")
        else:
            faults += _ball_faults(line, frame[line], ball)
            lines.append(b":" + players + b":0,0,0,0,H,Alive;:\n")
    return b"".join(lines), faults


def _ball_faults(line: int, frame: int, ball: list[bytes]) -> list[_Fault]:
    """What is wrong with a ball of fields `_layout` cannot find (too few, or holding a `;`)."""
    if len(ball) < _FIELDS:
        return [_Fault(_BALL_FIELDS, line, f"frame {frame} has a ball of too few fields")]
    values = np.array(ball, dtype=np.bytes_)
    faults = [
        _Fault(kind, line, _unknown(frame, what, values[index]))
        for kind, index, known, what in (
            (_OWNER, 4, (b"H", b"A"), "ball owning team"),
            (_STATE, 5, (b"Alive", b"Dead"), "ball state"),
        )
        if values[index] not in known
    ]
    try:
        values[:3].astype(np.float64)
    except ValueError as error:
        faults.append(_Fault(_BALL_NUMBER, line, f"not Tracab .dat ball: {error}"))
    return faults


def _unknown(frame: int, what: str, value: bytes) -> str:
    return f"frame {frame}: unknown {what} {value.decode(errors='replace')!r}"


def _frame_numbers(number: np.ndarray, row_line: np.ndarray) -> np.ndarray:
    """Each line's frame number (its first frame's, for a line in two periods)."""
    first_row = np.searchsorted(row_line, np.arange(row_line[-1] + 1))
    return number[first_row]


def _read_piece(
    text: _Text,
    number: np.ndarray,
    row_line: np.ndarray,
    rows: np.ndarray,
    roster: _Roster,
    ball_m: np.ndarray,
    fault: _Fault | None,
) -> _Fault | None:
    """One piece's frames (`rows`, each of its line `row_line`) into the arrays, unless a
    fault was found before; the piece's first fault."""
    layout = _layout(text)
    faults: list[_Fault] = []
    if layout is None:
        piece, faults = _canonical(text.piece, number, row_line)
        if any(f.kind == _SECTIONS for f in faults):
            return min(faults, key=lambda f: (f.kind, f.line))
        text = _Text(piece)
        layout = _layout(text)
        if layout is None:
            return _wrong_player(piece, _frame_numbers(number, row_line))
    frame = _frame_numbers(number, row_line)
    player_row = np.ones(len(layout.separator), bool)
    player_row[layout.ball_row] = False
    separator = layout.separator[player_row]
    per_line = np.diff(layout.ball_row, prepend=-1) - 1  # each line's players
    ball = layout.separator[layout.ball_row]
    ball_start = np.stack([layout.field_start[layout.ball_row], ball[:, 0] + 1, ball[:, 1] + 1], 1)
    try:
        team_id = text.whole_numbers(layout.field_start[player_row], separator[:, 0])
        jersey = text.whole_numbers(separator[:, 1] + 1, separator[:, 2])
        x_m, y_m = (text.metres(separator[:, k] + 1, separator[:, k + 1], False) for k in (2, 3))
    except _Unreadable as error:
        return _Fault(_PLAYER_NUMBER, 0, f"not Tracab .dat players: {error}")
    player = team_id.view(np.uint64) <= 1  # 0 or 1: a player; nobody, or unknown
    if not player.all():
        unknown = ~(player | np.isin(team_id, _NOBODY_TEAMS))
        if unknown.any():
            first = int(np.argmax(unknown))
            line = int(np.searchsorted(np.cumsum(per_line), first, side="right"))
            message = f"frame {frame[line]}: unknown team {team_id[first]}"
            return _Fault(_TEAM, line, message)
    faults += _ball_check(text, frame, ball)
    try:
        ball_xyz_m = text.metres(ball_start.ravel(), ball[:, :3].ravel(), True).reshape(-1, 3)
    except _Unreadable as error:
        ball_line = error.at // 3
        faults.append(_Fault(_BALL_NUMBER, ball_line, f"not Tracab .dat ball: {error}"))
    if faults:
        return min(faults, key=lambda f: (f.kind, f.line))
    if fault is not None:
        return None
    ball_m[rows] = ball_xyz_m[row_line]
    everyone = player.all()
    if not everyone:
        team_id, jersey, x_m, y_m = (a[player] for a in (team_id, jersey, x_m, y_m))
    column = roster.columns(np.where(team_id == _HOME_TEAM, 0, 1), jersey)
    xy_m = np.stack([x_m, y_m], axis=1)
    positions = roster.players_m.reshape(-1, 2)  # (frame, player) flat: one index, not two
    copies = np.bincount(row_line, minlength=len(per_line))
    first_row = np.cumsum(copies) - copies
    for copy in range(int(copies.max())):
        # A line in two periods is a frame in each.
        frame_row = rows[np.minimum(first_row + copy, len(rows) - 1)]
        at = np.repeat(frame_row * roster.players_m.shape[1], per_line)
        again = np.repeat(copies > copy, per_line)
        if not everyone:
            at, again = at[player], again[player]
        at += column
        if again.all():
            positions[at] = xy_m
        else:
            positions[at[again]] = xy_m[again]
    return None


def _ball_check(text: _Text, frame: np.ndarray, ball: np.ndarray) -> list[_Fault]:
    """The first ball of an owning team other than H or A, and of a state other than Alive
    or Dead."""
    b = text.bytes
    owner_start, owner_end = ball[:, 3] + 1, ball[:, 4]
    owner = b[owner_start]
    owned = (owner_end - owner_start == 1) & ((owner == ord("H")) | (owner == ord("A")))
    state_start, state_end = ball[:, 4] + 1, ball[:, 5]
    width, word = state_end - state_start, text.words(8)[state_end]
    known_state = ((width == 5) & (word >> np.uint64(24) == _ALIVE)) | (
        (width == 4) & (word >> np.uint64(32) == _DEAD)
    )
    faults = []
    for kind, known, starts, ends, what in (
        (_OWNER, owned, owner_start, owner_end, "ball owning team"),
        (_STATE, known_state, state_start, state_end, "ball state"),
    ):
        if not known.all():
            line = int(np.argmin(known))
            value = text.field(starts[line], ends[line])
            faults.append(_Fault(kind, line, _unknown(frame[line], what, value)))
    return faults


def _wrong_player(piece: bytes, frame: np.ndarray) -> _Fault:
    """The first player not of six fields, in a piece `_canonical` wrote."""
    for line, text in enumerate(piece.split(b"\n")[:-1]):
        for player in text.split(b":")[1].split(b";")[:-1]:
            if player.count(b",") != _FIELDS - 1:
                fields = player.count(b",") + 1
                message = f"frame {frame[line]} has a player of {fields} fields, not {_FIELDS}"
                return _Fault(_PLAYER_FIELDS, line, message)
    raise AssertionError("a piece failed its layout with every player of six fields")


class _Roster:
    """The players as kloppy finds them, and their positions in every frame: each team's
    listed players, then its unlisted ones in the order first seen. Columns are given in the
    order found (the listed players, then the unlisted ones of both teams) and put in the
    final order at the end."""

    def __init__(self, teams: tuple[KloppyTeam, KloppyTeam], frames: int) -> None:
        self.teams = teams
        self.listed = [player for team in teams for player in team.players]
        self.side = [side for side, team in enumerate(teams) for _ in team.players]
        self.column_of: dict[int, int] = {}
        self.table = np.full(2 * _JERSEYS, -1, np.intp)  # side * _JERSEYS + jersey -> column
        for column, (side, player) in enumerate(zip(self.side, self.listed, strict=True)):
            # The first listed player of a jersey is his.
            self._add(side, player.jersey_no, column)
        self.unlisted: list[tuple[int, int]] = []  # (side, jersey)
        self.players_m = np.full((frames, len(self.listed), 2), np.nan, dtype=np.float32)

    def _add(self, side: int, jersey: int, column: int) -> None:
        key = side << 32 | (jersey & 0xFFFFFFFF)
        if key not in self.column_of:
            self.column_of[key] = column
            if 0 <= jersey < _JERSEYS:
                self.table[side * _JERSEYS + jersey] = column

    def columns(self, side: np.ndarray, jersey: np.ndarray) -> np.ndarray:
        """Each sighting's column, new players added as first seen."""
        tabled = (jersey >= 0) & (jersey < _JERSEYS)
        column = np.where(tabled, self.table[np.where(tabled, side * _JERSEYS + jersey, 0)], -1)
        new = np.flatnonzero(column < 0)
        if len(new):
            key = side[new] << 32 | (jersey[new] & 0xFFFFFFFF)
            seen, first, inverse = np.unique(key, return_index=True, return_inverse=True)
            for index in np.argsort(first):
                if int(seen[index]) not in self.column_of:
                    at = new[first[index]]
                    player = (int(side[at]), int(jersey[at]))
                    self._add(*player, len(self.listed) + len(self.unlisted))
                    self.unlisted.append(player)
            self._grow()
            found = np.array([self.column_of[int(k)] for k in seen], dtype=np.intp)
            column[new] = found[inverse.reshape(-1)]
        return column

    def _grow(self) -> None:
        """A column for each new player (an unlisted one, seen for the first time)."""
        have = self.players_m.shape[1]
        wanted = len(self.listed) + len(self.unlisted)
        if wanted > have:
            grown = np.full((len(self.players_m), wanted, 2), np.nan, dtype=np.float32)
            grown[:, :have] = self.players_m
            self.players_m = grown

    def in_order(self) -> tuple[list[KloppyPlayer], np.ndarray]:
        """The players in kloppy's order, and their positions (T, P, 2)."""
        order: list[int] = []
        players: list[KloppyPlayer] = []
        for side, team in enumerate(self.teams):
            for column, player in enumerate(self.listed):
                if self.side[column] == side:
                    order.append(column)
                    players.append(player)
            for index, (unlisted_side, jersey) in enumerate(self.unlisted):
                if unlisted_side == side:
                    order.append(len(self.listed) + index)
                    players.append(
                        KloppyPlayer(
                            player_id=f"{team.ground}_{jersey}", team=team, jersey_no=jersey
                        )
                    )
        if order != sorted(order):
            for start in range(0, len(self.players_m), _ROWS_PER_COPY):
                block = self.players_m[start : start + _ROWS_PER_COPY]
                block[:] = block[:, order]
        return players, self.players_m
