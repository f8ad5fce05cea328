"""A top-down picture of a decision: the pitch zoomed on the action, the offside line,
the attacker's nearest counting part, the margin and the verdict.

Layout (1600 x 1000 px): a verdict banner on top; the pitch at the judged touch, zoomed on
the action (true aspect, at least the penalty area near goal), with a magnified close-up in
its emptiest corner when the call is close; on the right a map of the whole pitch, a ruler of
the margin in cm (with the 95% interval when the verdict carries one), the touches in order
and a key.

Figures are built with `matplotlib.figure.Figure` directly (no pyplot, no global backend).
Situations use metres from the centre spot; mplsoccer's custom pitch has its origin at the
bottom-left corner, so every coordinate goes through `PitchFrame.plot` on its way in.

Artists a test may want to find carry a `gid`: "offside-line", "offside-line-label",
"ball-line", "uncertainty-band", "reach-line", "reach-point", "margin-label", "receiver-reach-point",
"receiver-margin-label", "second-last-reach", "ball", "ball-path", "touch:<i>",
"player:<id>", "involved:<id>", "banner-title", "banner-reason", "closeup-offside-line",
"closeup-reach-line", "closeup-margin", "closeup-interval", "minimap-view", "magnifier",
"magnifier-frame"; inside the magnifier the same names start with "zoom:".
"""

from __future__ import annotations

import contextlib
import math
import os
import secrets
import textwrap
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

from matplotlib import patheffects
from matplotlib.axes import Axes
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure
from matplotlib.lines import Line2D
from matplotlib.patches import FancyArrowPatch, Rectangle
from matplotlib.text import Text
from matplotlib.ticker import MaxNLocator
from mplsoccer import Pitch

from varroom.errors import VarroomError
from varroom.explain import distance
from varroom.judgement import Judgement, LineSetter, OffsideLine, PlayerJudgement, Reference
from varroom.situation import OffField, Player, Position, Situation, Touch
from varroom.verdict import Effect, Status, Verdict

WIDTH_PX, HEIGHT_PX, DPI = 1600, 1000, 100

# Layout, in figure fractions: banner on top, the zoomed pitch left, a column on the right.
BANNER_RECT = (0.0, 0.865, 1.0, 0.135)
MAIN_RECT = (0.012, 0.02, 0.706, 0.835)
COLUMN_LEFT, COLUMN_WIDTH = 0.732, 0.256
MINIMAP_RECT = (COLUMN_LEFT, 0.575, COLUMN_WIDTH, 0.27)
CLOSEUP_RECT = (COLUMN_LEFT + 0.012, 0.318, COLUMN_WIDTH - 0.024, 0.19)

BACKGROUND = "#0f1720"
PANEL = "#17212b"
PITCH_COLOUR = "#1d3a2a"
STRIPE_COLOUR = "#20402e"
PITCH_LINES = "#8fa99b"
TEXT = "#f1f5f9"
MUTED = "#94a3b8"
ATTACKERS = "#3b82f6"
DEFENDERS = "#fbbf24"
LINE_COLOUR = "#ffffff"
OFFSIDE_RED = "#ff4d4f"
ONSIDE_GREEN = "#4ade80"
AMBER = "#f59e0b"
STATUS_COLOUR = {
    Status.OFFENCE: OFFSIDE_RED,
    Status.NO_OFFENCE: ONSIDE_GREEN,
    Status.UNDECIDABLE: AMBER,
}

PAD_M = 5.0  # margin around the action
MIN_SPAN_M = (34.0, 22.0)  # never zoom closer than this (x, y)
OUTSIDE_M = 4.0  # how far beyond the touchlines and goal lines the view may go
NEAR_GOAL_M = 30.0  # within this of the goal line attacked, show the whole penalty area
PENALTY_AREA_M = (16.5, 40.32)

_STROKE = [patheffects.withStroke(linewidth=3, foreground="#08110c")]


class RenderError(VarroomError):
    """The picture could not be written (the CLI prints it as one line, exit 1)."""

    exit_code = 1


@dataclass(frozen=True, slots=True)
class PitchFrame:
    """Situation metres (centre origin) to mplsoccer custom-pitch coordinates (corner origin)."""

    length_m: float
    width_m: float

    def plot(self, x_m: float, y_m: float) -> tuple[float, float]:
        return x_m + self.length_m / 2, y_m + self.width_m / 2

    def metres(self, px: float, py: float) -> tuple[float, float]:
        return px - self.length_m / 2, py - self.width_m / 2

    def px(self, x_m: float) -> float:
        return x_m + self.length_m / 2

    def py(self, y_m: float) -> float:
        return y_m + self.width_m / 2


def frame_of(situation: Situation) -> PitchFrame:
    return PitchFrame(situation.pitch.length_m, situation.pitch.width_m)


