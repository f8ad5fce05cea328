"""The ball-line examples (examples/ball-line/): each gets its decision, and `varroom check` prints
decision, line, margin, crossing time, probability and reason for every one.

Margins were worked out from the analytic flights the files were sampled from (`meta` gives
them): the largest distance of the ball's nearest point past the line's outer edge.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import varroom
from varroom.cli.main import cli
from varroom.model.ball_line import Line

EXAMPLES = Path(__file__).resolve().parent.parent / "examples" / "ball-line"

# name: (decision, line the margin is about, margin_m). The over-the-bar shot's margin is its
# last sample: x = 40 + 25 * 0.56 = 54.0 m, less the edge at 52.5 m and the radius 0.11 m.
EXPECTED = {
    "goal-by-millimetres": ("goal", "goal_line_+x", 0.006),
    "clearance-millimetres-short": ("in_play", "goal_line_-x", -0.004),
    "cut-back-ball-on-the-line": ("in_play", "goal_line_+x", -0.00188),
    "over-the-bar": ("out_of_play", "goal_line_+x", 1.39),
    "touchline-curler": ("out_of_play", "touchline_+y", 0.035),
}


def test_every_example_has_an_expectation():
    assert sorted(p.stem for p in EXAMPLES.glob("*.json")) == sorted(EXPECTED)


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_example_gets_its_decision_and_margin(name):
    decision, line, margin = EXPECTED[name]
    case = varroom.load_ball_line(EXAMPLES / f"{name}.json")
    verdict = varroom.judge_ball_line(case).to_dict()
    assert (verdict["decision"], verdict["nearest_line"]) == (decision, line)
    assert verdict["line"] == (None if decision == "in_play" else line)
    # The files keep positions to 0.01 mm.
    assert verdict["margin_m"] == pytest.approx(margin, abs=0.0001)
    assert case.meta.get("analytic_margin_m", margin) == margin


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_check_prints_decision_line_margin_crossing_probability_and_reason(name, runner):
    path = EXAMPLES / f"{name}.json"
    shown = runner.invoke(cli, ["check", str(path)])
    assert shown.exit_code == 0, shown.stderr
    as_json = json.loads(runner.invoke(cli, ["check", str(path), "--json"]).stdout)
    title = {"goal": "GOAL", "in_play": "IN PLAY", "out_of_play": "OUT OF PLAY"}
    text = " ".join(word for word in shown.stdout.split() if word != "│")
    assert title[as_json["decision"]] in text
    assert f"Line: {Line(as_json['nearest_line']).words}" in text
    assert "Margin: " in text and "Crossed at: " in text and "P(wholly over): " in text
    assert as_json["reason"].split(":")[0] in text
    assert set(as_json) >= {"decision", "line", "margin_m", "crossed_at_t", "probability"}


def test_the_cut_back_shows_the_path_further_out_than_any_sample():
    verdict = varroom.judge_ball_line(
        varroom.load_ball_line(EXAMPLES / "cut-back-ball-on-the-line.json")
    )
    assert verdict.peak_between_samples
    assert verdict.samples_margin_m < verdict.margin_m < 0


@pytest.mark.parametrize(
    ("name", "policy", "decision"),
    [
        # 1.9 mm short, P(wholly over) near a half: too close for these policies to overturn the
        # assistant's flag.
        ("cut-back-ball-on-the-line", "ifab", "in_play"),
        ("cut-back-ball-on-the-line", "daylight", "in_play"),
        ("cut-back-ball-on-the-line", "confidence:0.95", "out_of_play"),
        ("cut-back-ball-on-the-line", "tolerance:5cm", "out_of_play"),
        # 6 mm over with 3 mm noise: sure enough for 95%, inside a 5 cm tolerance.
        ("goal-by-millimetres", "confidence:0.95", "goal"),
        ("goal-by-millimetres", "tolerance:5cm", "in_play"),
        ("goal-by-millimetres", "tolerance:0.5cm", "goal"),
        # Far over: every policy agrees.
        ("over-the-bar", "tolerance:5cm", "out_of_play"),
    ],
)
def test_what_each_policy_decides(name, policy, decision, runner):
    path = EXAMPLES / f"{name}.json"
    result = runner.invoke(cli, ["check", str(path), "--json", "--policy", policy])
    verdict = json.loads(result.stdout)
    assert verdict["decision"] == decision
    assert verdict["policy_outcomes"][policy] == decision
    if decision != verdict["policy_outcomes"]["ifab"]:
        assert "stands" in verdict["reason"]
