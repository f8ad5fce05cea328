"""The marks every picture draws on its axes: markers as one Line2D (much cheaper to draw than
a scatter), vertical lines, arrows, box outlines."""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from typing import Any

from matplotlib.axes import Axes
from matplotlib.lines import Line2D
from matplotlib.patches import FancyArrowPatch, Rectangle

from varroom.pictures import style


def dots(
    ax: Axes,
    xs: Sequence[float],
    ys: Sequence[float],
    s: float = 36.0,
    marker: str = "o",
    color: str = style.RING,
    edgecolors: str | None = None,
    linewidths: float = 1.0,
    zorder: float = 5.0,
    gid: str | None = None,
    alpha: float | None = None,
    linestyle: str = "-",
    **extra: Any,
) -> Line2D:
    """Markers as one Line2D; `s` in points squared (a scatter's size). A dashed `linestyle`
    draws hollow markers with a thicker ring (a player off the field); `extra` adds animated
    and the like."""
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
        **extra,
    )
    ax.add_artist(line)
    return line


def vline(
    ax: Axes, x: float, y0: float, y1: float, colour: str, width: float, *rest: Any, **extra: Any
) -> Line2D:
    """A vertical line from (x, y0) to (x, y1): an offside line, a ball line, a measured part's
    line; `rest` and `extra` as `polyline` takes them (dashes, alpha, zorder, gid, ...)."""
    return polyline(ax, [x, x], [y0, y1], colour, width, *rest, **extra)


def outline(
    ax: Axes,
    box: tuple[float, float, float, float],
    colour: str,
    width: float,
    dashes: tuple[float, float] | None = None,
    zorder: float = 5.0,
    gid: str | None = None,
) -> Rectangle:
    """The dashed (or solid) outline of a box (x0, y0, x1, y1): a part of the pitch shown
    elsewhere."""
    x0, y0, x1, y1 = box
    frame = Rectangle(
        (x0, y0),
        x1 - x0,
        y1 - y0,
        fill=False,
        edgecolor=colour,
        linewidth=width,
        linestyle="-" if dashes is None else (0, dashes),
        zorder=zorder,
        gid=gid,
    )
    ax.add_patch(frame)
    return frame


def arrow(
    ax: Axes,
    tail: tuple[float, float],
    head: tuple[float, float],
    colour: str,
    size: float,
    width: float = 0.0,
    zorder: float = 4.0,
    gid: str | None = None,
    **extra: Any,
) -> FancyArrowPatch:
    """An arrow from `tail` to `head` with a filled head `size` points long (`width`: its shaft's
    line width; 0 for a head alone); `extra` adds alpha, dashes, shrinking."""
    patch = FancyArrowPatch(
        tail,
        head,
        arrowstyle="-|>",
        mutation_scale=size,
        color=colour,
        linewidth=width,
        zorder=zorder,
        gid=gid,
        **extra,
    )
    ax.add_artist(patch)
    return patch


def ball_mark(
    ax: Axes,
    xs: Sequence[float],
    ys: Sequence[float],
    s: float = 100.0,
    zorder: float = 8.0,
    gid: str | None = None,
    **extra: Any,
) -> Line2D:
    """The ball, as every picture marks it: white with a dark outline; `s` in points squared."""
    return dots(
        ax,
        xs,
        ys,
        s=s,
        color=style.BALL,
        edgecolors=style.DEFENDER_EDGE,
        linewidths=1.5 if s >= 100 else 1.2,
        zorder=zorder,
        gid=gid,
        **extra,
    )


def polyline(
    ax: Axes,
    xs: Iterable[float],
    ys: Iterable[float],
    colour: str,
    width: float,
    dashes: tuple[float, float] | None = None,
    alpha: float | None = None,
    zorder: float = 3.0,
    gid: str | None = None,
    **extra: Any,
) -> Line2D:
    """A line through the points: a projected offside line, a ball line, a trail; `dashes`
    (on, off) in points; `extra` adds path effects, animated and the like."""
    drawn = Line2D(
        list(xs),
        list(ys),
        color=colour,
        linewidth=width,
        linestyle="-" if dashes is None else (0, dashes),
        alpha=alpha,
        zorder=zorder,
        gid=gid,
        **extra,
    )
    ax.add_artist(drawn)
    return drawn
