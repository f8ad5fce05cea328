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

import numpy as np
from matplotlib.axes import Axes
from matplotlib.backend_bases import RendererBase
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure
from matplotlib.lines import Line2D
from matplotlib.patches import Circle, FancyArrowPatch, FancyBboxPatch, Polygon, Rectangle
from matplotlib.text import Text
from matplotlib.transforms import Bbox

from varroom.engine.explain import distance, signed_distance
from varroom.engine.judgement import LineSetter
from varroom.engine.policy import Policy, PolicyError, PolicyKind
from varroom.engine.uncertainty import ConfidenceClass
from varroom.engine.verdict import Cause, Status, Verdict
from varroom.model.situation import Situation
from varroom.output_file import FIGURE_SUFFIXES, check_target, write_figure
from varroom.pictures import style, typeset
from varroom.pictures.marks import ball_mark, vline
from varroom.pictures.placement import around, cost, overlap, place
from varroom.pictures.story import Figure as Who
from varroom.pictures.story import Side, Story
from varroom.pictures.topdown import draw_pitch, fit_box, goal_mouth, shade_unseen
from varroom.pictures.typeset import (
    LabelBox,
    TextStyle,
    fit_lines,
    put,
    shrink_to_width,
    wrap_to_width,
)

WIDTH_PX, HEIGHT_PX, DPI = 1920, 1080, 100
SIDE = 0.035  # left and right margin, figure fraction

ANNOUNCEMENT_TOP = 0.165
CARD_Y, CARD_H, CARD_W, CARD_GAP = 0.2, 0.205, 0.272, 0.014
MARGIN_CENTRE = SIDE + CARD_W + CARD_GAP / 2
INSET_RECT = (0.615, 0.2, 0.35, 0.415)
CROWD_M = 10.0  # players this near the attacker's point are in the inset's view
NEAR_M = 25.0  # the ball, and the goal mouth, this near the attacker's point too


# The text roles (typeset): the strip on top, the big words, the margin, the announcement,
# and the two cards' role line, name (in the headline face) and point.
VAR_BADGE = TextStyle(
    24, colour=style.BACKGROUND, headline=True, box=LabelBox(style.TEXT, "square", 0.25, None)
)
STRIP = TextStyle(22, headline=True)
MATCH = TextStyle(16, colour=style.MUTED, ha="right")
HEADLINE = TextStyle(165, ha="center", headline=True, halo=6)
SUBHEADLINE = TextStyle(25, ha="center")
MARGIN = HEADLINE.but(size=124)
CAPTION = TextStyle(26, ha="center", headline=True)
CERTAINTY = TextStyle(15, colour=style.MUTED, ha="center", va="top", linespacing=1.3)
ANNOUNCEMENT = TextStyle(25, linespacing=1.35)
CARD_ROLE = typeset.TextStyle(15, colour=style.MUTED)
CARD_NAME = typeset.TextStyle(52, headline=True)
CARD_POINT = typeset.TextStyle(17)


def write_screen(situation: Situation, verdict: Verdict, path: str | os.PathLike[str]) -> None:
    """Write the stadium-screen still as a 1920 x 1080 PNG (temporary file, then rename).
    A path that cannot be written is a `PictureError`."""
    target = check_target(path, "screen picture", FIGURE_SUFFIXES)
    write_figure(target, "screen picture", draw_screen(situation, verdict), DPI)


def draw_screen(situation: Situation, verdict: Verdict) -> Figure:
    """The screen as a Figure (not attached to pyplot)."""
    story = Story(situation, verdict)
    figure = Figure(figsize=(WIDTH_PX / DPI, HEIGHT_PX / DPI), dpi=DPI, facecolor=style.BACKGROUND)
    renderer = FigureCanvasAgg(figure).get_renderer()  # type: ignore[no-untyped-call]
    _top_strip(figure, story, renderer)
    _headline(figure, story, renderer)
    _margin(figure, story, renderer)
    for who, left, key in (
        (story.attacker(), SIDE, "attacker"),
        (story.defender(), SIDE + CARD_W + CARD_GAP, "defender"),
    ):
        if who is not None:
            _card(figure, story, who, (left, CARD_Y, CARD_W, CARD_H), key, renderer)
    _inset(figure.add_axes(INSET_RECT), story, renderer)
    _announcement(figure, story, renderer)
    return figure


# -- parts ----------------------------------------------------------------------------------


