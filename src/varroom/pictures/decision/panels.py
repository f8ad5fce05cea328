"""The column right of the main view: the map of the whole pitch, the ruler of the margin,
the touches in order and the key."""

from __future__ import annotations

import math
import textwrap
from typing import Any

from matplotlib.artist import Artist
from matplotlib.axes import Axes
from matplotlib.figure import Figure
from matplotlib.legend import Legend
from matplotlib.lines import Line2D
from matplotlib.patches import Patch
from matplotlib.text import Text
from matplotlib.ticker import MaxNLocator

from varroom.engine.explain import signed_distance
from varroom.engine.verdict import Effect, Status
from varroom.pictures import style
from varroom.pictures.decision.layout import COLUMN_LEFT, COLUMN_WIDTH
from varroom.pictures.marks import dots, outline, vline
from varroom.pictures.story import Story
from varroom.pictures.topdown import draw_pitch, shade_unseen
from varroom.pictures.typeset import (
    NOTE,
    LabelBox,
    TextStyle,
    fit_lines,
    font,
    put,
    renderer_of,
    set_tick_font,
)

TITLE = NOTE.but(va="bottom")
RULER_CAPTION = TextStyle(8.5, linespacing=1.2, va="top")
RULER_MARGIN = TextStyle(16, weight="bold", va="bottom", halo=3, halo_colour=style.LABEL_BOX)
INTERVAL_NOTE = TextStyle(
    7.5,
    colour=style.MUTED,
    ha="center",
    va="bottom",
    box=LabelBox(style.PANEL, "square", 0.1, 0.85),
)
ROW_NUMBER = TextStyle(
    8, colour=style.INK, weight="bold", ha="center", box=LabelBox(style.TOUCH, "circle", 0.2, None)
)
ROW_LABEL = TextStyle(9.5)
ROW_WHAT = TextStyle(9, ha="right", italic=True)
SIGNATURE = TextStyle(8, colour=style.FAINT, ha="right", va="bottom")
UNSEEN_NOTE = TextStyle(9, colour=style.MUTED, va="top", linespacing=1.25)
# The key: two columns of markers, tight, no frame (its text in the body face at 9 points).
LEGEND: dict[str, Any] = {
    "loc": "upper left",
    "frameon": False,
    "labelcolor": style.TEXT,
    "handlelength": 1.8,
    "borderaxespad": 0,
    "ncols": 2,
    "labelspacing": 0.45,
    "columnspacing": 1.0,
    "handletextpad": 0.5,
}

# -- the map of the whole pitch ---------------------------------------------------------------


def draw_minimap(ax: Axes, story: Story, box: tuple[float, float, float, float]) -> None:
    pitch = story.s.pitch
    hl, hw = pitch.half_length_m, pitch.half_width_m
    draw_pitch(ax, pitch, (-hl - 2, -hw - 2, hl + 2, hw + 2), linewidth=1)
    shade_unseen(ax, pitch, story.touch.view, gid="map:unseen")
    outline(ax, box, style.LINE, 1.4, dashes=(3.7, 1.6), gid="minimap-view")
    for player_id, where in story.touch.positions.items():
        colour = style.ATTACKERS if story.is_attacker(player_id) else style.DEFENDERS
        dots(ax, [where.x_m], [where.y_m], s=9, color=colour, zorder=4, linewidths=0)
    if story.line is not None:
        vline(ax, story.line.x_m, -hw, hw, style.LINE, 1.2, zorder=4.5)
    ax.set_title(
        "Where on the pitch" + ("   attack \u2192" if story.sign > 0 else "   \u2190 attack"),
        loc="left",
        pad=4,
        **TITLE.kwargs(),
    )


# -- the close-up of the margin ---------------------------------------------------------------


