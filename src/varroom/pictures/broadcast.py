"""The decision drawn in the broadcast picture's own perspective.

With a camera (`varroom.model.camera`), the offside line is the true projection of the pitch
line x = const (straight lines stay straight; a line that passes behind the camera is cut, not
drawn through infinity); with a projection matrix the offside plane also stands as a
translucent wall up to 2.4 m. The ball line (when the ball set the line elsewhere), the
attacker's nearest counting part (at its height with a projection matrix, on the ground under
it with a homography) and the second-last opponent's are marked. On the still when the camera
names one, else on a blank frame of the camera's size with the pitch markings and the players
(as 1.8 m posts with a projection matrix, as ground dots with a homography).

Artists carry gids: "broadcast-offside-line" (the ground line, a Line2D in pixels),
"broadcast-wall", "broadcast-ball-line", "broadcast-reach", "broadcast-second-last", "broadcast-ball",
"broadcast-headline", "broadcast-margin", "broadcast-still", "broadcast-pitch".
"""

from __future__ import annotations

import os

import numpy as np
from matplotlib import patheffects
from matplotlib.axes import Axes
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.collections import LineCollection
from matplotlib.figure import Figure
from matplotlib.lines import Line2D
from matplotlib.patches import Polygon

from varroom.engine.judgement import LineSetter, Reach, Reference
from varroom.engine.verdict import Verdict
from varroom.model.camera import Camera, Floats
from varroom.model.situation import Position, Situation
from varroom.output_file import check_target, write_atomically
from varroom.pictures import PictureError, style
from varroom.pictures.body import POSE
from varroom.pictures.geometry import pitch_lines
from varroom.pictures.story import Side, Story
from varroom.pictures.topdown import STRIPES

DPI = 100
WALL_HEIGHT_M = 2.4
_HALO = [patheffects.withStroke(linewidth=4, foreground="#05080c", alpha=0.9)]


def write_broadcast(
    situation: Situation, verdict: Verdict, camera: Camera, path: str | os.PathLike[str]
) -> None:
    """Write the broadcast-perspective picture as a PNG of the camera's size."""
    target = check_target(path, "broadcast picture", (".png",))
    figure = draw_broadcast(situation, verdict, camera)
    write_atomically(
        target,
        "broadcast picture",
        lambda stream: figure.savefig(stream, format="png", dpi=DPI),
    )


def line_segment(camera: Camera, x_m: float, situation: Situation) -> Floats | None:
    """The pitch line x = x_m from touchline to touchline, in pixels (None when not in view)."""
    hw = situation.pitch.half_width_m
    return camera.project_segment((x_m, -hw, 0.0), (x_m, hw, 0.0))


def draw_broadcast(situation: Situation, verdict: Verdict, camera: Camera) -> Figure:
    """The picture as a Figure (not attached to pyplot), camera.size pixels."""
    width, height = camera.size
    story = Story(situation, verdict)
    figure = Figure(figsize=(width / DPI, height / DPI), dpi=DPI, facecolor="#0a0f14")
    FigureCanvasAgg(figure)
    ax = figure.add_axes((0, 0, 1, 1))
    ax.set_xlim(0, width)
    ax.set_ylim(height, 0)
    ax.set_axis_off()
    if camera.image is not None:
        _still(ax, camera)
    else:
        _blank_frame(ax, situation, camera)
        _players(ax, story, camera)
    _overlay(ax, story, camera)
    _banner(figure, story, camera)
    return figure


def _still(ax: Axes, camera: Camera) -> None:
    from PIL import Image

    try:
        with Image.open(camera.image) as image:  # type: ignore[arg-type]
            pixels = np.asarray(image.convert("RGB"))
    except OSError as exc:
        raise PictureError(f"cannot read the still {camera.image}: {exc}") from None
    width, height = camera.size
    ax.imshow(
        pixels,
        extent=(0, width, height, 0),
        interpolation="bilinear",
        zorder=0,
        gid="broadcast-still",
    )


