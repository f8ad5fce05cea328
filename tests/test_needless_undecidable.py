"""Issue 21, Why 7: partial data the Law settles anyway. Each of these was undecidable while
the line check ("fewer than two opponents in view") ran before the Law's own order: the
Law 11.3 exemption, the ball and the halfway line, the player's own touch (Law 11.2 judges
him at a team-mate's play), and a receiver out of view whose every spot is offside."""

from __future__ import annotations

from typing import Any

import pytest

from situations import judged, situation, touch
from varroom.engine.verdict import Status


def box(x_min: float, x_max: float, y_min: float = -34.0, y_max: float = 34.0) -> dict[str, Any]:
    """A view of the rectangle given, in pitch metres."""
    return {"area": [[x_min, y_min], [x_max, y_min], [x_max, y_max], [x_min, y_max]]}


def partial(play: dict[str, Any], later: dict[str, Any], view: dict[str, Any]) -> dict[str, Any]:
    """Two touches, the first seen through `view`, eleven defenders of whom those listed are
    the ones in it."""
    play["view"] = view
    return situation([play, later], team_sizes={"D": 11})


@pytest.mark.parametrize(
    ("action", "ball"),
    [("throw_in", (30.0, -34.0)), ("corner_kick", (52.5, 34.0)), ("goal_kick", (-47.0, 0.0))],
)
def test_a_restart_law_11_3_exempts_settles_with_fewer_than_two_opponents_in_view(
    action: str, ball: tuple[float, float]
) -> None:
    # One defender in view, a2 beyond him: the line cannot be drawn, and need not be.
    play = touch("a1", action, ball, 0.0, a1=ball, a2=(48.0, 2.0), d1=(45.0, 0.0))
    receive = touch("a2", "receive", (48.0, 2.0), 1.0, a2=(48.0, 2.0))
    verdict = judged(partial(play, receive, box(40.0, 52.5, -20.0, 20.0)))
    assert verdict.status is Status.NO_OFFENCE, verdict.reason
    assert "undecidable" not in verdict.reason  # the reason says what decided it
    assert "Law 11.3" in verdict.reason


def test_a_receiver_behind_the_ball_settles_with_fewer_than_two_opponents_in_view() -> None:
    # a1 passes back from x = 40 to a2 at x = 35: nearer the halfway line than the ball, he is
    # onside whatever the unseen did (Law 11.1).
    play = touch("a1", "pass", (40.0, 0.0), 0.0, a1=(40.0, 0.0), a2=(35.0, 5.0), d1=(45.0, 0.0))
    receive = touch("a2", "receive", (35.0, 5.0), 1.0, a2=(35.0, 5.0))
    verdict = judged(partial(play, receive, box(30.0, 50.0, -10.0, 10.0)))
    assert verdict.status is Status.NO_OFFENCE, verdict.reason
    assert "undecidable" not in verdict.reason  # the reason says what decided it
    assert verdict.receiver == "a2"


def test_a_receiver_in_his_own_half_settles_with_no_opponent_in_view() -> None:
    play = touch("a1", "pass", (-30.0, 0.0), 0.0, a1=(-30.0, 0.0), a2=(-5.0, 5.0))
    receive = touch("a2", "receive", (-5.0, 5.0), 1.5, a2=(-5.0, 5.0))
    data = partial(play, receive, box(-35.0, 0.0, -15.0, 15.0))
    data["players"].append({"id": "d1", "team": "D"})  # all eleven out of view
    verdict = judged(data)
    assert verdict.status is Status.NO_OFFENCE, verdict.reason
    assert "undecidable" not in verdict.reason  # the reason says what decided it
    assert "own half" in verdict.reason


def test_a_player_is_not_judged_at_his_own_touch() -> None:
    # a1 alone beyond the one defender in view plays the ball on and then shoots: no
    # team-mate played it to him, so there is nothing to judge him at (Law 11.2).
    play = touch("a1", "pass", (40.0, 0.0), 0.0, a1=(40.0, 0.0), d1=(35.0, 0.0))
    shot = touch("a1", "shot", (46.0, 0.0), 1.0, a1=(46.0, 0.0))
    verdict = judged(partial(play, shot, box(30.0, 52.5, -15.0, 15.0)))
    assert verdict.status is Status.NO_OFFENCE, verdict.reason
    assert "undecidable" not in verdict.reason  # the reason says what decided it


def test_a_receiver_out_of_view_whose_every_spot_is_offside_is_an_offence() -> None:
    # The whole pitch short of x = 40 is in view with ten defenders in it; a2 is not listed,
    # so at the pass he stood beyond x = 40, and the eleventh defender, out of view too, can
    # stand deeper than him but cannot be two players.
    shallow = {f"m{k}": (30.0 - 2 * k, -20.0 + 4 * k) for k in range(10)}
    play = touch("a1", "pass", (20.0, 0.0), 0.0, a1=(20.0, 0.0), **shallow)
    receive = touch("a2", "receive", (45.0, 0.0), 0.5, a2=(45.0, 0.0))
    verdict = judged(partial(play, receive, box(-52.5, 40.0)))
    assert verdict.status is Status.OFFENCE and verdict.offender == "a2", verdict.reason
