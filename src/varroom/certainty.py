"""The uncertainty of a judged margin: the noise model applied to one judgement."""

from __future__ import annotations

import math

from varroom.judgement import Judgement, LineSetter, Reach, Reference
from varroom.law.position import ball_depth_m, opponents_half_starts_m
from varroom.settings import LawSettings
from varroom.situation import Situation
from varroom.uncertainty import Depth, Uncertainty, probability_offside_position, uncertainty


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


def _inputs(
    situation: Situation, judgement: Judgement, player: str, settings: LawSettings
) -> tuple[Depth, Depth, dict[str, Depth], float]:
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
    return attacker, ball, defenders, opponents_half_starts_m(settings)


def probability(
    situation: Situation, judgement: Judgement, player: str, settings: LawSettings
) -> float:
    """P(offside position) of one attacker at a judgement."""
    if judgement.line is None or player not in judgement.attackers:
        return float("nan")
    attacker, ball, defenders, halfway = _inputs(situation, judgement, player, settings)
    return probability_offside_position(
        attacker, ball, list(defenders.values()), halfway, situation.tracking.noise.moment_sd_s
    )


def judgement_uncertainty(
    situation: Situation,
    judgement: Judgement,
    player: str,
    settings: LawSettings,
    p_offside: float,
) -> Uncertainty | None:
    """Margin, standard error and 95% interval of one attacker, with his P(offside position)."""
    line = judgement.line
    if line is None or player not in judgement.attackers:
        return None
    attacker, ball, defenders, halfway = _inputs(situation, judgement, player, settings)
    if line.set_by is LineSetter.BALL:
        setter = ball
    elif line.set_by is LineSetter.SECOND_LAST_OPPONENT and line.second_last is not None:
        setter = defenders[line.second_last]
    else:
        setter = Depth(halfway, 0.0)
    return uncertainty(attacker, setter, situation.tracking.noise.moment_sd_s, p_offside)
