"""Laws 9.1 and 10.1, the ball over a line, as pure functions vectorised over samples.

A line's width lies inside the field (Law 1: lines belong to the areas they bound), so a line's
outer edge is the boundary: x = +-length/2 for the goal lines, y = +-width/2 for the touchlines.
Only the coordinate across the line matters, on the ground or in the air: the boundary is the
vertical plane through the outer edge.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from varroom.model.ball_line import Goal, Line
from varroom.model.situation import Pitch

Floats = npt.NDArray[np.float64]


def outer_edge_m(line: Line, pitch: Pitch) -> float:
    """Law 1, Law 9.1: how far from the centre the line's outer edge (its vertical plane) lies."""
    return pitch.half_length_m if line.is_goal_line else pitch.half_width_m


def past_line_m(
    centre_m: float | Floats, line: Line, pitch: Pitch, ball_radius_m: float
) -> float | Floats:
    """Law 9.1: how far the ball's nearest point is past the line's outer edge.

    `centre_m` is the ball centre's coordinate across the line (x for a goal line, y for a
    touchline). Positive: the whole ball is over, by that much; zero: it touches the edge;
    negative: part of it is still over or inside the line, by that much.
    """
    return line.sign * centre_m - outer_edge_m(line, pitch) - ball_radius_m


def wholly_over(past_m: float | Floats) -> npt.NDArray[np.bool_]:
    """Law 9.1: out only when the whole ball has passed over; a ball touching the line is in."""
    return np.greater(past_m, 0.0)


def in_goal_mouth(
    y_m: float | Floats, z_m: float | Floats, goal: Goal, ball_radius_m: float
) -> npt.NDArray[np.bool_]:
    """Law 10.1: 'between the goalposts and under the crossbar', for the whole ball.

    The whole ball lies between the inside edges of the posts and below the crossbar's underside.
    A ball partly outside that opening as it crosses would be passing through the frame, so the
    tracking puts it there only by error; it is then not taken as a goal.
    """
    inside = np.abs(y_m) + ball_radius_m <= goal.width_m / 2
    return np.logical_and(inside, np.add(z_m, ball_radius_m) <= goal.height_m)


def is_goal(line: Line, over: bool, in_mouth: bool) -> bool:
    """Law 10.1: a goal is the whole ball over a goal line, between the posts, under the bar.

    Whether the scoring team committed an offence first is a separate question (Law 10.1,
    Law 11): a ball line judges the ball only.
    """
    return over and line.is_goal_line and in_mouth
