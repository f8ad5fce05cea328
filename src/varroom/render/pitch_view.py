"""The pitch at the judged touch, zoomed on the action: the offside line, the ball's path, the
players, the attacker's nearest counting part, and their labels. The magnifier is a second,
closer `PitchView` of the same scene."""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence

from matplotlib import patheffects
from matplotlib.axes import Axes
from matplotlib.lines import Line2D
from matplotlib.patches import FancyArrowPatch, Rectangle

from varroom.engine.judgement import LineSetter
from varroom.model.situation import OffField, Position
from varroom.render.frame import Box, grow
from varroom.render.labels import Placer, overlap
from varroom.render.markers import dots
from varroom.render.scene import Scene, signed_distance
from varroom.render.style import (
    ATTACKERS,
    DEFENDERS,
    LINE_COLOUR,
    MIN_SPAN_M,
    MUTED,
    NEAR_GOAL_M,
    OUTSIDE_M,
    PAD_M,
    PENALTY_AREA_M,
    PITCH_COLOUR,
    STRIPE_COLOUR,
    STROKE,
    margin_colour,
)


class PitchView:
    """The pitch at the judged touch, in a box of the pitch: the main view or its magnifier."""

    def __init__(self, ax: Axes, scene: Scene, box: Box | None = None, zoom: bool = False) -> None:
        self.ax = ax
        self.scene = scene
        self.frame = scene.frame
        self.zoom = zoom
        self.gid = "zoom:" if zoom else ""
        self.given_box = box
        self.box: Box = (0.0, 0.0, 0.0, 0.0)
        self.hidden: Box | None = None  # a part of the view covered by the magnifier
        self.edge_boxes: list[Box] = []  # labels along the edges, in metres

    def draw(self) -> None:
        ax, scene = self.ax, self.scene
        self.frame.draw_pitch(ax, linewidth=1.6, stripe=not self.zoom, stripe_color=STRIPE_COLOUR)
        ax.set_facecolor(PITCH_COLOUR)
        self.box = self.given_box or _fit(self._view_box(), ax, scene)
        x0, y0, x1, y1 = self.box
        ax.set_xlim(self.frame.px(x0), self.frame.px(x1))
        ax.set_ylim(self.frame.py(y0), self.frame.py(y1))
        ax.set_aspect("equal", adjustable="box")
        ax.apply_aspect()
        for spine in ax.spines.values():
            spine.set_visible(True)
            spine.set_color("#cbd5e1" if self.zoom else "#334155")
            spine.set_linewidth(1.4 if self.zoom else 1.0)
        self.placer = Placer(ax)

    def draw_content(self) -> None:
        """Everything on the pitch; after `draw`, and after the magnifier was placed."""
        self._lines()
        self._ball_path()
        self._players()
        self._reach()
        self._labels()

    # The part of the pitch to show, in situation metres, before fitting the axes.
    def _view_box(self) -> Box:
        scene = self.scene
        points = list(action_points(scene)) or [(0.0, 0.0)]
        xs = [p[0] for p in points]
        ys = [p[1] for p in points]
        x0, x1 = min(xs) - PAD_M, max(xs) + PAD_M
        y0, y1 = min(ys) - PAD_M, max(ys) + PAD_M
        half_l = scene.s.pitch.length_m / 2
        goal_x = scene.sign * half_l
        if max(scene.sign * x for x in xs) >= half_l - NEAR_GOAL_M:
            area_depth, area_width = PENALTY_AREA_M
            inner = goal_x - scene.sign * (area_depth + 2.0)
            outer = goal_x + scene.sign * 3.0
            x0, x1 = min(x0, inner, outer), max(x1, inner, outer)
            y0, y1 = min(y0, -area_width / 2 - 1.5), max(y1, area_width / 2 + 1.5)
        return x0, y0, x1, y1

    def _lines(self) -> None:
        ax, scene, frame = self.ax, self.scene, self.frame
        line = scene.line
        if line is None:
            return
        half = scene.s.pitch.width_m / 2
        top, bottom = frame.py(half), frame.py(-half)
        if abs(line.ball_x_m - line.x_m) > 1e-9:
            ax.add_artist(
                Line2D(
                    [frame.px(line.ball_x_m)] * 2,
                    [bottom, top],
                    color=LINE_COLOUR,
                    linewidth=1.1,
                    linestyle=(0, (6, 5)),
                    alpha=0.6,
                    zorder=3,
                    gid=self.gid + "ball-line",
                )
            )
        spread = scene.v.uncertainty
        if spread is not None and spread.margin_se_m > 0:
            # The 95% band of the margin drawn about the line: an attacker's mark inside it
            # is a call the data cannot settle (docs/uncertainty.md).
            half_band = 1.96 * spread.margin_se_m
            ax.add_patch(
                Rectangle(
                    (frame.px(line.x_m - half_band), bottom),
                    2 * half_band,
                    top - bottom,
                    facecolor=LINE_COLOUR,
                    alpha=0.16,
                    linewidth=0,
                    zorder=3.1,
                    gid=self.gid + "uncertainty-band",
                )
            )
        ax.add_artist(
            Line2D(
                [frame.px(line.x_m)] * 2,
                [bottom, top],
                color=LINE_COLOUR,
                linewidth=2.4,
                zorder=3.2,
                gid=self.gid + "offside-line",
                path_effects=[
                    patheffects.withStroke(linewidth=4.5, foreground="#0b1510", alpha=0.5)
                ],
            )
        )
        reach = line.second_last_reach
        if reach is not None:
            dots(
                ax,
                [frame.px(reach.x_m)],
                [frame.py(reach.y_m)],
                s=40,
                marker="D",
                color=LINE_COLOUR if line.set_by is LineSetter.SECOND_LAST_OPPONENT else MUTED,
                edgecolors="#0b1510",
                linewidths=1,
                zorder=8.8,
                gid=self.gid + "second-last-reach",
            )

    def _edge_label(self, x_m: float, text: str, top_edge: bool, colour: str, bold: bool) -> None:
        """A label at the top or bottom edge of the view, beside a line: behind it if it fits,
        clear of the magnifier and of the labels already placed."""
        x0, y0, x1, y1 = self.box
        if not x0 < x_m < x1:
            return
        size = 10.5 if bold else 9
        width_px, height_px = self.placer.size(text, size, "bold" if bold else "normal", pad=0.3)
        metres_per_px = (x1 - x0) / self.ax.get_window_extent().width
        width_m, height_m = width_px * metres_per_px, height_px * metres_per_px
        inset = 8 * metres_per_px
        behind = -self.scene.sign  # away from the goal attacked
        fitting = []
        for top, side in (
            (top_edge, behind),
            (top_edge, -behind),
            (not top_edge, behind),
            (not top_edge, -behind),
        ):
            left = x_m + inset if side > 0 else x_m - inset - width_m
            y = y1 - inset if top else y0 + inset
            box = (left, y - height_m if top else y, left + width_m, y if top else y + height_m)
            if x0 <= box[0] and box[2] <= x1:
                clear = (self.hidden is None or overlap(box, self.hidden) == 0) and not any(
                    overlap(box, other) for other in self.edge_boxes
                )
                fitting.append((not clear, top, side, y))
        if fitting:
            _, top, side, y = min(fitting, key=lambda f: f[0])  # stable: first clear one
        else:
            top, side, y = top_edge, behind, y1 - inset if top_edge else y0 + inset
        left = x_m + inset if side > 0 else x_m - inset - width_m
        self.edge_boxes.append(
            (left, y - height_m if top else y, left + width_m, y if top else y + height_m)
        )
        x, y = self.frame.plot(x_m + side * inset, y)
        self.ax.text(
            x,
            y,
            text,
            color=colour,
            fontsize=size,
            fontweight="bold" if bold else "normal",
            ha="left" if side > 0 else "right",
            va="top" if top else "bottom",
            zorder=9,
            clip_on=True,
            gid=self.gid + ("offside-line-label" if bold else "ball-line-label"),
            bbox=dict(boxstyle="round,pad=0.3", facecolor="#0b1510", edgecolor="none", alpha=0.7),
        )
        cx, cy = self.placer.display((x, y))
        dy = -height_px if top else height_px
        self.placer.taken.append(
            (
                min(cx, cx + side * width_px) - 4,
                min(cy, cy + dy) - 4,
                max(cx, cx + side * width_px) + 4,
                max(cy, cy + dy) + 4,
            )
        )

    def _ball_path(self) -> None:
        ax, scene, frame = self.ax, self.scene, self.frame
        points = [frame.plot(*scene.s.touches[i].ball_m[:2]) for i in scene.path]
        if len(points) > 1:
            ax.add_artist(
                Line2D(
                    [p[0] for p in points],
                    [p[1] for p in points],
                    color="#e2e8f0",
                    linewidth=1.4,
                    linestyle=(0, (4, 3)),
                    alpha=0.85,
                    zorder=4,
                    gid=self.gid + "ball-path",
                )
            )
            for start, end in zip(points, points[1:], strict=False):
                if math.dist(start, end) < 1.0:
                    continue
                # An arrowhead two thirds along each pass: the dashed line is the shaft.
                tip = (start[0] + (end[0] - start[0]) * 0.62, start[1] + (end[1] - start[1]) * 0.62)
                ax.add_artist(
                    FancyArrowPatch(
                        start,
                        tip,
                        arrowstyle="-|>",
                        mutation_scale=15,
                        color="#e2e8f0",
                        linewidth=0,
                        shrinkA=0,
                        shrinkB=0,
                        zorder=4.1,
                    )
                )
        for index, point in zip(scene.path, points, strict=True):
            if index != scene.judged_at:
                dots(
                    ax,
                    [point[0]],
                    [point[1]],
                    s=95,
                    color="#f8fafc",
                    edgecolors="#0b1510",
                    linewidths=0.9,
                    zorder=8.2,
                    gid=f"{self.gid}touch:{index}",
                )
                ax.text(
                    point[0],
                    point[1],
                    str(index + 1),
                    color="#0b1510",
                    fontsize=6.5,
                    fontweight="bold",
                    ha="center",
                    va="center",
                    zorder=8.3,
                    clip_on=True,
                )
        ball = scene.touch.ball_m if scene.touch is not None else None
        if ball is not None:
            x, y = frame.plot(ball[0], ball[1])
            dots(
                ax,
                [x],
                [y],
                s=130,
                color="white",
                edgecolors="black",
                linewidths=1.5,
                zorder=8.5,
                gid=self.gid + "ball",
            )
            dots(ax, [x], [y], s=16, color="black", marker="p", zorder=8.6, linewidths=0)

    def shows(self, where: Position, margin_m: float) -> bool:
        """Whether a player's spot is in the view (or within `margin_m` of it)."""
        x0, y0, x1, y1 = self.box
        return (
            x0 - margin_m <= where.x_m <= x1 + margin_m
            and y0 - margin_m <= where.y_m <= y1 + margin_m
        )

    def _players(self) -> None:
        ax, scene, frame = self.ax, self.scene, self.frame
        touch = scene.touch
        if touch is None:
            return
        second_last = scene.line.second_last if scene.line is not None else None
        for player_id, where in touch.positions.items():
            attacker = scene.is_attacker(player_id)
            player = scene.player(player_id)
            keeper = player is not None and player.goalkeeper
            colour = ATTACKERS if attacker else DEFENDERS
            x, y = frame.plot(where.x_m, where.y_m)
            faded = where.off_field is OffField.WITH_PERMISSION
            emphasis = player_id in (scene.focus, second_last)
            dots(
                ax,
                [x],
                [y],
                s=(330 if emphasis else 270) * (1.25 if self.zoom else 1.0),
                marker="s" if keeper else "o",
                color=colour,
                edgecolors="white" if attacker else "#111827",
                linewidths=2.0 if emphasis else 1.2,
                linestyle="--" if where.off_field is not None else "-",
                alpha=0.4 if faded else 0.95,
                zorder=7 if emphasis else 6.5,
                gid=f"{self.gid}player:{player_id}",
            )
            if player is not None and player.number is not None and self.shows(where, 1.0):
                ax.text(
                    x,
                    y,
                    str(player.number),
                    color="white" if attacker else "#111827",
                    fontsize=8 if not self.zoom else 9,
                    fontweight="bold",
                    ha="center",
                    va="center",
                    zorder=7.5,
                    clip_on=True,
                )
            if where.parts and (emphasis or self.zoom):
                self._parts(where, colour)
        if self._ghost() is not None and not self.zoom:
            then = scene.position(scene.focus, scene.judged_at)
            ghost = self._ghost()
            assert ghost is not None
            x, y = frame.plot(ghost.x_m, ghost.y_m)
            dots(
                ax,
                [x],
                [y],
                s=270,
                color=ATTACKERS,
                alpha=0.3,
                edgecolors="white",
                linewidths=1.2,
                linestyle="--",
                zorder=5.5,
                gid=f"involved:{scene.focus}",
            )
            if then is not None and math.dist((then.x_m, then.y_m), (ghost.x_m, ghost.y_m)) > 1.5:
                ax.add_artist(
                    FancyArrowPatch(
                        frame.plot(then.x_m, then.y_m),
                        (x, y),
                        arrowstyle="-|>",
                        mutation_scale=12,
                        color=ATTACKERS,
                        alpha=0.7,
                        linewidth=1.2,
                        linestyle=(0, (2, 2)),
                        shrinkA=11,
                        shrinkB=11,
                        zorder=5.4,
                    )
                )

    def _ghost(self) -> Position | None:
        scene = self.scene
        if scene.focus is None or scene.involved_at is None or scene.involved_at == scene.judged_at:
            return None
        return scene.position(scene.focus, scene.involved_at)

    def _ghost_played_it(self) -> bool:
        """The focus player played the ball when involved: the numbered touch says so already."""
        scene = self.scene
        return (
            scene.involved_at is not None
            and scene.s.touches[scene.involved_at].player == scene.focus
        )

    def _parts(self, where: Position, colour: str) -> None:
        frame = self.frame
        counting = [p for p in where.parts if p.part.counts_for_offside]
        arms = [p for p in where.parts if not p.part.counts_for_offside]
        if counting:
            dots(
                self.ax,
                [frame.px(p.x_m) for p in counting],
                [frame.py(where.y_m if p.y_m is None else p.y_m) for p in counting],
                s=12,
                color=colour,
                edgecolors="white",
                linewidths=0.6,
                zorder=7.8,
            )
        if arms:
            dots(
                self.ax,
                [frame.px(p.x_m) for p in arms],
                [frame.py(where.y_m if p.y_m is None else p.y_m) for p in arms],
                s=18,
                marker="x",
                color="#e2e8f0",
                linewidths=1.1,
                zorder=7.8,
            )

    def _reach(self) -> None:
        ax, scene, frame = self.ax, self.scene, self.frame
        receiver = scene.receiver
        if receiver is not None:
            colour = margin_colour(receiver.margin_m)
            rx, ry = frame.plot(receiver.reach.x_m, receiver.reach.y_m)
            ax.add_artist(
                Line2D(
                    [rx, rx],
                    [ry - 2.0, ry + 2.0],
                    color=colour,
                    linewidth=1.8,
                    zorder=7.9,
                    alpha=0.9,
                    gid=self.gid + "receiver-reach-line",
                )
            )
            dots(
                ax,
                [rx],
                [ry],
                s=45,
                marker="X",
                color=colour,
                edgecolors="white",
                linewidths=0.8,
                zorder=9,
                gid=self.gid + "receiver-reach-point",
            )
        judged = scene.focus_judged
        if judged is None:
            return
        colour = margin_colour(scene.margin)
        reach = judged.reach
        rx, ry = frame.plot(reach.x_m, reach.y_m)
        if scene.line is not None:
            half = 1.2 if self.zoom else 3.0
            lx = frame.px(scene.line.x_m)
            ax.fill_between(
                [min(lx, rx), max(lx, rx)],
                ry - half,
                ry + half,
                color=colour,
                alpha=0.3,
                linewidth=0,
                zorder=3.1,
            )
            ax.add_artist(
                Line2D(
                    [rx, rx],
                    [ry - half, ry + half],
                    color=colour,
                    linewidth=2.4,
                    zorder=7.9,
                    gid=self.gid + "reach-line",
                )
            )
        dots(
            ax,
            [rx],
            [ry],
            s=60 if not self.zoom else 80,
            marker="X",
            color=colour,
            edgecolors="white",
            linewidths=0.9,
            zorder=9,
            gid=self.gid + "reach-point",
        )

    def _labels(self) -> None:
        scene, placer = self.scene, self.placer
        touch = scene.touch
        # What the labels must not cover: the magnifier, the markers, the balls.
        if self.hidden is not None:
            hx0, hy0, hx1, hy1 = self.hidden
            a, b = (
                placer.display(self.frame.plot(hx0, hy0)),
                placer.display(self.frame.plot(hx1, hy1)),
            )
            placer.taken.append(
                (min(a[0], b[0]), min(a[1], b[1]), max(a[0], b[0]), max(a[1], b[1]))
            )
        if touch is not None:
            for where in touch.positions.values():
                placer.block(self.frame.plot(where.x_m, where.y_m), 11 if not self.zoom else 12)
        for index in scene.path:
            placer.block(self.frame.plot(*scene.s.touches[index].ball_m[:2]), 6)
        ghost = self._ghost()
        if ghost is not None and not self.zoom:
            placer.block(self.frame.plot(ghost.x_m, ghost.y_m), 11)
        line = scene.line
        if line is not None:
            caption = scene.line_caption() if not self.zoom else "offside line"
            self._edge_label(line.x_m, caption, top_edge=True, colour=LINE_COLOUR, bold=True)
            if abs(line.ball_x_m - line.x_m) > 1e-9:
                self._edge_label(line.ball_x_m, "ball", top_edge=False, colour=MUTED, bold=False)
        judged = scene.focus_judged
        if judged is not None and scene.margin is not None:
            margin = scene.margin
            text = scene.reach_caption()
            if margin is not None:
                text = f"{signed_distance(margin)}  {text}"
            toward = int(scene.sign)
            placer.place(
                self.frame.plot(judged.reach.x_m, judged.reach.y_m),
                text,
                11.5,
                18,
                pad=0.3,
                offsets=(
                    (toward, 1),
                    (toward, -1),
                    (toward, 0),
                    (-toward, 1),
                    (-toward, -1),
                    (0, 1),
                    (0, -1),
                ),
                color="white",
                fontweight="bold",
                zorder=10,
                gid=self.gid + "margin-label",
                bbox=dict(
                    boxstyle="round,pad=0.3",
                    facecolor=margin_colour(margin),
                    alpha=0.92,
                    edgecolor="none",
                ),
                arrowprops=dict(
                    arrowstyle="-",
                    color=margin_colour(margin),
                    linewidth=1.3,
                    shrinkA=0,
                    shrinkB=4,
                ),
            )
        receiver = scene.receiver
        if receiver is not None and not self.zoom:
            colour = margin_colour(receiver.margin_m)
            placer.place(
                self.frame.plot(receiver.reach.x_m, receiver.reach.y_m),
                f"{signed_distance(receiver.margin_m)}  {scene.short(receiver.player)}",
                10,
                14,
                pad=0.25,
                color="white",
                fontweight="bold",
                zorder=10,
                gid="receiver-margin-label",
                bbox=dict(
                    boxstyle="round,pad=0.25", facecolor=colour, alpha=0.85, edgecolor="none"
                ),
                arrowprops=dict(arrowstyle="-", color=colour, linewidth=1.0, shrinkA=0, shrinkB=4),
            )
        if ghost is not None and not self.zoom and not self._ghost_played_it():
            assert scene.involved_at is not None
            placer.place(
                self.frame.plot(ghost.x_m, ghost.y_m),
                f"{scene.short(scene.focus)} at touch {scene.involved_at + 1}",
                8.5,
                10,
                color="#bfdbfe",
                fontstyle="italic",
                zorder=8,
                path_effects=STROKE,
            )
        important = [p for p in (scene.focus, line.second_last if line else None) if p]
        if touch is not None:
            ordered = [p for p in important if p in touch.positions]
            ordered += [p for p in touch.positions if p not in important]
            if not self.zoom:
                ordered = ordered[: len(important)]
            self._player_labels(ordered, important)
        if not self.zoom:
            if scene.touch is not None:
                ball = scene.touch.ball_m
                placer.place(
                    self.frame.plot(ball[0], ball[1]),
                    str(scene.judged_at + 1),
                    8.5,
                    7,
                    offsets=((-1, -1), (1, -1), (-1, 1), (1, 1), (0, -1), (0, 1)),
                    color="#0b1510",
                    fontweight="bold",
                    zorder=8.7,
                    pad=0.25,
                    gid="touch-label:judged",
                    bbox=dict(boxstyle="circle,pad=0.25", facecolor="white", edgecolor="none"),
                )
            if touch is not None:
                rest = [p for p in touch.positions if p not in important]
                self._player_labels(rest, important)

    def _player_labels(self, players: Iterable[str], important: Sequence[str]) -> None:
        touch = self.scene.touch
        assert touch is not None
        for player_id in players:
            where = touch.positions[player_id]
            xy = self.frame.plot(where.x_m, where.y_m)
            if not self.placer.inside(xy):
                continue
            text = self._player_caption(player_id)
            if where.off_field is not None:
                text = f"{text} (off field)".strip()
            if not text:
                continue
            self.placer.place(
                xy,
                text,
                9.5 if player_id in important else 9,
                9,
                color="white",
                fontweight="bold" if player_id in important else "normal",
                zorder=8,
                path_effects=STROKE,
                gid=f"{self.gid}label:{player_id}",
            )

    def _player_caption(self, player_id: str) -> str:
        player = self.scene.player(player_id)
        keeper = player is not None and player.goalkeeper
        if player is not None and player.name:
            name = player.short_label
        elif player is not None and player.number is not None:
            name = ""  # the number is on the marker
        else:
            name = player_id
        if keeper:
            name = f"{name} GK".strip()
        return name


