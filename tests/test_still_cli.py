"""`varroom still IMAGE --marks MARKS.json`: the examples, the JSON answer, the picture, and bad
marks refused with one line and exit code 2."""

from __future__ import annotations

import copy
import json
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from varroom.still.judge import still_verdict
from varroom.synthetic.stills import CAMERAS, marks, scene

EXAMPLES = Path(__file__).resolve().parent.parent / "examples" / "still"
NAMES = ("offside-by-20cm", "onside-by-15cm", "line-set-by-the-ball")


@pytest.mark.parametrize("name", NAMES)
def test_each_example_still_gives_its_true_margin(run_cli, name):
    marks_file = EXAMPLES / f"{name}.marks.json"
    truth = json.loads(marks_file.read_text())["meta"]["truth_margin_m"]
    result = run_cli("still", str(EXAMPLES / f"{name}.png"), "--marks", str(marks_file), "--json")
    assert result.exit_code == 0, result.output
    out = json.loads(result.output)
    assert out["margin_m"] == pytest.approx(truth, abs=0.01)
    assert out["offence"] is (truth > 0)
    assert out["calibration"]["reprojection_px"] < 0.5
    assert out["calibration"]["landmarks"] >= 4
    assert out["situation"]["touches"][0]["positions"]["a9"]["x"] == pytest.approx(
        37.0 + truth, abs=0.01
    )
    low, high = out["margin_ci_m"]
    assert low < out["margin_m"] < high
    if name == "line-set-by-the-ball":
        assert out["line"]["set_by"] == "ball"


def test_the_picture_is_the_still_with_the_line_drawn(run_cli, tmp_path):
    name = NAMES[0]
    out = tmp_path / "drawn.png"
    result = run_cli(
        "still",
        str(EXAMPLES / f"{name}.png"),
        "--marks",
        str(EXAMPLES / f"{name}.marks.json"),
        "--image",
        str(out),
    )
    assert result.exit_code == 0, result.output
    assert "OFFSIDE" in result.output or "offside" in result.output
    drawn = np.asarray(Image.open(out).convert("RGB"))
    still = np.asarray(Image.open(EXAMPLES / f"{name}.png").convert("RGB"))
    assert drawn.shape == still.shape

    # The line's yellow (style.LINE_ON_VIDEO), new to the picture, runs along the true line
    # x = 37 m on the ground; the defenders' amber (less green) is not it.
    def yellow(rgb: np.ndarray) -> np.ndarray:
        return (rgb[..., 0] > 200) & (rgb[..., 1] > 200) & (rgb[..., 2] < 60)

    v, u = np.nonzero(yellow(drawn) & ~yellow(still))
    assert len(u) > 500
    camera = CAMERAS[0]
    line = camera.project([(37.0, y) for y in np.linspace(-34, 34, 2001)])
    line = line[np.all(np.isfinite(line), axis=1)]
    gaps = np.hypot(u[:, None] + 0.5 - line[:, 0], v[:, None] + 0.5 - line[:, 1]).min(axis=1)
    assert np.quantile(gaps, 0.99) < 3.0


def _good() -> dict:
    return marks(scene("bad", CAMERAS[0], 0.20))


def _collinear(data: dict) -> None:
    camera = CAMERAS[0]
    points = [(36.0 + 4 * k, 20.16) for k in range(4)]
    data["landmarks"] = [
        {"pitch": list(p), "pixel": [float(c) for c in camera.project([p])[0]]} for p in points
    ]


