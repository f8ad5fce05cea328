"""Pictures of a ball-line verdict: the goal-line-technology view and the stadium screen.

The view shows the ball's outline against the line from above and from the side, and the gap
between the ball's nearest point and the line's outer edge magnified to millimetres; the screen
says GOAL / NO GOAL (or OUT OF PLAY / IN PLAY away from the goal). Both are plain matplotlib
Figures (no pyplot) written through `varroom.output_file`. Colours come from `style`, text from
`typeset` roles. Gids: `ball-line-headline`, `ball-line-ball:above`, `ball-line-ball:side`,
`ball-line-gap`, `ball-line-screen-headline`, `ball-line-screen-where`, `ball-line-screen-gap`,
`ball-line-screen-chance`, `ball-line-screen-signature`.
"""

from __future__ import annotations

import os

import numpy as np
from matplotlib.axes import Axes
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure
from matplotlib.patches import Circle, Rectangle

from varroom.engine.ball_line_explain import chance, millimetres
from varroom.engine.ball_line_path import fit_path
from varroom.engine.ball_line_verdict import BallLineVerdict
from varroom.law.ball_line import outer_edge_m
from varroom.model.ball_line import BallLineCase, BallLineDecision
from varroom.output_file import FIGURE_SUFFIXES, check_target, write_figure
from varroom.pictures import style
from varroom.pictures.typeset import NOTE, TextStyle, put, set_tick_font

LINE_WIDTH_M = 0.12  # Law 1 allows up to 12 cm; drawn inside the field, as the Law has it
DPI = 100
HEADLINE = TextStyle(20, weight="bold", va="bottom")
PANEL_TITLE = TextStyle(15, weight="bold", ha="center", va="bottom")
AXIS = NOTE.but(size=10, ha="center", va="top")
SCREEN_HEADLINE = TextStyle(150, headline=True, colour=style.TEXT, ha="center", halo=6)
SCREEN_WHERE = TextStyle(40, ha="center", va="bottom")
SCREEN_GAP = TextStyle(54, weight="bold", ha="center", va="bottom")
SCREEN_CHANCE = TextStyle(28, colour=style.MUTED, ha="center", va="bottom")
SIGNATURE = TextStyle(22, colour=style.FAINT, ha="center", va="bottom")


def write_ball_line_view(
    case: BallLineCase, verdict: BallLineVerdict, path: str | os.PathLike[str]
) -> None:
    """The goal-line-technology view as a PNG (1800 x 700)."""
    target = check_target(path, "picture", FIGURE_SUFFIXES)
    write_figure(target, "picture", draw_ball_line_view(case, verdict), DPI)


def write_ball_line_screen(
    case: BallLineCase, verdict: BallLineVerdict, path: str | os.PathLike[str]
) -> None:
    """The stadium-screen still as a PNG (1920 x 1080)."""
    target = check_target(path, "screen picture", FIGURE_SUFFIXES)
    write_figure(target, "screen picture", draw_ball_line_screen(case, verdict), DPI)


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


def _colour(case: BallLineCase, verdict: BallLineVerdict) -> str:
    """The call's colour, never the measurement's sign alone: green for a goal or the ball in
    play, red for no goal or out of play (a ball wholly over the goal line above the bar is
    over, and no goal: red, as its headline)."""
    return (
        style.ONSIDE_GREEN if headline(case, verdict) in ("GOAL", "IN PLAY") else style.OFFSIDE_RED
    )


def _gap_words(verdict: BallLineVerdict) -> str:
    if verdict.margin_m > 0:
        return f"+{millimetres(verdict.margin_m)}: wholly over"
    return f"{millimetres(verdict.margin_m)} short: not wholly over"


