"""The pitch markings as polylines in situation metres (origin at the centre spot, x along the
pitch, z = 0 on the ground), shared by the top-down views, the 3D scene and the broadcast
projection, so that every picture draws the same pitch."""

from __future__ import annotations

import math

import numpy as np
import numpy.typing as npt

from varroom.model.situation import Pitch

Floats = npt.NDArray[np.float64]

PENALTY_AREA = (16.5, 40.32)  # depth, width
GOAL_AREA = (5.5, 18.32)
PENALTY_SPOT = 11.0
CIRCLE_RADIUS = 9.15
GOAL_WIDTH = 7.32
GOAL_HEIGHT = 2.44
GOAL_DEPTH = 2.0


def _arc(cx: float, cy: float, r: float, start: float, end: float, step_deg: float) -> Floats:
    count = max(2, math.ceil(abs(end - start) / math.radians(step_deg)) + 1)
    angles = np.linspace(start, end, count)
    return np.column_stack([cx + r * np.cos(angles), cy + r * np.sin(angles)])


def pitch_lines(pitch: Pitch, step_deg: float = 4.0) -> list[Floats]:
    """Every marking as an (N, 2) polyline: boundary, halfway line, centre circle and spot,
    both penalty areas, goal areas, penalty spots (tiny crosses), penalty arcs and the goals."""
    hl, hw = pitch.half_length_m, pitch.half_width_m
    lines: list[Floats] = [
        np.array([[-hl, -hw], [hl, -hw], [hl, hw], [-hl, hw], [-hl, -hw]]),
        np.array([[0.0, -hw], [0.0, hw]]),
        _arc(0.0, 0.0, CIRCLE_RADIUS, 0.0, 2 * math.pi, step_deg),
    ]
    spot = 0.11
    lines.append(np.array([[-spot, 0.0], [spot, 0.0]]))
    for sign in (-1.0, 1.0):
        goal_x = sign * hl
        for depth, width in (PENALTY_AREA, GOAL_AREA):
            inner = goal_x - sign * depth
            half = min(width / 2, hw)
            lines.append(np.array([[goal_x, -half], [inner, -half], [inner, half], [goal_x, half]]))
        spot_x = goal_x - sign * PENALTY_SPOT
        lines.append(np.array([[spot_x - spot, 0.0], [spot_x + spot, 0.0]]))
        # The arc: the part of the circle round the spot outside the penalty area.
        edge = PENALTY_AREA[0] - PENALTY_SPOT
        if edge < CIRCLE_RADIUS:
            half_angle = math.acos(edge / CIRCLE_RADIUS)
            towards = math.pi if sign > 0 else 0.0  # away from the goal line
            lines.append(
                _arc(
                    spot_x, 0.0, CIRCLE_RADIUS, towards - half_angle, towards + half_angle, step_deg
                )
            )
        post = GOAL_WIDTH / 2
        back = goal_x + sign * GOAL_DEPTH
        lines.append(np.array([[goal_x, -post], [back, -post], [back, post], [goal_x, post]]))
    return lines


def clip_polyline_box(points: Floats, box: tuple[float, float, float, float]) -> list[Floats]:
    """The pieces of a 2D polyline inside an axis-aligned box (Liang-Barsky per segment)."""
    x0, y0, x1, y1 = box
    pieces: list[list[tuple[float, float]]] = []
    current: list[tuple[float, float]] = []
    for (ax, ay), (bx, by) in zip(points[:-1], points[1:], strict=True):
        dx, dy = bx - ax, by - ay
        lo, hi = 0.0, 1.0
        inside = True
        for p, q in ((-dx, ax - x0), (dx, x1 - ax), (-dy, ay - y0), (dy, y1 - ay)):
            if p == 0:
                if q < 0:
                    inside = False
                    break
                continue
            r = q / p
            if p < 0:
                lo = max(lo, r)
            else:
                hi = min(hi, r)
        if not inside or lo > hi:
            if current:
                pieces.append(current)
                current = []
            continue
        start = (ax + lo * dx, ay + lo * dy)
        end = (ax + hi * dx, ay + hi * dy)
        if not current:
            current = [start]
        elif current[-1] != start:
            pieces.append(current)
            current = [start]
        current.append(end)
        if hi < 1.0:
            pieces.append(current)
            current = []
    if current:
        pieces.append(current)
    return [np.array(piece) for piece in pieces if len(piece) >= 2]
