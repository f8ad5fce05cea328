"""Moments of play in continuous tracking: the instant, who played it, and how."""

from __future__ import annotations

import numpy as np
import pytest

from matches import RATE_HZ, match_of
from varroom.audit.deliberate import Flight, deliberate_probability, heading_into_goal
from varroom.audit.moments import REACH_M, ActionSource, find_moments
from varroom.audit.restarts import restart_actions
from varroom.match.tracking import (
    EventKind,
    MatchEvent,
    MatchTracking,
)
from varroom.model.situation import Action, Pitch
from varroom.synthetic.match import SyntheticConfig, synthetic_match


def kinked(t_s: np.ndarray, kick_s: float, at_m: tuple[float, float], v_in, v_out) -> np.ndarray:
    """A ball on the ground flying straight at `v_in` into `at_m` at `kick_s`, then at `v_out`."""
    dt = (t_s - kick_s)[:, None]
    ball = np.array(at_m) + np.where(dt < 0, dt * np.array(v_in), dt * np.array(v_out))
    return np.column_stack([ball, np.full(len(t_s), 0.11)])


def standing(n_frames: int, *spots: tuple[float, float]) -> np.ndarray:
    return np.repeat(np.array(spots, dtype=float)[None], n_frames, axis=0)


KICK_S = 1.013  # between two frames: a third of the way from 1.000 to 1.040


@pytest.fixture
def kick() -> MatchTracking:
    t_s = np.arange(60) / RATE_HZ
    ball = kinked(t_s, KICK_S, (10.0, 5.0), (12.0, 0.0), (-3.0, 14.0))
    players = standing(60, (10.2, 4.9), (30.0, 0.0), (-20.0, 0.0), (10.0, 7.0))
    return match_of(ball, players)


def test_the_instant_is_where_the_paths_before_and_after_meet(kick: MatchTracking) -> None:
    moments = find_moments(kick)
    assert len(moments) == 1
    assert moments.t_s[0] == pytest.approx(KICK_S, abs=1e-6)  # to a fraction of a frame
    np.testing.assert_allclose(moments.ball_m[0, :2], (10.0, 5.0), atol=1e-6)
    np.testing.assert_allclose(moments.ball_in_mps[0], (12.0, 0.0), atol=1e-6)
    np.testing.assert_allclose(moments.ball_out_mps[0], (-3.0, 14.0), atol=1e-6)
    assert moments.player[0] == 0
    assert moments.frame[0] == 25  # the frame just before the instant


def test_players_are_interpolated_to_the_instant() -> None:
    t_s = np.arange(60) / RATE_HZ
    ball = kinked(t_s, KICK_S, (10.0, 5.0), (12.0, 0.0), (-3.0, 14.0))
    players = standing(60, (10.2, 4.9), (30.0, 0.0), (-20.0, 0.0), (10.0, 8.0))
    players[:, 1, 0] = 30.0 + 6.0 * t_s  # a runner at 6 m/s
    moments = find_moments(match_of(ball, players))
    assert moments.players_m[0, 1, 0] == pytest.approx(30.0 + 6.0 * KICK_S, abs=1e-4)
    np.testing.assert_allclose(moments.players_v_mps[0, 1], (6.0, 0.0), atol=1e-4)


def test_no_player_within_reach_is_no_touch() -> None:
    t_s = np.arange(60) / RATE_HZ
    ball = kinked(t_s, KICK_S, (10.0, 5.0), (12.0, 0.0), (-3.0, 14.0))
    players = standing(60, (10.0, 5.0 + REACH_M + 0.2), (30.0, 0.0))
    assert len(find_moments(match_of(ball, players))) == 0


def test_no_moment_from_frames_without_the_ball(kick: MatchTracking) -> None:
    ball = kick.ball_m.copy()
    ball[24:28] = np.nan  # the ball unseen through the touch
    assert len(find_moments(match_of(ball, kick.players_m))) == 0


def test_no_moment_across_a_period_end(kick: MatchTracking) -> None:
    period = np.where(np.arange(60) > 25, 2, 1)
    assert len(find_moments(match_of(kick.ball_m, kick.players_m, period))) == 0


def test_a_nearby_second_player_lowers_who_confidence() -> None:
    t_s = np.arange(60) / RATE_HZ
    ball = kinked(t_s, KICK_S, (10.0, 5.0), (12.0, 0.0), (-3.0, 14.0))
    alone = find_moments(match_of(ball, standing(60, (10.2, 4.9), (30.0, 0.0))))
    crowded = find_moments(match_of(ball, standing(60, (10.2, 4.9), (10.0, 5.5))))
    assert alone.player_confidence[0] == 1.0
    assert 0.5 <= crowded.player_confidence[0] < 1.0


def event(kind: EventKind, t_s: float, player: str | None) -> MatchEvent:
    return MatchEvent(t_s, 1, "h", player, kind, False, kind.value)


@pytest.mark.parametrize(
    ("kind", "action"),
    [
        (EventKind.PASS, Action.PASS),
        (EventKind.CLEARANCE, Action.CLEARANCE),
        (EventKind.INTERCEPTION, Action.DELIBERATE_PLAY),
        (EventKind.BLOCK, Action.DEFLECTION),
        (EventKind.SAVE, Action.SAVE),
        (EventKind.THROW_IN, Action.THROW_IN),
    ],
)
def test_event_data_names_how_it_was_played(
    kick: MatchTracking, kind: EventKind, action: Action
) -> None:
    match = match_of(kick.ball_m, kick.players_m, events=(event(kind, KICK_S + 0.15, "p0"),))
    moments = find_moments(match)
    assert moments.actions[0] is action
    assert moments.sources[0] is ActionSource.EVENT
    assert moments.action_confidence[0] == 1.0
    assert moments.event_index[0] == 0