def _blank_frame(ax: Axes, situation: Situation, camera: Camera) -> None:
    pitch = situation.pitch
    hl, hw = pitch.half_length_m, pitch.half_width_m
    surround = camera.project_polygon(
        [(-hl - 8, -hw - 8), (hl + 8, -hw - 8), (hl + 8, hw + 8), (-hl - 8, hw + 8)]
    )
    if surround is not None:
        ax.add_patch(
            Polygon(surround, closed=True, facecolor="#15291c", edgecolor="none", zorder=0)
        )
    stripe = 2 * hl / STRIPES
    for k in range(STRIPES):
        x0 = -hl + k * stripe
        poly = camera.project_polygon([(x0, -hw), (x0 + stripe, -hw), (x0 + stripe, hw), (x0, hw)])
        if poly is not None:
            ax.add_patch(
                Polygon(
                    poly,
                    closed=True,
                    facecolor=style.PITCH if k % 2 else style.STRIPE,
                    edgecolor="none",
                    zorder=0.1,
                )
            )
    pieces = [
        piece
        for line in pitch_lines(pitch, step_deg=2.0)
        for piece in camera.project_polyline(line)
    ]
    ax.add_collection(
        LineCollection(
            pieces, colors=style.PITCH_LINES, linewidths=2.0, zorder=1, gid="broadcast-pitch"
        )
    )


def _players(ax: Axes, story: Story, camera: Camera) -> None:
    """Players on a blank frame: posts 1.8 m tall (projection) or ground dots (homography)."""
    key = {story.focus}
    defender = story.defender()
    if defender is not None and defender.player is not None:
        key.add(defender.player.id)
    positions = story.touch.positions
    order = sorted(
        positions,
        key=lambda pid: -float(camera.w([(positions[pid].x_m, positions[pid].y_m, 0.0)])[0]),
    )
    for pid in order:
        pos = positions[pid]
        if pid not in story.s.players:
            continue
        colour = story.team_colour(pid)
        foot = camera.project([(pos.x_m, pos.y_m, 0.0)])[0]
        if not np.all(np.isfinite(foot)):
            continue
        if camera.sees_height:
            shoulders, head = camera.project([(pos.x_m, pos.y_m, 1.45), (pos.x_m, pos.y_m, 1.7)])
            if not (np.all(np.isfinite(shoulders)) and np.all(np.isfinite(head))):
                continue
            size = max(3.0, 0.16 * abs(foot[1] - head[1]))
            edge = "white" if pid in key else "#0b1118"
            ax.add_line(
                Line2D(
                    [foot[0], shoulders[0]],
                    [foot[1], shoulders[1]],
                    color=colour,
                    lw=size * 72 / DPI,
                    solid_capstyle="round",
                    zorder=4,
                    path_effects=[
                        patheffects.withStroke(
                            linewidth=size * 72 / DPI + (2.5 if pid in key else 1.2),
                            foreground=edge,
                        )
                    ],
                )
            )
            ax.add_line(
                Line2D(
                    [head[0]],
                    [head[1]],
                    marker="o",
                    markersize=1.15 * size * 72 / DPI,
                    color=colour,
                    markeredgecolor=edge,
                    markeredgewidth=1.2,
                    zorder=4.1,
                )
            )
            number = story.s.players[pid].number
            if number is not None:
                ax.text(
                    head[0],
                    head[1] - 6,
                    str(number),
                    color=colour,
                    fontsize=9,
                    fontweight="bold",
                    ha="center",
                    va="bottom",
                    zorder=5,
                    clip_on=True,
                    path_effects=[patheffects.withStroke(linewidth=2.5, foreground="#05080c")],
                )
        else:
            ax.add_line(
                Line2D(
                    [foot[0]],
                    [foot[1]],
                    marker="o",
                    markersize=10,
                    color=colour,
                    markeredgecolor="white" if pid in key else "#0b1118",
                    ls="",
                    zorder=4,
                )
            )


