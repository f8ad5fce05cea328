"""Pictures of a ball line: the goal-line-technology view and the GOAL / NO GOAL screen."""

from __future__ import annotations

from pathlib import Path

import pytest
from PIL import Image

import varroom
from varroom.cli.main import cli
from varroom.pictures.ball_line import headline

EXAMPLES = Path(__file__).resolve().parent.parent / "examples" / "ball-line"


@pytest.mark.parametrize(
    ("name", "words"),
    [
        ("goal-by-millimetres", "GOAL"),
        ("clearance-millimetres-short", "NO GOAL"),  # in play, in front of the goal
        ("over-the-bar", "NO GOAL"),  # out of play, over the crossbar
        ("cut-back-ball-on-the-line", "IN PLAY"),  # wide of the goal
        ("touchline-curler", "OUT OF PLAY"),
    ],
)
def test_the_screen_says_goal_or_no_goal_at_the_goal_and_in_or_out_elsewhere(name, words):
    case = varroom.load_ball_line(EXAMPLES / f"{name}.json")
    assert headline(case, varroom.judge_ball_line(case)) == words


def test_check_draws_the_view_and_the_screen(runner, tmp_path):
    view, screen = tmp_path / "view.png", tmp_path / "screen.png"
    path = EXAMPLES / "cut-back-ball-on-the-line.json"
    result = runner.invoke(cli, ["check", str(path), "--image", str(view), "--screen", str(screen)])
    assert result.exit_code == 0, result.stderr
    assert Image.open(view).size == (1800, 700)
    assert Image.open(screen).size == (1920, 1080)


def test_a_picture_that_cannot_be_written_is_one_line_after_the_verdict(runner, tmp_path):
    target = tmp_path / "no-such-folder" / "view.png"
    path = EXAMPLES / "goal-by-millimetres.json"
    result = runner.invoke(cli, ["check", str(path), "--json", "--image", str(target)])
    assert result.exit_code == 1
    assert '"decision": "goal"' in result.stdout
    assert result.stderr.startswith("varroom: cannot write the picture")
    assert not target.parent.exists()
