"""The synthetic ball: legs between touches, drawn onto the frames at once.

A flight is a straight line at constant speed (passes do slow down; a touch is found by the
change of velocity, which a constant speed keeps sharp) with a parabola in height for a
lofted ball. A held ball sits `HELD_OFFSET_M` ahead of the player's feet: a short dribble.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum

import numpy as np
import numpy.typing as npt

from varroom.model.measures import BALL_RADIUS_M

Floats = npt.NDArray[np.float64]

HELD_OFFSET_M = 0.3
_NOWHERE = (float("nan"), float("nan"))


class LegKind(Enum):
    FLIGHT = "flight"
    HELD = "held"
    STILL = "still"  # lying still: a dead ball waiting for the restart
    HIDDEN = "hidden"  # not seen: a dead ball being fetched


_KIND_INDEX = {kind: k for k, kind in enumerate(LegKind)}


@dataclass(frozen=True, slots=True)
class BallLeg:
    """The ball from `start_s` until `end_s`."""

    kind: LegKind
    start_s: float
    end_s: float
    start_m: tuple[float, float] = _NOWHERE  # FLIGHT, STILL
    end_m: tuple[float, float] = _NOWHERE  # FLIGHT
    player: int = -1  # HELD
    offset_m: tuple[float, float] = (0.0, 0.0)  # HELD
    loft_m: float = 0.0  # FLIGHT: the apex above the ground


def render_ball(legs: Sequence[BallLeg], t_s: Floats, players_m: Floats) -> Floats:
    """(T, 3) the ball at every frame; NaN where hidden or outside every leg."""
    ball = np.full((len(t_s), 3), np.nan)
    if not legs:
        return ball
    starts = np.array([leg.start_s for leg in legs])
    ends = np.array([leg.end_s for leg in legs])
    leg = np.clip(np.searchsorted(starts, t_s, side="right") - 1, 0, len(legs) - 1)
    covered = (t_s >= starts[leg]) & (t_s < ends[leg])
    kind = np.array([_KIND_INDEX[one.kind] for one in legs])[leg]
    start_m = np.array([one.start_m for one in legs])[leg]
    end_m = np.array([one.end_m for one in legs])[leg]

    flight = covered & (kind == _KIND_INDEX[LegKind.FLIGHT])
    span = np.maximum(ends[leg] - starts[leg], 1e-9)
    s = np.clip((t_s - starts[leg]) / span, 0.0, 1.0)
    loft = np.array([one.loft_m for one in legs])[leg]
    ball[flight, :2] = (start_m + (end_m - start_m) * s[:, None])[flight]
    ball[flight, 2] = (BALL_RADIUS_M + 4 * loft * s * (1 - s))[flight]

    still = covered & (kind == _KIND_INDEX[LegKind.STILL])
    ball[still, :2] = start_m[still]
    ball[still, 2] = BALL_RADIUS_M

    held = covered & (kind == _KIND_INDEX[LegKind.HELD])
    holder = np.array([one.player for one in legs])[leg]
    offset = np.array([one.offset_m for one in legs])[leg]
    frames = np.flatnonzero(held)
    ball[frames, :2] = players_m[frames, holder[frames]] + offset[frames]
    ball[frames, 2] = BALL_RADIUS_M
    return ball
