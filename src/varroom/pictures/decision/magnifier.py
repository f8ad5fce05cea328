"""The magnified close-up: a few metres round the attacker's nearest part and the offside
line, in the corner of the main view where it hides nothing that matters, when the call is
close."""

from __future__ import annotations

import math

from matplotlib.axes import Axes

from varroom.model.measures import (
    GOAL_AREA_DEPTH_M,
    PENALTY_AREA_DEPTH_M,
    PENALTY_AREA_HALF_WIDTH_M,
    PENALTY_MARK_M,
)
from varroom.pictures import style
from varroom.pictures.decision.pitch_view import PitchView
from varroom.pictures.marks import outline
from varroom.pictures.story import Story
from varroom.pictures.topdown import Box, fit_box
from varroom.pictures.typeset import LabelBox, TextStyle, put

MAGNIFIER_SIZE = (0.4, 0.46)  # of the main view's axes
MAGNIFIER_MIN_SPAN_M = 4.0
MAGNIFIER_FACTOR = 3.2  # how much closer than the main view, at least
MAGNIFIER_MAX_MARGIN_M = 1.5  # a close call: wider margins are plain in the main view
CAPTION = TextStyle(9, ha="left", va="bottom", zorder=20, box=LabelBox(pad=0.25))
# What a place costs: each marking of the penalty area it hides, and each step smaller.
CONTEXT_COST, SMALLER_COST = 1, 4
MAGNIFIER_SCALES = (1.0, 0.85, 0.7, 0.6, 0.5)  # of MAGNIFIER_SIZE
# Where on the main view (fractions of the room left beside the inset): the corners, then
# along the edges.
PLACES = (
    [(0, 1), (0, 0), (1, 1), (1, 0)]
    + [(fx, fy) for fx in (0.25, 0.5, 0.75) for fy in (1, 0)]
    + [(0, 0.5), (1, 0.5)]
)


def _magnifier_box(story: Story, aspect: float, main_span_m: float, width: float) -> Box | None:
    """A few metres round the attacker's nearest part and the line, for an inset `width` of
    the main view wide, or None: nothing to show."""
    judged, line, margin = story.focus_judged, story.line, story.margin
    if judged is None or line is None or margin is None or abs(margin) > MAGNIFIER_MAX_MARGIN_M:
        return None
    reach = judged.reach
    span = max(MAGNIFIER_MIN_SPAN_M, main_span_m * width / MAGNIFIER_FACTOR)
    base = [(reach.x_m, reach.y_m), (line.x_m, reach.y_m)]

    def around(points: list[tuple[float, float]]) -> Box:
        return fit_box(
            points,
            story.s.pitch,
            aspect,
            story.sign,
            pad_m=1.2,
            min_span=(span, span / aspect),
            near_goal_m=None,
            outside_m=math.inf,
        )

    box = around(base)
    other = line.second_last_reach
    if other is not None:
        # The second-last opponent too, when he fits without losing much of the zoom.
        wider = around([*base, (other.x_m, other.y_m)])
        if wider[2] - wider[0] <= 1.3 * (box[2] - box[0]):
            box = wider
    return box


def add_magnifier(main: Axes, view: PitchView, story: Story) -> PitchView | None:
    """A magnified inset where it hides least of the main view, when there is a place where
    it hides no player, no ball and no decisive point."""
    window = main.get_window_extent()
    aspect = (window.width * MAGNIFIER_SIZE[0]) / (window.height * MAGNIFIER_SIZE[1])
    x0, y0, x1, y1 = view.box
    main_m_per_px = (x1 - x0) / window.width
    # A player's marker and his label reach about this far from his spot.
    reach_m = 30 * main_m_per_px
    crowd = [(p.x_m, p.y_m) for p in story.touch.positions.values()]
    crowd.append((story.touch.ball_m[0], story.touch.ball_m[1]))
    decisive = story.key_points()
    goal_x = story.sign * story.s.pitch.half_length_m
    # The goal attacked and its penalty area: context the magnifier should rather not hide.
    context = [
        (goal_x - story.sign * depth, y)
        for depth in (0.0, GOAL_AREA_DEPTH_M, PENALTY_MARK_M, PENALTY_AREA_DEPTH_M)
        for y in (-PENALTY_AREA_HALF_WIDTH_M, 0.0, PENALTY_AREA_HALF_WIDTH_M)
    ]
    pad = 0.012
    # Where it may go: along the edges of the main view, at full size or smaller, top left
    # first (it rarely hides much); a smaller inset costs a little.
    candidates = []
    for step, scale in enumerate(MAGNIFIER_SCALES):
        width, height = MAGNIFIER_SIZE[0] * scale, MAGNIFIER_SIZE[1] * scale
        zoom_box = _magnifier_box(story, aspect, x1 - x0, width)
        if zoom_box is None:
            return None
        zoom_m_per_px = (zoom_box[2] - zoom_box[0]) / (window.width * width)
        if zoom_m_per_px > main_m_per_px / 2.2:
            continue  # the main view is close enough already
        for fx, fy in PLACES:
            bounds = (pad + fx * (1 - width - 2 * pad), pad + fy * (1 - height - 2 * pad))
            left, bottom = x0 + bounds[0] * (x1 - x0), y0 + bounds[1] * (y1 - y0)
            covered = (left, bottom, left + width * (x1 - x0), bottom + height * (y1 - y0))

            def hides(p: tuple[float, float], grow: float, b: Box = covered) -> bool:
                return b[0] - grow <= p[0] <= b[2] + grow and b[1] - grow <= p[1] <= b[3] + grow

            if any(hides(p, reach_m) for p in [*crowd, *decisive]):
                continue  # never over a player, the ball or a point that decides the call
            cost = CONTEXT_COST * sum(hides(p, 0.0) for p in context) + SMALLER_COST * step
            candidates.append((cost, (*bounds, width, height), zoom_box))
    if not candidates:
        return None  # it would hide a player: the ruler beside shows the margin anyway
    _, (bx, by, width, height), zoom_box = min(candidates, key=lambda c: c[0])
    zoom_m_per_px = (zoom_box[2] - zoom_box[0]) / (window.width * width)
    inset = main.inset_axes((bx, by, width, height), zorder=12)
    inset.set_gid("magnifier")
    zoom = PitchView(inset, story, box=zoom_box, zoom=True)
    zoom.draw()
    caption = put(
        inset,
        0.015,
        0.025,
        f"close-up \u00d7{main_m_per_px / zoom_m_per_px:.0f}",
        CAPTION,
        transform=inset.transAxes,
        gid="magnifier-caption",
    )
    zoom.keep_clear(caption)
    # Where the close-up is, on the main view: a frame, no connectors across the pitch.
    outline(main, zoom_box, style.LIGHT, 1.0, dashes=(3, 2), zorder=8.9, gid="magnifier-frame")
    # What the inset covers, in metres, with a little room round it.
    fx0, fy0 = bx - 0.01, by - 0.01
    fx1, fy1 = bx + width + 0.01, by + height + 0.01
    view.hidden = (
        x0 + fx0 * (x1 - x0),
        y0 + fy0 * (y1 - y0),
        x0 + fx1 * (x1 - x0),
        y0 + fy1 * (y1 - y0),
    )
    return zoom