def _top_strip(figure: Figure, story: Story, renderer: RendererBase) -> None:
    figure.add_artist(
        Rectangle((0, 0.935), 1, 0.065, transform=figure.transFigure, color=style.PANEL)
    )
    figure.add_artist(
        Rectangle((0, 0.932), 1, 0.004, transform=figure.transFigure, color=story.colour)
    )
    put(figure, SIDE, 0.967, " VAR ", VAR_BADGE)
    title = put(figure, SIDE + 0.05, 0.967, "REVIEW  \u00b7  OFFSIDE CHECK  \u00b7  LAW 11", STRIP)
    match = story.match_line()
    if match:
        # All of it, never cut: smaller, then on two lines, in the room the title leaves.
        room = (1 - SIDE) * WIDTH_PX - title.get_window_extent(renderer).x1 - 40
        text = put(figure, 1 - SIDE, 0.967, match, MATCH, gid="screen-match")
        shrink_to_width(text, renderer, room, 12)
        if text.get_window_extent(renderer).width > room:
            wrap_to_width(text, renderer, room)


def _headline(figure: Figure, story: Story, renderer: RendererBase) -> None:
    text = put(
        figure, 0.5, 0.812, story.headline, HEADLINE.but(colour=story.colour), gid="screen-headline"
    )
    shrink_to_width(text, renderer, (1 - 2 * SIDE) * WIDTH_PX, 60)
    sub = story.sentence()
    if sub:
        line = put(figure, 0.5, 0.69, sub, SUBHEADLINE, gid="screen-subheadline")
        shrink_to_width(line, renderer, (1 - 2 * SIDE) * WIDTH_PX, 16)


def _margin(figure: Figure, story: Story, renderer: RendererBase) -> None:
    """The margin, big, above the two cards; under it what it means and how sure it is."""
    text = story.margin_text() or "\u2014"
    put(figure, MARGIN_CENTRE, 0.572, text, MARGIN.but(colour=story.colour), gid="screen-margin")
    caption = story.margin_caption() or "no margin: the offside line cannot be drawn"
    put(figure, MARGIN_CENTRE, 0.475, caption.upper(), CAPTION, gid="screen-margin-caption")
    words = certainty(story)
    if not words:
        return
    line = put(figure, MARGIN_CENTRE, 0.452, words, CERTAINTY, gid="screen-interval")
    shrink_to_width(line, renderer, (2 * CARD_W + CARD_GAP) * WIDTH_PX, 11)


def certainty(story: Story) -> str:
    """How sure the margin is, and what settled the call, in words that never contradict the
    headline: '95% interval \u22124 cm to +12 cm: too close to call.' and, when that is so, a
    second line on what decided it: 'Decided by the Law as written: the measured position
    decides, level is onside.' What another rule would have decided is not said here: beside
    the headline it reads as its contradiction (issue 27); the review room and --compare say
    it."""
    spread = story.v.uncertainty
    if spread is None or story.margin is None:
        return ""
    low, high = spread.margin_ci_m
    if not (math.isfinite(low) and math.isfinite(high)):
        return ""
    interval = f"95% interval {signed_distance(low)} to {signed_distance(high)}"
    if story.v.status is Status.UNDECIDABLE and story.v.unseen is not None:
        return f"{interval}: the players out of view decide this call."
    if story.margin > 0 and story.v.offender is None and story.v.cause is not Cause.POLICY:
        return f"{interval}: the position does not decide this call."
    close = spread.too_close_to_call
    if not close and spread.confidence_class is ConfidenceClass.CLEAR:
        return f"{interval}: clear of the measuring error."
    if not close:
        return f"{interval}: tight, but beyond the measuring error."
    try:
        rule = Policy.parse(story.v.policy).rule
    except PolicyError:
        rule = story.v.policy
    return f"{interval}: too close to call.\nDecided by {_rule(story.v.policy)}: {rule}."


