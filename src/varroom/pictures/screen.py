"""The stadium-screen still (1920 x 1080): what the crowd sees after a review.

Top to bottom: a "VAR REVIEW" strip with the match, the decision in big type (OFFSIDE, GOAL
DISALLOWED — OFFSIDE, ONSIDE, GOAL STANDS, NO OFFENCE, ON-FIELD DECISION STANDS) and one
sentence under it; on the left the margin ("4 cm") over the two that decide it (the offender or
nearest attacker, and the second-last opponent or the ball); on the right a small top-down inset
of the line at the moment of play; at the bottom the referee's announcement.

Built on `matplotlib.figure.Figure` directly (no pyplot). Text a test reads back carries a gid:
"screen-headline", "screen-subheadline", "screen-margin", "screen-margin-caption",
"screen-interval", "screen-attacker-name", "screen-attacker-number", "screen-attacker-role",
"screen-attacker-point", "screen-defender-name", "screen-defender-number",
"screen-defender-role", "screen-defender-point", "screen-announcement", "screen-match"; in the
inset, "inset-offside-line" (a Line2D at the line's x), "inset-ball-line", "inset-reach",
"inset-ball", "inset-player:<id>".
"""

from __future__ import annotations

import math
import os
import textwrap

import numpy as np
from matplotlib import patheffects
from matplotlib.axes import Axes
from matplotlib.backend_bases import RendererBase
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure
from matplotlib.lines import Line2D
from matplotlib.patches import Circle, FancyArrowPatch, FancyBboxPatch, Polygon, Rectangle
from matplotlib.text import Text

from varroom.engine.explain import distance
from varroom.engine.uncertainty import ConfidenceClass
from varroom.engine.verdict import Verdict
from varroom.model.situation import Situation
from varroom.output_file import check_target, write_png
from varroom.pictures import style
from varroom.pictures.story import Figure as Who
from varroom.pictures.story import Side, Story
from varroom.pictures.topdown import draw_pitch, fit_box

WIDTH_PX, HEIGHT_PX, DPI = 1920, 1080, 100
SIDE = 0.035  # left and right margin, figure fraction

ANNOUNCEMENT_TOP = 0.165
CARD_Y, CARD_H, CARD_W, CARD_GAP = 0.2, 0.205, 0.272, 0.014
MARGIN_CENTRE = SIDE + CARD_W + CARD_GAP / 2
INSET_RECT = (0.615, 0.2, 0.35, 0.415)

_SHADOW = [patheffects.withStroke(linewidth=6, foreground="#05080c")]
_HALO = [patheffects.withStroke(linewidth=3, foreground="#0b1118")]
_CONFIDENCE = {
    ConfidenceClass.CLEAR: "clear",
    ConfidenceClass.TIGHT: "tight",
    ConfidenceClass.TOO_CLOSE_TO_CALL: "too close to call",
}


def write_screen(situation: Situation, verdict: Verdict, path: str | os.PathLike[str]) -> None:
    """Write the stadium-screen still as a 1920 x 1080 PNG (temporary file, then rename).
    A path that cannot be written is a `PictureError`."""
    target = check_target(path, "screen picture", (".png",))
    write_png(target, "screen picture", draw_screen(situation, verdict), DPI)


def draw_screen(situation: Situation, verdict: Verdict) -> Figure:
    """The screen as a Figure (not attached to pyplot)."""
    story = Story(situation, verdict)
    figure = Figure(figsize=(WIDTH_PX / DPI, HEIGHT_PX / DPI), dpi=DPI, facecolor=style.BACKGROUND)
    renderer = FigureCanvasAgg(figure).get_renderer()
    _top_strip(figure, story)
    _headline(figure, story, renderer)
    _margin(figure, story)
    for who, left, key in (
        (story.attacker(), SIDE, "attacker"),
        (story.defender(), SIDE + CARD_W + CARD_GAP, "defender"),
    ):
        if who is not None:
            _card(figure, story, who, (left, CARD_Y, CARD_W, CARD_H), key, renderer)
    _inset(figure.add_axes(INSET_RECT), story)
    _announcement(figure, story, renderer)
    return figure


# -- text helpers ---------------------------------------------------------------------------


def _fit_width(text: Text, renderer: RendererBase, width_px: float, least: float) -> None:
    """Shrink the text until it fits `width_px`, no smaller than `least` points."""
    size = float(text.get_fontsize())
    while size > least and text.get_window_extent(renderer).width > width_px:
        size = max(least, size * 0.93)
        text.set_fontsize(size)


def _wrap(text: Text, renderer: RendererBase, width_px: float) -> int:
    """Wrap the text's words to `width_px` as the renderer measures them; returns the lines."""
    words = text.get_text().split()
    lines: list[str] = []
    for word in words:
        trial = f"{lines[-1]} {word}" if lines else word
        text.set_text(trial)
        if lines and text.get_window_extent(renderer).width <= width_px:
            lines[-1] = trial
        else:
            lines.append(word)
    text.set_text("\n".join(lines))
    return len(lines)


