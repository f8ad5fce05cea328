"""Text set to a width (`varroom.pictures.typeset`): wrapping finds each line from a guess and a
measurement or two; the lines are the ones adding word after word while they fit would give."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st
from matplotlib.backend_bases import RendererBase
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure
from matplotlib.text import Text

from varroom.pictures.typeset import fit_lines, wrap_to_width

FIGURE = Figure(figsize=(8, 2), dpi=100)
RENDERER = FigureCanvasAgg(FIGURE).get_renderer()

words = st.lists(
    st.text(alphabet="aimWé.,'0123456789—", min_size=1, max_size=14), min_size=0, max_size=30
)


def word_by_word(text: Text, renderer: RendererBase, width_px: float) -> list[str]:
    """Each word added to the line while the line still fits: the reference."""
    lines: list[str] = []
    for word in text.get_text().split():
        trial = f"{lines[-1]} {word}" if lines else word
        text.set_text(trial)
        if lines and text.get_window_extent(renderer).width <= width_px:
            lines[-1] = trial
        else:
            lines.append(word)
    return lines


@settings(max_examples=60, deadline=None)
@given(words=words, width_px=st.floats(5, 700), size=st.sampled_from([8.0, 11.5, 25.0]))
def test_wrapping_gives_the_lines_of_adding_word_by_word(
    words: list[str], width_px: float, size: float
) -> None:
    text = FIGURE.text(0, 0, " ".join(words), fontsize=size)
    expected = word_by_word(text, RENDERER, width_px)
    text.set_text(" ".join(words))
    assert wrap_to_width(text, RENDERER, width_px) == len(expected)
    assert text.get_text() == "\n".join(expected)
    text.remove()


@settings(max_examples=40, deadline=None)
@given(words=words, width_px=st.floats(40, 700), most=st.integers(1, 3))
def test_fitting_takes_the_first_size_that_needs_few_enough_lines(
    words: list[str], width_px: float, most: int
) -> None:
    sizes = (14.0, 11.0, 8.0)
    text = FIGURE.text(0, 0, " ".join(words))
    by_size = {}
    for size in sizes:
        text.set_fontsize(size)
        text.set_text(" ".join(words))
        by_size[size] = word_by_word(text, RENDERER, width_px)
    chosen = next((s for s in sizes if len(by_size[s]) <= most), sizes[-1])
    text.set_text(" ".join(words))
    fit_lines(text, RENDERER, width_px, most, sizes)
    assert text.get_fontsize() == chosen
    assert text.get_text() == "\n".join(by_size[chosen])
    text.remove()
