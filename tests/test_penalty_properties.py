"""Properties of the penalty judge: moving the goalkeeper's feet back never makes an offence of
a legal position, and the outcome never depends on team names or the direction of attack."""

from __future__ import annotations

import copy
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from penalties import ATTACK, DEFENCE, FRONT_EDGE, judged, keeper_feet, mirrored, penalty

RESULTS = st.sampled_from(["goal", "saved", "missed", "woodwork", "in_play"])
# Heels from 60 cm in front of the line's front edge to 40 cm behind it.
HEEL = st.floats(-0.6, 0.4, allow_nan=False)
SPOT = st.tuples(st.floats(20.0, 53.0), st.floats(-35.0, 35.0))
FACTS = st.fixed_dictionaries(
    {},
    optional={
        "feint_after_run_up": st.booleans(),
        "clearly_affected_kicker": st.booleans(),
        "clearly_affected_keeper": st.booleans(),
        "keeper_warned_before": st.booleans(),
        "keeper_touching_frame": st.booleans(),
        "double_touch": st.sampled_from(["deliberate", "accidental"]),
        "encroacher_involved": st.lists(st.sampled_from(["reyes", "lindqvist"]), unique=True),
    },
)


@st.composite
def kicks(draw: st.DrawFn) -> dict[str, Any]:
    left, right = draw(HEEL), draw(HEEL)
    y = draw(st.floats(-3.0, 3.0))
    feet = keeper_feet(FRONT_EDGE + left, FRONT_EDGE + right)
    for part in feet.values():
        part[1] += y  # the feet stand under the goalkeeper, wherever along the line he is
    keeper = {"x": FRONT_EDGE - 0.2, "y": y, "parts": feet}
    others = {
        "reyes": (ATTACK, draw(SPOT)),
        "okafor": (ATTACK, (31.0, 6.0)),
        "lindqvist": (DEFENCE, draw(SPOT)),
        "moreau": (DEFENCE, (31.5, 3.0)),
    }
    return penalty(draw(RESULTS), keeper, others, draw(FACTS))


def outcome(data: dict[str, Any]) -> tuple[Any, ...]:
    v = judged(data)
    return (
        v.decision,
        v.cautions,
        v.warnings,
        tuple(sorted((o.player, o.what.value, o.penalised) for o in v.offences)),
    )


@settings(max_examples=150, deadline=None)
@given(kicks(), st.floats(0.0, 1.0), st.floats(0.0, 1.0), st.booleans())
def test_moving_the_goalkeepers_feet_back_never_makes_an_offence(
    data: dict[str, Any], back_left: float, back_right: float, towards_minus_x: bool
) -> None:
    sign = -1.0 if towards_minus_x else 1.0
    data = mirrored(data) if towards_minus_x else data
    before = judged(data)
    moved = copy.deepcopy(data)
    keeper = moved["positions"]["brandt"]
    for name, part in keeper["parts"].items():
        part[0] += sign * (back_left if name.startswith("left") else back_right)
    # The body moves with its feet, as a real goalkeeper's would (a foot more than 2.5 m from
    # its player is refused as bad input).
    keeper["x"] += sign * (back_left + back_right) / 2
    after = judged(moved)
    assert before.keeper_measure is not None and after.keeper_measure is not None
    assert after.keeper_measure.margin_m <= before.keeper_measure.margin_m + 1e-12
    off = [o for o in after.offences if o.what.value == "goalkeeper_off_line"]
    if before.keeper_measure.margin_m <= 0:
        assert off == []


def renamed(data: dict[str, Any]) -> dict[str, Any]:
    """The same kick with other team names."""
    out = copy.deepcopy(data)
    names = {ATTACK: "Zebras", DEFENCE: "Aardvarks"}
    out["attack"]["team"] = names[out["attack"]["team"]]
    for player in out["players"]:
        player["team"] = names[player["team"]]
    return out


@settings(max_examples=150, deadline=None)
@given(kicks())
def test_the_outcome_never_depends_on_team_names_or_direction(data: dict[str, Any]) -> None:
    expected = outcome(data)
    assert outcome(mirrored(data)) == expected
    assert outcome(renamed(data)) == expected
    assert outcome(renamed(mirrored(data))) == expected
