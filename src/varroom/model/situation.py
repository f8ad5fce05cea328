"""The situation: one attacking phase as the touches of the ball, in frozen domain types.

Nothing here reads files; `varroom.formats.situation_json` turns JSON into these types.
Coordinates are metres from the centre spot, x along the pitch, never clipped:
players may stand behind a goal line or beyond a touchline.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import Enum

from varroom.model.camera import Camera
from varroom.model.names import short_name
from varroom.model.noise import NOISE_DEFAULTS, Tracking, TrackingSource
from varroom.model.view import View


class Direction(Enum):
    """Which goal line a team attacks."""

    PLUS_X = "+x"
    MINUS_X = "-x"

    @property
    def sign(self) -> float:
        return 1.0 if self is Direction.PLUS_X else -1.0


class Action(Enum):
    """What happened at a touch, in the words of the situation format."""

    PASS = "pass"
    SHOT = "shot"
    HEADER = "header"
    CROSS = "cross"
    CLEARANCE = "clearance"
    DRIBBLE = "dribble"
    RECEIVE = "receive"
    DELIBERATE_PLAY = "deliberate_play"
    DEFLECTION = "deflection"
    SAVE = "save"
    WOODWORK = "woodwork"
    OFFICIAL = "official"
    THROW_IN = "throw_in"
    GOAL_KICK = "goal_kick"
    CORNER_KICK = "corner_kick"
    FREE_KICK = "free_kick"
    KICK_OFF = "kick_off"
    PENALTY_KICK = "penalty_kick"
    DROPPED_BALL = "dropped_ball"


class TouchKind(Enum):
    """How a touch counts for offside (Law 11.2, 11.3)."""

    DELIBERATE_PLAY = "deliberate_play"
    DEFLECTION = "deflection"
    SAVE = "save"
    REBOUND = "rebound"  # off the woodwork or a match official: nobody played it
    EXEMPT_RESTART = "exempt_restart"  # throw-in, goal kick, corner kick (Law 11.3)
    RESTART = "restart"  # a restart after which offside applies as usual


_KIND_OF_ACTION: dict[Action, TouchKind] = {
    Action.DEFLECTION: TouchKind.DEFLECTION,
    Action.SAVE: TouchKind.SAVE,
    Action.WOODWORK: TouchKind.REBOUND,
    Action.OFFICIAL: TouchKind.REBOUND,
    Action.THROW_IN: TouchKind.EXEMPT_RESTART,
    Action.GOAL_KICK: TouchKind.EXEMPT_RESTART,
    Action.CORNER_KICK: TouchKind.EXEMPT_RESTART,
    Action.FREE_KICK: TouchKind.RESTART,
    Action.KICK_OFF: TouchKind.RESTART,
    Action.PENALTY_KICK: TouchKind.RESTART,
    Action.DROPPED_BALL: TouchKind.RESTART,
}


def touch_kind(action: Action) -> TouchKind:
    """How an action counts for offside; every other action is a deliberate play."""
    return _KIND_OF_ACTION.get(action, TouchKind.DELIBERATE_PLAY)


def action_without_player(action: Action) -> bool:
    """A rebound off the woodwork or an official has no player."""
    return touch_kind(action) is TouchKind.REBOUND


class BodyPart(Enum):
    """Body parts a tracker may report; arms and hands never count (Law 11.1)."""

    HEAD = "head"
    NECK = "neck"
    TORSO = "torso"
    LEFT_SHOULDER = "left_shoulder"
    RIGHT_SHOULDER = "right_shoulder"
    LEFT_HIP = "left_hip"
    RIGHT_HIP = "right_hip"
    LEFT_KNEE = "left_knee"
    RIGHT_KNEE = "right_knee"
    LEFT_ANKLE = "left_ankle"
    RIGHT_ANKLE = "right_ankle"
    LEFT_FOOT = "left_foot"
    RIGHT_FOOT = "right_foot"
    LEFT_HEEL = "left_heel"
    RIGHT_HEEL = "right_heel"
    LEFT_TOE = "left_toe"
    RIGHT_TOE = "right_toe"
    LEFT_ARM = "left_arm"
    RIGHT_ARM = "right_arm"
    LEFT_ELBOW = "left_elbow"
    RIGHT_ELBOW = "right_elbow"
    LEFT_WRIST = "left_wrist"
    RIGHT_WRIST = "right_wrist"
    LEFT_HAND = "left_hand"
    RIGHT_HAND = "right_hand"

    @property
    def counts_for_offside(self) -> bool:
        return self not in _ARM_PARTS


_ARM_PARTS = frozenset(
    {
        BodyPart.LEFT_ARM,
        BodyPart.RIGHT_ARM,
        BodyPart.LEFT_ELBOW,
        BodyPart.RIGHT_ELBOW,
        BodyPart.LEFT_WRIST,
        BodyPart.RIGHT_WRIST,
        BodyPart.LEFT_HAND,
        BodyPart.RIGHT_HAND,
    }
)


class OffField(Enum):
    """A player off the field of play at a touch (Law 11.4)."""

    WITHOUT_PERMISSION = "without_permission"
    WITH_PERMISSION = "with_permission"
    STEPPED_OFF = "stepped_off"


class OnFieldCall(Enum):
    """The on-field call a situation checks (`on_field.decision`)."""

    GOAL = "goal"
    NO_GOAL = "no_goal"
    OFFSIDE = "offside"
    PLAY_ON = "play_on"  # no offence called, play went on


class InvolvementKind(Enum):
    """Interfering with an opponent (Law 11.2), as a reviewer states it."""

    OBSTRUCTS_LINE_OF_VISION = "obstructs_line_of_vision"
    CHALLENGES_OPPONENT = "challenges_opponent"
    ATTEMPTS_TO_PLAY_CLOSE = "attempts_to_play_close"
    OBVIOUS_ACTION_IMPACTING_OPPONENT = "obvious_action_impacting_opponent"


# Law 3: eleven players a side, unless the format's `team_sizes` says fewer (sendings-off).
FULL_TEAM = 11


@dataclass(frozen=True, slots=True)
class Pitch:
    length_m: float = 105.0
    width_m: float = 68.0

    @property
    def half_length_m(self) -> float:
        return self.length_m / 2

    @property
    def half_width_m(self) -> float:
        return self.width_m / 2


@dataclass(frozen=True, slots=True)
class Player:
    id: str
    team: str
    goalkeeper: bool = False
    name: str | None = None
    number: int | None = None
    # What the data calls him after the first mention (a lineup's last name, a format's
    # `short_name`); None: worked out from `name` (`model.names.short_name`).
    short_name: str | None = None

    @property
    def label(self) -> str:
        """What a fan calls him: the name, else the shirt number, else the id."""
        if self.name:
            return self.name
        if self.number is not None:
            return f"number {self.number}"
        return self.id

    @property
    def short_label(self) -> str:
        """The family name, for pictures and running text after the first mention."""
        if self.short_name:
            return self.short_name
        if self.name:
            return short_name(self.name)
        return self.label


@dataclass(frozen=True, slots=True)
class Part:
    """A body part's point nearest the goal line being attacked."""

    part: BodyPart
    x_m: float
    y_m: float | None = None
    z_m: float | None = None


