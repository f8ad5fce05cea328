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
from collections.abc import Collection

import numpy as np
from matplotlib import patheffects
from matplotlib.artist import Artist
from matplotlib.axes import Axes
from matplotlib.backend_bases import RendererBase
from matplotlib.collections import LineCollection
from matplotlib.figure import Figure
from matplotlib.lines import Line2D
from matplotlib.patches import Polygon
from matplotlib.text import Text
from matplotlib.transforms import Bbox

from varroom.engine.judgement import LineSetter, Reach, Reference
from varroom.engine.verdict import Verdict
from varroom.model.camera import Camera, Floats, clip_segment
from varroom.model.situation import Position, Situation
from varroom.output_file import FIGURE_FORMATS, FIGURE_SUFFIXES, check_target, write_atomically
from varroom.pictures import PictureError, style, typeset
from varroom.pictures.body import POSE
from varroom.pictures.canvas import DPI, pixel_figure
from varroom.pictures.geometry import pitch_lines
from varroom.pictures.marks import ball_mark, dots, polyline
from varroom.pictures.placement import Spot, around, cost, outside, overlap, place
from varroom.pictures.story import Story
from varroom.pictures.topdown import STRIPES
from varroom.pictures.typeset import HAlign

WALL_HEIGHT_M = 2.4
# What the attacker's label keeps clear of: players, numbers, marks, the line's label.
_TAKEN = (
    "broadcast-player:",
    "broadcast-post:",
    "broadcast-number:",
    "broadcast-ball",
    "broadcast-reach",
    "broadcast-second-last",
    "broadcast-line-label",
    "broadcast-reach-label",
    "broadcast-headline",
    "broadcast-margin",
    "broadcast-note",
)


def write_camera_view(situation: Situation, verdict: Verdict, path: str | os.PathLike[str]) -> None:
    """`varroom check --broadcast`: the picture in the situation's own camera (`$.camera`,
    which the command has checked is there)."""
    assert situation.camera is not None
    write_broadcast(situation, verdict, situation.camera, path)


def write_broadcast(
    situation: Situation, verdict: Verdict, camera: Camera, path: str | os.PathLike[str]
) -> None:
    """Write the broadcast-perspective picture as a PNG of the camera's size."""
    target = check_target(path, "broadcast picture", FIGURE_SUFFIXES)
    figure = draw_broadcast(situation, verdict, camera)
    write_atomically(
        target,
        "broadcast picture",
        lambda stream: figure.savefig(
            stream, format=FIGURE_FORMATS[target.suffix.lower()], dpi=DPI
        ),
    )


def line_segment(camera: Camera, x_m: float, situation: Situation) -> Floats | None:
    """The pitch line x = x_m from touchline to touchline, in pixels (None when not in view)."""
    hw = situation.pitch.half_width_m
    return camera.project_segment((x_m, -hw, 0.0), (x_m, hw, 0.0))


def draw_broadcast(situation: Situation, verdict: Verdict, camera: Camera) -> Figure:
    """The picture as a Figure (not attached to pyplot), camera.size pixels."""
    width, height = camera.size
    story = Story(situation, verdict)
    figure, ax = pixel_figure(width, height)
    if camera.image is not None:
        _still(ax, camera)
    else:
        _blank_frame(ax, situation, camera)
        _players(ax, story, camera)
    line_label = _overlay(ax, story, camera)
    _clear_numbers(ax, figure.canvas.get_renderer())  # type: ignore[attr-defined]
    _banner(figure, story, camera)
    if line_label is not None:
        label, spots = line_label
        renderer = figure.canvas.get_renderer()  # type: ignore[attr-defined]
        taken = _taken(figure, renderer, exclude=[label])
        place(label, spots, taken, renderer, ax.get_window_extent(renderer))
    return figure


def _taken(figure: Figure, renderer: RendererBase, exclude: Collection[Artist] = ()) -> list[Bbox]:
    """The boxes of what a label must keep clear of: players, numbers, marks, labels."""
    return [
        _extent(artist, renderer)
        for artist in figure.findobj(lambda a: str(a.get_gid() or "").startswith(_TAKEN))
        if artist not in exclude
    ]


