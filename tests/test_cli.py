"""`varroom check`: output, exit codes, and what a person sees."""

from __future__ import annotations

import json
import re

import pytest

from conftest import EXAMPLES

KANE = EXAMPLES / "tottenham-sporting-2022-kane.json"


def test_check_json_has_the_spec_fields(run_cli):
    result = run_cli("check", str(KANE), "--json")
    assert result.exit_code == 0
    data = json.loads(result.stdout)
    for key in (
        "offence",
        "offender",
        "judged_at",
        "involved_at",
        "restart",
        "margin_m",
        "reason",
        "positions",
    ):
        assert key in data
    assert data["offence"] is True and data["offender"] == "kane"
    assert data["restart"] == "indirect_free_kick"
    assert data["positions"]["kane"]["offside_position"] is True
    assert data["announcement"].startswith("After review, the goal is disallowed: number 10")


def test_check_prints_the_decision_and_margin_for_people(run_cli):
    result = run_cli("check", str(KANE))
    assert result.exit_code == 0
    assert "OFFSIDE" in result.stdout
    assert "Harry Kane 4 cm beyond the line" in result.stdout
    assert "On-field decision: goal" in result.stdout


def test_check_without_offence_says_so(run_cli):
    result = run_cli("check", str(EXAMPLES / "level-with-second-last-defender-onside.json"))
    assert result.exit_code == 0
    assert "NO OFFSIDE OFFENCE" in result.stdout and "level is onside" in result.stdout


def test_unknown_command_option_is_a_usage_error(run_cli):
    result = run_cli("check", str(KANE), "--colour")
    assert result.exit_code == 2 and "No such option" in result.stderr


def test_version(run_cli):
    result = run_cli("--version")
    assert result.exit_code == 0 and "version" in result.stdout


def test_check_writes_every_picture_kind_after_the_verdict(run_cli, tmp_path):
    outputs = {
        "--image": tmp_path / "k.png",
        "--screen": tmp_path / "screen.png",
        "--clip": tmp_path / "clip.gif",
        "--scene": tmp_path / "scene.html",
    }
    args = [a for flag, path in outputs.items() for a in (flag, str(path))]
    result = run_cli("check", str(KANE), "--json", *args)
    assert result.exit_code == 0, result.stderr
    assert json.loads(result.stdout)["offender"] == "kane"
    assert outputs["--image"].read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert outputs["--screen"].read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert outputs["--clip"].read_bytes()[:6] == b"GIF89a"
    assert "scene-data" in outputs["--scene"].read_text()


def test_broadcast_without_a_camera_is_a_clean_input_error(run_cli, tmp_path):
    result = run_cli("check", str(KANE), "--broadcast", str(tmp_path / "b.png"))
    assert result.exit_code == 2
    assert result.stderr.strip().endswith(
        "$.camera: missing: --broadcast needs a camera (docs/pictures.md)"
    )
    assert not (tmp_path / "b.png").exists()


@pytest.mark.parametrize("path", sorted(EXAMPLES.glob("*.json")), ids=lambda path: path.stem)
def test_check_says_too_close_to_call_exactly_when_the_interval_holds_level(run_cli, path):
    judged = json.loads(run_cli("check", str(path), "--json").stdout)
    interval = judged["margin_ci_m"]
    close = (interval is not None and interval[0] < 0 < interval[1]) or (
        judged["confidence_class"] == "too_close_to_call"
    )
    said = " ".join(run_cli("check", str(path)).stdout.split())
    assert ("Too close to call" in said) is close


@pytest.mark.parametrize(
    "path",
    sorted(
        [
            *EXAMPLES.glob("*.json"),
            *EXAMPLES.glob("penalty/*.json"),
            *EXAMPLES.glob("ball-line/*.json"),
        ]
    ),
    ids=lambda path: f"{path.parent.name}/{path.stem}",
)
def test_what_a_person_reads_has_no_closed_list_value_in_it(run_cli, path):
    """Issue 27: "Offence: goalkeeper_off_line", "On-field decision: out_of_play." are the
    JSON's words; a person reads them as words."""
    said = run_cli("check", str(path)).stdout
    assert re.findall(r"\b[a-z]+_[a-z_+-]+\b", said) == []