BAD = {
    "three landmarks": (lambda d: d.update(landmarks=d["landmarks"][:3]), "$.landmarks"),
    "collinear landmarks": (_collinear, "$.landmarks"),
    "a landmark off the pitch": (
        lambda d: d["landmarks"][0].update(pitch=[60.0, 10.0]),
        "$.landmarks[0].pitch",
    ),
    "an unknown player": (lambda d: d["marks"].update(ghost={"pixel": [900, 600]}), "$.marks"),
    "a pixel outside the image": (
        lambda d: d["marks"]["a9"].update(pixel=[2500.0, 400.0]),
        "$.marks.a9.pixel",
    ),
    "a mislabelled landmark": (
        lambda d: d["landmarks"][0].update(pitch=[36.0, -9.16]),
        "$.landmarks",
    ),
    "a height with a ground homography": (
        lambda d: d["marks"]["a9"].update(height_m=1.7),
        "$.marks.a9.height_m",
    ),
    "a ball given twice": (
        lambda d: d["ball"].update(pitch=[30.0, 0.0]),
        "$.ball",
    ),
    "a landmark above the crossbar's reach": (
        lambda d: d["landmarks"][0].update(pitch=[52.5, 3.66, 40.0]),
        "$.landmarks[0].pitch[2]",
    ),
}


@pytest.mark.parametrize("case", BAD, ids=list(BAD))
def test_bad_marks_are_one_line_and_exit_2(run_cli, tmp_path, case):
    change, where = BAD[case]
    data = copy.deepcopy(_good())
    change(data)
    marks_file = tmp_path / "marks.json"
    marks_file.write_text(json.dumps(data))
    still = tmp_path / "still.png"
    Image.new("RGB", CAMERAS[0].size).save(still)
    out = tmp_path / "out.png"
    result = run_cli("still", str(still), "--marks", str(marks_file), "--image", str(out))
    assert result.exit_code == 2, result.output
    lines = result.output.strip().splitlines()
    assert len(lines) == 1, result.output
    assert lines[0].startswith(f"varroom: {marks_file}: {where}")
    assert "Traceback" not in result.output
    assert not out.exists()


def test_a_poorly_determined_camera_is_refused():
    # Four landmarks bunched in the goal area, the players far from them, marked roughly.
    camera = CAMERAS[1]
    data = marks(scene("far", camera, 0.20), pixel_sd=40.0)
    data["landmarks"] = [
        lm for lm in data["landmarks"] if lm["pitch"][0] >= 47.0 and abs(lm["pitch"][1]) < 10
    ][:4]
    assert len(data["landmarks"]) == 4
    with pytest.raises(Exception, match="too poorly determined") as caught:
        still_verdict(data, camera.size, "far.json")
    assert getattr(caught.value, "exit_code", None) == 2


def test_a_still_that_cannot_be_read_is_exit_2(run_cli, tmp_path):
    bad = tmp_path / "still.png"
    bad.write_text("not a picture")
    marks_file = tmp_path / "m.json"
    marks_file.write_text(json.dumps(_good()))
    result = run_cli("still", str(bad), "--marks", str(marks_file), "--json")
    assert result.exit_code == 2
    assert result.output.count("\n") == 1


def test_the_situation_it_prints_gets_the_same_verdict_from_check(run_cli, tmp_path):
    name = NAMES[2]
    result = run_cli(
        "still",
        str(EXAMPLES / f"{name}.png"),
        "--marks",
        str(EXAMPLES / f"{name}.marks.json"),
        "--json",
    )
    out = json.loads(result.output)
    situation = tmp_path / "situation.json"
    situation.write_text(json.dumps(out["situation"]))
    checked = json.loads(run_cli("check", str(situation), "--json").output)
    for key in ("offence", "margin_m", "margin_se_m", "probability", "line", "reason"):
        assert checked[key] == out[key], key


@pytest.mark.parametrize("name", ["offside-by-20cm", "onside-by-15cm", "line-set-by-the-ball"])
def test_a_call_whose_interval_holds_level_is_said_to_be_too_close_to_call(run_cli, name):
    """Issue 29: the words follow the interval, never the point estimate alone."""
    args = [str(EXAMPLES / f"{name}.png"), "--marks", str(EXAMPLES / f"{name}.marks.json")]
    judged = json.loads(run_cli("still", *args, "--json").stdout)
    low_m, high_m = judged["margin_ci_m"]
    close = low_m < 0 < high_m or judged["confidence_class"] == "too_close_to_call"
    said = " ".join(run_cli("still", *args).stdout.split())
    assert ("Too close to call" in said) is close
    if close:
        assert f"decided by the {judged['policy']} rule" in said
