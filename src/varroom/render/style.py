"""The look of the 2D picture: its size, where each part of it goes (figure fractions), the
colours, and how much of the pitch the main view shows around the action."""

from __future__ import annotations

from matplotlib import patheffects

from varroom.engine.verdict import Status

WIDTH_PX, HEIGHT_PX, DPI = 1600, 1000, 100

# Layout, in figure fractions: banner on top, the zoomed pitch left, a column on the right.
BANNER_RECT = (0.0, 0.865, 1.0, 0.135)
MAIN_RECT = (0.012, 0.02, 0.706, 0.835)
COLUMN_LEFT, COLUMN_WIDTH = 0.732, 0.256
MINIMAP_RECT = (COLUMN_LEFT, 0.575, COLUMN_WIDTH, 0.27)
CLOSEUP_RECT = (COLUMN_LEFT + 0.012, 0.318, COLUMN_WIDTH - 0.024, 0.19)

BACKGROUND = "#0f1720"
PANEL = "#17212b"
PITCH_COLOUR = "#1d3a2a"
STRIPE_COLOUR = "#20402e"
PITCH_LINES = "#8fa99b"
TEXT = "#f1f5f9"
MUTED = "#94a3b8"
ATTACKERS = "#3b82f6"
DEFENDERS = "#fbbf24"
LINE_COLOUR = "#ffffff"
OFFSIDE_RED = "#ff4d4f"
ONSIDE_GREEN = "#4ade80"
AMBER = "#f59e0b"
STATUS_COLOUR = {
    Status.OFFENCE: OFFSIDE_RED,
    Status.NO_OFFENCE: ONSIDE_GREEN,
    Status.UNDECIDABLE: AMBER,
}

PAD_M = 5.0  # margin around the action
MIN_SPAN_M = (34.0, 22.0)  # never zoom closer than this (x, y)
OUTSIDE_M = 4.0  # how far beyond the touchlines and goal lines the view may go
NEAR_GOAL_M = 30.0  # within this of the goal line attacked, show the whole penalty area
PENALTY_AREA_M = (16.5, 40.32)

STROKE = [patheffects.withStroke(linewidth=3, foreground="#08110c")]


def margin_colour(margin_m: float | None) -> str:
    if margin_m is None:
        return AMBER
    return OFFSIDE_RED if margin_m > 0 else ONSIDE_GREEN