def render_png(situation: Situation, verdict: Verdict, path: str | os.PathLike[str]) -> None:
    """Write the picture of the decision to `path` as a PNG (about 1600x1000 px).

    Written to a temporary file in the same directory, then renamed: a failure leaves no
    partial file. A path that cannot be written is a `RenderError`, not an OSError.
    """
    target = Path(path)
    directory = target.parent
    if not directory.is_dir():
        raise RenderError(f"cannot write the picture {target}: no directory {directory}")
    if target.is_dir():
        raise RenderError(f"cannot write the picture {target}: it is a directory")
    figure = draw(situation, verdict)
    try:
        handle, temporary = _temporary_file(target)
    except OSError as exc:
        raise RenderError(f"cannot write the picture {target}: {exc.strerror or exc}") from None
    try:
        with os.fdopen(handle, "wb") as stream:
            figure.savefig(stream, format="png", dpi=DPI, facecolor=figure.get_facecolor())
        os.replace(temporary, target)
    except OSError as exc:
        raise RenderError(f"cannot write the picture {target}: {exc.strerror or exc}") from None
    finally:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(temporary)


def _temporary_file(target: Path) -> tuple[int, Path]:
    """A new hidden file beside `target`, created with the permissions the umask gives a new
    file (mkstemp's would be 0600; changing the umask to read it is not thread-safe)."""
    for _ in range(8):
        temporary = target.with_name(f".{target.name}.{secrets.token_hex(6)}.part")
        try:
            flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_BINARY", 0)
            return os.open(temporary, flags, 0o666), temporary
        except FileExistsError:
            continue
    raise FileExistsError(f"no free temporary name beside {target}")


def draw(situation: Situation, verdict: Verdict) -> Figure:
    """The picture of the decision as a matplotlib Figure (not attached to pyplot)."""
    scene = _Scene(situation, verdict)
    figure = Figure(figsize=(WIDTH_PX / DPI, HEIGHT_PX / DPI), dpi=DPI, facecolor=BACKGROUND)
    FigureCanvasAgg(figure)  # a renderer to measure labels with; no pyplot, no global backend
    _Banner(figure, scene).draw()
    main = figure.add_axes(MAIN_RECT)
    view = _PitchView(main, scene)
    view.draw()
    zoom = _add_magnifier(main, view, scene)
    view.draw_content()
    if zoom is not None:
        zoom.draw_content()
    _draw_minimap(figure.add_axes(MINIMAP_RECT), scene, view.box)
    _draw_closeup(figure.add_axes(CLOSEUP_RECT), scene)
    bottom = _draw_touches(figure, scene)
    _draw_legend(figure, scene, bottom - 0.002)
    return figure


# -- what to draw -----------------------------------------------------------------------------


class _Scene:
    """The facts the picture shows, picked out of the situation and the verdict once."""

    def __init__(self, situation: Situation, verdict: Verdict) -> None:
        self.s = situation
        self.v = verdict
        self.frame = frame_of(situation)
        self.sign = situation.attack_direction.sign
        touches = situation.touches
        judged = verdict.judged_at
        self.judged_at = judged if judged is not None and 0 <= judged < len(touches) else 0
        self.touch: Touch | None = touches[self.judged_at] if touches else None
        self.judgement: Judgement | None = verdict.judgement
        self.line: OffsideLine | None = None if self.judgement is None else self.judgement.line
        self.focus = self._focus()
        self.focus_judged: PlayerJudgement | None = (
            None
            if self.focus is None or self.judgement is None
            else self.judgement.attackers.get(self.focus)
        )
        involved = verdict.involved_at
        self.involved_at = (
            involved if involved is not None and 0 <= involved < len(touches) else None
        )
        indices = sorted({step.index for step in verdict.chain if 0 <= step.index < len(touches)})
        self.path = indices or list(range(len(touches)))
        self.receiver: PlayerJudgement | None = self._receiver()

    def _receiver(self) -> PlayerJudgement | None:
        """With no offence, the team-mate the reason is about when he is not the nearest attacker:
        the first attacker to play the ball, or to interfere, after the judged touch."""
        if self.judgement is None or self.line is None or self.v.status is not Status.NO_OFFENCE:
            return None
        for index in self.path:
            if index < self.judged_at:
                continue
            touch = self.s.touches[index]
            involved = [fact.player for fact in touch.involvement if self.is_attacker(fact.player)]
            player = involved[0] if involved else None
            if player is None and index > self.judged_at and touch.player is not None:
                player = touch.player if self.is_attacker(touch.player) else None
            if player is not None:
                judged = self.judgement.attackers.get(player)
                if player == self.focus or judged is None or not math.isfinite(judged.margin_m):
                    return None
                return judged
        return None

    def _focus(self) -> str | None:
        if self.v.offender is not None:
            return self.v.offender
        if self.v.nearest_attacker is not None:
            return self.v.nearest_attacker
        if self.judgement is None or not self.judgement.attackers:
            return None
        # Undecidable: no margins, so the attacker nearest the goal line attacked.
        return max(self.judgement.attackers.values(), key=lambda j: self.sign * j.reach.x_m).player

    def player(self, player_id: str | None) -> Player | None:
        return None if player_id is None else self.s.players.get(player_id)

    def short(self, player_id: str | None) -> str:
        """A surname, else the shirt number, else the id."""
        player = self.player(player_id)
        if player is None:
            return player_id or "nobody"
        if player.name:
            return player.short_label
        if player.number is not None:
            return f"#{player.number}"
        return player.id

    def position(self, player_id: str | None, index: int | None) -> Position | None:
        if player_id is None or index is None or not (0 <= index < len(self.s.touches)):
            return None
        return self.s.touches[index].positions.get(player_id)

    def is_attacker(self, player_id: str) -> bool:
        player = self.player(player_id)
        return player is not None and player.team == self.s.attacking_team

    @property
    def margin(self) -> float | None:
        judged = self.focus_judged
        if judged is None or self.line is None or not math.isfinite(judged.margin_m):
            return None
        return judged.margin_m

    def touch_label(self, index: int) -> str:
        touch = self.s.touches[index]
        action = touch.action.value.replace("_", " ")
        who = self.short(touch.player) if touch.player else ""
        return f"{index + 1} {who} {action}".replace("  ", " ")

    def line_caption(self) -> str:
        line = self.line
        if line is None:
            return ""
        if line.set_by is LineSetter.BALL:
            return "offside line (ball)"
        if line.set_by is LineSetter.HALFWAY_LINE:
            return "offside line (halfway line)"
        who = self.short(line.second_last)
        reach = line.second_last_reach
        if reach is not None and reach.part is not None:
            who += f", {reach.part.value.replace('_', ' ')}"
        elif reach is not None and reach.reference is Reference.LINE_CROSSED:
            who += ", off the field: on the line"
        return f"offside line\n2nd-last defender: {who}"

    def reach_part(self) -> str:
        """Which point of the attacker was measured: 'left knee', 'off the field', or ''."""
        judged = self.focus_judged
        if judged is None:
            return ""
        reach = judged.reach
        if reach.reference is Reference.LINE_CROSSED:
            return "off the field: on the line"
        if reach.part is not None:
            return reach.part.value.replace("_", " ")
        return ""

    def reach_caption(self) -> str:
        judged = self.focus_judged
        if judged is None:
            return ""
        who, part = self.short(judged.player), self.reach_part()
        if judged.reach.reference is Reference.LINE_CROSSED:
            return f"{who} ({part})"
        return f"{who}, {part}" if part else who


