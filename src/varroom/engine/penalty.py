"""A penalty kick judged under Law 14: every offence with its margin and uncertainty, the
outcome table under a policy, the cards, and the reason and the announcement.

`judge_penalty` is pure: a `PenaltyKick` in, a frozen `PenaltyVerdict` out; the audit and the
review room can call it as `varroom check` does.

Uncertainty follows docs/uncertainty.md: each measured point is Gaussian around its value (the
tracking source's position noise; a tracked point standing for the feet adds the body's reach),
plus the moment-of-kick timing error times the player's speed (for other players, his whole
speed: an upper bound, since the zone's boundary may lie at an angle). The pitch's lines carry
no noise. The goalkeeper is off his line only if both feet are, each foot taken as independent:
P(off) = P(left off) * P(right off).
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Callable

import numpy as np

from varroom.engine.penalty_explain import explain_penalty
from varroom.engine.penalty_verdict import (
    ENCROACHING,
    KICKER_OFFENCE,
    Measure,
    OffenceKind,
    PenaltyOffence,
    PenaltyVerdict,
)
from varroom.engine.policy import IFAB, STANDARD_POLICIES, Policy, PolicyKind
from varroom.law.penalty import (
    FOOT_PARTS,
    KICKERS_KEEPER_ZONES,
    ZONES,
    Card,
    Decision,
    Offender,
    Row,
    Zone,
    backward_kick_margin_m,
    ball_on_mark_margin_m,
    encroachment_counts,
    encroachment_margins_m,
    goal_line_depth_m,
    keeper_foot_margins_m,
    keeper_posts_margin_m,
    kickers_keeper_margins_m,
    outcome,
)
from varroom.model.penalty import EncroachPoint, PenaltyKick, PenaltySettings
from varroom.model.situation import BodyPart, Position

DEFAULT_PENALTY_SETTINGS = PenaltySettings()
# Coordinates in metres carry float noise far below a millimetre: a heel placed on the line's
# front edge in the data is on it here too (as in engine.policy).
_FLOAT_NOISE_M = 1e-9


def judge_penalty(
    kick: PenaltyKick,
    settings: PenaltySettings = DEFAULT_PENALTY_SETTINGS,
    policy: Policy = IFAB,
) -> PenaltyVerdict:
    """The decision Law 14 requires for a penalty kick, with margins, cards and a reason."""
    measured = _Measured(kick, settings)
    decided = {str(p): measured.decide(p) for p in dict.fromkeys((policy, *STANDARD_POLICIES))}
    verdict = dataclasses.replace(
        decided[str(policy)],
        policy_outcomes={name: v.decision for name, v in decided.items()},
    )
    return explain_penalty(kick, verdict)


def called(policy: Policy, measure: Measure) -> bool:
    """Whether a measured offence is called under the policy. `daylight` is `ifab` here: the
    margin already runs from the part nearest the line. Under `confidence` a call too close to
    make is not made: the offence is not seen, as a referee would not see it."""
    if policy.kind is PolicyKind.TOLERANCE:
        return measure.margin_m - policy.tolerance_m > _FLOAT_NOISE_M
    if policy.kind is PolicyKind.CONFIDENCE:
        return measure.probability >= policy.confidence
    return measure.margin_m > _FLOAT_NOISE_M


class _Measured:
    """Every possible offence of one kick, measured once and shared by every policy."""

    def __init__(self, kick: PenaltyKick, settings: PenaltySettings) -> None:
        self.kick = kick
        self.settings = settings
        self.noise = kick.tracking.noise
        self.keeper = kick.goalkeeper
        self.keeper_measure: Measure | None = None
        self.keeper_part: BodyPart | None = None
        self.candidates: list[PenaltyOffence] = []
        self._ball()
        if self.keeper is not None:
            self._keeper(self.keeper, kick.positions[self.keeper])
        self._others()
        self._facts()

    def _sd(self, position: Position) -> float:
        if position.parts:
            return self.noise.position_sd_m
        return math.hypot(self.noise.position_sd_m, self.noise.centroid_reach_sd_m)

    def _measure(self, margin_m: float, sd_m: float, speed_mps: float = 0.0) -> Measure:
        se = math.hypot(sd_m, speed_mps * self.noise.moment_sd_s)
        return Measure(margin_m, se, _p_positive(margin_m, se))

    def _add(self, offence: PenaltyOffence) -> None:
        if offence.measure is None or offence.measure.probability > 0:
            self.candidates.append(offence)

    def _ball(self) -> None:
        kick = self.kick
        ball_sd = self.noise.ball_sd_m
        on_mark = ball_on_mark_margin_m(kick.ball_m, kick.mark_m, self.settings)
        if on_mark > _FLOAT_NOISE_M:
            measure = self._measure(on_mark, ball_sd)
            self._add(
                PenaltyOffence(
                    kick.kicker, OffenceKind.BALL_NOT_ON_MARK, Offender.KICKER, measure=measure
                )
            )
        if kick.ball_after_m is not None:
            back = backward_kick_margin_m(kick.ball_m, kick.ball_after_m, kick.attack_direction)
            if back > _FLOAT_NOISE_M:
                measure = self._measure(back, math.sqrt(2) * ball_sd)
                self._add(
                    PenaltyOffence(
                        kick.kicker, OffenceKind.BACKWARD_KICK, Offender.KICKER, measure=measure
                    )
                )

    def _keeper(self, keeper: str, position: Position) -> None:
        kick, settings = self.kick, self.settings
        line = goal_line_depth_m(kick.pitch, kick.line_width_m, settings)
        feet = keeper_foot_margins_m(position, kick.attack_direction, line, settings)
        # A tracked point standing for the feet carries the body's reach as well.
        feet_measured = any(p.part in FOOT_PARTS for p in position.parts)
        sd = self.noise.position_sd_m
        sd = sd if feet_measured else math.hypot(sd, self.noise.centroid_reach_sd_m)
        margin, part = min(feet, key=lambda foot: foot[0])
        measure = self._measure(margin, sd, kick.attack_direction.sign * position.v_mps[0])
        p_off = math.prod(_p_positive(m, measure.se_m) for m, _ in feet)
        self.keeper_measure = dataclasses.replace(measure, probability=p_off)
        self.keeper_part = None if part is None else part.part
        self._add(
            PenaltyOffence(
                keeper,
                OffenceKind.GOALKEEPER_OFF_LINE,
                Offender.GOALKEEPER,
                measure=self.keeper_measure,
                part=self.keeper_part,
            )
        )
        posts = keeper_posts_margin_m(position)
        self._add(
            PenaltyOffence(
                keeper,
                OffenceKind.GOALKEEPER_NOT_BETWEEN_POSTS,
                Offender.GOALKEEPER,
                measure=self._measure(posts, self._sd(position), position.v_mps[1]),
            )
        )

    def _others(self) -> None:
        """Law 14.1, other players, and in kicks from the penalty mark the kicker's own
        goalkeeper, who has a place of his own (Law 10.3)."""
        kick = self.kick
        others = [pid for pid in kick.positions if pid not in (kick.kicker, self.keeper)]
        own_keepers = [
            pid
            for pid in others
            if kick.facts.shootout and kick.is_attacker(pid) and kick.players[pid].goalkeeper
        ]

        def keepers_place(x_m: np.ndarray, y_m: np.ndarray) -> np.ndarray:
            return kickers_keeper_margins_m(
                x_m, y_m, kick.attack_direction, kick.pitch, kick.line_width_m, self.settings
            )

        def zones(x_m: np.ndarray, y_m: np.ndarray) -> np.ndarray:
            return encroachment_margins_m(
                x_m, y_m, kick.attack_direction, kick.pitch, self.settings
            )

        self._encroachers(
            own_keepers,
            keepers_place,
            KICKERS_KEEPER_ZONES,
            OffenceKind.KICKERS_GOALKEEPER_OUT_OF_PLACE,
        )
        others = [p for p in others if p not in own_keepers]
        self._encroachers(others, zones, ZONES, OffenceKind.ENCROACHMENT)

    def _encroachers(
        self,
        players: list[str],
        margins_m: Callable[[np.ndarray, np.ndarray], np.ndarray],
        zones: tuple[Zone, ...],
        what: OffenceKind,
    ) -> None:
        """All their points at once against `margins_m` (one column per zone), then each
        player's worst."""
        if not players:
            return
        kick = self.kick
        xs: list[float] = []
        ys: list[float] = []
        starts: list[int] = []
        for pid in players:
            starts.append(len(xs))
            for x, y in _points(kick.positions[pid], self.settings):
                xs.append(x)
                ys.append(y)
        margins = margins_m(np.array(xs), np.array(ys))
        per_player = np.maximum.reduceat(margins, starts, axis=0)
        worst = per_player.max(axis=1)
        for i in np.flatnonzero(worst > _FLOAT_NOISE_M):
            pid = players[i]
            position = kick.positions[pid]
            attacking = kick.is_attacker(pid)
            measure = self._measure(
                float(worst[i]), self._sd(position), math.hypot(*position.v_mps)
            )
            self._add(
                PenaltyOffence(
                    pid,
                    what,
                    Offender.KICKERS_TEAM_MATE if attacking else Offender.KEEPERS_TEAM_MATE,
                    measure=measure,
                    zones=tuple(
                        (z, float(m))
                        for z, m in zip(zones, per_player[i], strict=True)
                        if m > _FLOAT_NOISE_M
                    ),
                )
            )

    def _facts(self) -> None:
        kick, facts = self.kick, self.kick.facts
        kicker = kick.kicker
        fact_offences = [
            (
                kick.kicker != kick.identified_kicker,
                kicker,
                OffenceKind.WRONG_KICKER,
                Offender.KICKER,
            ),
            (facts.feint_after_run_up, kicker, OffenceKind.FEINT_AFTER_RUN_UP, Offender.KICKER),
            (facts.double_touch is not None, kicker, OffenceKind.DOUBLE_TOUCH, Offender.KICKER),
        ]
        if self.keeper is not None:
            fact_offences += [
                (
                    facts.keeper_touching_frame,
                    self.keeper,
                    OffenceKind.GOALKEEPER_TOUCHING_FRAME,
                    Offender.GOALKEEPER,
                ),
                (
                    not facts.keeper_facing_kicker,
                    self.keeper,
                    OffenceKind.GOALKEEPER_NOT_FACING_KICKER,
                    Offender.GOALKEEPER,
                ),
            ]
        for happened, player, what, offender in fact_offences:
            if happened:
                self.candidates.append(PenaltyOffence(player, what, offender))

    def decide(self, policy: Policy) -> PenaltyVerdict:
        kick, facts, settings = self.kick, self.kick.facts, self.settings
        seen = [o for o in self.candidates if o.measure is None or called(policy, o.measure)]

        def counts(o: PenaltyOffence) -> bool:
            if o.what not in ENCROACHING:
                return True
            return encroachment_counts(kick.is_attacker(o.player), o.player, facts, settings)

        def by(offender: Offender) -> bool:
            return any(o.offender is offender and counts(o) for o in seen)

        misplaced = any(o.what is OffenceKind.BALL_NOT_ON_MARK for o in seen)
        decided = outcome(
            kick.result,
            facts,
            [KICKER_OFFENCE[o.what] for o in seen if o.what in KICKER_OFFENCE],
            by(Offender.GOALKEEPER),
            by(Offender.KICKERS_TEAM_MATE),
            by(Offender.KEEPERS_TEAM_MATE),
            ball_on_mark=not misplaced,
        )
        offences = tuple(
            dataclasses.replace(
                o,
                penalised=(o.offender in decided.penalised and counts(o))
                or (o.what is OffenceKind.BALL_NOT_ON_MARK and decided.row is Row.PROCEDURE),
            )
            for o in seen
        )
        cautions = [kick.kicker] if decided.caution_kicker else []
        warnings = []
        if self.keeper is not None and decided.keeper_card is Card.CAUTION:
            cautions.append(self.keeper)
        elif self.keeper is not None and decided.keeper_card is Card.WARNING:
            warnings.append(self.keeper)
        return PenaltyVerdict(
            decision=decided.decision,
            restart_team=kick.defending_team
            if decided.decision is Decision.INDIRECT_FREE_KICK
            else None,
            row=decided.row,
            offences=offences,
            cautions=tuple(cautions),
            warnings=tuple(warnings),
            keeper=self.keeper,
            keeper_measure=self.keeper_measure,
            keeper_part=self.keeper_part,
            result=kick.result,
            settings=settings,
            policy=str(policy),
            tracking=kick.tracking,
        )


def _points(position: Position, settings: PenaltySettings) -> list[tuple[float, float]]:
    """The points of another player judged against the zones (`settings.encroach_point`): his
    feet where measured, else the tracked point; or every part and the tracked point."""
    tracked = [(position.x_m, position.y_m)]
    if settings.encroach_point is EncroachPoint.ANY_PART:
        parts = position.parts
    else:
        parts = tuple(p for p in position.parts if p.part in FOOT_PARTS)
        tracked = [] if parts else tracked
    return tracked + [(p.x_m, position.y_m if p.y_m is None else p.y_m) for p in parts]


def _p_positive(margin_m: float, se_m: float) -> float:
    """P(a Gaussian with this mean and standard error is above zero)."""
    if math.isinf(margin_m) or se_m <= 0:
        return 1.0 if margin_m > 0 else 0.0
    return 0.5 * math.erfc(-margin_m / (se_m * math.sqrt(2)))
