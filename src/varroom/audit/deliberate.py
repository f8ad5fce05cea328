"""Deliberate play or deflection, estimated from the ball's flight (Law 11.2, IFAB indicators).

With no event data to say how a touch was made, the IFAB's signs that a player was in
control of the ball (laws.md, 'deliberate play') are read off the tracking, each as a score
from 0 (looks like a deflection) to 1 (looks deliberate):

- the ball was not moving quickly: its incoming speed;
- the player had time to coordinate his body movement: the time since the ball was last
  played;
- the ball came from distance, so he had a clear view of it: how far it travelled to him;
- he got more than limited contact: the ball was stopped (controlled), kicked on faster
  than it came, or sent clearly elsewhere, not merely glanced on its way (the change of
  direction);
- a ball on the ground is easier to play than one in the air: its height.

The estimate is the mean of the scores that can be computed (an unknown height or a first
touch with no earlier one leaves its score out). Equal weights: nothing measured says one
sign counts more than another. The ramps' end points are round figures of the game
(a 25 m/s ball is a hard shot, 0.3 s is a reflex), not fitted to data.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from varroom.model.measures import GOAL_HALF_WIDTH_M

Floats = npt.NDArray[np.float64]
Bools = npt.NDArray[np.bool_]

# Each score rises linearly from 0 at the first figure to 1 at the second.
FAST_BALL_MPS, SLOW_BALL_MPS = 25.0, 10.0
REFLEX_S, TIME_TO_ADJUST_S = 0.3, 1.0
CLOSE_RANGE_M, FROM_DISTANCE_M = 2.0, 12.0
GLANCE_DEG, REDIRECT_DEG = 10.0, 45.0
HEAD_HEIGHT_M, GROUND_HEIGHT_M = 2.0, 0.5
# A ball leaving with under half its incoming speed was stopped: controlled, whatever its
# turn; one leaving faster than it came was kicked: a glance takes speed off, never adds it.
STOPPED_FRACTION, KICKED_FRACTION = 0.5, 1.2
# Below this incoming speed the ball was nearly still: no change of direction to speak of.
MIN_INCOMING_MPS = 1.0
# A ball in the air is harder to play, not a sign of a deflection by itself: it halves the score.
AIR_SCORE_FLOOR = 0.5

# Law 11 'save': a ball going into or very close to the goal.
NEAR_GOAL_M = 1.0
SHOT_MIN_MPS = 15.0  # a shot, not a pass rolling towards the goal
SAVE_ZONE_M = 20.0  # a save is made this close to the goal line or closer


@dataclass(frozen=True, slots=True)
class Flight:
    """The ball around N touches, as columns (NaN: not known)."""

    incoming_mps: Floats  # (N, 2) velocity before the touch
    outgoing_mps: Floats  # (N, 2) velocity after it
    react_s: Floats  # (N,) time since the ball was last played
    travelled_m: Floats  # (N,) distance from where it was last played
    height_m: Floats  # (N,) the ball's height at the touch


def _ramp(value: Floats, zero_at: float, one_at: float) -> Floats:
    return np.clip((value - zero_at) / (one_at - zero_at), 0.0, 1.0)


def indicator_scores(flight: Flight) -> Floats:
    """(N, 5) scores, 1 = looks deliberate; NaN where the data cannot tell."""
    speed_in = np.hypot(*flight.incoming_mps.T)
    speed_out = np.hypot(*flight.outgoing_mps.T)
    moving = speed_in >= MIN_INCOMING_MPS
    with np.errstate(invalid="ignore", divide="ignore"):
        cos_turn = np.einsum("ij,ij->i", flight.incoming_mps, flight.outgoing_mps) / (
            speed_in * speed_out
        )
        kept = speed_out / speed_in
    turn_deg = np.degrees(np.arccos(np.clip(cos_turn, -1.0, 1.0)))
    controlled = (kept < STOPPED_FRACTION) | (kept > KICKED_FRACTION)
    contact = np.where(controlled, 1.0, _ramp(turn_deg, GLANCE_DEG, REDIRECT_DEG))
    return np.stack(
        [
            _ramp(speed_in, FAST_BALL_MPS, SLOW_BALL_MPS),
            _ramp(flight.react_s, REFLEX_S, TIME_TO_ADJUST_S),
            _ramp(flight.travelled_m, CLOSE_RANGE_M, FROM_DISTANCE_M),
            np.where(moving, contact, np.nan),
            AIR_SCORE_FLOOR
            + (1 - AIR_SCORE_FLOOR) * _ramp(flight.height_m, HEAD_HEIGHT_M, GROUND_HEIGHT_M),
        ],
        axis=1,
    )


def deliberate_probability(flight: Flight) -> Floats:
    """(N,) how likely each touch was a deliberate play, from the indicators that are known."""
    scores = indicator_scores(flight)
    known = ~np.isnan(scores)
    total = np.where(known, scores, 0.0).sum(axis=1)
    count = known.sum(axis=1)
    # With nothing known the touch is a coin toss, not a deliberate play by default.
    likelihood: Floats = np.divide(total, count, out=np.full(len(total), 0.5), where=count > 0)
    return likelihood


def heading_into_goal(
    ball_xy_m: Floats, velocity_mps: Floats, goal_x_m: Floats
) -> tuple[Bools, Floats]:
    """Whether a ball is going into or very close to the goal at `goal_x_m` (Law 11 'save'),
    and how surely: 1 aimed inside the posts, falling to 0.5 at the edge of 'very close'."""
    to_line = goal_x_m - ball_xy_m[:, 0]
    with np.errstate(invalid="ignore", divide="ignore"):
        time_s = to_line / velocity_mps[:, 0]
        crossing = np.abs(ball_xy_m[:, 1] + velocity_mps[:, 1] * time_s)
    aimed = (
        (time_s > 0)
        & (np.abs(to_line) <= SAVE_ZONE_M)
        & (np.hypot(*velocity_mps.T) >= SHOT_MIN_MPS)
        & (crossing <= GOAL_HALF_WIDTH_M + NEAR_GOAL_M)
    )
    sureness = 1.0 - 0.5 * _ramp(crossing, GOAL_HALF_WIDTH_M, GOAL_HALF_WIDTH_M + NEAR_GOAL_M)
    return aimed, np.where(aimed, sureness, 0.0)
