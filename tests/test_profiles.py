"""Competition profiles (issue 25): the file, the built-in ones, `varroom profiles`, and
`--profile` changing a verdict where the profile says it should, recorded in the output.

The judging claims are checked on situations built here, not by `varroom.synthetic`, against
an oracle that measures the margin itself.
"""

from __future__ import annotations

import dataclasses
import json
import tomllib
from enum import Enum
from pathlib import Path
from typing import Any

import jsonschema_rs
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from PIL import Image

from test_strict_formats import one_slip
from varroom.errors import InputError
from varroom.formats.load import case_from_dict
from varroom.kinds import SITUATION
from varroom.model.noise import TrackingSource
from varroom.model.penalty import PenaltySettings
from varroom.model.settings import LawSettings
from varroom.profiles import BUILTIN, builtin_names, builtin_profile, ifab, load_profile
from varroom.profiles.profile import Profile
from varroom.profiles.reader import profile_from_text
from varroom.profiles.toml_text import profile_to_toml
from varroom.schemas import schema

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples"
KANE = EXAMPLES / "tottenham-sporting-2022-kane.json"
PROFILE_SCHEMA = jsonschema_rs.validator_for(schema("profile"))


def test_ifab_is_the_laws_as_written_and_every_default() -> None:
    profile = ifab()
    assert profile.law == LawSettings()
    assert profile.penalty == PenaltySettings()
    assert str(profile.policy) == "ifab"
    assert builtin_names()[0] == "ifab"
    assert {"ifab", "tolerance-5cm", "daylight"} <= set(builtin_names())


@pytest.mark.parametrize("name", builtin_names())
def test_each_built_in_profile_says_where_it_comes_from_and_validates(name: str) -> None:
    profile = builtin_profile(name)
    assert profile.name == name
    assert "example" in profile.source.lower() or name == "ifab"
    data = tomllib.loads((BUILTIN / f"{name}.toml").read_text())
    assert PROFILE_SCHEMA.is_valid(data)
    shown = profile_to_toml(profile)
    assert PROFILE_SCHEMA.is_valid(tomllib.loads(shown))
    assert profile_from_text(shown, "shown").sha256 == profile.sha256


def _choices(default: LawSettings | PenaltySettings) -> st.SearchStrategy[Any]:
    fields: dict[str, st.SearchStrategy[Any]] = {}
    for name in default.__slots__:
        value = getattr(default, name)
        if isinstance(value, Enum):
            fields[name] = st.sampled_from(list(type(value)))
        else:
            fields[name] = st.floats(0.0, 20.0, allow_nan=False)
    return st.fixed_dictionaries(fields).map(lambda chosen: dataclasses.replace(default, **chosen))


@st.composite
def profiles(draw: st.DrawFn) -> Profile:
    policy_text = draw(
        st.sampled_from(["ifab", "daylight", "tolerance:3cm", "tolerance:0.1m", "confidence:0.9"])
    )
    base = ifab()
    sd = draw(st.floats(0.0, 2.0, allow_nan=False))
    tracking = dict(base.noise.tracking)
    source = draw(st.sampled_from(list(TrackingSource)))
    tracking[source] = dataclasses.replace(tracking[source], position_sd_m=sd)
    from varroom.engine.policy import Policy

    return Profile(
        name=draw(st.text("abcdefgh-", min_size=1, max_size=12)),
        version=draw(st.sampled_from(["1", "2026/27"])),
        source=draw(st.text(min_size=1, max_size=40).filter(str.strip)),
        policy=Policy.parse(policy_text),
        law=draw(_choices(LawSettings())),
        penalty=draw(_choices(PenaltySettings())),
        noise=dataclasses.replace(base.noise, tracking=tracking),
    )


