"""Bad penalty-kick files: one line naming the file and the JSON path, exit 2, no traceback."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from penalties import penalty
from varroom.cli.main import cli
from varroom.errors import InputError
from varroom.formats.penalty_json import penalty_kick_from_dict

GOOD = penalty("saved", facts={"encroacher_involved": ["reyes"]})


def broken(change: Any) -> dict[str, Any]:
    data = copy.deepcopy(GOOD)
    change(data)
    return data


CASES = {
    "no kick": (lambda d: d.pop("kick"), "$.kick"),
    "no kicker": (lambda d: d["kick"].pop("kicker"), "$.kick.kicker"),
    "unknown kicker": (lambda d: d["kick"].update(kicker="nobody"), "$.kick.kicker"),
    "kicker of the other team": (lambda d: d["kick"].update(kicker="lindqvist"), "$.kick.kicker"),
    "identified kicker of the other team": (
        lambda d: d["kick"].update(identified_kicker="brandt"),
        "$.kick.identified_kicker",
    ),
    "ball missing": (lambda d: d["kick"].pop("ball"), "$.kick.ball"),
    "ball with one number": (lambda d: d["kick"].update(ball=[41.5]), "$.kick.ball"),
    "unknown result": (lambda d: d.update(result="top_bins"), "$.result"),
    "no result": (lambda d: d.pop("result"), "$.result"),
    "foot part not a number": (
        lambda d: d["positions"]["brandt"]["parts"]["left_heel"].__setitem__(0, "x"),
        "$.positions.brandt.parts.left_heel[0]",
    ),
    "position for an unknown player": (
        lambda d: d["positions"].update(ghost={"x": 1, "y": 1}),
        "$.positions",
    ),
    "fact not a boolean": (
        lambda d: d["facts"].update(feint_after_run_up="yes"),
        "$.facts.feint_after_run_up",
    ),
    "unknown double touch": (
        lambda d: d["facts"].update(double_touch="twice"),
        "$.facts.double_touch",
    ),
    "unknown encroacher": (
        lambda d: d["facts"].update(encroacher_involved=["reyes", "ghost"]),
        "$.facts.encroacher_involved[1]",
    ),
    "negative line width": (lambda d: d.update(pitch={"line_width": -0.1}), "$.pitch.line_width"),
    "ball_after with one number": (lambda d: d.update(ball_after=[1.0]), "$.ball_after"),
    "wrong kind": (lambda d: d.update(kind="penalty"), "$.kind"),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_bad_field_names_its_json_path(case: str) -> None:
    change, where = CASES[case]
    with pytest.raises(InputError) as error:
        penalty_kick_from_dict(broken(change), "kick.json")
    assert error.value.where == where
    assert error.value.exit_code == 2


@pytest.mark.parametrize("case", ["unknown result", "foot part not a number", "no kicker"])
def test_check_prints_one_line_and_exits_2(case: str, runner: Any, write_json: Any) -> None:
    change, where = CASES[case]
    path = write_json(broken(change), "kick.json")
    result = runner.invoke(cli, ["check", str(path)])
    assert result.exit_code == 2
    lines = result.output.strip().splitlines()
    assert len(lines) == 1
    assert str(path) in lines[0] and where in lines[0]
    assert "Traceback" not in result.output


def test_the_good_file_is_good() -> None:
    kick = penalty_kick_from_dict(GOOD)
    assert kick.kicker == "hale" and kick.facts.encroacher_involved == {"reyes"}


# What the reader refuses that a JSON Schema cannot say: a reference to a player, his team.
SCHEMA_CANNOT_SAY = {
    "unknown kicker",
    "kicker of the other team",
    "identified kicker of the other team",
    "position for an unknown player",
    "unknown encroacher",
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_each_bad_field_is_refused_by_the_schema_too(case: str) -> None:
    """Issue 28: every case above the schema can state is refused by it as by the reader."""
    import jsonschema_rs

    from varroom.schemas import schema

    change, _ = CASES[case]
    check = jsonschema_rs.validator_for(schema("penalty_kick"))
    assert check.is_valid(broken(change)) is (case in SCHEMA_CANNOT_SAY)
