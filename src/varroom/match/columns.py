"""Putting a match's columns together, whichever reader filled them."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from varroom.match.direction import Team, TeamAttack, infer_attack
from varroom.match.tracking import MatchEvent, MatchTracking, PitchSource, Provider
from varroom.model.situation import Pitch, Player


def scatter_positions(
    n_frames: int, n_players: int, frame: np.ndarray, column: np.ndarray, xy_m: np.ndarray
) -> np.ndarray:
    """(T, P, 2) positions from one row per sighting (frame, column, x, y); NaN elsewhere."""
    players_m = np.full((n_frames, n_players, 2), np.nan, dtype=np.float32)
    players_m[frame, column] = xy_m
    return players_m


def assemble(
    *,
    provider: Provider,
    pitch: Pitch,
    pitch_source: PitchSource,
    teams: tuple[Team, Team],
    stated_attack: tuple[TeamAttack, ...],
    frame_rate_hz: float | None,
    t_s: np.ndarray,
    period: np.ndarray,
    ball_m: np.ndarray,
    players: Sequence[Player],
    players_m: np.ndarray,
    events: tuple[MatchEvent, ...] = (),
) -> MatchTracking:
    """The match; periods whose directions no file states get them inferred from the frames."""
    player_teams = np.array([player.team for player in players], dtype=np.str_)
    goalkeeper = np.array([player.goalkeeper for player in players], dtype=bool)
    stated = {attack.period for attack in stated_attack}
    unstated = sorted(set(np.unique(period).tolist()) - stated)
    inferred = infer_attack(players_m, period, unstated, player_teams, goalkeeper, teams)
    return MatchTracking(
        provider=provider,
        pitch=pitch,
        pitch_source=pitch_source,
        teams=teams,
        attack=tuple(sorted(stated_attack + inferred, key=lambda attack: attack.period)),
        frame_rate_hz=frame_rate_hz,
        t_s=np.asarray(t_s, dtype=np.float64),
        period=np.asarray(period, dtype=np.int8),
        ball_m=np.asarray(ball_m, dtype=np.float64).reshape(-1, 3),
        players_m=players_m,
        player_ids=np.array([player.id for player in players], dtype=np.str_),
        player_names=tuple(player.name for player in players),
        player_numbers=tuple(player.number for player in players),
        player_short_names=tuple(player.short_name for player in players),
        player_teams=player_teams,
        goalkeeper=goalkeeper,
        events=events,
    )