def _extent(artist: Artist, renderer: RendererBase) -> Bbox:
    if isinstance(artist, Text) and artist.get_bbox_patch() is not None:
        artist.update_bbox_position_size(renderer)
        patch = artist.get_bbox_patch()
        assert patch is not None
        return Bbox.union([artist.get_window_extent(renderer), patch.get_window_extent(renderer)])
    return artist.get_window_extent(renderer)


def _clear_numbers(ax: Axes, renderer: RendererBase) -> None:
    """Leave out a shirt number cut by the frame or under the ball or a measured point: it
    could not be read, and the mark matters more."""
    frame = ax.get_window_extent(renderer)
    marks = [
        line.get_window_extent(renderer)
        for line in ax.lines
        if line.get_gid() in ("broadcast-ball", "broadcast-reach", "broadcast-second-last")
    ]
    for text in list(ax.texts):
        if not str(text.get_gid() or "").startswith("broadcast-number:"):
            continue
        box = text.get_window_extent(renderer)
        if any(overlap(box, mark) for mark in marks) or outside(box, frame) > 0:
            text.remove()


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
            Polygon(surround, closed=True, facecolor=style.SURROUND_FAR, edgecolor="none", zorder=0)
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
            edge = style.RING if pid in key else style.INK
            ax.add_line(
                Line2D(
                    [foot[0], shoulders[0]],
                    [foot[1], shoulders[1]],
                    color=colour,
                    lw=size * 72 / DPI,
                    solid_capstyle="round",
                    zorder=4,
                    gid=f"broadcast-post:{pid}",
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
                    gid=f"broadcast-player:{pid}",
                )
            )
            number = story.s.players[pid].number
            if number is not None:
                ax.text(
                    head[0],
                    head[1] - 6,
                    str(number),
                    color=colour,
                    fontproperties=typeset.font(9, "bold"),
                    ha="center",
                    va="bottom",
                    zorder=5,
                    clip_on=True,
                    gid=f"broadcast-number:{pid}",
                    path_effects=[patheffects.withStroke(linewidth=2.5, foreground=style.SHADOW)],
                )
        else:
            ax.add_line(
                Line2D(
                    [foot[0]],
                    [foot[1]],
                    marker="o",
                    markersize=10,
                    color=colour,
                    markeredgecolor=style.RING if pid in key else style.INK,
                    ls="",
                    zorder=4,
                    gid=f"broadcast-player:{pid}",
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


def _overlay(ax: Axes, story: Story, camera: Camera) -> tuple[Text, list[Spot]] | None:
    """The line, the wall, the marks and the attacker's label; the line's label and the spots
    it may take, when the line is in the frame."""
    s, line = story.s, story.line
    if line is None:
        return None
    line_label: tuple[Text, list[Spot]] | None = None
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
                    facecolor=style.WALL,
                    alpha=0.22,
                    edgecolor=style.WALL_EDGE,
                    linewidth=1.2,
                    zorder=6,
                    gid="broadcast-wall",
                )
            )
    if abs(line.ball_x_m - line.x_m) > 1e-9:
        ball_seg = line_segment(camera, line.ball_x_m, s)
        if ball_seg is not None:
            polyline(
                ax, ball_seg[:, 0], ball_seg[:, 1], style.LINE, 1.6, (8, 6), 0.7, 6.5,
                "broadcast-ball-line",
            )  # fmt: skip
    seg = line_segment(camera, line.x_m, s)
    if seg is not None:
        polyline(
            ax,
            seg[:, 0],
            seg[:, 1],
            style.LINE,
            3.2,
            zorder=7,
            gid="broadcast-offside-line",
            solid_capstyle="butt",
            path_effects=typeset.halo(6, style.SHADOW, 0.45),
        )
        # The label on the line, from where it enters the frame nearest the top down, at the first
        # spot clear of everything else (placed last, in `_place_line_label`).
        inside = clip_segment(seg, (0.0, 0.0, float(width), float(height)))
        if inside is not None:
            top, bottom = sorted(inside, key=lambda uv: float(uv[1]))
            spots = [
                Spot(dx, 14, "left" if dx > 0 else "right", "top", (float(u), float(v)))
                for t in np.linspace(0.0, 0.9, 10)
                for u, v in [top + t * (bottom - top)]
                for dx in (8, -8)
            ]
            label = ax.annotate(
                story.line_label(),
                top,
                xytext=(8, 14),
                textcoords="offset points",
                color=style.LINE,
                fontproperties=typeset.font(13, "bold"),
                ha="left",
                va="top",
                zorder=9,
                path_effects=typeset.halo(4, alpha=0.9),
                annotation_clip=False,
                gid="broadcast-line-label",
            )
            line_label = (label, spots)
    colour = style.margin_colour(story.margin)
    focus = story.focus_judged
    reach_at: tuple[float, float] | None = None
    if focus is not None:
        point = _reach_point(focus.reach, story.touch.positions.get(focus.player), camera)
        uv = camera.project([point])[0]
        if _in_frame(uv, width, height):
            if camera.sees_height and point[2] > 0:
                ground = camera.project([(point[0], point[1], 0.0)])[0]
                polyline(
                    ax, [uv[0], ground[0]], [uv[1], ground[1]], colour, 1.2, (3, 3), zorder=7.5
                )
            level = camera.project([(line.x_m, point[1], point[2])])[0]
            if np.all(np.isfinite(level)):
                polyline(ax, [level[0], uv[0]], [level[1], uv[1]], colour, 3, zorder=7.6)
            dots(
                ax,
                [uv[0]],
                [uv[1]],
                s=121,
                color=colour,
                edgecolors=style.RING,
                linewidths=2,
                zorder=8,
                gid="broadcast-reach",
            )
            reach_at = (float(uv[0]), float(uv[1]))
    bx, by, bz = story.touch.ball_m
    ball = camera.project([(bx, by, bz if camera.sees_height else 0.0)])[0]
    if _in_frame(ball, width, height):
        ball_mark(ax, [ball[0]], [ball[1]], gid="broadcast-ball")
    second = line.second_last_reach
    if (
        second is not None
        and line.second_last is not None
        and line.set_by is LineSetter.SECOND_LAST_OPPONENT
    ):
        point = _reach_point(second, story.touch.positions.get(line.second_last), camera)
        uv = camera.project([point])[0]
        if _in_frame(uv, width, height):
            dots(
                ax,
                [uv[0]],
                [uv[1]],
                s=81,
                marker="D",
                color=style.DEFENDERS,
                edgecolors=style.INK,
                linewidths=1.5,
                zorder=8,
                gid="broadcast-second-last",
            )
    attacker = story.attacker()
    if reach_at is not None and attacker is not None:
        _reach_label(ax, story, attacker.name, attacker.point, reach_at, colour)
    return line_label