def draw_closeup(ax: Axes, story: Story) -> None:
    """A ruler across the line: offside line at 0, the attacker's nearest part at the margin."""
    ax.set_facecolor(style.PANEL)
    for spine in ax.spines.values():
        spine.set_color(style.SPINE)
    ax.tick_params(colors=style.MUTED, labelsize=8.5, length=3)
    ax.set_yticks([])
    ax.set_ylim(0, 1)
    line, judged, margin = story.line, story.focus_judged, story.margin
    touch = f"{story.play_label().split(' ', 1)[-1]} (touch {story.judged_at + 1})"
    if line is None or judged is None or margin is None:
        ax.set_xticks([])
        if story.judgement is None:
            why = "No team-mate's play to judge"
        elif line is None:
            why = "No offside line: fewer than two opponents on the pitch"
        else:
            why = "No attacker to measure"
        put(ax, 0.5, 0.5, textwrap.fill(why, 40), NOTE.but(ha="center"), transform=ax.transAxes)
        ax.set_title("Margin", loc="left", pad=4, **TITLE.kwargs())
        return
    sign = story.sign
    offset = judged.reach.x_m - line.x_m  # = sign * margin, in the pitch's own orientation
    receiver = story.receiver
    other = None if receiver is None else receiver.reach.x_m - line.x_m
    lo, hi = min(0.0, offset), max(0.0, offset)
    if other is not None:
        lo, hi = min(lo, other), max(hi, other)
    spread = _spread(story)
    if spread is not None:
        lo, hi = min(lo, spread[0]), max(hi, spread[1])
    pad = max((hi - lo) * (0.75 if other is None and spread is None else 0.3), 0.05)
    ax.set_xlim(lo - pad, hi + pad)
    colour = style.margin_colour(margin)
    ax.axvspan(min(0.0, offset), max(0.0, offset), color=colour, alpha=0.25, linewidth=0)
    texts: list[Text] = []  # beside the lines: the ruler widens until they fit in it
    if receiver is not None and other is not None:
        # The team-mate the reason is about, when he is not the nearest attacker.
        their = style.margin_colour(receiver.margin_m)
        vline(ax, other, 0, 1, their, 1.6, alpha=0.9, gid="closeup-receiver-line")
        texts.append(
            put(
                ax,
                other,
                0.62,
                f" {story.short(receiver.player)} {signed_distance(receiver.margin_m)} ",
                RULER_CAPTION.but(
                    colour=their,
                    weight="bold",
                    va="bottom",
                    ha="left" if other <= 0 and sign > 0 or other > 0 and sign < 0 else "right",
                ),
            )
        )
    vline(ax, 0, 0, 1, style.LINE, 2.2, gid="closeup-offside-line")
    vline(ax, offset, 0, 1, colour, 2.2, gid="closeup-reach-line")
    ball_offset = line.ball_x_m - line.x_m
    if abs(ball_offset) > 1e-9 and lo - pad < ball_offset < hi + pad:
        vline(ax, ball_offset, 0, 1, style.LINE, 1, dashes=(5, 4), alpha=0.6)
    if spread is not None:
        # The 95% interval of the margin, from the tracking's noise (varroom.engine.uncertainty).
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
        put(
            ax,
            0.5,
            0.02,
            f"95% interval, P(offside position) {probability:.0%}",
            INTERVAL_NOTE,
            transform=ax.transAxes,
        )
    ax.annotate(
        "",
        (offset, 0.3),
        (0, 0.3),
        arrowprops=dict(
            arrowstyle="<|-|>",
            color=style.TEXT,
            linewidth=1.2,
            shrinkA=0,
            shrinkB=0,
            mutation_scale=10,
        ),
    )
    # The margin between the lines when it fits there, else beside the attacker's line.
    narrow = abs(offset) < 0.3 * (hi - lo + 2 * pad)
    beyond = 1 if offset > 0 or (offset == 0 and sign > 0) else -1
    margin_text = put(
        ax,
        offset + beyond * 0.03 * (hi - lo + 2 * pad) if narrow else offset / 2,
        0.36,
        signed_distance(margin),
        RULER_MARGIN.but(
            colour=colour, ha=("left" if beyond > 0 else "right") if narrow else "center"
        ),
        gid="closeup-margin",
    )
    texts.append(margin_text)
    # Each caption on the outer side of its own line, so the two never meet.
    reach_right = offset > 0 or (offset == 0 and sign > 0)
    who = story.short(judged.player)
    part = story.reach_part().replace("off the field: ", "")
    for x, words, role, gid in (
        (
            0.0,
            "\n".join(f" {part} " for part in story.line_label(narrow=True).split("\n")),
            RULER_CAPTION.but(colour=style.LINE, ha="left" if not reach_right else "right"),
            "closeup-line-caption",
        ),
        (
            offset,
            f" {who} \n {part} " if part else f" {who} ",
            RULER_CAPTION.but(colour=colour, weight="bold", ha="left" if reach_right else "right"),
            "closeup-reach-caption",
        ),
    ):
        texts.append(put(ax, x, 0.95, words, role, gid=gid))
    left, right = _widen_for(texts, ax)
    unit, factor = ("cm", 100.0) if right - left < 3 else ("m", 1.0)
    ticks = [
        t
        for t in MaxNLocator(nbins=6, steps=[1, 2, 2.5, 5, 10]).tick_values(left, right)
        if left <= t <= right
    ]
    ax.set_xticks(ticks)
    ax.set_xticklabels([f"{t * factor:+.0f}" if unit == "cm" else f"{t:+g}" for t in ticks])
    ax.set_xlim(left, right)
    arrow = "\u2192" if sign > 0 else "\u2190"
    ax.set_xlabel(
        f"{unit} from the offside line   (goal attacked {arrow})",
        labelpad=2,
        **NOTE.but(size=8.5, ha="center", va="top").kwargs(),
    )
    ax.set_title(f"Margin at {touch}", loc="left", pad=4, **TITLE.kwargs())
    set_tick_font(ax)