@dataclass(frozen=True, slots=True)
class Position:
    """Where a player was at a touch: the tracked point and, optionally, body parts."""

    x_m: float
    y_m: float
    parts: tuple[Part, ...] = ()
    off_field: OffField | None = None
    v_mps: tuple[float, float] = (0.0, 0.0)  # velocity, for the moment-of-play timing error


@dataclass(frozen=True, slots=True)
class Involvement:
    player: str
    kind: InvolvementKind
    # When it happened, if between the previous touch and this one (format 1.1): the offside
    # position is judged at the last team-mate's play at or before then.
    t_s: float | None = None
    # Where he was when he interfered, where the data knows it: the indirect free kick is
    # taken there (Law 11.5). None: his spot at the touch, else the ball's.
    at_m: tuple[float, float] | None = None


@dataclass(frozen=True, slots=True)
class Touch:
    t_s: float
    player: str | None
    action: Action
    ball_m: tuple[float, float, float]
    positions: Mapping[str, Position]
    involvement: tuple[Involvement, ...] = ()
    ball_v_mps: tuple[float, float] = (0.0, 0.0)
    view: View | None = None  # None: every player on the pitch is in `positions`

    @property
    def kind(self) -> TouchKind:
        return touch_kind(self.action)


@dataclass(frozen=True, slots=True)
class Lineup:
    """The pitch, the players on it and which way the attacking team attacks: what a situation
    and a penalty kick (`model.penalty.PenaltyKick`) both stand on."""

    pitch: Pitch
    attacking_team: str
    attack_direction: Direction
    players: Mapping[str, Player]

    @property
    def defending_team(self) -> str:
        return next(p.team for p in self.players.values() if p.team != self.attacking_team)

    def is_attacker(self, player_id: str) -> bool:
        return self.players[player_id].team == self.attacking_team


@dataclass(frozen=True, slots=True)
class Situation(Lineup):
    touches: tuple[Touch, ...]
    on_field_decision: str | None = None
    meta: Mapping[str, object] = field(default_factory=dict)
    tracking: Tracking = Tracking(
        TrackingSource.CENTROID_OPTICAL, NOISE_DEFAULTS[TrackingSource.CENTROID_OPTICAL]
    )
    camera: Camera | None = None  # a broadcast camera, for the perspective picture
    # Players on the pitch per team, to count the unseen where a touch has a view; a team
    # not named has FULL_TEAM.
    team_sizes: Mapping[str, int] = field(default_factory=dict)

    def team_size(self, team: str) -> int:
        return self.team_sizes.get(team, FULL_TEAM)
