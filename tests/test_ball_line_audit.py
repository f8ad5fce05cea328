"""`varroom.audit.ball_out`: every ball-out of a match's ball track, which ones play went on
after, and every goal-line moment, on a small synthetic match built here."""

from __future__ import annotations

import numpy as np
import pytest

from varroom.audit.ball_out import scan_ball_out
from varroom.match.direction import Team
from varroom.match.tracking import EventKind, MatchEvent, MatchTracking, PitchSource, Provider
from varroom.model.ball_line import BallLineDecision, Line
from varroom.model.situation import Pitch
from varroom.profiles import ifab

RATE_HZ = 25
R = 0.11


def _event(t_s: float, kind: EventKind, period: int = 1) -> MatchEvent:
    return MatchEvent(t_s, period, "h", None, kind, False, kind.value)


class _Builder:
    """Two periods of 60 s at 25 Hz, the ball rolling about midfield, with planted moments."""

    def __init__(self) -> None:
        t = np.arange(60 * RATE_HZ) / RATE_HZ
        self.t = np.concatenate([t, t])
        self.period = np.repeat([1, 2], len(t)).astype(np.int8)
        self.ball = np.column_stack(
            [10 * np.sin(self.t / 7), 8 * np.cos(self.t / 5), np.full_like(self.t, R)]
        )

    def plant(self, period: int, start_s: float, duration_s: float, path) -> None:
        """Overwrite the ball for `duration_s` from `start_s` with path(tau) -> (x, y, z)."""
        frames = np.flatnonzero(
            (self.period == period)
            & (self.t >= start_s - 1e-9)
            & (self.t < start_s + duration_s - 1e-9)
        )
        tau = self.t[frames] - start_s
        self.ball[frames] = np.column_stack(np.broadcast_arrays(*path(tau)))

    def match(self, events: tuple[MatchEvent, ...] = ()) -> MatchTracking:
        return MatchTracking(
            provider=Provider.SYNTHETIC,
            pitch=Pitch(),
            pitch_source=PitchSource.METADATA,
            teams=(Team("h", "Home"), Team("a", "Away")),
            attack=(),
            frame_rate_hz=RATE_HZ,
            t_s=self.t,
            period=self.period,
            ball_m=self.ball,
            players_m=np.zeros((len(self.t), 0, 2), dtype=np.float32),
            player_ids=np.array([], dtype=str),
            player_names=(),
            player_numbers=(),
            player_short_names=(),
            player_teams=np.array([], dtype=str),
            goalkeeper=np.array([], dtype=bool),
            events=events,
        )


def _curl(edge: float, peak_m: float, peak_s: float, pull: float):
    """The ball's centre across a line: its nearest point `peak_m` past the edge at `peak_s`."""
    return lambda tau: edge + R + peak_m - 0.5 * pull * (tau - peak_s) ** 2


@pytest.fixture(scope="module")
def scan():
    b = _Builder()
    # 1. Over the touchline at +y by 30 cm and back within a second: play went on (missed).
    b.plant(1, 10.0, 1.6, lambda tau: (5.0, _curl(34.0, 0.30, 0.8, 4.0)(tau), R))
    # 2. Out over the touchline at -y for 5 s, a throw-in recorded: play stopped.
    b.plant(1, 20.0, 6.0, lambda tau: (-3.0, np.where(tau < 5.0, -35.0, -33.0), R))
    # 3. A curl over the goal line at +x, wide of the goal, wholly over only between two frames
    #    (1 mm at its furthest, midway between frames that show it 1.4 mm short).
    b.plant(1, 30.0, 1.0, lambda tau: (_curl(52.5, 0.001, 0.5, 12.0)(tau), 12.0, R))
    # 4. A clearance 3 mm short of the goal line at -x, between the posts: no ball-out.
    b.plant(1, 40.0, 1.0, lambda tau: (-_curl(52.5, -0.003, 0.5 + 0.013, 12.0)(tau), 1.0, 0.4))
    # 5. A goal at +x: the ball rolls into the net and stays there; the kick-off follows.
    b.plant(1, 50.0, 10.0, lambda tau: (np.minimum(51.0 + 4.0 * tau, 54.0), -2.0, R))
    # 6. Period 2: the ball unseen for a second beside the touchline: never out.
    b.plant(2, 5.0, 1.0, lambda tau: (np.nan, np.nan, np.nan))
    events = (_event(25.5, EventKind.THROW_IN), _event(59.0, EventKind.KICK_OFF))
    return scan_ball_out(b.match(events), ifab())


def test_each_ball_out_is_found_with_its_line_and_margin(scan):
    found = [(out.period, int(out.t_s), out.line) for out in scan.ball_outs]
    assert found == [
        (1, 10, Line.TOUCHLINE_PLUS_Y),
        (1, 20, Line.TOUCHLINE_MINUS_Y),
        (1, 30, Line.GOAL_LINE_PLUS_X),
        (1, 50, Line.GOAL_LINE_PLUS_X),
    ]
    touchline, throw_in, curl, goal = scan.ball_outs
    assert touchline.margin_m == pytest.approx(0.30, abs=1e-6)
    assert throw_in.margin_m == pytest.approx(35.0 - 34.0 - R)
    assert curl.margin_m == pytest.approx(0.001, abs=1e-6)
    assert goal.margin_m == pytest.approx(54.0 - 52.5 - R)


def test_only_the_ball_outs_play_went_on_after_are_missed(scan):
    touchline, throw_in, curl, goal = scan.ball_outs
    assert scan.missed == (touchline, curl)
    assert touchline.back_in_s is not None and touchline.back_in_s < 2.0
    assert throw_in.back_in_s == pytest.approx(5.0, abs=0.05)
    assert goal.back_in_s is None  # still in the net when the period ends in the data


def test_a_ball_out_only_between_frames_is_marked_so(scan):
    assert [out.between_frames for out in scan.ball_outs] == [False, False, True, False]


def test_every_goal_line_moment_is_judged(scan):
    decisions = [(m.period, m.verdict.nearest_line, m.verdict.decision) for m in scan.goal_line]
    assert decisions == [
        (1, Line.GOAL_LINE_MINUS_X, BallLineDecision.IN_PLAY),
        (1, Line.GOAL_LINE_PLUS_X, BallLineDecision.GOAL),
    ]
    clearance = scan.goal_line[0].verdict
    assert clearance.margin_m == pytest.approx(-0.003, abs=1e-6)


def test_a_match_without_ball_outs_has_none():
    assert scan_ball_out(_Builder().match(), ifab()).ball_outs == ()
