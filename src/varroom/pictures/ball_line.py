"""Pictures of a ball-line verdict: the goal-line-technology view and the stadium screen.

The view shows the ball's outline against the line from above and from the side, and the gap
between the ball's nearest point and the line's outer edge magnified to millimetres; the screen
says GOAL / NO GOAL (or OUT OF PLAY / IN PLAY away from the goal). Both are plain matplotlib
Figures (no pyplot) written through `varroom.output_file`.
"""

from __future__ import annotations

import os

import numpy as np
from matplotlib.axes import Axes
from matplotlib.figure import Figure
from matplotlib.patches import Circle, Rectangle

from varroom.engine.ball_line_explain import chance, millimetres
from varroom.engine.ball_line_path import fit_path
from varroom.engine.ball_line_verdict import BallLineVerdict
from varroom.law.ball_line import outer_edge_m
from varroom.model.ball_line import BallLineCase, BallLineDecision
from varroom.output_file import check_target, write_png

GRASS = "#2f7d32"
LINE = "#f4f4f4"
BALL = "#ffd54f"
BACKGROUND = "#101418"
TEXT = "#f4f4f4"
OVER = "#2e7d32"
SHORT = "#c62828"
LINE_WIDTH_M = 0.12  # Law 1 allows up to 12 cm; drawn inside the field, as the Law has it
SKY = "#1d2833"
DPI = 100


def write_ball_line_view(
    case: BallLineCase, verdict: BallLineVerdict, path: str | os.PathLike[str]
) -> None:
    """The goal-line-technology view as a PNG (1800 x 700)."""
    target = check_target(path, "picture", (".png",))
    write_png(target, "picture", draw_ball_line_view(case, verdict), DPI)


def write_ball_line_screen(
    case: BallLineCase, verdict: BallLineVerdict, path: str | os.PathLike[str]
) -> None:
    """The stadium-screen still as a PNG (1920 x 1080)."""
    target = check_target(path, "screen picture", (".png",))
    write_png(target, "screen picture", draw_ball_line_screen(case, verdict), DPI)


def headline(case: BallLineCase, verdict: BallLineVerdict) -> str:
    """What the screen says: GOAL / NO GOAL at the goal, OUT OF PLAY / IN PLAY elsewhere."""
    if verdict.decision is BallLineDecision.GOAL:
        return "GOAL"
    at_goal = verdict.nearest_line.is_goal_line and (
        abs(verdict.ball_m[1]) < case.goal.width_m / 2 + case.ball_radius_m
    )
    if at_goal:
        return "NO GOAL"
    return "OUT OF PLAY" if verdict.decision is BallLineDecision.OUT_OF_PLAY else "IN PLAY"


def _frame(case: BallLineCase, verdict: BallLineVerdict, xyz: np.ndarray) -> np.ndarray:
    """Positions in the line's own frame: across (the centre past the outer edge), along, up."""
    line = verdict.nearest_line
    across = line.sign * xyz[..., line.axis] - outer_edge_m(line, case.pitch)
    return np.stack([across, xyz[..., 1 - line.axis], xyz[..., 2]], axis=-1)


def _gap_words(verdict: BallLineVerdict) -> str:
    if verdict.margin_m > 0:
        return f"+{millimetres(verdict.margin_m)}: wholly over"
    return f"{millimetres(verdict.margin_m)} short: not wholly over"


def draw_ball_line_view(case: BallLineCase, verdict: BallLineVerdict) -> Figure:
    """From above, from the side, and the gap in millimetres, as a Figure; the ball where it got
    furthest past the line (what the margin measures)."""
    figure = Figure(figsize=(18, 7), dpi=DPI, facecolor=BACKGROUND)
    fit = fit_path(case.track)
    t = case.track.t_s
    dense = np.linspace(t[0], t[-1], 600)
    path = _frame(case, verdict, np.array([fit.position_at(float(s)) for s in dense]))
    ball = _frame(case, verdict, fit.position_at(verdict.peak_t_s))
    figure.text(
        0.02,
        0.93,
        f"{headline(case, verdict)}   {verdict.nearest_line.words}   {_gap_words(verdict)}   "
        f"P(wholly over) {chance(verdict.probability)}",
        color=TEXT,
        fontsize=20,
        weight="bold",
    )
    top, side, zoom = (
        figure.add_axes(rect)
        for rect in ((0.03, 0.08, 0.3, 0.78), (0.37, 0.08, 0.3, 0.78), (0.71, 0.08, 0.27, 0.78))
    )
    # Both the line and the whole ball in view, however far over it got.
    across = (-0.35, max(0.35, ball[0] + case.ball_radius_m + 0.1))
    _from_above(top, case, verdict, ball, path, _frame(case, verdict, case.track.xyz_m), across)
    _from_the_side(side, case, verdict, ball, path, across)
    _gap(zoom, case, verdict, ball)
    return figure


def _from_above(
    axes: Axes,
    case: BallLineCase,
    verdict: BallLineVerdict,
    ball: np.ndarray,
    path: np.ndarray,
    samples: np.ndarray,
    across: tuple[float, float],
) -> None:
    """Across the line to the right (out of the field), along it upwards."""
    along = (ball[1] - (across[1] - across[0]) / 2, ball[1] + (across[1] - across[0]) / 2)
    axes.set_facecolor(GRASS)
    axes.axvspan(-LINE_WIDTH_M, 0.0, color=LINE)
    if verdict.nearest_line.is_goal_line:
        post = case.goal.post_width_m
        for inside in (-case.goal.width_m / 2 - post, case.goal.width_m / 2):
            axes.add_patch(Rectangle((-post, inside), post, post, color="white", ec="black"))
    axes.plot(path[:, 0], path[:, 1], color=TEXT, lw=1, ls="--")
    axes.plot(samples[:, 0], samples[:, 1], "o", color=TEXT, ms=2.5, alpha=0.6)
    axes.add_patch(_ball(ball[0], ball[1], case.ball_radius_m))
    _limits(axes, across, along, "From above", "metres")


