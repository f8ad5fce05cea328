"""Label placement (`varroom.pictures.placement`, the top-down picture's `Placer`): the label
ends where the chosen spot puts it, never covers anything when one of its spots is clear, and
weighing the spots all at once picks the spot weighing them one by one would."""

from __future__ import annotations

import math

from hypothesis import given, settings
from hypothesis import strategies as st
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure
from matplotlib.transforms import Bbox

from varroom.pictures.decision.labels import Placer
from varroom.pictures.placement import (
    around,
    cost,
    marker_boxes,
    outside,
    overlap,
    overlaps,
    place,
)
from varroom.pictures.typeset import NAME

FIGURE = Figure(figsize=(4, 3), dpi=100)
RENDERER = FigureCanvasAgg(FIGURE).get_renderer()
AX = FIGURE.add_axes((0, 0, 1, 1))
AX.set_xlim(0, 400)
AX.set_ylim(0, 300)

points = st.lists(
    st.tuples(st.floats(0, 400), st.floats(0, 300)),
    min_size=0,
    max_size=12,
)


@settings(max_examples=40, deadline=None)
@given(anchor=st.tuples(st.floats(40, 360), st.floats(30, 270)), others=points)
def test_place_picks_a_clear_spot_when_there_is_one(
    anchor: tuple[float, float], others: list[tuple[float, float]]
) -> None:
    label = AX.annotate("Kane", anchor, xytext=(0, 10), textcoords="offset points")
    try:
        obstacles = marker_boxes(AX.transData.transform(others or [(-99, -99)]), 6.0)
        frame = AX.get_window_extent(RENDERER)
        spots = around(10)
        costs = []
        for k in range(len(spots)):
            _, box = place(label, spots[k : k + 1], obstacles, RENDERER, frame)
            costs.append(cost(box, obstacles, frame))
        chosen, box = place(label, spots, obstacles, RENDERER, frame)
        # The box returned is where the label now is.
        assert box.bounds == label.get_window_extent(RENDERER).bounds
        assert costs[chosen] == min(costs)
        if min(costs) == 0:
            assert all(overlap(box, other) == 0 for other in obstacles)
    finally:
        label.remove()


def test_overlap_is_the_shared_area() -> None:
    a = Bbox.from_extents(0, 0, 10, 10)
    assert overlap(a, Bbox.from_extents(5, 5, 20, 20)) == 25
    assert overlap(a, Bbox.from_extents(10, 0, 20, 10)) == 0  # touching is not covering


boxes = st.lists(
    st.tuples(st.floats(-50, 450), st.floats(-50, 350), st.floats(0, 120), st.floats(0, 90)),
    min_size=0,
    max_size=8,
)


def _bbox(x: float, y: float, w: float, h: float) -> Bbox:
    return Bbox.from_extents(x, y, x + w, y + h)


@settings(max_examples=60, deadline=None)
@given(spots=boxes, others=boxes)
def test_overlaps_are_overlap_box_by_box(
    spots: list[tuple[float, float, float, float]], others: list[tuple[float, float, float, float]]
) -> None:
    """The same floats, so that a placement made with either picks the same spot."""
    extents = [tuple(_bbox(*spot).extents) for spot in spots]
    areas = overlaps(extents, [_bbox(*other) for other in others])
    assert areas.shape == (len(spots), len(others))
    for row, spot in zip(areas.tolist(), spots, strict=True):
        assert row == [overlap(_bbox(*spot), _bbox(*other)) for other in others]


@settings(max_examples=40, deadline=None)
@given(anchor=st.tuples(st.floats(0, 400), st.floats(0, 300)), others=boxes)
def test_the_placer_takes_the_first_spot_of_least_cost(
    anchor: tuple[float, float], others: list[tuple[float, float, float, float]]
) -> None:
    """Its spots all weighed at once: the spot it takes is the one weighing them one by one,
    stopping at the first free one, would take."""
    placer = Placer(AX)
    placer.taken = [_bbox(*other) for other in others]
    before = list(placer.taken)
    width, height = placer.size("Kane", NAME)
    x, y = placer.display(anchor)
    expected, least = None, math.inf
    for dx, dy in Placer.OFFSETS:
        cx, cy = x + dx * (8 + width / 2), y + dy * (8 * (0.45 if dx else 1.0) + height / 2)
        box = Bbox.from_extents(cx - width / 2, cy - height / 2, cx + width / 2, cy + height / 2)
        weight = sum(overlap(box, other) for other in before) + 4 * outside(box, placer.bounds)
        if weight < least:
            expected, least = box, weight
        if weight == 0:
            break
    assert expected is not None
    label = placer.place(anchor, "Kane", NAME, 8)
    try:
        assert placer.taken[-1].bounds == expected.bounds
    finally:
        assert label is not None
        label.remove()
