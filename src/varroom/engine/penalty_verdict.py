"""The penalty verdict: what Law 14 decided about a kick, and everything needed to explain it."""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import Enum
from typing import Any

from varroom.engine.uncertainty import ConfidenceClass, confidence_class
from varroom.law.penalty import Decision, KickerOffence, Offender, Row, Zone
from varroom.model.noise import Tracking
from varroom.model.penalty import KickResult, PenaltySettings
from varroom.model.situation import BodyPart


class OffenceKind(Enum):
    """The `what` of an offence (shared/spec/penalty.md)."""

    GOALKEEPER_OFF_LINE = "goalkeeper_off_line"
    GOALKEEPER_NOT_BETWEEN_POSTS = "goalkeeper_not_between_posts"
    GOALKEEPER_NOT_FACING_KICKER = "goalkeeper_not_facing_kicker"
    GOALKEEPER_TOUCHING_FRAME = "goalkeeper_touching_frame"
    ENCROACHMENT = "encroachment"
    # Kicks from the penalty mark: the kicker's goalkeeper not where Law 10.3 puts him.
    KICKERS_GOALKEEPER_OUT_OF_PLACE = "kickers_goalkeeper_out_of_place"
    BALL_NOT_ON_MARK = "ball_not_on_mark"
    BACKWARD_KICK = "backward_kick"
    WRONG_KICKER = "wrong_kicker"
    FEINT_AFTER_RUN_UP = "feint_after_run_up"
    DOUBLE_TOUCH = "double_touch"


# A player other than the kicker and the defending goalkeeper where he must not be: Law 14.2
# penalises it as an encroachment (only if it mattered, under the 24/25 rule).
ENCROACHING = frozenset({OffenceKind.ENCROACHMENT, OffenceKind.KICKERS_GOALKEEPER_OUT_OF_PLACE})

KICKER_OFFENCE = {
    OffenceKind.WRONG_KICKER: KickerOffence.WRONG_KICKER,
    OffenceKind.FEINT_AFTER_RUN_UP: KickerOffence.FEINT_AFTER_RUN_UP,
    OffenceKind.BACKWARD_KICK: KickerOffence.BACKWARD_KICK,
    OffenceKind.DOUBLE_TOUCH: KickerOffence.DOUBLE_TOUCH,
}


@dataclass(frozen=True, slots=True)
class Measure:
    """A margin (positive: the Law broken), its standard error and P(margin > 0)."""

    margin_m: float
    se_m: float
    probability: float

    @property
    def confidence_class(self) -> ConfidenceClass:
        return confidence_class(self.probability)

    def to_dict(self) -> dict[str, Any]:
        return {
            "margin_m": _round(self.margin_m),
            "margin_se_m": _round(self.se_m),
            "probability": round(self.probability, 4),
            "confidence_class": self.confidence_class.value,
        }


@dataclass(frozen=True, slots=True)
class PenaltyOffence:
    player: str
    what: OffenceKind
    offender: Offender
    penalised: bool = False
    measure: Measure | None = None  # where the offence is a distance
    zones: tuple[tuple[Zone, float], ...] = ()  # encroachment: each zone he was in, how far
    part: BodyPart | None = None  # the body part that set the margin

    def to_dict(self) -> dict[str, Any]:
        return {
            "player": self.player,
            "what": self.what.value,
            "offender": self.offender.value,
            "penalised": self.penalised,
            **(
                {"margin_m": None}
                if self.measure is None
                else {k: v for k, v in self.measure.to_dict().items() if k != "confidence_class"}
            ),
            "zones": {zone.value: _round(margin) for zone, margin in self.zones},
            "part": None if self.part is None else self.part.value,
        }


@dataclass(frozen=True, slots=True)
class PenaltyVerdict:
    decision: Decision
    restart_team: str | None
    row: Row
    offences: tuple[PenaltyOffence, ...]
    cautions: tuple[str, ...]
    warnings: tuple[str, ...]
    keeper: str | None
    keeper_measure: Measure | None  # his nearest foot against the goal line's front edge
    keeper_part: BodyPart | None
    result: KickResult
    settings: PenaltySettings
    policy: str = "ifab"
    policy_outcomes: Mapping[str, Decision] = field(default_factory=dict)
    reason: str = ""
    announcement: str = ""
    law: str = ""
    tracking: Tracking | None = None

    @property
    def penalised(self) -> tuple[PenaltyOffence, ...]:
        return tuple(o for o in self.offences if o.penalised)

    @property
    def status(self) -> Decision:
        """The call, as every kind's verdict names it (`varroom.kinds.JudgedVerdict`)."""
        return self.decision

    def to_dict(self) -> dict[str, Any]:
        """The JSON object `varroom check --json` prints for a penalty kick."""
        keeper = self.keeper_measure
        return {
            "kind": "penalty_kick",
            "decision": self.decision.value,
            "status": self.decision.value,
            "restart_team": self.restart_team,
            "result": self.result.value,
            "row": self.row.value,
            "offences": [offence.to_dict() for offence in self.offences],
            "cautions": list(self.cautions),
            "warnings": list(self.warnings),
            "goalkeeper": self.keeper,
            "keeper_margin_m": None if keeper is None else _round(keeper.margin_m),
            "keeper": None
            if keeper is None
            else {
                **keeper.to_dict(),
                "part": None if self.keeper_part is None else self.keeper_part.value,
            },
            "policy": self.policy,
            "policy_outcomes": {name: d.value for name, d in self.policy_outcomes.items()},
            "policy_would_differ": any(
                d is not self.decision for d in self.policy_outcomes.values()
            ),
            "reason": self.reason,
            "announcement": self.announcement,
            "law": self.law,
            "settings": self.settings.to_dict(),
        }


def _round(value: float) -> float | None:
    # Millimetres, as for offside margins; an infinite or NaN margin has no number.
    return round(value, 3) if math.isfinite(value) else None