def _widen_for(texts: list[Text], ax: Axes) -> tuple[float, float]:
    """Widen the ruler until the texts beside its lines lie inside it; the new limits."""
    renderer = renderer_of(ax.get_figure())
    left, right = ax.get_xlim()
    for _ in range(4):  # each widening shrinks the texts' share of the ruler: a few suffice
        window = ax.get_window_extent()
        boxes = [text.get_window_extent(renderer) for text in texts]
        out_left = max([0.0, *(window.x0 + 3 - box.x0 for box in boxes)])
        out_right = max([0.0, *(box.x1 - (window.x1 - 3) for box in boxes)])
        if out_left <= 0 and out_right <= 0:
            break
        per_px = (right - left) / window.width
        left, right = left - 1.2 * out_left * per_px, right + 1.2 * out_right * per_px
        ax.set_xlim(left, right)
    return left, right


def _spread(story: Story) -> tuple[float, float, float] | None:
    """The margin's 95% interval, in the ruler's terms (metres from the line, pitch orientation),
    and P(offside position), when the verdict carries them for the attacker shown."""
    spread = story.v.uncertainty
    margin = story.margin
    if spread is None or margin is None:
        return None
    low, high = (float(v) for v in spread.margin_ci_m)
    probability = float(spread.probability)
    same = math.isclose(float(spread.margin_m), margin, abs_tol=1e-9)
    if not (same and math.isfinite(low) and math.isfinite(high) and math.isfinite(probability)):
        return None
    ends = sorted((story.sign * low, story.sign * high))
    return ends[0], ends[1], probability


# -- the touches and the key -----------------------------------------------------------------

# The colour of what a touch did (its words are the verdict's: `Step.said`).
_EFFECT_COLOUR = {
    Effect.JUDGEMENT: style.TEXT,
    Effect.EXEMPT_RESTART: style.ONSIDE_GREEN,
    Effect.RESET: style.ONSIDE_GREEN,
    Effect.DEFLECTION: style.AMBER,
    Effect.SAVE: style.AMBER,
    Effect.REBOUND: style.AMBER,
    Effect.OUT_OF_PLAY: style.MUTED,
    Effect.OFFENCE: style.OFFSIDE_RED,
}
MAX_TOUCH_LINES = 5


def _touch_rows(story: Story) -> list[int | None]:
    """The touches to list, at most MAX_TOUCH_LINES rows: the first, the judged one, the
    involvement and the last always; then those nearest the judged one; None marks a gap."""
    path = story.path
    if len(path) <= MAX_TOUCH_LINES:
        return list(path)
    must = {path[0], path[-1], story.judged_at}
    if story.involved_at is not None:
        must.add(story.involved_at)
    others = sorted((i for i in path if i not in must), key=lambda i: abs(i - story.judged_at))
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


def touch_effect(story: Story, index: int) -> tuple[str, str]:
    """What a touch did, in the verdict's words (`Step.said`) and a colour: the touch the
    positions were judged at in the line's."""
    step = next((step for step in story.v.chain if step.index == index), None)
    if step is None:
        return "", style.MUTED
    judged = index == story.judged_at and story.judgement is not None
    colour = style.LINE if judged else _EFFECT_COLOUR[step.effect]
    return step.said, colour


