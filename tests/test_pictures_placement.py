"""Label placement (`varroom.pictures.placement`): the label ends where the chosen spot puts it,
and never covers anything when one of its spots is clear."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure
from matplotlib.transforms import Bbox

from varroom.pictures.placement import around, cost, marker_boxes, overlap, place

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
