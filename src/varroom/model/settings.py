"""The points Law 11 leaves open, each a named setting with its default.

`docs/settings.md` gives the reasoning behind each default.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from varroom.model.measures import BALL_RADIUS_M


class BallPoint(Enum):
    """Which point of the ball 'nearer than the ball' is measured from (laws.md, open point 1)."""

    CENTRE = "centre"  # also the point on the ground below it: the same x
    NEAREST_EDGE = "nearest_edge"  # the ball's point nearest the goal line attacked


class BodyReference(Enum):
    """Which point of a player sets his position (open point 2)."""

    COUNTING_PARTS = "counting_parts"  # the part nearest the goal line attacked, arms excluded
    TRACKED_POINT = "tracked_point"  # the tracked centroid or feet alone


class OfficialTouch(Enum):
    """A ball off a match official (open point 4: Law 11 against Law 9)."""

    REBOUND = "rebound"  # Law 11.2: in play, an offside player may gain an advantage
    OUT_OF_PLAY = "out_of_play"  # Law 9: a dropped ball ends the phase


class PermittedAbsence(Enum):
    """A player off the field with the referee's permission (open point 8)."""

    IGNORED = "ignored"
    WHERE_STANDING = "where_standing"


class DefenderOffFieldLine(Enum):
    """Where a defender off the field without permission counts (open point 9)."""

    NEAREST_LINE = "nearest_line"  # the goal line or touchline nearest where he stands
    GOAL_LINE = "goal_line"  # always his own goal line


class RestartTouched(Enum):
    """A goal kick, throw-in or corner kick that touches another player, not in a deliberate
    play (a deflection, a save), or rebounds off the woodwork or an official, before a
    team-mate receives it: is it still received 'directly' (Law 11.3, open point 11)?"""

    ENDS_EXEMPTION = "ends_exemption"  # 'directly' means untouched on the way, as in Law 13
    KEEPS_EXEMPTION = "keeps_exemption"  # only a deliberate play ends it, as for a reset


class UnseenGoalkeeper(Enum):
    """Where a goalkeeper out of the data's view is taken to stand (format 1.2: an assumption,
    named in every verdict it settles; docs/uncertainty.md)."""

    ANYWHERE = "anywhere"  # anywhere out of view, up field after a corner too: nothing assumed
    # Deeper than every outfield team-mate in view, as in every frame of two minutes of real
    # optical tracking measured for issue 21 (but not when he is up for a corner).
    DEEPEST = "deepest"
    IN_GOAL_AREA = "in_goal_area"  # in his goal area, out of view

    @property
    def assumption(self) -> str:
        """The assumption in words, as a verdict that rests on it says it."""
        return _ASSUMPTIONS[self]


_ASSUMPTIONS = {
    UnseenGoalkeeper.ANYWHERE: "",
    UnseenGoalkeeper.DEEPEST: "the unseen goalkeeper stood deeper than every outfield team-mate",
    UnseenGoalkeeper.IN_GOAL_AREA: "the unseen goalkeeper stood in his goal area",
}


@dataclass(frozen=True, slots=True)
class LawSettings:
    ball_point: BallPoint = BallPoint.CENTRE
    ball_radius_m: float = BALL_RADIUS_M
    body_reference: BodyReference = BodyReference.COUNTING_PARTS
    # Lines may be up to 12 cm wide (Law 1) and the halfway line is not the opponents' half.
    halfway_line_width_m: float = 0.12
    official_touch: OfficialTouch = OfficialTouch.REBOUND
    permitted_absence: PermittedAbsence = PermittedAbsence.IGNORED
    defender_off_field_line: DefenderOffFieldLine = DefenderOffFieldLine.NEAREST_LINE
    restart_touched: RestartTouched = RestartTouched.ENDS_EXEMPTION
    unseen_goalkeeper: UnseenGoalkeeper = UnseenGoalkeeper.ANYWHERE

    def to_dict(self) -> dict[str, object]:
        return {
            name: (value.value if isinstance(value, Enum) else value)
            for name, value in ((n, getattr(self, n)) for n in self.__slots__)
        }
