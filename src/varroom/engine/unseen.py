"""Opponents out of view: could they have put an attacker onside? (docs/uncertainty.md)

Where a touch has a `view` (format 1.1), the opponents not listed stand somewhere outside
it. An opponent can only move the offside line towards the goal line, so a player onside
against the opponents in view is onside whatever the unseen do; one in an offside position
against them is onside only if enough unseen opponents stand deeper than him:
`needed` = 2 minus the opponents in view at least as deep as he is. When more are needed
than are unseen (the team size minus those in view), or the unseen part of the pitch reaches
no deeper than him, the unseen cannot change it. Otherwise the chance that at least `needed`
of them stand in the unseen part deeper than him comes from a prior of where defenders stand
(`unseen_prior`, estimated from complete frames): each unseen opponent independently, his
place drawn from the prior restricted to the unseen part of the pitch. An unseen goalkeeper
is drawn from the goalkeepers' prior, which puts him deep.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from varroom.engine import unseen_prior
from varroom.engine.judgement import Judgement
from varroom.model.situation import Pitch, Situation

Floats = npt.NDArray[np.float64]

# The prior's bins: depth from the defenders' own goal line, distance across from the -y
# touchline, and the bands of the ball's distance from that goal line it is conditioned on.
DEPTH_BIN_M = 2.5
WIDTH_BIN_M = 4.0
BALL_BANDS_M = (35.0, 70.0)
# An unseen player may stand anywhere: this share of the prior is spread evenly over the
# pitch, so that no place is ever ruled out by the prior alone.
EVEN_SHARE = 0.02
# The unseen opponents settle a call when the chance that they change it is below this, and
# put a player onside when it is above 1 minus this: the two-sided 95% that separates a
# tight call from one too close to call (docs/uncertainty.md).
UNSEEN_SETTLES = 0.025
# The grid the unseen part of the pitch is measured on: 1 m cells.
_CELL_M = 1.0
_GOALKEEPER, _OUTFIELD = 0, 1


@dataclass(frozen=True, slots=True)
class UnseenOpponents:
    """What the opponents out of view could change for one attacker at one judgement."""

    unseen: int  # opponents on the pitch and not in view
    goalkeeper_unseen: bool
    needed: int  # how many of them must stand deeper than him to put him onside
    room: bool  # whether the unseen part of the pitch reaches deeper than him
    probability_onside: float  # P(at least `needed` unseen opponents stand deeper than him)
    depth_x_m: float  # they would have to stand nearer the goal line than this x

    @property
    def could_change(self) -> bool:
        """Whether the unseen could put him onside at all."""
        return 0 < self.needed <= self.unseen and self.room


def unseen_opponents(
    situation: Situation, judgement: Judgement, player: str
) -> UnseenOpponents | None:
    """The unseen opponents' effect on `player` at `judgement` (None: the touch has no view,
    its positions are complete; or no line could be drawn)."""
    touch = situation.touches[judgement.index]
    judged = judgement.attackers.get(player)
    if touch.view is None or judged is None or judgement.line is None:
        return None
    defending = situation.defending_team
    in_view = [p for p in touch.positions if situation.players[p].team == defending]
    unseen = max(0, situation.team_size(defending) - len(in_view))
    keeper_unseen = unseen > 0 and not any(situation.players[p].goalkeeper for p in in_view)
    sign = situation.attack_direction.sign
    depth = sign * judged.reach.x_m
    deeper_in_view = sum(1 for reach in judgement.defenders.values() if sign * reach.x_m >= depth)
    needed = 0 if not judged.offside_position else max(0, 2 - deeper_in_view)
    grid = _grid(situation.pitch, sign)
    hidden = ~touch.view.covers(grid.x_m, grid.y_m)
    deeper = hidden & (grid.depth_m > depth)
    room = bool(deeper.any())
    ball_from_goal = situation.pitch.half_length_m - sign * touch.ball_m[0]
    band = int(np.searchsorted(BALL_BANDS_M, ball_from_goal))
    onside = 0.0
    if 0 < needed <= unseen and room:
        key = (situation.pitch, sign)
        chances = [_share(*key, _GOALKEEPER, band, hidden, deeper)] if keeper_unseen else []
        chances += [_share(*key, _OUTFIELD, band, hidden, deeper)] * (unseen - keeper_unseen)
        onside = at_least(needed, chances)
    return UnseenOpponents(unseen, keeper_unseen, needed, room, onside, judged.reach.x_m)


def at_least(count: int, chances: list[float]) -> float:
    """P(at least `count` of independent events happen), each with its own chance."""
    ways = np.zeros(len(chances) + 1)
    ways[0] = 1.0
    for chance in chances:
        ways[1:] = ways[1:] * (1.0 - chance) + ways[:-1] * chance
        ways[0] *= 1.0 - chance
    return float(np.clip(ways[count:].sum(), 0.0, 1.0))


@dataclass(frozen=True, slots=True)
class _Grid:
    x_m: Floats
    y_m: Floats
    depth_m: Floats  # along the attack
    from_goal_m: Floats  # from the defenders' own goal line
    across_bin: npt.NDArray[np.intp]
    depth_bin: npt.NDArray[np.intp]


@functools.lru_cache(maxsize=8)
def _grid(pitch: Pitch, sign: float) -> _Grid:
    xs = np.arange(-pitch.half_length_m + _CELL_M / 2, pitch.half_length_m, _CELL_M)
    ys = np.arange(-pitch.half_width_m + _CELL_M / 2, pitch.half_width_m, _CELL_M)
    x_m, y_m = (a.ravel() for a in np.meshgrid(xs, ys))
    depth = sign * x_m
    from_goal = pitch.half_length_m - depth
    depth_bins = len(unseen_prior.DEPTH[0][0])
    across_bins = len(unseen_prior.ACROSS[0])
    return _Grid(
        x_m,
        y_m,
        depth,
        from_goal,
        np.clip(((y_m + pitch.half_width_m) // WIDTH_BIN_M).astype(np.intp), 0, across_bins - 1),
        np.clip((from_goal // DEPTH_BIN_M).astype(np.intp), 0, depth_bins - 1),
    )


@functools.lru_cache(maxsize=64)
def _density(pitch: Pitch, sign: float, role: int, band: int) -> Floats:
    """The prior over the grid's cells for one role with the ball in one band, summing to 1."""
    grid = _grid(pitch, sign)
    depth = np.asarray(unseen_prior.DEPTH[role][band])[grid.depth_bin]
    across = np.asarray(unseen_prior.ACROSS[role])[grid.across_bin]
    weights = depth * across
    weights = weights / max(weights.sum(), 1e-300)
    density: Floats = (1.0 - EVEN_SHARE) * weights + EVEN_SHARE / weights.size
    return density


def _share(
    pitch: Pitch,
    sign: float,
    role: int,
    band: int,
    hidden: npt.NDArray[np.bool_],
    deeper: npt.NDArray[np.bool_],
) -> float:
    """P(a player of `role` stands deeper than the attacker | he stands out of view)."""
    density = _density(pitch, sign, role, band)
    out_of_view = float(density[hidden].sum())
    return 0.0 if out_of_view <= 0.0 else float(density[deeper].sum()) / out_of_view
