"""Offside positions at one touch: who is where against which line (Law 11.1, 11.4)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import Enum

import numpy as np

from varroom.law.off_field import (
    attacker_off_field_depth_m,
    counts_on_a_line,
    defender_off_field_depth_m,
    ignored_for_offside,
)
from varroom.law.position import (
    ball_depth_m,
    nearest_counting_part,
    offside_line_depth_m,
    offside_margin_m,
    offside_position,
    rearmost_counting_part_m,
    second_last_opponent,
)
from varroom.law.restarts import no_offence_from
from varroom.model.settings import LawSettings
from varroom.model.situation import BodyPart, Part, Position, Situation


class LineSetter(Enum):
    """What set the offside line: the deepest of these three (Law 11.1)."""

    SECOND_LAST_OPPONENT = "second_last_opponent"
    BALL = "ball"
    HALFWAY_LINE = "halfway_line"


class Reference(Enum):
    """Which point of a player was measured."""

    TRACKED_POINT = "tracked_point"
    BODY_PART = "body_part"
    LINE_CROSSED = "line_crossed"  # off the field: counts on a line (Law 11.4)


@dataclass(frozen=True, slots=True)
class Reach:
    """A player's point nearest the goal line attacked, in pitch coordinates."""

    x_m: float
    y_m: float
    reference: Reference
    part: BodyPart | None = None


@dataclass(frozen=True, slots=True)
class PlayerJudgement:
    player: str
    offside_position: bool
    margin_m: float
    reach: Reach
    daylight_margin_m: float  # his rearmost counting part past the line: daylight when > 0


@dataclass(frozen=True, slots=True)
class OffsideLine:
    x_m: float
    set_by: LineSetter
    ball_x_m: float
    second_last: str | None
    second_last_reach: Reach | None


@dataclass(frozen=True, slots=True)
class Judgement:
    """Positions judged at touch `index`, when a team-mate played or touched the ball."""

    index: int
    exempt_restart: bool
    line: OffsideLine | None  # None: fewer than two opponents listed
    # The ball and the halfway line alone, which bound the line whatever the opponents: with
    # no line, margins are measured against it and nobody is in an offside position yet.
    floor: OffsideLine
    attackers: Mapping[str, PlayerJudgement]
    defenders: Mapping[str, Reach]

    @property
    def decidable(self) -> bool:
        return self.line is not None

    @property
    def reference(self) -> OffsideLine:
        """What the margins are measured against: the line, else the ball and halfway line."""
        return self.floor if self.line is None else self.line

    def nearest_attacker(self) -> PlayerJudgement | None:
        return max(self.attackers.values(), key=lambda j: j.margin_m, default=None)


def judge_positions(situation: Situation, index: int, settings: LawSettings) -> Judgement:
    """Every attacker's offside position at touch `index` (the player touching it excluded)."""
    touch = situation.touches[index]
    direction = situation.attack_direction
    sign = direction.sign  # looked up once, not per player
    attackers: dict[str, tuple[float, Reach]] = {}
    defenders: dict[str, tuple[float, Reach]] = {}
    for player_id, position in touch.positions.items():
        if ignored_for_offside(position, settings) or player_id == touch.player:
            continue
        is_attacker = situation.is_attacker(player_id)
        (attackers if is_attacker else defenders)[player_id] = _reach(
            position, is_attacker, situation, settings, sign
        )
    defender_ids = list(defenders)
    defender_depths = np.array([depth for depth, _ in defenders.values()], dtype=float)
    second = int(second_last_opponent(defender_depths)) if defender_ids else -1
    ball = float(ball_depth_m(touch.ball_m[0], direction, settings))
    floor_depth = float(offside_line_depth_m(ball, -np.inf, settings))
    floor = OffsideLine(
        x_m=sign * floor_depth,
        set_by=LineSetter.BALL if floor_depth == ball else LineSetter.HALFWAY_LINE,
        ball_x_m=sign * ball,
        second_last=None,
        second_last_reach=None,
    )
    line: OffsideLine | None = None
    if second >= 0:
        second_depth, second_reach = defenders[defender_ids[second]]
        line_depth = float(offside_line_depth_m(ball, second_depth, settings))
        if line_depth == second_depth:
            set_by = LineSetter.SECOND_LAST_OPPONENT
        elif line_depth == ball:
            set_by = LineSetter.BALL
        else:
            set_by = LineSetter.HALFWAY_LINE
        line = OffsideLine(
            x_m=sign * line_depth,
            set_by=set_by,
            ball_x_m=sign * ball,
            second_last=defender_ids[second],
            second_last_reach=second_reach,
        )
    reference_depth = sign * (floor if line is None else line).x_m
    ids = list(attackers)
    margins = offside_margin_m(
        np.array([attackers[pid][0] for pid in ids], dtype=float), reference_depth
    )
    flags = offside_position(margins) & (line is not None)
    judged = {
        pid: PlayerJudgement(
            pid,
            bool(flags[k]),
            float(margins[k]),
            attackers[pid][1],
            _rear_depth(touch.positions[pid], situation, settings) - reference_depth,
        )
        for k, pid in enumerate(ids)
    }
    return Judgement(index, no_offence_from(touch.kind), line, floor, judged, _reaches(defenders))


def _rear_depth(position: Position, situation: Situation, settings: LawSettings) -> float:
    if counts_on_a_line(position):
        return attacker_off_field_depth_m(situation.pitch)
    return rearmost_counting_part_m(position, situation.attack_direction, settings)


def _reaches(players: Mapping[str, tuple[float, Reach]]) -> dict[str, Reach]:
    return {pid: reach for pid, (_, reach) in players.items()}


def _reach(
    position: Position,
    is_attacker: bool,
    situation: Situation,
    settings: LawSettings,
    sign: float,
) -> tuple[float, Reach]:
    direction, pitch = situation.attack_direction, situation.pitch
    if counts_on_a_line(position):
        depth = (
            attacker_off_field_depth_m(pitch)
            if is_attacker
            else defender_off_field_depth_m(position, direction, pitch, settings)
        )
        return depth, Reach(sign * depth, position.y_m, Reference.LINE_CROSSED)
    depth, part = nearest_counting_part(position, direction, settings)
    return depth, _reach_of_part(position, part, sign * depth)


def _reach_of_part(position: Position, part: Part | None, x_m: float) -> Reach:
    if part is None:
        return Reach(x_m, position.y_m, Reference.TRACKED_POINT)
    y_m = position.y_m if part.y_m is None else part.y_m
    return Reach(x_m, y_m, Reference.BODY_PART, part.part)
