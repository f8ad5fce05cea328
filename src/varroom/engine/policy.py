"""How tight calls are settled: the competition's policy on top of Law 11.

`ifab` is the Law as written: the point estimate decides, level is onside. The others are
rules some competitions adopt; docs/uncertainty.md describes each.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from enum import Enum

from varroom.engine.judgement import PlayerJudgement
from varroom.errors import VarroomError


class PolicyError(VarroomError):
    exit_code = 2


class PolicyKind(Enum):
    IFAB = "ifab"  # the point estimate decides
    TOLERANCE = "tolerance"  # offside only beyond the line by more than a tolerance
    DAYLIGHT = "daylight"  # offside only when no counting part is level with the line
    CONFIDENCE = "confidence"  # offside only when P(offside position) reaches a threshold


_FLOAT_NOISE_M = 1e-9
_TOLERANCE = re.compile(r"^tolerance:(\d+(?:\.\d+)?)(cm|m)$")
_CONFIDENCE = re.compile(r"^confidence:(0(?:\.\d+)?|1(?:\.0+)?)$")


@dataclass(frozen=True, slots=True)
class Policy:
    kind: PolicyKind = PolicyKind.IFAB
    tolerance_m: float = 0.0
    confidence: float = 0.95

    @staticmethod
    def parse(text: str) -> Policy:
        """'ifab', 'daylight', 'tolerance:5cm' (or '0.05m'), 'confidence:0.95'."""
        spec = text.strip().lower()
        if spec in (PolicyKind.IFAB.value, PolicyKind.DAYLIGHT.value):
            return Policy(PolicyKind(spec))
        if match := _TOLERANCE.match(spec):
            size = float(match.group(1)) / (100 if match.group(2) == "cm" else 1)
            return Policy(PolicyKind.TOLERANCE, tolerance_m=size)
        if match := _CONFIDENCE.match(spec):
            return Policy(PolicyKind.CONFIDENCE, confidence=float(match.group(1)))
        raise PolicyError(
            f"unknown policy {text!r}: use ifab, daylight, tolerance:5cm or confidence:0.95"
        )

    def __str__(self) -> str:
        if self.kind is PolicyKind.TOLERANCE:
            return f"tolerance:{round(self.tolerance_m * 100, 3):g}cm"
        if self.kind is PolicyKind.CONFIDENCE:
            return f"confidence:{self.confidence:g}"
        return str(self.kind.value)

    @property
    def rule(self) -> str:
        """What the policy does with a tight call, in a viewer's words."""
        if self.kind is PolicyKind.TOLERANCE:
            return (
                f"offside only beyond the line by more than {round(self.tolerance_m * 100, 1):g} cm"
            )
        if self.kind is PolicyKind.DAYLIGHT:
            return "offside only with daylight between the attacker and the line"
        if self.kind is PolicyKind.CONFIDENCE:
            return (
                f"offside only when {self.confidence:.0%} sure, onside when as sure; "
                "between them the on-field call stands"
            )
        return "the measured position decides, level is onside"

    def offside(
        self, judged: PlayerJudgement, probability: Callable[[], float], on_field_offside: bool
    ) -> bool:
        """Whether this player's position counts as an offside position under the policy."""
        if self.kind is PolicyKind.TOLERANCE:
            # Coordinates in metres carry float noise far below a millimetre: a margin equal to
            # the tolerance in the data is equal here too.
            return judged.margin_m - self.tolerance_m > _FLOAT_NOISE_M
        if self.kind is PolicyKind.DAYLIGHT:
            return judged.daylight_margin_m > 0
        if self.kind is PolicyKind.CONFIDENCE:
            p = probability()
            if p >= self.confidence:
                return True
            if p <= 1 - self.confidence:
                return False
            return on_field_offside  # too close to call: the on-field decision stands
        return judged.offside_position


IFAB = Policy()
STANDARD_POLICIES = (
    IFAB,
    Policy(PolicyKind.TOLERANCE, tolerance_m=0.05),
    Policy(PolicyKind.DAYLIGHT),
    Policy(PolicyKind.CONFIDENCE, confidence=0.95),
)
