"""Label placement in display pixels: try a few offsets around a point, keep the first that
covers nothing already placed (else the one that covers least)."""

from __future__ import annotations

import math
from collections.abc import Sequence

from matplotlib.axes import Axes
from matplotlib.text import Text


class Placer:
    """Greedy label placement in display pixels: try a few offsets, keep the first that fits."""

    OFFSETS = ((1, 1), (1, -1), (-1, 1), (-1, -1), (0, 1), (0, -1), (1, 0), (-1, 0))

    def __init__(self, ax: Axes) -> None:
        self.ax = ax
        self.taken: list[tuple[float, float, float, float]] = []
        box = ax.get_window_extent()
        self.bounds = (box.x0, box.y0, box.x1, box.y1)
        self.scale = ax.figure.dpi / 72  # type: ignore[union-attr]
        self.renderer = ax.figure.canvas.get_renderer()  # type: ignore[union-attr]
        self.probe = Text(0, 0, "")
        self.probe.set_figure(ax.figure)  # type: ignore[arg-type]

    def display(self, xy: tuple[float, float]) -> tuple[float, float]:
        x, y = self.ax.transData.transform(xy)
        return float(x), float(y)

    def block(self, xy: tuple[float, float], radius_px: float) -> None:
        x, y = self.display(xy)
        self.taken.append((x - radius_px, y - radius_px, x + radius_px, y + radius_px))

    def size(
        self, text: str, fontsize: float, weight: str = "normal", pad: float = 0.0
    ) -> tuple[float, float]:
        """The text's size in pixels as the renderer lays it out, with a box `pad` (in ems)."""
        probe = self.probe
        probe.set_text(text)
        probe.set_fontsize(fontsize)
        probe.set_fontweight(weight)
        box = probe.get_window_extent(self.renderer)
        margin = 2 * (pad * fontsize * self.scale) + 4
        return box.width + margin, box.height + margin

    def inside(self, xy: tuple[float, float]) -> bool:
        x, y = self.display(xy)
        x0, y0, x1, y1 = self.bounds
        return x0 <= x <= x1 and y0 <= y <= y1

    def place(
        self,
        xy: tuple[float, float],
        text: str,
        fontsize: float,
        gap_px: float,
        offsets: Sequence[tuple[int, int]] | None = None,
        pad: float = 0.0,
        **style: object,
    ) -> None:
        x, y = self.display(xy)
        width, height = self.size(text, fontsize, str(style.get("fontweight", "normal")), pad)
        best, best_cost = None, math.inf
        for dx, dy in offsets or self.OFFSETS:
            cx = x + dx * (gap_px + width / 2)
            cy = y + dy * (gap_px * (0.45 if dx else 1.0) + height / 2)
            box = (cx - width / 2, cy - height / 2, cx + width / 2, cy + height / 2)
            cost = sum(overlap(box, other) for other in self.taken) + 4 * self._outside(box)
            if cost < best_cost:
                best, best_cost = (cx - x, cy - y, box), cost
            if cost == 0:
                break
        assert best is not None
        ox, oy, box = best
        self.taken.append(box)
        self.ax.annotate(
            text,
            xy,
            xytext=(ox, oy),
            textcoords="offset pixels",
            ha="center",
            va="center",
            fontsize=fontsize,
            annotation_clip=True,
            **style,  # type: ignore[arg-type]
        )

    def _outside(self, box: tuple[float, float, float, float]) -> float:
        x0, y0, x1, y1 = self.bounds
        full = (box[2] - box[0]) * (box[3] - box[1])
        return full - overlap(box, (x0, y0, x1, y1))


def overlap(a: tuple[float, float, float, float], b: tuple[float, float, float, float]) -> float:
    w = min(a[2], b[2]) - max(a[0], b[0])
    h = min(a[3], b[3]) - max(a[1], b[1])
    return w * h if w > 0 and h > 0 else 0.0
