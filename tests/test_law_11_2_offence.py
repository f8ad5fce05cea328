"""Law 11.2: becoming involved; deflections, saves, rebounds and resets; new plays."""

from __future__ import annotations

import pytest

import varroom
from conftest import EXAMPLES
from situations import judged, situation, touch
from varroom.law.offence import Involvement, gives_an_advantage, is_involved, resets_offside
from varroom.model.settings import OfficialTouch
from varroom.model.situation import TouchKind

# a1 passes; a2 is 1 m beyond d1 (the second-last) at the pass; gk deepest.
PASS = touch(
    "a1", "pass", (20, 0), 0.0, a1=(20, 0), a2=(41, 5), a3=(30, -5), d1=(40, 3), gk=(51, 0)
)


def later(player, action, t, ball=(44, 4), **extra):
    return touch(
        player,
        action,
        ball,
        t,
        a1=(22, 0),
        a2=(44, 5),
        a3=(33, -5),
        d1=(42, 3),
        gk=(50, 0),
        **extra,
    )


@pytest.mark.parametrize(
    ("kind", "resets"),
    [
        (TouchKind.DELIBERATE_PLAY, True),
        (TouchKind.RESTART, True),
        (TouchKind.DEFLECTION, False),
        (TouchKind.SAVE, False),
        (TouchKind.REBOUND, False),
    ],
)
def test_resets_offside_only_for_a_deliberate_play(kind, resets):
    assert resets_offside(kind) is resets
    assert gives_an_advantage(kind) is (not resets)


def test_is_involved_kinds():
    assert is_involved(False, False, False) is None
    assert is_involved(True, False, False) is Involvement.INTERFERING_WITH_PLAY
    assert is_involved(False, True, False) is Involvement.INTERFERING_WITH_AN_OPPONENT
    assert is_involved(True, False, True) is Involvement.GAINING_AN_ADVANTAGE


def test_playing_the_ball_from_an_offside_position_is_an_offence():
    verdict = judged(situation([PASS, later("a2", "shot", 1.0)]))
    assert verdict.offence and verdict.offender == "a2"
    assert (verdict.judged_at, verdict.involved_at) == (0, 1)
    assert verdict.involvement is Involvement.INTERFERING_WITH_PLAY
    assert verdict.restart.value == "indirect_free_kick"
    assert verdict.restart_spot_m == (44, 4)


def test_not_touching_the_ball_is_no_offence():
    verdict = judged(situation([PASS, later("gk", "receive", 2.0, ball=(50, 0))]))
    assert verdict.offence is False
    assert verdict.nearest_attacker == "a2" and verdict.margin_m == pytest.approx(1.0)
    assert "did not become involved" in verdict.reason


def test_onside_team_mate_plays_it_instead_is_no_offence():
    verdict = judged(situation([PASS, later("a3", "shot", 1.0)]))
    assert verdict.offence is False


@pytest.mark.parametrize(
    "kind",
    [
        "obstructs_line_of_vision",
        "challenges_opponent",
        "attempts_to_play_close",
        "obvious_action_impacting_opponent",
    ],
)
def test_interfering_with_an_opponent_from_reviewer_facts(kind):
    shot = touch(
        "a3",
        "shot",
        (33, -5),
        1.0,
        involvement=[{"player": "a2", "kind": kind}],
        a1=(22, 0),
        a2=(44, 5),
        a3=(33, -5),
        d1=(32, 3),
        gk=(50, 0),
    )
    # a2 is judged at a3's shot, where he is beyond d1: interference at that moment.
    verdict = judged(situation([PASS, shot]))
    assert verdict.offence and verdict.offender == "a2"
    assert verdict.involvement is Involvement.INTERFERING_WITH_AN_OPPONENT
    assert verdict.judged_at == 1 and verdict.involved_at == 1


def test_involvement_of_an_onside_player_is_no_offence():
    shot = later("a1", "shot", 1.0, involvement=[{"player": "a3", "kind": "challenges_opponent"}])
    assert judged(situation([PASS, shot])).offence is False


@pytest.mark.parametrize(
    ("touch_by", "action", "effect_word"),
    [("d1", "deflection", "deflection"), ("gk", "save", "save"), (None, "woodwork", "woodwork")],
)
def test_gaining_an_advantage_after_a_deflection_save_or_rebound(touch_by, action, effect_word):
    verdict = judged(situation([PASS, later(touch_by, action, 1.0), later("a2", "shot", 1.5)]))
    assert verdict.offence and verdict.offender == "a2"
    assert verdict.involvement is Involvement.GAINING_AN_ADVANTAGE
    assert (verdict.judged_at, verdict.involved_at) == (0, 2)
    assert effect_word in verdict.reason


