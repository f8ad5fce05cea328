"""Law 14 (the penalty kick) as pure functions, one paragraph each; no I/O.

Depths are metres along the attack, towards the goal line the kick is taken at:
`direction.sign * x`. Every margin is positive where the Law is broken (the goalkeeper off his
line, a player inside the 9.15 m, a ball kicked backwards) and zero or negative where it is kept.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from enum import Enum

import numpy as np
import numpy.typing as npt

from varroom.model.measures import (
    GOAL_HALF_WIDTH_M,
    PENALTY_AREA_DEPTH_M,
    PENALTY_AREA_HALF_WIDTH_M,
    PENALTY_MARK_M,
)
from varroom.model.penalty import (
    DoubleTouch,
    EncroachmentRule,
    GoalLineWidth,
    InLineWith,
    KickResult,
    PenaltyFacts,
    PenaltySettings,
)
from varroom.model.situation import BodyPart, Direction, Part, Pitch, Position

Floats = npt.NDArray[np.float64]

_LEFT_FOOT = (BodyPart.LEFT_HEEL, BodyPart.LEFT_TOE, BodyPart.LEFT_FOOT)
_RIGHT_FOOT = (BodyPart.RIGHT_HEEL, BodyPart.RIGHT_TOE, BodyPart.RIGHT_FOOT)
FOOT_PARTS = frozenset(_LEFT_FOOT + _RIGHT_FOOT)


class Zone(Enum):
    """Where another player must not be at the kick (Law 14.1)."""

    PENALTY_AREA = "penalty_area"
    ARC = "arc"  # within 9.15 m of the mark
    IN_FRONT_OF_MARK = "in_front_of_mark"
    OFF_FIELD = "off_field"
    # Kicks from the penalty mark: the kicker's goalkeeper away from his place (Law 10.3).
    AWAY_FROM_PLACE = "away_from_place"


# Where another player must not be at a penalty kick (Law 14.1), and where the kicker's own
# goalkeeper must not be in kicks from the penalty mark (Law 10.3), as margin columns.
ZONES = (Zone.PENALTY_AREA, Zone.ARC, Zone.IN_FRONT_OF_MARK, Zone.OFF_FIELD)
KICKERS_KEEPER_ZONES = (Zone.PENALTY_AREA, Zone.OFF_FIELD, Zone.AWAY_FROM_PLACE)


class Offender(Enum):
    """Who committed an offence, as the outcome table of Law 14.2 groups them."""

    KICKER = "kicker"
    GOALKEEPER = "goalkeeper"
    KICKERS_TEAM_MATE = "kickers_team_mate"
    KEEPERS_TEAM_MATE = "keepers_team_mate"


class KickerOffence(Enum):
    """The kicker's own offences, most serious first (the order the table settles them in)."""

    WRONG_KICKER = "wrong_kicker"
    FEINT_AFTER_RUN_UP = "feint_after_run_up"
    BACKWARD_KICK = "backward_kick"
    DOUBLE_TOUCH = "double_touch"


class Decision(Enum):
    GOAL = "goal"
    NO_GOAL = "no_goal"  # play goes on, or restarts as usual after a save or a miss
    RETAKE = "retake"
    INDIRECT_FREE_KICK = "indirect_free_kick"  # always to the defending team in Law 14


class Card(Enum):
    WARNING = "warning"
    CAUTION = "caution"


class Row(Enum):
    """The row of the Law 14.2 outcome table that decided (shared/spec/laws.md)."""

    NO_OFFENCE = "no_offence"
    KICKERS_TEAM_MATE = "kickers_team_mate"
    KEEPERS_SIDE = "keepers_side"  # the goalkeeper, his team-mates, or both
    BOTH_TEAMS = "both_teams"
    KEEPER_AND_KICKER = "keeper_and_kicker"
    KICKER = "kicker"  # wrong kicker, feint, backward kick or double touch
    PROCEDURE = "procedure"  # the ball was not on the mark: the kick did not count


@dataclass(frozen=True, slots=True)
class Outcome:
    decision: Decision
    row: Row
    penalised: frozenset[Offender]
    caution_kicker: bool = False
    keeper_card: Card | None = None


def ball_on_mark_margin_m(
    ball_m: tuple[float, float, float], mark_m: tuple[float, float], settings: PenaltySettings
) -> float:
    """Law 14.1, procedure: part of the ball must touch or overhang the centre of the mark.
    The margin is how far the ball's footprint misses the mark's centre."""
    return float(np.hypot(ball_m[0] - mark_m[0], ball_m[1] - mark_m[1])) - settings.ball_radius_m


def goal_line_depth_m(pitch: Pitch, line_width_m: float, settings: PenaltySettings) -> float:
    """Law 1 and 14.1: the goal line's front edge, which a foot touching counts as on the line."""
    if settings.goal_line_width is GoalLineWidth.INSIDE_FIELD:
        return pitch.half_length_m - line_width_m
    return pitch.half_length_m


