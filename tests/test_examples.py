"""The shipped examples: every file in examples/ has its expected verdict here, and gets it.

Each example shows one point of Law 11 (see examples/README.md). Margins were worked out by
hand: the attacker's most advanced counting part against the deepest of the ball, the
second-last opponent's deepest counting part and the halfway line; level is onside; arms and
hands never count, for anyone.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

import pytest

import varroom

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"

# How the verdict's margin_m must compare with 0. With an offence it is the offender's margin
# (always positive). Without one it is the nearest attacker's, and only asserted where every
# judgement in the example agrees on its sign.
POSITIVE, NEGATIVE, NOT_POSITIVE = "> 0", "< 0", "<= 0"


@dataclass(frozen=True)
class Expected:
    offence: bool
    offender: str | None = None
    judged_at: int | None = None
    involved_at: int | None = None
    margin_sign: str | None = None
    margin_m: float | None = None  # where the hand-worked value is unambiguous


def offence(
    offender: str, judged_at: int, involved_at: int, margin_m: float | None = None
) -> Expected:
    return Expected(True, offender, judged_at, involved_at, POSITIVE, margin_m)


def no_offence(margin_sign: str | None = None) -> Expected:
    return Expected(False, margin_sign=margin_sign)


EXPECTED: dict[str, Expected] = {
    # Law 11.1: offside position.
    "through-ball-beyond-second-last-defender-offence": offence("hale", 0, 1, 0.80),
    "goalkeeper-up-field-outfield-defenders-set-the-line-offence": offence("hale", 0, 1, 1.00),
    "own-half-at-the-pass-no-offence": no_offence(NEGATIVE),
    "on-the-halfway-line-no-offence": no_offence(NOT_POSITIVE),
    "level-with-second-last-defender-onside": no_offence(NOT_POSITIVE),
    "ahead-of-the-ball-square-pass-offence": offence("hale", 0, 1, 0.60),
    "head-beyond-centroid-onside-offence": offence("hale", 0, 1, 0.06),
    "only-arm-beyond-onside": no_offence(NEGATIVE),
    "defender-arm-deepest-offence": offence("hale", 0, 1, 0.14),
    "attacking-towards-minus-x-offence": offence("hale", 0, 1, 0.80),
    # Law 11.2: offside offence.
    "obstructing-goalkeepers-line-of-vision-offence": offence("hale", 1, 1),
    "offside-position-not-interfering-no-offence": no_offence(POSITIVE),
    "deflection-off-defender-gaining-advantage-offence": offence("hale", 0, 2, 2.00),
    "rebound-off-woodwork-gaining-advantage-offence": offence("hale", 0, 2, 1.20),
    "goalkeeper-save-gaining-advantage-offence": offence("hale", 0, 2, 1.50),
    "reset-by-defenders-deliberate-clearance-no-offence": no_offence(),
    "new-play-by-team-mate-no-offence": no_offence(),
    # Law 11.3: restarts.
    "corner-kick-direct-no-offence": no_offence(),
    "throw-in-direct-no-offence": no_offence(),
    "goal-kick-direct-no-offence": no_offence(),
    "free-kick-offside-applies-offence": offence("hale", 0, 1, 0.70),
    "short-corner-then-cross-offence": offence("hale", 1, 2, 0.80),
    # Law 11.4: off the field; offences and sanctions.
    "defender-off-field-without-permission-counts-on-goal-line": no_offence(NEGATIVE),
    "attacker-stepped-off-returns-offence": offence("hale", 0, 1, 8.50),
    "offence-in-own-half-free-kick-there": offence("hale", 0, 1, 1.50),
    # A real incident.
    "tottenham-sporting-2022-kane": offence("kane", 1, 3),
}


def example_path(name: str) -> Path:
    return EXAMPLES / f"{name}.json"


def verdict(name: str) -> varroom.Verdict:
    return varroom.judge(varroom.load_situation(example_path(name)))


def test_every_example_has_an_expectation() -> None:
    files = {path.stem for path in EXAMPLES.glob("*.json")}
    assert files - EXPECTED.keys() == set(), "examples without an expected verdict in EXPECTED"
    assert EXPECTED.keys() - files == set(), "expected verdicts for examples that do not exist"


def test_readme_lists_every_example() -> None:
    readme = (EXAMPLES / "README.md").read_text(encoding="utf-8")
    missing = [name for name in EXPECTED if f"{name}.json" not in readme]
    assert missing == []


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_example_is_a_plausible_situation(name: str) -> None:
    """The file itself: valid JSON, real pitch, named players, a description, a line to judge."""
    data = json.loads(example_path(name).read_text(encoding="utf-8"))
    assert data.get("pitch", {"length": 105.0, "width": 68.0}) == {"length": 105.0, "width": 68.0}
    assert data["meta"]["description"]
    assert all(p.get("name") and isinstance(p.get("number"), int) for p in data["players"])
    attacking = data["attack"]["team"]
    defenders = {p["id"] for p in data["players"] if p["team"] != attacking}
    for touch in data["touches"]:
        assert len(defenders & touch["positions"].keys()) >= 2
    times = [touch["t"] for touch in data["touches"]]
    assert times == sorted(times)


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_example_verdict(name: str) -> None:
    expected = EXPECTED[name]
    v = verdict(name)
    assert v.offence is expected.offence, v.reason
    assert v.offender == expected.offender, v.reason
    if expected.offence:
        assert v.judged_at == expected.judged_at, v.reason
        assert v.involved_at == expected.involved_at, v.reason
        assert v.to_dict()["restart"] == "indirect_free_kick"
    else:
        assert v.involved_at is None
    if expected.margin_sign is not None:
        assert v.margin_m is not None
        sign_holds = {
            POSITIVE: v.margin_m > 0,
            NEGATIVE: v.margin_m < 0,
            NOT_POSITIVE: v.margin_m <= 0,
        }[expected.margin_sign]
        assert sign_holds, f"margin_m {v.margin_m} is not {expected.margin_sign}: {v.reason}"
    if expected.margin_m is not None:
        assert v.margin_m == pytest.approx(expected.margin_m, abs=0.005), v.reason
    assert v.reason


def test_kane_offside_by_centimetres_after_a_deflection() -> None:
    v = verdict("tottenham-sporting-2022-kane")
    assert v.offence is True
    assert v.offender == "kane"
    assert v.judged_at == 1  # Emerson's header: the ball, not a defender, set the line
    assert v.involved_at == 3  # Kane's shot, after the ball came off Inácio
    assert v.margin_m is not None and 0.01 < v.margin_m < 0.10
    assert "deflection" in v.reason.lower()
    assert v.to_dict()["restart"] == "indirect_free_kick"


def test_offence_in_own_half_is_penalised_where_it_happened() -> None:
    """Law 11.4: the indirect free kick is where he played the ball, in his own half."""
    data = json.loads(example_path("offence-in-own-half-free-kick-there").read_text("utf-8"))
    assert data["attack"]["towards"] == "+x"
    v = verdict("offence-in-own-half-free-kick-there")
    spot = v.to_dict()["restart_spot_m"]
    assert spot is not None and spot[0] < 0
