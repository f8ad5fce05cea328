"""Reading and writing a situation (format version 1.2, `shared/spec/situation.md`) as JSON.

Every fault is an `InputError` naming the file and the JSON path of the fault, so that
the command line can print one line and exit 2. Extra keys are ignored, as the format says,
unless one is a slip of a key it names (`JsonReader.known_keys`). Impossible input is a fault
too (docs/formats/situation-1.1.md): a position or a ball more than
`json_fields.OUTSIDE_PITCH_LIMIT_M` outside the pitch, a player listed twice at one touch, a
body part farther than `PART_REACH_M` from its player's tracked point, more players of a team
in view than it has on the pitch.
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Mapping
from typing import Any

from varroom.errors import FormatWarning
from varroom.formats.camera_json import camera_from_json
from varroom.formats.json_fields import JsonReader, kind_of
from varroom.formats.json_text import FileReader, TextReader, file_reader, text_reader
from varroom.model.noise import NoiseModel, Tracking, TrackingSource
from varroom.model.noise_defaults import STATED_NOISE, NoiseDefaults
from varroom.model.situation import (
    FULL_TEAM,
    Action,
    BodyPart,
    Direction,
    Involvement,
    InvolvementKind,
    OffField,
    OnFieldCall,
    Part,
    Pitch,
    Player,
    Position,
    Situation,
    Touch,
    action_without_player,
)
from varroom.model.view import View

# A body part is within a stretched leg or a header's lean of the player's tracked point.
PART_REACH_M = 2.5
# Law 3: a match does not start or continue with fewer than seven players a side.
FEWEST_PLAYERS = 7
# The format versions read, as (major, minor); a file without `version` is version 1.
VERSIONS = {"1": (1, 0), "1.0": (1, 0), "1.1": (1, 1), "1.2": (1, 2)}
WRITTEN_VERSION = "1.2"
# From 1.2 on the attacking direction is stated in every file, never defaulted.
ATTACK_REQUIRED_FROM = (1, 2)
# The keys the format names at each level (docs/formats/situation.md): another key is ignored,
# unless it is a slip of one of these (`JsonReader.known_keys`). `kind` is the file's own.
ROOT_KEYS = (
    "kind",
    "version",
    "pitch",
    "players",
    "attack",
    "touches",
    "team_sizes",
    "on_field",
    "meta",
    "tracking",
    "camera",
)
PLAYER_KEYS = ("id", "team", "goalkeeper", "name", "short_name", "number")
TOUCH_KEYS = ("t", "player", "action", "ball", "positions", "involvement", "ball_v", "view")
POSITION_KEYS = ("x", "y", "parts", "off_field", "v")
TRACKING_KEYS = (
    "source",
    "position_sd_m",
    "ball_sd_m",
    "centroid_reach_sd_m",
    "timing_sd_s",
    "frame_rate_hz",
)


def situation_from_dict(
    data: Any, source: str = "<situation>", noise: NoiseDefaults = STATED_NOISE
) -> Situation:
    """Build a situation from already-parsed JSON, checking every field; `noise` is taken where
    the file does not state its tracking's."""
    return SituationReader(source, noise).situation(data)


load_situation: FileReader[Situation] = file_reader(situation_from_dict, "situation")
"""`load_situation(path)`: read and check a situation file."""
parse_situation: TextReader[Situation] = text_reader(situation_from_dict, "situation")
"""`parse_situation(text, source="<situation>")`: the situation JSON text describes, checked."""