def keeper_foot_margins_m(
    position: Position, direction: Direction, line_depth_m: float, settings: PenaltySettings
) -> list[tuple[float, Part | None]]:
    """Law 14.1, goalkeeper: at the kick at least part of one foot must touch, be in line with,
    or be behind the goal line. For each foot, how far its part nearest the goal line is in
    front of the line's front edge, and that part (None: the tracked point stands for the feet).
    A foot with no part the settings let count is infinitely far off."""
    feet = [
        [p for p in position.parts if p.part in side and _counts_in_line(p, settings)]
        for side in (_LEFT_FOOT, _RIGHT_FOOT)
    ]
    if not any(p.part in FOOT_PARTS for p in position.parts):
        return [(line_depth_m - direction.sign * position.x_m, None)]
    margins: list[tuple[float, Part | None]] = []
    for foot in feet:
        if not foot:
            margins.append((float("inf"), None))
            continue
        nearest = max(foot, key=lambda p: direction.sign * p.x_m)
        margins.append((line_depth_m - direction.sign * nearest.x_m, nearest))
    return margins


def _counts_in_line(part: Part, settings: PenaltySettings) -> bool:
    if settings.in_line_with is InLineWith.ABOVE or part.z_m is None:
        return True
    return part.z_m <= settings.grounded_height_m


def keeper_posts_margin_m(position: Position) -> float:
    """Law 14.1, goalkeeper: he stays between the posts; how far his tracked point is outside."""
    return abs(position.y_m) - GOAL_HALF_WIDTH_M


def encroachment_margins_m(
    x_m: Floats, y_m: Floats, direction: Direction, pitch: Pitch, settings: PenaltySettings
) -> Floats:
    """Law 14.1, other players: at least 9.15 m from the mark, behind it, inside the field and
    outside the penalty area. Points (N,) in, margins (N, 4) out, one column per `ZONES` entry.
    The area's lines belong to the area (Law 1): a foot on its line is inside."""
    depth = direction.sign * x_m
    half = pitch.half_length_m
    mark_depth = half - PENALTY_MARK_M
    in_area = np.minimum(
        np.minimum(depth - (half - PENALTY_AREA_DEPTH_M), PENALTY_AREA_HALF_WIDTH_M - np.abs(y_m)),
        half - depth,
    )
    in_arc = settings.mark_distance_m - np.hypot(depth - mark_depth, y_m)
    in_front = depth - mark_depth
    off_field = np.maximum(depth - half, np.abs(y_m) - pitch.half_width_m)
    return np.stack([in_area, in_arc, in_front, off_field], axis=-1)


def kickers_keeper_margins_m(
    x_m: Floats,
    y_m: Floats,
    direction: Direction,
    pitch: Pitch,
    line_width_m: float,
    settings: PenaltySettings,
) -> Floats:
    """Law 10.3, kicks from the penalty mark: the goalkeeper of the kicker remains on the field
    of play, outside the penalty area, on the goal line where it meets the penalty-area
    boundary line. Points (N,) in, margins (N, 3) out, one column per `KICKERS_KEEPER_ZONES`
    entry: how far inside the area, off the field, and farther than
    `settings.kickers_keeper_place_m` from the nearer meeting of those lines. The Law puts him
    where the lines meet, so the area's line is his place too: he is inside the area only
    beyond its inner edge."""
    depth = direction.sign * x_m
    half = pitch.half_length_m
    inner = PENALTY_AREA_HALF_WIDTH_M - line_width_m
    in_area = np.minimum(
        np.minimum(depth - (half - PENALTY_AREA_DEPTH_M + line_width_m), inner - np.abs(y_m)),
        half - depth,
    )
    off_field = np.maximum(depth - half, np.abs(y_m) - pitch.half_width_m)
    away = (
        np.hypot(half - depth, np.abs(y_m) - PENALTY_AREA_HALF_WIDTH_M)
        - settings.kickers_keeper_place_m
    )
    return np.stack([in_area, off_field, away], axis=-1)


def backward_kick_margin_m(
    ball_m: tuple[float, float, float], ball_after_m: tuple[float, float], direction: Direction
) -> float:
    """Law 14.1, the kick: the ball must be kicked forward (a backheel is fine if it goes
    forward). How far it went back towards the kicker's own goal."""
    return direction.sign * (ball_m[0] - ball_after_m[0])


def encroachment_counts(
    attacking: bool, player: str, facts: PenaltyFacts, settings: PenaltySettings
) -> bool:
    """Law 14.2 (24/25): an encroachment is penalised only if it clearly affected the goalkeeper
    (an attacker) or the kicker (a defender), or the encroacher then played or challenged for
    the ball; reviewer facts, since tracking cannot see either."""
    if settings.encroachment_rule is EncroachmentRule.EVERY or player in facts.encroacher_involved:
        return True
    return facts.clearly_affected_keeper if attacking else facts.clearly_affected_kicker


