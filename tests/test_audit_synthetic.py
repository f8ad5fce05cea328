"""The synthetic match generator: plausible motion, and planted situations that are what
their truth says, checked on the generated frames with Law 11.1 alone."""

from __future__ import annotations

import numpy as np
import pytest

from varroom.engine.judge import DEFAULT_SETTINGS
from varroom.law.position import (
    ball_depth_m,
    offside_line_depth_m,
    offside_margin_m,
    second_last_opponent,
)
from varroom.match.tracking import EventKind, MatchTracking, Provider
from varroom.model.situation import Direction
from varroom.synthetic.match import (
    IncidentKind,
    PlantedIncident,
    SyntheticConfig,
    SyntheticMatch,
    synthetic_match,
)

SHORT = SyntheticConfig(seed=11, period_s=300.0, incidents_per_kind=1)

# laws.md: which planted situations are offside offences.
OFFENCES = {
    IncidentKind.INTERFERING,
    IncidentKind.DEFLECTION,
    IncidentKind.SAVE_REBOUND,
    IncidentKind.FREE_KICK,
}


@pytest.fixture(scope="module")
def short() -> SyntheticMatch:
    return synthetic_match(SHORT)


def test_the_same_seed_gives_the_same_match(short: SyntheticMatch) -> None:
    again = synthetic_match(SHORT)
    np.testing.assert_array_equal(again.match.players_m, short.match.players_m)
    np.testing.assert_array_equal(again.match.ball_m, short.match.ball_m)
    assert again.truth == short.truth
    other = synthetic_match(SyntheticConfig(seed=12, period_s=300.0, incidents_per_kind=1))
    assert not np.array_equal(other.match.players_m, short.match.players_m, equal_nan=True)


def test_two_periods_of_frames_and_the_teams_swap_ends(short: SyntheticMatch) -> None:
    match = short.match
    assert match.provider is Provider.SYNTHETIC
    assert match.frame_rate_hz == 25.0
    assert match.players_m.shape == (2 * 300 * 25, 22, 2)
    assert match.players_m.dtype == np.float32
    np.testing.assert_array_equal(np.unique(match.period), [1, 2])
    first = match.period == 1
    assert match.t_s[first][0] == 0.0 and match.t_s[~first][0] == 0.0
    assert match.goalkeeper.sum() == 2
    for team in match.teams:
        assert match.attack_of(team.id, 1).direction is not match.attack_of(team.id, 2).direction


def test_players_run_no_faster_than_footballers(short: SyntheticMatch) -> None:
    match = short.match
    step = np.diff(match.players_m, axis=0) / np.diff(match.t_s)[:, None, None]
    speed = np.hypot(step[..., 0], step[..., 1])[np.diff(match.period) == 0]
    speed = speed[~np.isnan(speed)]
    assert np.percentile(speed, 99.99) <= 9.0
    assert speed.max() <= 11.0  # a sprinter's top speed, in the rare scripted dash


def test_every_kind_is_planted_with_the_ruling_of_the_laws(short: SyntheticMatch) -> None:
    kinds = sorted(incident.kind.value for incident in short.truth)
    assert kinds == sorted(kind.value for kind in IncidentKind)
    for incident in short.truth:
        assert incident.offence is (incident.kind in OFFENCES)
        assert (incident.offender is not None) is incident.offence
        assert incident.offender in (None, incident.attacker)


def position_at(match: MatchTracking, incident: PlantedIncident) -> tuple[np.ndarray, np.ndarray]:
    """(P, 2) players and the ball, interpolated to a planted play."""
    frames = np.flatnonzero(match.period == incident.period)
    t_s = match.t_s[frames]
    k = frames[np.searchsorted(t_s, incident.t_s) - 1]
    w = (incident.t_s - match.t_s[k]) / (match.t_s[k + 1] - match.t_s[k])
    players = match.players_m[k].astype(float) * (1 - w) + match.players_m[k + 1] * w
    ball = match.ball_m[k] * (1 - w) + match.ball_m[k + 1] * w
    return players, ball