def signed_distance(margin_m: float) -> str:
    """'+4 cm', '−35 cm', '±0 cm', '+1.20 m'."""
    sign = "+" if margin_m > 0 else "\u2212" if margin_m < 0 else "\u00b1"
    return sign + distance(margin_m)


def _margin_colour(margin_m: float | None) -> str:
    if margin_m is None:
        return AMBER
    return OFFSIDE_RED if margin_m > 0 else ONSIDE_GREEN


# -- the banner -------------------------------------------------------------------------------


class _Banner:
    def __init__(self, figure: Figure, scene: _Scene) -> None:
        self.figure = figure
        self.scene = scene

    def title(self) -> str:
        scene, verdict = self.scene, self.scene.v
        if verdict.status is Status.OFFENCE:
            margin = verdict.margin_m
            size = f", {distance(margin)}" if margin is not None and math.isfinite(margin) else ""
            return f"OFFSIDE \u2014 {scene.short(verdict.offender)}{size}"
        if verdict.status is Status.UNDECIDABLE:
            return "UNDECIDABLE \u2014 the offside line cannot be drawn"
        if scene.judgement is None:
            return "NO OFFENCE \u2014 no team-mate played the ball"
        margin = verdict.margin_m
        receiver = scene.receiver
        onside_receiver = receiver is not None and receiver.margin_m <= 0
        if margin is not None and math.isfinite(margin) and margin > 0 and not onside_receiver:
            who = scene.short(verdict.nearest_attacker)
            return f"NO OFFENCE \u2014 {who} in offside position, not penalised"
        return "ONSIDE \u2014 no offence"

    def reason(self) -> str:
        reason = self.scene.v.reason.strip()
        first = reason.split(". ")[0].rstrip(".") + "."
        law = f"Law {self.scene.v.law}"
        if law not in first:
            first = f"{first} ({law})"
        lines = textwrap.wrap(first, width=98, max_lines=2, placeholder=" \u2026")
        return "\n".join(lines)

    def draw(self) -> None:
        scene = self.scene
        colour = STATUS_COLOUR[scene.v.status]
        ax = self.figure.add_axes(BANNER_RECT)
        ax.set_axis_off()
        ax.set_xlim(0, 1)
        ax.set_ylim(0, 1)
        ax.add_artist(Rectangle((0, 0), 1, 1, color=PANEL, zorder=0))
        ax.add_artist(Rectangle((0, 0), 0.008, 1, color=colour, zorder=1))
        ax.add_artist(Rectangle((0, 0), 1, 0.025, color=colour, alpha=0.8, zorder=1))
        ax.text(
            0.022,
            0.66,
            self.title(),
            color=colour,
            fontsize=30 if len(self.title()) <= 40 else 24,
            fontweight="bold",
            va="center",
            ha="left",
            gid="banner-title",
        )
        ax.text(
            0.023,
            0.24,
            self.reason(),
            color=TEXT,
            fontsize=11.5,
            va="center",
            ha="left",
            linespacing=1.3,
            gid="banner-reason",
        )
        # The attack direction, top right, then the call being checked and the match.
        team = scene.s.attacking_team
        ax.text(
            0.93,
            0.78,
            f"{team} attacking",
            color=ATTACKERS,
            fontsize=13,
            fontweight="bold",
            ha="right",
            va="center",
        )
        tail, head = (0.938, 0.985) if scene.sign > 0 else (0.985, 0.938)
        ax.add_artist(
            FancyArrowPatch(
                (tail, 0.78),
                (head, 0.78),
                arrowstyle="-|>",
                mutation_scale=22,
                color=ATTACKERS,
                linewidth=3,
                gid="attack-arrow",
            )
        )
        details = _meta_lines(scene.s.meta)
        if scene.s.on_field_decision:
            details.insert(0, f"on-field call: {scene.s.on_field_decision.replace('_', ' ')}")
        if details:
            ax.text(
                0.985,
                0.60,
                "\n".join(details[:3]),
                color=MUTED,
                fontsize=10,
                ha="right",
                va="top",
                linespacing=1.35,
            )


