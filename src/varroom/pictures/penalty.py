"""Pictures of a penalty kick: a close-up of the goal line with the goalkeeper's feet and the
margin, the penalty area with every player, the 9.15 m arc and who encroached, and the
stadium-screen still. Drawn in depth coordinates (the goal always to the right), so a kick
towards -x looks the same as one towards +x.
"""

from __future__ import annotations

import textwrap
from pathlib import Path

import numpy as np
from matplotlib.axes import Axes
from matplotlib.figure import Figure
from matplotlib.patches import Arc, Circle, Rectangle

from varroom.engine.explain import distance
from varroom.engine.penalty_verdict import OffenceKind, PenaltyVerdict
from varroom.law.penalty import FOOT_PARTS, Decision, goal_line_depth_m
from varroom.model.penalty import (
    GOAL_HALF_WIDTH_M,
    PENALTY_AREA_DEPTH_M,
    PENALTY_AREA_HALF_WIDTH_M,
    PENALTY_MARK_M,
    PenaltyKick,
)
from varroom.output_file import check_target, write_png

_GRASS, _LINE, _TEXT = "#2e6b3a", "#f4f4f4", "#f4f4f4"
_ATTACK, _DEFENCE, _OFFENCE, _LEGAL = "#f2c14e", "#5fa8d3", "#e4572e", "#76c893"
_DECISION = {
    Decision.GOAL: "GOAL",
    Decision.NO_GOAL: "NO GOAL",
    Decision.RETAKE: "RETAKE",
    Decision.INDIRECT_FREE_KICK: "INDIRECT FREE KICK",
}


def write_penalty_png(kick: PenaltyKick, verdict: PenaltyVerdict, path: Path) -> None:
    """The two top-down views side by side, with the decision and the reason (PNG)."""
    target = check_target(path, "picture", (".png",))
    figure = Figure(figsize=(14, 7.6), facecolor="#0f1f14")
    close, area = figure.subplots(1, 2, gridspec_kw={"width_ratios": [1, 1.35]})
    draw_goal_line(close, kick, verdict)
    draw_area(area, kick, verdict)
    figure.suptitle(_title(kick, verdict), color=_TEXT, fontsize=17, weight="bold")
    figure.text(
        0.5,
        0.02,
        "\n".join(textwrap.wrap(verdict.reason, 170)),
        color=_TEXT,
        ha="center",
        va="bottom",
        fontsize=9,
    )
    figure.subplots_adjust(left=0.03, right=0.97, top=0.9, bottom=0.16, wspace=0.04)
    write_png(target, "picture", figure, dpi=110)


def write_penalty_screen(kick: PenaltyKick, verdict: PenaltyVerdict, path: Path) -> None:
    """The stadium-screen still (1920x1080): the decision, the goal-line close-up and the
    announcement, large enough to read across a stadium."""
    target = check_target(path, "screen still", (".png",))
    figure = Figure(figsize=(19.2, 10.8), facecolor="#08120b")
    ax = figure.add_axes((0.05, 0.2, 0.5, 0.62))
    draw_goal_line(ax, kick, verdict, size=1.8)
    figure.text(0.05, 0.9, _title(kick, verdict), color=_TEXT, fontsize=54, weight="bold")
    side = figure.add_axes((0.6, 0.2, 0.36, 0.62))
    draw_area(side, kick, verdict, size=1.6)
    figure.text(
        0.05, 0.06, "\n".join(textwrap.wrap(verdict.announcement, 80)), color=_TEXT, fontsize=28
    )
    write_png(target, "screen still", figure, dpi=100)


def _title(kick: PenaltyKick, verdict: PenaltyVerdict) -> str:
    title = _DECISION[verdict.decision]
    return f"{title} to {verdict.restart_team}" if verdict.restart_team else title


def _depth(kick: PenaltyKick, x_m: float, y_m: float) -> tuple[float, float]:
    """Pitch coordinates turned so the goal is to the right (a half turn for -x)."""
    sign = kick.attack_direction.sign
    return sign * x_m, sign * y_m


