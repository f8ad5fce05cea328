"""Planted penalty kicks (Law 14) with their truth, over a generated period.

A scene takes `PENALTY_S`: the ball is fetched out of sight while everybody walks to his
place; the ball then lies on the mark for `STILL_S` with the goalkeeper on or off his line,
the kicker behind it and everybody else outside the area and at least 9.15 m away (but the
planted encroacher); the kicker runs up and kicks at an instant between two frames; the ball
goes in, to the goalkeeper and off him, or back to a team-mate; then it is fetched again and
the players walk back to the play.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

import numpy as np
import numpy.typing as npt

from varroom.engine.penalty_verdict import OffenceKind
from varroom.model.measures import BALL_RADIUS_M, PENALTY_AREA_DEPTH_M, PENALTY_MARK_M
from varroom.model.penalty import KickResult
from varroom.model.situation import Pitch
from varroom.synthetic.motion import PLAYERS_PER_TEAM, ROLES, Role
from varroom.synthetic.planting import blend

Floats = npt.NDArray[np.float64]

PENALTY_S = 12.0
WALK_S = 3.0  # from the play to the places, and back
STILL_S = 3.0  # the ball on the mark before the kick
RUN_UP_S = 1.0
FLIGHT_MPS = 22.0
OFF_LINE_M = (0.02, 0.40)  # issue 10: a goalkeeper off his line by 2-40 cm
ENCROACH_M = (0.3, 2.0)  # how far inside the area an encroacher stands
LINE_WIDTH_M = 0.12  # the goal line's front edge lies this far inside the field


class PenaltyPlant(Enum):
    LEGAL = "legal"
    KEEPER_OFF_LINE = "keeper_off_line"
    ENCROACHMENT_ATTACKER = "encroachment_attacker"
    ENCROACHMENT_DEFENDER = "encroachment_defender"
    BACKWARD_KICK = "backward_kick"


_RESULT = {
    PenaltyPlant.LEGAL: KickResult.GOAL,
    PenaltyPlant.KEEPER_OFF_LINE: KickResult.SAVED,  # a save the offence makes a retake
    PenaltyPlant.ENCROACHMENT_ATTACKER: KickResult.GOAL,
    PenaltyPlant.ENCROACHMENT_DEFENDER: KickResult.SAVED,
    PenaltyPlant.BACKWARD_KICK: KickResult.IN_PLAY,
}


@dataclass(frozen=True, slots=True)
class PlantedPenalty:
    """The truth about one planted kick: the offence tracking can see (None: legal), who
    committed it and its margin (None where the scene does not fix one: a backward kick's
    depends on when the ball is looked at after the kick)."""

    kind: PenaltyPlant
    period: int
    t_s: float  # the kick, between two frames
    team: str  # the kicker's
    kicker: str
    keeper: str
    result: KickResult
    offence: OffenceKind | None
    offender: str | None
    margin_m: float | None


def plant_penalty(
    kind: PenaltyPlant,
    period: int,
    start_s: float,
    t_s: Floats,
    ball_m: Floats,
    players_m: npt.NDArray[np.float32],
    signs: tuple[float, float],
    player_ids: tuple[str, ...],
    team_ids: tuple[str, str],
    rng: np.random.Generator,
) -> PlantedPenalty:
    """Write one penalty scene into a period's frames (in place) and return its truth."""
    pitch = Pitch()
    team = int(rng.integers(2))
    sign = signs[team]
    half = pitch.half_length_m
    rate = 1.0 / float(t_s[1] - t_s[0])
    # The kick falls between two frames, never on one.
    kick_s = (np.floor((start_s + WALK_S + STILL_S) * rate) + rng.uniform(0.2, 0.8)) / rate
    end_s = start_s + PENALTY_S

    def at(depth_m: float, y_m: float) -> tuple[float, float]:
        """A point by its distance from the goal line the kick is taken towards."""
        return (sign * (half - depth_m), y_m)

    def columns(side: int, *roles: Role) -> list[int]:
        first = side * PLAYERS_PER_TEAM
        return [first + k for k, role in enumerate(ROLES) if role in roles]

    outfield = (Role.DEFENDER, Role.MIDFIELDER, Role.FORWARD)
    kicker = int(rng.choice(columns(team, Role.FORWARD)))
    keeper = columns(1 - team, Role.GOALKEEPER)[0]
    own_keeper = columns(team, Role.GOALKEEPER)[0]
    scene = np.empty((len(player_ids), 2))
    for c in range(len(player_ids)):
        scene[c] = at(float(rng.uniform(21.0, 30.0)), float(rng.uniform(-25.0, 25.0)))
    scene[own_keeper] = (-sign * (half - 6.0), 0.0)
    off = float(rng.uniform(*OFF_LINE_M)) if kind is PenaltyPlant.KEEPER_OFF_LINE else None
    scene[keeper] = at(LINE_WIDTH_M + off if off is not None else LINE_WIDTH_M / 2, 0.0)
    scene[keeper, 1] = float(rng.uniform(-1.0, 1.0))
    mark = at(PENALTY_MARK_M, 0.0)
    offender: int | None = None
    margin: float | None = off
    if kind in (PenaltyPlant.ENCROACHMENT_ATTACKER, PenaltyPlant.ENCROACHMENT_DEFENDER):
        side = team if kind is PenaltyPlant.ENCROACHMENT_ATTACKER else 1 - team
        offender = int(rng.choice([c for c in columns(side, *outfield) if c != kicker]))
        margin = float(rng.uniform(*ENCROACH_M))
        # Inside the area, but outside the 9.15 m arc and behind the mark.
        side_y = float(rng.choice([-1.0, 1.0])) * float(rng.uniform(12.0, 16.0))
        scene[offender] = at(PENALTY_AREA_DEPTH_M - margin, side_y)
    elif kind is PenaltyPlant.KEEPER_OFF_LINE:
        offender = keeper

    # Everybody walks from the play to his place and back; the kicker runs up to the ball.
    inside = (t_s >= start_s) & (t_s < end_s)
    frames = np.flatnonzero(inside)
    w = np.minimum(
        blend(t_s[frames], start_s, start_s + WALK_S),
        1.0 - blend(t_s[frames], kick_s + 0.6, end_s),
    )[:, None, None]
    wanted = np.broadcast_to(scene, (len(frames), *scene.shape)).copy()
    run = blend(t_s[frames], kick_s - RUN_UP_S, kick_s)
    wanted[:, kicker, 0] = sign * (half - PENALTY_MARK_M - 3.0 + 2.6 * run)
    wanted[:, kicker, 1] = 0.0
    players_m[frames] = players_m[frames] * (1 - w) + wanted * w

    ball_m[frames] = np.nan
    still = inside & (t_s >= start_s + WALK_S) & (t_s <= kick_s)
    ball_m[still] = (*mark, BALL_RADIUS_M)
    result = _RESULT[kind]
    _flight(result, t_s, ball_m, kick_s, mark, scene[keeper], sign, half, rng)
    truth_offence = {
        PenaltyPlant.LEGAL: None,
        PenaltyPlant.KEEPER_OFF_LINE: OffenceKind.GOALKEEPER_OFF_LINE,
        PenaltyPlant.ENCROACHMENT_ATTACKER: OffenceKind.ENCROACHMENT,
        PenaltyPlant.ENCROACHMENT_DEFENDER: OffenceKind.ENCROACHMENT,
        PenaltyPlant.BACKWARD_KICK: OffenceKind.BACKWARD_KICK,
    }[kind]
    if kind is PenaltyPlant.BACKWARD_KICK:
        offender = kicker
    return PlantedPenalty(
        kind=kind,
        period=period,
        t_s=float(kick_s),
        team=team_ids[team],
        kicker=player_ids[kicker],
        keeper=player_ids[keeper],
        result=result,
        offence=truth_offence,
        offender=None if offender is None else player_ids[offender],
        margin_m=margin,
    )