def test_an_event_names_the_player_when_he_is_near_the_ball(kick: MatchTracking) -> None:
    players = standing(60, (10.2, 4.9), (10.0, 6.2), (-20.0, 0.0), (10.0, 7.0))
    named = match_of(kick.ball_m, players, events=(event(EventKind.PASS, KICK_S, "p1"),))
    assert find_moments(named).player[0] == 1
    # An event of a player far from the ball, or too long before, is another touch.
    far = match_of(kick.ball_m, players, events=(event(EventKind.PASS, KICK_S, "p2"),))
    late = match_of(kick.ball_m, players, events=(event(EventKind.PASS, KICK_S + 0.8, "p0"),))
    for match in (far, late):
        moments = find_moments(match)
        assert moments.sources[0] is not ActionSource.EVENT
        assert moments.event_index[0] == -1


def test_a_dead_ball_played_from_a_touchline_is_a_throw_in() -> None:
    t_s = np.arange(150) / RATE_HZ
    kick_s = 4.013
    ball = kinked(t_s, kick_s, (5.0, 34.3), (0.0, 0.0), (3.0, -11.0))  # still, then thrown
    players = standing(150, (5.0, 34.8), (20.0, 10.0))
    moments = find_moments(match_of(ball, players))
    assert moments.actions == (Action.THROW_IN,)
    assert moments.sources == (ActionSource.RESTART,)


def test_restarts_are_named_by_where_they_are_taken() -> None:
    spots = np.array([[0.3, -0.2], [51.9, -33.6], [10.0, 34.1], [-48.0, 3.0], [20.0, 5.0]])
    # The taker's team defends the -x goal line: the goal area at x = -48 is his own.
    actions = restart_actions(spots, np.full(len(spots), -52.5), Pitch())
    assert actions == [
        Action.KICK_OFF,
        Action.CORNER_KICK,
        Action.THROW_IN,
        Action.GOAL_KICK,
        Action.FREE_KICK,
    ]
    # In the other goal area it is a free kick (an indirect one, for the defence).
    assert restart_actions(spots[3:4], np.array([52.5]), Pitch()) == [Action.FREE_KICK]


def flight(v_in, v_out, react_s: float, travelled_m: float, height_m: float) -> Flight:
    return Flight(
        incoming_mps=np.array([v_in], dtype=float),
        outgoing_mps=np.array([v_out], dtype=float),
        react_s=np.array([react_s]),
        travelled_m=np.array([travelled_m]),
        height_m=np.array([height_m]),
    )


def test_a_fast_close_glance_reads_as_a_deflection() -> None:
    glance = flight((22.0, 0.0), (14.9, 4.0), react_s=0.3, travelled_m=7.0, height_m=0.11)
    assert deliberate_probability(glance)[0] < 0.5


def test_a_slow_ball_from_distance_brought_under_control_reads_as_deliberate() -> None:
    control = flight((12.0, 0.0), (1.0, 0.5), react_s=1.8, travelled_m=22.0, height_m=0.11)
    assert deliberate_probability(control)[0] > 0.9


def test_a_ball_kicked_on_faster_than_it_came_was_played() -> None:
    kicked = flight((3.0, 0.0), (16.0, 1.0), react_s=1.5, travelled_m=3.0, height_m=0.11)
    glanced = flight((16.0, 0.0), (12.0, 1.0), react_s=1.5, travelled_m=3.0, height_m=0.11)
    assert deliberate_probability(kicked)[0] > deliberate_probability(glanced)[0]


def test_an_unknown_height_leaves_its_indicator_out() -> None:
    known = flight((22.0, 0.0), (14.9, 4.0), react_s=0.3, travelled_m=7.0, height_m=0.11)
    unknown = flight((22.0, 0.0), (14.9, 4.0), react_s=0.3, travelled_m=7.0, height_m=np.nan)
    # On the ground the ball was easy to play, so the glance looks more deliberate.
    assert deliberate_probability(unknown)[0] < deliberate_probability(known)[0]


def test_a_ball_aimed_inside_the_posts_is_going_into_the_goal() -> None:
    ball = np.array([[50.0, 0.0], [50.0, 0.0], [50.0, 0.0], [30.0, 0.0]])
    velocity = np.array([[20.0, 40.0], [20.0, 1.0], [-20.0, 0.0], [8.0, 0.0]])
    aimed, sureness = heading_into_goal(ball, velocity, np.full(4, 52.5))
    # Wide of the post, inside it, away from the goal, too slow to be a shot.
    np.testing.assert_array_equal(aimed, [False, True, False, False])
    assert sureness[1] == 1.0


@pytest.fixture(scope="module")
def ten_minutes() -> MatchTracking:
    return synthetic_match(SyntheticConfig(seed=3, period_s=300.0, incidents_per_kind=1)).match


def test_every_touch_event_data_records_is_found(ten_minutes: MatchTracking) -> None:
    moments = find_moments(ten_minutes)
    ids = ten_minutes.player_ids
    for event_ in ten_minutes.events:
        if event_.offside_call:
            continue
        near = (moments.period == event_.period) & (np.abs(moments.t_s - event_.t_s) < 0.25)
        assert any(ids[moments.player[i]] == event_.player for i in np.flatnonzero(near)), event_
