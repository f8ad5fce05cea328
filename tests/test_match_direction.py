"""Inferring attacking directions from where the players stand."""

from __future__ import annotations

import numpy as np

from varroom.match import DirectionSource, Team
from varroom.match.direction import infer_attack
from varroom.model.situation import Direction

TEAMS = (Team("h", "Home"), Team("a", "Away"))
# Columns: home keeper, home outfield, away keeper, away outfield.
PLAYER_TEAMS = np.array(["h", "h", "a", "a"])
GOALKEEPER = np.array([True, False, True, False])
NAN = np.nan


def positions(*frames: tuple[float, float, float, float]) -> np.ndarray:
    """(T, 4, 2) positions from the x of each column per frame; y is 0."""
    x_m = np.array(frames, dtype=np.float32)
    return np.stack([x_m, np.zeros_like(x_m)], axis=-1)


def home_direction(players_m: np.ndarray, period: list[int] | None = None) -> dict:
    period_array = np.array(period or [1] * len(players_m))
    attacks = infer_attack(
        players_m, period_array, sorted(set(period_array.tolist())), PLAYER_TEAMS, GOALKEEPER, TEAMS
    )
    return {(a.period, a.team): (a.direction, a.source) for a in attacks}


def test_goalkeepers_stand_in_the_half_they_defend() -> None:
    # Outfield players all in the home keeper's half: the keepers decide.
    found = home_direction(positions((-50, -10, 48, -20), (-49, -5, NAN, -15)))
    keeper = DirectionSource.INFERRED_FROM_GOALKEEPER
    assert found == {(1, "h"): (Direction.PLUS_X, keeper), (1, "a"): (Direction.MINUS_X, keeper)}


def test_one_seen_goalkeeper_is_enough() -> None:
    found = home_direction(positions((NAN, 0, 45, 0)))
    assert found[(1, "h")] == (Direction.PLUS_X, DirectionSource.INFERRED_FROM_GOALKEEPER)


def test_without_goalkeepers_the_teams_mean_positions_tell() -> None:
    found = home_direction(positions((NAN, 20, NAN, 30), (NAN, -10, NAN, 5)))
    players = DirectionSource.INFERRED_FROM_PLAYERS
    assert found == {(1, "h"): (Direction.PLUS_X, players), (1, "a"): (Direction.MINUS_X, players)}


def test_each_period_on_its_own() -> None:
    found = home_direction(positions((-50, 0, 50, 0), (50, 0, -50, 0)), period=[1, 2])
    assert found[(1, "h")][0] is Direction.PLUS_X
    assert found[(2, "h")][0] is Direction.MINUS_X


def test_nothing_seen_tells_nothing() -> None:
    assert home_direction(positions((NAN, NAN, NAN, 10))) == {}