def _rule(policy_name: str) -> str:
    """'the Law as written', 'a 5 cm tolerance', 'the daylight rule', 'a 95% confidence rule'."""
    try:
        policy = Policy.parse(policy_name)
    except PolicyError:
        return policy_name
    if policy.kind is PolicyKind.TOLERANCE:
        return f"a {distance(policy.tolerance_m)} tolerance"
    if policy.kind is PolicyKind.DAYLIGHT:
        return "the daylight rule"
    if policy.kind is PolicyKind.CONFIDENCE:
        return f"a {policy.confidence:.0%} confidence rule"
    return "the Law as written"


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
        badge.add_patch(Circle((0, 0), 0.96, facecolor=who.colour, edgecolor=style.RING, lw=3))
        number = "" if who.number is None else str(who.number)
        badge.text(
            0,
            -0.03,
            number,
            color=style.INK,
            fontproperties=typeset.headline_font(60 if len(number) <= 2 else 42),
            ha="center",
            va="center",
            gid=f"screen-{key}-number",
        )
    text_x = 0.05 + size_px / width_px + 0.055
    role = who.role.upper() + (f"  \u00b7  {who.team}" if who.team else "")
    point_colour = style.TEXT if who.kind is Side.BALL else who.colour
    # Who, what he is and the point measured, each shrunk to the card's width (never cut).
    for y, words, look, least, part in (
        (0.79, role, CARD_ROLE, 10, "role"),
        (0.5, who.name.upper(), CARD_NAME, 22, "name"),
        (0.2, _point_line(story, who), CARD_POINT.but(colour=point_colour), 11, "point"),
    ):
        text = typeset.put(ax, text_x, y, words, look, gid=f"screen-{key}-{part}")
        shrink_to_width(text, renderer, (1 - text_x - 0.04) * width_px, least)


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
    ax.add_patch(Circle((0, 0), 0.96, facecolor=style.BALL, edgecolor="none"))

    def pentagon(cx: float, cy: float, r: float, turn: float) -> np.ndarray:
        angles = turn + np.arange(5) * 2 * np.pi / 5
        return np.column_stack([cx + r * np.cos(angles), cy + r * np.sin(angles)])

    ax.add_patch(Polygon(pentagon(0, 0, 0.32, math.pi / 2), color=style.DEFENDER_EDGE))
    for k in range(5):
        a = math.pi / 2 + math.pi / 5 + k * 2 * math.pi / 5
        ax.add_patch(
            Polygon(
                pentagon(0.8 * math.cos(a), 0.8 * math.sin(a), 0.24, a + math.pi),
                color=style.DEFENDER_EDGE,
                clip_on=True,
            )
        )
    ring = Circle((0, 0), 0.96, facecolor="none", edgecolor=style.PALE, lw=3)
    ax.add_patch(ring)
    for patch in ax.patches[1:-1]:
        patch.set_clip_path(ring)


def _inset(ax: Axes, story: Story, renderer: RendererBase) -> None:
    s, touch, line = story.s, story.touch, story.line
    focus = story.focus_judged
    ball = (touch.ball_m[0], touch.ball_m[1])
    centre = ball if focus is None else (focus.reach.x_m, focus.reach.y_m)
    points = [centre]
    # The ball when it set the line or is near; a corner kick from the flag would otherwise
    # shrink the crowd at the goal to dots in a corner of the inset.
    if (line is not None and line.set_by is LineSetter.BALL) or math.dist(ball, centre) <= NEAR_M:
        points.append(ball)
    if line is not None:
        points.append((line.x_m, centre[1]))
        if line.second_last_reach is not None:
            points.append((line.second_last_reach.x_m, line.second_last_reach.y_m))
    # The players round the attacker, so that the crowd at the line is in the view, whole.
    points += [
        (p.x_m, p.y_m)
        for pid, p in touch.positions.items()
        if pid in s.players and math.dist((p.x_m, p.y_m), centre) <= CROWD_M
    ]
    goal_x = story.sign * s.pitch.half_length_m
    if abs(goal_x - centre[0]) <= NEAR_M:  # near the goal attacked: its whole mouth
        points += goal_mouth(s.pitch, story.sign)
    aspect = (INSET_RECT[2] * WIDTH_PX) / (INSET_RECT[3] * HEIGHT_PX)
    box = fit_box(
        points, s.pitch, aspect, story.sign, pad_m=4.0, min_span=(26.0, 16.0), near_goal_m=None
    )
    draw_pitch(ax, s.pitch, box, linewidth=1.6)
    shade_unseen(ax, s.pitch, touch.view, gid="inset-unseen")
    ax.apply_aspect()
    px_per_m = ax.get_window_extent(renderer).width / (box[2] - box[0])
    ax.set_title(
        f"AT THE MOMENT OF PLAY  \u00b7  {story.played_label().upper()}",
        color=style.MUTED,
        fontproperties=typeset.headline_font(17),
        loc="left",
        pad=7,
        gid="inset-title",
    )
    hw = s.pitch.half_width_m
    if line is not None:
        if abs(line.ball_x_m - line.x_m) > 1e-9:
            vline(ax, line.ball_x_m, -hw, hw, style.LINE, 1.3, (6, 5), 0.6, 3, "inset-ball-line")
        vline(
            ax,
            line.x_m,
            -hw,
            hw,
            style.LINE,
            3.0,
            zorder=3.2,
            gid="inset-offside-line",
            path_effects=typeset.halo(5.5, style.LABEL_BOX, 0.6),
        )
    key = {story.focus}
    defender = story.defender()
    if defender is not None and defender.player is not None:
        key.add(defender.player.id)
    marks: list[Line2D] = []
    numbers: list[Text] = []
    for player_id, position in touch.positions.items():
        if player_id not in s.players:
            continue
        big = player_id in key
        size_pt = 19 if big else 11
        # A marker cut by the frame reads as something else: one not whole in the view is left
        # out (the key players and the crowd round the attacker always are in it).
        radius_m = (size_pt / 2 + 1) * DPI / 72 / px_per_m
        if not (
            box[0] + radius_m <= position.x_m <= box[2] - radius_m
            and box[1] + radius_m <= position.y_m <= box[3] - radius_m
        ):
            continue
        marks.append(
            ax.add_line(
                Line2D(
                    [position.x_m],
                    [position.y_m],
                    marker="o",
                    ls="",
                    markersize=size_pt,
                    color=story.team_colour(player_id),
                    markeredgecolor=style.RING if big else style.INK,
                    markeredgewidth=2.0 if big else 1.0,
                    zorder=5 if big else 4,
                    gid=f"inset-player:{player_id}",
                )
            )
        )
        number = s.players[player_id].number
        if big and number is not None:
            numbers.append(
                typeset.put(
                    ax,
                    position.x_m,
                    position.y_m,
                    str(number),
                    typeset.NUMBER.but(size=10, zorder=6),
                    gid=f"inset-number:{player_id}",
                )
            )
    on_top: list[Line2D] = []
    if focus is not None and line is not None:
        on_top.append(
            ax.add_line(
                Line2D(
                    [focus.reach.x_m],
                    [focus.reach.y_m],
                    marker="X",
                    markersize=13,
                    color=style.margin_colour(story.margin),
                    markeredgecolor=style.RING,
                    ls="",
                    zorder=7,
                    gid="inset-reach",
                )
            )
        )
    ball_drawn = box[0] <= ball[0] <= box[2] and box[1] <= ball[1] <= box[3]
    on_top.append(
        ball_mark(
            ax,
            [ball[0]] if ball_drawn else [],
            [ball[1]] if ball_drawn else [],
            zorder=7,
            gid="inset-ball",
        )
    )
    top_boxes = [mark.get_window_extent(renderer) for mark in on_top]
    for shirt in numbers:
        # A shirt number under the measured point or the ball cannot be read: the mark wins.
        if any(overlap(shirt.get_window_extent(renderer), mark) for mark in top_boxes):
            shirt.remove()
    obstacles = [mark.get_window_extent(renderer) for mark in marks] + top_boxes
    frame = ax.get_window_extent(renderer)
    attacker = story.attacker()
    if focus is not None and line is not None and attacker is not None:
        name = ax.annotate(
            attacker.name,
            (focus.reach.x_m, focus.reach.y_m),
            xytext=(0, 16),
            textcoords="offset points",
            **typeset.NAME.but(size=15, zorder=8).kwargs(),
            annotation_clip=True,
            gid="inset-name",
        )
        obstacles.append(place(name, around(12), obstacles, renderer, frame)[1])
    _attack_arrow(ax, story, box, obstacles, renderer)


