"""The ball-line verdict: what was decided about the ball and a line, and how sure it is."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from varroom.model.ball_line import BallLineDecision, BallNoise, Contact, Line


@dataclass(frozen=True, slots=True)
class BallLineVerdict:
    decision: BallLineDecision
    line: Line | None  # the line wholly crossed; None when in play
    nearest_line: Line  # the line the margin is about (the one crossed, or the nearest)
    wholly_over: bool  # under the policy
    crossed_at_t_s: float | None  # first moment wholly over (sub-sample), None when never
    margin_m: float  # + wholly over by that much, - short by that much
    margin_se_m: float
    samples_margin_m: float  # what the samples alone show, without the fitted path
    probability: float  # P(wholly over)
    peak_t_s: float  # when the ball got furthest past the line
    peak_between_samples: bool  # the furthest point is the fitted path's, between two samples
    ball_m: tuple[float, float, float]  # the centre where it first was wholly over, else at peak
    in_goal_mouth: bool  # there, between the posts and under the crossbar (Law 10.1)
    noise: BallNoise
    # The contact the furthest point is the path's corner at (a bounce, the bar), if any, and
    # every contact the path was fitted around (given by the file or found in the track).
    peak_contact: Contact | None = None
    contacts: tuple[Contact, ...] = ()
    policy: str = "ifab"
    policy_outcomes: Mapping[str, BallLineDecision] = field(default_factory=dict)
    on_field_decision: str | None = None
    reason: str = ""
    law: str = ""

    @property
    def policy_would_differ(self) -> bool:
        return any(outcome is not self.decision for outcome in self.policy_outcomes.values())

    @property
    def status(self) -> BallLineDecision:
        """The call, as every kind's verdict names it (`varroom.kinds.JudgedVerdict`)."""
        return self.decision

    def to_dict(self) -> dict[str, Any]:
        """The JSON object `varroom check --json` prints for a ball line (shared/spec/ball-line.md)."""
        return {
            "kind": "ball_line",
            "decision": self.decision.value,
            "status": self.decision.value,
            "line": None if self.line is None else self.line.value,
            "nearest_line": self.nearest_line.value,
            "wholly_over": self.wholly_over,
            "crossed_at_t": None if self.crossed_at_t_s is None else round(self.crossed_at_t_s, 4),
            # A tenth of a millimetre: the margins this format exists for are a few millimetres.
            "margin_m": round(self.margin_m, 5),
            "margin_se_m": round(self.margin_se_m, 5),
            "samples_margin_m": round(self.samples_margin_m, 5),
            "probability": round(self.probability, 4),
            "peak_t": round(self.peak_t_s, 4),
            "peak_between_samples": self.peak_between_samples,
            "peak_contact": None if self.peak_contact is None else _contact(self.peak_contact),
            "contacts": [_contact(c) for c in self.contacts],
            "ball_m": [round(v, 4) for v in self.ball_m],
            "in_goal_mouth": self.in_goal_mouth,
            "policy": self.policy,
            "policy_outcomes": {name: d.value for name, d in self.policy_outcomes.items()},
            "policy_would_differ": self.policy_would_differ,
            "on_field_decision": self.on_field_decision,
            "reason": self.reason,
            "law": self.law,
            "noise": {"source": self.noise.source.value, "ball_sd_m": self.noise.ball_sd_m},
        }


def _contact(contact: Contact) -> dict[str, Any]:
    return {"t": round(contact.t_s, 4), "kind": contact.kind.value, "given": contact.given}