def draw_ball_line_view(case: BallLineCase, verdict: BallLineVerdict) -> Figure:
    """From above, from the side, and the gap in millimetres, as a Figure; the ball where it got
    furthest past the line (what the margin measures)."""
    figure = Figure(figsize=(18, 7), dpi=DPI, facecolor=style.BACKGROUND)
    FigureCanvasAgg(figure)
    fit = fit_path(case.track)
    t = case.track.t_s
    dense = np.linspace(t[0], t[-1], 600)
    path = _frame(case, verdict, np.array([fit.position_at(float(s)) for s in dense]))
    ball = _frame(case, verdict, fit.position_at(verdict.peak_t_s))
    put(
        figure,
        0.02,
        0.93,
        f"{headline(case, verdict)}   {verdict.nearest_line.words}   {_gap_words(verdict)}   "
        f"P(wholly over) {chance(verdict.probability)}",
        HEADLINE,
        gid="ball-line-headline",
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
    axes.set_facecolor(style.PITCH)
    axes.axvspan(-LINE_WIDTH_M, 0.0, color=style.LINE)
    if verdict.nearest_line.is_goal_line:
        post = case.goal.post_width_m
        for inside in (-case.goal.width_m / 2 - post, case.goal.width_m / 2):
            axes.add_patch(_post(-post, inside, post))
    axes.plot(path[:, 0], path[:, 1], color=style.LIGHT, lw=1, ls="--")
    axes.plot(samples[:, 0], samples[:, 1], "o", color=style.LIGHT, ms=2.5, alpha=0.6)
    axes.add_patch(_ball(ball[0], ball[1], case.ball_radius_m, "ball-line-ball:above"))
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
    axes.set_facecolor(style.PANEL)
    axes.axvspan(-LINE_WIDTH_M, 0.0, color=style.LINE, alpha=0.25)
    axes.axvline(0.0, color=style.LINE, lw=1.5)
    high = ball[2] + r + 0.2
    if verdict.nearest_line.is_goal_line and abs(ball[1]) < case.goal.width_m / 2 + r:
        post = case.goal.post_width_m
        axes.add_patch(_post(-post, case.goal.height_m, post))
        high = max(high, case.goal.height_m + post + 0.2)
    axes.axhspan(ground - 1.0, ground, color=style.PITCH)
    axes.plot(path[:, 0], path[:, 2], color=style.LIGHT, lw=1, ls="--")
    axes.add_patch(_ball(ball[0], ball[2], r, "ball-line-ball:side"))
    _limits(axes, across, (ground - 0.1, high), "From the side", "metres")


def _gap(axes: Axes, case: BallLineCase, verdict: BallLineVerdict, ball: np.ndarray) -> None:
    """The ball's nearest point against the line's outer edge, magnified to millimetres."""
    r_mm = case.ball_radius_m * 1000
    gap_mm = verdict.margin_m * 1000
    reach = max(abs(gap_mm) * 1.6, 10.0)
    colour = _colour(case, verdict)
    axes.set_facecolor(style.PITCH)
    axes.axvspan(-2 * reach, 0.0, color=style.LINE)
    theta = np.linspace(-np.pi / 2, np.pi / 2, 721)
    centre, half_chord = gap_mm + r_mm, r_mm * np.cos(theta)
    axes.fill_betweenx(
        r_mm * np.sin(theta),
        centre - half_chord,
        centre + half_chord,
        color=style.BALL_ON_LINE,
        ec=style.BALL_EDGE,
    )
    axes.annotate(
        "",
        xy=(gap_mm, 0),
        xytext=(0, 0),
        arrowprops={"arrowstyle": "<->", "color": colour, "lw": 3},
        zorder=5,
        gid="ball-line-gap",
    )
    axes.axvline(0.0, color=style.BALL_EDGE, lw=1)
    # The gap's words in the panel's title, in the call's colour: on the panel they would cover
    # the ball, which fills it at this scale.
    _limits(
        axes,
        (-reach, reach),
        (-reach, reach),
        "The gap: " + _gap_words(verdict).split(":")[0],
        "millimetres",
    )
    axes.title.set_color(colour)


def _ball(centre_across: float, centre_other: float, radius: float, gid: str) -> Circle:
    return Circle(
        (centre_across, centre_other),
        radius,
        facecolor=style.BALL_ON_LINE,
        edgecolor=style.BALL_EDGE,
        lw=1.5,
        zorder=4,
        gid=gid,
    )


def _post(x_m: float, y_m: float, width_m: float) -> Rectangle:
    """A goalpost (or the crossbar) in section: a white square."""
    return Rectangle((x_m, y_m), width_m, width_m, color=style.BALL, ec=style.BALL_EDGE)


def _limits(
    axes: Axes, x: tuple[float, float], y: tuple[float, float], title: str, unit: str
) -> None:
    # The panels are square: the shorter range grows about its middle to match the longer.
    size = max(x[1] - x[0], y[1] - y[0])
    for low, high, set_lim in ((*x, axes.set_xlim), (*y, axes.set_ylim)):
        grow = (size - (high - low)) / 2
        set_lim(low - grow, high + grow)
    axes.set_aspect("equal")
    axes.set_title(title, **PANEL_TITLE.kwargs())
    axes.set_xlabel(f"past the line's outer edge ({unit}) \u2192", **AXIS.kwargs())
    axes.tick_params(colors=style.MUTED)
    set_tick_font(axes)
    for spine in axes.spines.values():
        spine.set_color(style.PANEL_EDGE)


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
    figure = Figure(figsize=(19.2, 10.8), dpi=DPI, facecolor=style.BACKGROUND)
    FigureCanvasAgg(figure)
    words = headline(case, verdict)
    colour = _colour(case, verdict)
    figure.patches.append(
        Rectangle((0, 0.62), 1, 0.28, transform=figure.transFigure, color=colour, alpha=0.85)
    )
    chance_words = (
        f"P(wholly over) {chance(verdict.probability)} \u00b7 "
        f"{verdict.noise.source.rate_hz:g} Hz ball tracking"
    )
    lines = (
        (0.76, words, SCREEN_HEADLINE, "headline"),
        (0.50, _where(case, verdict), SCREEN_WHERE, "where"),
        (0.38, _gap_words(verdict), SCREEN_GAP.but(colour=colour), "gap"),
        (0.24, chance_words, SCREEN_CHANCE, "chance"),
        (0.08, "varroom \u00b7 Laws 9.1 and 10.1", SIGNATURE, "signature"),
    )
    for y, text, role, name in lines:
        put(figure, 0.5, y, text, role, gid=f"ball-line-screen-{name}")
    return figure
