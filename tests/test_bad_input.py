"""Bad input: one line naming the file and the JSON path, exit code 2, never a traceback."""

from __future__ import annotations

import copy
import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from situations import situation, through_ball, touch
from varroom.cli.main import cli
from varroom.errors import InputError
from varroom.formats.situation_json import (
    parse_situation,
    situation_from_dict,
    situation_to_dict,
)

GOOD = through_ball(attacker_x=30.8)


def broken(change):
    data = copy.deepcopy(GOOD)
    change(data)
    return data


CASES = {
    "wrong type for a coordinate": (
        lambda d: d["touches"][0]["positions"]["a2"].update(x="thirty"),
        "$.touches[0].positions.a2.x",
    ),
    "unknown action": (
        lambda d: d["touches"][1].update(action="backheel_wizardry"),
        "$.touches[1].action",
    ),
    "unknown body part": (
        lambda d: d["touches"][0]["positions"]["a2"].update(parts={"tail": 31.0}),
        "$.touches[0].positions.a2.parts.tail",
    ),
    "position for an unknown player": (
        lambda d: d["touches"][0]["positions"].update(ghost={"x": 1, "y": 1}),
        "$.touches[0].positions",
    ),
    "touches out of time order": (lambda d: d["touches"][1].update(t=-1.0), "$.touches[1].t"),
    "NaN coordinate": (
        lambda d: d["touches"][0]["ball"].__setitem__(0, float("nan")),
        "$.touches[0].ball[0]",
    ),
    "infinite coordinate": (
        lambda d: d["touches"][1]["positions"]["d1"].update(y=float("inf")),
        "$.touches[1].positions.d1.y",
    ),
    "one team": (lambda d: [p.update(team="A") for p in d["players"]], "$.players"),
    "three teams": (lambda d: d["players"][-1].update(team="Z"), "$.players"),
    "no touches": (lambda d: d.update(touches=[]), "$.touches"),
    "touches missing": (lambda d: d.pop("touches"), "$.touches"),
    "no ball": (lambda d: d["touches"][0].pop("ball"), "$.touches[0].ball"),
    "ball with one number": (lambda d: d["touches"][0].update(ball=[1.0]), "$.touches[0].ball"),
    "unknown toucher": (lambda d: d["touches"][0].update(player="nobody"), "$.touches[0].player"),
    "rebound with a player": (
        lambda d: d["touches"][1].update(action="woodwork"),
        "$.touches[1].player",
    ),
    "unknown off_field": (
        lambda d: d["touches"][0]["positions"]["d1"].update(off_field="sometimes"),
        "$.touches[0].positions.d1.off_field",
    ),
    "unknown involvement kind": (
        lambda d: d["touches"][1].update(involvement=[{"player": "a1", "kind": "stares"}]),
        "$.touches[1].involvement[0].kind",
    ),
    "negative pitch": (lambda d: d.update(pitch={"length": -105}), "$.pitch.length"),
    "unknown attacking team": (lambda d: d["attack"].update(team="X"), "$.attack.team"),
    "bad direction": (lambda d: d["attack"].update(towards="north"), "$.attack.towards"),
    "duplicate player": (lambda d: d["players"].append(dict(d["players"][0])), "$.players[4].id"),
    "boolean as a number": (lambda d: d["touches"][0].update(t=True), "$.touches[0].t"),
    "root is a list": (lambda d: None, "$"),
    # Impossible input (format 1.1 notes): errors, not verdicts.
    "a player far off the pitch (Kane at x = 500)": (
        lambda d: d["touches"][0]["positions"]["a2"].update(x=500),
        "$.touches[0].positions.a2",
    ),
    "a ball 100 m away": (
        lambda d: d["touches"][0].update(ball=[110.0, 60.0]),
        "$.touches[0].ball",
    ),
    "a body part metres from its player": (
        lambda d: d["touches"][0]["positions"]["a2"].update(parts={"head": 40.0}),
        "$.touches[0].positions.a2.parts.head",
    ),
    "a team size Law 3 does not allow": (
        lambda d: d.update(team_sizes={"D": 12}),
        "$.team_sizes.D",
    ),
    "a team size for an unknown team": (
        lambda d: d.update(team_sizes={"Q": 11}),
        "$.team_sizes.Q",
    ),
    "a view of two corners": (
        lambda d: d["touches"][0].update(view={"area": [[0, 0], [1, 1]]}),
        "$.touches[0].view.area",
    ),
    "a version the reader does not know": (
        lambda d: d.update(version="2.0"),
        "$.version",
    ),
    "no attack in a 1.2 file (required from 1.2 on)": (
        lambda d: (d.update(version="1.2"), d.pop("attack", None)),
        "$.attack",
    ),
    "an interference timed after its touch": (
        lambda d: d["touches"][1].update(
            involvement=[{"player": "a2", "kind": "challenges_opponent", "t": 9.0}]
        ),
        "$.touches[1].involvement[0].t",
    ),
}


@pytest.mark.parametrize("name", list(CASES))
def test_each_bad_field_gets_exit_2_and_one_line_with_the_path(name, runner, tmp_path):
    change, where = CASES[name]
    data = [GOOD] if name == "root is a list" else broken(change)
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(data, allow_nan=True))
    result = runner.invoke(
        cli, ["check", str(path), "--json", "--image", str(tmp_path / "out.png")]
    )
    assert result.exit_code == 2
    assert result.stdout == ""
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert str(path) in lines[0] and f": {where}:" in lines[0]
    assert "Traceback" not in result.stderr
    assert not (tmp_path / "out.png").exists()


