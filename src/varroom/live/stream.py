"""The frame stream (docs/formats/frames.md): JSON lines of a header, frames, events and an end.

Reading checks every line: a line that is not valid is reported (its number and what is
wrong, as `LineError`) and skipped, and the stream goes on. The header must come first and
be valid; without it no frame can be read.

Writing turns a `MatchTracking` into the lines, frames and events interleaved in time
order. Positions are written as the shortest decimal that reads back to the same float
(float32 players, float64 ball and times), so a match streamed and read back is the same
match to the last bit: the live follower's verdicts can equal the audit's.

varroom's additions to the header (optional; a stream without them means what it meant):
`provider` (kloppy's name; it tells broadcast tracking from full-pitch tracking),
`teams` (ids and names, home first) and `events` (false: no event feed comes with the
frames, so the follower need not wait for events).
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from varroom.errors import InputError
from varroom.formats.json_fields import JsonReader, did_you_mean, kind_of
from varroom.formats.situation_json import PLAYER_KEYS
from varroom.match.direction import DirectionSource, Team, TeamAttack
from varroom.match.tracking import EventKind, MatchEvent, MatchTracking, Provider
from varroom.model.situation import Direction, Pitch, Player

VERSION = 1
# The keys each line's kind names (docs/formats/frames.md; a header's players are named as a
# situation's); a slip of one is an error.
HEADER_KEYS = (
    "kind",
    "version",
    "match",
    "fps",
    "pitch",
    "provider",
    "teams",
    "players",
    "attack",
    "events",
)
FRAME_KEYS = ("kind", "period", "t", "ball", "players")
EVENT_KEYS = ("kind", "period", "t", "type", "player")

# The spec's event types and the event kinds they are; varroom also reads and writes any
# other `EventKind` by its value (an interception, a block), which the spec's list lacks.
_KIND_OF_TYPE: dict[str, EventKind] = {
    "pass": EventKind.PASS,
    "cross": EventKind.PASS,
    "shot": EventKind.SHOT,
    "clearance": EventKind.CLEARANCE,
    "save": EventKind.SAVE,
    "deflection": EventKind.BLOCK,
    "throw_in": EventKind.THROW_IN,
    "goal_kick": EventKind.GOAL_KICK,
    "corner_kick": EventKind.CORNER_KICK,
    "free_kick": EventKind.FREE_KICK,
    "kick_off": EventKind.KICK_OFF,
    "penalty_kick": EventKind.PENALTY_KICK,
    "offside": EventKind.OFFSIDE,
    "goal": EventKind.OTHER,
    "out": EventKind.BALL_OUT,
}
_TYPE_OF_KIND = {kind: name for name, kind in reversed(_KIND_OF_TYPE.items())} | {
    EventKind.OTHER: "other"
}


@dataclass(frozen=True, slots=True)
class Header:
    match: str
    fps: float
    pitch: Pitch
    players: tuple[Player, ...]  # in column order
    attack: tuple[TeamAttack, ...]
    teams: tuple[Team, Team]  # home, away
    provider: Provider
    events: bool  # whether an event feed may come with the frames


@dataclass(frozen=True, eq=False, slots=True)
class Frame:
    period: int
    t_s: float
    ball_m: npt.NDArray[np.float64]  # (3,) NaN unseen (the height NaN when not given)
    players_m: npt.NDArray[np.float32]  # (P, 2) in the header's order, NaN unseen


@dataclass(frozen=True, slots=True)
class End:
    """The stream is over."""


Item = Header | Frame | MatchEvent | End


@dataclass(frozen=True, slots=True)
class LineError:
    """A line that is not valid: skipped."""

    line: int
    problem: str

    def __str__(self) -> str:
        # A lone surrogate from the JSON must not stop the report on its way to stderr.
        text = f"line {self.line}: {self.problem}"
        return text.encode("utf-8", "backslashreplace").decode("utf-8")


# -- reading ---------------------------------------------------------------------------------


class StreamReader:
    """Reads a stream's lines one at a time (`read`); remembers the header."""

    def __init__(self, source: str = "<stream>") -> None:
        self.source = source
        self.header: Header | None = None
        self.line = 0
        self._column: dict[str, int] = {}
        self._team_of: dict[str, str] = {}

    def read(self, text: str | bytes) -> Item | LineError | None:
        """The item a line holds, a `LineError` for an invalid one, None for a blank line."""
        self.line += 1
        if not text.strip():
            return None
        try:
            data = json.loads(text)
            return self._item(data)
        except (UnicodeDecodeError, json.JSONDecodeError, RecursionError) as error:
            message = error.msg if isinstance(error, json.JSONDecodeError) else "not UTF-8 JSON"
            return LineError(self.line, f"not JSON ({message})")
        except InputError as error:
            where = f"{error.where}: " if error.where and error.where != "$" else ""
            return LineError(self.line, f"{where}{error.problem}")
        except OverflowError:
            return LineError(self.line, "a number too large for a coordinate or a time")

    def _item(self, data: Any) -> Item:
        reader = JsonReader(self.source)
        obj = reader.object(data, "$")
        kind = obj.get("kind")
        if kind == "header":
            header = _header(reader, obj)
            if self.header is not None and header != self.header:
                raise reader.fail("$", "a second header, of another match")
            self.header = header
            self._column = {p.id: c for c, p in enumerate(header.players)}
            self._team_of = {p.id: p.team for p in header.players}
            return header
        if kind == "end":
            return End()
        if kind not in ("frame", "event"):
            near = (
                did_you_mean(kind, ("header", "frame", "event", "end"))
                if isinstance(kind, str)
                else ""
            )
            raise reader.fail("$.kind", f"expected header, frame, event or end, got {kind!r}{near}")
        if self.header is None:
            raise reader.fail("$", f"a {kind} before the header")
        if kind == "frame":
            return self._frame(reader, obj)
        return self._event(reader, obj)

    def _frame(self, reader: JsonReader, obj: Any) -> Frame:
        assert self.header is not None
        reader.known_keys(obj, "$", FRAME_KEYS)
        period = _period(reader, obj)
        t_s = reader.number(reader.required(obj, "t", "$"), "$.t")
        ball = np.full(3, np.nan)
        given = obj.get("ball")
        if given is not None:
            ball[: len(given) if isinstance(given, list) else 0] = reader.point(
                given, "$.ball", (2, 3)
            )
        players = np.full((len(self.header.players), 2), np.nan, dtype=np.float32)
        given_players = reader.object(reader.required(obj, "players", "$"), "$.players")
        if not self._fast_players(given_players, players):
            self._checked_players(reader, given_players, players)
        return Frame(period, t_s, ball, players)

    def _fast_players(self, given: Any, players: npt.NDArray[np.float32]) -> bool:
        """Every player as `[x, y]` of a known id: all at once (the usual frame); False for
        anything else, which `_checked_players` reads one by one and blames precisely."""
        try:
            columns = [self._column[pid] for pid in given]
            xy = np.array(list(given.values()))
        except (KeyError, ValueError):
            return False
        if len(columns) == 0:
            return True
        if xy.shape != (len(columns), 2) or xy.dtype.kind not in "fi" or not np.isfinite(xy).all():
            return False
        players[columns] = xy
        return True

    def _checked_players(
        self, reader: JsonReader, given: Any, players: npt.NDArray[np.float32]
    ) -> None:
        for pid, value in given.items():
            where = f"$.players.{pid}"
            column = self._column.get(pid)
            if column is None:
                raise reader.fail(where, "not a player of the header")
            if isinstance(value, dict):
                x = reader.number(reader.required(value, "x", where), f"{where}.x")
                y = reader.number(reader.required(value, "y", where), f"{where}.y")
            else:
                x, y = reader.point(value, where, (2,))
            players[column] = (x, y)

    def _event(self, reader: JsonReader, obj: Any) -> MatchEvent:
        reader.known_keys(obj, "$", EVENT_KEYS)
        period = _period(reader, obj)
        t_s = reader.number(reader.required(obj, "t", "$"), "$.t")
        name = reader.string(reader.required(obj, "type", "$"), "$.type")
        kind = _KIND_OF_TYPE.get(name)
        if kind is None:
            try:
                kind = EventKind(name)
            except ValueError:
                known = ", ".join(_KIND_OF_TYPE)
                near = did_you_mean(name, [*_KIND_OF_TYPE, *(k.value for k in EventKind)])
                raise reader.fail(
                    "$.type", f"unknown type {name!r}{near}; expected one of {known}"
                ) from None
        player = obj.get("player")
        if player is not None:
            player = reader.string(player, "$.player")
            if player not in self._team_of:
                raise reader.fail("$.player", "not a player of the header")
        return MatchEvent(
            t_s=t_s,
            period=period,
            team=None if player is None else self._team_of[player],
            player=player,
            kind=kind,
            offside_call=kind is EventKind.OFFSIDE,
            raw_type=name,
        )


