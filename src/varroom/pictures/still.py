"""The decision drawn on the broadcast still it was marked on (`varroom still --image`).

The offside line is the ground line x = const through the point that set it, drawn where the
fitted camera truly puts it: a straight line for a homography, a curve under lens distortion;
never a vertical or a parallel to the picture's edges. Beside it: the attacker's line, the band
of the margin's 95% interval around it, the marks and the landmarks (each with where the camera
puts it, so a misplaced one shows), and the verdict in words.
"""

from __future__ import annotations

import os

import numpy as np
import numpy.typing as npt
from matplotlib.axes import Axes
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure

from varroom.engine.verdict import Status
from varroom.output_file import check_target, write_png
from varroom.still.camera import Floats
from varroom.still.judge import StillVerdict
from varroom.still.marks import BALL

DPI = 100.0
_LINE = "#ffd60a"
_ATTACKER = {Status.OFFENCE: "#ff3b30", Status.NO_OFFENCE: "#34c759", Status.UNDECIDABLE: "#ff9f0a"}
_TEAM = ("#ff3b30", "#0a84ff")  # attackers, defenders


def offside_line_pixels(result: StillVerdict) -> Floats | None:
    """The offside line's pixels (a polyline from touchline to touchline), None without one."""
    judgement = result.verdict.judgement
    if judgement is None or judgement.line is None:
        return None
    return _across(result, judgement.line.x_m)


def _across(result: StillVerdict, x_m: float) -> Floats:
    half = result.marks.pitch.half_width_m
    return result.calibration.ground_line(x_m, -half, half)


def draw_still(result: StillVerdict, image: npt.NDArray[np.uint8] | None) -> Figure:
    """The still with the decision drawn on it, as a Figure (not attached to pyplot) of the
    still's size in pixels."""
    width, height = result.marks.size
    figure = Figure(figsize=(width / DPI, height / DPI), dpi=DPI, facecolor="#0a0f14")
    FigureCanvasAgg(figure)
    ax = figure.add_axes((0, 0, 1, 1))
    ax.set_xlim(0, width)
    ax.set_ylim(height, 0)
    ax.set_axis_off()
    if image is not None:
        ax.imshow(image, extent=(0, width, height, 0), interpolation="nearest", zorder=0)
    scale = width / 1920  # sizes are set for a 1920-pixel still
    verdict = result.verdict
    judgement = verdict.judgement
    player = verdict.offender or verdict.nearest_attacker
    if judgement is not None and judgement.line is not None and player is not None:
        attacker_x = judgement.attackers[player].reach.x_m
        colour = _ATTACKER[verdict.status]
        if result.margin_se_m is not None:
            reach = 1.96 * result.margin_se_m
            near, far = _across(result, attacker_x - reach), _across(result, attacker_x + reach)
            band = np.concatenate([near, far[::-1]])
            if len(band) >= 3:
                ax.fill(band[:, 0], band[:, 1], color=colour, alpha=0.22, lw=0, zorder=2)
        line = offside_line_pixels(result)
        assert line is not None
        ax.plot(line[:, 0], line[:, 1], color=_LINE, lw=2.2 * scale, zorder=3)
        attacker = _across(result, attacker_x)
        ax.plot(attacker[:, 0], attacker[:, 1], color=colour, lw=1.6 * scale, ls="--", zorder=3)
    _marks(ax, result, scale)
    _landmarks(ax, result, scale)
    _caption(ax, result, scale)
    return figure


def write_still_png(
    result: StillVerdict, image: npt.NDArray[np.uint8] | None, path: str | os.PathLike[str]
) -> None:
    """Write the drawn still as a PNG of the still's own size."""
    target = check_target(path, "still picture", (".png",))
    write_png(target, "still picture", draw_still(result, image), DPI)


def _marks(ax: Axes, result: StillVerdict, scale: float) -> None:
    marks = result.marks
    for pid, mark in marks.marks.items():
        colour = _TEAM[0] if marks.players[pid].team == marks.attacking_team else _TEAM[1]
        u, v = mark.pixel
        ax.plot(u, v, marker="o", ms=7 * scale, mfc="none", mec=colour, mew=2 * scale, zorder=4)
        ax.annotate(
            marks.players[pid].short_label,
            (u, v),
            xytext=(6 * scale, 8 * scale),
            textcoords="offset pixels",
            color="white",
            fontsize=9 * scale,
            fontweight="bold",
            bbox={"boxstyle": "round,pad=0.2", "fc": colour, "ec": "none", "alpha": 0.85},
            zorder=5,
        )
    if BALL in marks.pixels():
        u, v = marks.pixels()[BALL].pixel
        ax.plot(u, v, marker="o", ms=6 * scale, mfc="none", mec="white", mew=2 * scale, zorder=4)


def _landmarks(ax: Axes, result: StillVerdict, scale: float) -> None:
    landmarks = result.marks.landmarks
    clicked = np.array([lm.pixel for lm in landmarks])
    placed = result.calibration.project([lm.pitch_m for lm in landmarks])
    ax.plot(clicked[:, 0], clicked[:, 1], "+", color="#5ac8fa", ms=9 * scale, mew=1.5 * scale)
    ax.plot(placed[:, 0], placed[:, 1], "o", mfc="none", mec="#5ac8fa", ms=6 * scale, mew=1)


def _caption(ax: Axes, result: StillVerdict, scale: float) -> None:
    verdict = result.verdict
    calibration = result.calibration
    head = {
        Status.OFFENCE: f"OFFSIDE: {verdict.offender}",
        Status.NO_OFFENCE: "NO OFFSIDE OFFENCE",
        Status.UNDECIDABLE: "CANNOT BE DECIDED FROM THIS STILL",
    }[verdict.status]
    lines = [head]
    spread = verdict.uncertainty
    if verdict.margin_m is not None and spread is not None:
        lo, hi = spread.margin_ci_m
        lines.append(
            f"margin {verdict.margin_m * 100:+.0f} cm (95%: {lo * 100:+.0f} to {hi * 100:+.0f} cm), "
            f"P(offside position) {spread.probability:.1%}"
        )
    lines.append(
        f"camera: {calibration.method.value} from {len(calibration.residuals_px)} landmarks, "
        f"{calibration.reprojection_px:.1f} px RMS; marks \u00b1{result.marks.pixel_sd:g} px"
    )
    ax.text(
        16 * scale,
        16 * scale,
        "\n".join(lines),
        va="top",
        ha="left",
        color="white",
        fontsize=13 * scale,
        family="DejaVu Sans",
        bbox={"boxstyle": "round,pad=0.5", "fc": "#0a0f14", "ec": "none", "alpha": 0.78},
        zorder=6,
    )