def test_not_json(runner, tmp_path):
    path = tmp_path / "bad.json"
    path.write_text("{'players': [}")
    result = runner.invoke(cli, ["check", str(path)])
    assert result.exit_code == 2
    assert result.stderr.startswith(f"varroom: {path}: $: not JSON")


def test_missing_file(runner, tmp_path):
    result = runner.invoke(cli, ["check", str(tmp_path / "nowhere.json")])
    assert result.exit_code == 2
    assert "nowhere.json" in result.stderr and "No such file" in result.stderr


def test_not_utf8(runner, tmp_path):
    path = tmp_path / "bad.json"
    path.write_bytes(b"\xff\xfe\x00garbage")
    result = runner.invoke(cli, ["check", str(path)])
    assert result.exit_code == 2 and "not JSON" in result.stderr


def _mangle(data, draw):
    """Replace, delete or retype one value somewhere in the situation."""
    node = data
    while True:
        keys = list(node) if isinstance(node, dict) else list(range(len(node)))
        if not keys:
            return
        key = draw(st.sampled_from(keys))
        child = node[key]
        if isinstance(child, dict | list) and child and draw(st.booleans()):
            node = child
            continue
        replacement = draw(
            st.one_of(
                st.none(),
                st.booleans(),
                st.integers(-(10**6), 10**6),
                st.floats(allow_nan=True, allow_infinity=True),
                st.text(max_size=5),
                st.just([]),
                st.just({}),
                st.just("DELETE"),
            )
        )
        if replacement == "DELETE" and isinstance(node, dict):
            del node[key]
        elif replacement == "DELETE":
            node.pop(key)
        else:
            node[key] = replacement
        return


@settings(max_examples=400, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_mangled_situations_never_raise_anything_but_input_error(draw):
    data = copy.deepcopy(GOOD)
    for _ in range(draw.draw(st.integers(1, 3))):
        _mangle(data, draw.draw)
    try:
        situation_from_dict(data, "mangled.json")
    except InputError as error:
        assert str(error).startswith("mangled.json: $")
        assert "\n" not in str(error)


@settings(max_examples=100)
@given(st.text(max_size=60))
def test_arbitrary_text_is_input_error_or_a_situation(text):
    try:
        parse_situation(text, "text.json")
    except InputError as error:
        assert str(error).startswith("text.json: $")


def test_good_situation_still_parses():
    assert parse_situation(
        json.dumps(situation([touch("a1", "pass", (0, 0), a1=(0, 0), d1=(1, 1))]))
    )


def test_a_player_in_two_places_is_one_line_exit_2(runner, tmp_path):
    """The same player listed twice at one touch: JSON would keep the last silently."""
    text = json.dumps(GOOD).replace(
        '"a2": {"x": 30.8, "y": 5}', '"a2": {"x": 30.8, "y": 5}, "a2": {"x": -3.0, "y": 5}', 1
    )
    assert text.count('"a2": {') == 3
    path = tmp_path / "twice.json"
    path.write_text(text)
    result = runner.invoke(cli, ["check", str(path), "--json"])
    assert result.exit_code == 2 and result.stdout == ""
    [line] = result.stderr.strip().splitlines()
    assert f"{path}: $.touches[0].positions.a2: a player listed twice" in line


def test_more_players_in_view_than_the_team_has(runner, tmp_path):
    data = broken(lambda d: d.update(team_sizes={"D": 7}))
    for k in range(6):
        data["touches"][0]["positions"][f"d{k + 2}"] = {"x": 20.0 + k, "y": 1.0}
        data["players"].append({"id": f"d{k + 2}", "team": "D"})
    path = tmp_path / "crowd.json"
    path.write_text(json.dumps(data))
    result = runner.invoke(cli, ["check", str(path)])
    assert result.exit_code == 2
    [line] = result.stderr.strip().splitlines()
    assert "$.touches[0].positions: 8 players of D on the pitch, but it has 7" in line


def test_a_file_before_1_2_keeps_its_default_attack():
    """Versions 1 and 1.1 default `attack` (the first player's team, towards +x); the file
    the writer makes (1.2) always states it."""
    for version in ("1", "1.0", "1.1"):
        data = broken(lambda d, v=version: (d.update(version=v), d.pop("attack", None)))
        situation_ = situation_from_dict(data)
        assert situation_.attack_direction.value == "+x"
    written = situation_to_dict(situation_from_dict(GOOD))
    assert written["version"] == "1.2" and "attack" in written
    assert situation_from_dict(written) == situation_from_dict(GOOD)


# What the reader refuses that a JSON Schema cannot say: a reference from one part of the file
# to another (an id, a team), the order of touches, the count of teams, where a player stands.
SCHEMA_CANNOT_SAY = {
    "position for an unknown player",
    "touches out of time order",
    "one team",
    "three teams",
    "unknown toucher",
    "rebound with a player",
    "unknown attacking team",
    "duplicate player",
    "a player far off the pitch (Kane at x = 500)",
    "a ball 100 m away",
    "a body part metres from its player",
    "a team size for an unknown team",
    "an interference timed after its touch",
}


@pytest.mark.parametrize("name", CASES)
def test_each_bad_field_is_refused_by_the_schema_too(name):
    """Issue 28: the readers and the schema cannot drift. Every case above the schema can
    state is refused by it as by the reader, and the ones it cannot are named here."""
    import jsonschema_rs

    from varroom.schemas import schema

    change, _ = CASES[name]
    data = [GOOD] if name == "root is a list" else broken(change)
    valid = jsonschema_rs.validator_for(schema("situation")).is_valid(
        json.loads(json.dumps(data, allow_nan=True))
    )
    assert valid is (name in SCHEMA_CANNOT_SAY)
