"""What a synthetic period is written as before it is drawn: touches, ball legs and anchors.

A `Stage` holds one period's free motion (`varroom.synthetic.motion`); a `Script`
collects what the background play and the planted incidents make happen on it. Every touch
anchors its player where he plays the ball, so the ball's legs and the players' final
positions agree exactly at every touch.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum

import numpy as np
import numpy.typing as npt

from varroom.law.position import (
    ball_depth_m,
    offside_line_depth_m,
    offside_margin_m,
    second_last_opponent,
)
from varroom.match.tracking import EventKind
from varroom.model.settings import LawSettings
from varroom.model.situation import Direction, Pitch
from varroom.synthetic.ball import HELD_OFFSET_M, BallLeg, LegKind
from varroom.synthetic.motion import PLAYERS_PER_TEAM, ROLES, Anchor, Role, positions_at

Floats = npt.NDArray[np.float64]
Point = tuple[float, float]

SETTINGS = LawSettings()


class IncidentKind(Enum):
    """The situations of laws.md planted in a synthetic match, each with its known ruling."""

    INTERFERING = "interfering"  # offside position, plays the ball: offence
    LEVEL = "level"  # level with the second-last opponent: onside
    NOT_INVOLVED = "not_involved"  # offside position, a team-mate plays on: no offence
    DEFLECTION = "deflection"  # off a defender to the offside player: offence
    DELIBERATE_PLAY = "deliberate_play"  # a defender's deliberate play resets: no offence
    SAVE_REBOUND = "save_rebound"  # a save rebounds to the offside player: offence
    NEW_PLAY = "new_play"  # onside at a team-mate's new play: no offence
    THROW_IN = "throw_in"  # straight from a throw-in: no offence (Law 11.3)
    CORNER_KICK = "corner_kick"  # straight from a corner kick: no offence
    GOAL_KICK = "goal_kick"  # straight from a goal kick: no offence
    FREE_KICK = "free_kick"  # straight from a free kick: offence
    OWN_HALF = "own_half"  # in his own half at the pass: no offence


@dataclass(frozen=True, slots=True)
class PlantedIncident:
    """The truth about one planted situation."""

    kind: IncidentKind
    period: int
    t_s: float  # the play at which the attacker's position is judged
    team: str  # the attacking team
    attacker: str  # the player the situation is about
    offender: str | None  # who commits an offside offence; None when nobody does
    offence: bool


@dataclass(frozen=True, slots=True)
class PlannedTouch:
    t_s: float
    player: int
    ball_m: Point
    event: EventKind | None  # what event data records for it; None: nothing (a receipt)


@dataclass(frozen=True, slots=True)
class Pin:
    """`player` copies `like`'s x from `start_s` to `end_s`: exactly level, frame by frame."""

    player: int
    like: int
    start_s: float
    end_s: float


@dataclass(frozen=True, slots=True)
class OnsideCheck:
    """A background receiver who must be onside when his team-mate plays the ball."""

    t_s: float
    player: int
    ball_x_m: float


@dataclass(frozen=True, eq=False)
class Stage:
    """One period's free motion and its teams."""

    period: int
    t_s: Floats
    free_m: Floats  # (T, 22, 2)
    signs: tuple[float, float]  # the direction each team attacks along x
    pitch: Pitch
    player_ids: tuple[str, ...]
    team_ids: tuple[str, str]

    def at(self, t_s: float) -> Floats:
        return positions_at(self.free_m, self.t_s, t_s)

    def team_of(self, player: int) -> int:
        return player // PLAYERS_PER_TEAM

    def columns(self, team: int, *roles: Role) -> list[int]:
        """The team's players, of the given roles (all without)."""
        first = team * PLAYERS_PER_TEAM
        return [first + k for k, role in enumerate(ROLES) if not roles or role in roles]

    def offset(self, player: int) -> Point:
        """Where a player keeps the ball: just ahead of him, towards the goal he attacks."""
        return (self.signs[self.team_of(player)] * HELD_OFFSET_M, 0.0)

    def xy(self, team: int, u_m: float, y_m: float) -> Point:
        """A point given by its depth along the team's attack."""
        return (self.signs[team] * u_m, y_m)

    def u(self, team: int, x_m: float) -> float:
        return self.signs[team] * x_m

    def margins(self, positions: Floats, team: int, ball_x_m: float) -> Floats:
        """(22,) every player of `team`'s offside margin (Law 11.1); NaN for the others."""
        direction = Direction.PLUS_X if self.signs[team] > 0 else Direction.MINUS_X
        depth = self.signs[team] * positions[:, 0]
        own = np.zeros(len(depth), dtype=bool)
        own[self.columns(team)] = True
        opponents = np.where(own, np.nan, depth)
        second = second_last_opponent(opponents)
        second_depth = -np.inf if second < 0 else opponents[second]
        ball = ball_depth_m(ball_x_m, direction, SETTINGS)
        line = offside_line_depth_m(ball, second_depth, SETTINGS)
        return np.where(own, offside_margin_m(depth, line), np.nan)


