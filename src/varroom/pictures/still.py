"""The decision drawn on the broadcast still it was marked on (`varroom still --image`).

The offside line is the ground line x = const through the point that set it, drawn where the
fitted camera truly puts it: a straight line for a homography, a curve under lens distortion;
never a vertical or a parallel to the picture's edges. Beside it: the attacker's line, the band
of the margin's 95% interval around it, the marks and the landmarks (each with where the camera
puts it, so a misplaced one shows), and the verdict in words.

Colours come from `style`, text from `typeset` roles; every name is placed (`placement`) where it
covers no mark, no other name and not the verdict. Gids: `still-line`, `still-attacker-line`,
`still-band`, `still-player:<id>`, `still-name:<id>`, `still-ball`, `still-landmarks`,
`still-landmarks-placed`, `still-headline`, `still-detail`.
"""

from __future__ import annotations

import os

import numpy as np
import numpy.typing as npt
from matplotlib.axes import Axes
from matplotlib.figure import Figure
from matplotlib.transforms import Bbox

from varroom.engine.explain import distance
from varroom.engine.verdict import Status
from varroom.output_file import FIGURE_SUFFIXES, check_target, write_figure
from varroom.pictures import canvas, style
from varroom.pictures.canvas import pixel_figure
from varroom.pictures.placement import around, marker_boxes, place
from varroom.pictures.typeset import NAME, LabelBox, TextStyle, put, renderer_of
from varroom.still.camera import Floats
from varroom.still.judge import StillVerdict
from varroom.still.marks import BALL

DPI = canvas.DPI  # the still is saved at it (the review room too)
MARK_PT = 7.0  # a player's ring on a 1920-pixel still, in points (scaled with the still)
HEADLINE = TextStyle(30, weight="bold", va="top", zorder=7, box=LabelBox(style.DEEP, pad=0.35))
DETAIL = TextStyle(14, va="top", zorder=7, linespacing=1.35, box=LabelBox(style.DEEP, pad=0.45))


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
    figure, ax = pixel_figure(width, height)
    if image is not None:
        ax.imshow(image, extent=(0, width, height, 0), interpolation="nearest", zorder=0)
    scale = width / 1920  # sizes are set for a 1920-pixel still
    verdict = result.verdict
    judgement = verdict.judgement
    player = verdict.offender or verdict.nearest_attacker
    if judgement is not None and judgement.line is not None and player is not None:
        attacker_x = judgement.attackers[player].reach.x_m
        colour = style.status_colour(verdict.status)
        if result.margin_se_m is not None:
            reach = 1.96 * result.margin_se_m
            near, far = _across(result, attacker_x - reach), _across(result, attacker_x + reach)
            band = np.concatenate([near, far[::-1]])
            if len(band) >= 3:
                ax.fill(band[:, 0], band[:, 1], color=colour, alpha=0.22, lw=0, zorder=2)[
                    0
                ].set_gid("still-band")
        line = offside_line_pixels(result)
        assert line is not None
        ax.plot(
            line[:, 0],
            line[:, 1],
            color=style.LINE_ON_VIDEO,
            lw=2.2 * scale,
            zorder=3,
            gid="still-line",
        )
        attacker = _across(result, attacker_x)
        ax.plot(
            attacker[:, 0],
            attacker[:, 1],
            color=colour,
            lw=1.6 * scale,
            ls="--",
            zorder=3,
            gid="still-attacker-line",
        )
    taken = _caption(figure, result, scale)
    _landmarks(ax, result, scale)
    _marks(ax, result, scale, taken)
    return figure


def write_still_png(
    result: StillVerdict, image: npt.NDArray[np.uint8] | None, path: str | os.PathLike[str]
) -> None:
    """Write the drawn still as a PNG of the still's own size."""
    target = check_target(path, "still picture", FIGURE_SUFFIXES)
    write_figure(target, "still picture", draw_still(result, image), DPI)


