"""Law 14.2, offences and sanctions: the outcome table of shared/spec/laws.md, row by row and
result by result, as the pure function `outcome` gives it."""

from __future__ import annotations

import pytest

from varroom.law.penalty import (
    Card,
    Decision,
    KickerOffence,
    Offender,
    Row,
    outcome,
)
from varroom.model.penalty import DoubleTouch, KickResult, PenaltyFacts

GOAL, SAVED, MISSED, WOODWORK, IN_PLAY = (
    KickResult.GOAL,
    KickResult.SAVED,
    KickResult.MISSED,
    KickResult.WOODWORK,
    KickResult.IN_PLAY,
)
NOT_IN = (SAVED, MISSED, WOODWORK, IN_PLAY)
NO_FACTS = PenaltyFacts()
RETAKE, IFK = Decision.RETAKE, Decision.INDIRECT_FREE_KICK


def decide(result, kicker=(), keeper=False, attack=False, defence=False, facts=NO_FACTS, **kw):
    return outcome(result, facts, kicker, keeper, attack, defence, **kw)


def test_no_offence() -> None:
    assert decide(GOAL).decision is Decision.GOAL
    for result in NOT_IN:
        assert decide(result).decision is Decision.NO_GOAL


def test_kickers_team_mate() -> None:
    scored = decide(GOAL, attack=True)
    assert (scored.decision, scored.row) == (RETAKE, Row.KICKERS_TEAM_MATE)
    assert scored.penalised == {Offender.KICKERS_TEAM_MATE}
    for result in NOT_IN:
        assert decide(result, attack=True).decision is IFK


def test_goalkeepers_team_mate() -> None:
    scored = decide(GOAL, defence=True)
    assert scored.decision is Decision.GOAL and scored.penalised == frozenset()
    for result in NOT_IN:
        out = decide(result, defence=True)
        assert out.decision is RETAKE and out.penalised == {Offender.KEEPERS_TEAM_MATE}
        assert out.keeper_card is None  # team-mates are not warned


@pytest.mark.parametrize("result", [GOAL, *NOT_IN])
def test_both_teams_retake_whatever_happened(result: KickResult) -> None:
    out = decide(result, attack=True, defence=True)
    assert (out.decision, out.row) == (RETAKE, Row.BOTH_TEAMS)


def test_goalkeeper() -> None:
    assert decide(GOAL, keeper=True).decision is Decision.GOAL
    saved = decide(SAVED, keeper=True)
    assert saved.decision is RETAKE and saved.keeper_card is Card.WARNING
    for result in (MISSED, WOODWORK):
        assert decide(result, keeper=True).decision is Decision.NO_GOAL
        affected = decide(result, keeper=True, facts=PenaltyFacts(clearly_affected_kicker=True))
        assert affected.decision is RETAKE and affected.keeper_card is Card.WARNING


def test_goalkeeper_warned_then_cautioned() -> None:
    again = decide(SAVED, keeper=True, facts=PenaltyFacts(keeper_warned_before=True))
    assert again.decision is RETAKE and again.keeper_card is Card.CAUTION


def test_goalkeeper_and_attacking_encroachment_is_both_teams() -> None:
    out = decide(GOAL, keeper=True, attack=True)
    assert out.row is Row.BOTH_TEAMS and out.decision is RETAKE
    assert out.keeper_card is Card.WARNING


def test_goalkeeper_and_kicker_at_the_same_time() -> None:
    feint = [KickerOffence.FEINT_AFTER_RUN_UP]
    scored = decide(GOAL, feint, keeper=True)
    assert (scored.decision, scored.caution_kicker, scored.keeper_card) == (IFK, True, None)
    for result in NOT_IN:
        out = decide(result, feint, keeper=True)
        assert (out.decision, out.caution_kicker, out.keeper_card) == (RETAKE, True, Card.CAUTION)


@pytest.mark.parametrize("result", [GOAL, *NOT_IN])
def test_kicker_offences(result: KickResult) -> None:
    backward = decide(result, [KickerOffence.BACKWARD_KICK], attack=True, defence=True)
    assert (backward.decision, backward.caution_kicker) == (IFK, False)
    wrong = decide(result, [KickerOffence.WRONG_KICKER], keeper=True)
    assert (wrong.decision, wrong.caution_kicker) == (IFK, True)
    feint = decide(result, [KickerOffence.FEINT_AFTER_RUN_UP])
    assert (feint.decision, feint.caution_kicker) == (IFK, True)
    deliberate = PenaltyFacts(double_touch=DoubleTouch.DELIBERATE)
    assert decide(result, [KickerOffence.DOUBLE_TOUCH], facts=deliberate).decision is IFK


def test_accidental_double_touch() -> None:
    facts = PenaltyFacts(double_touch=DoubleTouch.ACCIDENTAL)
    assert decide(GOAL, [KickerOffence.DOUBLE_TOUCH], facts=facts).decision is RETAKE
    for result in NOT_IN:
        assert decide(result, [KickerOffence.DOUBLE_TOUCH], facts=facts).decision is IFK


def test_in_kicks_from_the_penalty_mark_a_free_kick_is_a_miss() -> None:
    facts = PenaltyFacts(shootout=True, double_touch=DoubleTouch.ACCIDENTAL)
    assert decide(SAVED, [KickerOffence.DOUBLE_TOUCH], facts=facts).decision is Decision.NO_GOAL
    feint = decide(GOAL, [KickerOffence.FEINT_AFTER_RUN_UP], facts=facts)
    assert (feint.decision, feint.caution_kicker) == (Decision.NO_GOAL, True)
    assert decide(GOAL, [KickerOffence.DOUBLE_TOUCH], facts=facts).decision is RETAKE


def test_a_ball_off_the_mark_is_retaken_unless_the_kicker_offended() -> None:
    assert decide(GOAL, ball_on_mark=False).row is Row.PROCEDURE
    assert decide(GOAL, ball_on_mark=False).decision is RETAKE
    assert decide(GOAL, [KickerOffence.FEINT_AFTER_RUN_UP], ball_on_mark=False).decision is IFK
