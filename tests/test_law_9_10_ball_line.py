"""Laws 9.1 and 10.1: the whole ball over the whole line; a goal between the posts, under the bar."""

from __future__ import annotations

import numpy as np
import pytest

from varroom.law.ball_line import in_goal_mouth, is_goal, outer_edge_m, past_line_m, wholly_over
from varroom.model.ball_line import Goal, Line
from varroom.model.situation import Pitch

PITCH = Pitch(105.0, 68.0)
R = 0.11


def test_the_outer_edge_is_the_boundary_so_the_lines_width_is_inside_the_field():
    assert outer_edge_m(Line.GOAL_LINE_PLUS_X, PITCH) == 52.5
    assert outer_edge_m(Line.TOUCHLINE_MINUS_Y, PITCH) == 34.0


@pytest.mark.parametrize("line", list(Line), ids=lambda line: line.value)
def test_a_ball_touching_the_outer_edge_is_in_play_and_a_millimetre_beyond_is_out(line):
    edge = outer_edge_m(line, PITCH)
    touching = line.sign * (edge + R)
    assert past_line_m(touching, line, PITCH, R) == pytest.approx(0.0)
    assert not wholly_over(0.0)
    beyond = past_line_m(touching + line.sign * 0.001, line, PITCH, R)
    assert beyond == pytest.approx(0.001)
    assert wholly_over(beyond)


def test_a_ball_mostly_over_the_line_is_still_in_play():
    # Centre 10 cm past the edge: 1 cm of the ball is still over the line.
    past = past_line_m(52.6, Line.GOAL_LINE_PLUS_X, PITCH, R)
    assert past == pytest.approx(-0.01) and not wholly_over(past)


def test_only_the_coordinate_across_the_line_matters_on_the_ground_or_in_the_air():
    x = np.array([52.62, 52.62, 52.62])
    assert wholly_over(past_line_m(x, Line.GOAL_LINE_PLUS_X, PITCH, R)).all()


@pytest.mark.parametrize(
    ("y", "z", "inside"),
    [
        (0.0, 0.11, True),
        (3.66 - 0.11, 0.11, True),  # touching the inside of the post
        (3.66 - 0.10, 0.11, False),  # would pass through the post
        (-3.0, 2.44 - 0.11, True),  # just under the bar
        (-3.0, 2.44 - 0.10, False),
        (5.0, 0.11, False),  # wide
    ],
)
def test_the_whole_ball_must_be_between_the_posts_and_under_the_crossbar(y, z, inside):
    assert bool(in_goal_mouth(y, z, Goal(), R)) is inside


def test_a_goal_needs_the_goal_line_the_whole_ball_over_and_the_goal_mouth():
    assert is_goal(Line.GOAL_LINE_MINUS_X, True, True)
    assert not is_goal(Line.GOAL_LINE_MINUS_X, False, True)
    assert not is_goal(Line.GOAL_LINE_MINUS_X, True, False)
    assert not is_goal(Line.TOUCHLINE_PLUS_Y, True, True)