def _in_frame(uv: Floats, width: int, height: int) -> bool:
    return bool(np.all(np.isfinite(uv)) and 0 <= uv[0] <= width and 0 <= uv[1] <= height)


def _reach_label(
    ax: Axes, story: Story, name: str, point: str, at: tuple[float, float], colour: str
) -> None:
    """The attacker's name, the part measured and the margin, beside his point where it covers
    no player, no mark and no other label."""
    part = point if point != "tracked position" else ""
    text = name + (f" \u00b7 {part}" if part else "")
    if story.margin_text():
        text += f"\n{story.margin_text()} {story.margin_caption()}"
    label = ax.annotate(
        text,
        at,
        xytext=(14, -14),
        textcoords="offset points",
        **typeset.NAME.but(size=13, colour=colour, ha="left", zorder=9, halo=4).kwargs(),
        gid="broadcast-reach-label",
        annotation_clip=False,
    )
    figure = ax.get_figure()
    assert isinstance(figure, Figure)
    renderer = figure.canvas.get_renderer()  # type: ignore[attr-defined]
    taken = _taken(figure, renderer, exclude=[label])
    place(label, around(16) + around(36), taken, renderer, ax.get_window_extent(renderer))


def _banner(figure: Figure, story: Story, camera: Camera) -> None:
    """The decision and the margin in the top corner (else the bottom left one) where they cover
    the fewest players and marks."""
    height = camera.size[1]
    scale = height / 1080
    renderer = figure.canvas.get_renderer()  # type: ignore[attr-defined]
    # Boxed, on a dark ground, in a corner (set by `_to_corner`).
    banner = typeset.TextStyle(
        max(10, 20 * scale),
        va="top",
        box=typeset.LabelBox(facecolor=style.BACKGROUND, shape="square", pad=0.35, alpha=0.85),
    )
    texts = [
        typeset.put(
            figure,
            0.02,
            0.965,
            story.headline,
            banner.but(size=max(18, 52 * scale), colour=story.colour, headline=True),
            gid="broadcast-headline",
        )
    ]
    margin = story.margin_text()
    corners: tuple[tuple[HAlign, bool], ...] = (("left", True), ("right", True), ("left", False))
    if not margin:
        _to_corner(figure, texts, corners, renderer)
    else:
        what, when = f"{margin} {story.margin_caption()}", f"when {story.played_label()}"
        texts.append(typeset.put(figure, 0.02, 0.9, what, banner, gid="broadcast-margin"))
        # On one line, else on two (half as wide) where they cover less: chosen from the boxes
        # as drawn, in the font they are drawn in, not from a guess at the text's width.
        layouts = (f"{what}  \u00b7  {when}", f"{what}\n{when}")
        covered = []
        for words in layouts:
            texts[-1].set_text(words)
            covered.append(_to_corner(figure, texts, corners, renderer))
            if covered[-1] == 0:
                break
        if covered[-1] > min(covered):
            texts[-1].set_text(layouts[covered.index(min(covered))])
            _to_corner(figure, texts, corners, renderer)
    note = (
        "camera: projection matrix"
        if camera.kind == "projection"
        else (
            "camera: ground homography"
            + (f" (fit {camera.rms_px:.1f} px rms)" if camera.rms_px is not None else "")
        )
    )
    label = typeset.put(
        figure,
        0.985,
        0.015,
        f"varroom \u00b7 {note}",
        banner.but(size=max(8, 11 * scale), colour=style.PALE),
        gid="broadcast-note",
    )
    _to_corner(figure, [label], (("right", False), ("left", False), ("right", True)), renderer)


