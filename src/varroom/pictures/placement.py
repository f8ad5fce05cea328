"""Where a label goes: of a few spots round its anchor, the first where its box covers no marker
and no other label and stays inside its frame (else the one that covers least).

Boxes are display pixels (`matplotlib.transforms.Bbox`), measured with the figure's renderer, so
that what is checked is what is drawn.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt
from matplotlib.backend_bases import RendererBase
from matplotlib.text import Annotation, Text
from matplotlib.transforms import Bbox, BboxBase

from varroom.pictures.typeset import HAlign, VAlign

GAP_PX = 2.0  # a label this close to a marker still reads as touching it


@dataclass(frozen=True, slots=True)
class Spot:
    """An offset in points from the label's anchor and how the text hangs from it; `anchor`
    moves the anchor too (in the annotation's own coordinates)."""

    dx_pt: float
    dy_pt: float
    ha: HAlign
    va: VAlign
    anchor: tuple[float, float] | None = None


def around(distance_pt: float) -> tuple[Spot, ...]:
    """Above, below, right and left of the anchor, `distance_pt` away, then the four diagonals,
    then all eight again twice as far."""
    spots: list[Spot] = []
    for d in (distance_pt, 2 * distance_pt):
        e = 0.7 * d
        spots += [
            Spot(0, d, "center", "bottom"),
            Spot(0, -d, "center", "top"),
            Spot(d, 0, "left", "center"),
            Spot(-d, 0, "right", "center"),
            Spot(e, e, "left", "bottom"),
            Spot(-e, e, "right", "bottom"),
            Spot(e, -e, "left", "top"),
            Spot(-e, -e, "right", "top"),
        ]
    return tuple(spots)


def overlap(a: BboxBase, b: BboxBase) -> float:
    """The area two boxes share, in square pixels (0 when they only touch)."""
    w = min(a.x1, b.x1) - max(a.x0, b.x0)
    h = min(a.y1, b.y1) - max(a.y0, b.y0)
    return w * h if w > 0 and h > 0 else 0.0


def overlaps(boxes: npt.ArrayLike, others: Sequence[BboxBase]) -> npt.NDArray[np.float64]:
    """The area each of `boxes` (rows of x0, y0, x1, y1) shares with each of `others`, as
    `overlap` computes it: one row per box, one column per other."""
    a = np.asarray(boxes, dtype=float).reshape(-1, 1, 4)
    b = np.array([other.get_points() for other in others], dtype=float).reshape(1, -1, 4)
    w = np.minimum(a[..., 2], b[..., 2]) - np.maximum(a[..., 0], b[..., 0])
    h = np.minimum(a[..., 3], b[..., 3]) - np.maximum(a[..., 1], b[..., 1])
    return np.where((w > 0) & (h > 0), w * h, 0.0)


def outside(box: BboxBase, frame: BboxBase) -> float:
    """The area of `box` that sticks out of `frame`."""
    return box.width * box.height - overlap(box, frame)


def marker_boxes(points_px: npt.ArrayLike, radius_px: npt.ArrayLike) -> list[Bbox]:
    """The square round each round marker (centre in pixels, radius in pixels)."""
    points = np.asarray(points_px, dtype=float).reshape(-1, 2)
    radius = np.broadcast_to(np.asarray(radius_px, dtype=float), (len(points),))
    return [
        Bbox.from_extents(x - r, y - r, x + r, y + r)
        for (x, y), r in zip(points, radius, strict=True)
        if np.isfinite(x) and np.isfinite(y)
    ]


def cost(box: BboxBase, obstacles: Iterable[BboxBase], frame: BboxBase) -> float:
    grown = box.padded(GAP_PX)
    return sum(overlap(grown, other) for other in obstacles) + 10 * outside(box, frame)


def place(
    label: Text,
    spots: Sequence[Spot],
    obstacles: Sequence[BboxBase],
    renderer: RendererBase,
    frame: BboxBase,
    first: int = 0,
) -> tuple[int, Bbox]:
    """Move `label` (an annotation placed in offset points) to the best of `spots`, trying
    `spots[first]` first (where it stood before, so that it does not jump); which one, and its
    box."""
    best: tuple[float, int, Bbox] | None = None
    order = [first, *(k for k in range(len(spots)) if k != first)]
    for k in order:
        spot = spots[k]
        box = _try(label, spot, renderer)
        score = cost(box, obstacles, frame)
        if best is None or score < best[0]:
            best = (score, k, box)
        if score == 0:
            break
    assert best is not None
    _, k, box = best
    _try(label, spots[k], renderer)
    return k, box


def _try(label: Text, spot: Spot, renderer: RendererBase) -> Bbox:
    if isinstance(label, Annotation):
        label.xyann = (spot.dx_pt, spot.dy_pt)
        if spot.anchor is not None:
            label.xy = spot.anchor
    label.set_horizontalalignment(spot.ha)
    label.set_verticalalignment(spot.va)
    box = label.get_window_extent(renderer)
    patch = label.get_bbox_patch()
    if patch is None:
        return box
    # A label in a box covers the box, not only its letters.
    label.update_bbox_position_size(renderer)
    return Bbox.union([box, patch.get_window_extent(renderer)])
