"""Situation metres (origin at the centre spot) to mplsoccer's custom-pitch coordinates (origin
at the bottom-left corner), and boxes of the pitch in situation metres."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from matplotlib.axes import Axes
from mplsoccer import Pitch

from varroom.model.situation import Situation
from varroom.render.style import PITCH_COLOUR, PITCH_LINES


@dataclass(frozen=True, slots=True)
class PitchFrame:
    """Situation metres (centre origin) to mplsoccer custom-pitch coordinates (corner origin)."""

    length_m: float
    width_m: float

    def plot(self, x_m: float, y_m: float) -> tuple[float, float]:
        return x_m + self.length_m / 2, y_m + self.width_m / 2

    def metres(self, px: float, py: float) -> tuple[float, float]:
        return px - self.length_m / 2, py - self.width_m / 2

    def px(self, x_m: float) -> float:
        return x_m + self.length_m / 2

    def py(self, y_m: float) -> float:
        return y_m + self.width_m / 2

    def draw_pitch(self, ax: Axes, **options: Any) -> None:
        """The mplsoccer custom pitch these coordinates are for, drawn on `ax` (`options`:
        its line width, stripes, padding)."""
        pitch = Pitch(
            pitch_type="custom",
            pitch_length=self.length_m,
            pitch_width=self.width_m,
            pitch_color=PITCH_COLOUR,
            line_color=PITCH_LINES,
            goal_type="box",
            line_zorder=1,
            **options,
        )
        pitch.draw(ax=ax)


def frame_of(situation: Situation) -> PitchFrame:
    return PitchFrame(situation.pitch.length_m, situation.pitch.width_m)


Box = tuple[float, float, float, float]  # x0, y0, x1, y1 in situation metres


def grow(lo: float, hi: float, span: float, floor: float, ceiling: float) -> tuple[float, float]:
    """Widen [lo, hi] about its centre to at least `span`, shifted to stay in [floor, ceiling]."""
    if hi - lo >= span:
        return lo, hi
    middle = (lo + hi) / 2
    lo, hi = middle - span / 2, middle + span / 2
    if hi - lo >= ceiling - floor:
        middle = (floor + ceiling) / 2
        return middle - span / 2, middle + span / 2
    if lo < floor:
        lo, hi = floor, floor + span
    elif hi > ceiling:
        lo, hi = ceiling - span, ceiling
    return lo, hi