def _text(entry: Any, key: str) -> str | None:
    """A header's display field: a name that is not text is no name, never a fault."""
    value = entry.get(key)
    return value if isinstance(value, str) else None


def _period(reader: JsonReader, obj: Any) -> int:
    value = reader.required(obj, "period", "$")
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise reader.fail("$.period", f"expected a period number from 1, got {kind_of(value)}")
    return value


def _header(reader: JsonReader, obj: Any) -> Header:
    reader.known_keys(obj, "$", HEADER_KEYS)
    fps = reader.positive(reader.required(obj, "fps", "$"), "$.fps")
    pitch = reader.pitch(obj.get("pitch"))
    players = []
    seen: set[str] = set()
    for k, item in enumerate(reader.array(reader.required(obj, "players", "$"), "$.players")):
        where = f"$.players[{k}]"
        entry = reader.object(item, where)
        reader.known_keys(entry, where, PLAYER_KEYS)
        pid = reader.string(reader.required(entry, "id", where), f"{where}.id")
        if pid in seen:
            raise reader.fail(f"{where}.id", f"{pid!r} listed twice")
        seen.add(pid)
        number = entry.get("number")
        players.append(
            Player(
                id=pid,
                team=reader.string(reader.required(entry, "team", where), f"{where}.team"),
                goalkeeper=reader.boolean(entry.get("goalkeeper", False), f"{where}.goalkeeper"),
                name=_text(entry, "name"),
                number=number if isinstance(number, int) and not isinstance(number, bool) else None,
                short_name=_text(entry, "short_name"),
            )
        )
    team_ids = list(dict.fromkeys(p.team for p in players))
    names = {tid: tid for tid in team_ids}
    if "teams" in obj:
        names = {}
        for k, item in enumerate(reader.array(obj["teams"], "$.teams")):
            entry = reader.object(item, f"$.teams[{k}]")
            tid = reader.string(reader.required(entry, "id", f"$.teams[{k}]"), f"$.teams[{k}].id")
            names[tid] = str(entry.get("name") or tid)
        if not set(team_ids) <= set(names):
            raise reader.fail("$.teams", "does not list every team of the players")
        team_ids = list(names)
    if len(team_ids) != 2:
        raise reader.fail("$.players", f"expected players of two teams, got {len(team_ids)}")
    attack = []
    attack_obj = reader.object(reader.required(obj, "attack", "$"), "$.attack")
    for team, periods in attack_obj.items():
        if team not in names:
            raise reader.fail(f"$.attack.{team}", "not a team of the players")
        for period, towards in reader.object(periods, f"$.attack.{team}").items():
            where = f"$.attack.{team}.{period}"
            if not period.isdigit() or int(period) < 1:
                raise reader.fail(where, "expected a period number from 1")
            direction = reader.choice(Direction, towards, where)
            attack.append(TeamAttack(team, int(period), direction, DirectionSource.METADATA))
    provider = reader.choice(Provider, obj.get("provider", "synthetic"), "$.provider")
    return Header(
        match=str(obj.get("match") or " v ".join(names.values())),
        fps=fps,
        pitch=pitch,
        players=tuple(players),
        attack=tuple(sorted(attack, key=lambda a: (a.period, team_ids.index(a.team)))),
        teams=(Team(team_ids[0], names[team_ids[0]]), Team(team_ids[1], names[team_ids[1]])),
        provider=provider,
        events=reader.boolean(obj.get("events", True), "$.events"),
    )