class SituationReader(JsonReader):
    """Checks and builds a situation's parts; other formats with players and positions extend it."""

    def player_ref(self, value: Any, where: str, players: Mapping[str, Player]) -> str:
        player_id = self.string(value, where)
        if player_id not in players:
            raise self.fail(where, f"unknown player {player_id!r} (not in $.players)")
        return player_id

    # -- the format -----------------------------------------------------------------------

    def situation(self, data: Any) -> Situation:
        root = self.object(data, "$")
        self.known_keys(root, "$", ROOT_KEYS)
        pitch = self.pitch(root.get("pitch"))
        players = self.players(self.required(root, "players", "$"))
        teams = self.two_teams(players)
        version = self.version(root.get("version", "1"))
        if version >= ATTACK_REQUIRED_FROM:
            self.required(root, "attack", "$")
        elif "attack" not in root:
            # 1.0 and 1.1 keep their default, but it is a guess about the play: said aloud.
            warnings.warn(
                FormatWarning(
                    f"{self.source}: $.attack: missing; taken as {teams[0]} attacking towards "
                    f"+x (the format {'.'.join(map(str, version))} default: state it)"
                ),
                stacklevel=2,
            )
        attacking_team, direction = self.attack(root.get("attack"), teams)
        touches = self.touches(self.required(root, "touches", "$"), players, pitch)
        team_sizes = self.team_sizes(root.get("team_sizes"), teams)
        self.check_team_sizes(touches, players, team_sizes)
        decision = self.on_field(root.get("on_field"), OnFieldCall)
        meta = self.object(root.get("meta", {}), "$.meta")
        has_parts = any(pos.parts for t in touches for pos in t.positions.values())
        return Situation(
            pitch=pitch,
            attacking_team=attacking_team,
            attack_direction=direction,
            players=players,
            touches=touches,
            on_field_decision=decision,
            meta=dict(meta),
            tracking=self.tracking(root.get("tracking"), has_parts),
            camera=camera_from_json(root, self.source),
            team_sizes=team_sizes,
        )

    def version(self, value: Any) -> tuple[int, int]:
        known = ", ".join(VERSIONS)
        if not isinstance(value, str) or value not in VERSIONS:
            raise self.fail("$.version", f"unknown version {value!r}; known are {known}")
        return VERSIONS[value]

    def team_sizes(self, value: Any, teams: list[str]) -> dict[str, int]:
        obj = self.object({} if value is None else value, "$.team_sizes")
        sizes: dict[str, int] = {}
        for team, size in obj.items():
            where = f"$.team_sizes.{team}"
            if team not in teams:
                raise self.fail(where, f"unknown team {team!r}; teams are {', '.join(teams)}")
            if isinstance(size, bool) or not isinstance(size, int):
                raise self.fail(where, f"expected a whole number, got {kind_of(size)}")
            if not FEWEST_PLAYERS <= size <= FULL_TEAM:
                raise self.fail(
                    where, f"a team has {FEWEST_PLAYERS} to {FULL_TEAM} players, got {size}"
                )
            sizes[team] = size
        return sizes

    def check_team_sizes(
        self, touches: tuple[Touch, ...], players: Mapping[str, Player], sizes: Mapping[str, int]
    ) -> None:
        for i, touch in enumerate(touches):
            counts: dict[str, int] = {}
            for pid, position in touch.positions.items():
                if position.off_field is None:
                    counts[players[pid].team] = counts.get(players[pid].team, 0) + 1
            for team, count in counts.items():
                size = sizes.get(team, FULL_TEAM)
                if count > size:
                    raise self.fail(
                        f"$.touches[{i}].positions",
                        f"{count} players of {team} on the pitch, but it has {size}"
                        + ("" if team in sizes else " (no $.team_sizes)"),
                    )

    def tracking(self, value: Any, has_parts: bool) -> Tracking:
        """The noise model: the source's defaults, then any figure the situation gives."""
        obj = self.object({} if value is None else value, "$.tracking")
        self.known_keys(obj, "$.tracking", TRACKING_KEYS)
        default = TrackingSource.SKELETAL_OPTICAL if has_parts else TrackingSource.CENTROID_OPTICAL
        source = default
        if "source" in obj:
            source = self.choice(TrackingSource, obj["source"], "$.tracking.source")
        base = self.noise_defaults.tracking[source]
        figures = {
            name: self.non_negative(obj[name], f"$.tracking.{name}")
            for name in ("position_sd_m", "ball_sd_m", "centroid_reach_sd_m", "timing_sd_s")
            if name in obj
        }
        if "frame_rate_hz" in obj:
            figures["frame_rate_hz"] = self.positive(
                obj["frame_rate_hz"], "$.tracking.frame_rate_hz"
            )
        return Tracking(source, NoiseModel(**{**_fields(base), **figures}))

    def players(self, value: Any) -> dict[str, Player]:
        items = self.array(value, "$.players")
        if not items:
            raise self.fail("$.players", "no players")
        players: dict[str, Player] = {}
        for i, item in enumerate(items):
            where = f"$.players[{i}]"
            obj = self.object(item, where)
            self.known_keys(obj, where, PLAYER_KEYS)
            player_id = self.string(self.required(obj, "id", where), f"{where}.id")
            if player_id in players:
                raise self.fail(f"{where}.id", f"duplicate player id {player_id!r}")
            number = obj.get("number")
            if number is not None and (isinstance(number, bool) or not isinstance(number, int)):
                raise self.fail(
                    f"{where}.number", f"expected a whole number, got {kind_of(number)}"
                )
            name, short = obj.get("name"), obj.get("short_name")
            players[player_id] = Player(
                id=player_id,
                team=self.string(self.required(obj, "team", where), f"{where}.team"),
                goalkeeper=self.boolean(obj.get("goalkeeper", False), f"{where}.goalkeeper"),
                name=None if name is None else self.string(name, f"{where}.name"),
                number=number,
                short_name=None if short is None else self.string(short, f"{where}.short_name"),
            )
        return players

    def two_teams(self, players: Mapping[str, Player]) -> list[str]:
        """The teams, in the order their players are listed: exactly two."""
        teams = list(dict.fromkeys(p.team for p in players.values()))
        if len(teams) != 2:
            raise self.fail("$.players", f"expected players of exactly two teams, got {len(teams)}")
        return teams

    def attack(self, value: Any, teams: list[str]) -> tuple[str, Direction]:
        if value is None:
            return teams[0], Direction.PLUS_X
        obj = self.object(value, "$.attack")
        self.known_keys(obj, "$.attack", ("team", "towards"))
        team = self.string(obj.get("team", teams[0]), "$.attack.team")
        if team not in teams:
            raise self.fail("$.attack.team", f"unknown team {team!r}; teams are {', '.join(teams)}")
        return team, self.choice(Direction, obj.get("towards", "+x"), "$.attack.towards")

    def touches(self, value: Any, players: Mapping[str, Player], pitch: Pitch) -> tuple[Touch, ...]:
        items = self.array(value, "$.touches")
        if not items:
            raise self.fail("$.touches", "no touches")
        touches: list[Touch] = []
        for i, item in enumerate(items):
            touch = self.touch(item, f"$.touches[{i}]", players, pitch)
            if touches and touch.t_s < touches[-1].t_s:
                raise self.fail(
                    f"$.touches[{i}].t",
                    f"touches out of time order ({touch.t_s} s after {touches[-1].t_s} s)",
                )
            earliest = touches[-1].t_s if touches else -math.inf
            for k, fact in enumerate(touch.involvement):
                if fact.t_s is not None and not earliest <= fact.t_s <= touch.t_s:
                    raise self.fail(
                        f"$.touches[{i}].involvement[{k}].t",
                        f"{fact.t_s} s is not between the previous touch and this one "
                        f"({'start' if not touches else f'{earliest} s'} to {touch.t_s} s)",
                    )
            touches.append(touch)
        return tuple(touches)

    def touch(self, value: Any, where: str, players: Mapping[str, Player], pitch: Pitch) -> Touch:
        obj = self.object(value, where)
        self.known_keys(obj, where, TOUCH_KEYS)
        t_s = self.number(self.required(obj, "t", where), f"{where}.t")
        action = self.choice(Action, self.required(obj, "action", where), f"{where}.action")
        player = obj.get("player")
        if action_without_player(action):
            if player is not None:
                raise self.fail(
                    f"{where}.player", f"a {action.value} touch has no player: use null"
                )
        elif player is None:
            raise self.fail(f"{where}.player", f"a {action.value} needs the player who made it")
        else:
            player = self.player_ref(player, f"{where}.player", players)
        ball = self.point(self.required(obj, "ball", where), f"{where}.ball", (2, 3))
        self.on_the_pitch(ball[0], ball[1], pitch, f"{where}.ball", "the ball")
        positions_obj = self.object(self.required(obj, "positions", where), f"{where}.positions")
        for pid in getattr(positions_obj, "duplicates", ()):
            raise self.fail(f"{where}.positions.{pid}", "a player listed twice: in two places")
        positions = {
            self.player_ref(pid, f"{where}.positions", players): self.position(
                pos, f"{where}.positions.{pid}", pitch
            )
            for pid, pos in positions_obj.items()
        }
        involvement = tuple(
            self.involvement(item, f"{where}.involvement[{k}]", players, pitch)
            for k, item in enumerate(self.array(obj.get("involvement", []), f"{where}.involvement"))
        )
        return Touch(
            t_s=t_s,
            player=player,
            action=action,
            ball_m=(ball[0], ball[1], ball[2] if len(ball) == 3 else 0.0),
            positions=positions,
            involvement=involvement,
            ball_v_mps=self.velocity(obj.get("ball_v"), f"{where}.ball_v"),
            view=None if obj.get("view") is None else self.view(obj["view"], f"{where}.view"),
        )

    def view(self, value: Any, where: str) -> View:
        obj = self.object(value, where)
        self.known_keys(obj, where, ("area",))
        corners = self.array(self.required(obj, "area", where), f"{where}.area")
        if len(corners) < 3:
            raise self.fail(
                f"{where}.area", f"a polygon needs 3 corners or more, got {len(corners)}"
            )
        area = []
        for k, corner in enumerate(corners):
            x_m, y_m = self.point(corner, f"{where}.area[{k}]", (2,))
            area.append((x_m, y_m))
        return View(tuple(area))

    def position(self, value: Any, where: str, pitch: Pitch) -> Position:
        obj = self.object(value, where)
        self.known_keys(obj, where, POSITION_KEYS)
        parts_obj = self.object(obj.get("parts", {}), f"{where}.parts")
        parts = tuple(
            self.part(name, raw, f"{where}.parts.{name}") for name, raw in parts_obj.items()
        )
        off_field = obj.get("off_field")
        x_m = self.number(self.required(obj, "x", where), f"{where}.x")
        y_m = self.number(self.required(obj, "y", where), f"{where}.y")
        self.on_the_pitch(x_m, y_m, pitch, where, "the player")
        for part in parts:
            apart = math.hypot(part.x_m - x_m, 0.0 if part.y_m is None else part.y_m - y_m)
            if apart > PART_REACH_M:
                raise self.fail(
                    f"{where}.parts.{part.part.value}",
                    f"{apart:.1f} m from the player's tracked point: a body part is within "
                    f"{PART_REACH_M:g} m of it",
                )
        return Position(
            x_m=x_m,
            y_m=y_m,
            parts=parts,
            off_field=None
            if off_field is None
            else self.choice(OffField, off_field, f"{where}.off_field"),
            v_mps=self.velocity(obj.get("v"), f"{where}.v"),
        )

    def part(self, name: str, value: Any, where: str) -> Part:
        part = self.choice(BodyPart, name, where)
        if isinstance(value, list):
            xyz = self.point(value, where, (2, 3))
            return Part(part, xyz[0], xyz[1], xyz[2] if len(xyz) == 3 else None)
        return Part(part, self.number(value, where))

    def involvement(
        self, value: Any, where: str, players: Mapping[str, Player], pitch: Pitch
    ) -> Involvement:
        obj = self.object(value, where)
        self.known_keys(obj, where, ("player", "kind", "t", "at"))
        at = None
        if obj.get("at") is not None:
            x_m, y_m = self.point(obj["at"], f"{where}.at", (2,))
            self.on_the_pitch(x_m, y_m, pitch, f"{where}.at", "the player")
            at = (x_m, y_m)
        return Involvement(
            player=self.player_ref(self.required(obj, "player", where), f"{where}.player", players),
            kind=self.choice(InvolvementKind, self.required(obj, "kind", where), f"{where}.kind"),
            t_s=None if obj.get("t") is None else self.number(obj["t"], f"{where}.t"),
            at_m=at,
        )


