"""Pictures of a penalty kick: a close-up of the goal line with the goalkeeper's feet and the
margin, the penalty area with every player, the 9.15 m arc and who encroached, and the
stadium-screen still. Drawn in depth coordinates (the goal always to the right), so a kick
towards -x looks the same as one towards +x.

Colours come from `style`, text from `typeset` roles; the penalty area is the one pitch
(`topdown.draw_pitch`), and every name is placed (`placement`) where it covers no marker and no
other name. Gids: `penalty-player:<id>`, `penalty-ball`, `penalty-encroached:<id>`,
`penalty-name:<id>`, `penalty-foot:<side>`, `penalty-foot-label:<side>`, `penalty-keeper`,
`penalty-margin`, `penalty-title`, `penalty-reason`, `penalty-announcement`.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
from matplotlib.axes import Axes
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure
from matplotlib.patches import Arc, Rectangle

from varroom.engine.explain import distance
from varroom.engine.penalty_verdict import ENCROACHING, OffenceKind, PenaltyVerdict
from varroom.law.penalty import FOOT_PARTS, Decision, goal_line_depth_m
from varroom.model.measures import PENALTY_AREA_DEPTH_M, PENALTY_AREA_HALF_WIDTH_M, PENALTY_MARK_M
from varroom.model.penalty import PenaltyKick
from varroom.output_file import FIGURE_SUFFIXES, check_target, write_figure
from varroom.pictures import style
from varroom.pictures.marks import arrow, ball_mark, dots, polyline, vline
from varroom.pictures.placement import around, marker_boxes, place
from varroom.pictures.topdown import draw_pitch
from varroom.pictures.typeset import (
    NAME,
    NOTE,
    LabelBox,
    TextStyle,
    fit_lines,
    put,
    renderer_of,
    shrink_to_width,
)

PICTURE_SIZE_IN, PICTURE_DPI = (14.0, 7.6), 110
SCREEN_SIZE_IN, SCREEN_DPI = (19.2, 10.8), 100
_DECISION = {
    Decision.GOAL: "GOAL",
    Decision.NO_GOAL: "NO GOAL",
    Decision.RETAKE: "RETAKE",
    Decision.INDIRECT_FREE_KICK: "INDIRECT FREE KICK",
}
# The call's colour: the goal green, a retake amber, the rest (a save, a free kick) red.
_COLOUR = {Decision.GOAL: style.ONSIDE_GREEN, Decision.RETAKE: style.AMBER}
PLAYER_S = 150.0  # a player's marker on the area view, points squared (x size for the screen)

TITLE = TextStyle(22, weight="bold", ha="center", va="top")
PANEL_TITLE = NOTE.but(size=11, colour=style.TEXT, va="bottom")
REASON = TextStyle(10, ha="center", va="bottom", linespacing=1.3)
FOOT = NAME.but(size=10, ha="right")
MARGIN = TextStyle(11, ha="center", va="top", zorder=6, linespacing=1.3)
SCREEN_HEADLINE = TextStyle(96, headline=True, va="top", halo=5)
SCREEN_ANNOUNCEMENT = TextStyle(28, va="bottom", linespacing=1.35)


def draw_penalty_picture(kick: PenaltyKick, verdict: PenaltyVerdict) -> Figure:
    """The two top-down views side by side, with the decision and the reason."""
    figure = _figure(PICTURE_SIZE_IN, PICTURE_DPI)
    close = figure.add_axes((0.03, 0.16, 0.4, 0.72))
    area = figure.add_axes((0.47, 0.16, 0.5, 0.72))
    title = put(
        figure, 0.5, 0.98, _title(verdict), TITLE.but(colour=_colour(verdict)), gid="penalty-title"
    )
    # A long team name makes a long call: it shrinks to the width rather than run off the edges.
    shrink_to_width(title, renderer_of(figure), 0.96 * figure.bbox.width, 14)
    draw_goal_line(close, kick, verdict)
    draw_area(area, kick, verdict)
    reason = put(figure, 0.5, 0.015, verdict.reason, REASON, gid="penalty-reason")
    fit_lines(reason, renderer_of(figure), 0.94 * figure.bbox.width, 3, (10, 9.5, 9, 8.5))
    return figure


def write_penalty_png(kick: PenaltyKick, verdict: PenaltyVerdict, path: Path) -> None:
    """The two top-down views side by side, with the decision and the reason (PNG)."""
    target = check_target(path, "picture", FIGURE_SUFFIXES)
    write_figure(target, "picture", draw_penalty_picture(kick, verdict), dpi=PICTURE_DPI)


def draw_penalty_screen(kick: PenaltyKick, verdict: PenaltyVerdict) -> Figure:
    """The stadium-screen still (1920x1080): the decision, the goal-line close-up, the area and
    the announcement, large enough to read across a stadium."""
    figure = _figure(SCREEN_SIZE_IN, SCREEN_DPI)
    renderer = renderer_of(figure)
    title = put(
        figure,
        0.05,
        0.96,
        _title(verdict),
        SCREEN_HEADLINE.but(colour=_colour(verdict)),
        gid="penalty-title",
    )
    # "INDIRECT FREE KICK to <team>" at 96 points can be wider than the screen: measured as
    # drawn, it shrinks to the margins (its halo included) rather than run off the right edge.
    halo_px = SCREEN_HEADLINE.halo * SCREEN_DPI / 72
    shrink_to_width(title, renderer, 0.9 * figure.bbox.width - halo_px, 48)
    draw_goal_line(figure.add_axes((0.05, 0.22, 0.5, 0.56)), kick, verdict, size=1.8)
    draw_area(figure.add_axes((0.58, 0.22, 0.4, 0.56)), kick, verdict, size=1.6)
    words = put(
        figure, 0.05, 0.04, verdict.announcement, SCREEN_ANNOUNCEMENT, gid="penalty-announcement"
    )
    fit_lines(words, renderer, 0.9 * figure.bbox.width, 2, (28, 25, 22))
    return figure


def write_penalty_screen(kick: PenaltyKick, verdict: PenaltyVerdict, path: Path) -> None:
    """The stadium-screen still (1920x1080) as a PNG."""
    target = check_target(path, "screen still", FIGURE_SUFFIXES)
    write_figure(target, "screen still", draw_penalty_screen(kick, verdict), dpi=SCREEN_DPI)


def _figure(size_in: tuple[float, float], dpi: float) -> Figure:
    figure = Figure(figsize=size_in, dpi=dpi, facecolor=style.BACKGROUND)
    FigureCanvasAgg(figure)
    return figure


def _title(verdict: PenaltyVerdict) -> str:
    title = _DECISION[verdict.decision]
    return f"{title} to {verdict.restart_team}" if verdict.restart_team else title


def _colour(verdict: PenaltyVerdict) -> str:
    return _COLOUR.get(verdict.decision, style.OFFSIDE_RED)


def _depth(kick: PenaltyKick, x_m: float, y_m: float) -> tuple[float, float]:
    """Pitch coordinates turned so the goal is to the right (a half turn for -x)."""
    sign = kick.attack_direction.sign
    return sign * x_m, sign * y_m


def _panel(ax: Axes, title: str, size: float) -> None:
    ax.set_title(title, loc="left", pad=6, **PANEL_TITLE.but(size=11 * size).kwargs())


def draw_goal_line(ax: Axes, kick: PenaltyKick, verdict: PenaltyVerdict, size: float = 1.0) -> None:
    """The goal line at its true width, the goalkeeper's feet and his margin, to the centimetre."""
    half = kick.pitch.half_length_m
    front = goal_line_depth_m(kick.pitch, kick.line_width_m, verdict.settings)
    keeper = verdict.keeper
    centre_y = 0.0 if keeper is None else _depth(kick, 0.0, kick.positions[keeper].y_m)[1]
    draw_pitch(ax, kick.pitch, (front - 1.1, centre_y - 0.7, half + 0.3, centre_y + 0.7))
    ax.apply_aspect()  # the axes' final place, before anything is measured on it
    # The line drawn at its own width in metres (the pitch's markings are hairlines at this
    # scale).
    ax.add_patch(
        Rectangle((front, centre_y - 2), half - front, 4, color=style.PITCH_LINES, zorder=1.5)
    )
    _panel(ax, "The goal line, close up", size)
    renderer = renderer_of(ax.figure)
    if keeper is None or verdict.keeper_measure is None:
        put(ax, front - 0.5, centre_y, "no goalkeeper in the file", NOTE.but(ha="center"))
        return
    position = kick.positions[keeper]
    off = any(o.what is OffenceKind.GOALKEEPER_OFF_LINE for o in verdict.offences)
    colour = style.OFFSIDE_RED if off else style.ONSIDE_GREEN
    feet = [p for p in position.parts if p.part in FOOT_PARTS]
    taken = []
    for side in ("left", "right"):
        points = [
            _depth(kick, p.x_m, position.y_m if p.y_m is None else p.y_m)
            for p in feet
            if p.part.value.startswith(side)
        ]
        if points:
            xs, ys = zip(*points, strict=True)
            foot = polyline(
                ax,
                xs,
                ys,
                colour,
                6 * size,
                zorder=3,
                gid=f"penalty-foot:{side}",
                solid_capstyle="round",
            )
            taken.append(foot.get_window_extent(renderer))
            label = put(
                ax,
                min(xs) - 0.06,
                float(np.mean(ys)),
                side,
                FOOT.but(size=10 * size),
                gid=f"penalty-foot-label:{side}",
            )
            taken.append(label.get_window_extent(renderer))
    if not feet:
        x, y = _depth(kick, position.x_m, position.y_m)
        dots(ax, [x], [y], s=PLAYER_S * size, color=colour, gid="penalty-keeper")
    margin = verdict.keeper_measure.margin_m
    nearest_x = front - margin
    middle = ((nearest_x + front) / 2, centre_y - 0.45)
    for end in (nearest_x, front):  # a two-headed arrow across the margin, under the feet
        arrow(ax, middle, (end, middle[1]), style.TEXT, 10 * size, width=1.5, zorder=5)
    vline(ax, nearest_x, centre_y - 0.7, centre_y + 0.7, colour, 1.0, (4, 3), zorder=2)
    where = "in front of the line" if margin > 0 else "behind its front edge: on the line"
    part = "tracked point" if verdict.keeper_part is None else verdict.keeper_part.value
    box = put(
        ax,
        (front - 1.1 + half + 0.3) / 2,  # the middle of the view
        centre_y + 0.64,
        f"{part.replace('_', ' ')} {distance(margin)} {where}\n"
        f"\u00b1 {distance(verdict.keeper_measure.se_m)}, "
        f"P(off the line) {verdict.keeper_measure.probability:.0%}",
        MARGIN.but(size=11 * size, box=LabelBox(style.PANEL, alpha=0.9, edgecolor=colour)),
        gid="penalty-margin",
    )
    shrink_to_width(box, renderer, 0.94 * ax.bbox.width, 8)