def _from_the_side(
    axes: Axes,
    case: BallLineCase,
    verdict: BallLineVerdict,
    ball: np.ndarray,
    path: np.ndarray,
    across: tuple[float, float],
) -> None:
    """Looking along the line: its vertical plane, the crossbar over a goal line, the ball."""
    r = case.ball_radius_m
    ground = min(0.0, ball[2] - r)
    axes.set_facecolor(SKY)
    axes.axvspan(-LINE_WIDTH_M, 0.0, color=LINE, alpha=0.25)
    axes.axvline(0.0, color=LINE, lw=1.5)
    high = ball[2] + r + 0.2
    if verdict.nearest_line.is_goal_line and abs(ball[1]) < case.goal.width_m / 2 + r:
        post = case.goal.post_width_m
        axes.add_patch(
            Rectangle((-post, case.goal.height_m), post, post, color="white", ec="black")
        )
        high = max(high, case.goal.height_m + post + 0.2)
    axes.axhspan(ground - 1.0, ground, color=GRASS)
    axes.plot(path[:, 0], path[:, 2], color=TEXT, lw=1, ls="--")
    axes.add_patch(_ball(ball[0], ball[2], r))
    _limits(axes, across, (ground - 0.1, high), "From the side", "metres")


def _gap(axes: Axes, case: BallLineCase, verdict: BallLineVerdict, ball: np.ndarray) -> None:
    """The ball's nearest point against the line's outer edge, magnified to millimetres."""
    r_mm = case.ball_radius_m * 1000
    gap_mm = verdict.margin_m * 1000
    reach = max(abs(gap_mm) * 1.6, 10.0)
    colour = OVER if verdict.margin_m > 0 else SHORT
    axes.set_facecolor(GRASS)
    axes.axvspan(-2 * reach, 0.0, color=LINE)
    theta = np.linspace(-np.pi / 2, np.pi / 2, 721)
    centre, half_chord = gap_mm + r_mm, r_mm * np.cos(theta)
    axes.fill_betweenx(
        r_mm * np.sin(theta), centre - half_chord, centre + half_chord, color=BALL, ec="black"
    )
    axes.annotate(
        "",
        xy=(gap_mm, 0),
        xytext=(0, 0),
        arrowprops={"arrowstyle": "<->", "color": colour, "lw": 3},
        zorder=5,
    )
    axes.text(
        gap_mm / 2,
        -reach * 0.6,
        _gap_words(verdict),
        color=colour,
        ha="center",
        fontsize=14,
        weight="bold",
        bbox={"facecolor": "white", "edgecolor": colour},
    )
    axes.axvline(0.0, color="black", lw=1)
    _limits(axes, (-reach, reach), (-reach, reach), "The gap, from above", "millimetres")


def _ball(centre_across: float, centre_other: float, radius: float) -> Circle:
    return Circle(
        (centre_across, centre_other), radius, facecolor=BALL, edgecolor="black", lw=1.5, zorder=4
    )


def _limits(
    axes: Axes, x: tuple[float, float], y: tuple[float, float], title: str, unit: str
) -> None:
    # The panels are square: the shorter range grows about its middle to match the longer.
    size = max(x[1] - x[0], y[1] - y[0])
    for low, high, set_lim in ((*x, axes.set_xlim), (*y, axes.set_ylim)):
        grow = (size - (high - low)) / 2
        set_lim(low - grow, high + grow)
    axes.set_aspect("equal")
    axes.set_title(title, color=TEXT, fontsize=15)
    axes.set_xlabel(f"past the line's outer edge ({unit}) →", color=TEXT)
    axes.tick_params(colors=TEXT)


def _where(case: BallLineCase, verdict: BallLineVerdict) -> str:
    """The line, and why a ball wholly over a goal line was no goal."""
    words = verdict.nearest_line.words.capitalize()
    if (
        verdict.decision is not BallLineDecision.OUT_OF_PLAY
        or not verdict.nearest_line.is_goal_line
    ):
        return words
    inside = abs(verdict.ball_m[1]) < case.goal.width_m / 2
    return f"{words}, {'over the crossbar' if inside else 'wide of the goal'}"


def draw_ball_line_screen(case: BallLineCase, verdict: BallLineVerdict) -> Figure:
    """The stadium screen: the call in large letters, the line, the margin."""
    figure = Figure(figsize=(19.2, 10.8), dpi=DPI, facecolor=BACKGROUND)
    words = headline(case, verdict)
    good = words in ("GOAL", "IN PLAY")
    figure.patches.append(
        Rectangle((0, 0.62), 1, 0.28, transform=figure.transFigure, color=OVER if good else SHORT)
    )
    figure.text(
        0.5, 0.76, words, color="white", fontsize=150, weight="bold", ha="center", va="center"
    )
    figure.text(0.5, 0.50, _where(case, verdict), color=TEXT, fontsize=40, ha="center")
    figure.text(0.5, 0.38, _gap_words(verdict), color=TEXT, fontsize=54, weight="bold", ha="center")
    figure.text(
        0.5,
        0.24,
        f"P(wholly over) {chance(verdict.probability)} · "
        f"{verdict.noise.source.rate_hz:g} Hz ball tracking",
        color=TEXT,
        fontsize=28,
        ha="center",
    )
    figure.text(0.5, 0.08, "varroom · Laws 9.1 and 10.1", color="#8a9099", fontsize=22, ha="center")
    return figure