# -- parts ----------------------------------------------------------------------------------


def _top_strip(figure: Figure, story: Story) -> None:
    figure.add_artist(
        Rectangle((0, 0.935), 1, 0.065, transform=figure.transFigure, color=style.PANEL)
    )
    figure.add_artist(
        Rectangle((0, 0.932), 1, 0.004, transform=figure.transFigure, color=story.colour)
    )
    figure.text(
        SIDE,
        0.967,
        " VAR ",
        color=style.BACKGROUND,
        fontproperties=style.headline_font(24),
        va="center",
        ha="left",
        bbox=dict(boxstyle="square,pad=0.25", facecolor=style.TEXT, edgecolor="none"),
    )
    figure.text(
        SIDE + 0.05,
        0.967,
        "REVIEW  \u00b7  OFFSIDE CHECK  \u00b7  LAW 11",
        color=style.TEXT,
        fontproperties=style.headline_font(22),
        va="center",
        ha="left",
    )
    match = story.match_line()
    if match:
        figure.text(
            1 - SIDE,
            0.967,
            textwrap.shorten(match, 90, placeholder=" \u2026"),
            color=style.MUTED,
            fontsize=16,
            va="center",
            ha="right",
            gid="screen-match",
        )


def _headline(figure: Figure, story: Story, renderer: RendererBase) -> None:
    text = figure.text(
        0.5,
        0.812,
        story.headline,
        color=story.colour,
        fontproperties=style.headline_font(165),
        ha="center",
        va="center",
        gid="screen-headline",
        path_effects=_SHADOW,
    )
    _fit_width(text, renderer, (1 - 2 * SIDE) * WIDTH_PX, 60)
    sub = story.sentence()
    if sub:
        line = figure.text(
            0.5,
            0.69,
            sub,
            color=style.TEXT,
            fontsize=25,
            ha="center",
            va="center",
            gid="screen-subheadline",
        )
        _fit_width(line, renderer, (1 - 2 * SIDE) * WIDTH_PX, 16)


def _margin(figure: Figure, story: Story) -> None:
    """The margin, big, above the two cards; its 95% interval under the caption."""
    text = story.margin_text() or "\u2014"
    figure.text(
        MARGIN_CENTRE,
        0.535,
        text,
        color=story.colour,
        fontproperties=style.headline_font(124),
        ha="center",
        va="center",
        gid="screen-margin",
        path_effects=_SHADOW,
    )
    caption = story.margin_caption() or "no margin: the offside line cannot be drawn"
    figure.text(
        MARGIN_CENTRE,
        0.452,
        caption.upper(),
        color=style.TEXT,
        fontproperties=style.headline_font(26),
        ha="center",
        va="center",
        gid="screen-margin-caption",
    )
    spread = story.v.uncertainty
    if spread is None or story.margin is None:
        return
    low, high = spread.margin_ci_m
    if not (math.isfinite(low) and math.isfinite(high)):
        return
    label = _CONFIDENCE.get(spread.confidence_class, "")
    figure.text(
        MARGIN_CENTRE,
        0.42,
        f"95% interval {_signed(low)} to {_signed(high)}  \u00b7  {label}",
        color=style.MUTED,
        fontsize=15,
        ha="center",
        va="center",
        gid="screen-interval",
    )


def _signed(value: float) -> str:
    text = distance(value)
    if text == "0 cm":
        return "\u00b10 cm"
    return ("+" if value > 0 else "\u2212") + text