@settings(max_examples=60, deadline=None)
@given(profiles())
def test_a_profile_written_out_reads_back_the_same_with_the_same_hash(profile: Profile) -> None:
    text = profile_to_toml(profile)
    again = profile_from_text(text, "written")
    assert again == profile
    assert again.sha256 == profile.sha256
    assert PROFILE_SCHEMA.is_valid(tomllib.loads(text))


@settings(max_examples=40, deadline=None)
@given(profiles(), st.data())
def test_the_hash_tells_apart_any_two_profiles_that_judge_differently(
    profile: Profile, data: st.DataObject
) -> None:
    other = data.draw(profiles())
    if other.to_dict() != profile.to_dict():
        assert other.sha256 != profile.sha256
    # Comments and the order of keys are not content.
    text = profile_to_toml(profile)
    assert profile_from_text("# a note\n" + text, "noted").sha256 == profile.sha256


@settings(max_examples=60, deadline=None)
@given(st.data())
def test_a_slip_in_any_key_of_a_profile_is_refused_by_the_reader_and_the_schema(
    data: st.DataObject,
) -> None:
    """Unlike the data formats, a profile has no key of a file's own: every unknown key is an
    error, so a mistyped setting never judges under the default."""
    name = data.draw(st.sampled_from(builtin_names()))
    full = tomllib.loads(profile_to_toml(builtin_profile(name)))
    slip = data.draw(one_slip(full))
    if slip is None:
        return
    mangled, path = slip
    assert not PROFILE_SCHEMA.is_valid(mangled)
    with pytest.raises(InputError) as raised:
        from varroom.profiles.reader import _ProfileReader

        _ProfileReader("p.toml").profile(mangled)
    assert raised.value.where == "$." + ".".join(path)


def test_a_mistyped_or_unknown_key_fails_the_command_with_exit_2_naming_it(
    run_cli: Any, tmp_path: Path
) -> None:
    for text, where in (
        ('name = "x"\nversion = "1"\nsource = "s"\n[law]\nball_pont = "centre"\n', "$.law.ball_pont"),
        ('name = "x"\nversion = "1"\nsource = "s"\nnotes = "mine"\n', "$.notes"),
        ('name = "x"\nversion = "1"\nsource = "s"\n[offside]\npolicy = "tolerence:5cm"\n', "$.offside.policy"),
        ('name = "x"\nversion = "1"\nsource = "s"\n[penalty_kick]\nencroachment_rule = "evry"\n', "$.penalty_kick.encroachment_rule"),
        ('name = "x"\nversion = "1"\n', "$.source"),
        ('name = "x"\nversion = 1\nsource = "s"\n', "$.version"),
        ("name = \n", "$"),
    ):  # fmt: skip
        path = tmp_path / "competition.toml"
        path.write_text(text)
        for command in (["check", str(KANE)], ["profiles", "show"]):
            result = run_cli(*command, "--profile" if command[0] == "check" else str(path),
                             *([str(path)] if command[0] == "check" else []))  # fmt: skip
            assert result.exit_code == 2, (text, result.output)
            lines = result.stderr.strip().splitlines()
            assert len(lines) == 1 and lines[0].startswith(f"varroom: {path}: {where}"), lines
            assert result.stdout == ""


def test_an_unknown_profile_name_says_which_there_are(run_cli: Any) -> None:
    result = run_cli("check", str(KANE), "--profile", "tolerance-5")
    assert result.exit_code == 2
    assert "did you mean 'tolerance-5cm'?" in result.stderr
    assert "ifab" in result.stderr and result.stdout == ""


def test_profiles_list_and_show(run_cli: Any) -> None:
    listed = run_cli("profiles", "list")
    assert listed.exit_code == 0
    rows = [line.split("\t") for line in listed.stdout.splitlines()]
    assert [row[0] for row in rows] == builtin_names()
    for row in rows:
        assert builtin_profile(row[0]).sha256.startswith(row[2])
    shown = run_cli("profiles", "show", "tolerance-5cm")
    assert shown.exit_code == 0
    assert profile_from_text(shown.stdout, "shown") == builtin_profile("tolerance-5cm")
    assert 'policy = "tolerance:5cm"' in shown.stdout


