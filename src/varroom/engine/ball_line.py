"""Judge a ball line: the fitted path against every boundary line, Laws 9.1 and 10.1, the noise
model and the competition's policy (docs/ball-line.md)."""

from __future__ import annotations

from dataclasses import replace
from statistics import NormalDist

from varroom.engine.ball_line_contacts import find_contacts
from varroom.engine.ball_line_explain import explain_ball_line
from varroom.engine.ball_line_path import LineReach, fit_path, line_reaches
from varroom.engine.ball_line_verdict import BallLineVerdict
from varroom.engine.policy import IFAB, STANDARD_POLICIES, Policy, PolicyKind
from varroom.law.ball_line import in_goal_mouth, is_goal
from varroom.model.ball_line import BallLineCase, BallLineDecision

# Coordinates in metres carry float noise far below a millimetre (as for offside).
_FLOAT_NOISE_M = 1e-9


def probability_wholly_over(margin_m: float, se_m: float) -> float:
    """P(wholly over): the margin taken as Gaussian around its estimate with the fit's standard
    error (each sample's centre independent, `ball_sd_m` per axis)."""
    if se_m <= 0:
        return 1.0 if margin_m > 0 else 0.0
    return NormalDist().cdf(margin_m / se_m)


def over_under(policy: Policy, margin_m: float, probability: float, on_field: bool | None) -> bool:
    """Whether the ball counts as wholly over under a policy (docs/ball-line.md).

    `ifab` and `daylight` are the Law as written: the whole ball past the whole line is already
    daylight. `tolerance` and `confidence` leave a call inside their band to the on-field
    decision; with none, the ball is not taken as over (play went on).
    """
    if policy.kind is PolicyKind.TOLERANCE and abs(margin_m) - policy.tolerance_m <= _FLOAT_NOISE_M:
        return bool(on_field)
    if policy.kind is PolicyKind.CONFIDENCE:
        if probability >= policy.confidence:
            return True
        if probability <= 1 - policy.confidence:
            return False
        return bool(on_field)
    return margin_m > 0


def judge_ball_line(case: BallLineCase, policy: Policy = IFAB) -> BallLineVerdict:
    """The decision Laws 9.1 and 10.1 require for a ball's flight, with margin, P and reason."""
    fit = fit_path(case.track)
    sd = case.noise.ball_sd_m
    contacts = find_contacts(case.track, case.ball_radius_m, sd, case.contacts)
    reaches = line_reaches(fit, case.pitch, case.ball_radius_m, sd, contacts)
    crossed = [r for r in reaches if r.crossed_at_t_s is not None]
    # The ball is out of play from the first line it wholly crosses; else the nearest line.
    key: LineReach = (
        min(crossed, key=lambda r: r.crossed_at_t_s or 0.0)
        if crossed
        else max(reaches, key=lambda r: r.margin_m)
    )
    se = case.noise.ball_sd_m * key.se_factor
    probability = probability_wholly_over(key.margin_m, se)
    at_t = key.peak_t_s if key.crossed_at_t_s is None else key.crossed_at_t_s
    x, y, z = (float(v) for v in fit.position_at(at_t))
    mouth = bool(in_goal_mouth(y, z, case.goal, case.ball_radius_m))

    def decide(p: Policy) -> BallLineDecision:
        if not over_under(p, key.margin_m, probability, case.on_field_over):
            return BallLineDecision.IN_PLAY
        if is_goal(key.line, True, mouth):
            return BallLineDecision.GOAL
        return BallLineDecision.OUT_OF_PLAY

    decision = decide(policy)
    outcomes = {str(p): decide(p) for p in dict.fromkeys((policy, *STANDARD_POLICIES))}
    over = decision is not BallLineDecision.IN_PLAY
    verdict = BallLineVerdict(
        decision=decision,
        line=key.line if over else None,
        nearest_line=key.line,
        wholly_over=over,
        crossed_at_t_s=key.crossed_at_t_s,
        margin_m=key.margin_m,
        margin_se_m=se,
        samples_margin_m=key.sample_margin_m,
        probability=probability,
        peak_t_s=key.peak_t_s,
        peak_between_samples=key.peak_lag_s != 0.0,
        peak_contact=key.at_contact,
        contacts=contacts.found,
        ball_m=(x, y, z),
        in_goal_mouth=mouth,
        noise=case.noise,
        policy=str(policy),
        policy_outcomes=outcomes,
        on_field_decision=case.on_field_decision,
    )
    reason, law = explain_ball_line(case, verdict)
    return replace(verdict, reason=reason, law=law)
