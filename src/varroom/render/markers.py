"""Markers drawn as one Line2D, much cheaper to draw than a scatter."""

from __future__ import annotations

import math
from collections.abc import Sequence

from matplotlib.axes import Axes
from matplotlib.lines import Line2D


def dots(
    ax: Axes,
    xs: Sequence[float],
    ys: Sequence[float],
    s: float = 36.0,
    marker: str = "o",
    color: str = "white",
    edgecolors: str | None = None,
    linewidths: float = 1.0,
    zorder: float = 5.0,
    gid: str | None = None,
    alpha: float | None = None,
    linestyle: str = "-",
) -> Line2D:
    """Markers as one Line2D (much cheaper to draw than a scatter); `s` in points squared."""
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
    )
    ax.add_artist(line)
    return line
