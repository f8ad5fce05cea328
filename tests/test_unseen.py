"""Format 1.1 and what the camera cannot see: views, team sizes, the unseen-opponent model,
receivers out of view, interference between touches, restarts touched on the way."""

from __future__ import annotations

import copy
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

import varroom
from situations import judged, situation, touch
from varroom.engine.unseen import FEWEST_SAMPLES, Proof
from varroom.engine.verdict import Status
from varroom.formats.situation_json import situation_from_dict, situation_to_dict
from varroom.model.settings import RestartTouched, UnseenGoalkeeper

HALF_LENGTH, HALF_WIDTH = 52.5, 34.0


def view_up_to(x_m: float) -> dict[str, Any]:
    """The camera saw the whole width from the -x goal line up to `x_m`."""
    return {
        "area": [
            [-HALF_LENGTH, -HALF_WIDTH],
            [x_m, -HALF_WIDTH],
            [x_m, HALF_WIDTH],
            [-HALF_LENGTH, HALF_WIDTH],
        ]
    }


def seen(
    defenders: dict[str, tuple[float, float]],
    receiver_x: float,
    view: dict[str, Any],
    keeper: str | None = None,
) -> dict[str, Any]:
    """a1 passes from x = 10, a2 at `receiver_x` receives it 1.5 s later; the defenders listed
    are those in view (team size 11)."""
    play = touch("a1", "pass", (10, 0), 0.0, a1=(10, 0), a2=(receiver_x, 5), **defenders)
    play["view"] = view
    receive = touch("a2", "receive", (receiver_x + 3, 5), 1.5, a2=(receiver_x + 3, 5))
    data = situation([play, receive], team_sizes={"D": 11})
    for player in data["players"]:
        player["goalkeeper"] = player["id"] == keeper
    return data


def shallow(count: int) -> dict[str, tuple[float, float]]:
    return {f"m{k}": (0.0 + 2 * k, -20.0 + 4 * k) for k in range(count)}


def test_format_1_1_round_trips_through_the_writer() -> None:
    data = seen({"d1": (30, 3), "gk": (44, 0), **shallow(7)}, 31.0, view_up_to(45), keeper="gk")
    data["touches"][0]["positions"]["a2"]["v"] = [6.5, -1.0]
    data["touches"][0]["ball_v"] = [12.0, 0.0]
    data["touches"][1]["involvement"] = [{"player": "a2", "kind": "challenges_opponent", "t": 1.2}]
    original = situation_from_dict(data)
    written = situation_to_dict(original)
    assert written["team_sizes"] == {"D": 11}
    assert written["touches"][0]["view"]["area"][1] == [45.0, -HALF_WIDTH]
    assert written["touches"][1]["involvement"][0]["t"] == 1.2
    again = situation_from_dict(written)
    assert again.touches == original.touches and again.team_sizes == original.team_sizes
    assert varroom.judge(again).to_dict() == varroom.judge(original).to_dict()


def test_more_opponents_needed_than_are_unseen_settles_the_offence() -> None:
    # Ten defenders in view, the goalkeeper among them; a2 beyond all ten: two would have to
    # stand deeper, one is unseen.
    data = seen({"d1": (30, 3), "gk": (44, 0), **shallow(8)}, 46.0, view_up_to(48), "gk")
    verdict = judged(data)
    assert verdict.status is Status.OFFENCE and verdict.offender == "a2"
    assert verdict.unseen is not None and verdict.unseen.needed == 2
    assert not verdict.unseen.could_change
    assert "it would take 2 players" in verdict.reason


def _deep_view(beyond_m: float) -> dict[str, Any]:
    """The whole width from x = 20 to `beyond_m` past the goal line (and as far past each
    touchline)."""
    far, wide = HALF_LENGTH + beyond_m, HALF_WIDTH + beyond_m
    return {"area": [[20, -wide], [far, -wide], [far, wide], [20, wide]]}


def test_a_view_of_the_whole_ground_deeper_than_him_settles_the_offence() -> None:
    data = seen({"d1": (30, 3), "gk": (44, 0), "d2": (25, 0)}, 31.0, _deep_view(10.0), "gk")
    verdict = judged(data)
    assert verdict.status is Status.OFFENCE
    assert verdict.unseen is not None and verdict.unseen.unseen == 8
    assert verdict.unseen.proof is Proof.OFFSIDE
    assert (
        "reaches no deeper than x = 20.0 m: none of them could stand nearer the goal line than a2"
        in (verdict.reason)
    )


def test_an_unseen_defender_may_count_on_his_goal_line_off_the_field() -> None:
    """A view to the goal line but not past it: an unseen defender who left over it without
    permission counts on it (Law 11.4), so the offence is not proven."""
    data = seen({"d1": (30, 3), "gk": (44, 0), "d2": (25, 0)}, 31.0, _deep_view(0.0), "gk")
    verdict = judged(data)
    assert verdict.status is Status.UNDECIDABLE
    assert verdict.unseen is not None and verdict.unseen.over_goal_line
    assert "off the field over the goal line" in verdict.reason and "Law 11.4" in verdict.reason


