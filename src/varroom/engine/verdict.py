"""The verdict: what the engine decided and everything needed to explain and draw it."""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from enum import Enum
from typing import Any

from varroom.engine.judgement import Judgement, PlayerJudgement, Reach
from varroom.engine.uncertainty import Uncertainty
from varroom.engine.unseen import UnseenOpponents
from varroom.law.offence import Involvement
from varroom.law.sanction import Restart
from varroom.model.noise import Tracking
from varroom.model.settings import LawSettings


class Status(Enum):
    OFFENCE = "offence"
    NO_OFFENCE = "no_offence"
    UNDECIDABLE = "undecidable"


class Effect(Enum):
    """What a touch did to the offside phase."""

    JUDGEMENT = "judgement"  # a team-mate's play: positions judged (Law 11.2)
    EXEMPT_RESTART = "exempt_restart"  # judged, but no offence directly from it (Law 11.3)
    RESET = "reset"  # an opponent's deliberate play (Law 11.2)
    DEFLECTION = "deflection"
    SAVE = "save"
    REBOUND = "rebound"
    OUT_OF_PLAY = "out_of_play"  # off a match official, under the Law 9 setting
    OFFENCE = "offence"


class Cause(Enum):
    """What decided the verdict about the player it is about, in the Law's order: recorded by
    the walk (engine/judge) and put into words by engine/explain, so the order is written
    once."""

    OFFENCE = "offence"  # in an offside position at the play, then involved (Law 11.2)
    ONSIDE = "onside"  # not in an offside position on the positions measured (Law 11.1)
    EXEMPT_RESTART = "exempt_restart"  # received directly from a throw-in, goal kick, corner
    RESET = "reset"  # an opponent's deliberate play came before he became involved (Law 11.2)
    OUT_OF_PLAY = "out_of_play"  # play stopped before anyone became involved (Law 9 setting)
    POLICY = "policy"  # in an offside position, which the competition's policy does not penalise
    UNSEEN = "unseen"  # where the players out of view stood settles it, or leaves it open
    NO_LINE = "no_line"  # fewer than two opponents known: the line cannot be drawn
    NOT_INVOLVED = "not_involved"  # nobody became involved after a team-mate's play


@dataclass(frozen=True, slots=True)
class Step:
    """One touch of the chain and what it did."""

    index: int
    player: str | None
    action: str
    effect: Effect
    t_s: float
    ball_m: tuple[float, float, float]
    # What the touch did, in the words every picture and the review room show it with
    # (engine/explain): written once, from the walk's record.
    said: str = ""


@dataclass(frozen=True, slots=True)
class WouldBe:
    """What an undecidable verdict would be under one assumption about the unseen (format
    1.2), and the setting that makes it."""

    status: Status
    assuming: str
    setting: str


@dataclass(frozen=True, slots=True)
class Verdict:
    status: Status
    offender: str | None
    judged_at: int | None
    involved_at: int | None
    involvement: Involvement | None
    restart: Restart | None
    restart_spot_m: tuple[float, float] | None
    margin_m: float | None
    nearest_attacker: str | None
    judgement: Judgement | None
    chain: tuple[Step, ...]
    reason: str
    law: str
    settings: LawSettings
    uncertainty: Uncertainty | None = None
    policy: str = "ifab"
    policy_outcomes: Mapping[str, Status] = field(default_factory=dict)
    announcement: str = ""
    tracking: Tracking | None = None
    # What the players out of view could change for the player the reason is about (partial
    # data only).
    unseen: UnseenOpponents | None = None
    # The first attacker to play the ball or interfere after the judged touch: whom a
    # no-offence reason is about (None: nobody did).
    receiver: str | None = None
    # Format 1.2: the assumptions (settings) a settled verdict rests on, and for an undecidable
    # one what it would be under an assumption that settles it.
    assumed: tuple[str, ...] = ()
    would_be: WouldBe | None = None
    cause: Cause = Cause.NOT_INVOLVED  # what decided it (the walk's record)

    @property
    def policy_would_differ(self) -> bool:
        """Whether another of the standard policies would reach another decision."""
        return any(status is not self.status for status in self.policy_outcomes.values())

    @property
    def offence(self) -> bool | None:
        """True or False once judged; None when the data cannot settle it."""
        return None if self.status is Status.UNDECIDABLE else self.status is Status.OFFENCE

    def to_dict(self) -> dict[str, Any]:
        """The JSON object `varroom check --json` prints (shared/spec/situation.md)."""
        judgement = self.judgement
        return {
            "offence": self.offence,
            "status": self.status.value,
            "offender": self.offender,
            "judged_at": self.judged_at,
            "involved_at": self.involved_at,
            "involvement": _value(self.involvement),
            "restart": _value(self.restart),
            "restart_spot_m": _rounded(self.restart_spot_m),
            "margin_m": _round(self.margin_m),
            "nearest_attacker": self.nearest_attacker,
            **_spread(self.uncertainty),
            "policy": self.policy,
            "policy_outcomes": {
                name: status.value for name, status in self.policy_outcomes.items()
            },
            "policy_would_differ": self.policy_would_differ,
            "reason": self.reason,
            "announcement": self.announcement,
            "law": self.law,
            "line": None if judgement is None or judgement.line is None else _line(judgement),
            "positions": {} if judgement is None else _positions(judgement.attackers.values()),
            "chain": [_step(step) for step in self.chain],
            "settings": self.settings.to_dict(),
            "tracking": None if self.tracking is None else _tracking(self.tracking),
            "unseen": None if self.unseen is None else _unseen(self.unseen),
            "assumed": list(self.assumed),
            "would_be": None
            if self.would_be is None
            else {
                "status": self.would_be.status.value,
                "assuming": self.would_be.assuming,
                "setting": self.would_be.setting,
            },
        }


