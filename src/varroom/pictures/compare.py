"""One play as each competition would show it (`varroom check --compare ... --image`): each
profile's own picture, one above the other, under a strip that names the profile and its call.
The pictures are the kind's own, drawn by its writer, so nothing is redrawn differently here."""

from __future__ import annotations

from pathlib import Path

import numpy as np
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure
from PIL import Image

from varroom.output_file import FIGURE_SUFFIXES, check_target, write_figure
from varroom.pictures import style
from varroom.pictures.typeset import headline_font

DPI = 100
STRIP_PX = 90  # the strip above each picture: "Under tolerance-5cm: NO OFFSIDE OFFENCE"


def write_compared(drawn: list[tuple[str, str, Path]], path: Path) -> None:
    """`drawn`: (profile name, its call, its picture as a PNG) in order."""
    target = check_target(path, "picture", FIGURE_SUFFIXES)
    pictures = [np.asarray(Image.open(png).convert("RGB")) for _, _, png in drawn]
    width_px = max(picture.shape[1] for picture in pictures)
    heights_px = [picture.shape[0] + STRIP_PX for picture in pictures]
    total_px = sum(heights_px)
    figure = Figure(figsize=(width_px / DPI, total_px / DPI), dpi=DPI, facecolor=style.BACKGROUND)
    FigureCanvasAgg(figure)
    top_px = 0
    for (name, call, _), picture, height_px in zip(drawn, pictures, heights_px, strict=True):
        strip_y = 1 - (top_px + STRIP_PX) / total_px
        figure.text(
            24 / width_px,
            strip_y + STRIP_PX / 2 / total_px,
            f"Under {name}: {call}",
            color=style.TEXT,
            fontproperties=headline_font(30),
            va="center",
            gid=f"compare-title:{name}",
        )
        shown_px = picture.shape[0]
        axes = figure.add_axes(
            (0, strip_y - shown_px / total_px, picture.shape[1] / width_px, shown_px / total_px)
        )
        axes.imshow(picture, interpolation="none")
        axes.set_axis_off()
        top_px += height_px
    write_figure(target, "picture", figure, DPI)