def _marks(ax: Axes, result: StillVerdict, scale: float, taken: list[Bbox]) -> None:
    """A ring on each marked player (his team's colour) and the ball; then each name where it
    covers no ring, no other name and not the verdict."""
    marks = result.marks
    size = MARK_PT * scale
    centres: list[tuple[float, float]] = []
    for pid, mark in marks.marks.items():
        colour = (
            style.ATTACKERS
            if marks.players[pid].team == marks.attacking_team
            else (style.DEFENDERS)
        )
        u, v = mark.pixel
        ax.plot(
            u,
            v,
            marker="o",
            ms=size,
            mfc="none",
            mec=colour,
            mew=2 * scale,
            zorder=4,
            gid=f"still-player:{pid}",
        )
        centres.append((u, v))
    pixels = marks.pixels()
    if BALL in pixels:
        u, v = pixels[BALL].pixel
        ax.plot(
            u,
            v,
            marker="o",
            ms=0.85 * size,
            mfc="none",
            mec=style.BALL,
            mew=2 * scale,
            zorder=4,
            gid="still-ball",
        )
        centres.append((u, v))
    renderer = renderer_of(ax.figure)
    radius_px = (size / 2 + 2 * scale) * ax.figure.dpi / 72
    obstacles = [*marker_boxes(ax.transData.transform(np.array(centres)), radius_px), *taken]
    frame = ax.figure.bbox
    # Beside or below the ring first: above it the name would cover the player's body.
    spots = sorted((*around(8 * scale), *around(24 * scale)), key=lambda spot: spot.dy_pt > 0)
    for pid, mark in marks.marks.items():
        colour = (
            style.ATTACKERS
            if marks.players[pid].team == marks.attacking_team
            else (style.DEFENDERS)
        )
        name = NAME.but(
            size=10 * scale, colour=style.INK, halo=0, zorder=5, box=LabelBox(colour, alpha=0.9)
        )
        label = ax.annotate(
            marks.players[pid].short_label,
            mark.pixel,
            xytext=(0, 0),
            textcoords="offset points",
            gid=f"still-name:{pid}",
            **name.kwargs(),
        )
        _, box = place(label, spots, obstacles, renderer, frame)
        obstacles.append(box)


def _landmarks(ax: Axes, result: StillVerdict, scale: float) -> None:
    """Each landmark where it was clicked (+) and where the fitted camera puts it (o)."""
    landmarks = result.marks.landmarks
    clicked = np.array([lm.pixel for lm in landmarks])
    placed = result.calibration.project([lm.pitch_m for lm in landmarks])
    ax.plot(
        clicked[:, 0],
        clicked[:, 1],
        "+",
        color=style.LANDMARK,
        ms=9 * scale,
        mew=1.5 * scale,
        gid="still-landmarks",
    )
    ax.plot(
        placed[:, 0],
        placed[:, 1],
        "o",
        mfc="none",
        mec=style.LANDMARK,
        ms=6 * scale,
        mew=1,
        gid="still-landmarks-placed",
    )


def headline(result: StillVerdict) -> str:
    """The call in big words: OFFSIDE — Kane, NO OFFENCE, UNDECIDABLE — ..."""
    verdict = result.verdict
    if verdict.status is Status.OFFENCE:
        return f"OFFSIDE \u2014 {_name(result, verdict.offender)}"
    if verdict.status is Status.NO_OFFENCE:
        return "NO OFFENCE"
    return "UNDECIDABLE \u2014 this still cannot settle it"


def _name(result: StillVerdict, player_id: str | None) -> str:
    players = result.marks.players
    if player_id is None or player_id not in players:
        return player_id or "nobody"
    return players[player_id].short_label


def _caption(figure: Figure, result: StillVerdict, scale: float) -> list[Bbox]:
    """The call, top left, in its colour; under it the margin and how the camera was fitted.
    Their boxes, for the names to keep clear of."""
    verdict = result.verdict
    calibration = result.calibration
    lines = []
    spread = verdict.uncertainty
    if verdict.margin_m is not None and spread is not None:
        lo, hi = spread.margin_ci_m
        who = _name(result, verdict.offender or verdict.nearest_attacker)
        where = "beyond" if verdict.margin_m > 0 else "behind"
        lines.append(
            f"{who}: {distance(verdict.margin_m)} {where} the offside line "
            f"(95%: {lo * 100:+.0f} to {hi * 100:+.0f} cm), "
            f"P(offside position) {spread.probability:.1%}"
        )
    lines.append(
        f"camera: {calibration.method.value} from {len(calibration.residuals_px)} landmarks, "
        f"{calibration.reprojection_px:.1f} px RMS; marks \u00b1{result.marks.pixel_sd:g} px"
    )
    renderer = renderer_of(figure)
    width, height = figure.bbox.width, figure.bbox.height
    left, top = 16 * scale / width, 1 - 16 * scale / height
    head = put(
        figure,
        left,
        top,
        headline(result),
        HEADLINE.but(size=30 * scale, colour=style.status_colour(verdict.status)),
        gid="still-headline",
    )
    below = figure.transFigure.inverted().transform(head.get_window_extent(renderer))[0][1]
    detail = put(
        figure,
        left,
        below - 30 * scale / height,
        "\n".join(lines),
        DETAIL.but(size=14 * scale),
        gid="still-detail",
    )
    return [text.get_window_extent(renderer) for text in (head, detail)]