def _card(
    figure: Figure,
    story: Story,
    who: Who,
    rect: tuple[float, float, float, float],
    key: str,
    renderer: RendererBase,
) -> None:
    ax = figure.add_axes(rect)
    ax.set_axis_off()
    ax.set_xlim(0, 1)
    ax.set_ylim(0, 1)
    width_px, height_px = rect[2] * WIDTH_PX, rect[3] * HEIGHT_PX
    ax.add_patch(
        FancyBboxPatch(
            (0.0, 0.0),
            1.0,
            1.0,
            boxstyle="round,pad=0,rounding_size=0.05",
            facecolor=style.PANEL,
            edgecolor=style.PANEL_EDGE,
            linewidth=1.5,
            mutation_aspect=height_px / width_px,
        )
    )
    ax.add_patch(Rectangle((0.0, 0.0), 0.016, 1.0, color=who.colour))
    size_px = 0.7 * height_px
    badge = figure.add_axes(
        (
            rect[0] + 0.05 * rect[2],
            rect[1] + (rect[3] - size_px / HEIGHT_PX) / 2,
            size_px / WIDTH_PX,
            size_px / HEIGHT_PX,
        )
    )
    badge.set_axis_off()
    badge.set_xlim(-1, 1)
    badge.set_ylim(-1, 1)
    badge.set_aspect("equal")
    if who.kind is Side.BALL:
        _ball_badge(badge)
    elif who.kind is Side.HALFWAY_LINE:
        badge.add_patch(
            Circle((0, 0), 0.96, facecolor=style.PITCH, edgecolor=style.PITCH_LINES, lw=3)
        )
        badge.add_line(Line2D([0, 0], [-0.96, 0.96], color=style.PITCH_LINES, lw=4))
    else:
        badge.add_patch(Circle((0, 0), 0.96, facecolor=who.colour, edgecolor="white", lw=3))
        number = "" if who.number is None else str(who.number)
        badge.text(
            0,
            -0.03,
            number,
            color="#0b1118",
            fontproperties=style.headline_font(60 if len(number) <= 2 else 42),
            ha="center",
            va="center",
            gid=f"screen-{key}-number",
        )
    text_x = 0.05 + size_px / width_px + 0.055
    role = who.role.upper() + (f"  \u00b7  {who.team}" if who.team else "")
    role_text = ax.text(
        text_x,
        0.79,
        role,
        color=style.MUTED,
        fontsize=15,
        ha="left",
        va="center",
        gid=f"screen-{key}-role",
    )
    _fit_width(role_text, renderer, (1 - text_x - 0.04) * width_px, 10)
    name = ax.text(
        text_x,
        0.5,
        who.name.upper(),
        color=style.TEXT,
        fontproperties=style.headline_font(52),
        ha="left",
        va="center",
        gid=f"screen-{key}-name",
    )
    _fit_width(name, renderer, (1 - text_x - 0.04) * width_px, 22)
    point = ax.text(
        text_x,
        0.2,
        _point_line(story, who),
        color=style.TEXT if who.kind is Side.BALL else who.colour,
        fontsize=17,
        ha="left",
        va="center",
        gid=f"screen-{key}-point",
    )
    _fit_width(point, renderer, (1 - text_x - 0.04) * width_px, 11)


def _point_line(story: Story, who: Who) -> str:
    if who.kind is Side.BALL:
        return f"when {story.played_label()}"
    if who.kind is Side.HALFWAY_LINE:
        return "own half: nobody is offside there"
    if who.number is not None and who.player is not None and who.player.name:
        return f"#{who.number}  \u00b7  {who.point}"
    return who.point


def _ball_badge(ax: Axes) -> None:
    """A white ball with a pentagon in the middle and five round it."""
    ax.add_patch(Circle((0, 0), 0.96, facecolor="white", edgecolor="none"))

    def pentagon(cx: float, cy: float, r: float, turn: float) -> np.ndarray:
        angles = turn + np.arange(5) * 2 * np.pi / 5
        return np.column_stack([cx + r * np.cos(angles), cy + r * np.sin(angles)])

    ax.add_patch(Polygon(pentagon(0, 0, 0.32, math.pi / 2), color="#111827"))
    for k in range(5):
        a = math.pi / 2 + math.pi / 5 + k * 2 * math.pi / 5
        ax.add_patch(
            Polygon(
                pentagon(0.8 * math.cos(a), 0.8 * math.sin(a), 0.24, a + math.pi),
                color="#111827",
                clip_on=True,
            )
        )
    ring = Circle((0, 0), 0.96, facecolor="none", edgecolor="#cbd5e1", lw=3)
    ax.add_patch(ring)
    for patch in ax.patches[1:-1]:
        patch.set_clip_path(ring)


