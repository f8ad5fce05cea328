"""Label placement in display pixels: try a few offsets around a point, keep the first that
covers nothing already placed and stays inside the view (else the one that covers least)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
from matplotlib.axes import Axes
from matplotlib.text import Text
from matplotlib.transforms import Bbox

from varroom.pictures.placement import overlaps
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
        probe.set_fontproperties(role.font())
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
        # Farther out only for a label with a leader line to its point.
        gaps = (
            (gap_px, gap_px + 25, gap_px + 55, gap_px + 90) if "arrowprops" in extra else (gap_px,)
        )
        centres = [
            (x + dx * (gap + width / 2), y + dy * (gap * (0.45 if dx else 1.0) + height / 2))
            for gap in gaps
            for dx, dy in offsets or self.OFFSETS
        ]
        boxes = [
            (cx - width / 2, cy - height / 2, cx + width / 2, cy + height / 2) for cx, cy in centres
        ]
        # What each spot covers and how much of it sticks out of the view, all spots at once
        # (box by box, the label placement took a fifth of the picture's drawing time); the
        # areas summed in order, so that the costs are the same floats as box by box.
        spots = np.array(boxes)
        area = (spots[:, 2] - spots[:, 0]) * (spots[:, 3] - spots[:, 1])
        out = (area - overlaps(spots, [self.bounds])[:, 0]).tolist()
        costs = [
            sum(areas) + 4 * sticking_out
            for areas, sticking_out in zip(overlaps(spots, self.taken).tolist(), out, strict=True)
        ]
        # The first spot of least cost: the first free one, when one is.
        best = min(range(len(costs)), key=costs.__getitem__)
        if optional and costs[best] > 0:
            return None
        cx, cy = centres[best]
        ox, oy, box = cx - x, cy - y, Bbox.from_extents(*boxes[best])
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