def draw_touches(figure: Figure, story: Story) -> float:
    """The touches in order, numbered as on the pitch, with what each did; returns the bottom."""
    top = 0.262
    put(figure, COLUMN_LEFT, top, "Touches", NOTE.but(va="top"))
    y = top - 0.028
    for index in _touch_rows(story):
        if index is None:
            put(figure, COLUMN_LEFT + 0.008, y, "\u22ee", NOTE.but(size=9, ha="center"))
            y -= 0.024
            continue
        what, colour = touch_effect(story, index)
        put(figure, COLUMN_LEFT + 0.008, y, str(index + 1), ROW_NUMBER, gid=f"touch-row:{index}")
        put(figure, COLUMN_LEFT + 0.022, y, story.play_label(index), ROW_LABEL)
        put(
            figure,
            COLUMN_LEFT + COLUMN_WIDTH,
            y,
            what,
            ROW_WHAT.but(colour=colour),
            gid=f"touch-what:{index}",
        )
        y -= 0.024
    return y


def _key(label: str, colour: str, marker: str = "o", **line: Any) -> Line2D:
    """One entry of the key: a marker (or a line with marker="")."""
    return Line2D(
        [],
        [],
        marker=marker,
        linestyle=line.pop("linestyle", ""),
        color=colour,
        label=label,
        **line,
    )


def unseen_key() -> Patch:
    """The key's entry for the shaded part of the pitch (`topdown.shade_unseen`)."""
    return Patch(
        facecolor=style.PITCH,  # shaded grass, as on the pitch
        edgecolor=style.UNSEEN_HATCH,
        hatch="//",
        linewidth=0,
        label="out of the camera's view",
    )


def _unseen_note(figure: Figure, story: Story, legend: Legend) -> bool:
    """Under the key, for a call the unseen did not keep open, the reason's words on the
    opponents out of view (an undecidable call has them in the banner)."""
    words = story.out_of_view(whole=True)
    if not words or story.v.status is Status.UNDECIDABLE:
        return False
    renderer = renderer_of(figure)
    below = figure.transFigure.inverted().transform(legend.get_window_extent(renderer))[0][1]
    note = put(figure, COLUMN_LEFT, below - 0.008, words, UNSEEN_NOTE, gid="unseen-note")
    fit_lines(note, renderer, COLUMN_WIDTH * figure.bbox.width, 4, (9.0, 8.5, 8.0, 7.5))
    return True


def draw_legend(figure: Figure, story: Story, top: float) -> None:
    attacking = story.s.attacking_team
    defending = next((p.team for p in story.s.players.values() if p.team != attacking), "defenders")
    handles: list[Artist] = [
        _key(f"{attacking} attacking", style.ATTACKERS, markersize=10, markeredgecolor=style.RING),
        _key(
            f"{defending} defending",
            style.DEFENDERS,
            markersize=10,
            markeredgecolor=style.DEFENDER_EDGE,
        ),
        _key("goalkeeper", style.GOALKEEPER_KEY, "s", markersize=9, markeredgecolor=style.RING),
        _key(
            f"ball at touch {story.judged_at + 1}",
            style.BALL,
            markersize=9,
            markeredgecolor=style.BALL_EDGE,
        ),
        _key("offside line", style.LINE, "", linestyle="-", linewidth=2.4),
        _key("ball line", style.LINE, "", linestyle=(0, (6, 5)), linewidth=1.1, alpha=0.6),
        _key(
            "nearest counting part",
            style.margin_colour(story.margin),
            "X",
            linestyle="-",
            markersize=8,
            markeredgecolor=style.RING,
        ),
        _key("arm, hand (never counts)", style.LIGHT, "x", markersize=6),
    ]
    if story.involved_at is not None and story.involved_at != story.judged_at:
        handles.append(
            _key(
                f"{story.short(story.focus)} when involved",
                style.ATTACKERS,
                markersize=10,
                alpha=0.3,
                markeredgecolor=style.RING,
            )
        )
    if story.touch.view is not None:
        handles.append(unseen_key())
    legend = figure.legend(
        handles=handles, bbox_to_anchor=(COLUMN_LEFT - 0.004, top), prop=font(9), **LEGEND
    )
    legend.set_gid("legend")
    if _unseen_note(figure, story, legend):
        return  # the note takes the signature's corner
    put(figure, COLUMN_LEFT + COLUMN_WIDTH, 0.012, "varroom \u00b7 Law 11 offside", SIGNATURE)