# -- an independent generator and oracle: a through ball and a receiver beyond the line ----


def _through_ball(second_last_x: float, beyond_m: float, passer_x: float) -> dict[str, Any]:
    """Seven a side, attacking +x: the passer plays the ball to a receiver `beyond_m` past the
    second-last defender (negative: behind him), who shoots. Every other attacker is well
    behind the line; the goalkeeper is on his line."""
    defenders = {f"d{i}": (second_last_x - 2.0 - 3.0 * i, -20.0 + 7.0 * i) for i in range(5)}
    defenders["second_last"] = (second_last_x, 4.0)
    defenders["keeper"] = (52.0, 0.0)
    attackers = {f"a{i}": (passer_x - 4.0 - 3.0 * i, 25.0 - 9.0 * i) for i in range(5)}
    attackers["passer"] = (passer_x, -3.0)
    attackers["receiver"] = (second_last_x + beyond_m, 9.0)
    players = [{"id": pid, "team": "ATT"} for pid in attackers] + [
        {"id": pid, "team": "DEF", "goalkeeper": pid == "keeper"} for pid in defenders
    ]
    positions = {pid: {"x": x, "y": y} for pid, (x, y) in {**attackers, **defenders}.items()}
    receiver = attackers["receiver"]
    return {
        "version": "1.2",
        "attack": {"team": "ATT", "towards": "+x"},
        "team_sizes": {"ATT": 7, "DEF": 7},
        "players": players,
        "touches": [
            {"t": 0.0, "player": "passer", "action": "pass",
             "ball": [passer_x + 0.3, -3.0, 0.11], "positions": positions},
            {"t": 1.2, "player": "receiver", "action": "shot",
             "ball": [receiver[0] + 0.3, receiver[1], 0.11], "positions": positions},
        ],
    }  # fmt: skip


def _oracle_margin_m(data: dict[str, Any]) -> float:
    """How far the receiver stood past the later of the ball and the second-last opponent at
    the pass (Law 11.1), from the file's numbers alone."""
    at_pass = data["touches"][0]
    defenders = sorted(
        (p["x"] for pid, p in at_pass["positions"].items() if pid[0] in "dsk"), reverse=True
    )
    line = max(defenders[1], at_pass["ball"][0])
    return float(at_pass["positions"]["receiver"]["x"] - line)


def _tolerance_profile(tolerance_cm: float) -> Profile:
    return profile_from_text(
        f'name = "t"\nversion = "1"\nsource = "a test"\n[offside]\npolicy = "tolerance:{tolerance_cm}cm"\n',
        "t.toml",
    )


@settings(max_examples=60, deadline=None)
@given(
    st.floats(8.0, 40.0),
    st.floats(-0.3, 0.3),
    st.floats(1.0, 20.0).map(lambda cm: round(cm, 1)),
)
def test_under_a_tolerance_profile_offside_is_beyond_the_line_by_more_than_it(
    second_last_x: float, beyond_m: float, tolerance_cm: float
) -> None:
    data = _through_ball(second_last_x, beyond_m, passer_x=second_last_x - 12.0)
    margin_m = _oracle_margin_m(data)
    tolerance_m = tolerance_cm / 100
    if min(abs(margin_m - tolerance_m), abs(margin_m)) < 1e-6:
        return  # on the edge, float noise decides
    case = case_from_dict(data, "through.json")
    under_ifab = SITUATION.judged(case, ifab())
    under_tolerance = SITUATION.judged(case, _tolerance_profile(tolerance_cm))
    assert (under_ifab.status.value == "offence") == (margin_m > 0)
    assert (under_tolerance.status.value == "offence") == (margin_m > tolerance_m)
    assert under_tolerance.to_dict()["margin_m"] == pytest.approx(margin_m, abs=0.001)


