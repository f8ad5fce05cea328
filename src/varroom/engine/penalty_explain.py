"""The reason and the referee's announcement for a penalty kick, in plain words, citing Law 14."""

from __future__ import annotations

import dataclasses

from varroom.engine.explain import distance
from varroom.engine.penalty_verdict import (
    ENCROACHING,
    OffenceKind,
    PenaltyOffence,
    PenaltyVerdict,
)
from varroom.law.penalty import Decision, Offender, Row, Zone
from varroom.model.penalty import DoubleTouch, KickResult, PenaltyKick

_RESULT = {
    KickResult.GOAL: "the ball went in",
    KickResult.SAVED: "the kick was saved",
    KickResult.MISSED: "the kick missed",
    KickResult.WOODWORK: "the kick came back off the woodwork",
    KickResult.IN_PLAY: "the ball did not go in",
}

_ZONE = {
    Zone.PENALTY_AREA: "inside the penalty area",
    Zone.ARC: "within 9.15 m of the mark",
    Zone.IN_FRONT_OF_MARK: "in front of the penalty mark",
    Zone.OFF_FIELD: "off the field",
    Zone.AWAY_FROM_PLACE: "outside his place",
}

# What the referee says an offence was, in the announcement.
_SAID = {
    OffenceKind.GOALKEEPER_OFF_LINE: "the goalkeeper was off his line",
    OffenceKind.GOALKEEPER_NOT_BETWEEN_POSTS: "the goalkeeper was not between the posts",
    OffenceKind.GOALKEEPER_NOT_FACING_KICKER: "the goalkeeper was not facing the kicker",
    OffenceKind.GOALKEEPER_TOUCHING_FRAME: "the goalkeeper touched the goal frame",
    OffenceKind.BALL_NOT_ON_MARK: "the ball was not on the penalty mark",
    OffenceKind.BACKWARD_KICK: "the ball was kicked backwards",
    OffenceKind.WRONG_KICKER: "the wrong player took the kick",
    OffenceKind.FEINT_AFTER_RUN_UP: "the kicker feinted after his run-up",
    OffenceKind.DOUBLE_TOUCH: "the kicker touched the ball twice",
}


def explain_penalty(kick: PenaltyKick, verdict: PenaltyVerdict) -> PenaltyVerdict:
    """The verdict with its reason, its announcement and the Law paragraph that decided it."""
    explainer = _Explainer(kick, verdict)
    law = "Law 14.1" if verdict.row is Row.NO_OFFENCE else "Law 14.2"
    return dataclasses.replace(
        verdict, reason=explainer.reason(), announcement=explainer.announcement(), law=law
    )