def _reach_point(reach: Reach, position: Position | None, camera: Camera) -> tuple[float, ...]:
    """Where the measured point is in 3D: a body part at its height (given or standard), a
    tracked point or a line crossed on the ground; on the ground for a homography."""
    z = 0.0
    if camera.sees_height and reach.reference is Reference.BODY_PART and reach.part is not None:
        z = POSE[reach.part.value][2]
        if position is not None:
            for part in position.parts:
                if part.part is reach.part and part.z_m is not None:
                    z = part.z_m
    return reach.x_m, reach.y_m, z


def _overlay(ax: Axes, story: Story, camera: Camera) -> None:
    s, line = story.s, story.line
    if line is None:
        return
    hw = s.pitch.half_width_m
    width, height = camera.size
    if camera.sees_height:
        wall = camera.project_polygon(
            [
                (line.x_m, -hw, 0.0),
                (line.x_m, hw, 0.0),
                (line.x_m, hw, WALL_HEIGHT_M),
                (line.x_m, -hw, WALL_HEIGHT_M),
            ]
        )
        if wall is not None:
            ax.add_patch(
                Polygon(
                    wall,
                    closed=True,
                    facecolor="#bae6fd",
                    alpha=0.22,
                    edgecolor="#e0f2fe",
                    linewidth=1.2,
                    zorder=6,
                    gid="broadcast-wall",
                )
            )
    if abs(line.ball_x_m - line.x_m) > 1e-9:
        ball_seg = line_segment(camera, line.ball_x_m, s)
        if ball_seg is not None:
            ax.add_line(
                Line2D(
                    ball_seg[:, 0],
                    ball_seg[:, 1],
                    color="white",
                    lw=1.6,
                    alpha=0.7,
                    ls=(0, (8, 6)),
                    zorder=6.5,
                    gid="broadcast-ball-line",
                )
            )
    seg = line_segment(camera, line.x_m, s)
    if seg is not None:
        ax.add_line(
            Line2D(
                seg[:, 0],
                seg[:, 1],
                color=style.LINE,
                lw=3.2,
                zorder=7,
                solid_capstyle="butt",
                gid="broadcast-offside-line",
                path_effects=[
                    patheffects.withStroke(linewidth=6, foreground="#05080c", alpha=0.45)
                ],
            )
        )
        # The label where the line enters the frame nearest the top.
        inside = _inside_part(seg, width, height)
        if inside is not None:
            top = inside[np.argmin(inside[:, 1])]
            defender = story.defender()
            what = (
                ""
                if defender is None
                else (
                    "the ball"
                    if defender.kind is Side.BALL
                    else "halfway line"
                    if defender.kind is Side.HALFWAY_LINE
                    else defender.name
                )
            )
            ax.annotate(
                f"offside line \u00b7 {what}",
                top,
                xytext=(8, 14),
                textcoords="offset points",
                color=style.LINE,
                fontsize=13,
                fontweight="bold",
                ha="left",
                va="top",
                zorder=9,
                path_effects=_HALO,
                annotation_clip=False,
            )
    margin = story.margin
    colour = (
        style.AMBER if margin is None else (style.OFFSIDE_RED if margin > 0 else style.ONSIDE_GREEN)
    )
    focus = story.focus_judged
    if focus is not None:
        point = _reach_point(focus.reach, story.touch.positions.get(focus.player), camera)
        uv = camera.project([point])[0]
        if np.all(np.isfinite(uv)):
            if camera.sees_height and point[2] > 0:
                ground = camera.project([(point[0], point[1], 0.0)])[0]
                ax.add_line(
                    Line2D(
                        [uv[0], ground[0]],
                        [uv[1], ground[1]],
                        color=colour,
                        lw=1.2,
                        ls=(0, (3, 3)),
                        zorder=7.5,
                    )
                )
            level = camera.project([(line.x_m, point[1], point[2])])[0]
            if np.all(np.isfinite(level)):
                ax.add_line(
                    Line2D([level[0], uv[0]], [level[1], uv[1]], color=colour, lw=3, zorder=7.6)
                )
            ax.add_line(
                Line2D(
                    [uv[0]],
                    [uv[1]],
                    marker="o",
                    markersize=11,
                    color=colour,
                    markeredgecolor="white",
                    markeredgewidth=2,
                    ls="",
                    zorder=8,
                    gid="broadcast-reach",
                )
            )
            attacker = story.attacker()
            if attacker is not None:
                part = attacker.point if attacker.point != "tracked position" else ""
                text = f"{attacker.name}" + (f" \u00b7 {part}" if part else "")
                if story.margin_text():
                    text += f"\n{story.margin_text()} {story.margin_caption()}"
                ax.annotate(
                    text,
                    uv,
                    xytext=(14, -14),
                    textcoords="offset points",
                    color=colour,
                    fontsize=13,
                    fontweight="bold",
                    ha="left",
                    va="bottom",
                    zorder=9,
                    path_effects=_HALO,
                    gid="broadcast-reach-label",
                    annotation_clip=False,
                )
    bx, by, bz = story.touch.ball_m
    ball = camera.project([(bx, by, bz if camera.sees_height else 0.0)])[0]
    if np.all(np.isfinite(ball)):
        ax.add_line(
            Line2D(
                [ball[0]],
                [ball[1]],
                marker="o",
                markersize=10,
                color=style.BALL,
                markeredgecolor="#111827",
                markeredgewidth=1.5,
                ls="",
                zorder=8,
                gid="broadcast-ball",
            )
        )
    second = line.second_last_reach
    if (
        second is not None
        and line.second_last is not None
        and line.set_by is LineSetter.SECOND_LAST_OPPONENT
    ):
        point = _reach_point(second, story.touch.positions.get(line.second_last), camera)
        uv = camera.project([point])[0]
        if np.all(np.isfinite(uv)):
            ax.add_line(
                Line2D(
                    [uv[0]],
                    [uv[1]],
                    marker="D",
                    markersize=9,
                    color=style.DEFENDERS,
                    markeredgecolor="#0b1118",
                    markeredgewidth=1.5,
                    ls="",
                    zorder=8,
                    gid="broadcast-second-last",
                )
            )


