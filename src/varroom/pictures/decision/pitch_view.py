"""The pitch at the judged touch, zoomed on the action: the offside line, the ball's path, the
players, the attacker's nearest counting part, and their labels. The magnifier is a second,
closer `PitchView` of the same story. Everything is drawn in situation metres."""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence

from matplotlib.axes import Axes
from matplotlib.lines import Line2D
from matplotlib.patches import Rectangle
from matplotlib.text import Text
from matplotlib.transforms import Bbox

from varroom.engine.explain import signed_distance
from varroom.engine.judgement import LineSetter
from varroom.model.situation import OffField, Position
from varroom.pictures import style
from varroom.pictures.decision.labels import Placer
from varroom.pictures.decision.layout import MIN_SPAN_M, PAD_M
from varroom.pictures.marks import arrow, dots, vline
from varroom.pictures.placement import overlap
from varroom.pictures.story import Story
from varroom.pictures.topdown import Box, draw_pitch, fit_box, shade_unseen
from varroom.pictures.typeset import LINE_LABEL, NUMBER, LabelBox, TextStyle, halo, put

PLAYER_S = 270.0  # a player's marker, points squared
KEY_PLAYER_S = 330.0  # the attacker and the opponent who set the line
BALL_S = 130.0
TOUCH_S = 95.0
REACH_S = 60.0
SECOND_LAST_S = 40.0  # the diamond on the opponent's point that set the line
ZOOM_SCALE = 1.25  # markers in the magnifier

BALL_LINE_LABEL = LINE_LABEL.but(size=9, colour=style.MUTED, weight="normal")
MARGIN_LABEL = TextStyle(11.5, colour=style.RING, weight="bold", zorder=10)
RECEIVER_LABEL = TextStyle(10, colour=style.RING, weight="bold", zorder=10)
GHOST_LABEL = TextStyle(8.5, colour=style.ATTACKERS_PALE, italic=True, zorder=8, halo=3)
PLAYER_LABEL = TextStyle(9, colour=style.RING, zorder=8, halo=3, halo_colour=style.LABEL_BOX)
KEY_PLAYER_LABEL = PLAYER_LABEL.but(size=9.5, weight="bold")
TOUCH_NUMBER = TextStyle(
    8.5,
    colour=style.INK,
    weight="bold",
    zorder=8.7,
    box=LabelBox(style.TOUCH, "circle", 0.25, None),
)


def radius_px(s: float, dpi: float) -> float:
    """A marker's radius in display pixels, from its size in points squared."""
    return math.sqrt(s) / 2 * dpi / 72