def test_an_unseen_goalkeeper_is_anywhere_unless_a_setting_assumes_otherwise() -> None:
    # d1 in view is deeper than a2; the goalkeeper is the one opponent missing: up field after
    # a corner he would not put a2 onside.
    data = seen({"d1": (32, 3), **shallow(9)}, 31.0, view_up_to(40))
    verdict = judged(data)
    assert verdict.status is Status.UNDECIDABLE
    assert verdict.unseen is not None and verdict.unseen.goalkeeper_unseen
    assert verdict.would_be is not None and verdict.would_be.status is Status.NO_OFFENCE
    assert verdict.to_dict()["would_be"]["assuming"] in verdict.reason
    deepest = judged(data, unseen_goalkeeper=UnseenGoalkeeper.DEEPEST)
    assert deepest.status is Status.NO_OFFENCE and deepest.assumed
    assert "onside, no offence" in deepest.reason
    assert "rests on an assumption (setting unseen_goalkeeper: deepest)" in deepest.reason
    assert deepest.to_dict()["assumed"] == [UnseenGoalkeeper.DEEPEST.assumption]


def test_the_prior_weighs_unseen_outfield_players_but_never_settles() -> None:
    # The camera saw the opponents' half but for its far flank (y > 10): two outfield
    # players are out of view.
    near_side = {"area": [[0, -HALF_WIDTH], [HALF_LENGTH, -HALF_WIDTH], [HALF_LENGTH, 10], [0, 10]]}
    defenders = {
        "d1": (30, 3),
        "gk": (50, 0),
        **{f"m{k}": (5.0 + 3 * k, -25.0 + 4 * k) for k in range(7)},
    }
    data = seen(defenders, 31.0, near_side, "gk")
    verdict = judged(data)
    unseen = verdict.unseen
    assert unseen is not None and unseen.could_change and unseen.unseen == 2
    assert unseen.samples >= FEWEST_SAMPLES
    assert unseen.probability_onside == (unseen.hits + 1) / (unseen.samples + 2)
    assert verdict.status is Status.UNDECIDABLE
    assert verdict.uncertainty is not None
    assert verdict.uncertainty.probability <= 1 - unseen.probability_onside
    assert f"{unseen.hits if unseen.hits else 'none'} of {unseen.samples} whole teams" in (
        verdict.reason
    )


def test_a_receiver_out_of_view_is_judged_where_he_could_have_stood() -> None:
    # The camera saw x <= 20; a2 is not in view at the pass and receives it 1.5 s later.
    data = seen({"d1": (15, 3), "gk": (19, 0), **shallow(9)}, 31.0, view_up_to(20), "gk")
    del data["touches"][0]["positions"]["a2"]
    # Every opponent is in view, and every spot out of view (x > 20) is beyond the line they
    # draw (x = 15): offside wherever he stood.
    beyond = judged(data)
    assert beyond.status is Status.OFFENCE and beyond.offender == "a2"
    assert "a2 was out of the camera's view when a1 passed it" in beyond.reason
    assert "received the ball 1.5 s later" in beyond.reason
    assert "all of it beyond the offside line" in beyond.reason
    # Two opponents out of view could both have stood deeper than him: undecidable.
    for pid in ("m0", "m1"):
        del data["touches"][0]["positions"][pid]
    open_ = judged(data)
    assert open_.status is Status.UNDECIDABLE and open_.offender is None
    assert "some of it beyond the offside line" in open_.reason
    data["touches"][0]["positions"].update(m0={"x": 0.0, "y": -20.0}, m1={"x": 2.0, "y": -16.0})
    # Received deep in his own half: nowhere he could have run from was beyond the line.
    data["touches"][1]["ball"] = [-45.0, 5.0]
    data["touches"][1]["positions"]["a2"] = {"x": -45.0, "y": 5.0}
    data["touches"][0]["view"] = view_up_to(-10)
    data["touches"][0]["positions"] = {
        k: v for k, v in data["touches"][0]["positions"].items() if v["x"] <= -10 or k == "a1"
    }
    data["touches"][0]["positions"].update(d1={"x": -12.0, "y": 0.0}, gk={"x": -11.0, "y": 0.0})
    behind = judged(data)
    assert behind.status is Status.NO_OFFENCE
    assert "none of it beyond the offside line" in behind.reason