def _attack_arrow(
    ax: Axes,
    story: Story,
    box: tuple[float, float, float, float],
    obstacles: list[Bbox],
    renderer: RendererBase,
) -> None:
    """Which way the attack goes, in the corner of the inset where it covers nothing."""
    x0, y0, x1, y1 = box
    w, h = x1 - x0, y1 - y0
    frame = ax.get_window_extent(renderer)
    label = ax.text(
        0,
        0,
        f"{story.s.attacking_team} attack",
        **typeset.NAME.but(size=12, colour=style.ATTACKERS, zorder=8).kwargs(),
        gid="inset-attack",
    )
    best: tuple[float, float, float] | None = None
    for left in (0.04, 0.80):
        for low in (0.05, 0.85):
            label.set_position((x0 + (left + 0.06) * w, y0 + (low + 0.03) * h))
            text_box = label.get_window_extent(renderer)
            arrow_box = Bbox(
                ax.transData.transform(
                    [
                        (x0 + left * w, y0 + (low - 0.02) * h),
                        (x0 + (left + 0.12) * w, y0 + (low + 0.02) * h),
                    ]
                )
            )
            score = cost(Bbox.union([text_box, arrow_box]), obstacles, frame)
            if best is None or score < best[0]:
                best = (score, left, low)
    assert best is not None
    _, left, low = best
    label.set_position((x0 + (left + 0.06) * w, y0 + (low + 0.03) * h))
    tail, head = (x0 + left * w, y0 + low * h), (x0 + (left + 0.12) * w, y0 + low * h)
    if story.sign < 0:
        tail, head = head, tail
    ax.add_patch(
        FancyArrowPatch(
            tail,
            head,
            arrowstyle="-|>",
            mutation_scale=22,
            color=style.ATTACKERS,
            lw=3,
            zorder=8,
            gid="inset-attack-arrow",
        )
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
    text = put(
        figure,
        SIDE,
        ANNOUNCEMENT_TOP / 2,
        story.announcement(),
        ANNOUNCEMENT,
        gid="screen-announcement",
    )
    fit_lines(text, renderer, width_px, 3, (25, 23, 21, 19, 17, 15))