class PitchView:
    """The pitch at the judged touch, in a box of the pitch: the main view or its magnifier."""

    def __init__(self, ax: Axes, story: Story, box: Box | None = None, zoom: bool = False) -> None:
        self.ax = ax
        self.story = story
        self.zoom = zoom
        self.gid = "zoom:" if zoom else ""
        self.given_box = box
        self.box: Box = (0.0, 0.0, 0.0, 0.0)
        self.hidden: Box | None = None  # a part of the view covered by the magnifier
        self.edge_boxes: list[Bbox] = []  # labels along the edges, in metres
        self.moved_numbers: list[str] = []  # shirt numbers an icon would hide: set beside
        self.drawn: set[str] = set()  # the players whose markers are in the view, whole

    def draw(self) -> None:
        ax, story = self.ax, self.story
        window = ax.get_window_extent()
        self.box = self.given_box or fit_box(
            story.key_points(),
            story.s.pitch,
            window.width / window.height,
            story.sign,
            pad_m=PAD_M,
            min_span=MIN_SPAN_M,
        )
        draw_pitch(ax, story.s.pitch, self.box, linewidth=1.6)
        shade_unseen(ax, story.s.pitch, story.touch.view, gid=f"{self.gid}unseen")
        ax.apply_aspect()
        for spine in ax.spines.values():
            spine.set_color(style.PALE if self.zoom else style.SPINE)
            spine.set_linewidth(1.4 if self.zoom else 1.0)
        self.placer = Placer(ax)
        self.dpi = self.placer.scale * 72

    def keep_clear(self, text: Text) -> None:
        """Keep the labels of this view off a text already drawn on it (a caption)."""
        box = text.get_window_extent(self.placer.renderer)
        self.placer.taken.append(box)
        self.edge_boxes.append(self.ax.transData.inverted().transform_bbox(box))

    def draw_content(self) -> None:
        """Everything on the pitch; after `draw`, and after the magnifier was placed."""
        self._lines()
        self._ball_path()
        self._players()
        self._reach()
        self._labels()

    def marker_s(self, player_id: str) -> float:
        story = self.story
        key = player_id in (story.focus, story.setter_id())
        return (KEY_PLAYER_S if key else PLAYER_S) * (ZOOM_SCALE if self.zoom else 1.0)

    def icons(self) -> list[tuple[float, float, float]]:
        """The small marks drawn over players (x_m, y_m, radius in pixels): the ball, the
        numbered touches, the measured points."""
        story = self.story
        marks = [
            (
                *story.s.touches[i].ball_m[:2],
                radius_px(TOUCH_S if i != story.judged_at else BALL_S, self.dpi),
            )
            for i in story.path
        ]
        marks.append((*story.touch.ball_m[:2], radius_px(BALL_S, self.dpi)))
        for judged in (story.focus_judged, story.receiver):
            if judged is not None:
                marks.append((judged.reach.x_m, judged.reach.y_m, radius_px(REACH_S, self.dpi)))
        second = None if story.line is None else story.line.second_last_reach
        if second is not None:
            marks.append((second.x_m, second.y_m, radius_px(SECOND_LAST_S, self.dpi)))
        return marks

    def _lines(self) -> None:
        ax, story = self.ax, self.story
        line = story.line
        if line is None:
            return
        half = story.s.pitch.half_width_m
        if abs(line.ball_x_m - line.x_m) > 1e-9:
            vline(
                ax,
                line.ball_x_m,
                -half,
                half,
                style.LINE,
                1.1,
                (6, 5),
                0.6,
                3,
                self.gid + "ball-line",
            )
        spread = story.v.uncertainty
        if spread is not None and spread.margin_se_m > 0:
            # The 95% band of the margin drawn about the line: an attacker's mark inside it
            # is a call the data cannot settle (docs/uncertainty.md).
            half_band = 1.96 * spread.margin_se_m
            ax.add_patch(
                Rectangle(
                    (line.x_m - half_band, -half),
                    2 * half_band,
                    2 * half,
                    facecolor=style.LINE,
                    alpha=0.16,
                    linewidth=0,
                    zorder=3.1,
                    gid=self.gid + "uncertainty-band",
                )
            )
        vline(
            ax,
            line.x_m,
            -half,
            half,
            style.LINE,
            2.4,
            zorder=3.2,
            gid=self.gid + "offside-line",
            path_effects=halo(4.5, style.LABEL_BOX, 0.5),
        )
        reach = line.second_last_reach
        if reach is not None:
            dots(
                ax,
                [reach.x_m],
                [reach.y_m],
                s=SECOND_LAST_S,
                marker="D",
                color=style.LINE if line.set_by is LineSetter.SECOND_LAST_OPPONENT else style.MUTED,
                edgecolors=style.LABEL_BOX,
                linewidths=1,
                zorder=8.8,
                gid=self.gid + "second-last-reach",
            )

    def _edge_label(self, x_m: float, text: str, top_edge: bool, role: TextStyle, gid: str) -> None:
        """A label at the top or bottom edge of the view, beside a line: behind it if it fits,
        clear of the magnifier, of the players and of the labels already placed."""
        x0, y0, x1, y1 = self.box
        if not x0 < x_m < x1:
            return
        width_px, height_px = self.placer.size(text, role)
        metres_per_px = (x1 - x0) / self.ax.get_window_extent().width
        width_m, height_m = width_px * metres_per_px, height_px * metres_per_px
        inset = 8 * metres_per_px
        behind = -self.story.sign  # away from the goal attacked
        players = [
            (where.x_m, where.y_m, radius_px(self.marker_s(pid), self.dpi) * metres_per_px)
            for pid, where in self.story.touch.positions.items()
        ]

        hidden = None if self.hidden is None else Bbox.from_extents(*self.hidden)

        def box_at(top: bool, side: float, step: int) -> Bbox:
            """At the top (or bottom) edge, `step` label heights in from it."""
            left = x_m + inset if side > 0 else x_m - inset - width_m
            y = y1 - inset - step * height_m if top else y0 + inset + step * height_m
            bottom = y - height_m if top else y
            return Bbox.from_extents(left, bottom, left + width_m, bottom + height_m)

        def cost(box: Bbox) -> float:
            under = 0 if hidden is None else overlap(box, hidden)
            labels = sum(overlap(box, other) for other in self.edge_boxes)
            covered = sum(
                overlap(box, Bbox.from_extents(x - r, y - r, x + r, y + r)) > 0
                for x, y, r in players
            )
            return 1000 * (under > 0) + 1000 * (labels > 0) + 100 * covered

        # At its edge first, else the other edge, else a little way in: the first that covers
        # nothing (a step in costs a little).
        choices = [
            (top, side, step)
            for step in range(4)
            for top in (top_edge, not top_edge)
            for side in (behind, -behind)
            if x0 <= box_at(top, side, step).x0 and box_at(top, side, step).x1 <= x1
        ] or [(top_edge, behind, 0)]
        top, side, step = min(choices, key=lambda c: cost(box_at(*c)) + c[2])
        box = box_at(top, side, step)
        self.edge_boxes.append(box)
        put(
            self.ax,
            x_m + side * inset,
            box.y1 if top else box.y0,
            text,
            role.but(ha="left" if side > 0 else "right", va="top" if top else "bottom"),
            gid=self.gid + gid,
            clip_on=True,
        )
        self.placer.block_metres(box)

    def _ball_path(self) -> None:
        ax, story = self.ax, self.story
        points = [story.s.touches[i].ball_m[:2] for i in story.path]
        if len(points) > 1:
            ax.add_artist(
                Line2D(
                    [p[0] for p in points],
                    [p[1] for p in points],
                    color=style.LIGHT,
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
                arrow(
                    ax, (start[0], start[1]), tip, style.LIGHT, 15, zorder=4.1, shrinkA=0, shrinkB=0
                )
        for index, point in zip(story.path, points, strict=True):
            if index != story.judged_at and self._holds(point, TOUCH_S):
                dots(
                    ax,
                    [point[0]],
                    [point[1]],
                    s=TOUCH_S,
                    color=style.TOUCH,
                    edgecolors=style.LABEL_BOX,
                    linewidths=0.9,
                    zorder=8.2,
                    gid=f"{self.gid}touch:{index}",
                )
                put(ax, point[0], point[1], str(index + 1), NUMBER.but(size=6.5, zorder=8.3))
        x, y = story.touch.ball_m[:2]
        if not self._holds((x, y), BALL_S):
            return
        dots(
            ax,
            [x],
            [y],
            s=BALL_S,
            color=style.BALL,
            edgecolors=style.BALL_EDGE,
            linewidths=1.5,
            zorder=8.5,
            gid=self.gid + "ball",
        )
        dots(ax, [x], [y], s=16, color=style.BALL_EDGE, marker="p", zorder=8.6, linewidths=0)

    def shows(self, where: Position, margin_m: float) -> bool:
        """Whether a player's spot is in the view (or within `margin_m` of it)."""
        x0, y0, x1, y1 = self.box
        return (
            x0 - margin_m <= where.x_m <= x1 + margin_m
            and y0 - margin_m <= where.y_m <= y1 + margin_m
        )

    def _whole(self, where: Position, s: float) -> bool:
        """Whether a player's marker fits whole in the view: those it would cut are left out."""
        return self._holds((where.x_m, where.y_m), s)

    def _holds(self, xy: Sequence[float], s: float) -> bool:
        """Whether a marker of size `s` at `xy` (metres) fits whole in the view."""
        x0, y0, x1, y1 = self.box
        r = radius_px(s, self.dpi) * (x1 - x0) / self.ax.get_window_extent().width
        return bool(x0 + r <= xy[0] <= x1 - r and y0 + r <= xy[1] <= y1 - r)

    def _players(self) -> None:
        ax, story = self.ax, self.story
        key = (story.focus, story.setter_id())
        icons = self.icons()
        for player_id, where in story.touch.positions.items():
            attacker = story.is_attacker(player_id)
            player = story.player(player_id)
            keeper = player is not None and player.goalkeeper
            colour = style.ATTACKERS if attacker else style.DEFENDERS
            s = self.marker_s(player_id)
            if not self._whole(where, s):
                continue  # a marker cut at the edge: the map and the close-up show him
            self.drawn.add(player_id)
            emphasis = player_id in key
            dots(
                ax,
                [where.x_m],
                [where.y_m],
                s=s,
                marker="s" if keeper else "o",
                color=colour,
                edgecolors=style.RING if attacker else style.DEFENDER_EDGE,
                linewidths=2.0 if emphasis else 1.2,
                linestyle="--" if where.off_field is not None else "-",
                alpha=0.4 if where.off_field is OffField.WITH_PERMISSION else 0.95,
                zorder=7 if emphasis else 6.5,
                gid=f"{self.gid}player:{player_id}",
            )
            if player is not None and player.number is not None and self.shows(where, 1.0):
                if self._under_icon(where, s, icons):
                    self.moved_numbers.append(player_id)
                else:
                    put(
                        ax,
                        where.x_m,
                        where.y_m,
                        str(player.number),
                        NUMBER.but(
                            size=9 if self.zoom else 8,
                            colour=style.RING if attacker else style.DEFENDER_EDGE,
                            zorder=7.5,
                        ),
                        gid=f"{self.gid}number:{player_id}",
                    )
            if where.parts and (emphasis or self.zoom):
                self._parts(where, colour)
        ghost = self._ghost()
        if ghost is not None and not self.zoom:
            then = story.position(story.focus, story.judged_at)
            dots(
                ax,
                [ghost.x_m],
                [ghost.y_m],
                s=PLAYER_S,
                color=style.ATTACKERS,
                alpha=0.3,
                edgecolors=style.RING,
                linewidths=1.2,
                linestyle="--",
                zorder=5.5,
                gid=f"involved:{story.focus}",
            )
            if then is not None and math.dist((then.x_m, then.y_m), (ghost.x_m, ghost.y_m)) > 1.5:
                arrow(
                    ax,
                    (then.x_m, then.y_m),
                    (ghost.x_m, ghost.y_m),
                    style.ATTACKERS,
                    12,
                    width=1.2,
                    zorder=5.4,
                    alpha=0.7,
                    linestyle=(0, (2, 2)),
                    shrinkA=11,
                    shrinkB=11,
                )

    def _under_icon(
        self, where: Position, s: float, icons: Sequence[tuple[float, float, float]]
    ) -> bool:
        """Whether a ball, touch or measured point sits over the middle of a player's marker,
        where his shirt number would be."""
        x, y = self.placer.display((where.x_m, where.y_m))
        reach = 0.6 * radius_px(s, self.dpi)
        for ix, iy, r in icons:
            px, py = self.placer.display((ix, iy))
            if math.hypot(px - x, py - y) < reach + r:
                return True
        return False

    def _ghost(self) -> Position | None:
        story = self.story
        if story.focus is None or story.involved_at is None or story.involved_at == story.judged_at:
            return None
        return story.position(story.focus, story.involved_at)

    def _ghost_played_it(self) -> bool:
        """The focus player played the ball when involved: the numbered touch says so already."""
        story = self.story
        return (
            story.involved_at is not None
            and story.s.touches[story.involved_at].player == story.focus
        )

    def _parts(self, where: Position, colour: str) -> None:
        """The body parts given: those that count as small dots, arms and hands as crosses."""
        for counts, marker, fill, edge, width in (
            (True, "o", colour, style.RING, 0.6),
            (False, "x", style.LIGHT, None, 1.1),
        ):
            parts = [p for p in where.parts if p.part.counts_for_offside is counts]
            if parts:
                dots(
                    self.ax,
                    [p.x_m for p in parts],
                    [where.y_m if p.y_m is None else p.y_m for p in parts],
                    s=12 if counts else 18,
                    marker=marker,
                    color=fill,
                    edgecolors=edge,
                    linewidths=width,
                    zorder=7.8,
                )

    def _reach(self) -> None:
        story = self.story
        receiver = story.receiver
        if receiver is not None:
            colour = style.margin_colour(receiver.margin_m)
            self._reach_mark(receiver.reach.x_m, receiver.reach.y_m, colour, 2.0, 45, "receiver-")
        judged = story.focus_judged
        if judged is None:
            return
        colour = style.margin_colour(story.margin)
        rx, ry = judged.reach.x_m, judged.reach.y_m
        half = 1.2 if self.zoom else 3.0
        if story.line is not None:
            lx = story.line.x_m
            self.ax.fill_between(
                [min(lx, rx), max(lx, rx)],
                ry - half,
                ry + half,
                color=colour,
                alpha=0.3,
                linewidth=0,
                zorder=3.1,
            )
        self._reach_mark(
            rx,
            ry,
            colour,
            half if story.line is not None else 0.0,
            REACH_S * (4 / 3 if self.zoom else 1.0),
            "",
        )

    def _reach_mark(
        self, x: float, y: float, colour: str, half_m: float, s: float, who: str
    ) -> None:
        """A measured point: a short line across the pitch through it (`half_m` each way; none
        when 0) and a cross on it; gids "<who>reach-line", "<who>reach-point"."""
        if half_m > 0:
            vline(
                self.ax,
                x,
                y - half_m,
                y + half_m,
                colour,
                2.4 if not who else 1.8,
                zorder=7.9,
                gid=f"{self.gid}{who}reach-line",
            )
        dots(
            self.ax,
            [x],
            [y],
            s=s,
            marker="X",
            color=colour,
            edgecolors=style.RING,
            linewidths=0.9,
            zorder=9,
            gid=f"{self.gid}{who}reach-point",
        )

    def _block_marks(self) -> None:
        """What the labels must not cover: the magnifier, the offside line, the players, the
        ball, the touches, the measured points."""
        placer, story = self.placer, self.story
        if self.hidden is not None:
            placer.block_metres(Bbox.from_extents(*self.hidden))
        if story.line is not None:
            x, _ = placer.display((story.line.x_m, 0.0))
            placer.taken.append(Bbox.from_extents(x - 2, placer.bounds.y0, x + 2, placer.bounds.y1))
        for player_id, where in story.touch.positions.items():
            placer.block((where.x_m, where.y_m), radius_px(self.marker_s(player_id), self.dpi) + 2)
        for x, y, r in self.icons():
            placer.block((x, y), r + 1)
        ghost = self._ghost()
        if ghost is not None and not self.zoom:
            placer.block((ghost.x_m, ghost.y_m), radius_px(PLAYER_S, self.dpi) + 2)

    def _labels(self) -> None:
        story, placer = self.story, self.placer
        self._block_marks()
        line = story.line
        if line is not None:
            caption = story.line_label(detail=not self.zoom, narrow=self.zoom)
            self._edge_label(line.x_m, caption, True, LINE_LABEL, "offside-line-label")
            if abs(line.ball_x_m - line.x_m) > 1e-9:
                self._edge_label(line.ball_x_m, "ball", False, BALL_LINE_LABEL, "ball-line-label")
        judged = story.focus_judged
        margin = story.margin
        if judged is not None and margin is not None:
            toward = int(story.sign)
            colour = style.margin_colour(margin)
            placer.place(
                (judged.reach.x_m, judged.reach.y_m),
                f"{signed_distance(margin)}  {story.reach_caption()}",
                MARGIN_LABEL.but(box=LabelBox(colour, alpha=0.92)),
                18,
                offsets=(
                    (toward, 1),
                    (toward, -1),
                    (toward, 0),
                    (-toward, 1),
                    (-toward, -1),
                    (0, 1),
                    (0, -1),
                ),
                gid=self.gid + "margin-label",
                arrowprops=dict(arrowstyle="-", color=colour, linewidth=1.3, shrinkA=0, shrinkB=4),
            )
        receiver = story.receiver
        if receiver is not None and not self.zoom:
            colour = style.margin_colour(receiver.margin_m)
            placer.place(
                (receiver.reach.x_m, receiver.reach.y_m),
                f"{signed_distance(receiver.margin_m)}  {story.short(receiver.player)}",
                RECEIVER_LABEL.but(box=LabelBox(colour, pad=0.25, alpha=0.85)),
                14,
                gid="receiver-margin-label",
                arrowprops=dict(arrowstyle="-", color=colour, linewidth=1.0, shrinkA=0, shrinkB=4),
            )
        ghost = self._ghost()
        if ghost is not None and not self.zoom and not self._ghost_played_it():
            assert story.involved_at is not None
            placer.place(
                (ghost.x_m, ghost.y_m),
                f"{story.short(story.focus)} at touch {story.involved_at + 1}",
                GHOST_LABEL,
                10,
                gid="involved-label",
            )
        important = [p for p in (story.focus, line.second_last if line else None) if p]
        positions = story.touch.positions
        ordered = [p for p in important if p in positions]
        ordered += [p for p in positions if p not in important]
        if not self.zoom:
            ordered = ordered[: len(important)]
        self._player_labels(ordered, important)
        if not self.zoom:
            ball = story.touch.ball_m
            placer.place(
                (ball[0], ball[1]),
                str(story.judged_at + 1),
                TOUCH_NUMBER,
                radius_px(BALL_S, self.dpi) + 1,
                offsets=((-1, -1), (1, -1), (-1, 1), (1, 1), (0, -1), (0, 1), (-1, 0), (1, 0)),
                gid="touch-label:judged",
                arrowprops=dict(
                    arrowstyle="-", color=style.TOUCH, linewidth=0.8, shrinkA=0, shrinkB=5
                ),
            )
            self._player_labels([p for p in positions if p not in important], important)

    def _player_labels(self, players: Iterable[str], important: Sequence[str]) -> None:
        positions = self.story.touch.positions
        for player_id in players:
            where = positions[player_id]
            xy = (where.x_m, where.y_m)
            if player_id not in self.drawn:
                continue
            text = self._player_caption(player_id)
            if where.off_field is not None:
                text = f"{text} (off field)".strip()
            if not text:
                continue
            key = player_id in important
            # A name that would cover another mark is left out (the key two always get theirs):
            # the marker and the close-up still show him.
            self.placer.place(
                xy,
                text,
                KEY_PLAYER_LABEL if key else PLAYER_LABEL,
                radius_px(self.marker_s(player_id), self.dpi) + 3,
                optional=not key and player_id not in self.moved_numbers,
                gid=f"{self.gid}label:{player_id}",
            )

    def _player_caption(self, player_id: str) -> str:
        """The name; the shirt number too when an icon covers it on the marker."""
        player = self.story.player(player_id)
        if player is None:
            return player_id
        name = player.short_label if player.name else ""  # else the number is on the marker
        if player_id in self.moved_numbers and player.number is not None:
            name = f"{player.number} {name}".strip()
        elif not player.name and player.number is None:
            name = player.id
        if player.goalkeeper:
            name = f"{name} GK".strip()
        return name