def _inside_part(seg: Floats, width: int, height: int) -> Floats | None:
    from varroom.model.camera import _clip_segment_2d

    return _clip_segment_2d(seg, (0.0, 0.0, float(width), float(height)))


def _banner(figure: Figure, story: Story, camera: Camera) -> None:
    width, height = camera.size
    scale = height / 1080
    figure.text(
        0.02,
        0.965,
        story.headline,
        color=story.colour,
        fontproperties=style.headline_font(max(18, 52 * scale)),
        ha="left",
        va="top",
        gid="broadcast-headline",
        bbox=dict(boxstyle="square,pad=0.35", facecolor="#0b1118", alpha=0.85, edgecolor="none"),
    )
    margin = story.margin_text()
    if margin:
        figure.text(
            0.02,
            0.965 - 0.085 * (1080 / height) * scale * 1.05,
            f"{margin} {story.margin_caption()}  \u00b7  when {story.played_label()}",
            color=style.TEXT,
            fontsize=max(10, 20 * scale),
            ha="left",
            va="top",
            gid="broadcast-margin",
            bbox=dict(
                boxstyle="square,pad=0.35", facecolor="#0b1118", alpha=0.85, edgecolor="none"
            ),
        )
    note = (
        "camera: projection matrix"
        if camera.kind == "projection"
        else (
            "camera: ground homography"
            + (f" (fit {camera.rms_px:.1f} px rms)" if camera.rms_px is not None else "")
        )
    )
    figure.text(
        0.985,
        0.015,
        f"varroom \u00b7 {note}",
        color="#cbd5e1",
        fontsize=max(8, 11 * scale),
        ha="right",
        va="bottom",
        path_effects=_HALO,
    )
