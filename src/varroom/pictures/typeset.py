"""How text is set in every picture: one frozen `TextStyle` per role instead of the same ten
matplotlib keyword arguments written out at each call, the typefaces, halos and label boxes.

    from varroom.pictures import typeset
    NUMBER = typeset.TextStyle(8, colour=style.INK, weight="bold", ha="center", clip=True)
    typeset.put(ax, x, y, "9", NUMBER, gid="number:a9")
    ax.annotate("Kane", xy, xytext=(0, 12), textcoords="offset points", **NAME.kwargs())

Roles every picture shares are defined here; a picture derives its own with `.but(...)`.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from varroom.pictures import style

if TYPE_CHECKING:
    from matplotlib.axes import Axes
    from matplotlib.backend_bases import RendererBase
    from matplotlib.figure import Figure, SubFigure
    from matplotlib.font_manager import FontProperties
    from matplotlib.patheffects import AbstractPathEffect
    from matplotlib.text import Text

HAlign = Literal["left", "center", "right"]
VAlign = Literal["top", "center", "bottom", "baseline", "center_baseline"]

_NARROW_BOLD = (
    "/usr/share/fonts/truetype/liberation/LiberationSansNarrow-Bold.ttf",
    "/usr/share/fonts/truetype/dejavu/DejaVuSansCondensed-Bold.ttf",
)


@cache
def _narrow_bold_file() -> str | None:
    for path in _NARROW_BOLD:
        if Path(path).is_file():
            return path
    return None


def headline_font(size: float = 12.0) -> FontProperties:
    """A narrow bold face for the big words, as stadium screens use; DejaVu Sans Bold (always
    there with matplotlib) when no narrow face is installed. No global font registration."""
    from matplotlib.font_manager import FontProperties

    path = _narrow_bold_file()
    if path is not None:
        return FontProperties(fname=path, size=size)
    return FontProperties(family="DejaVu Sans", weight="bold", size=size)


def halo(width: float, colour: str = style.SHADOW, alpha: float = 1.0) -> list[AbstractPathEffect]:
    """A dark outline `width` points wide round text or a line, so it reads on any background."""
    from matplotlib import patheffects

    return [patheffects.withStroke(linewidth=width, foreground=colour, alpha=alpha)]


@dataclass(frozen=True, slots=True)
class LabelBox:
    """The box drawn behind a label."""

    facecolor: str = style.LABEL_BOX
    shape: str = "round"  # matplotlib's boxstyle: round, square, circle
    pad: float = 0.3  # in ems
    alpha: float | None = 0.7
    edgecolor: str = "none"
    linewidth: float | None = None

    def props(self) -> dict[str, Any]:
        props: dict[str, Any] = {
            "boxstyle": f"{self.shape},pad={self.pad}",
            "facecolor": self.facecolor,
            "edgecolor": self.edgecolor,
        }
        if self.alpha is not None:
            props["alpha"] = self.alpha
        if self.linewidth is not None:
            props["linewidth"] = self.linewidth
        return props


@dataclass(frozen=True, slots=True)
class TextStyle:
    """One role of text: size in points, colour, weight, alignment, and what keeps it legible
    (a halo, a box). `headline` sets it in the narrow bold face."""

    size: float
    colour: str = style.TEXT
    weight: Literal["normal", "bold"] = "normal"
    ha: HAlign = "left"
    va: VAlign = "center"
    zorder: float | None = None
    italic: bool = False
    headline: bool = False
    halo: float = 0.0  # the outline's width in points; 0: none
    halo_colour: str = style.SHADOW
    box: LabelBox | None = None
    linespacing: float | None = None
    clip: bool = False  # cut at the axes' edge
    family: str | None = None

    def but(self, **changes: Any) -> TextStyle:
        """This role with some of its settings changed."""
        return replace(self, **changes)

    def kwargs(self) -> dict[str, Any]:
        """The keyword arguments of `Axes.text`, `Figure.text` and `Axes.annotate`."""
        kw: dict[str, Any] = {"color": self.colour, "ha": self.ha, "va": self.va}
        if self.headline:
            kw["fontproperties"] = headline_font(self.size)
        else:
            kw["fontsize"] = self.size
            if self.weight != "normal":
                kw["fontweight"] = self.weight
            if self.family is not None:
                kw["family"] = self.family
        if self.italic:
            kw["fontstyle"] = "italic"
        if self.zorder is not None:
            kw["zorder"] = self.zorder
        if self.halo > 0:
            kw["path_effects"] = halo(self.halo, self.halo_colour)
        if self.box is not None:
            kw["bbox"] = self.box.props()
        if self.linespacing is not None:
            kw["linespacing"] = self.linespacing
        if self.clip:
            kw["clip_on"] = True
        return kw


def put(
    where: Axes | Figure | SubFigure,
    x: float,
    y: float,
    words: str,
    role: TextStyle,
    **extra: Any,
) -> Text:
    """Set `words` at (x, y) on an Axes (data coordinates unless `transform=` says otherwise)
    or a Figure (figure fractions) in `role`; `extra` adds a gid, a transform and the like."""
    return where.text(x, y, words, **role.kwargs(), **extra)


def renderer_of(figure: Figure | SubFigure | None) -> RendererBase:
    """The renderer of a figure on its Agg canvas (every picture makes one), to measure text."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    canvas = None if figure is None else figure.canvas
    assert isinstance(canvas, FigureCanvasAgg), "a picture's figure is drawn on an Agg canvas"
    renderer: RendererBase = canvas.get_renderer()  # type: ignore[no-untyped-call]
    return renderer