class _Explainer:
    def __init__(self, kick: PenaltyKick, verdict: PenaltyVerdict) -> None:
        self.k = kick
        self.v = verdict

    def name(self, player_id: str) -> str:
        return self.k.players[player_id].short_label

    def reason(self) -> str:
        sentences = [self.keeper()] if self.v.keeper is not None else []
        sentences += [
            self.offence(o)
            for o in self.v.offences
            if o.what is not OffenceKind.GOALKEEPER_OFF_LINE
        ]
        sentences.append(self.outcome())
        sentences += self.cards()
        return " ".join(_sentence(s) for s in sentences if s)

    def keeper(self) -> str:
        keeper, measure = self.v.keeper, self.v.keeper_measure
        assert keeper is not None and measure is not None
        part = self.v.keeper_part
        what = (
            "tracked position (no foot measured)" if part is None else part.value.replace("_", " ")
        )
        who = f"the goalkeeper {self.name(keeper)}"
        when = f"when {self.name(self.k.kicker)} kicked"
        spread = f"± {distance(measure.se_m)}, P(off the line) {measure.probability:.0%}"
        # To the millimetre, as the verdict's JSON gives it: a heel placed on the edge is on it.
        if round(measure.margin_m, 3) <= 0:
            edge = (
                "touching its front edge"
                if round(measure.margin_m, 3) == 0
                else f"{distance(measure.margin_m)} behind its front edge"
            )
            return f"{who} had his {what} on the goal line {when} ({edge}; {spread})"
        called = any(o.what is OffenceKind.GOALKEEPER_OFF_LINE for o in self.v.offences)
        allowance = "" if called else f", within what the {self.v.policy} policy allows"
        return (
            f"{who}'s {what} was {distance(measure.margin_m)} in front of the goal line {when}"
            f" ({spread}){allowance}"
        )

    def offence(self, o: PenaltyOffence) -> str:
        if o.what in ENCROACHING:
            assert o.measure is not None
            if o.what is OffenceKind.KICKERS_GOALKEEPER_OUT_OF_PLACE:
                side = "the kicker's goalkeeper"
            elif self.k.is_attacker(o.player):
                side = "the kicker's team-mate"
            else:
                side = "the goalkeeper's team-mate"
            where = " and ".join(f"{distance(m)} {_ZONE[z]}" for z, m in o.zones)
            text = f"{self.name(o.player)} ({side}) was {where} at the kick"
            if o.what is OffenceKind.KICKERS_GOALKEEPER_OUT_OF_PLACE:
                text += (
                    "; in kicks from the penalty mark he stays on the field, outside the "
                    "penalty area, on the goal line where it meets the penalty-area line "
                    "(Law 10.3)"
                )
            if not o.penalised:
                text += self.unpenalised_encroachment(o)
            return text
        measure = "" if o.measure is None else f" ({distance(o.measure.margin_m)})"
        if o.what is OffenceKind.WRONG_KICKER:
            return f"{self.name(self.k.kicker)} took the kick, not {self.name(self.k.identified_kicker)}, the kicker the referee identified"
        if o.what is OffenceKind.FEINT_AFTER_RUN_UP:
            return f"{self.name(self.k.kicker)} feinted after finishing his run-up"
        if o.what is OffenceKind.DOUBLE_TOUCH:
            how = (
                "accidentally"
                if self.k.facts.double_touch is DoubleTouch.ACCIDENTAL
                else "deliberately"
            )
            return f"{self.name(self.k.kicker)} {how} touched the ball a second time before another player did"
        return f"{_SAID[o.what]}{measure}"

    def unpenalised_encroachment(self, o: PenaltyOffence) -> str:
        if self.v.row in (Row.KICKER, Row.KEEPER_AND_KICKER, Row.PROCEDURE):
            return ", but the kicker's offence decides"
        if o.offender is Offender.KEEPERS_TEAM_MATE and self.v.result.scored:
            return ""  # the outcome says the goal stands
        affected = "the goalkeeper" if self.k.is_attacker(o.player) else "the kicker"
        return f", but it did not clearly affect {affected} and he did not then play or challenge for the ball, so it is not penalised (Law 14.2)"

    def outcome(self) -> str:
        v, result = self.v, _RESULT[self.v.result]
        row = v.row
        if row is Row.PROCEDURE:
            return "the kick is retaken (Law 14.1)"
        if row is Row.KEEPER_AND_KICKER:
            if v.decision is Decision.RETAKE:
                return f"the goalkeeper and the kicker offended at the same time and {result}, so the kick is retaken (Law 14.2)"
            return f"the goalkeeper and the kicker offended at the same time: the goal is disallowed and {self.restart()} (Law 14.2)"
        if row is Row.KICKER:
            if v.decision is Decision.RETAKE:
                return (
                    f"{result} after an accidental second touch, so the kick is retaken (Law 14.2)"
                )
            law = "Law 10" if self.k.facts.shootout else "Law 14.2"
            return f"{result}, but the kicker's offence decides: {self.restart()} ({law})"
        if row is Row.BOTH_TEAMS:
            return "players of both teams offended, so the kick is retaken whatever happened (Law 14.2)"
        if row is Row.KICKERS_TEAM_MATE:
            return f"{result}, so {self.restart()} (Law 14.2)"
        if row is Row.KEEPERS_SIDE:
            if v.decision is Decision.GOAL:
                return f"{result}, so the goal stands (Law 14.2)"
            if v.result is KickResult.SAVED:
                return f"{result}, so it is retaken (Law 14.2)"
            why = (
                "the offence clearly affected the kicker"
                if self.k.facts.clearly_affected_kicker
                else "the encroacher then played or challenged for the ball"
            )
            return f"{result}, and {why}, so it is retaken (Law 14.2)"
        keeper_off = any(o.offender is Offender.GOALKEEPER for o in v.offences)
        if keeper_off and not v.result.scored:
            return f"{result} and the goalkeeper's offence did not clearly affect the kicker, so it is not retaken (Law 14.2)"
        if v.result.scored:
            return f"{result}: a goal (Law 14)"
        return f"{result}; play goes on as usual (Law 14)"

    def restart(self) -> str:
        if self.v.decision is Decision.RETAKE:
            return "the kick is retaken"
        if self.v.decision is Decision.NO_GOAL:
            return "in kicks from the penalty mark the kick counts as missed"
        return f"{self.k.defending_team} have an indirect free kick"

    def cards(self) -> list[str]:
        out = []
        if self.v.keeper is not None and self.v.keeper in self.v.warnings:
            out.append(f"first offence by {self.name(self.v.keeper)}: a warning.")
        for player in self.v.cautions:
            out.append(f"{self.name(player)} is cautioned ({self.why_cautioned(player)}).")
        return out

    def why_cautioned(self, player: str) -> str:
        if player != self.v.keeper:
            if self.k.kicker != self.k.identified_kicker:
                return "for taking the kick in place of the identified kicker"
            return "for feinting after his run-up"
        if self.v.row is Row.KEEPER_AND_KICKER:
            return "for offending at the same time as the kicker"
        return "a repeated offence: he was already warned"

    def announcement(self) -> str:
        v = self.v
        penalised = v.penalised
        if penalised:
            o = penalised[0]
            if v.row is Row.BOTH_TEAMS:
                why = "players of both teams offended before the kick"
            elif o.what is OffenceKind.KICKERS_GOALKEEPER_OUT_OF_PLACE:
                why = f"{self.name(o.player)}, the kicker's goalkeeper, was out of his place"
            elif o.what is OffenceKind.ENCROACHMENT:
                team = self.k.players[o.player].team
                why = f"{self.name(o.player)} ({team}) encroached before the kick"
            else:
                why = _SAID[o.what]
            opening = f"After review, {why}."
        elif v.offences:
            opening = "After review, the offence did not change the outcome."
        else:
            opening = "After review, the penalty was taken correctly."
        decision = {
            Decision.GOAL: "Goal.",
            Decision.NO_GOAL: "No goal.",
            Decision.RETAKE: "The penalty will be retaken.",
            Decision.INDIRECT_FREE_KICK: f"Indirect free kick to {self.k.defending_team}.",
        }[v.decision]
        cards = [f"{self.name(p)} is cautioned." for p in v.cautions]
        cards += [f"The goalkeeper, {self.name(p)}, is warned." for p in v.warnings]
        return " ".join([opening, decision, *cards])


def _sentence(text: str) -> str:
    text = text[0].upper() + text[1:]
    return text if text.endswith(".") else text + "."
