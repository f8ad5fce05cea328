"""The pitch markings of the half attacked towards +x, in metres (Law 1 dimensions on a
105 x 68 m pitch): what landmarks are clicked on, what the suggestion fits, what synthetic
stills draw."""

from __future__ import annotations

import numpy as np

from varroom.model.measures import (
    DISTANCE_M,
    GOAL_AREA_DEPTH_M,
    GOAL_AREA_HALF_WIDTH_M,
    GOAL_HALF_WIDTH_M,
    GOAL_HEIGHT_M,
    PENALTY_AREA_DEPTH_M,
    PENALTY_AREA_HALF_WIDTH_M,
    PENALTY_MARK_M,
)

LENGTH_M, WIDTH_M = 105.0, 68.0
HALF_L, HALF_W = LENGTH_M / 2, WIDTH_M / 2
PENALTY_AREA_X = HALF_L - PENALTY_AREA_DEPTH_M
GOAL_AREA_X = HALF_L - GOAL_AREA_DEPTH_M
SPOT_X = HALF_L - PENALTY_MARK_M
# Where the penalty arc meets the penalty area's front line.
ARC_DY = float(np.sqrt(DISTANCE_M**2 - (PENALTY_AREA_X - SPOT_X) ** 2))

# The straight markings (x0, y0, x1, y1).
SEGMENTS = np.array(
    [
        [0.0, -HALF_W, 0.0, HALF_W],  # halfway line
        [-HALF_L, -HALF_W, HALF_L, -HALF_W],  # touchlines
        [-HALF_L, HALF_W, HALF_L, HALF_W],
        [HALF_L, -HALF_W, HALF_L, HALF_W],  # goal line
        [PENALTY_AREA_X, -PENALTY_AREA_HALF_WIDTH_M, PENALTY_AREA_X, PENALTY_AREA_HALF_WIDTH_M],
        [PENALTY_AREA_X, -PENALTY_AREA_HALF_WIDTH_M, HALF_L, -PENALTY_AREA_HALF_WIDTH_M],
        [PENALTY_AREA_X, PENALTY_AREA_HALF_WIDTH_M, HALF_L, PENALTY_AREA_HALF_WIDTH_M],
        [GOAL_AREA_X, -GOAL_AREA_HALF_WIDTH_M, GOAL_AREA_X, GOAL_AREA_HALF_WIDTH_M],
        [GOAL_AREA_X, -GOAL_AREA_HALF_WIDTH_M, HALF_L, -GOAL_AREA_HALF_WIDTH_M],
        [GOAL_AREA_X, GOAL_AREA_HALF_WIDTH_M, HALF_L, GOAL_AREA_HALF_WIDTH_M],
    ]
)
# The lines x = const and y = const that those markings lie on (for the suggestion's fit).
LINES_X = (0.0, PENALTY_AREA_X, GOAL_AREA_X, HALF_L)
LINES_Y = (
    -HALF_W,
    -PENALTY_AREA_HALF_WIDTH_M,
    -GOAL_AREA_HALF_WIDTH_M,
    GOAL_AREA_HALF_WIDTH_M,
    PENALTY_AREA_HALF_WIDTH_M,
    HALF_W,
)

# Landmarks a reviewer can click: where lines meet, the penalty mark, the goalposts' feet.
GROUND_LANDMARKS = (
    (HALF_L, PENALTY_AREA_HALF_WIDTH_M),
    (HALF_L, -PENALTY_AREA_HALF_WIDTH_M),
    (PENALTY_AREA_X, PENALTY_AREA_HALF_WIDTH_M),
    (PENALTY_AREA_X, -PENALTY_AREA_HALF_WIDTH_M),
    (HALF_L, GOAL_AREA_HALF_WIDTH_M),
    (HALF_L, -GOAL_AREA_HALF_WIDTH_M),
    (GOAL_AREA_X, GOAL_AREA_HALF_WIDTH_M),
    (GOAL_AREA_X, -GOAL_AREA_HALF_WIDTH_M),
    (SPOT_X, 0.0),
    (PENALTY_AREA_X, ARC_DY),
    (PENALTY_AREA_X, -ARC_DY),
    (HALF_L, GOAL_HALF_WIDTH_M),
    (HALF_L, -GOAL_HALF_WIDTH_M),
    (0.0, HALF_W),
    (0.0, -HALF_W),
)
# The goalposts' tops: landmarks off the ground, for a full camera.
RAISED_LANDMARKS = (
    (HALF_L, GOAL_HALF_WIDTH_M, GOAL_HEIGHT_M),
    (HALF_L, -GOAL_HALF_WIDTH_M, GOAL_HEIGHT_M),
)


def marking_points(step_m: float = 0.5) -> np.ndarray:
    """Points every `step_m` along the straight markings and the penalty arc (N x 2)."""
    pieces = []
    for x0, y0, x1, y1 in SEGMENTS:
        n = max(2, int(np.hypot(x1 - x0, y1 - y0) / step_m))
        t = np.linspace(0.0, 1.0, n)
        pieces.append(np.column_stack([x0 + t * (x1 - x0), y0 + t * (y1 - y0)]))
    half_angle = np.arctan2(ARC_DY, PENALTY_AREA_X - SPOT_X)
    angles = np.linspace(np.pi - half_angle, np.pi + half_angle, 40)
    pieces.append(
        np.column_stack([SPOT_X + DISTANCE_M * np.cos(angles), DISTANCE_M * np.sin(angles)])
    )
    out: np.ndarray = np.concatenate(pieces)
    return out
