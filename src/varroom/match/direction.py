"""The two teams of a match and which goal line each attacks in each period, with how that is
known: stated by the files, or inferred from where the players stand."""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

import numpy as np

from varroom.model.situation import Direction


class DirectionSource(Enum):
    """How a team's attacking direction in a period is known."""

    METADATA = "metadata"  # stated in the provider's files (kick-off side, attack direction)
    INFERRED_FROM_GOALKEEPER = "inferred_from_goalkeeper"  # mean x of the goalkeepers
    INFERRED_FROM_PLAYERS = "inferred_from_players"  # mean x of each team's players
    # The provider gives every event in the direction of the team performing it; varroom
    # mirrors the away team's records so that the home team always attacks +x. A convention:
    # the real ends of the pitch are unknown.
    NORMALISED = "normalised"


@dataclass(frozen=True, slots=True)
class Team:
    id: str
    name: str


@dataclass(frozen=True, slots=True)
class TeamAttack:
    """The goal line a team attacks in a period, and how that is known."""

    team: str
    period: int
    direction: Direction
    source: DirectionSource


def team_attacks(
    teams: tuple[Team, Team], period: int, home: Direction, source: DirectionSource
) -> tuple[TeamAttack, TeamAttack]:
    """Both teams' directions in a period: the away team attacks the other way."""
    away = Direction.MINUS_X if home is Direction.PLUS_X else Direction.PLUS_X
    return (
        TeamAttack(teams[0].id, period, home, source),
        TeamAttack(teams[1].id, period, away, source),
    )


def infer_attack(
    players_m: np.ndarray,
    period: np.ndarray,
    periods: list[int],
    player_teams: np.ndarray,
    goalkeeper: np.ndarray,
    teams: tuple[Team, Team],
) -> tuple[TeamAttack, ...]:
    """Directions in `periods`; none for a period where nobody of either team is seen."""
    x_m = players_m[:, :, 0]
    home, away = (player_teams == team.id for team in teams)
    attacks: list[TeamAttack] = []
    for period_id in periods:
        inferred = _home_direction(x_m, period == period_id, home, away, goalkeeper)
        if inferred is not None:
            attacks.extend(team_attacks(teams, period_id, *inferred))
    return tuple(attacks)


def _home_direction(
    x_m: np.ndarray, frames: np.ndarray, home: np.ndarray, away: np.ndarray, goalkeeper: np.ndarray
) -> tuple[Direction, DirectionSource] | None:
    def mean_x(columns: np.ndarray) -> float:
        # Only the block asked for is copied out of the (T, P) positions.
        return _mean(x_m[np.ix_(frames, columns)])

    home_keeper, away_keeper = mean_x(home & goalkeeper), mean_x(away & goalkeeper)
    if not (np.isnan(home_keeper) and np.isnan(away_keeper)):
        # A goalkeeper stays in the half he defends; one seen keeper is enough, the unseen
        # one counts as standing on the halfway line.
        home_attacks_plus_x = np.nan_to_num(away_keeper) > np.nan_to_num(home_keeper)
        return _direction(home_attacks_plus_x), DirectionSource.INFERRED_FROM_GOALKEEPER
    home_x, away_x = mean_x(home), mean_x(away)
    if np.isnan(home_x) or np.isnan(away_x) or home_x == away_x:
        return None
    # Over a period each team spends longer in the half it defends than the other team does.
    return _direction(away_x > home_x), DirectionSource.INFERRED_FROM_PLAYERS


def _direction(plus_x: bool) -> Direction:
    return Direction.PLUS_X if plus_x else Direction.MINUS_X


def _mean(x_m: np.ndarray) -> float:
    """Mean of the seen values; NaN when none is (without numpy's empty-slice warning)."""
    seen = np.isfinite(x_m)
    count = np.count_nonzero(seen)
    return float(np.where(seen, x_m, 0.0).sum() / count) if count else float("nan")
