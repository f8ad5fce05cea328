"""Reading a situation (format version 1, `shared/spec/situation.md`) from JSON.

Every fault is an `InputError` naming the file and the JSON path of the fault, so that
the command line can print one line and exit 2. Extra keys are ignored, as the format says.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from varroom.formats.json_fields import JsonReader, kind_of
from varroom.formats.json_text import decode_json, read_json
from varroom.model.camera import camera_from_json
from varroom.model.noise import NOISE_DEFAULTS, NoiseModel, Tracking, TrackingSource
from varroom.model.situation import (
    Action,
    BodyPart,
    Direction,
    Involvement,
    InvolvementKind,
    OffField,
    Part,
    Pitch,
    Player,
    Position,
    Situation,
    Touch,
    action_without_player,
)


def load_situation(path: str | Path) -> Situation:
    """Read and check a situation file."""
    return situation_from_dict(read_json(path), str(path))


def parse_situation(text: str, source: str = "<situation>") -> Situation:
    """Check JSON text and build the situation it describes."""
    return situation_from_dict(decode_json(text, source), source)


def situation_from_dict(data: Any, source: str = "<situation>") -> Situation:
    """Build a situation from already-parsed JSON, checking every field."""
    return SituationReader(source).situation(data)


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
        pitch = self.pitch(root.get("pitch"))
        players = self.players(self.required(root, "players", "$"))
        teams = list(dict.fromkeys(p.team for p in players.values()))
        if len(teams) != 2:
            raise self.fail("$.players", f"expected players of exactly two teams, got {len(teams)}")
        attacking_team, direction = self.attack(root.get("attack"), teams)
        touches = self.touches(self.required(root, "touches", "$"), players)
        on_field = root.get("on_field")
        decision = None
        if on_field is not None:
            on_field = self.object(on_field, "$.on_field")
            if "decision" in on_field:
                decision = self.string(on_field["decision"], "$.on_field.decision")
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
        )

    def tracking(self, value: Any, has_parts: bool) -> Tracking:
        """The noise model: the source's defaults, then any figure the situation gives."""
        obj = self.object({} if value is None else value, "$.tracking")
        default = TrackingSource.SKELETAL_OPTICAL if has_parts else TrackingSource.CENTROID_OPTICAL
        source = default
        if "source" in obj:
            source = self.choice(TrackingSource, obj["source"], "$.tracking.source")
        base = NOISE_DEFAULTS[source]
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

    def pitch(self, value: Any) -> Pitch:
        if value is None:
            return Pitch()
        obj = self.object(value, "$.pitch")
        default = Pitch()
        return Pitch(
            length_m=self.positive(obj.get("length", default.length_m), "$.pitch.length"),
            width_m=self.positive(obj.get("width", default.width_m), "$.pitch.width"),
        )

    def players(self, value: Any) -> dict[str, Player]:
        items = self.array(value, "$.players")
        if not items:
            raise self.fail("$.players", "no players")
        players: dict[str, Player] = {}
        for i, item in enumerate(items):
            where = f"$.players[{i}]"
            obj = self.object(item, where)
            player_id = self.string(self.required(obj, "id", where), f"{where}.id")
            if player_id in players:
                raise self.fail(f"{where}.id", f"duplicate player id {player_id!r}")
            number = obj.get("number")
            if number is not None and (isinstance(number, bool) or not isinstance(number, int)):
                raise self.fail(
                    f"{where}.number", f"expected a whole number, got {kind_of(number)}"
                )
            name = obj.get("name")
            players[player_id] = Player(
                id=player_id,
                team=self.string(self.required(obj, "team", where), f"{where}.team"),
                goalkeeper=self.boolean(obj.get("goalkeeper", False), f"{where}.goalkeeper"),
                name=None if name is None else self.string(name, f"{where}.name"),
                number=number,
            )
        return players

    def attack(self, value: Any, teams: list[str]) -> tuple[str, Direction]:
        if value is None:
            return teams[0], Direction.PLUS_X
        obj = self.object(value, "$.attack")
        team = self.string(obj.get("team", teams[0]), "$.attack.team")
        if team not in teams:
            raise self.fail("$.attack.team", f"unknown team {team!r}; teams are {', '.join(teams)}")
        return team, self.choice(Direction, obj.get("towards", "+x"), "$.attack.towards")

    def touches(self, value: Any, players: Mapping[str, Player]) -> tuple[Touch, ...]:
        items = self.array(value, "$.touches")
        if not items:
            raise self.fail("$.touches", "no touches")
        touches: list[Touch] = []
        for i, item in enumerate(items):
            touch = self.touch(item, f"$.touches[{i}]", players)
            if touches and touch.t_s < touches[-1].t_s:
                raise self.fail(
                    f"$.touches[{i}].t",
                    f"touches out of time order ({touch.t_s} s after {touches[-1].t_s} s)",
                )
            touches.append(touch)
        return tuple(touches)

    def touch(self, value: Any, where: str, players: Mapping[str, Player]) -> Touch:
        obj = self.object(value, where)
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
        positions_obj = self.object(self.required(obj, "positions", where), f"{where}.positions")
        positions = {
            self.player_ref(pid, f"{where}.positions", players): self.position(
                pos, f"{where}.positions.{pid}"
            )
            for pid, pos in positions_obj.items()
        }
        involvement = tuple(
            self.involvement(item, f"{where}.involvement[{k}]", players)
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
        )

    def position(self, value: Any, where: str) -> Position:
        obj = self.object(value, where)
        parts_obj = self.object(obj.get("parts", {}), f"{where}.parts")
        parts = tuple(
            self.part(name, raw, f"{where}.parts.{name}") for name, raw in parts_obj.items()
        )
        off_field = obj.get("off_field")
        return Position(
            x_m=self.number(self.required(obj, "x", where), f"{where}.x"),
            y_m=self.number(self.required(obj, "y", where), f"{where}.y"),
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

    def involvement(self, value: Any, where: str, players: Mapping[str, Player]) -> Involvement:
        obj = self.object(value, where)
        return Involvement(
            player=self.player_ref(self.required(obj, "player", where), f"{where}.player", players),
            kind=self.choice(InvolvementKind, self.required(obj, "kind", where), f"{where}.kind"),
        )


def _fields(noise: NoiseModel) -> dict[str, Any]:
    return {name: getattr(noise, name) for name in noise.__slots__}
