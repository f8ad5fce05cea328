"""Bad ball-line input: one line naming the file and the JSON path, exit code 2, no traceback."""

from __future__ import annotations

import copy
import json

import pytest

from ball_lines import FLIGHTS, document, samples
from varroom.cli.main import cli
from varroom.model.ball_line import Line

GOOD = document(samples(FLIGHTS[0], Line.GOAL_LINE_PLUS_X, 25))


def _set(row: int, column: int, value):
    return lambda d: d["ball_track"][row].__setitem__(column, value)


CASES = {
    "times not increasing": (_set(2, 0, 0.04), "$.ball_track[2][0]"),
    "time going back": (_set(5, 0, -1.0), "$.ball_track[5][0]"),
    "one sample": (lambda d: d.update(ball_track=d["ball_track"][:1]), "$.ball_track"),
    "no samples": (lambda d: d.update(ball_track=[]), "$.ball_track"),
    "no track": (lambda d: d.pop("ball_track"), "$.ball_track"),
    "track not an array": (lambda d: d.update(ball_track={"t": 0}), "$.ball_track"),
    "NaN coordinate": (_set(1, 2, float("nan")), "$.ball_track[1][2]"),
    "infinite time": (_set(3, 0, float("inf")), "$.ball_track[3][0]"),
    "ball 100 m off the pitch": (_set(3, 1, 152.5), "$.ball_track[3][1]"),
    "ball 100 m beyond a touchline": (_set(4, 2, -134.0), "$.ball_track[4][2]"),
    "ball underground": (_set(4, 3, -3.0), "$.ball_track[4][3]"),
    "three numbers in a sample": (lambda d: d["ball_track"][1].pop(), "$.ball_track[1]"),
    "a string for a coordinate": (_set(0, 3, "low"), "$.ball_track[0][3]"),
    "true for a coordinate": (_set(0, 1, True), "$.ball_track[0][1]"),
    "negative ball radius": (lambda d: d.update(ball_radius_m=-0.11), "$.ball_radius_m"),
    "unknown tracking source": (lambda d: d.update(noise={"source": "radar"}), "$.noise.source"),
    "negative noise": (lambda d: d.update(noise={"ball_sd_m": -0.01}), "$.noise.ball_sd_m"),
    "goal of no width": (lambda d: d.update(goal={"width": 0}), "$.goal.width"),
}


@pytest.mark.parametrize("name", list(CASES))
def test_each_bad_field_gets_exit_2_and_one_line_with_the_path(name, runner, tmp_path):
    change, where = CASES[name]
    data = copy.deepcopy(GOOD)
    change(data)
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(data, allow_nan=True))
    result = runner.invoke(cli, ["check", str(path), "--json", "--image", str(tmp_path / "o.png")])
    assert result.exit_code == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith(f"varroom: {path}: {where}: ")
    assert "Traceback" not in result.stderr and result.stdout == ""
    assert not (tmp_path / "o.png").exists()


def test_the_good_file_is_judged(runner, write_json):
    result = runner.invoke(cli, ["check", str(write_json(GOOD)), "--json"])
    assert result.exit_code == 0, result.stderr
    assert json.loads(result.stdout)["decision"] == "goal"


def test_a_situation_picture_is_refused_for_a_ball_line(runner, write_json, tmp_path):
    clip = tmp_path / "c.gif"
    result = runner.invoke(cli, ["check", str(write_json(GOOD)), "--clip", str(clip)])
    assert result.exit_code == 2 and "--clip" in result.stderr and not clip.exists()


def test_noise_not_given_is_the_measured_error_of_the_source_named_or_nearest_the_rate():
    from varroom.formats.ball_line_json import ball_line_from_dict
    from varroom.model.ball_line import BALL_SD_DEFAULTS_M, BallTrackingSource

    given = copy.deepcopy(GOOD)
    given["noise"] = {"source": "optical_500hz"}
    named = ball_line_from_dict(given).noise
    assert named.source is BallTrackingSource.OPTICAL_500HZ
    assert named.ball_sd_m == BALL_SD_DEFAULTS_M[BallTrackingSource.OPTICAL_500HZ]
    given["noise"] = {"source": "optical_500hz", "ball_sd_m": 0.2}
    assert ball_line_from_dict(given).noise.ball_sd_m == 0.2
    given.pop("noise")
    nearest = ball_line_from_dict(given).noise  # 25 samples a second
    assert nearest.source is BallTrackingSource.OPTICAL_25HZ
    assert nearest.ball_sd_m == BALL_SD_DEFAULTS_M[BallTrackingSource.OPTICAL_25HZ]


# What the reader refuses that a JSON Schema cannot say: the order of samples, where the pitch
# (the file's own) puts its lines.
SCHEMA_CANNOT_SAY = {
    "times not increasing",
    "time going back",
    "ball 100 m off the pitch",
    "ball 100 m beyond a touchline",
}


@pytest.mark.parametrize("name", list(CASES))
def test_each_bad_field_is_refused_by_the_schema_too(name):
    """Issue 28: every case above the schema can state is refused by it as by the reader."""
    import jsonschema_rs

    from varroom.schemas import schema

    change, _ = CASES[name]
    data = copy.deepcopy(GOOD)
    change(data)
    check = jsonschema_rs.validator_for(schema("ball_line"))
    assert check.is_valid(json.loads(json.dumps(data, allow_nan=True))) is (
        name in SCHEMA_CANNOT_SAY
    )
