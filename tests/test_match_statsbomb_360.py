"""What StatsBomb's files say beyond what kloppy reads (`varroom.match.statsbomb_facts`)."""

from __future__ import annotations

from varroom.match.statsbomb_facts import FrameView
from varroom.model.situation import Pitch

PITCH = Pitch(120.0, 80.0)
# An L-shaped view: the camera saw the left half, and the bottom of the right half.
L_SHAPE = FrameView(
    area_m=((-60.0, -40.0), (60.0, -40.0), (60.0, 0.0), (0.0, 0.0), (0.0, 40.0), (-60.0, 40.0))
)


def test_a_view_covers_what_lies_inside_its_polygon_and_nothing_else() -> None:
    assert L_SHAPE.covers((-30.0, 30.0), PITCH)
    assert L_SHAPE.covers((30.0, -20.0), PITCH)
    assert not L_SHAPE.covers((30.0, 20.0), PITCH)  # the notch of the L


def test_a_point_on_the_touchline_or_beyond_counts_where_the_view_meets_the_pitch() -> None:
    assert L_SHAPE.covers((-30.0, 40.0), PITCH)
    assert L_SHAPE.covers((-61.0, -45.0), PITCH)
    assert not L_SHAPE.covers((30.0, 41.0), PITCH)


def test_a_view_of_fewer_than_three_corners_covers_nothing() -> None:
    line = FrameView(area_m=((0.0, 0.0), (10.0, 0.0)))
    assert not line.covers((5.0, 0.0), PITCH)