def _meta_lines(meta: object) -> list[str]:
    """'Tottenham Hotspur 1-1 Sporting CP' and 'UEFA Champions League … · 2022-10-26 · 90+5''"""
    get = getattr(meta, "get", None)
    if get is None:
        return []

    def text(key: str) -> str:
        value = get(key)
        if isinstance(value, bool) or not isinstance(value, str | int | float):
            return ""
        return str(value).strip()

    lines = []
    if text("match"):
        lines.append(textwrap.shorten(text("match"), width=62, placeholder=" \u2026"))
    minute = text("minute")
    rest = [text("competition"), text("date"), f"{minute}\u2032" if minute else ""]
    rest = [part for part in rest if part]
    if rest:
        lines.append(textwrap.shorten(" \u00b7 ".join(rest), width=62, placeholder=" \u2026"))
    return lines


# -- the pitch views --------------------------------------------------------------------------


class _Placer:
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
            cost = sum(_overlap(box, other) for other in self.taken) + 4 * self._outside(box)
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
        return full - _overlap(box, (x0, y0, x1, y1))


def _overlap(a: tuple[float, float, float, float], b: tuple[float, float, float, float]) -> float:
    w = min(a[2], b[2]) - max(a[0], b[0])
    h = min(a[3], b[3]) - max(a[1], b[1])
    return w * h if w > 0 and h > 0 else 0.0


Box = tuple[float, float, float, float]  # x0, y0, x1, y1 in situation metres


