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


@pytest.mark.parametrize("path", sorted(EXAMPLES.glob("*.json")), ids=lambda p: p.stem)
def test_the_screens_colours_follow_the_call_not_the_margins_sign(path):
    """Issue 27: a red "NO GOAL" over a green "+1.39 m: wholly over" (over the bar)."""
    from matplotlib.colors import to_hex

    from varroom.pictures.ball_line import draw_ball_line_screen

    case = varroom.load_ball_line(path)
    figure = draw_ball_line_screen(case, varroom.judge_ball_line(case))
    (banner,) = figure.patches
    (gap,) = [t for t in figure.texts if t.get_gid() == "ball-line-screen-gap"]
    assert to_hex(gap.get_color()) == to_hex(banner.get_facecolor())