def test_interference_between_two_touches_is_judged_at_the_play_before_it() -> None:
    """A cross from the right; a3, offside at the cross, dummies it at the near post; a2,
    onside, scores. Stated at the scorer's touch, the dummy would be judged at a2's shot."""
    cross = touch(
        "a1", "cross", (40, -30), 0.0, a1=(40, -30), a2=(38, 5), a3=(47, -2), d1=(45, 0), gk=(51, 0)
    )
    shot = touch(
        "a2", "shot", (46, 3), 1.0, a1=(40, -28), a2=(46, 3), a3=(45, -2), d1=(46, 1), gk=(51, 0)
    )
    dummy = {"player": "a3", "kind": "attempts_to_play_close"}
    at_shot = judged(situation([cross, {**shot, "involvement": [dummy]}]))
    timed = judged(situation([cross, {**shot, "involvement": [{**dummy, "t": 0.6}]}]))
    assert timed.status is Status.OFFENCE and timed.offender == "a3"
    assert timed.judged_at == 0 and timed.involved_at == 1
    # At a2's shot a3 is behind the ball: no offence when the time is not stated.
    assert at_shot.status is Status.NO_OFFENCE


def _deflected_throw_in() -> dict[str, Any]:
    throw = touch(
        "a1",
        "throw_in",
        (30, -34.2),
        0.0,
        a1=(30, -34.2),
        a2=(47, -3),
        d1=(45, 0),
        gk=(51, 0),
    )
    glance = touch(
        "d1", "deflection", (46, -8), 0.8, a1=(30, -33), a2=(47, -3), d1=(46, -8), gk=(51, 0)
    )
    shot = touch("a2", "shot", (47, -3), 1.2, a1=(30, -33), a2=(47, -3), d1=(46, -7), gk=(51, 0))
    return situation([throw, glance, shot])


def test_a_throw_in_deflected_on_the_way_is_not_received_directly_by_default() -> None:
    verdict = judged(_deflected_throw_in())
    assert verdict.status is Status.OFFENCE and verdict.offender == "a2"
    assert "did not receive the ball directly from a throw-in" in verdict.reason
    assert "received directly from a throw-in (Law 11.3)" not in verdict.reason


def test_the_setting_keeps_the_exemption_and_says_so() -> None:
    verdict = judged(_deflected_throw_in(), restart_touched=RestartTouched.KEEPS_EXEMPTION)
    assert verdict.status is Status.NO_OFFENCE
    assert "restart_touched: keeps_exemption" in verdict.reason
    assert "touched d1 on the way" in verdict.reason
    # Undeflected, the exemption is stated as the Law states it, under either setting.
    direct = copy.deepcopy(_deflected_throw_in())
    del direct["touches"][1]
    assert "received directly from a throw-in (Law 11.3)" in judged(direct).reason


# -- the property: a settled verdict holds wherever the unseen stand ---------------------------


@st.composite
def partial_views(draw: st.DrawFn) -> tuple[dict[str, Any], float, bool]:
    """A pass with a view up to `edge` (whole width), 2 to 10 defenders in it, and a
    receiver; returns the situation, the view's edge and whether the goalkeeper is in view."""
    edge = draw(st.floats(-10.0, 52.0))
    count = draw(st.integers(2, 10))
    keeper_in_view = draw(st.booleans())
    defenders = {
        f"d{k}": (
            draw(st.floats(-50.0, edge - 0.5).map(lambda v: round(v, 2))),
            draw(st.floats(-33.0, 33.0).map(lambda v: round(v, 2))),
        )
        for k in range(count)
    }
    receiver_x = round(draw(st.floats(0.5, edge - 0.5)) if edge > 1 else 0.5, 2)
    data = seen(defenders, receiver_x, view_up_to(edge), "d0" if keeper_in_view else None)
    return data, edge, keeper_in_view


@settings(max_examples=120, deadline=None)
@given(partial_views(), st.data())
def test_adding_unseen_opponents_never_makes_a_settled_onside_offside(case, draw) -> None:
    data, edge, keeper_in_view = case
    before = judged(data)
    in_view = sum(1 for p in data["touches"][0]["positions"] if p.startswith(("d", "m")))
    unseen = 11 - in_view
    added = draw.draw(st.integers(1, max(1, unseen))) if unseen else 0
    receiver_x = data["touches"][0]["positions"]["a2"]["x"]
    more = copy.deepcopy(data)
    for k in range(added):
        name = f"u{k}"
        keeper = k == 0 and not keeper_in_view
        # Out of view: beyond the view's edge; an unseen goalkeeper stands deep.
        low = max(edge + 0.5, receiver_x + 0.5) if keeper else edge + 0.5
        x_m = draw.draw(st.floats(min(low, HALF_LENGTH), HALF_LENGTH))
        more["touches"][0]["positions"][name] = {"x": x_m, "y": draw.draw(st.floats(-30, 30))}
        more["players"].append({"id": name, "team": "D", "goalkeeper": keeper})
    after = judged(more)
    if before.status is Status.NO_OFFENCE:
        assert after.status is not Status.OFFENCE
    if before.status is Status.OFFENCE:
        # Settled means proven: no placement of the unseen changes it.
        assert after.status is Status.OFFENCE