def test_rebound_off_an_official_is_gaining_an_advantage_by_default():
    verdict = judged(situation([PASS, later(None, "official", 1.0), later("a2", "shot", 1.5)]))
    assert verdict.offence and verdict.involvement is Involvement.GAINING_AN_ADVANTAGE


def test_official_touch_out_of_play_setting_ends_the_phase():
    data = situation([PASS, later(None, "official", 1.0), later("a2", "shot", 1.5)])
    verdict = judged(data, official_touch=OfficialTouch.OUT_OF_PLAY)
    assert verdict.offence is False
    assert verdict.chain[-1].effect.value == "out_of_play"
    assert "play stopped for a dropped ball before he became involved" in verdict.reason
    assert verdict.law == "9"


def test_deliberate_play_by_an_opponent_resets():
    verdict = judged(situation([PASS, later("d1", "clearance", 1.0), later("a2", "shot", 1.5)]))
    assert verdict.offence is False
    assert "resets offside" in verdict.reason
    assert verdict.margin_m == pytest.approx(1.0)


def test_deliberate_save_does_not_reset_even_by_an_outfield_player():
    verdict = judged(situation([PASS, later("d1", "save", 1.0), later("a2", "shot", 1.5)]))
    assert verdict.offence


def test_new_play_by_a_team_mate_sets_up_a_new_judgement():
    # a2 is beyond the line at a1's pass but behind it when a3 passes (IFAB diagram 14).
    second_pass = touch(
        "a3", "pass", (33, -5), 1.0, a1=(22, 0), a2=(38, 5), a3=(33, -5), d1=(39, 3), gk=(50, 0)
    )
    verdict = judged(situation([PASS, second_pass, later("a2", "shot", 2.0)]))
    assert verdict.offence is False
    assert verdict.judged_at == 1
    assert verdict.margin_m < 0


def test_offence_in_own_half_is_penalised_where_it_happened():
    back = touch(
        "a2", "receive", (-3, 5), 3.0, a1=(22, 0), a2=(-3, 5), a3=(30, -5), d1=(5, 3), gk=(51, 0)
    )
    verdict = judged(situation([PASS, back]))
    assert verdict.offence
    assert verdict.restart_spot_m == (-3, 5)
    assert "own half" in verdict.reason


def test_fewer_than_two_opponents_known_is_undecidable_when_someone_becomes_involved():
    first = touch("a1", "pass", (20, 0), 0.0, a1=(20, 0), a2=(41, 5), d1=(40, 3))
    second = touch("a2", "shot", (44, 5), 1.0, a1=(22, 0), a2=(44, 5), d1=(42, 3))
    data = situation([first, second], players={"a1": "A", "a2": "A", "d1": "D", "gk": "D"})
    verdict = judged(data)
    assert verdict.offence is None and verdict.status.value == "undecidable"
    assert "undecidable" in verdict.reason


def test_reason_names_players_and_gives_centimetres():
    data = situation([PASS, later("a2", "shot", 1.0)])
    data["players"][1]["name"] = "Harry Kane"
    verdict = judged(data)
    assert verdict.reason.startswith("Kane was 100 cm") or verdict.reason.startswith(
        "Kane was 1.00 m"
    )
    assert "Law 11.2" in verdict.reason


def test_reason_names_an_uninvolved_player_in_an_offside_position():
    # IFAB diagram 7: a2 beyond the line does nothing; onside a3 scores.
    verdict = judged(situation([PASS, later("a3", "shot", 1.0)]))
    assert verdict.nearest_attacker == "a2"
    assert "a2 (1.00 m) was in an offside position but not involved" in verdict.reason


def test_own_touch_before_a_shot_is_not_the_moment_he_is_judged_at():
    receive = later("a2", "receive", 1.0)
    verdict = judged(situation([PASS, receive, later("a2", "shot", 2.0)]))
    assert verdict.offence and verdict.judged_at == 0 and verdict.involved_at == 1


@pytest.mark.parametrize(
    ("example", "words"),
    [
        ("corner-kick-direct-no-offence.json", "received directly from a corner kick"),
        ("reset-by-defenders-deliberate-clearance-no-offence.json", "which resets offside"),
        ("offside-position-not-interfering-no-offence.json", "not involved in active play"),
        ("tottenham-sporting-2022-kane.json", "the goal is disallowed"),
    ],
)
def test_announcement_is_a_complete_sentence_for_each_kind_of_decision(example, words):
    verdict = varroom.judge(varroom.load_situation(EXAMPLES / example))
    assert verdict.announcement.startswith("After review, ")
    assert words in verdict.announcement and verdict.announcement.endswith(".")
    assert not verdict.announcement.endswith(": .")