def situation_to_dict(situation: Situation) -> dict[str, Any]:
    """A situation in the format (version 1.2): what `situation_from_dict` reads back to an
    equal situation. Optional fields are written only when they say something."""
    data: dict[str, Any] = {
        "version": WRITTEN_VERSION,
        "pitch": {"length": situation.pitch.length_m, "width": situation.pitch.width_m},
        "attack": {"team": situation.attacking_team, "towards": situation.attack_direction.value},
        "players": [player_dict(p) for p in situation.players.values()],
        "touches": [_touch_dict(t) for t in situation.touches],
        "tracking": tracking_dict(situation.tracking),
        "meta": dict(situation.meta),
    }
    if situation.team_sizes:
        data["team_sizes"] = dict(situation.team_sizes)
    if situation.on_field_decision is not None:
        data["on_field"] = {"decision": situation.on_field_decision}
    return data


def player_dict(player: Player) -> dict[str, Any]:
    """A player as the format writes it (situations and penalty kicks alike)."""
    out: dict[str, Any] = {"id": player.id, "team": player.team, "goalkeeper": player.goalkeeper}
    if player.name:
        out["name"] = player.name
    if player.number is not None:
        out["number"] = int(player.number)  # a match's players may carry numpy integers
    if player.short_name:
        out["short_name"] = player.short_name
    return out


