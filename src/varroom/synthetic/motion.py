"""How the synthetic players move: a 4-4-2 shape around the play, damped random walks, and
anchors that put a player exactly where a script needs him at a given instant.

Every operation here is a linear filter or an interpolation along time, vectorised over all
frames and players (`scipy.signal.lfilter` runs the recursions in C).

1. The *centre of play* (where the ball roughly is) and who has the ball set each team's
   lines, in the team's own frame (depth `u` towards the goal it attacks):
   - out of possession a compact block: the back line 12 m goal-side of the centre of play
     (between 40 m deep and 5 m into the opponents' half), midfield 12 m and forwards 25 m
     ahead of it;
   - in possession a stretched one: the back line 22 m behind the centre of play, midfield
     just behind it, the forwards 1.5 m short of the opponents' back line;
   - the goalkeeper 15 m behind his back line, between his goal line's 2.5 m and 17.5 m.
   Across the pitch each slot keeps its 4-4-2 lane, narrower out of possession, shifted a
   third of the way towards the centre of play. A second-order low-pass (`SHAPE_TAU_S`)
   turns the lines' jumps at a change of possession into runs.
2. Each player wanders around his slot: white noise through the same second-order filter
   (`WANDER_TAU_S`), a damped random walk with a smooth velocity, scaled to `WANDER_SD_M`.
3. Anchors: a script pins player p at (t_k, xy_k). The correction xy_k - free(t_k) is
   interpolated between a player's anchors with a smoothstep (no jump in velocity at an
   anchor), and fades in before the first and out after the last (or between anchors
   further apart than the two fades) over `BLEND_S`, or longer for a large correction so that
   it never adds more than 1.5 `CATCH_UP_MPS` to his speed. At t_k the player is exactly at
   xy_k.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum

import numpy as np
import numpy.typing as npt
from scipy.signal import lfilter, lfilter_zi

Floats = npt.NDArray[np.float64]

PLAYERS_PER_TEAM = 11
SHAPE_TAU_S = 1.5
CENTRE_TAU_S = 2.0
WANDER_TAU_S = 4.0
WANDER_SD_M = (2.0, 2.5)  # along and across the pitch
KEEPER_WANDER_SD_M = 0.8
BLEND_S = 2.0
CATCH_UP_MPS = 3.0  # a correction fades at this pace or slower (smoothstep peaks at 1.5 times)


class Role(Enum):
    GOALKEEPER = "goalkeeper"
    DEFENDER = "defender"
    MIDFIELDER = "midfielder"
    FORWARD = "forward"


# The 4-4-2: each slot's role, lane across the pitch and step ahead of its line (wide men
# play a little higher).
ROLES = (Role.GOALKEEPER,) + (Role.DEFENDER,) * 4 + (Role.MIDFIELDER,) * 4 + (Role.FORWARD,) * 2
_LANE_M = np.array([0.0, -22.0, -8.0, 8.0, 22.0, -22.0, -8.0, 8.0, 22.0, -7.0, 7.0])
_STEP_M = np.array([0.0, 3.0, 0.0, 0.0, 3.0, 2.0, 0.0, 0.0, 2.0, 0.0, 0.0])
_WIDTH = {True: 1.0, False: 0.75}  # in possession or not
_BALL_SIDE_SHIFT = 0.35


def defending_line_m(centre_u_m: Floats) -> Floats:
    """The back line of the team without the ball, in its own frame."""
    return np.clip(centre_u_m - 12.0, -40.0, 5.0)


def _lines(centre_u_m: Floats, in_possession: npt.NDArray[np.bool_]) -> dict[Role, Floats]:
    """Each role's depth, own frame, from the centre of play in the same frame."""
    back_out = defending_line_m(centre_u_m)
    back_in = np.clip(centre_u_m - 22.0, -38.0, 15.0)
    back = np.where(in_possession, back_in, back_out)
    # The opponents' back line, seen from this side: their frame is this one turned round.
    opponents_back = -defending_line_m(-centre_u_m)
    return {
        Role.GOALKEEPER: np.clip(back - 15.0, -50.0, -35.0),
        Role.DEFENDER: back,
        Role.MIDFIELDER: np.where(in_possession, np.clip(centre_u_m - 3.0, -30.0, 38.0), back + 12),
        Role.FORWARD: np.where(in_possession, opponents_back - 1.5, back + 25.0),
    }


def low_pass(signal: Floats, tau_s: float, rate_hz: float) -> Floats:
    """Second-order (two first-order stages) low-pass along axis 0, starting at rest."""
    a = np.exp(-1.0 / (tau_s * rate_hz))
    b, den = [1.0 - a], [1.0, -a]
    out = signal
    for _ in range(2):
        zi = lfilter_zi(b, den)[0] * out[:1]
        out, _ = lfilter(b, den, out, axis=0, zi=zi)
    return out


def centre_of_play(t_s: Floats, waypoint_s: Floats, waypoint_m: Floats, rate_hz: float) -> Floats:
    """(T, 2) the centre of play through its waypoints, smoothed."""
    path = np.column_stack([np.interp(t_s, waypoint_s, waypoint_m[:, k]) for k in (0, 1)])
    return low_pass(path, CENTRE_TAU_S, rate_hz)


