"""Reading the still-marks format (`shared/spec/still.md`, docs/formats/still-marks.md).

Every fault is an `InputError` naming the marks file and the JSON path, so that `varroom still`
prints one line and exits 2. The pitch, the attack and the players are read exactly as a
situation reads them (the same reader, the same JSON paths); what a still adds (landmarks, marks
in pixels, the ball, the touch) is checked here, against the picture's size.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from varroom.formats.json_text import read_json
from varroom.formats.situation_json import SituationReader
from varroom.model.measures import GOAL_HEIGHT_M
from varroom.model.situation import Action, Direction, Pitch, Player, action_without_player

DEFAULT_PIXEL_SD = 1.5
# How high a landmark may be: the crossbar, with room for a marked stand or flag post.
_MAX_LANDMARK_Z_M = 10.0
_EDGE_M = 1e-6  # landmarks on the outer lines lie exactly on the pitch's edge


@dataclass(frozen=True, slots=True)
class Landmark:
    """A point of the pitch markings (or the goal frame) and where it is in the still."""

    pitch_m: tuple[float, float, float]
    pixel: tuple[float, float]
    where: str  # its JSON path, for faults found later (the fit)

    @property
    def on_ground(self) -> bool:
        return self.pitch_m[2] == 0.0


@dataclass(frozen=True, slots=True)
class Mark:
    """A point in the still that stands for a point of the pitch: a player's ground point under
    his part nearest the goal line attacked (at `height_m` when the pixel is of that part
    itself), or the ball's ground point."""

    pixel: tuple[float, float]
    height_m: float
    where: str


@dataclass(frozen=True, slots=True)
class StillMarks:
    source: str
    size: tuple[int, int]
    pitch: Pitch
    attacking_team: str
    direction: Direction
    players: Mapping[str, Player]
    landmarks: tuple[Landmark, ...]
    marks: Mapping[str, Mark]
    ball_mark: Mark | None  # the ball's pixel, or
    ball_m: tuple[float, float] | None  # its pitch point when given so
    touch_player: str | None
    touch_action: Action
    involved: str | None
    pixel_sd: float
    raw: Mapping[str, Any]  # the marks file's own pitch, attack and players, for the situation

    def pixels(self) -> dict[str, Mark]:
        """Every point to map to the pitch: the players' marks, and the ball when in pixels."""
        out = dict(self.marks)
        if self.ball_mark is not None:
            out[BALL] = self.ball_mark
        return out


BALL = "$ball"  # the ball's key among the mapped points (no player id starts with '$')


def load_marks(path: str | Path, size: tuple[int, int]) -> StillMarks:
    """Read and check a marks file for a still of `size` (width, height) pixels."""
    return marks_from_dict(read_json(path), size, str(path))


# The keys the still-marks format names (docs/formats/still-marks.md); a slip of one is an
# error.
MARKS_KEYS = (
    "kind",
    "pitch",
    "attack",
    "players",
    "landmarks",
    "marks",
    "ball",
    "touch",
    "involved",
    "pixel_sd",
    "meta",
)


def marks_from_dict(data: Any, size: tuple[int, int], source: str = "<marks>") -> StillMarks:
    """Check already-parsed still marks for a still of `size` pixels."""
    return _Reader(source, size).marks(data)


