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

Face = Literal["sans", "narrow", "mono"]

# The typefaces, each read from a file varroom controls, never looked up among the system's
# fonts by name: a machine with Liberation, Roboto or another DejaVu installed draws the same
# picture as one without. The narrow bold face of the big words (stadium screens set them
# narrow) ships in the package: Roboto Condensed Bold, SIL OFL 1.1 (fonts/OFL.txt), as wide as
# Liberation Sans Narrow Bold within 1 %. Everything else is DejaVu Sans from matplotlib's own
# mpl-data: every matplotlib wheel carries those files, so a second copy in ours would only
# double them, and by path no system DejaVu of another version can shadow them.
_FONTS = Path(__file__).parent / "fonts"
NARROW_BOLD = _FONTS / "RobotoCondensed-Bold.ttf"
_MPL_FILES: dict[tuple[Face, str, bool], str] = {
    ("sans", "normal", False): "DejaVuSans.ttf",
    ("sans", "bold", False): "DejaVuSans-Bold.ttf",
    ("sans", "normal", True): "DejaVuSans-Oblique.ttf",
    ("sans", "bold", True): "DejaVuSans-BoldOblique.ttf",
    ("mono", "normal", False): "DejaVuSansMono.ttf",
    ("mono", "bold", False): "DejaVuSansMono-Bold.ttf",
    ("mono", "normal", True): "DejaVuSansMono-Oblique.ttf",
    ("mono", "bold", True): "DejaVuSansMono-BoldOblique.ttf",
}


@cache
def font_files() -> dict[tuple[Face, str, bool], str]:
    """The file of each (face, weight, italic); the narrow face is bold only. The one place the
    shipped fonts are registered with matplotlib's font manager (once per process), so that
    what measures or lists fonts by family knows them too; drawing never asks it by name."""
    from matplotlib import font_manager, get_data_path

    font_manager.fontManager.addfont(str(NARROW_BOLD))
    mpl = Path(get_data_path()) / "fonts" / "ttf"
    files = {key: str(mpl / name) for key, name in _MPL_FILES.items()}
    for weight in ("normal", "bold"):
        for italic in (False, True):
            files["narrow", weight, italic] = str(NARROW_BOLD)
    return files


def font(
    size: float, weight: str = "normal", italic: bool = False, face: Face = "sans"
) -> FontProperties:
    """The face at `size` points, by its file: no lookup among the system's fonts."""
    from matplotlib.font_manager import FontProperties

    return FontProperties(fname=font_files()[face, weight, italic], size=size)


def headline_font(size: float = 12.0) -> FontProperties:
    """The narrow bold face for the big words, as stadium screens use (shipped in the package)."""
    return font(size, "bold", face="narrow")


def set_tick_font(ax: Axes, size: float | None = None) -> None:
    """The axes' tick labels in the body face (ticks made later copy the first one's font)."""
    for axis in (ax.xaxis, ax.yaxis):
        for tick in axis.get_major_ticks() + axis.get_minor_ticks():
            for label in (tick.label1, tick.label2):
                label.set_fontproperties(font(size or float(label.get_fontsize())))


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
    headline: bool = False  # the narrow bold face of the big words
    halo: float = 0.0  # the outline's width in points; 0: none
    halo_colour: str = style.SHADOW
    box: LabelBox | None = None
    linespacing: float | None = None
    clip: bool = False  # cut at the axes' edge
    mono: bool = False  # DejaVu Sans Mono: digits that do not move as a clock runs

    def but(self, **changes: Any) -> TextStyle:
        """This role with some of its settings changed."""
        return replace(self, **changes)

    def font(self) -> FontProperties:
        """The role's face at its size, by file."""
        if self.headline:
            return headline_font(self.size)
        return font(self.size, self.weight, self.italic, "mono" if self.mono else "sans")

    def kwargs(self) -> dict[str, Any]:
        """The keyword arguments of `Axes.text`, `Figure.text` and `Axes.annotate`."""
        kw: dict[str, Any] = {"color": self.colour, "ha": self.ha, "va": self.va}
        kw["fontproperties"] = self.font()
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
