"""How sure a margin is: position noise per tracking source, the moment-of-play timing error,
and the body's reach beyond a tracked centroid (docs/uncertainty.md gives the model).

Every measured depth is taken as Gaussian around its measured value, independent between
players, plus one shared timing error dt ~ N(0, timing_sd_s^2) that moves each player by his
velocity along the pitch times dt. P(offside position) = P(a > max(ball, second-last, halfway))
is computed under that model by a two-dimensional midpoint rule over dt and the attacker's own
noise, with the second-last opponent's distribution written out as an order statistic. The
standard error and the 95% interval are the linearised ones (attacker against whatever sets the
line), which the Monte Carlo test checks too.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from enum import Enum
from statistics import NormalDist

import numpy as np
import numpy.typing as npt

from varroom.engine.judgement import Judgement, LineSetter, Reach, Reference
from varroom.law.position import ball_depth_m, opponents_half_starts_m
from varroom.model.settings import LawSettings
from varroom.model.situation import Situation

Floats = npt.NDArray[np.float64]


@dataclass(frozen=True, slots=True)
class Depth:
    """A measured depth along the attack, its standard deviation and its speed along the attack."""

    depth_m: float
    sd_m: float
    speed_mps: float = 0.0


@dataclass(frozen=True, slots=True)
class Uncertainty:
    margin_m: float
    margin_se_m: float
    margin_ci_m: tuple[float, float]
    probability: float  # P(offside position)
    confidence_class: ConfidenceClass

    @property
    def too_close_to_call(self) -> bool:
        """Level lies inside the margin's 95% interval, or P says so: the interval is of the
        measured positions alone, P includes the unseen opponents, and either is enough."""
        low_m, high_m = self.margin_ci_m
        return low_m < 0 < high_m or self.confidence_class is ConfidenceClass.TOO_CLOSE_TO_CALL


class ConfidenceClass(Enum):
    """How a call stands against its uncertainty (thresholds in docs/uncertainty.md)."""

    CLEAR = "clear"  # P(offside position) >= 0.999 or <= 0.001
    TIGHT = "tight"  # beyond the 95% interval from level, but not clear
    TOO_CLOSE_TO_CALL = "too_close_to_call"  # 0.025 < P < 0.975: level lies inside the 95% interval


def confidence_class(probability: float) -> ConfidenceClass:
    if probability >= 0.999 or probability <= 0.001:
        return ConfidenceClass.CLEAR
    if 0.025 < probability < 0.975:
        return ConfidenceClass.TOO_CLOSE_TO_CALL
    return ConfidenceClass.TIGHT


# Midpoint rules in probability space: equal-weight nodes at the normal quantiles of
# (k + 1/2) / n. Unlike Gauss-Hermite they stay accurate when the integrand is a step, as it is
# when the timing error alone decides (sharp positions, fast players).
def _normal_quantiles(count: int) -> Floats:
    return np.array([NormalDist().inv_cdf((k + 0.5) / count) for k in range(count)])


_TIMING_NODES = _normal_quantiles(48)
_ATTACKER_NODES = _normal_quantiles(96)
_REACH_SD = 9.0  # beyond this many standard deviations a distribution is taken as certain
_TINY_SD_M = 1e-6


def probability_offside_position(
    attacker: Depth, ball: Depth, defenders: list[Depth], halfway_m: float, timing_sd_s: float
) -> float:
    """P(attacker's depth > max(ball, second-last defender, halfway)) under the noise model."""
    if len(defenders) < 2:
        return float("nan")
    low, high = _span(attacker, timing_sd_s)
    if high <= halfway_m:
        return 0.0
    # Opponents surely behind the attacker never matter; two surely ahead make it impossible.
    spans = [_span(d, timing_sd_s) for d in defenders]
    certainly_ahead = [d for d, (lo, _) in zip(defenders, spans, strict=True) if lo > high]
    uncertain = [
        d for d, (lo, hi) in zip(defenders, spans, strict=True) if lo <= high and hi >= low
    ]
    if len(certainly_ahead) >= 2 or _span(ball, timing_sd_s)[0] > high:
        return 0.0
    dt = _TIMING_NODES * timing_sd_s
    x = (
        attacker.depth_m
        + attacker.speed_mps * dt[:, None]
        + max(attacker.sd_m, _TINY_SD_M) * _ATTACKER_NODES[None, :]
    )
    below = _cdf(x, ball, dt) * (x > halfway_m)
    if uncertain:
        cdfs = np.stack([_cdf(x, d, dt) for d in uncertain])
        # With one opponent surely ahead, every other one must be behind.
        below = below * (np.prod(cdfs, axis=0) if certainly_ahead else _second_largest_below(cdfs))
    return float(np.clip(below.mean(), 0.0, 1.0))


def _span(depth: Depth, timing_sd_s: float) -> tuple[float, float]:
    reach = _REACH_SD * (depth.sd_m + abs(depth.speed_mps) * timing_sd_s)
    return depth.depth_m - reach, depth.depth_m + reach


def _cdf(x: Floats, depth: Depth, dt: Floats) -> Floats:
    mean = depth.depth_m + depth.speed_mps * dt[:, None]
    return normal_cdf((x - mean) / max(depth.sd_m, _TINY_SD_M))


# The standard normal CDF, vectorised without scipy (whose import costs `varroom check` more
# than all else): a Taylor series of degree 8 around the nearest point of a 1/64 grid, whose
# coefficients are the CDF (math.erfc) and its derivatives, (-1)^(n-1) He_(n-1)(x) pdf(x) / n!.
# The first term left out is below 1e-19; beyond 9 standard deviations the CDF is 0 or 1 to
# within 1e-19.
_GRID_STEP = 1.0 / 64
_GRID_LIMIT = 9.0
_TAYLOR_TERMS = 9


def _cdf_taylor_table() -> Floats:
    """Row k: the Taylor coefficients at grid point k, highest degree first (for Horner)."""
    x = np.arange(-_GRID_LIMIT, _GRID_LIMIT + _GRID_STEP / 2, _GRID_STEP)
    table = np.empty((x.size, _TAYLOR_TERMS))
    table[:, 0] = [0.5 * math.erfc(-value / math.sqrt(2.0)) for value in x]
    pdf = np.exp(-0.5 * x * x) / math.sqrt(2.0 * math.pi)
    hermite_before, hermite = np.zeros_like(x), np.ones_like(x)  # He_(n-2), He_(n-1)
    for n in range(1, _TAYLOR_TERMS):
        table[:, n] = (-1) ** (n - 1) * hermite * pdf / math.factorial(n)
        hermite_before, hermite = hermite, x * hermite - (n - 1) * hermite_before
    return table[:, ::-1].copy()


# One row per degree, so that each degree's coefficients are gathered contiguously.
_CDF_TAYLOR = np.ascontiguousarray(_cdf_taylor_table().T)


def normal_cdf(z: Floats) -> Floats:
    """P(Z < z) for a standard normal Z, elementwise, to within 3e-16."""
    z = np.clip(z, -_GRID_LIMIT, _GRID_LIMIT)
    nearest = np.rint((z + _GRID_LIMIT) / _GRID_STEP).astype(np.intp)
    offset = z - (nearest * _GRID_STEP - _GRID_LIMIT)
    # Horner's rule in place: the same operations in the same order as a gather of all the
    # coefficients at once, without its (..., 9) array.
    cdf: Floats = _CDF_TAYLOR[0].take(nearest)
    for degree in range(1, _TAYLOR_TERMS):
        cdf *= offset
        cdf += _CDF_TAYLOR[degree].take(nearest)
    return cdf


def _second_largest_below(cdfs: Floats) -> Floats:
    """P(the second largest of independent variables < x), from each one's P(< x) (D, ...)."""
    ones = np.ones_like(cdfs[:1])
    before = np.cumprod(np.concatenate([ones, cdfs[:-1]]), axis=0)
    after = np.cumprod(np.concatenate([ones, cdfs[:0:-1]]), axis=0)[::-1]
    all_below = before[-1] * cdfs[-1]
    exactly_one_above = ((1.0 - cdfs) * before * after).sum(axis=0)
    second_below: Floats = all_below + exactly_one_above
    return second_below


def linearised_se_m(attacker: Depth, line: Depth, timing_sd_s: float) -> float:
    """The margin's standard error: attacker against what sets the line, plus timing."""
    relative_speed = attacker.speed_mps - line.speed_mps
    return math.sqrt(attacker.sd_m**2 + line.sd_m**2 + (relative_speed * timing_sd_s) ** 2)


def uncertainty(
    attacker: Depth, line: Depth, timing_sd_s: float, probability: float
) -> Uncertainty:
    """The margin of `attacker` past `line`, with its linearised spread and P(offside position)."""
    margin = attacker.depth_m - line.depth_m
    se = linearised_se_m(attacker, line, timing_sd_s)
    return Uncertainty(
        margin_m=margin,
        margin_se_m=se,
        margin_ci_m=(margin - 1.96 * se, margin + 1.96 * se),
        probability=probability,
        confidence_class=confidence_class(probability),
    )


# The noise model applied to one judgement (what `judge` calls).
def _depth(situation: Situation, index: int, player: str, reach: Reach) -> Depth:
    """A player's measured depth with its noise: none on a line he is counted on (Law 11.4);
    the body's reach ahead of a tracked centroid when no body part was measured."""
    noise = situation.tracking.noise
    position = situation.touches[index].positions[player]
    sign = situation.attack_direction.sign
    if reach.reference is Reference.LINE_CROSSED:
        sd = 0.0
    elif any(part.part.counts_for_offside for part in position.parts):
        sd = noise.position_sd_m
    else:
        sd = math.hypot(noise.position_sd_m, noise.centroid_reach_sd_m)
    return Depth(sign * reach.x_m, sd, sign * position.v_mps[0])


@dataclass(frozen=True, slots=True)
class MarginNoise:
    """One attacker at one judgement under the noise model: his measured depth, the ball's,
    the opponents', the halfway line, and the depth that sets the offside line."""

    attacker: Depth
    ball: Depth
    defenders: Mapping[str, Depth]
    halfway_m: float
    line: Depth
    timing_sd_s: float

    def probability(self) -> float:
        """P(offside position)."""
        return probability_offside_position(
            self.attacker,
            self.ball,
            list(self.defenders.values()),
            self.halfway_m,
            self.timing_sd_s,
        )

    def uncertainty(self, probability: float) -> Uncertainty:
        """The margin, its standard error and 95% interval, with `probability` (`probability()`,
        which a caller may already hold)."""
        return uncertainty(self.attacker, self.line, self.timing_sd_s, probability)


def margin_noise(
    situation: Situation, judgement: Judgement, player: str, settings: LawSettings
) -> MarginNoise | None:
    """The noise model of one attacker at a judgement (None: no line, or not an attacker)."""
    line = judgement.line
    if line is None or player not in judgement.attackers:
        return None
    touch = situation.touches[judgement.index]
    sign = situation.attack_direction.sign
    attacker = _depth(situation, judgement.index, player, judgement.attackers[player].reach)
    ball = Depth(
        float(ball_depth_m(touch.ball_m[0], situation.attack_direction, settings)),
        situation.tracking.noise.ball_sd_m,
        sign * touch.ball_v_mps[0],
    )
    defenders = {
        pid: _depth(situation, judgement.index, pid, reach)
        for pid, reach in judgement.defenders.items()
    }
    halfway = opponents_half_starts_m(settings)
    if line.set_by is LineSetter.BALL:
        setter = ball
    elif line.set_by is LineSetter.SECOND_LAST_OPPONENT and line.second_last is not None:
        setter = defenders[line.second_last]
    else:
        setter = Depth(halfway, 0.0)
    return MarginNoise(
        attacker, ball, defenders, halfway, setter, situation.tracking.noise.moment_sd_s
    )