# -- writing ---------------------------------------------------------------------------------


def header_line(match: MatchTracking) -> str:
    """The header of a match's stream."""
    if match.frame_rate_hz is None:
        raise ValueError("a frame stream needs continuous tracking, not freeze frames")
    attack: dict[str, dict[str, str]] = {}
    for item in match.attack:
        attack.setdefault(item.team, {})[str(item.period)] = item.direction.value
    players = []
    for c, pid in enumerate(match.player_ids):
        entry: dict[str, Any] = {
            "id": str(pid),
            "team": str(match.player_teams[c]),
            "goalkeeper": bool(match.goalkeeper[c]),
        }
        if match.player_names[c]:
            entry["name"] = match.player_names[c]
        if match.player_numbers[c] is not None:
            entry["number"] = match.player_numbers[c]
        if match.player_short_names[c]:
            entry["short_name"] = match.player_short_names[c]
        players.append(entry)
    home, away = match.teams
    return _dumps(
        {
            "kind": "header",
            "version": VERSION,
            "match": f"{home.name} v {away.name}",
            "fps": match.frame_rate_hz,
            "pitch": {"length": match.pitch.length_m, "width": match.pitch.width_m},
            "players": players,
            "attack": attack,
            "provider": match.provider.value,
            "teams": [{"id": team.id, "name": team.name} for team in match.teams],
            "events": bool(match.events),
        }
    )