def draw_area(ax: Axes, kick: PenaltyKick, verdict: PenaltyVerdict, size: float = 1.0) -> None:
    """The penalty area on the one pitch, the 9.15 m arc, every player, and who encroached."""
    half = kick.pitch.half_length_m
    edge = half - PENALTY_AREA_DEPTH_M
    mark = half - PENALTY_MARK_M
    encroached = {o.player: o for o in verdict.offences if o.what in ENCROACHING}
    # The area and its arc, widened to every player who offended (3 m round him): none is
    # cut at an edge. Across, it stays centred on the goal.
    x_lo, x_hi, y_reach = edge - 14.0, half + 2.0, PENALTY_AREA_HALF_WIDTH_M + 3
    for player in encroached:
        x, y = _depth(kick, kick.positions[player].x_m, kick.positions[player].y_m)
        x_lo, x_hi, y_reach = min(x_lo, x - 3), max(x_hi, x + 3), max(y_reach, abs(y) + 3)
    draw_pitch(ax, kick.pitch, (x_lo, -y_reach, x_hi, y_reach), linewidth=1.4 * size)
    ax.apply_aspect()  # the axes' final place, before the names are placed on it
    _panel(ax, "The penalty area at the kick", size)
    reach = 2 * verdict.settings.mark_distance_m
    ax.add_patch(
        Arc(
            (mark, 0.0),
            reach,
            reach,
            edgecolor=style.PITCH_LINES,
            linewidth=1,
            linestyle=(0, (1, 3)),
            zorder=1,
        )
    )
    centres: list[tuple[float, float]] = []
    marker_s = PLAYER_S * size
    for pid, position in kick.positions.items():
        x, y = _depth(kick, position.x_m, position.y_m)
        colour = style.ATTACKERS if kick.is_attacker(pid) else style.DEFENDERS
        dots(
            ax,
            [x],
            [y],
            s=marker_s,
            color=colour,
            edgecolors=style.RING,
            linewidths=1.2,
            gid=f"penalty-player:{pid}",
        )
        centres.append((x, y))
        if pid in encroached:
            dots(
                ax,
                [x],
                [y],
                s=4 * marker_s,
                color=style.OFFSIDE_RED,
                linestyle="--",
                linewidths=2.0,
                zorder=4,
                gid=f"penalty-encroached:{pid}",
            )
    bx, by = _depth(kick, kick.ball_m[0], kick.ball_m[1])
    ball_mark(ax, [bx], [by], s=0.6 * marker_s, gid="penalty-ball")
    centres.append((bx, by))
    # Names last, each where it covers no marker and no other name.
    renderer = renderer_of(ax.figure)
    dpi = ax.figure.dpi
    radius_px = (marker_s**0.5 / 2 + 1) * dpi / 72
    # An encroacher's red ring is twice his marker's size.
    rings = [2.0 if pid in encroached else 1.0 for pid in kick.positions] + [1.0]
    obstacles = marker_boxes(ax.transData.transform(np.array(centres)), np.array(rings) * radius_px)
    for pid, where, ring in zip(kick.positions, centres, rings, strict=False):
        words = kick.players[pid].short_label
        if pid in encroached:
            offence = encroached[pid]
            assert offence.measure is not None
            state = "penalised" if offence.penalised else "not penalised"
            how_far = (
                "outside his place"
                if offence.what is OffenceKind.KICKERS_GOALKEEPER_OUT_OF_PLACE
                else "in"
            )
            words = f"{words}\n{distance(offence.measure.margin_m)} {how_far} ({state})"
        label = ax.annotate(
            words,
            where,
            xytext=(0, 0),
            textcoords="offset points",
            gid=f"penalty-name:{pid}",
            **NAME.but(size=9 * size, halo=2.5, zorder=7).kwargs(),
        )
        near = (ring * 7 + 4) * size
        _, box = place(label, (*around(near), *around(3 * near)), obstacles, renderer, ax.bbox)
        obstacles.append(box)