def draw_goal_line(ax: Axes, kick: PenaltyKick, verdict: PenaltyVerdict, size: float = 1.0) -> None:
    """The goal line's markings, the goalkeeper's feet and his margin, to the centimetre."""
    half = kick.pitch.half_length_m
    front = goal_line_depth_m(kick.pitch, kick.line_width_m, verdict.settings)
    ax.set_facecolor(_GRASS)
    keeper = verdict.keeper
    centre_y = 0.0 if keeper is None else _depth(kick, 0.0, kick.positions[keeper].y_m)[1]
    ax.add_patch(Rectangle((front, centre_y - 2), half - front, 4, color=_LINE, zorder=1))
    ax.set_xlim(front - 1.1, half + 0.3)
    ax.set_ylim(centre_y - 0.7, centre_y + 0.7)
    ax.set_aspect("equal")
    ax.set_xticks([])
    ax.set_yticks([])
    ax.set_title("goal line close-up", color=_TEXT, fontsize=11 * size)
    if keeper is None or verdict.keeper_measure is None:
        ax.text(front - 0.5, centre_y, "no goalkeeper in the file", color=_TEXT, ha="center")
        return
    position = kick.positions[keeper]
    off = any(o.what is OffenceKind.GOALKEEPER_OFF_LINE for o in verdict.offences)
    colour = _OFFENCE if off else _LEGAL
    feet = [p for p in position.parts if p.part in FOOT_PARTS]
    for side in ("left", "right"):
        points = [
            _depth(kick, p.x_m, position.y_m if p.y_m is None else p.y_m)
            for p in feet
            if p.part.value.startswith(side)
        ]
        if points:
            xs, ys = zip(*points, strict=True)
            ax.plot(xs, ys, color=colour, linewidth=6, solid_capstyle="round", zorder=3)
            ax.text(
                min(xs) - 0.06,
                float(np.mean(ys)),
                side,
                color=_TEXT,
                ha="right",
                va="center",
                fontsize=9 * size,
                zorder=4,
            )
    if not feet:
        x, y = _depth(kick, position.x_m, position.y_m)
        ax.add_patch(Circle((x, y), 0.12, color=colour, zorder=3))
    margin = verdict.keeper_measure.margin_m
    nearest_x = front - margin
    ax.annotate(
        "",
        xy=(front, centre_y + 0.4),
        xytext=(nearest_x, centre_y + 0.4),
        arrowprops={"arrowstyle": "<->", "color": _TEXT, "lw": 1.5},
        zorder=5,
    )
    ax.axvline(nearest_x, color=colour, linestyle="--", linewidth=1, zorder=2)
    where = "in front of the line" if margin > 0 else "behind its front edge: on the line"
    part = "tracked point" if verdict.keeper_part is None else verdict.keeper_part.value
    ax.text(
        front - 0.55,
        centre_y + 0.5,
        f"{part.replace('_', ' ')} {distance(margin)} {where}\n"
        f"± {distance(verdict.keeper_measure.se_m)}, "
        f"P(off the line) {verdict.keeper_measure.probability:.0%}",
        color=_TEXT,
        ha="center",
        va="bottom",
        fontsize=11 * size,
        zorder=5,
        bbox={"facecolor": "#0f1f14", "edgecolor": colour, "alpha": 0.85},
    )


def draw_area(ax: Axes, kick: PenaltyKick, verdict: PenaltyVerdict, size: float = 1.0) -> None:
    """The penalty area, the mark and the 9.15 m arc, every player, and who encroached."""
    half = kick.pitch.half_length_m
    edge = half - PENALTY_AREA_DEPTH_M
    mark = half - PENALTY_MARK_M
    ax.set_facecolor(_GRASS)
    ax.add_patch(
        Rectangle(
            (edge, -PENALTY_AREA_HALF_WIDTH_M),
            PENALTY_AREA_DEPTH_M,
            2 * PENALTY_AREA_HALF_WIDTH_M,
            fill=False,
            edgecolor=_LINE,
            linewidth=1.5,
            zorder=1,
        )
    )
    ax.plot([half, half], [-kick.pitch.half_width_m, kick.pitch.half_width_m], color=_LINE, lw=1.5)
    ax.plot([half, half], [-GOAL_HALF_WIDTH_M, GOAL_HALF_WIDTH_M], color=_LINE, lw=5)
    ax.add_patch(Circle((mark, 0.0), 0.2, color=_LINE, zorder=1))
    distance_m = verdict.settings.mark_distance_m
    ax.add_patch(
        Arc(
            (mark, 0.0),
            2 * distance_m,
            2 * distance_m,
            theta1=0,
            theta2=360,
            edgecolor=_LINE,
            linewidth=1,
            linestyle=":",
            zorder=1,
        )
    )
    encroached = {o.player: o for o in verdict.offences if o.what is OffenceKind.ENCROACHMENT}
    for pid, position in kick.positions.items():
        x, y = _depth(kick, position.x_m, position.y_m)
        colour = _ATTACK if kick.is_attacker(pid) else _DEFENCE
        ax.add_patch(Circle((x, y), 0.55, color=colour, zorder=3))
        label = kick.players[pid].short_label
        if pid in encroached:
            offence = encroached[pid]
            ax.add_patch(Circle((x, y), 1.1, fill=False, edgecolor=_OFFENCE, linewidth=2, zorder=4))
            assert offence.measure is not None
            state = "penalised" if offence.penalised else "not penalised"
            label = f"{label}: {distance(offence.measure.margin_m)} in ({state})"
        ax.text(x, y - 1.0, label, color=_TEXT, ha="center", va="top", fontsize=8 * size, zorder=5)
    bx, by = _depth(kick, kick.ball_m[0], kick.ball_m[1])
    ax.add_patch(Circle((bx, by), 0.3, color="white", ec="black", zorder=6))
    ax.set_xlim(edge - 8.0, half + 2.0)
    ax.set_ylim(-PENALTY_AREA_HALF_WIDTH_M - 3, PENALTY_AREA_HALF_WIDTH_M + 3)
    ax.set_aspect("equal")
    ax.set_xticks([])
    ax.set_yticks([])
    ax.set_title("the penalty area at the kick", color=_TEXT, fontsize=11 * size)
