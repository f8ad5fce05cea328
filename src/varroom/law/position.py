"""Law 11.1, offside position: vectorised over players (and frames, with leading axes)."""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from varroom.model.settings import BallPoint, BodyReference, LawSettings
from varroom.model.situation import Direction, Part, Position

Floats = npt.NDArray[np.float64]


def depth_m(x_m: float | Floats, direction: Direction) -> float | Floats:
    """How far along the attack a point lies: larger is nearer the goal line attacked."""
    return direction.sign * x_m


def nearest_counting_part(
    position: Position, direction: Direction, settings: LawSettings
) -> tuple[float, Part | None]:
    """Law 11.1: the point of head, body or feet nearest the goal line; hands and arms never count.

    The tracked point is a point of the body too, so it always takes part. Returns the depth
    and the part that set it (None: the tracked point).
    """
    best, best_part = depth_m(position.x_m, direction), None
    if position.parts and settings.body_reference is BodyReference.COUNTING_PARTS:
        for part in position.parts:
            depth = depth_m(part.x_m, direction)
            if part.part.counts_for_offside and depth > best:
                best, best_part = depth, part
    return float(best), best_part


def rearmost_counting_part_m(
    position: Position, direction: Direction, settings: LawSettings
) -> float:
    """The counting point farthest from the goal line: 'daylight' needs all of the body past."""
    depths = [float(depth_m(position.x_m, direction))]
    if position.parts and settings.body_reference is BodyReference.COUNTING_PARTS:
        depths += [
            float(depth_m(p.x_m, direction)) for p in position.parts if p.part.counts_for_offside
        ]
    return min(depths)


def ball_depth_m(
    ball_x_m: float | Floats, direction: Direction, settings: LawSettings
) -> float | Floats:
    """Law 11.1 'nearer than the ball': the point of the ball chosen by `settings.ball_point`."""
    edge = settings.ball_radius_m if settings.ball_point is BallPoint.NEAREST_EDGE else 0.0
    return depth_m(ball_x_m, direction) + edge


def opponents_half_starts_m(settings: LawSettings) -> float:
    """Law 11.1: the halfway line is not the opponents' half, so it starts past the line's far edge."""
    return settings.halfway_line_width_m / 2


def second_last_opponent(defender_depth_m: Floats) -> npt.NDArray[np.intp]:
    """Law 11.1: the second-last opponent, of any role (the goalkeeper is not special).

    `defender_depth_m` is (..., D) with NaN for an opponent not on the pitch. Returns the index
    of the second deepest along the last axis, or -1 where fewer than two opponents are on it.
    """
    depths = np.where(np.isnan(defender_depth_m), -np.inf, defender_depth_m)
    if depths.shape[-1] < 2:
        return np.full(depths.shape[:-1], -1, dtype=np.intp)
    # The second largest by partition (a full sort costs 451 broadcast tracks dear), then its
    # index as a stable sort would give it: the first opponent at that depth, or the second
    # when two or more share the deepest.
    value = -np.partition(-depths, 1, axis=-1)[..., 1:2]
    at_value = depths == value
    wanted = np.where(np.any(depths > value, axis=-1, keepdims=True), 1, 2)
    second = np.argmax(at_value & (np.cumsum(at_value, axis=-1) == wanted), axis=-1)
    return np.where(value[..., 0] > -np.inf, second, -1)


def offside_line_depth_m(
    ball_depth: float | Floats, second_last_depth: float | Floats, settings: LawSettings
) -> Floats:
    """Law 11.1: a player must be nearer the goal line than both the ball and the second-last
    opponent, and in the opponents' half: the line is the deepest of the three."""
    return np.maximum(np.maximum(ball_depth, second_last_depth), opponents_half_starts_m(settings))


def offside_margin_m(attacker_depth: float | Floats, line_depth: float | Floats) -> Floats:
    """Law 11.1: how far the attacker's nearest counting part is past the line (negative: onside)."""
    return np.subtract(attacker_depth, line_depth)


def offside_position(margin_m: float | Floats) -> npt.NDArray[np.bool_]:
    """Law 11.1: in an offside position only when strictly past the line; level is onside."""
    return np.greater(margin_m, 0.0)
