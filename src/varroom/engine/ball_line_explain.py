"""The reason for a ball-line verdict, in plain words a fan can follow, citing the Law."""

from __future__ import annotations

import numpy as np

from varroom.engine.ball_line_verdict import BallLineVerdict
from varroom.model.ball_line import BallLineCase, BallLineDecision, ContactKind


def millimetres(margin_m: float) -> str:
    """A margin as the goal-line view says it: millimetres (a tenth under a centimetre), and
    centimetres or metres once it is no longer close."""
    size = abs(margin_m) * 1000
    if size < 10:
        return f"{size:.1f} mm"
    if size < 100:
        return f"{size:.0f} mm"
    return f"{size / 10:.0f} cm" if size < 1000 else f"{size / 1000:.2f} m"


_WORTH_SAYING_M = 0.0005

# Where the path turned, as the reason says it.
_AT_CONTACT = {
    ContactKind.BOUNCE: "where it bounced",
    ContactKind.POST: "where it came off the post",
    ContactKind.BAR: "where it came off the bar",
    ContactKind.PLAYER: "where a player touched it",
    ContactKind.UNNAMED: "where its path turned",
}


def chance(probability: float) -> str:
    if probability > 0.999:
        return "more than 99.9%"
    if probability < 0.001:
        return "less than 0.1%"
    return f"{probability:.1%}"


def explain_ball_line(case: BallLineCase, v: BallLineVerdict) -> tuple[str, str]:
    """The reason and the Law paragraph that decided it."""
    line = v.nearest_line
    measured = _measured(case, v)
    if v.decision is BallLineDecision.GOAL:
        text = (
            f"The whole ball crossed {line.words} between the posts and under the crossbar: "
            f"{measured}. Goal (Law 10.1)."
        )
        law = "10.1"
    elif v.decision is BallLineDecision.OUT_OF_PLAY:
        if line.is_goal_line:
            inside = abs(v.ball_m[1]) < case.goal.width_m / 2
            text = (
                f"The whole ball crossed {line.words}, "
                f"{'over the crossbar' if inside else 'wide of the goal'}: {measured}. "
                "Out of play (Law 9.1); not a goal (Law 10.1)."
            )
        else:
            text = f"The whole ball crossed {line.words}: {measured}. Out of play (Law 9.1)."
        law = "9.1"
    else:
        goal = line.is_goal_line and v.in_goal_mouth
        text = (
            f"The whole ball never crossed {line.words}: {measured}. A ball on the line is in play "
            f"(Law 9.1){'; no goal (Law 10.1)' if goal else ''}."
        )
        law = "10.1" if goal else "9.1"
    return f"{text} {_certainty(case, v)}{_policy(v)}", law


def _measured(case: BallLineCase, v: BallLineVerdict) -> str:
    """How far past the line the ball got and when, whether between samples, when first over."""
    peak = f"at its furthest, at {v.peak_t_s:.3f} s,"
    if v.peak_contact is not None:
        peak = f"at its furthest, {_AT_CONTACT[v.peak_contact.kind]} at {v.peak_t_s:.3f} s,"
    if v.margin_m > 0:
        text = f"{peak} its nearest point was {millimetres(v.margin_m)} past the line's outer edge"
    elif v.margin_m == 0:
        text = f"{peak} it just touched the line's outer edge"
    else:
        text = f"{peak} it was still {millimetres(v.margin_m)} short of wholly past the outer edge"
    # Worth saying only where the fitted path tells more than the samples do.
    if (
        v.peak_between_samples
        and v.peak_contact is None
        and v.margin_m - v.samples_margin_m >= _WORTH_SAYING_M
    ):
        t = case.track.t_s
        k = int(np.clip(np.searchsorted(t, v.peak_t_s), 1, len(t) - 1))
        side = "past" if v.samples_margin_m > 0 else "short of"
        text += (
            f", between the samples at {t[k - 1]:.3f} and {t[k]:.3f} s (the samples show at most "
            f"{millimetres(v.samples_margin_m)} {side} the edge: the fitted path gets there)"
        )
    if v.crossed_at_t_s is not None:
        text += f"; it was first wholly over at {v.crossed_at_t_s:.3f} s"
    return text


def _certainty(case: BallLineCase, v: BallLineVerdict) -> str:
    return (
        f"With {millimetres(case.noise.ball_sd_m)} tracking noise "
        f"(optical ball tracking at {case.noise.source.rate_hz:g} Hz), the margin is "
        f"{'+' if v.margin_m >= 0 else '-'}{millimetres(v.margin_m)} "
        f"± {millimetres(1.96 * v.margin_se_m)} (95%) and P(wholly over) is {chance(v.probability)}."
    )


def _policy(v: BallLineVerdict) -> str:
    """Said only when the policy, not the measured margin, settled the call."""
    if (v.margin_m > 0) == v.wholly_over:
        return ""
    if v.on_field_decision is None:
        return (
            f" Under the {v.policy} policy the call is too close to overturn, and with no on-field "
            "call the ball is not taken as wholly over."
        )
    return (
        f" Under the {v.policy} policy the call is too close to overturn: the on-field decision "
        f"({v.on_field_decision}) stands."
    )
