"""Label placement in display pixels: try a few offsets around a point, keep the first that
covers nothing already placed and stays inside the view (else the one that covers least)."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from matplotlib.axes import Axes
from matplotlib.text import Text
from matplotlib.transforms import Bbox

from varroom.pictures.placement import outside, overlap
from varroom.pictures.typeset import TextStyle, renderer_of


class Placer:
    """Greedy label placement in display pixels: try a few offsets, keep the first that fits."""

    OFFSETS = ((1, 1), (1, -1), (-1, 1), (-1, -1), (0, 1), (0, -1), (1, 0), (-1, 0))

    def __init__(self, ax: Axes) -> None:
        self.ax = ax
        self.taken: list[Bbox] = []  # display pixels
        self.bounds = ax.get_window_extent()
        figure = ax.get_figure()
        assert figure is not None, "the axes are on a figure"
        self.scale = figure.dpi / 72
        self.renderer = renderer_of(figure)
        self.probe = Text(0, 0, "")
        self.probe.set_figure(figure)

    def display(self, xy: tuple[float, float]) -> tuple[float, float]:
        x, y = self.ax.transData.transform(xy)
        return float(x), float(y)

    def block(self, xy: tuple[float, float], radius_px: float) -> None:
        x, y = self.display(xy)
        self.taken.append(
            Bbox.from_extents(x - radius_px, y - radius_px, x + radius_px, y + radius_px)
        )

    def block_metres(self, box: Bbox) -> None:
        """Keep labels off a box of the pitch (in metres)."""
        self.taken.append(self.ax.transData.transform_bbox(box))

    def size(self, text: str, role: TextStyle) -> tuple[float, float]:
        """The text's size in pixels as the renderer lays it out, with its box's pad."""
        probe = self.probe
        probe.set_text(text)
        probe.set_fontsize(role.size)
        probe.set_fontweight(role.weight)
        box = probe.get_window_extent(self.renderer)
        pad = 0.0 if role.box is None else role.box.pad
        margin = 2 * (pad * role.size * self.scale) + 4
        return box.width + margin, box.height + margin

    def inside(self, xy: tuple[float, float]) -> bool:
        x, y = self.display(xy)
        return bool(self.bounds.contains(x, y))

    def place(
        self,
        xy: tuple[float, float],
        text: str,
        role: TextStyle,
        gap_px: float,
        offsets: Sequence[tuple[int, int]] | None = None,
        optional: bool = False,
        **extra: Any,
    ) -> Text | None:
        """The label in the first free spot round `xy`; `extra` adds a gid, arrowprops. With no
        free spot, the one that covers least, or none at all when the label is `optional`."""
        x, y = self.display(xy)
        width, height = self.size(text, role)
        best, best_cost = None, math.inf
        # Farther out only for a label with a leader line to its point.
        gaps = (
            (gap_px, gap_px + 25, gap_px + 55, gap_px + 90) if "arrowprops" in extra else (gap_px,)
        )
        candidates = [(gap, d) for gap in gaps for d in offsets or self.OFFSETS]
        for gap, (dx, dy) in candidates:
            cx = x + dx * (gap + width / 2)
            cy = y + dy * (gap * (0.45 if dx else 1.0) + height / 2)
            box = Bbox.from_extents(
                cx - width / 2, cy - height / 2, cx + width / 2, cy + height / 2
            )
            cost = sum(overlap(box, other) for other in self.taken) + 4 * outside(box, self.bounds)
            if cost < best_cost:
                best, best_cost = (cx - x, cy - y, box), cost
            if cost == 0:
                break
        assert best is not None
        if optional and best_cost > 0:
            return None
        ox, oy, box = best
        self.taken.append(box)
        return self.ax.annotate(
            text,
            xy,
            xytext=(ox, oy),
            textcoords="offset pixels",
            annotation_clip=True,
            **role.but(ha="center", va="center").kwargs(),
            **extra,
        )