def keeper_offence_counts(result: KickResult, facts: PenaltyFacts) -> bool:
    """Law 14.2: a goalkeeper's offence cancels a save, but a miss or a ball off the woodwork
    is retaken only if the offence clearly affected the kicker (a goal stands either way)."""
    if result in (KickResult.GOAL, KickResult.SAVED):
        return True
    return facts.clearly_affected_kicker


def outcome(
    result: KickResult,
    facts: PenaltyFacts,
    kicker_offences: Iterable[KickerOffence],
    keeper_offence: bool,
    attack_encroached: bool,
    defence_encroached: bool,
    ball_on_mark: bool = True,
) -> Outcome:
    """Law 14.2, offences and sanctions: the outcome table. `attack_encroached` and
    `defence_encroached` are encroachments that count (`encroachment_counts`); the goalkeeper's
    offence is any he committed. A goalkeeper whose offence leads to a retake is warned the first
    time and cautioned after; in kicks from the penalty mark an indirect free kick is a miss.
    A kick taken with the ball off the mark (Law 14.1) is retaken unless the kicker offended."""
    kicker = frozenset(kicker_offences)
    if not ball_on_mark and not kicker:
        return Outcome(Decision.RETAKE, Row.PROCEDURE, frozenset())
    decided = _table(result, facts, kicker, keeper_offence, attack_encroached, defence_encroached)
    if decided.decision is Decision.INDIRECT_FREE_KICK and facts.shootout:
        return Outcome(Decision.NO_GOAL, decided.row, decided.penalised, decided.caution_kicker)
    return decided


def _table(
    result: KickResult,
    facts: PenaltyFacts,
    kicker: frozenset[KickerOffence],
    keeper_offence: bool,
    attack: bool,
    defence: bool,
) -> Outcome:
    scored = result.scored
    ifk = Decision.INDIRECT_FREE_KICK
    if KickerOffence.WRONG_KICKER in kicker:
        return Outcome(ifk, Row.KICKER, frozenset({Offender.KICKER}), caution_kicker=True)
    if KickerOffence.FEINT_AFTER_RUN_UP in kicker and keeper_offence:
        if scored:
            return Outcome(ifk, Row.KEEPER_AND_KICKER, frozenset({Offender.KICKER}), True)
        both = frozenset({Offender.KICKER, Offender.GOALKEEPER})
        return Outcome(Decision.RETAKE, Row.KEEPER_AND_KICKER, both, True, Card.CAUTION)
    if KickerOffence.FEINT_AFTER_RUN_UP in kicker:
        return Outcome(ifk, Row.KICKER, frozenset({Offender.KICKER}), caution_kicker=True)
    if KickerOffence.BACKWARD_KICK in kicker:
        return Outcome(ifk, Row.KICKER, frozenset({Offender.KICKER}))
    if KickerOffence.DOUBLE_TOUCH in kicker:
        # An accidental double touch that went in is retaken (IFAB circular, July 2025).
        accidental_goal = facts.double_touch is DoubleTouch.ACCIDENTAL and scored
        return Outcome(
            Decision.RETAKE if accidental_goal else ifk, Row.KICKER, frozenset({Offender.KICKER})
        )
    keeper = keeper_offence and keeper_offence_counts(result, facts)
    keepers_side = frozenset(
        o
        for o, did in ((Offender.GOALKEEPER, keeper), (Offender.KEEPERS_TEAM_MATE, defence))
        if did
    )
    if attack and keepers_side:
        penalised = keepers_side | {Offender.KICKERS_TEAM_MATE}
        return Outcome(Decision.RETAKE, Row.BOTH_TEAMS, penalised, keeper_card=_card(keeper, facts))
    if attack:
        mates = frozenset({Offender.KICKERS_TEAM_MATE})
        return Outcome(Decision.RETAKE if scored else ifk, Row.KICKERS_TEAM_MATE, mates)
    if keepers_side and not scored:
        return Outcome(
            Decision.RETAKE, Row.KEEPERS_SIDE, keepers_side, keeper_card=_card(keeper, facts)
        )
    if keepers_side:
        return Outcome(Decision.GOAL, Row.KEEPERS_SIDE, frozenset())
    return Outcome(Decision.GOAL if scored else Decision.NO_GOAL, Row.NO_OFFENCE, frozenset())


def _card(keeper_penalised: bool, facts: PenaltyFacts) -> Card | None:
    """Law 14.2: a goalkeeper whose offence leads to a retake: warned, then cautioned."""
    if not keeper_penalised:
        return None
    return Card.CAUTION if facts.keeper_warned_before else Card.WARNING
