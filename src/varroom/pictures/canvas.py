"""A picture drawn over a video frame: a figure of the frame's own size in pixels, one axes over
all of it in pixel coordinates (y down, as images count), on an Agg canvas. The broadcast
picture and the marked still draw on it."""

from __future__ import annotations

from matplotlib.axes import Axes
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure

from varroom.pictures import style

DPI = 100.0


def pixel_figure(width_px: int, height_px: int) -> tuple[Figure, Axes]:
    """The figure (not attached to pyplot) and its one axes, limits set to the frame's pixels."""
    figure = Figure(figsize=(width_px / DPI, height_px / DPI), dpi=DPI, facecolor=style.DEEP)
    FigureCanvasAgg(figure)
    ax = figure.add_axes((0, 0, 1, 1))
    ax.set_xlim(0, width_px)
    ax.set_ylim(height_px, 0)
    ax.set_axis_off()
    return figure, ax