def test_profile_noise_is_taken_where_the_file_states_none(tmp_path: Path) -> None:
    data = _through_ball(30.0, 0.1, passer_x=18.0)
    noisy = profile_from_text(
        'name = "n"\nversion = "1"\nsource = "a test"\n'
        "[noise.centroid_optical]\nposition_sd_m = 0.5\n",
        "n.toml",
    )
    plain = SITUATION.judged(case_from_dict(data, "x.json", ifab().noise), ifab())
    wider = SITUATION.judged(case_from_dict(data, "x.json", noisy.noise), noisy)
    assert wider.to_dict()["margin_se_m"] > 2 * plain.to_dict()["margin_se_m"]
    # A file that states its own figure keeps it, whatever the profile.
    stated = {**data, "tracking": {"position_sd_m": 0.1}}
    kept = SITUATION.judged(case_from_dict(stated, "x.json", noisy.noise), noisy)
    assert kept.to_dict()["margin_se_m"] == pytest.approx(plain.to_dict()["margin_se_m"])


# -- every command: check ------------------------------------------------------------------


def _check_json(run_cli: Any, *args: str) -> dict[str, Any]:
    result = run_cli("check", *args, "--json")
    assert result.exit_code == 0, result.output
    verdict: dict[str, Any] = json.loads(result.stdout)
    return verdict


def test_check_kane_is_offside_under_ifab_and_no_offence_under_a_5cm_tolerance(
    run_cli: Any,
) -> None:
    ifab_verdict = _check_json(run_cli, str(KANE))
    tolerant = _check_json(run_cli, str(KANE), "--profile", "tolerance-5cm")
    assert 0 < ifab_verdict["margin_m"] < 0.05
    assert ifab_verdict["status"] == "offence" and tolerant["status"] == "no_offence"
    assert ifab_verdict["profile"] == ifab().stamp()
    assert tolerant["profile"] == builtin_profile("tolerance-5cm").stamp()
    assert len(tolerant["profile"]["sha256"]) == 64


def test_check_under_a_profile_file_applies_its_law_and_penalty_settings(
    run_cli: Any, tmp_path: Path
) -> None:
    path = tmp_path / "old-rules.toml"
    path.write_text(
        'name = "old-rules"\nversion = "2023/24"\nsource = "a test"\n'
        '[law]\nbody_reference = "tracked_point"\n'
        '[penalty_kick]\nencroachment_rule = "every"\n'
    )
    # Kane's knee is 4 cm past the line; his tracked point is not.
    assert _check_json(run_cli, str(KANE))["status"] == "offence"
    by_point = _check_json(run_cli, str(KANE), "--profile", str(path))
    assert by_point["status"] == "no_offence"
    assert by_point["profile"]["name"] == "old-rules"
    assert by_point["settings"]["body_reference"] == "tracked_point"
    kick = EXAMPLES / "penalty" / "encroachment-without-impact-not-penalised-goal.json"
    assert _check_json(run_cli, str(kick))["status"] == "goal"
    before = _check_json(run_cli, str(kick), "--profile", str(path))
    assert before["status"] == "retake" and before["profile"]["name"] == "old-rules"


def test_check_policy_replaces_the_profiles_own_and_says_so(run_cli: Any) -> None:
    verdict = _check_json(run_cli, str(KANE), "--policy", "tolerance:5cm")
    assert verdict["status"] == "no_offence"
    assert verdict["profile"]["name"] == "ifab+tolerance:5cm"
    assert verdict["profile"]["sha256"] != ifab().sha256


def test_check_prints_the_profile_for_a_person(run_cli: Any) -> None:
    result = run_cli("check", str(KANE), "--profile", "daylight")
    assert result.exit_code == 0
    assert f"Profile: {builtin_profile('daylight').label}." in result.stdout


# -- check --compare -----------------------------------------------------------------------


