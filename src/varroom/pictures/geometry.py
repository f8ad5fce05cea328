"""The pitch markings as polylines in situation metres (origin at the centre spot, x along the
pitch, z = 0 on the ground), shared by the top-down views, the 3D scene and the broadcast
projection, so that every picture draws the same pitch."""

from __future__ import annotations

import math

import numpy as np
import numpy.typing as npt

from varroom.model.measures import (
    DISTANCE_M,
    GOAL_AREA_DEPTH_M,
    GOAL_AREA_HALF_WIDTH_M,
    GOAL_HALF_WIDTH_M,
    PENALTY_AREA_DEPTH_M,
    PENALTY_AREA_HALF_WIDTH_M,
    PENALTY_MARK_M,
)
from varroom.model.situation import Pitch

Floats = npt.NDArray[np.float64]

GOAL_DEPTH = 2.0
SPOT_RADIUS = 0.15  # the centre and penalty spots (Law 1: 0.22 m across)


def _arc(cx: float, cy: float, r: float, start: float, end: float, step_deg: float) -> Floats:
    count = max(2, math.ceil(abs(end - start) / math.radians(step_deg)) + 1)
    angles = np.linspace(start, end, count)
    return np.column_stack([cx + r * np.cos(angles), cy + r * np.sin(angles)])


def pitch_lines(pitch: Pitch, step_deg: float = 4.0) -> list[Floats]:
    """Every marking as an (N, 2) polyline: boundary, halfway line, centre circle and spot,
    both penalty areas, goal areas, penalty spots, penalty arcs and the goals. A spot is a small
    closed ring (a dot at any scale, on the ground in 3D too), not a dash."""
    hl, hw = pitch.half_length_m, pitch.half_width_m
    lines: list[Floats] = [
        np.array([[-hl, -hw], [hl, -hw], [hl, hw], [-hl, hw], [-hl, -hw]]),
        np.array([[0.0, -hw], [0.0, hw]]),
        _arc(0.0, 0.0, DISTANCE_M, 0.0, 2 * math.pi, step_deg),
    ]
    lines.append(_arc(0.0, 0.0, SPOT_RADIUS, 0.0, 2 * math.pi, 30.0))
    for sign in (-1.0, 1.0):
        goal_x = sign * hl
        for depth, half_width in (
            (PENALTY_AREA_DEPTH_M, PENALTY_AREA_HALF_WIDTH_M),
            (GOAL_AREA_DEPTH_M, GOAL_AREA_HALF_WIDTH_M),
        ):
            inner = goal_x - sign * depth
            half = min(half_width, hw)
            lines.append(np.array([[goal_x, -half], [inner, -half], [inner, half], [goal_x, half]]))
        spot_x = goal_x - sign * PENALTY_MARK_M
        lines.append(_arc(spot_x, 0.0, SPOT_RADIUS, 0.0, 2 * math.pi, 30.0))
        # The arc: the part of the circle round the spot outside the penalty area.
        edge = PENALTY_AREA_DEPTH_M - PENALTY_MARK_M
        if edge < DISTANCE_M:
            half_angle = math.acos(edge / DISTANCE_M)
            towards = math.pi if sign > 0 else 0.0  # away from the goal line
            lines.append(
                _arc(spot_x, 0.0, DISTANCE_M, towards - half_angle, towards + half_angle, step_deg)
            )
        post = GOAL_HALF_WIDTH_M
        back = goal_x + sign * GOAL_DEPTH
        lines.append(np.array([[goal_x, -post], [back, -post], [back, post], [goal_x, post]]))
    return lines
