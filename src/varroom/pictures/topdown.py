"""The one top-down pitch, on a matplotlib Axes in situation metres (origin at the centre
spot), and the one view fitter (`fit_box`): the top-down picture, its close-up and map, the
screen's inset and every frame of the clip draw on it."""

from __future__ import annotations

import math
from collections.abc import Iterable

from matplotlib.axes import Axes
from matplotlib.collections import LineCollection
from matplotlib.patches import PathPatch, Rectangle
from matplotlib.path import Path

from varroom.model.measures import (
    GOAL_HALF_WIDTH_M,
    PENALTY_AREA_DEPTH_M,
    PENALTY_AREA_HALF_WIDTH_M,
)
from varroom.model.situation import Pitch
from varroom.model.view import View
from varroom.pictures import style
from varroom.pictures.geometry import pitch_lines

Box = tuple[float, float, float, float]  # x0, y0, x1, y1 in metres

STRIPES = 18  # mowing stripes along the length


def draw_pitch(ax: Axes, pitch: Pitch, box: Box, linewidth: float = 1.4) -> None:
    """Grass, stripes and markings, limits set to `box`, equal aspect, no ticks."""
    hl, hw = pitch.half_length_m, pitch.half_width_m
    ax.set_facecolor(style.SURROUND)
    # add_artist, not add_patch: the limits are set below, so the data limits add_patch would
    # grow for each patch (a third of the pitch's drawing time) are never read.
    ax.add_artist(
        Rectangle((-hl - 6, -hw - 6), 2 * hl + 12, 2 * hw + 12, color=style.SURROUND_NEAR, zorder=0)
    )
    width = 2 * hl / STRIPES
    for k in range(STRIPES):
        ax.add_artist(
            Rectangle(
                (-hl + k * width, -hw),
                width,
                2 * hw,
                color=style.PITCH if k % 2 else style.STRIPE,
                zorder=0.1,
                linewidth=0,
            )
        )
    ax.add_collection(
        LineCollection(
            [line.tolist() for line in pitch_lines(pitch)],
            colors=style.PITCH_LINES,
            linewidths=linewidth,
            zorder=1,
            capstyle="round",
        )
    )
    x0, y0, x1, y1 = box
    ax.set_xlim(x0, x1)
    ax.set_ylim(y0, y1)
    ax.set_aspect("equal", adjustable="box")
    # No ticks: the axes hidden (the spines stay), not emptied of ticks, which leaves them to
    # lay out their empty labels at every draw.
    ax.xaxis.set_visible(False)
    ax.yaxis.set_visible(False)
    for spine in ax.spines.values():
        spine.set_color(style.PANEL_EDGE)
        spine.set_linewidth(1.5)


def shade_unseen(
    ax: Axes, pitch: Pitch, view: View | None, gid: str = "unseen"
) -> PathPatch | None:
    """Shade the part of the pitch the data did not see at a touch: the pitch minus `view`'s
    area (None: the whole pitch was seen, nothing drawn). Above the grass, under the markings.

    The view is cut to the pitch first; the pitch then runs anticlockwise and the view
    clockwise, so that under the nonzero fill rule the view is a hole in the pitch."""
    if view is None:
        return None
    hl, hw = pitch.half_length_m, pitch.half_width_m
    pitch_ring = [(-hl, -hw), (hl, -hw), (hl, hw), (-hl, hw)]
    area = _cut_to_box(list(view.area_m), (-hl, -hw, hl, hw))
    if len(area) < 3:  # the camera saw nothing of the pitch
        area = []
    # Shoelace sign: positive for an anticlockwise ring.
    turn = sum(
        x0 * y1 - x1 * y0 for (x0, y0), (x1, y1) in zip(area, area[1:] + area[:1], strict=True)
    )
    hole = area[::-1] if turn > 0 else area
    rings = [ring for ring in (pitch_ring, hole) if ring]
    vertices = [point for ring in rings for point in [*ring, ring[0]]]
    codes = [
        code
        for ring in rings
        for code in [Path.MOVETO, *[Path.LINETO] * (len(ring) - 1), Path.CLOSEPOLY]
    ]
    patch = PathPatch(
        Path(vertices, codes),
        facecolor=style.UNSEEN,
        alpha=style.UNSEEN_ALPHA,
        edgecolor=style.UNSEEN_HATCH,
        hatch="//",
        linewidth=0,
        zorder=0.5,
        gid=gid,
    )
    ax.add_patch(patch)
    return patch


