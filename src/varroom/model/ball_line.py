"""A ball line: the ball's flight near a boundary line, in frozen domain types (Laws 9 and 10).

Nothing here reads files; `varroom.formats.ball_line_json` turns JSON into these types.
Coordinates are metres from the centre spot, x along the pitch, z up, as for situations.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import Enum

import numpy as np
import numpy.typing as npt

from varroom.model.measures import BALL_RADIUS_M, GOAL_HEIGHT_M, GOAL_WIDTH_M
from varroom.model.situation import Pitch

Floats = npt.NDArray[np.float64]


class Line(Enum):
    """A boundary line of the field of play, named by the side of the pitch it bounds."""

    GOAL_LINE_PLUS_X = "goal_line_+x"
    GOAL_LINE_MINUS_X = "goal_line_-x"
    TOUCHLINE_PLUS_Y = "touchline_+y"
    TOUCHLINE_MINUS_Y = "touchline_-y"

    @property
    def axis(self) -> int:
        """The coordinate the line is crossed along: 0 (x) for goal lines, 1 (y) for touchlines."""
        return 0 if self.is_goal_line else 1

    @property
    def sign(self) -> float:
        """+1 when leaving the field over this line means a growing coordinate."""
        return 1.0 if self.value.endswith("+x") or self.value.endswith("+y") else -1.0

    @property
    def is_goal_line(self) -> bool:
        return self in (Line.GOAL_LINE_PLUS_X, Line.GOAL_LINE_MINUS_X)

    @property
    def words(self) -> str:
        """The line as the reason names it: 'the goal line at +x'."""
        kind = "goal line" if self.is_goal_line else "touchline"
        return f"the {kind} at {self.value.rsplit('_', 1)[1]}"


class BallLineDecision(Enum):
    """What a ball line decides (shared/spec/ball-line.md)."""

    GOAL = "goal"  # Law 10.1: wholly over the goal line, between the posts, under the crossbar
    OUT_OF_PLAY = "out_of_play"  # Law 9.1: wholly over a goal line elsewhere, or a touchline
    IN_PLAY = "in_play"  # never wholly over any line


class BallLineCall(Enum):
    """The on-field call a ball line checks (`on_field.decision`); `goal`, `out_of_play` and
    `out` say the ball was wholly over."""

    GOAL = "goal"
    NO_GOAL = "no_goal"
    OUT_OF_PLAY = "out_of_play"
    OUT = "out"
    IN_PLAY = "in_play"


class BallTrackingSource(Enum):
    """Optical ball tracking, by sampling rate; each has a default noise (docs/ball-line.md)."""

    OPTICAL_25HZ = "optical_25hz"
    OPTICAL_50HZ = "optical_50hz"
    OPTICAL_500HZ = "optical_500hz"

    @property
    def rate_hz(self) -> float:
        return float(self.value.removeprefix("optical_").removesuffix("hz"))

    @staticmethod
    def nearest(rate_hz: float) -> BallTrackingSource:
        """The source whose rate is nearest a track's own (on a log scale: 25 and 50 are close)."""
        return min(
            BallTrackingSource, key=lambda source: abs(np.log(source.rate_hz / max(rate_hz, 1e-9)))
        )


# Standard deviation of one tracked position of the ball's centre, per axis. Assumed working
# figures, not measurements of any one system (docs/ball-line.md says how they were chosen); a
# file that knows its system's figure gives it as `noise.ball_sd_m`.
BALL_SD_DEFAULTS_M: dict[BallTrackingSource, float] = {
    BallTrackingSource.OPTICAL_25HZ: 0.030,
    BallTrackingSource.OPTICAL_50HZ: 0.015,
    BallTrackingSource.OPTICAL_500HZ: 0.005,
}


@dataclass(frozen=True, slots=True)
class BallNoise:
    source: BallTrackingSource
    ball_sd_m: float

    @classmethod
    def of_source(cls, source: BallTrackingSource) -> BallNoise:
        """The error a source is measured to have, where a file or a match does not say."""
        return cls(source, BALL_SD_DEFAULTS_M[source])


@dataclass(frozen=True, slots=True)
class Goal:
    """The goal frame: inside edges of the posts at y = +-width/2, crossbar underside at height."""

    width_m: float = GOAL_WIDTH_M
    height_m: float = GOAL_HEIGHT_M
    post_width_m: float = 0.12


class ContactKind(Enum):
    """What the ball met, where its path turns (the ball-line format's `contacts`)."""

    BOUNCE = "bounce"  # the ground
    POST = "post"
    BAR = "bar"
    PLAYER = "player"
    UNNAMED = "unnamed"  # the track shows a turn nobody named (found, never given)


@dataclass(frozen=True, slots=True)
class Contact:
    """A moment the ball's velocity jumped: given by the file, or found in the track."""

    t_s: float
    kind: ContactKind
    given: bool = True


@dataclass(frozen=True, slots=True, eq=False)
class BallTrack:
    """Samples of the ball's centre: `t_s` (N,) strictly increasing, `xyz_m` (N, 3)."""

    t_s: Floats
    xyz_m: Floats

    def __len__(self) -> int:
        return int(self.t_s.shape[0])


@dataclass(frozen=True, slots=True, eq=False)
class BallLineCase:
    """One ball-line file: the track, the pitch and goal it is judged against, and the noise."""

    track: BallTrack
    pitch: Pitch = Pitch()
    goal: Goal = Goal()
    ball_radius_m: float = BALL_RADIUS_M
    noise: BallNoise = BallNoise.of_source(BallTrackingSource.OPTICAL_50HZ)
    on_field_decision: str | None = None
    meta: Mapping[str, object] = field(default_factory=dict)
    contacts: tuple[Contact, ...] = ()  # as the file gives them, in time order

    @property
    def on_field_over(self) -> bool | None:
        """Whether the on-field decision was that the ball had wholly crossed (None: no call)."""
        if self.on_field_decision is None:
            return None
        return self.on_field_decision in ("goal", "out_of_play", "out")