def _flight(
    result: KickResult,
    t_s: Floats,
    ball_m: Floats,
    kick_s: float,
    mark: tuple[float, float],
    keeper: Floats,
    sign: float,
    half: float,
    rng: np.random.Generator,
) -> None:
    """The ball from the kick: into the net, off the goalkeeper, or back to a team-mate; then
    out of sight (it is fetched)."""
    legs: list[tuple[tuple[float, float], float]] = []  # (to, speed)
    if result is KickResult.GOAL:
        y = float(rng.choice([-1.0, 1.0])) * float(rng.uniform(1.5, 3.0))
        legs.append(((sign * (half + 1.5), y), FLIGHT_MPS))
    elif result is KickResult.SAVED:
        # At the goalkeeper, off him and away to the side.
        legs.append(((float(keeper[0]) - sign * 0.6, float(keeper[1]) + 0.5), FLIGHT_MPS))
        legs.append(((sign * (half - 8.0), float(keeper[1]) + 10.0), 12.0))
    else:  # backward, to a team-mate behind the mark
        legs.append(((sign * (half - PENALTY_MARK_M - 6.0), 4.0), 12.0))
    at, t0 = mark, kick_s
    for to, speed in legs:
        t1 = t0 + float(np.hypot(to[0] - at[0], to[1] - at[1])) / speed
        frames = (t_s > t0) & (t_s <= t1)
        s = ((t_s[frames] - t0) / (t1 - t0))[:, None]
        ball_m[frames, :2] = np.array(at) + (np.array(to) - np.array(at)) * s
        ball_m[frames, 2] = BALL_RADIUS_M
        at, t0 = to, t1
    # In the net, or where it went, for a moment: then fetched.
    rest = (t_s > t0) & (t_s <= t0 + 0.4)
    ball_m[rest] = (*at, BALL_RADIUS_M)