class _Reader(SituationReader):
    def __init__(self, source: str, size: tuple[int, int]) -> None:
        super().__init__(source)
        self.size = size

    def marks(self, data: Any) -> StillMarks:
        root = self.object(data, "$")
        self.check_kind(root, "still_marks")
        self.known_keys(root, "$", MARKS_KEYS)
        pitch = self.pitch(root.get("pitch"))
        players = self.players(self.required(root, "players", "$"))
        teams = self.two_teams(players)
        team, direction = self.attack(root.get("attack"), teams)
        landmarks = self.landmarks(self.required(root, "landmarks", "$"), pitch)
        marks_obj = self.object(self.required(root, "marks", "$"), "$.marks")
        marks = {
            self.player_ref(pid, "$.marks", players): self.mark(value, f"$.marks.{pid}")
            for pid, value in marks_obj.items()
        }
        if not marks:
            raise self.fail("$.marks", "no players marked")
        ball_mark, ball_m = self.ball(self.required(root, "ball", "$"), pitch)
        player, action = self.still_touch(self.required(root, "touch", "$"), players)
        involved = root.get("involved")
        if involved is not None:
            involved = self.player_ref(involved, "$.involved", players)
            if players[involved].team != team:
                raise self.fail("$.involved", f"{involved!r} is not of the attacking team {team}")
            if involved not in marks:
                raise self.fail("$.involved", f"{involved!r} is not marked in $.marks")
        pixel_sd = DEFAULT_PIXEL_SD
        if "pixel_sd" in root:
            pixel_sd = self.non_negative(root["pixel_sd"], "$.pixel_sd")
        return StillMarks(
            source=self.source,
            size=self.size,
            pitch=pitch,
            attacking_team=team,
            direction=direction,
            players=players,
            landmarks=landmarks,
            marks=marks,
            ball_mark=ball_mark,
            ball_m=ball_m,
            touch_player=player,
            touch_action=action,
            involved=involved,
            pixel_sd=pixel_sd,
            raw={key: root[key] for key in ("pitch", "attack", "players") if key in root},
        )

    def pixel(self, value: Any, where: str) -> tuple[float, float]:
        u, v = self.point(value, where, (2,))
        width, height = self.size
        if not (0.0 <= u <= width and 0.0 <= v <= height):
            raise self.fail(where, f"pixel [{u:g}, {v:g}] outside the {width}x{height} still")
        return u, v

    def landmarks(self, value: Any, pitch: Pitch) -> tuple[Landmark, ...]:
        items = self.array(value, "$.landmarks")
        out = []
        for k, item in enumerate(items):
            where = f"$.landmarks[{k}]"
            obj = self.object(item, where)
            self.known_keys(obj, where, ("pitch", "pixel"))
            xyz = self.point(self.required(obj, "pitch", where), f"{where}.pitch", (2, 3))
            x, y, z = xyz[0], xyz[1], (xyz[2] if len(xyz) == 3 else 0.0)
            if abs(x) > pitch.half_length_m + _EDGE_M or abs(y) > pitch.half_width_m + _EDGE_M:
                raise self.fail(
                    f"{where}.pitch",
                    f"[{x:g}, {y:g}] is off the {pitch.length_m:g} x {pitch.width_m:g} m pitch",
                )
            if not 0.0 <= z <= _MAX_LANDMARK_Z_M:
                raise self.fail(
                    f"{where}.pitch[2]",
                    f"a height of {z:g} m: expected 0 (the ground) to {_MAX_LANDMARK_Z_M:g} "
                    f"(the crossbar is at {GOAL_HEIGHT_M} m)",
                )
            pixel = self.pixel(self.required(obj, "pixel", where), f"{where}.pixel")
            out.append(Landmark((x, y, z), pixel, where))
        if len(out) < 4:
            raise self.fail(
                "$.landmarks", f"at least 4 landmarks are needed to fit a camera, got {len(out)}"
            )
        return tuple(out)

    def mark(self, value: Any, where: str) -> Mark:
        obj = self.object(value, where)
        self.known_keys(obj, where, ("pixel", "height_m"))
        pixel = self.pixel(self.required(obj, "pixel", where), f"{where}.pixel")
        height = 0.0
        if "height_m" in obj:
            height = self.non_negative(obj["height_m"], f"{where}.height_m")
        return Mark(pixel, height, where)

    def ball(self, value: Any, pitch: Pitch) -> tuple[Mark | None, tuple[float, float] | None]:
        obj = self.object(value, "$.ball")
        self.known_keys(obj, "$.ball", ("pixel", "pitch"))
        if ("pixel" in obj) == ("pitch" in obj):
            raise self.fail("$.ball", "expected exactly one of pixel [u, v] or pitch [x, y]")
        if "pixel" in obj:
            return Mark(self.pixel(obj["pixel"], "$.ball.pixel"), 0.0, "$.ball"), None
        x, y = self.point(obj["pitch"], "$.ball.pitch", (2,))
        if abs(x) > pitch.half_length_m or abs(y) > pitch.half_width_m:
            raise self.fail("$.ball.pitch", f"[{x:g}, {y:g}] is off the pitch")
        return None, (x, y)

    def still_touch(self, value: Any, players: Mapping[str, Player]) -> tuple[str | None, Action]:
        obj = self.object(value, "$.touch")
        self.known_keys(obj, "$.touch", ("player", "action"))
        action = self.choice(Action, self.required(obj, "action", "$.touch"), "$.touch.action")
        player = obj.get("player")
        if action_without_player(action):
            if player is not None:
                raise self.fail("$.touch.player", f"a {action.value} touch has no player: use null")
            return None, action
        # The player who played the ball need not be listed (the spec's own example): an
        # unlisted one is taken as the attackers' team-mate, who sets up the judgement.
        return self.string(player, "$.touch.player"), action
