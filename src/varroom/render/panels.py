"""The column right of the main view: the map of the whole pitch, the ruler of the margin,
the touches in order and the key."""

from __future__ import annotations

import math
import textwrap

from matplotlib.axes import Axes
from matplotlib.figure import Figure
from matplotlib.lines import Line2D
from matplotlib.patches import Rectangle
from matplotlib.ticker import MaxNLocator

from varroom.engine.verdict import Effect
from varroom.render.markers import dots
from varroom.render.scene import Scene, signed_distance
from varroom.render.style import (
    AMBER,
    ATTACKERS,
    COLUMN_LEFT,
    COLUMN_WIDTH,
    DEFENDERS,
    LINE_COLOUR,
    MUTED,
    OFFSIDE_RED,
    ONSIDE_GREEN,
    PANEL,
    STROKE,
    TEXT,
    margin_colour,
)

# -- the map of the whole pitch ---------------------------------------------------------------


def draw_minimap(ax: Axes, scene: Scene, box: tuple[float, float, float, float]) -> None:
    frame = scene.frame
    frame.draw_pitch(ax, linewidth=1, pad_left=2, pad_right=2, pad_top=2, pad_bottom=2)
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
            dots(
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


def draw_closeup(ax: Axes, scene: Scene) -> None:
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
    colour = margin_colour(margin)
    ax.axvspan(min(0.0, offset), max(0.0, offset), color=colour, alpha=0.25, linewidth=0)
    if receiver is not None and other is not None:
        # The team-mate the reason is about, when he is not the nearest attacker.
        ax.add_artist(
            Line2D(
                [other, other],
                [0, 1],
                color=margin_colour(receiver.margin_m),
                linewidth=1.6,
                alpha=0.9,
                gid="closeup-receiver-line",
            )
        )
        ax.text(
            other,
            0.62,
            f" {scene.short(receiver.player)} {signed_distance(receiver.margin_m)} ",
            color=margin_colour(receiver.margin_m),
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
        path_effects=STROKE,
    )
    # Each caption on the outer side of its own line, so the two never meet.
    reach_right = offset > 0 or (offset == 0 and sign > 0)
    who = scene.short(judged.player)
    part = scene.reach_part().replace("off the field: ", "")
    ax.text(
        0,
        0.95,
        " offside line \n (" + scene.line_setter() + ") ",
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


def _spread(scene: Scene) -> tuple[float, float, float] | None:
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


def _touch_rows(scene: Scene) -> list[int | None]:
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


def draw_touches(figure: Figure, scene: Scene) -> float:
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


def draw_legend(figure: Figure, scene: Scene, top: float) -> None:
    attacking = scene.s.attacking_team
    defending = next((p.team for p in scene.s.players.values() if p.team != attacking), "defenders")
    reach_colour = margin_colour(scene.margin)
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
            color=reach_colour,
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