def _touch_dict(touch: Touch) -> dict[str, Any]:
    out: dict[str, Any] = {
        "t": touch.t_s,
        "player": touch.player,
        "action": touch.action.value,
        "ball": [float(value) for value in touch.ball_m],
        "positions": {pid: position_dict(pos) for pid, pos in touch.positions.items()},
    }
    if touch.involvement:
        out["involvement"] = [
            {"player": i.player, "kind": i.kind.value}
            | ({} if i.t_s is None else {"t": i.t_s})
            | ({} if i.at_m is None else {"at": list(i.at_m)})
            for i in touch.involvement
        ]
    if any(touch.ball_v_mps):
        out["ball_v"] = [float(value) for value in touch.ball_v_mps]
    if touch.view is not None:
        out["view"] = {"area": [list(corner) for corner in touch.view.area_m]}
    return out


def position_dict(position: Position) -> dict[str, Any]:
    """A position as the format writes it: only the optional fields that say something."""
    out: dict[str, Any] = {"x": position.x_m, "y": position.y_m}
    if position.parts:
        out["parts"] = {
            p.part.value: p.x_m
            if p.y_m is None
            else [p.x_m, p.y_m] + ([] if p.z_m is None else [p.z_m])
            for p in position.parts
        }
    if position.off_field is not None:
        out["off_field"] = position.off_field.value
    if any(position.v_mps):
        out["v"] = [float(value) for value in position.v_mps]
    return out


def tracking_dict(tracking: Tracking) -> dict[str, Any]:
    """The tracking source and the noise figures it sets (the unset ones are left out)."""
    noise = {k: v for k, v in _fields(tracking.noise).items() if v is not None}
    return {"source": tracking.source.value, **noise}


def _fields(noise: NoiseModel) -> dict[str, Any]:
    return {name: getattr(noise, name) for name in noise.__slots__}
