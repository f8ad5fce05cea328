"""The shipped penalty examples (examples/penalty/): one per row and result of the Law 14.2
outcome table and one per goalkeeper foot case, each with its expected decision, and the same
decision when the kick is mirrored to attack towards -x. Margins were worked out by hand from
the files: the goal line's front edge is at 52.38 m, the area's edge at 36.0 m."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from penalties import judged, mirrored
from varroom import judge_penalty, load_penalty_kick

EXAMPLES = Path(__file__).resolve().parent.parent / "examples" / "penalty"


@dataclass(frozen=True)
class Expected:
    decision: str
    offences: dict[str, tuple[str, bool, float | None]] = field(default_factory=dict)
    cautions: tuple[str, ...] = ()
    warnings: tuple[str, ...] = ()
    restart_team: str | None = None


IFK = "indirect_free_kick"
OFF_23 = ("goalkeeper_off_line", True, 0.23)
OFF_23_STANDS = ("goalkeeper_off_line", False, 0.23)

EXPECTED: dict[str, Expected] = {
    "kickers-team-mate-encroaches-goal-retake": Expected(
        "retake", {"reyes": ("encroachment", True, 2.0)}
    ),
    "kickers-team-mate-encroaches-saved-indirect-free-kick": Expected(
        IFK, {"reyes": ("encroachment", True, 2.0)}, restart_team="Athletic"
    ),
    "keepers-team-mate-encroaches-goal-stands": Expected(
        "goal", {"lindqvist": ("encroachment", False, 2.5)}
    ),
    "keepers-team-mate-encroaches-missed-retake": Expected(
        "retake", {"lindqvist": ("encroachment", True, 2.5)}
    ),
    "both-teams-encroach-retake": Expected(
        "retake",
        {"reyes": ("encroachment", True, 2.0), "lindqvist": ("encroachment", True, 2.5)},
    ),
    "encroachment-without-impact-not-penalised-goal": Expected(
        "goal", {"reyes": ("encroachment", False, 2.0)}
    ),
    "goalkeeper-off-line-goal-stands": Expected("goal", {"brandt": OFF_23_STANDS}),
    "goalkeeper-off-line-saved-retake-warning": Expected(
        "retake", {"brandt": OFF_23}, warnings=("brandt",)
    ),
    "goalkeeper-off-line-missed-not-retaken": Expected("no_goal", {"brandt": OFF_23_STANDS}),
    "goalkeeper-off-line-woodwork-affected-kicker-retake": Expected(
        "retake", {"brandt": OFF_23}, warnings=("brandt",)
    ),
    "goalkeeper-second-offence-caution": Expected(
        "retake", {"brandt": OFF_23}, cautions=("brandt",)
    ),
    "goalkeeper-and-kicker-feint-goal-indirect-free-kick": Expected(
        IFK,
        {"brandt": OFF_23_STANDS, "hale": ("feint_after_run_up", True, None)},
        cautions=("hale",),
        restart_team="Athletic",
    ),
    "goalkeeper-and-kicker-feint-saved-retake-both-cautioned": Expected(
        "retake",
        {"brandt": OFF_23, "hale": ("feint_after_run_up", True, None)},
        cautions=("hale", "brandt"),
    ),
    "backward-kick-indirect-free-kick": Expected(
        IFK, {"hale": ("backward_kick", True, 1.5)}, restart_team="Athletic"
    ),
    "wrong-kicker-indirect-free-kick-caution": Expected(
        IFK, {"reyes": ("wrong_kicker", True, None)}, cautions=("reyes",), restart_team="Athletic"
    ),
    "feint-after-run-up-indirect-free-kick-caution": Expected(
        IFK,
        {"hale": ("feint_after_run_up", True, None)},
        cautions=("hale",),
        restart_team="Athletic",
    ),
    "accidental-double-touch-goal-retake": Expected(
        "retake", {"hale": ("double_touch", True, None)}
    ),
    "accidental-double-touch-saved-indirect-free-kick": Expected(
        IFK, {"hale": ("double_touch", True, None)}, restart_team="Athletic"
    ),
    "deliberate-double-touch-indirect-free-kick": Expected(
        IFK, {"hale": ("double_touch", True, None)}, restart_team="Athletic"
    ),
    "shootout-feint-counts-as-missed": Expected(
        "no_goal", {"hale": ("feint_after_run_up", True, None)}, cautions=("hale",)
    ),
    "legal-penalty-saved": Expected("no_goal"),
    "goalkeeper-one-heel-on-line-other-foot-forward-legal": Expected("no_goal"),
    "goalkeeper-both-heels-2cm-in-front-offence": Expected(
        "retake", {"brandt": ("goalkeeper_off_line", True, 0.02)}, warnings=("brandt",)
    ),
    "goalkeeper-heel-raised-above-line-legal": Expected("no_goal"),
}


def data(name: str) -> dict:
    return json.loads((EXAMPLES / f"{name}.json").read_text(encoding="utf-8"))


def test_every_example_has_an_expectation_and_a_readme_line() -> None:
    assert {p.stem for p in EXAMPLES.glob("*.json")} == EXPECTED.keys()
    readme = (EXAMPLES / "README.md").read_text(encoding="utf-8")
    assert [name for name in EXPECTED if f"{name}.json" not in readme] == []


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_example_is_a_plausible_penalty(name: str) -> None:
    raw = data(name)
    assert raw["kind"] == "penalty_kick"
    assert raw["meta"]["description"]
    assert "not a real incident" in raw["meta"]["source"]  # nothing reconstructed uncited


@pytest.mark.parametrize("mirror", [False, True], ids=["+x", "-x"])
@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_example_decision(name: str, mirror: bool) -> None:
    expected = EXPECTED[name]
    raw = data(name)
    v = judged(mirrored(raw) if mirror else raw)
    out = v.to_dict()
    assert out["decision"] == expected.decision, v.reason
    assert out["restart_team"] == expected.restart_team
    assert tuple(out["cautions"]) == expected.cautions, v.reason
    assert tuple(out["warnings"]) == expected.warnings, v.reason
    got = {o["player"]: (o["what"], o["penalised"], o["margin_m"]) for o in out["offences"]}
    assert got.keys() == expected.offences.keys(), v.reason
    for player, (what, penalised, margin) in expected.offences.items():
        assert got[player][:2] == (what, penalised), v.reason
        if margin is None:
            assert got[player][2] is None
        else:
            assert got[player][2] == pytest.approx(margin, abs=0.0005)
    assert "Law 14" in v.reason or "Law 10" in v.reason


def test_the_issue_wording_for_a_saved_kick_with_the_goalkeeper_off_his_line() -> None:
    v = judge_penalty(load_penalty_kick(EXAMPLES / "goalkeeper-off-line-saved-retake-warning.json"))
    assert v.reason.startswith(
        "The goalkeeper Brandt's left heel was 23 cm in front of the goal line when Hale kicked"
    )
    assert (
        "The kick was saved, so it is retaken (Law 14.2). First offence by Brandt: a warning."
        in (v.reason)
    )
    assert v.announcement == (
        "After review, the goalkeeper was off his line. The penalty will be retaken. "
        "The goalkeeper, Brandt, is warned."
    )