def _to_corner(
    figure: Figure,
    texts: list[Text],
    corners: tuple[tuple[HAlign, bool], ...],
    renderer: RendererBase,
) -> float:
    """Stack `texts` in the corner, of `corners` (side, top?), where they cover least of the
    players, marks and other labels; the first such. How much they cover there (0: nothing)."""
    width, height = int(figure.bbox.width), int(figure.bbox.height)
    taken = _taken(figure, renderer, exclude=texts)
    scores = [
        sum(
            cost(box, taken, figure.bbox) for box in _stack(texts, ha, top, renderer, width, height)
        )
        for ha, top in corners
    ]
    ha, top = corners[scores.index(min(scores))]
    _stack(texts, ha, top, renderer, width, height)
    return min(scores)


def _stack(
    texts: list[Text], ha: HAlign, top: bool, renderer: RendererBase, width: int, height: int
) -> list[Bbox]:
    """Set boxed texts one under the other in a corner (2% in from its edges); their boxes."""
    x = 0.02 if ha == "left" else 0.98
    y_px = 0.965 * height if top else 0.035 * height
    boxes: list[Bbox] = []
    order = texts if top else texts[::-1]
    for text in order:
        text.set_horizontalalignment(ha)
        text.set_verticalalignment("top" if top else "bottom")
        pad_px = 0.35 * float(text.get_fontsize()) * DPI / 72
        text.set_position((x, (y_px - pad_px if top else y_px + pad_px) / height))
        text.update_bbox_position_size(renderer)
        patch = text.get_bbox_patch()
        assert patch is not None
        box = patch.get_window_extent(renderer)
        boxes.append(box)
        y_px = box.y0 - 8 if top else box.y1 + 8
    return boxes