def free_positions(
    centre_m: Floats,
    possession: npt.NDArray[np.intp],
    signs: tuple[float, float],
    rng: np.random.Generator,
    rate_hz: float,
) -> Floats:
    """(T, 22, 2) every player's position before anchors: team 0's slots, then team 1's.

    `possession` (T,) is the team with the ball; `signs` the direction each team attacks."""
    n = len(centre_m)
    targets = np.empty((n, 2 * PLAYERS_PER_TEAM, 2))
    for team, sign in enumerate(signs):
        centre_u = sign * centre_m[:, 0]
        has_ball = possession == team
        lines = _lines(centre_u, has_ball)
        width = np.where(has_ball, _WIDTH[True], _WIDTH[False])
        u = np.stack([lines[role] for role in ROLES], axis=1) + _STEP_M
        y = _LANE_M[None, :] * width[:, None] + _BALL_SIDE_SHIFT * centre_m[:, 1:2]
        columns = slice(team * PLAYERS_PER_TEAM, (team + 1) * PLAYERS_PER_TEAM)
        targets[:, columns, 0] = sign * u
        targets[:, columns, 1] = y
    shape = low_pass(targets, SHAPE_TAU_S, rate_hz)
    return shape + _wander(n, rng, rate_hz)


def _wander(n: int, rng: np.random.Generator, rate_hz: float) -> Floats:
    """(T, 22, 2) damped random walks, each scaled to its standard deviation."""
    noise = low_pass(rng.standard_normal((n, 2 * PLAYERS_PER_TEAM, 2)), WANDER_TAU_S, rate_hz)
    noise /= noise.std(axis=0, keepdims=True)
    sd = np.broadcast_to(np.array(WANDER_SD_M), noise.shape).copy()
    keepers = [team * PLAYERS_PER_TEAM for team in (0, 1)]
    sd[:, keepers, :] = KEEPER_WANDER_SD_M
    wander: Floats = noise * sd
    return wander


@dataclass(frozen=True, slots=True)
class Anchor:
    """Player `player` must be exactly at `xy_m` at `t_s`."""

    player: int
    t_s: float
    xy_m: tuple[float, float]


def positions_at(positions: Floats, t_s: Floats, at_s: float) -> Floats:
    """(P, 2) positions interpolated linearly to an instant."""
    k = int(np.clip(np.searchsorted(t_s, at_s) - 1, 0, len(t_s) - 2))
    w = (at_s - t_s[k]) / (t_s[k + 1] - t_s[k])
    at: Floats = positions[k] + (positions[k + 1] - positions[k]) * w
    return at


def anchored(free: Floats, t_s: Floats, anchors: Sequence[Anchor]) -> Floats:
    """The free positions with every player's anchors applied (module docstring, 3)."""
    out = free.copy()
    by_player: dict[int, list[Anchor]] = {}
    for anchor in anchors:
        by_player.setdefault(anchor.player, []).append(anchor)
    for player, own in by_player.items():
        own.sort(key=lambda anchor: anchor.t_s)
        times = np.array([anchor.t_s for anchor in own])
        targets = np.array([anchor.xy_m for anchor in own])
        free_then = np.column_stack([np.interp(times, t_s, free[:, player, k]) for k in (0, 1)])
        knots_s, knots_m = _knots(times, targets - free_then)
        out[:, player] += _smoothstep_through(t_s, knots_s, knots_m)
    return out


def _knots(times: Floats, corrections: Floats) -> tuple[Floats, Floats]:
    """The anchors' corrections with zero knots where they fade in and out."""
    fade = np.maximum(BLEND_S, np.hypot(*corrections.T) / CATCH_UP_MPS)
    knots = [(times[0] - fade[0], np.zeros(2))]
    for k, (t, correction) in enumerate(zip(times, corrections, strict=True)):
        if k > 0 and t - times[k - 1] > fade[k - 1] + fade[k]:
            knots += [(times[k - 1] + fade[k - 1], np.zeros(2)), (t - fade[k], np.zeros(2))]
        knots.append((t, correction))
    knots.append((times[-1] + fade[-1], np.zeros(2)))
    # Two anchors at one instant: the later one wins, the knots stay strictly increasing.
    knots_s = np.array([t for t, _ in knots])
    keep = np.concatenate([np.diff(knots_s) > 0, [True]])
    return knots_s[keep], np.array([value for _, value in knots])[keep]


def _smoothstep_through(t_s: Floats, knots_s: Floats, knots_m: Floats) -> Floats:
    """(T, 2): zero outside the knots, smoothstep between consecutive ones."""
    inside = (t_s >= knots_s[0]) & (t_s <= knots_s[-1])
    k = np.clip(np.searchsorted(knots_s, t_s, side="right") - 1, 0, len(knots_s) - 2)
    u = np.clip((t_s - knots_s[k]) / (knots_s[k + 1] - knots_s[k]), 0.0, 1.0)
    step = (u * u * (3 - 2 * u))[:, None]
    value = knots_m[k] + (knots_m[k + 1] - knots_m[k]) * step
    return np.where(inside[:, None], value, 0.0)