def action_points(scene: Scene) -> Iterable[tuple[float, float]]:
    """What the main view must show: the ball from the judged touch on, the players that decide."""
    for index in scene.path:
        if index >= scene.judged_at:
            ball = scene.s.touches[index].ball_m
            yield ball[0], ball[1]
    for index in (scene.judged_at, scene.involved_at):
        where = scene.position(scene.focus, index)
        if where is not None:
            yield where.x_m, where.y_m
    judged = scene.focus_judged
    if judged is not None:
        yield judged.reach.x_m, judged.reach.y_m
    if scene.receiver is not None:
        yield scene.receiver.reach.x_m, scene.receiver.reach.y_m
    line = scene.line
    if line is not None:
        anchor_y = judged.reach.y_m if judged is not None else 0.0
        if judged is None and scene.touch is not None:
            anchor_y = scene.touch.ball_m[1]
        yield line.x_m, anchor_y
        if line.set_by is not LineSetter.BALL:
            where = scene.position(line.second_last, scene.judged_at)
            if where is not None:
                yield where.x_m, where.y_m


def _fit(box: Box, ax: Axes, scene: Scene) -> Box:
    """The box grown to the minimum size, then to the axes' shape: metres equal on both axes."""
    x0, y0, x1, y1 = box
    half_l, half_w = scene.s.pitch.length_m / 2, scene.s.pitch.width_m / 2
    x_room = (-half_l - OUTSIDE_M, half_l + OUTSIDE_M)
    y_room = (-half_w - OUTSIDE_M, half_w + OUTSIDE_M)
    x0, x1 = grow(x0, x1, MIN_SPAN_M[0], *x_room)
    y0, y1 = grow(y0, y1, MIN_SPAN_M[1], *y_room)
    window = ax.get_window_extent()
    aspect = window.width / window.height
    if (x1 - x0) / (y1 - y0) < aspect:
        x0, x1 = grow(x0, x1, (y1 - y0) * aspect, *x_room)
    else:
        y0, y1 = grow(y0, y1, (x1 - x0) / aspect, *y_room)
    return x0, y0, x1, y1