@dataclass(eq=False)
class Script:
    """What happens in one period, as it is planned (mutable while planning)."""

    stage: Stage
    touches: list[PlannedTouch] = field(default_factory=list)
    legs: list[BallLeg] = field(default_factory=list)
    anchors: list[Anchor] = field(default_factory=list)
    checks: list[OnsideCheck] = field(default_factory=list)
    pins: list[Pin] = field(default_factory=list)
    truth: list[PlantedIncident] = field(default_factory=list)
    calls: list[tuple[float, int]] = field(default_factory=list)  # (t_s, offender) flagged
    incident_spans: list[tuple[float, float]] = field(default_factory=list)  # planted incidents

    def play(
        self,
        t_s: float,
        player: int,
        stands_m: Point,
        event: EventKind | None,
        ball_m: Point | None = None,
    ) -> Point:
        """`player` plays the ball standing at `stands_m`; the ball is at his feet unless
        given (a restart's spot). Returns where the ball is."""
        self.anchors.append(Anchor(player, t_s, stands_m))
        if ball_m is None:
            dx, dy = self.stage.offset(player)
            ball_m = (stands_m[0] + dx, stands_m[1] + dy)
        self.touches.append(PlannedTouch(t_s, player, ball_m, event))
        return ball_m

    def pass_to(
        self,
        t_s: float,
        ball_m: Point,
        receiver: int,
        stands_m: Point | None,
        speed_mps: float,
        loft_m: float = 0.0,
        event: EventKind | None = None,
    ) -> tuple[float, Point]:
        """The ball flies from `ball_m` at `t_s` to `receiver`, who stands at `stands_m`
        (None: where his free motion takes him by then). Returns when and where he gets it."""
        if stands_m is None:
            guess = self.stage.at(t_s)[receiver]
            arrival = t_s + float(np.hypot(guess[0] - ball_m[0], guess[1] - ball_m[1])) / speed_mps
            there = self.stage.at(arrival)[receiver]
            stands_m = (float(there[0]), float(there[1]))
        dx, dy = self.stage.offset(receiver)
        distance = float(np.hypot(stands_m[0] + dx - ball_m[0], stands_m[1] + dy - ball_m[1]))
        t_recv = t_s + max(distance, 1.0) / speed_mps
        received = self.play(t_recv, receiver, stands_m, event)
        self.fly(t_s, t_recv, ball_m, received, loft_m)
        return t_recv, received

    def fly(
        self, start_s: float, end_s: float, from_m: Point, to_m: Point, loft_m: float = 0.0
    ) -> None:
        self.legs.append(BallLeg(LegKind.FLIGHT, start_s, end_s, from_m, to_m, loft_m=loft_m))

    def hold(self, player: int, start_s: float, end_s: float) -> None:
        self.legs.append(
            BallLeg(LegKind.HELD, start_s, end_s, player=player, offset_m=self.stage.offset(player))
        )

    def lie(self, start_s: float, end_s: float, spot_m: Point) -> None:
        self.legs.append(BallLeg(LegKind.STILL, start_s, end_s, start_m=spot_m))

    def hide(self, start_s: float, end_s: float) -> None:
        self.legs.append(BallLeg(LegKind.HIDDEN, start_s, end_s))

    def free_point(self, t_s: float, player: int) -> Point:
        where = self.stage.at(t_s)[player]
        return (float(where[0]), float(where[1]))