def margins(match: MatchTracking, incident: PlantedIncident) -> tuple[float, float, float]:
    """The attacker's depth, his margin against the second-last opponent and the ball alone,
    and his Law 11.1 margin (the halfway line too)."""
    players, ball = position_at(match, incident)
    direction = match.attack_of(incident.team, incident.period).direction
    depth = direction.sign * players[:, 0]
    opponents = np.where(match.player_teams != incident.team, depth, np.nan)
    second = opponents[second_last_opponent(opponents)]
    ball_depth = ball_depth_m(ball[0], direction, DEFAULT_SETTINGS)
    attacker = depth[list(match.player_ids).index(incident.attacker)]
    past = float(attacker - max(ball_depth, second))
    line = offside_line_depth_m(ball_depth, second, DEFAULT_SETTINGS)
    return float(attacker), past, float(offside_margin_m(attacker, line))


def test_planted_positions_are_what_the_truth_says(short: SyntheticMatch) -> None:
    for incident in short.truth:
        depth, past, margin = margins(short.match, incident)
        if incident.kind is IncidentKind.LEVEL:
            assert margin == 0.0, incident  # level, to the bit
        elif incident.kind is IncidentKind.OWN_HALF:
            assert past > 0 and depth < 0 and margin < 0, incident
        else:
            # Every other kind is about a player in an offside position at the play.
            assert margin > 0, incident


def test_event_data_comes_with_the_touches_and_the_flags() -> None:
    with_events = synthetic_match(SHORT)
    without = synthetic_match(
        SyntheticConfig(seed=11, period_s=300.0, incidents_per_kind=1, with_events=False)
    )
    assert without.match.events == ()
    kinds = {event.kind for event in with_events.match.events}
    assert {EventKind.PASS, EventKind.BLOCK, EventKind.SAVE, EventKind.THROW_IN} <= kinds
    calls = [event for event in with_events.match.events if event.offside_call]
    offences = [incident for incident in with_events.truth if incident.offence]
    assert sorted(call.player for call in calls) == sorted(i.offender for i in offences)
    np.testing.assert_array_equal(without.match.players_m, with_events.match.players_m)


def test_bad_data_stays_away_from_the_planted_situations(short: SyntheticMatch) -> None:
    match = short.match
    in_play = ~np.isnan(match.ball_m[:, 0])
    assert 0.7 < in_play.mean() < 0.95  # dead balls are fetched out of sight
    vanished = np.isnan(match.players_m[..., 0])
    assert vanished.any()
    for incident in short.truth:
        near = (match.period == incident.period) & (np.abs(match.t_s - incident.t_s) < 2.0)
        assert not vanished[near].any()


def test_noise_moves_every_position_a_little(short: SyntheticMatch) -> None:
    noisy = synthetic_match(
        SyntheticConfig(seed=11, period_s=300.0, incidents_per_kind=1, noise_m=0.05)
    ).match
    difference = (noisy.players_m - short.match.players_m)[..., 0]
    assert np.nanstd(difference) == pytest.approx(0.05, rel=0.05)


def test_incidents_that_do_not_fit_are_refused() -> None:
    with pytest.raises(ValueError, match="do not fit"):
        synthetic_match(SyntheticConfig(period_s=120.0, incidents_per_kind=2))


def test_directions_are_plus_x_for_home_first() -> None:
    match = synthetic_match(SyntheticConfig(seed=1, period_s=120.0, incidents_per_kind=0)).match
    assert match.attack_of("home", 1).direction is Direction.PLUS_X
    assert match.attack_of("away", 2).direction is Direction.PLUS_X


def test_the_old_location_still_works_and_warns() -> None:
    import varroom.audit.synthetic as old

    with pytest.warns(DeprecationWarning, match="moved to varroom.synthetic.synthetic_match"):
        moved = old.synthetic_match
    assert moved is synthetic_match