def test_compare_shows_offside_under_one_and_goal_under_the_other_with_why(
    run_cli: Any, tmp_path: Path
) -> None:
    image = tmp_path / "both.png"
    result = run_cli("check", str(KANE), "--compare", "ifab,tolerance-5cm", "--image", str(image))
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert lines[0].startswith("ifab ") and "OFFSIDE" in lines[0]
    assert "goal is disallowed" in lines[0]
    assert lines[1].startswith("tolerance-5cm ") and "NO OFFSIDE OFFENCE" in lines[1]
    assert "goal stands" in lines[1] and "5 cm tolerance" in lines[1]
    assert "offside.policy: ifab / tolerance:5cm" in result.stdout
    with Image.open(image) as drawn:
        width, height = drawn.size
        pixels = np.asarray(drawn.convert("RGB"))
    assert width == 1600 and height > 2 * 1000  # both pictures, one above the other
    top, bottom = pixels[: height // 2], pixels[height // 2 :]
    assert not np.array_equal(top[100:], bottom[100 : 100 + top.shape[0] - 100])


def test_compare_as_json_names_what_differs(run_cli: Any) -> None:
    result = run_cli("check", str(KANE), "--compare", "ifab,daylight,tolerance-5cm", "--json")
    assert result.exit_code == 0
    answer = json.loads(result.stdout)
    assert answer["same_call"] is False
    assert answer["settings_that_differ"] == {
        "offside.policy": ["ifab", "daylight", "tolerance:5cm"]
    }
    assert [v["profile"]["name"] for v in answer["verdicts"]] == [
        "ifab",
        "daylight",
        "tolerance-5cm",
    ]
    check = jsonschema_rs.validator_for(schema("verdict"))
    for verdict in answer["verdicts"]:
        assert check.is_valid(verdict)


@pytest.mark.parametrize(
    ("compare", "message"),
    [("ifab", "name two profiles or more"), ("ifab,", "name two profiles or more"),
     ("ifab,nosuch", "no such profile")],
)  # fmt: skip
def test_compare_refuses_fewer_than_two_or_an_unknown_profile(
    run_cli: Any, compare: str, message: str
) -> None:
    result = run_cli("check", str(KANE), "--compare", compare)
    assert result.exit_code == 2
    assert message in result.stderr and result.stdout == ""


# -- still ---------------------------------------------------------------------------------


def test_still_judges_under_the_profile_and_records_it(run_cli: Any, tmp_path: Path) -> None:
    still = EXAMPLES / "still" / "offside-by-20cm.png"
    marks = EXAMPLES / "still" / "offside-by-20cm.marks.json"
    answers = {}
    for name in ("ifab", "tolerance-5cm"):
        result = run_cli("still", str(still), "--marks", str(marks), "--profile", name, "--json")
        assert result.exit_code == 0, result.output
        answers[name] = json.loads(result.stdout)
        assert answers[name]["profile"] == builtin_profile(name).stamp()
    assert answers["tolerance-5cm"]["policy"] == "tolerance:5cm"
    assert answers["ifab"]["policy"] == "ifab"
    assert load_profile("tolerance-5cm") is builtin_profile("tolerance-5cm")
    # A tolerance beyond the measured margin: no offence, under that profile only.
    margin_m = answers["ifab"]["margin_m"]
    assert answers["ifab"]["status"] == "offence" and margin_m > 0
    path = tmp_path / "wide.toml"
    path.write_text(
        'name = "wide"\nversion = "1"\nsource = "a test"\n'
        f'[offside]\npolicy = "tolerance:{round(margin_m * 100 + 5)}cm"\n'
    )
    result = run_cli("still", str(still), "--marks", str(marks), "--profile", str(path), "--json")
    assert result.exit_code == 0, result.output
    wide = json.loads(result.stdout)
    assert wide["status"] == "no_offence" and wide["profile"]["name"] == "wide"
