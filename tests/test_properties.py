"""Invariants of Law 11 that hold for every situation (hypothesis)."""

from __future__ import annotations

import copy

from hypothesis import assume, given, settings
from hypothesis import strategies as st

import varroom
from situations import ARMS, load, mirrored, situations
from varroom.engine.judgement import judge_positions
from varroom.formats.situation_json import PART_REACH_M
from varroom.model.settings import LawSettings


def outcome(verdict: varroom.Verdict) -> tuple:
    margin = None if verdict.margin_m is None else round(verdict.margin_m, 9)
    return (
        verdict.status,
        verdict.offender,
        verdict.judged_at,
        verdict.involved_at,
        verdict.involvement,
        margin,
    )


@settings(max_examples=300)
@given(situations(), st.sampled_from(["x", "y"]))
def test_mirroring_the_pitch_never_changes_a_verdict(data, axis):
    assert outcome(varroom.judge(load(data))) == outcome(varroom.judge(load(mirrored(data, axis))))


@settings(max_examples=300)
@given(situations(), st.data())
def test_moving_an_attacker_away_from_goal_never_makes_him_offside(data, draw):
    original = load(data)
    index = draw.draw(st.integers(0, len(data["touches"]) - 1))
    attackers = [p for p in data["touches"][index]["positions"] if p.startswith("a")]
    if not attackers:
        return
    mover = draw.draw(st.sampled_from(attackers))
    step_m = draw.draw(st.floats(0.001, 30.0))
    moved = copy.deepcopy(data)
    sign = 1.0 if data["attack"]["towards"] == "+x" else -1.0
    position = moved["touches"][index]["positions"][mover]
    assume(abs(position["x"] - sign * step_m) <= 60)  # on the pitch, or a few metres off
    position["x"] -= sign * step_m
    position["parts"] = {n: v - sign * step_m for n, v in position.get("parts", {}).items()}
    before = judge_positions(original, index, LawSettings()).attackers.get(mover)
    after = judge_positions(load(moved), index, LawSettings()).attackers.get(mover)
    if before is not None and not before.offside_position:
        assert not after.offside_position
    if varroom.judge(original).offence is False:
        assert varroom.judge(load(moved)).offence is False


@settings(max_examples=300)
@given(situations(), st.data())
def test_arm_and_hand_parts_never_change_a_verdict(data, draw):
    armed = copy.deepcopy(data)
    for t in armed["touches"]:
        for position in t["positions"].values():
            for arm in draw.draw(st.lists(st.sampled_from(ARMS), max_size=3, unique=True)):
                # Anywhere an arm can reach, even far ahead of every counting part.
                reach = draw.draw(st.floats(-PART_REACH_M, PART_REACH_M))
                part_x = position["x"] + reach
                # Within reach as the reader measures it: x + 2.5 - x can round to 2.5000000000000004.
                assume(abs(part_x - position["x"]) <= PART_REACH_M)
                position.setdefault("parts", {})[arm] = part_x
    assert outcome(varroom.judge(load(data))) == outcome(varroom.judge(load(armed)))


@settings(max_examples=200)
@given(situations(), st.data())
def test_level_is_always_onside(data, draw):
    situation = load(data)
    judgement = judge_positions(situation, 0, LawSettings())
    if judgement.line is None or not judgement.attackers:
        return
    level = copy.deepcopy(data)
    who = draw.draw(st.sampled_from(sorted(judgement.attackers)))
    level["touches"][0]["positions"][who] = {"x": judgement.line.x_m, "y": 0.0}
    placed = judge_positions(load(level), 0, LawSettings())
    if placed.line is not None and placed.line.x_m == judgement.line.x_m:
        assert placed.attackers[who].margin_m == 0.0
        assert not placed.attackers[who].offside_position


@settings(max_examples=200)
@given(situations(), st.randoms())
def test_renaming_players_changes_nothing(data, rng):
    ids = [p["id"] for p in data["players"]]
    names = [f"player-{k}" for k in range(len(ids))]
    rng.shuffle(names)
    rename = dict(zip(ids, names, strict=True))
    renamed = copy.deepcopy(data)
    for p in renamed["players"]:
        p["id"] = rename[p["id"]]
    rng.shuffle(renamed["players"])
    renamed["players"].sort(key=lambda p: p["team"] != "A")  # the attacking team stays first
    for t in renamed["touches"]:
        t["player"] = None if t["player"] is None else rename[t["player"]]
        items = [(rename[k], v) for k, v in t["positions"].items()]
        rng.shuffle(items)
        t["positions"] = dict(items)
        for fact in t.get("involvement", []):
            fact["player"] = rename[fact["player"]]
    before, after = varroom.judge(load(data)), varroom.judge(load(renamed))
    assert (before.status, before.judged_at, before.involved_at) == (
        after.status,
        after.judged_at,
        after.involved_at,
    )
    assert (None if before.offender is None else rename[before.offender]) == after.offender
    assert outcome(before)[-1] == outcome(after)[-1]
