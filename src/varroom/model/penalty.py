"""A penalty kick (Law 14) at the moment the ball is kicked, in frozen domain types, and the
points Law 14 leaves open, each a named setting with its default (docs/penalty.md).

Nothing here reads files; `varroom.formats.penalty_json` turns JSON into these types.
Coordinates are those of a situation: metres from the centre spot, x along the pitch.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import Enum

from varroom.model.measures import BALL_RADIUS_M, DISTANCE_M, PENALTY_MARK_M
from varroom.model.noise import NOISE_DEFAULTS, Tracking, TrackingSource
from varroom.model.situation import Lineup, Position


class KickResult(Enum):
    """What became of the kick (shared/spec/penalty.md)."""

    GOAL = "goal"
    SAVED = "saved"  # the goalkeeper stopped it, in play or out
    MISSED = "missed"  # wide or over
    WOODWORK = "woodwork"  # off a post or the crossbar and not in
    IN_PLAY = "in_play"  # another outcome, e.g. a rebound played by someone

    @property
    def scored(self) -> bool:
        return self is KickResult.GOAL


class PenaltyCall(Enum):
    """The on-field call a penalty kick checks (`on_field.decision`)."""

    GOAL = "goal"
    NO_GOAL = "no_goal"
    RETAKE = "retake"
    INDIRECT_FREE_KICK = "indirect_free_kick"


class DoubleTouch(Enum):
    """The kicker touched the ball again before another player (Law 14.1)."""

    DELIBERATE = "deliberate"
    ACCIDENTAL = "accidental"  # both feet at once, or off the standing leg (IFAB, July 2025)


@dataclass(frozen=True, slots=True)
class PenaltyFacts:
    """What tracking cannot see, as a reviewer states it."""

    feint_after_run_up: bool = False
    double_touch: DoubleTouch | None = None
    keeper_touching_frame: bool = False
    keeper_facing_kicker: bool = True
    clearly_affected_kicker: bool = False  # a defending offence clearly affected the kicker
    clearly_affected_keeper: bool = False  # an attacking encroachment clearly affected him
    encroacher_involved: frozenset[str] = frozenset()  # encroached, then played or challenged
    keeper_warned_before: bool = False  # already warned for a penalty offence in this match
    shootout: bool = False  # kicks from the penalty mark (Law 10)


@dataclass(frozen=True, slots=True)
class PenaltyKick(Lineup):
    """One kick from the penalty mark, as it stood when the ball was kicked."""

    t_s: float
    kicker: str
    identified_kicker: str
    ball_m: tuple[float, float, float]
    positions: Mapping[str, Position]
    result: KickResult
    ball_after_m: tuple[float, float] | None = None
    facts: PenaltyFacts = PenaltyFacts()
    line_width_m: float = 0.12
    on_field_decision: str | None = None
    meta: Mapping[str, object] = field(default_factory=dict)
    tracking: Tracking = Tracking(
        TrackingSource.CENTROID_OPTICAL, NOISE_DEFAULTS[TrackingSource.CENTROID_OPTICAL]
    )

    @property
    def goalkeeper(self) -> str | None:
        """The defending goalkeeper on the pitch, if the file names one."""
        return next(
            (
                pid
                for pid, p in self.players.items()
                if p.goalkeeper and p.team != self.attacking_team and pid in self.positions
            ),
            None,
        )

    @property
    def goal_line_x_m(self) -> float:
        """The outer edge of the goal line the kick is taken towards."""
        return self.attack_direction.sign * self.pitch.half_length_m

    @property
    def mark_m(self) -> tuple[float, float]:
        return (self.attack_direction.sign * (self.pitch.half_length_m - PENALTY_MARK_M), 0.0)


class GoalLineWidth(Enum):
    """Where the goal line's markings lie for the goalkeeper (open point: Law 1 puts lines
    inside the areas they bound, so the goal line lies inside the field of play)."""

    INSIDE_FIELD = "inside_field"  # the front edge is line_width in front of x = length/2
    ZERO = "zero"  # the line is taken as x = length/2 itself, markings ignored


class InLineWith(Enum):
    """What 'in line with the goal line' means for a foot off the ground (open point)."""

    ABOVE = "above"  # a raised foot above the line counts (22/23 wording: touching or in line)
    GROUNDED_ONLY = "grounded_only"  # only a foot on the ground counts


class EncroachPoint(Enum):
    """Which points of another player are judged against the 9.15 m, the mark and the area."""

    FEET = "feet"  # the feet (their parts where given, else the tracked point): where he stands
    ANY_PART = "any_part"  # any part of the body, arms included, and the tracked point


class EncroachmentRule(Enum):
    """When an encroachment changes the outcome (Law 14.2)."""

    IMPACT = "impact"  # 24/25: only if it clearly affected the kick or the encroacher played on
    EVERY = "every"  # before 24/25: every encroachment counts


@dataclass(frozen=True, slots=True)
class PenaltySettings:
    goal_line_width: GoalLineWidth = GoalLineWidth.INSIDE_FIELD
    in_line_with: InLineWith = InLineWith.ABOVE
    grounded_height_m: float = 0.03  # a foot part lower than this is on the ground
    encroach_point: EncroachPoint = EncroachPoint.FEET
    encroachment_rule: EncroachmentRule = EncroachmentRule.IMPACT
    mark_distance_m: float = DISTANCE_M  # from the centre of the mark
    ball_radius_m: float = (
        BALL_RADIUS_M  # part of the ball must touch or overhang the mark's centre
    )
    # Kicks from the penalty mark (Law 10.3): the kicker's goalkeeper stands on the goal line
    # where it meets the penalty-area line. The Law names a point; he is in his place within
    # this distance of it (both feet on it, a lean).
    kickers_keeper_place_m: float = 1.0

    def to_dict(self) -> dict[str, object]:
        return {
            name: (value.value if isinstance(value, Enum) else value)
            for name, value in ((n, getattr(self, n)) for n in self.__slots__)
        }