def shrink_to_width(text: Text, renderer: RendererBase, width_px: float, least: float) -> None:
    """Shrink the text until it fits `width_px`, no smaller than `least` points."""
    size = float(text.get_fontsize())
    while size > least and text.get_window_extent(renderer).width > width_px:
        size = max(least, size * 0.93)
        text.set_fontsize(size)


def wrap_to_width(text: Text, renderer: RendererBase, width_px: float) -> int:
    """Wrap the text's words to `width_px` as the renderer measures them; returns the lines."""
    lines = _wrapped(text, renderer, width_px, text.get_text().split())
    assert lines is not None  # no `most`: however many it needs
    text.set_text("\n".join(lines))
    return len(lines)


def fit_lines(
    text: Text, renderer: RendererBase, width_px: float, max_lines: int, sizes: tuple[float, ...]
) -> None:
    """Wrap the text to `width_px` at the first of `sizes` (largest first) that needs no more
    than `max_lines` lines; at the last size however many it needs. Nothing is cut off."""
    words = text.get_text().split()
    for k, size in enumerate(sizes):
        text.set_fontsize(size)
        lines = _wrapped(
            text, renderer, width_px, words, None if k == len(sizes) - 1 else max_lines
        )
        if lines is not None:
            text.set_text("\n".join(lines))
            return


def _wrapped(
    text: Text, renderer: RendererBase, width_px: float, words: list[str], most: int | None = None
) -> list[str] | None:
    """The words in lines, each as many of the next words as fit in `width_px` (one at least),
    measured in the text's font; None as soon as it takes more than `most` lines.

    A line's width grows with each word added, so a line is found from a guess (the share of
    the rest's width that fits) checked by a measurement or two, not by measuring it word by
    word: the same lines as adding words while they fit, with a fraction of the measurements
    (the costly part: the renderer lays each string out anew)."""

    def width(count: int) -> float:
        text.set_text(" ".join(words[start : start + count]))
        return float(text.get_window_extent(renderer).width)

    lines: list[str] = []
    start = 0
    while start < len(words):
        if most is not None and len(lines) == most:
            return None
        left = len(words) - start
        whole = width(left)
        count = left
        if whole > width_px:
            # As many words as fill the share of the characters that fits.
            room = width_px / whole * len(" ".join(words[start:]))
            count, used = 0, -1
            while count < left - 1 and used + 1 + len(words[start + count]) <= room:
                used += 1 + len(words[start + count])
                count += 1
            count = max(count, 1)
            if width(count) <= width_px:  # then more, while they fit
                while width(count + 1) <= width_px:
                    count += 1
            else:  # else fewer, until they fit (one word goes on a line of its own)
                count -= 1
                while count > 1 and width(count) > width_px:
                    count -= 1
                count = max(count, 1)
        lines.append(" ".join(words[start : start + count]))
        start += count
    return lines


# -- roles every picture shares -----------------------------------------------------------------

# A shirt number on a player's marker.
NUMBER = TextStyle(8, colour=style.INK, weight="bold", ha="center", clip=True)
# A name beside a marker on the grass.
NAME = TextStyle(10.5, weight="bold", ha="center", va="bottom", halo=3)
# A quiet caption: match details, panel titles, notes.
NOTE = TextStyle(10, colour=style.MUTED)
# The label at the top of the offside line.
LINE_LABEL = TextStyle(10.5, colour=style.LINE, weight="bold", zorder=9, box=LabelBox())
