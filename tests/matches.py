"""Test support: matches built from arrays, and cut to some of their frames."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable

import numpy as np

from varroom.match.direction import DirectionSource, Team, TeamAttack
from varroom.match.tracking import MatchEvent, MatchTracking, PitchSource, Provider
from varroom.model.situation import Direction, Pitch

RATE_HZ = 25.0
TEAMS = (Team("h", "Home"), Team("a", "Away"))


def match_of(
    ball_m: np.ndarray,
    players_m: np.ndarray,
    period: np.ndarray | None = None,
    events: tuple[MatchEvent, ...] = (),
    t_s: np.ndarray | None = None,
) -> MatchTracking:
    """A match of T frames, at 25 Hz from 0 unless `t_s` says otherwise: the first half of the
    players home, attacking +x in every period (the away team -x)."""
    n_frames, n_players = players_m.shape[:2]
    period = np.ones(n_frames, dtype=np.int8) if period is None else period
    t_s = np.arange(n_frames) / RATE_HZ if t_s is None else t_s
    return MatchTracking(
        provider=Provider.SYNTHETIC,
        pitch=Pitch(),
        pitch_source=PitchSource.METADATA,
        teams=TEAMS,
        attack=tuple(
            TeamAttack(team.id, p, direction, DirectionSource.METADATA)
            for p in sorted({1, 2, *period.tolist()})
            for team, direction in zip(TEAMS, (Direction.PLUS_X, Direction.MINUS_X), strict=True)
        ),
        frame_rate_hz=RATE_HZ,
        t_s=t_s,
        period=period.astype(np.int8),
        ball_m=ball_m,
        players_m=players_m.astype(np.float32),
        player_ids=np.array([f"p{k}" for k in range(n_players)]),
        player_names=(None,) * n_players,
        player_numbers=(None,) * n_players,
        player_short_names=(None,) * n_players,
        player_teams=np.array(["h" if k < n_players // 2 else "a" for k in range(n_players)]),
        goalkeeper=np.zeros(n_players, dtype=bool),
        events=events,
    )


def cut(
    match: MatchTracking,
    keep: np.ndarray,
    event_kept: Callable[[MatchEvent], bool] = lambda event: True,
) -> MatchTracking:
    """The match's frames where `keep`, with the events `event_kept` keeps (all of them
    unless given)."""
    return dataclasses.replace(
        match,
        t_s=match.t_s[keep],
        period=match.period[keep],
        ball_m=match.ball_m[keep],
        players_m=match.players_m[keep],
        events=tuple(e for e in match.events if event_kept(e)),
    )
