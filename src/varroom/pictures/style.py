"""The look every picture shares: a dark broadcast palette (the same hues as the 2D picture in
`varroom.render`) and the typefaces.

Colours are repeated here rather than imported so that the pictures keep working while the 2D
picture's module changes.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from matplotlib.font_manager import FontProperties

BACKGROUND = "#0b1118"
PANEL = "#141e29"
PANEL_EDGE = "#243345"
PITCH = "#1d3a2a"
STRIPE = "#214330"
PITCH_LINES = "#9db5a8"
TEXT = "#f1f5f9"
MUTED = "#94a3b8"
FAINT = "#475569"
ATTACKERS = "#3b82f6"
DEFENDERS = "#fbbf24"
GOALKEEPER_ATTACKING = "#93c5fd"
GOALKEEPER_DEFENDING = "#fde68a"
LINE = "#ffffff"
OFFSIDE_RED = "#ff4d4f"
ONSIDE_GREEN = "#4ade80"
AMBER = "#f59e0b"
BALL = "#ffffff"

_NARROW_BOLD = (
    "/usr/share/fonts/truetype/liberation/LiberationSansNarrow-Bold.ttf",
    "/usr/share/fonts/truetype/dejavu/DejaVuSansCondensed-Bold.ttf",
)


@cache
def _narrow_bold_file() -> str | None:
    for path in _NARROW_BOLD:
        if Path(path).is_file():
            return path
    return None


def headline_font(size: float = 12.0) -> FontProperties:
    """A narrow bold face for the big words, as stadium screens use; DejaVu Sans Bold (always
    there with matplotlib) when no narrow face is installed. No global font registration."""
    from matplotlib.font_manager import FontProperties

    path = _narrow_bold_file()
    if path is not None:
        return FontProperties(fname=path, size=size)
    return FontProperties(family="DejaVu Sans", weight="bold", size=size)


def hex_rgb(colour: str) -> tuple[int, int, int]:
    colour = colour.lstrip("#")
    return int(colour[0:2], 16), int(colour[2:4], 16), int(colour[4:6], 16)