def _inset(ax: Axes, story: Story) -> None:
    s, touch, line = story.s, story.touch, story.line
    focus = story.focus_judged
    points: list[tuple[float, float]] = [(touch.ball_m[0], touch.ball_m[1])]
    if focus is not None:
        points.append((focus.reach.x_m, focus.reach.y_m))
    if line is not None:
        points.append((line.x_m, focus.reach.y_m if focus is not None else 0.0))
        if line.second_last_reach is not None:
            points.append((line.second_last_reach.x_m, line.second_last_reach.y_m))
    aspect = (INSET_RECT[2] * WIDTH_PX) / (INSET_RECT[3] * HEIGHT_PX)
    box = fit_box(
        points, s.pitch, aspect, story.sign, pad_m=6.0, min_span=(26.0, 16.0), near_goal_m=None
    )
    draw_pitch(ax, s.pitch, box, linewidth=1.6)
    ax.set_title(
        f"AT THE MOMENT OF PLAY  \u00b7  {story.played_label().upper()}",
        color=style.MUTED,
        fontproperties=style.headline_font(17),
        loc="left",
        pad=7,
    )
    hw = s.pitch.half_width_m
    if line is not None:
        if abs(line.ball_x_m - line.x_m) > 1e-9:
            ax.add_line(
                Line2D(
                    [line.ball_x_m] * 2,
                    [-hw, hw],
                    color=style.LINE,
                    lw=1.3,
                    alpha=0.6,
                    ls=(0, (6, 5)),
                    zorder=3,
                    gid="inset-ball-line",
                )
            )
        ax.add_line(
            Line2D(
                [line.x_m] * 2,
                [-hw, hw],
                color=style.LINE,
                lw=3.0,
                zorder=3.2,
                gid="inset-offside-line",
                path_effects=[
                    patheffects.withStroke(linewidth=5.5, foreground="#0b1510", alpha=0.6)
                ],
            )
        )
    key = {story.focus}
    defender = story.defender()
    if defender is not None and defender.player is not None:
        key.add(defender.player.id)
    for player_id, position in touch.positions.items():
        if player_id not in s.players:
            continue
        big = player_id in key
        ax.add_line(
            Line2D(
                [position.x_m],
                [position.y_m],
                marker="o",
                ls="",
                markersize=19 if big else 11,
                color=story.team_colour(player_id),
                markeredgecolor="white" if big else "#0b1118",
                markeredgewidth=2.0 if big else 1.0,
                zorder=5 if big else 4,
                gid=f"inset-player:{player_id}",
            )
        )
        number = s.players[player_id].number
        if big and number is not None:
            ax.text(
                position.x_m,
                position.y_m,
                str(number),
                color="#0b1118",
                fontsize=10,
                fontweight="bold",
                ha="center",
                va="center",
                zorder=6,
                clip_on=True,
            )
    if focus is not None and line is not None:
        margin = story.margin
        colour = (
            style.AMBER
            if margin is None
            else (style.OFFSIDE_RED if margin > 0 else style.ONSIDE_GREEN)
        )
        ax.add_line(
            Line2D(
                [focus.reach.x_m],
                [focus.reach.y_m],
                marker="X",
                markersize=13,
                color=colour,
                markeredgecolor="white",
                ls="",
                zorder=7,
                gid="inset-reach",
            )
        )
        attacker = story.attacker()
        if attacker is not None:
            ax.annotate(
                attacker.name,
                (focus.reach.x_m, focus.reach.y_m),
                xytext=(0, 16),
                textcoords="offset points",
                color=style.TEXT,
                fontsize=15,
                ha="center",
                va="bottom",
                fontweight="bold",
                zorder=8,
                annotation_clip=True,
                path_effects=_HALO,
            )
    ax.add_line(
        Line2D(
            [touch.ball_m[0]],
            [touch.ball_m[1]],
            marker="o",
            markersize=10,
            color=style.BALL,
            markeredgecolor="#111827",
            markeredgewidth=1.5,
            ls="",
            zorder=7,
            gid="inset-ball",
        )
    )
    _attack_arrow(ax, story, box)


def _attack_arrow(ax: Axes, story: Story, box: tuple[float, float, float, float]) -> None:
    x0, y0, x1, y1 = box
    w, h = x1 - x0, y1 - y0
    left, right = x0 + 0.04 * w, x0 + 0.16 * w
    tail, head = ((left, y0 + 0.07 * h), (right, y0 + 0.07 * h))
    if story.sign < 0:
        tail, head = head, tail
    ax.add_patch(
        FancyArrowPatch(
            tail, head, arrowstyle="-|>", mutation_scale=22, color=style.ATTACKERS, lw=3, zorder=8
        )
    )
    ax.text(
        (left + right) / 2,
        y0 + 0.1 * h,
        f"{story.s.attacking_team} attack",
        color=style.ATTACKERS,
        fontsize=12,
        ha="center",
        va="bottom",
        fontweight="bold",
        zorder=8,
        path_effects=_HALO,
    )


def _announcement(figure: Figure, story: Story, renderer: RendererBase) -> None:
    figure.add_artist(
        Rectangle((0, 0), 1, ANNOUNCEMENT_TOP, transform=figure.transFigure, color=style.PANEL)
    )
    figure.add_artist(
        Rectangle(
            (0, ANNOUNCEMENT_TOP - 0.002),
            1,
            0.004,
            transform=figure.transFigure,
            color=story.colour,
        )
    )
    width_px = (1 - 2 * SIDE) * WIDTH_PX
    text = figure.text(
        SIDE,
        ANNOUNCEMENT_TOP / 2,
        story.announcement(),
        color=style.TEXT,
        fontsize=25,
        ha="left",
        va="center",
        linespacing=1.35,
        gid="screen-announcement",
    )
    original = text.get_text()
    for size in (25, 23, 21, 19, 17, 15):
        text.set_fontsize(size)
        text.set_text(original)
        if _wrap(text, renderer, width_px) <= 3:
            break