class _PitchView:
    """The pitch at the judged touch, in a box of the pitch: the main view or its magnifier."""

    def __init__(self, ax: Axes, scene: _Scene, box: Box | None = None, zoom: bool = False) -> None:
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
        pitch = Pitch(
            pitch_type="custom",
            pitch_length=scene.s.pitch.length_m,
            pitch_width=scene.s.pitch.width_m,
            pitch_color=PITCH_COLOUR,
            line_color=PITCH_LINES,
            linewidth=1.6,
            stripe=not self.zoom,
            stripe_color=STRIPE_COLOUR,
            goal_type="box",
            line_zorder=1,
        )
        pitch.draw(ax=ax)
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
        self.placer = _Placer(ax)

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
        points = list(_action_points(scene)) or [(0.0, 0.0)]
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
            _dots(
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
                clear = (self.hidden is None or _overlap(box, self.hidden) == 0) and not any(
                    _overlap(box, other) for other in self.edge_boxes
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
                _dots(
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
            _dots(
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
            _dots(ax, [x], [y], s=16, color="black", marker="p", zorder=8.6, linewidths=0)

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
            _dots(
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
            _dots(
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
            _dots(
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
            _dots(
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
            colour = _margin_colour(receiver.margin_m)
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
            _dots(
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
        colour = _margin_colour(scene.margin)
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
        _dots(
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
                    facecolor=_margin_colour(margin),
                    alpha=0.92,
                    edgecolor="none",
                ),
                arrowprops=dict(
                    arrowstyle="-",
                    color=_margin_colour(margin),
                    linewidth=1.3,
                    shrinkA=0,
                    shrinkB=4,
                ),
            )
        receiver = scene.receiver
        if receiver is not None and not self.zoom:
            colour = _margin_colour(receiver.margin_m)
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
                path_effects=_STROKE,
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
                path_effects=_STROKE,
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


def _action_points(scene: _Scene) -> Iterable[tuple[float, float]]:
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


def _fit(box: Box, ax: Axes, scene: _Scene) -> Box:
    """The box grown to the minimum size, then to the axes' shape: metres equal on both axes."""
    x0, y0, x1, y1 = box
    half_l, half_w = scene.s.pitch.length_m / 2, scene.s.pitch.width_m / 2
    x_room = (-half_l - OUTSIDE_M, half_l + OUTSIDE_M)
    y_room = (-half_w - OUTSIDE_M, half_w + OUTSIDE_M)
    x0, x1 = _grow(x0, x1, MIN_SPAN_M[0], *x_room)
    y0, y1 = _grow(y0, y1, MIN_SPAN_M[1], *y_room)
    window = ax.get_window_extent()
    aspect = window.width / window.height
    if (x1 - x0) / (y1 - y0) < aspect:
        x0, x1 = _grow(x0, x1, (y1 - y0) * aspect, *x_room)
    else:
        y0, y1 = _grow(y0, y1, (x1 - x0) / aspect, *y_room)
    return x0, y0, x1, y1


def _dots(
    ax: Axes,
    xs: Sequence[float],
    ys: Sequence[float],
    s: float = 36.0,
    marker: str = "o",
    color: str = "white",
    edgecolors: str | None = None,
    linewidths: float = 1.0,
    zorder: float = 5.0,
    gid: str | None = None,
    alpha: float | None = None,
    linestyle: str = "-",
) -> Line2D:
    """Markers as one Line2D (much cheaper to draw than a scatter); `s` in points squared."""
    dashed = linestyle != "-"
    line = Line2D(
        list(xs),
        list(ys),
        linestyle="none",
        marker=marker,
        markersize=math.sqrt(s),
        markerfacecolor=color if not dashed else "none",
        markeredgecolor=color if dashed else edgecolors or color,
        markeredgewidth=max(linewidths, 2.0) if dashed else linewidths,
        zorder=zorder,
        gid=gid,
        alpha=alpha,
    )
    ax.add_artist(line)
    return line


def _grow(lo: float, hi: float, span: float, floor: float, ceiling: float) -> tuple[float, float]:
    """Widen [lo, hi] about its centre to at least `span`, shifted to stay in [floor, ceiling]."""
    if hi - lo >= span:
        return lo, hi
    middle = (lo + hi) / 2
    lo, hi = middle - span / 2, middle + span / 2
    if hi - lo >= ceiling - floor:
        middle = (floor + ceiling) / 2
        return middle - span / 2, middle + span / 2
    if lo < floor:
        lo, hi = floor, floor + span
    elif hi > ceiling:
        lo, hi = ceiling - span, ceiling
    return lo, hi


# -- the magnifier ----------------------------------------------------------------------------

MAGNIFIER_SIZE = (0.4, 0.46)  # of the main view's axes
MAGNIFIER_MIN_SPAN_M = 4.0
MAGNIFIER_FACTOR = 3.2  # how much closer than the main view, at least
MAGNIFIER_MAX_MARGIN_M = 1.5  # a close call: wider margins are plain in the main view


def _magnifier_box(scene: _Scene, aspect: float, main_span_m: float) -> Box | None:
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
    x0, x1 = _grow(x0, x1, span, -math.inf, math.inf)
    y0, y1 = _grow(y0, y1, span / aspect, -math.inf, math.inf)
    if (x1 - x0) / (y1 - y0) < aspect:
        x0, x1 = _grow(x0, x1, (y1 - y0) * aspect, -math.inf, math.inf)
    else:
        y0, y1 = _grow(y0, y1, (x1 - x0) / aspect, -math.inf, math.inf)
    return x0, y0, x1, y1


def _add_magnifier(main: Axes, view: _PitchView, scene: _Scene) -> _PitchView | None:
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
    decisive = list(_action_points(scene))
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
    zoom = _PitchView(inset, scene, box=zoom_box, zoom=True)
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


# -- the map of the whole pitch ---------------------------------------------------------------


def _draw_minimap(ax: Axes, scene: _Scene, box: tuple[float, float, float, float]) -> None:
    frame = scene.frame
    pitch = Pitch(
        pitch_type="custom",
        pitch_length=scene.s.pitch.length_m,
        pitch_width=scene.s.pitch.width_m,
        pitch_color=PITCH_COLOUR,
        line_color=PITCH_LINES,
        linewidth=1,
        goal_type="box",
        pad_left=2,
        pad_right=2,
        pad_top=2,
        pad_bottom=2,
        line_zorder=1,
    )
    pitch.draw(ax=ax)
    x0, y0, x1, y1 = box
    ax.add_artist(
        Rectangle(
            frame.plot(x0, y0),
            x1 - x0,
            y1 - y0,
            fill=False,
            edgecolor="white",
            linewidth=1.4,
            linestyle="--",
            zorder=5,
            gid="minimap-view",
        )
    )
    touch = scene.touch
    if touch is not None:
        for player_id, where in touch.positions.items():
            colour = ATTACKERS if scene.is_attacker(player_id) else DEFENDERS
            _dots(
                ax,
                [frame.px(where.x_m)],
                [frame.py(where.y_m)],
                s=9,
                color=colour,
                zorder=4,
                linewidths=0,
            )
    if scene.line is not None:
        half = scene.s.pitch.width_m / 2
        ax.add_artist(
            Line2D(
                [frame.px(scene.line.x_m)] * 2,
                [frame.py(-half), frame.py(half)],
                color=LINE_COLOUR,
                linewidth=1.2,
                zorder=4.5,
            )
        )
    ax.set_title(
        "Where on the pitch" + ("   attack \u2192" if scene.sign > 0 else "   \u2190 attack"),
        color=MUTED,
        fontsize=10,
        loc="left",
        pad=4,
    )


# -- the close-up of the margin ---------------------------------------------------------------


def _draw_closeup(ax: Axes, scene: _Scene) -> None:
    """A ruler across the line: offside line at 0, the attacker's nearest part at the margin."""
    ax.set_facecolor(PANEL)
    for spine in ax.spines.values():
        spine.set_color("#334155")
    ax.tick_params(colors=MUTED, labelsize=8.5, length=3)
    ax.set_yticks([])
    ax.set_ylim(0, 1)
    line, judged, margin = scene.line, scene.focus_judged, scene.margin
    touch = f"touch {scene.judged_at + 1}"
    if scene.touch is not None:
        touch = (
            scene.touch_label(scene.judged_at).split(" ", 1)[-1] + f" (touch {scene.judged_at + 1})"
        )
    if line is None or judged is None or margin is None:
        ax.set_xticks([])
        if scene.judgement is None:
            why = "No team-mate's play to judge"
        elif line is None:
            why = "No offside line: fewer than two opponents on the pitch"
        else:
            why = "No attacker to measure"
        ax.text(
            0.5,
            0.5,
            textwrap.fill(why, 40),
            color=MUTED,
            fontsize=10,
            ha="center",
            va="center",
            transform=ax.transAxes,
        )
        ax.set_title("Margin", color=MUTED, fontsize=10, loc="left", pad=4)
        return
    sign = scene.sign
    offset = judged.reach.x_m - line.x_m  # = sign * margin, in the pitch's own orientation
    receiver = scene.receiver
    other = None if receiver is None else receiver.reach.x_m - line.x_m
    lo, hi = min(0.0, offset), max(0.0, offset)
    if other is not None:
        lo, hi = min(lo, other), max(hi, other)
    spread = _spread(scene)
    if spread is not None:
        lo, hi = min(lo, spread[0]), max(hi, spread[1])
    pad = max((hi - lo) * (0.75 if other is None and spread is None else 0.3), 0.05)
    ax.set_xlim(lo - pad, hi + pad)
    colour = _margin_colour(margin)
    ax.axvspan(min(0.0, offset), max(0.0, offset), color=colour, alpha=0.25, linewidth=0)
    if receiver is not None and other is not None:
        # The team-mate the reason is about, when he is not the nearest attacker.
        ax.add_artist(
            Line2D(
                [other, other],
                [0, 1],
                color=_margin_colour(receiver.margin_m),
                linewidth=1.6,
                alpha=0.9,
                gid="closeup-receiver-line",
            )
        )
        ax.text(
            other,
            0.62,
            f" {scene.short(receiver.player)} {signed_distance(receiver.margin_m)} ",
            color=_margin_colour(receiver.margin_m),
            fontsize=8.5,
            fontweight="bold",
            ha="left" if other <= 0 and sign > 0 or other > 0 and sign < 0 else "right",
            va="bottom",
        )
    ax.add_artist(
        Line2D([0, 0], [0, 1], color=LINE_COLOUR, linewidth=2.2, gid="closeup-offside-line")
    )
    ax.add_artist(
        Line2D([offset, offset], [0, 1], color=colour, linewidth=2.2, gid="closeup-reach-line")
    )
    ball_offset = line.ball_x_m - line.x_m
    if abs(ball_offset) > 1e-9 and lo - pad < ball_offset < hi + pad:
        ax.add_artist(
            Line2D(
                [ball_offset] * 2,
                [0, 1],
                color=LINE_COLOUR,
                linewidth=1,
                linestyle=(0, (5, 4)),
                alpha=0.6,
            )
        )
    if spread is not None:
        # The 95% interval of the margin, from the tracking's noise (varroom.uncertainty).
        low, high, probability = spread
        ax.add_artist(
            Line2D(
                [low, high],
                [0.2, 0.2],
                color=colour,
                linewidth=2,
                marker="|",
                markersize=9,
                markeredgewidth=1.5,
                alpha=0.9,
                gid="closeup-interval",
            )
        )
        ax.text(
            0.5,
            0.02,
            f"95% interval, P(offside position) {probability:.0%}",
            transform=ax.transAxes,
            color=MUTED,
            fontsize=7.5,
            bbox=dict(boxstyle="square,pad=0.1", facecolor=PANEL, edgecolor="none", alpha=0.85),
            ha="center",
            va="bottom",
        )
    ax.annotate(
        "",
        (offset, 0.3),
        (0, 0.3),
        arrowprops=dict(
            arrowstyle="<|-|>", color=TEXT, linewidth=1.2, shrinkA=0, shrinkB=0, mutation_scale=10
        ),
    )
    # The margin between the lines when it fits there, else beside the attacker's line.
    narrow = abs(offset) < 0.3 * (hi - lo + 2 * pad)
    beyond = 1 if offset > 0 or (offset == 0 and sign > 0) else -1
    ax.text(
        offset + beyond * 0.03 * (hi - lo + 2 * pad) if narrow else offset / 2,
        0.36,
        signed_distance(margin),
        color=colour,
        fontsize=16,
        fontweight="bold",
        ha=("left" if beyond > 0 else "right") if narrow else "center",
        va="bottom",
        gid="closeup-margin",
        path_effects=_STROKE,
    )
    # Each caption on the outer side of its own line, so the two never meet.
    reach_right = offset > 0 or (offset == 0 and sign > 0)
    who = scene.short(judged.player)
    part = scene.reach_part().replace("off the field: ", "")
    ax.text(
        0,
        0.95,
        " offside line \n (" + _line_setter(scene) + ") ",
        color=LINE_COLOUR,
        fontsize=8.5,
        ha="left" if not reach_right else "right",
        va="top",
        linespacing=1.2,
    )
    ax.text(
        offset,
        0.95,
        f" {who} \n {part} " if part else f" {who} ",
        color=colour,
        fontsize=8.5,
        ha="left" if reach_right else "right",
        va="top",
        fontweight="bold",
        linespacing=1.2,
    )
    span = hi - lo + 2 * pad
    unit, factor = ("cm", 100.0) if span < 3 else ("m", 1.0)
    ticks = [
        t
        for t in MaxNLocator(nbins=6, steps=[1, 2, 2.5, 5, 10]).tick_values(lo - pad, hi + pad)
        if lo - pad <= t <= hi + pad
    ]
    ax.set_xticks(ticks)
    ax.set_xticklabels([f"{t * factor:+.0f}" if unit == "cm" else f"{t:+g}" for t in ticks])
    ax.set_xlim(lo - pad, hi + pad)
    arrow = "\u2192" if sign > 0 else "\u2190"
    ax.set_xlabel(
        f"{unit} from the offside line   (goal attacked {arrow})",
        color=MUTED,
        fontsize=8.5,
        labelpad=2,
    )
    ax.set_title(f"Margin at {touch}", color=MUTED, fontsize=10, loc="left", pad=4)


def _spread(scene: _Scene) -> tuple[float, float, float] | None:
    """The margin's 95% interval, in the ruler's terms (metres from the line, pitch orientation),
    and P(offside position), when the verdict carries them for the attacker shown."""
    spread = getattr(scene.v, "uncertainty", None)
    margin = scene.margin
    if spread is None or margin is None:
        return None
    try:
        low, high = (float(v) for v in spread.margin_ci_m)
        probability = float(spread.probability)
        same = math.isclose(float(spread.margin_m), margin, abs_tol=1e-9)
    except (AttributeError, TypeError, ValueError):
        return None
    if not (same and math.isfinite(low) and math.isfinite(high) and math.isfinite(probability)):
        return None
    ends = sorted((scene.sign * low, scene.sign * high))
    return ends[0], ends[1], probability


def _line_setter(scene: _Scene) -> str:
    line = scene.line
    if line is None:
        return ""
    if line.set_by is LineSetter.BALL:
        return "ball"
    if line.set_by is LineSetter.HALFWAY_LINE:
        return "halfway line"
    return scene.short(line.second_last)


# -- the touches and the key -----------------------------------------------------------------

_EFFECT_TEXT = {
    Effect.JUDGEMENT: ("team-mate's play", TEXT),
    Effect.EXEMPT_RESTART: ("no offence directly from it (11.3)", ONSIDE_GREEN),
    Effect.RESET: ("deliberate play: resets offside", ONSIDE_GREEN),
    Effect.DEFLECTION: ("deflection: no reset", AMBER),
    Effect.SAVE: ("save: no reset", AMBER),
    Effect.REBOUND: ("rebound: no reset", AMBER),
    Effect.OUT_OF_PLAY: ("ball out of play (Law 9)", MUTED),
    Effect.OFFENCE: ("offence", OFFSIDE_RED),
}
MAX_TOUCH_LINES = 5


def _touch_rows(scene: _Scene) -> list[int | None]:
    """The touches to list, at most MAX_TOUCH_LINES rows: the first, the judged one, the
    involvement and the last always; then those nearest the judged one; None marks a gap."""
    path = scene.path
    if len(path) <= MAX_TOUCH_LINES:
        return list(path)
    must = {path[0], path[-1], scene.judged_at}
    if scene.involved_at is not None:
        must.add(scene.involved_at)
    others = sorted((i for i in path if i not in must), key=lambda i: abs(i - scene.judged_at))
    best: list[int | None] = []
    for count in range(len(others) + 1):
        chosen = sorted(must.union(others[:count]) & set(path))
        rows: list[int | None] = []
        for index in chosen:
            if rows and path.index(index) != path.index(rows[-1]) + 1:  # type: ignore[arg-type]
                rows.append(None)
            rows.append(index)
        if count and len(rows) > MAX_TOUCH_LINES:
            break
        best = rows
    return best


def _draw_touches(figure: Figure, scene: _Scene) -> float:
    """The touches in order, numbered as on the pitch, with what each did; returns the bottom."""
    top = 0.262
    figure.text(COLUMN_LEFT, top, "Touches", color=MUTED, fontsize=10, ha="left", va="top")
    effects = {step.index: step.effect for step in scene.v.chain}
    y = top - 0.028
    for index in _touch_rows(scene):
        if index is None:
            figure.text(
                COLUMN_LEFT + 0.008, y, "\u22ee", color=MUTED, fontsize=9, ha="center", va="center"
            )
            y -= 0.024
            continue
        effect = effects.get(index)
        what, colour = _EFFECT_TEXT.get(effect, ("", MUTED)) if effect is not None else ("", MUTED)
        if scene.judgement is not None and index == scene.judgement.index:
            what, colour = "positions judged", LINE_COLOUR
            if effect is Effect.EXEMPT_RESTART:
                what = "judged; no offence directly from it"
        elif effect is Effect.OFFENCE and scene.v.involvement is not None:
            what = f"offence: {scene.v.involvement.value.replace('_', ' ')}"
        label = scene.touch_label(index).split(" ", 1)[-1]
        figure.text(
            COLUMN_LEFT + 0.008,
            y,
            str(index + 1),
            color="#0b1510",
            fontsize=8,
            fontweight="bold",
            ha="center",
            va="center",
            gid=f"touch-row:{index}",
            bbox=dict(boxstyle="circle,pad=0.2", facecolor="#f8fafc", edgecolor="none"),
        )
        figure.text(
            COLUMN_LEFT + 0.022,
            y,
            label,
            color=TEXT,
            fontsize=9.5,
            ha="left",
            va="center",
        )
        figure.text(
            COLUMN_LEFT + COLUMN_WIDTH,
            y,
            what,
            color=colour,
            fontsize=9,
            ha="right",
            va="center",
            fontstyle="italic",
        )
        y -= 0.024
    return y


def _draw_legend(figure: Figure, scene: _Scene, top: float) -> None:
    attacking = scene.s.attacking_team
    defending = next((p.team for p in scene.s.players.values() if p.team != attacking), "defenders")
    margin_colour = _margin_colour(scene.margin)
    handles = [
        Line2D(
            [],
            [],
            marker="o",
            linestyle="",
            markersize=10,
            color=ATTACKERS,
            markeredgecolor="white",
            label=f"{attacking} attacking",
        ),
        Line2D(
            [],
            [],
            marker="o",
            linestyle="",
            markersize=10,
            color=DEFENDERS,
            markeredgecolor="#111827",
            label=f"{defending} defending",
        ),
        Line2D(
            [],
            [],
            marker="s",
            linestyle="",
            markersize=9,
            color="#64748b",
            markeredgecolor="white",
            label="goalkeeper",
        ),
        Line2D(
            [],
            [],
            marker="o",
            linestyle="",
            markersize=9,
            color="white",
            markeredgecolor="black",
            label=f"ball at touch {scene.judged_at + 1}",
        ),
        Line2D([], [], color=LINE_COLOUR, linewidth=2.4, label="offside line"),
        Line2D(
            [],
            [],
            color=LINE_COLOUR,
            linewidth=1.1,
            linestyle=(0, (6, 5)),
            alpha=0.6,
            label="ball line",
        ),
        Line2D(
            [],
            [],
            marker="X",
            linestyle="-",
            markersize=8,
            color=margin_colour,
            markeredgecolor="white",
            label="nearest counting part",
        ),
        Line2D(
            [],
            [],
            marker="x",
            linestyle="",
            markersize=6,
            color="#e2e8f0",
            label="arm, hand (never counts)",
        ),
    ]
    if scene.involved_at is not None and scene.involved_at != scene.judged_at:
        handles.append(
            Line2D(
                [],
                [],
                marker="o",
                linestyle="",
                markersize=10,
                color=ATTACKERS,
                alpha=0.3,
                markeredgecolor="white",
                label=f"{scene.short(scene.focus)} when involved",
            )
        )
    legend = figure.legend(
        handles=handles,
        loc="upper left",
        bbox_to_anchor=(COLUMN_LEFT - 0.004, top),
        frameon=False,
        fontsize=9,
        labelcolor=TEXT,
        handlelength=1.8,
        borderaxespad=0,
        ncols=2,
        labelspacing=0.45,
        columnspacing=1.0,
        handletextpad=0.5,
    )
    legend.set_gid("legend")
    figure.text(
        COLUMN_LEFT + COLUMN_WIDTH,
        0.012,
        "varroom \u00b7 Law 11 offside",
        color="#475569",
        fontsize=8,
        ha="right",
        va="bottom",
    )
