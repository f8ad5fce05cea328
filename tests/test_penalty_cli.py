"""`varroom check` on a penalty-kick file: the decision, every offence with its margin, the cards
and a reason, for people and as JSON; situations are still judged as before."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

EXAMPLES = Path(__file__).resolve().parent.parent / "examples" / "penalty"
PENALTIES = sorted(EXAMPLES.glob("*.json"))
TITLE = {
    "goal": "GOAL",
    "no_goal": "NO GOAL",
    "retake": "RETAKE",
    "indirect_free_kick": "INDIRECT FREE KICK",
}


@pytest.mark.parametrize("path", PENALTIES, ids=[p.stem for p in PENALTIES])
def test_check_prints_decision_offences_cards_and_reason(run_cli: Any, path: Path) -> None:
    as_json = run_cli("check", str(path), "--json")
    assert as_json.exit_code == 0, as_json.output
    verdict = json.loads(as_json.output)
    assert verdict["kind"] == "penalty_kick"
    for key in ("decision", "restart_team", "offences", "cautions", "warnings", "keeper_margin_m"):
        assert key in verdict
    assert verdict["reason"]
    people = run_cli("check", str(path))
    assert people.exit_code == 0, people.output
    # The panel wraps at word boundaries: rejoin its lines without the borders.
    text = " ".join(" ".join(line.strip("│╭╮╰╯─ ").split()) for line in people.output.splitlines())
    assert TITLE[verdict["decision"]] in text
    for offence in verdict["offences"]:
        assert f"Offence: {offence['what'].replace('_', ' ')}" in text
        if offence["margin_m"] is not None:
            shown = abs(offence["margin_m"])
            assert (f"{round(shown * 100)} cm" if shown < 1 else f"{shown:.2f} m") in text
    assert f"Cautions: {'none' if not verdict['cautions'] else ''}" in text
    assert "Warnings:" in text
    assert "Law 1" in text  # the reason cites Law 14 (or Law 10 in a shoot-out)


def test_check_json_matches_the_spec_example_shape(run_cli: Any) -> None:
    path = EXAMPLES / "goalkeeper-off-line-saved-retake-warning.json"
    verdict = json.loads(run_cli("check", str(path), "--json").output)
    assert verdict["decision"] == "retake"
    assert verdict["restart_team"] is None
    assert verdict["warnings"] == ["brandt"] and verdict["cautions"] == []
    assert verdict["keeper_margin_m"] == pytest.approx(0.23)
    (offence,) = verdict["offences"]
    assert offence["what"] == "goalkeeper_off_line" and offence["penalised"] is True
    assert offence["margin_m"] == pytest.approx(0.23)
    assert 0 < offence["margin_se_m"] < 0.1 and offence["probability"] > 0.999


def test_check_policy_applies_to_the_goalkeepers_margin(run_cli: Any) -> None:
    path = EXAMPLES / "goalkeeper-both-heels-2cm-in-front-offence.json"
    strict = json.loads(run_cli("check", str(path), "--json").output)
    lenient = json.loads(run_cli("check", str(path), "--json", "--policy", "tolerance:5cm").output)
    assert strict["decision"] == "retake"
    assert lenient["decision"] == "no_goal" and lenient["policy"] == "tolerance:5cm"
    assert strict["policy_would_differ"] is True


def test_image_and_screen_are_drawn_after_the_verdict(run_cli: Any, tmp_path: Path) -> None:
    from PIL import Image

    path = EXAMPLES / "both-teams-encroach-retake.json"
    image, screen = tmp_path / "p.png", tmp_path / "s.png"
    result = run_cli("check", str(path), "--json", "--image", str(image), "--screen", str(screen))
    assert result.exit_code == 0, result.output
    assert json.loads(result.output)["decision"] == "retake"
    with Image.open(screen) as still:
        assert still.size == (1920, 1080)
    with Image.open(image) as picture:
        assert picture.size[0] > picture.size[1]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["p.png", "s.png"]  # nothing left over


def test_other_pictures_are_refused_before_judging(run_cli: Any, tmp_path: Path) -> None:
    path = EXAMPLES / "legal-penalty-saved.json"
    result = run_cli("check", str(path), "--json", "--clip", str(tmp_path / "p.gif"))
    assert result.exit_code == 2
    assert len(result.output.splitlines()) == 1 and "$.kind" in result.output
    assert "--clip" in result.output and not (tmp_path / "p.gif").exists()
