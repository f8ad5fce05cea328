"""The top-down picture's size, where each of its parts goes (figure fractions), and how much
of the pitch the main view shows round the action."""

from __future__ import annotations

WIDTH_PX, HEIGHT_PX, DPI = 1600, 1000, 100

# Layout, in figure fractions: banner on top, the zoomed pitch left, a column on the right.
BANNER_RECT = (0.0, 0.865, 1.0, 0.135)
MAIN_RECT = (0.012, 0.02, 0.706, 0.835)
COLUMN_LEFT, COLUMN_WIDTH = 0.732, 0.256
MINIMAP_RECT = (COLUMN_LEFT, 0.575, COLUMN_WIDTH, 0.27)
CLOSEUP_RECT = (COLUMN_LEFT + 0.012, 0.318, COLUMN_WIDTH - 0.024, 0.19)

PAD_M = 5.0  # margin round the action
MIN_SPAN_M = (34.0, 22.0)  # never zoom closer than this (x, y)
