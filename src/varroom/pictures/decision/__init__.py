"""The top-down picture of a decision (`varroom check --image`): the pitch zoomed on the
action, the offside line, the attacker's nearest counting part, the margin and the verdict.

Layout (1600 x 1000 px): a verdict banner on top; the pitch at the judged touch, zoomed on
the action (true aspect, at least the penalty area near goal), with a magnified close-up in
its emptiest corner when the call is close; on the right a map of the whole pitch, a ruler of
the margin in cm (with the 95% interval when the verdict carries one), the touches in order
and a key.

The package, in the order the data flows: `varroom.pictures.story.Story` picks out of the
situation and the verdict what to draw, once (the same story every picture reads); the views
read it and draw: `banner`, `pitch_view` (with `labels`, the label placer), `magnifier`, and
`panels` (the map, the margin ruler, the touches, the key). `layout` holds the size and where
each part goes; the colours are `varroom.pictures.style`, the text styles
`varroom.pictures.typeset`, the pitch `varroom.pictures.topdown`. Every view draws in situation
metres (origin at the centre spot). The file is written whole or not at all
(`varroom.output_file`). Figures are built with `matplotlib.figure.Figure` directly (no pyplot).

Artists a test may want to find carry a `gid`: "offside-line", "offside-line-label",
"ball-line", "ball-line-label", "uncertainty-band", "reach-line", "reach-point", "margin-label",
"receiver-reach-line", "receiver-reach-point", "receiver-margin-label", "second-last-reach",
"ball", "ball-path", "touch:<i>", "touch-label:judged", "player:<id>", "number:<id>",
"label:<id>", "involved:<id>", "involved-label", "banner-title", "banner-reason", "banner-team",
"banner-details", "attack-arrow", "closeup-offside-line", "closeup-reach-line",
"closeup-receiver-line", "closeup-margin", "closeup-interval", "closeup-line-caption",
"closeup-reach-caption", "minimap-view", "magnifier", "magnifier-frame", "magnifier-caption",
"touch-row:<i>", "touch-what:<i>", "legend"; inside the magnifier the same names start with
"zoom:".
"""

from __future__ import annotations

import os

from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure

from varroom.engine.verdict import Verdict
from varroom.model.situation import Situation
from varroom.output_file import FIGURE_SUFFIXES, OutputError, check_target, write_figure
from varroom.pictures import style
from varroom.pictures.decision.banner import draw_banner
from varroom.pictures.decision.layout import (
    CLOSEUP_RECT,
    DPI,
    HEIGHT_PX,
    MAIN_RECT,
    MINIMAP_RECT,
    WIDTH_PX,
)
from varroom.pictures.decision.magnifier import add_magnifier
from varroom.pictures.decision.panels import draw_closeup, draw_legend, draw_minimap, draw_touches
from varroom.pictures.decision.pitch_view import PitchView
from varroom.pictures.story import Story

__all__ = ["DPI", "HEIGHT_PX", "WIDTH_PX", "RenderError", "draw_decision", "write_decision"]

# The picture could not be written (the CLI prints it as one line, exit 1): the error of every
# file varroom writes whole or not at all.
RenderError = OutputError


def write_decision(situation: Situation, verdict: Verdict, path: str | os.PathLike[str]) -> None:
    """Write the picture of the decision to `path` as a PNG (1600 x 1000 px).

    Written to a temporary file in the same directory, then renamed: a failure leaves no
    partial file. A path that cannot be written is a `RenderError`, not an OSError.
    """
    target = check_target(path, "picture", FIGURE_SUFFIXES)
    write_figure(target, "picture", draw_decision(situation, verdict), DPI)


def draw_decision(situation: Situation, verdict: Verdict) -> Figure:
    """The picture of the decision as a matplotlib Figure (not attached to pyplot)."""
    story = Story(situation, verdict)
    figure = Figure(figsize=(WIDTH_PX / DPI, HEIGHT_PX / DPI), dpi=DPI, facecolor=style.BACKGROUND)
    FigureCanvasAgg(figure)  # a renderer to measure labels with; no pyplot, no global backend
    draw_banner(figure, story)
    main = figure.add_axes(MAIN_RECT)
    view = PitchView(main, story)
    view.draw()
    zoom = add_magnifier(main, view, story)
    view.draw_content()
    if zoom is not None:
        zoom.draw_content()
    draw_minimap(figure.add_axes(MINIMAP_RECT), story, view.box)
    draw_closeup(figure.add_axes(CLOSEUP_RECT), story)
    bottom = draw_touches(figure, story)
    draw_legend(figure, story, bottom - 0.002)
    return figure