def frame_line(match: MatchTracking, index: int, ids: list[str]) -> str:
    """Frame `index` of a match; `ids` are its player ids as strings."""
    ball = match.ball_m[index]
    xy = match.players_m[index]
    seen = np.flatnonzero(~np.isnan(xy[:, 0]))
    # tolist() turns float32 into the float it is exactly; repr then reads back to it.
    values = xy[seen].tolist()
    return _dumps(
        {
            "kind": "frame",
            "period": int(match.period[index]),
            "t": float(match.t_s[index]),
            "ball": None
            if np.isnan(ball[0])
            else ball[:2].tolist()
            if np.isnan(ball[2])
            else ball.tolist(),
            "players": {ids[c]: values[k] for k, c in enumerate(seen.tolist())},
        }
    )


def event_line(event: MatchEvent) -> str:
    data: dict[str, Any] = {
        "kind": "event",
        "period": event.period,
        "t": event.t_s,
        "type": _TYPE_OF_KIND.get(event.kind, event.kind.value),
    }
    if event.player is not None:
        data["player"] = event.player
    return _dumps(data)


END_LINE = '{"kind": "end"}'


def stream_lines(match: MatchTracking) -> Iterator[tuple[int, float, str]]:
    """(period, t_s, line) of a match's stream after the header: frames and events in time
    order (an event at a frame's time after the frame), then the end."""
    ids = [str(pid) for pid in match.player_ids]
    events = sorted(match.events, key=lambda e: (e.period, e.t_s))
    k = 0
    for index in range(len(match.t_s)):
        period, t_s = int(match.period[index]), float(match.t_s[index])
        while k < len(events) and (events[k].period, events[k].t_s) < (period, t_s):
            yield events[k].period, events[k].t_s, event_line(events[k])
            k += 1
        yield period, t_s, frame_line(match, index, ids)
    for event in events[k:]:
        yield event.period, event.t_s, event_line(event)


def match_items(match: MatchTracking) -> Iterator[Item]:
    """A match's stream as the items a reader would read from its lines (no JSON between:
    for following a recorded match in the same process)."""
    header = StreamReader().read(header_line(match))
    assert isinstance(header, Header)
    yield header
    events = sorted(match.events, key=lambda e: (e.period, e.t_s))
    k = 0
    for index in range(len(match.t_s)):
        period, t_s = int(match.period[index]), float(match.t_s[index])
        while k < len(events) and (events[k].period, events[k].t_s) < (period, t_s):
            yield events[k]
            k += 1
        yield Frame(period, t_s, match.ball_m[index].copy(), match.players_m[index].copy())
    yield from events[k:]
    yield End()


def read_items(lines: Iterable[str | bytes], reader: StreamReader) -> Iterator[Item | LineError]:
    """Every item and invalid line of a stream, until its end line or its last line."""
    for text in lines:
        item = reader.read(text)
        if item is None:
            continue
        yield item
        if isinstance(item, End):
            return


def _dumps(data: Any) -> str:
    return json.dumps(data, ensure_ascii=False, allow_nan=False)
