"""Law 11.2: when an offside position becomes an offence."""

from __future__ import annotations

from enum import Enum

from varroom.model.situation import TouchKind


class Involvement(Enum):
    """The three ways of becoming involved in active play (Law 11.2)."""

    INTERFERING_WITH_PLAY = "interfering_with_play"
    INTERFERING_WITH_AN_OPPONENT = "interfering_with_an_opponent"
    GAINING_AN_ADVANTAGE = "gaining_an_advantage"


def resets_offside(kind: TouchKind) -> bool:
    """Law 11.2: a deliberate play by an opponent resets; a deliberate save, a deflection or a
    rebound does not."""
    return kind not in (TouchKind.DEFLECTION, TouchKind.SAVE, TouchKind.REBOUND)


def gives_an_advantage(kind: TouchKind) -> bool:
    """Law 11.2: after a rebound or deflection off the woodwork, an official or an opponent, or
    a deliberate save, playing the ball or interfering is gaining an advantage."""
    return kind in (TouchKind.DEFLECTION, TouchKind.SAVE, TouchKind.REBOUND)


def is_involved(
    plays_the_ball: bool, interferes_with_an_opponent: bool, after_advantage: bool
) -> Involvement | None:
    """Law 11.2: involvement by playing or touching the ball, or by interfering with an
    opponent; after a rebound, deflection or save it is gaining an advantage."""
    if not (plays_the_ball or interferes_with_an_opponent):
        return None
    if after_advantage:
        return Involvement.GAINING_AN_ADVANTAGE
    if plays_the_ball:
        return Involvement.INTERFERING_WITH_PLAY
    return Involvement.INTERFERING_WITH_AN_OPPONENT