def _cut_to_box(polygon: list[tuple[float, float]], box: Box) -> list[tuple[float, float]]:
    """The part of a polygon inside an axis-aligned box (Sutherland-Hodgman: cut by each of the
    box's four edges in turn)."""
    x0, y0, x1, y1 = box
    edges = ((0, x0, 1.0), (0, x1, -1.0), (1, y0, 1.0), (1, y1, -1.0))  # axis, at, inward
    for axis, at, inward in edges:
        kept: list[tuple[float, float]] = []
        for k, here in enumerate(polygon):
            before = polygon[k - 1]
            here_in = (here[axis] - at) * inward >= 0
            before_in = (before[axis] - at) * inward >= 0
            if here_in != before_in:
                share = (at - before[axis]) / (here[axis] - before[axis])
                kept.append(
                    (
                        before[0] + share * (here[0] - before[0]),
                        before[1] + share * (here[1] - before[1]),
                    )
                )
            if here_in:
                kept.append(here)
        polygon = kept
        if not polygon:
            break
    return polygon


def goal_mouth(pitch: Pitch, sign: float, room_m: float = 1.0) -> list[tuple[float, float]]:
    """The posts of the goal attacked (towards `sign`), `room_m` wider each side: two points a
    view near that goal holds, so that the goal is never cut."""
    goal_x = sign * pitch.half_length_m
    half = GOAL_HALF_WIDTH_M + room_m
    return [(goal_x, -half), (goal_x, half)]


def fit_box(
    points: Iterable[tuple[float, float]],
    pitch: Pitch,
    aspect: float,
    sign: float,
    pad_m: float = 5.0,
    min_span: tuple[float, float] = (30.0, 20.0),
    near_goal_m: float | None = 30.0,
    outside_m: float = 4.0,
) -> Box:
    """A box round the points with `aspect` = width / height: padded, at least `min_span`, the
    whole penalty area when the action is within `near_goal_m` of the goal attacked (None: never),
    never far off the pitch."""
    pts = list(points) or [(0.0, 0.0)]
    xs = [p[0] for p in pts]
    ys = [p[1] for p in pts]
    x0, x1 = min(xs) - pad_m, max(xs) + pad_m
    y0, y1 = min(ys) - pad_m, max(ys) + pad_m
    hl, hw = pitch.half_length_m, pitch.half_width_m
    if near_goal_m is not None and max(sign * x for x in xs) >= hl - near_goal_m:
        goal_x = sign * hl
        inner = goal_x - sign * (PENALTY_AREA_DEPTH_M + 3.0)
        outer = goal_x + sign * 3.0
        x0, x1 = min(x0, inner, outer), max(x1, inner, outer)
        half = min(PENALTY_AREA_HALF_WIDTH_M + 2.0, hw + outside_m)
        y0, y1 = min(y0, -half), max(y1, half)
    # At least the minimum span, then the aspect, growing about the centre.
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
    w = max(x1 - x0, min_span[0])
    h = max(y1 - y0, min_span[1])
    if w / h < aspect:
        w = h * aspect
    else:
        h = w / aspect
    # Keep the view near the pitch: slide it back inside the limits where it sticks out.
    lim_x, lim_y = hl + outside_m, hw + outside_m
    cx = _slide(cx, w, lim_x)
    cy = _slide(cy, h, lim_y)
    return cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2


def _slide(centre: float, span: float, limit: float) -> float:
    if span >= 2 * limit:
        return 0.0 if math.isfinite(centre) else centre
    low, high = centre - span / 2, centre + span / 2
    if low < -limit:
        centre += -limit - low
    elif high > limit:
        centre -= high - limit
    return centre
