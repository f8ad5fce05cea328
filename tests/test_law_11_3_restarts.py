"""Law 11.3: no offence directly from a goal kick, throw-in or corner kick."""

from __future__ import annotations

import pytest

from situations import judged, situation, touch
from varroom.law.restarts import no_offence_from
from varroom.model.situation import Action, touch_kind


def restart(action):
    return touch("a1", action, (20, 0), 0.0, a1=(20, 0), a2=(41, 5), d1=(40, 3), gk=(51, 0))


RECEIVE = touch("a2", "shot", (44, 5), 1.0, a1=(22, 0), a2=(44, 5), d1=(42, 3), gk=(50, 0))


@pytest.mark.parametrize("action", list(Action))
def test_only_three_restarts_are_exempt(action):
    exempt = action in (Action.THROW_IN, Action.GOAL_KICK, Action.CORNER_KICK)
    assert no_offence_from(touch_kind(action)) is exempt


@pytest.mark.parametrize("action", ["throw_in", "goal_kick", "corner_kick"])
def test_no_offence_directly_from_an_exempt_restart(action):
    verdict = judged(situation([restart(action), RECEIVE]))
    assert verdict.offence is False
    assert verdict.law == "11.3"
    assert action.replace("_", " ").replace("throw in", "throw-in") in verdict.reason


@pytest.mark.parametrize("action", ["free_kick", "dropped_ball", "kick_off", "penalty_kick"])
def test_offside_applies_after_other_restarts(action):
    assert judged(situation([restart(action), RECEIVE])).offence


def test_offside_applies_to_the_next_play_after_a_short_corner():
    short = touch(
        "a1",
        "corner_kick",
        (52.5, 34),
        0.0,
        a1=(52.5, 34),
        a3=(48, 30),
        a2=(51, 5),
        d1=(50, 3),
        gk=(52, 0),
    )
    cross = touch(
        "a3", "cross", (48, 30), 2.0, a1=(52, 33), a3=(48, 30), a2=(50, 5), d1=(49, 3), gk=(52, 0)
    )
    header = touch(
        "a2", "header", (50, 5), 3.0, a1=(52, 33), a3=(48, 30), a2=(50, 5), d1=(49, 3), gk=(52, 0)
    )
    verdict = judged(situation([short, cross, header]))
    assert verdict.offence and verdict.judged_at == 1