def _value(member: Enum | None) -> Any:
    return None if member is None else member.value


def _round(value: float | None) -> float | None:
    # Millimetres: finer than any tracking system measures.
    return None if value is None or value != value else round(value, 3)


def _rounded(values: tuple[float, ...] | None) -> list[float | None] | None:
    return None if values is None else [_round(v) for v in values]


def _spread(spread: Uncertainty | None) -> dict[str, Any]:
    if spread is None:
        return {
            "margin_se_m": None,
            "margin_ci_m": None,
            "probability": None,
            "confidence_class": None,
        }
    return {
        "margin_se_m": _round(spread.margin_se_m),
        "margin_ci_m": _rounded(spread.margin_ci_m),
        "probability": None
        if spread.probability != spread.probability
        else round(spread.probability, 4),
        "confidence_class": spread.confidence_class.value,
    }


def _tracking(tracking: Tracking) -> dict[str, Any]:
    noise = tracking.noise
    return {
        "source": tracking.source.value,
        "position_sd_m": noise.position_sd_m,
        "ball_sd_m": noise.ball_sd_m,
        "centroid_reach_sd_m": noise.centroid_reach_sd_m,
        "timing_sd_s": noise.moment_sd_s,
    }


def _unseen(unseen: UnseenOpponents) -> dict[str, Any]:
    deepest = unseen.deepest_m
    return {
        "opponents_out_of_view": unseen.unseen,
        "goalkeeper_out_of_view": unseen.goalkeeper_unseen,
        "needed_deeper": unseen.needed,
        "room_deeper": deepest is not None and deepest > unseen.depth_m,
        "proof": unseen.proof.value,
        "deepest_unseen_x_m": _round(unseen.x_m(deepest)),
        "unseen_over_goal_line": unseen.over_goal_line,
        "line_x_m": [
            _finite(unseen.x_m(unseen.line_low_m)),
            _finite(unseen.x_m(unseen.line_high_m)),
        ],
        "attacker_out_of_view_x_m": None
        if unseen.spots_m is None
        else sorted(round(unseen.sign * depth, 3) for depth in unseen.spots_m),
        "probability_onside": round(unseen.probability_onside, 4),
        "deeper_than_x_m": _round(unseen.x_m(unseen.depth_m)),
    }


def _finite(value: float | None) -> float | None:
    """JSON has no infinity: an offside line that could lie anywhere deeper is null."""
    return None if value is None or not math.isfinite(value) else _round(value)


def _reach(reach: Reach) -> dict[str, Any]:
    return {
        "x_m": _round(reach.x_m),
        "y_m": _round(reach.y_m),
        "reference": reach.reference.value,
        "part": _value(reach.part),
    }


def _line(judgement: Judgement) -> dict[str, Any]:
    line = judgement.line
    assert line is not None
    return {
        "x_m": _round(line.x_m),
        "set_by": line.set_by.value,
        "ball_x_m": _round(line.ball_x_m),
        "second_last_opponent": line.second_last,
        "second_last_reach": None
        if line.second_last_reach is None
        else _reach(line.second_last_reach),
    }


def _positions(judged: Iterable[PlayerJudgement]) -> dict[str, Any]:
    return {
        j.player: {
            "offside_position": j.offside_position,
            "margin_m": _round(j.margin_m),
            "reach": _reach(j.reach),
        }
        for j in judged
    }


def _step(step: Step) -> dict[str, Any]:
    return {
        "index": step.index,
        "player": step.player,
        "action": step.action,
        "effect": step.effect.value,
        "t_s": step.t_s,
        "said": step.said,
    }
