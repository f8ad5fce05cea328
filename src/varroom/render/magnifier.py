"""The magnified close-up: a few metres around the attacker's nearest part and the offside
line, in the emptiest corner of the main view, when the call is close."""

from __future__ import annotations

import math
from collections.abc import Sequence

from matplotlib.axes import Axes
from matplotlib.patches import Rectangle

from varroom.render.frame import Box, grow
from varroom.render.pitch_view import PitchView, action_points
from varroom.render.scene import Scene
from varroom.render.style import PENALTY_AREA_M, TEXT

MAGNIFIER_SIZE = (0.4, 0.46)  # of the main view's axes
MAGNIFIER_MIN_SPAN_M = 4.0
MAGNIFIER_FACTOR = 3.2  # how much closer than the main view, at least
MAGNIFIER_MAX_MARGIN_M = 1.5  # a close call: wider margins are plain in the main view


def _magnifier_box(scene: Scene, aspect: float, main_span_m: float) -> Box | None:
    """A few metres around the attacker's nearest part and the line, or None: nothing to show."""
    judged, line, margin = scene.focus_judged, scene.line, scene.margin
    if judged is None or line is None or margin is None or abs(margin) > MAGNIFIER_MAX_MARGIN_M:
        return None
    reach = judged.reach
    span = max(MAGNIFIER_MIN_SPAN_M, main_span_m * MAGNIFIER_SIZE[0] / MAGNIFIER_FACTOR)
    base = [(reach.x_m, reach.y_m), (line.x_m, reach.y_m)]
    other = line.second_last_reach
    box = _around(base, span, aspect)
    if other is not None:
        # The second-last opponent too, when he fits without losing much of the zoom.
        wider = _around([*base, (other.x_m, other.y_m)], span, aspect)
        if wider[2] - wider[0] <= 1.3 * (box[2] - box[0]):
            box = wider
    return box


def _around(points: Sequence[tuple[float, float]], span: float, aspect: float) -> Box:
    xs, ys = [p[0] for p in points], [p[1] for p in points]
    x0, x1 = min(xs) - 1.2, max(xs) + 1.2
    y0, y1 = min(ys) - 1.2, max(ys) + 1.2
    x0, x1 = grow(x0, x1, span, -math.inf, math.inf)
    y0, y1 = grow(y0, y1, span / aspect, -math.inf, math.inf)
    if (x1 - x0) / (y1 - y0) < aspect:
        x0, x1 = grow(x0, x1, (y1 - y0) * aspect, -math.inf, math.inf)
    else:
        y0, y1 = grow(y0, y1, (x1 - x0) / aspect, -math.inf, math.inf)
    return x0, y0, x1, y1


def add_magnifier(main: Axes, view: PitchView, scene: Scene) -> PitchView | None:
    """A magnified inset in the emptiest corner of the main view, when there is one."""
    width, height = MAGNIFIER_SIZE
    window = main.get_window_extent()
    aspect = (window.width * width) / (window.height * height)
    x0, y0, x1, y1 = view.box
    zoom_box = _magnifier_box(scene, aspect, x1 - x0)
    if zoom_box is None:
        return None
    main_m_per_px = (x1 - x0) / window.width
    zoom_m_per_px = (zoom_box[2] - zoom_box[0]) / (window.width * width)
    if zoom_m_per_px > main_m_per_px / 2.2:
        return None  # the main view is close enough already
    touch = scene.touch
    crowd = [(p.x_m, p.y_m) for p in touch.positions.values()] if touch is not None else []
    decisive = list(action_points(scene))
    goal_x = scene.sign * scene.s.pitch.length_m / 2
    # The goal attacked and its penalty area: context the magnifier should rather not hide.
    context = [
        (goal_x - scene.sign * depth, y)
        for depth in (0.0, 5.5, 11.0, 16.5)
        for y in (-PENALTY_AREA_M[1] / 2, 0.0, PENALTY_AREA_M[1] / 2)
    ]
    corners = []
    for cx, cy in ((0, 1), (0, 0), (1, 1), (1, 0)):  # top left first: it rarely hides much
        left = x0 + cx * (1 - width) * (x1 - x0)
        bottom = y0 + cy * (1 - height) * (y1 - y0)
        right, top = left + width * (x1 - x0), bottom + height * (y1 - y0)
        margin = 1.0
        covered = (left - margin, bottom - margin, right + margin, top + margin)

        def inside(p: tuple[float, float], b: Box = covered) -> bool:
            return b[0] <= p[0] <= b[2] and b[1] <= p[1] <= b[3]

        cost = (
            sum(inside(p) for p in crowd)
            + 3 * sum(inside(p) for p in context)
            + 100 * sum(inside(p) for p in decisive)
        )
        corners.append((cost, (cx, cy), (left, bottom, right, top)))
    cost, (cx, cy), _ = min(corners, key=lambda c: c[0])
    if cost >= 100:
        return None
    pad = 0.012
    bounds = (pad + cx * (1 - width - 2 * pad), pad + cy * (1 - height - 2 * pad), width, height)
    inset = main.inset_axes(bounds, zorder=12)
    inset.set_gid("magnifier")
    zoom = PitchView(inset, scene, box=zoom_box, zoom=True)
    zoom.draw()
    inset.set_xticks([])
    inset.set_yticks([])
    inset.text(
        0.015,
        0.025,
        f"close-up \u00d7{main_m_per_px / zoom_m_per_px:.0f}",
        color=TEXT,
        fontsize=9,
        ha="left",
        va="bottom",
        transform=inset.transAxes,
        zorder=20,
        bbox=dict(boxstyle="round,pad=0.25", facecolor="#0b1510", edgecolor="none", alpha=0.7),
    )
    # Where the close-up is, on the main view: a frame, no connectors across the pitch.
    zx0, zy0, zx1, zy1 = zoom_box
    main.add_patch(
        Rectangle(
            scene.frame.plot(zx0, zy0),
            zx1 - zx0,
            zy1 - zy0,
            fill=False,
            edgecolor="#e2e8f0",
            linewidth=1.0,
            linestyle=(0, (3, 2)),
            alpha=0.8,
            zorder=8.9,
            gid="magnifier-frame",
        )
    )
    # What the inset covers, in metres, with a little room around it.
    fx0, fy0 = bounds[0] - 0.01, bounds[1] - 0.01
    fx1, fy1 = bounds[0] + width + 0.01, bounds[1] + height + 0.01
    view.hidden = (
        x0 + fx0 * (x1 - x0),
        y0 + fy0 * (y1 - y0),
        x0 + fx1 * (x1 - x0),
        y0 + fy1 * (y1 - y0),
    )
    return zoom
