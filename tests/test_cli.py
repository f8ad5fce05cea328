"""`varroom check`: output, exit codes, and what a person sees."""

from __future__ import annotations

import json

from conftest import EXAMPLES

KANE = EXAMPLES / "tottenham-sporting-2022-kane.json"


def test_check_json_has_the_spec_fields(run_cli):
    result = run_cli("check", str(KANE), "--json")
    assert result.exit_code == 0
    data = json.loads(result.stdout)
    for key in ("offence", "offender", "judged_at", "involved_at", "restart", "margin_m", "reason", "positions"):
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
