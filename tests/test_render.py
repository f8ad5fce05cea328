"""The top-down picture must not lie: read the drawn artists back and check them against the
verdict.

Positions are compared in display pixels: an artist's own transform applied to its data, against
the main view's data transform applied to the expected point in situation metres. A wrong
offset, a swapped axis or a flipped direction moves the artist and fails here.
"""

from __future__ import annotations

import json
import math
import struct
import sys
import warnings
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from matplotlib.artist import Artist
from matplotlib.axes import Axes
from matplotlib.collections import PathCollection
from matplotlib.figure import Figure
from matplotlib.lines import Line2D

import varroom
from situations import situations
from varroom.engine.verdict import Status, Verdict
from varroom.errors import VarroomError
from varroom.model.situation import Situation
from varroom.pictures.decision import RenderError
from varroom.pictures.decision import draw_decision as draw
from varroom.pictures.decision import write_decision as render_png

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
SRC = Path(__file__).resolve().parent.parent / "src"
KANE = EXAMPLES / "tottenham-sporting-2022-kane.json"

# A pitch that is not the default, so that a hard-coded 105 x 68 shows.
LENGTH, WIDTH = 100.0, 64.0


# -- building situations ----------------------------------------------------------------------


def pos(x: float, y: float, **extra: Any) -> dict[str, Any]:
    return {"x": x, "y": y, **extra}


def build(
    touches: list[dict[str, Any]],
    towards: str = "+x",
    players: list[dict[str, Any]] | None = None,
    pitch: tuple[float, float] = (LENGTH, WIDTH),
) -> Situation:
    if players is None:
        ids = dict.fromkeys(pid for t in touches for pid in t["positions"])
        players = [
            {"id": pid, "team": "A" if pid.startswith("a") else "D", "name": f"Name {pid.upper()}"}
            for pid in ids
        ]
    data = {
        "pitch": {"length": pitch[0], "width": pitch[1]},
        "players": players,
        "attack": {"team": "A", "towards": towards},
        "touches": touches,
    }
    return varroom.parse_situation(json.dumps(data))


def touch(player: str | None, action: str, ball: tuple[float, float], t: float, **positions: Any):
    return {
        "t": t,
        "player": player,
        "action": action,
        "ball": list(ball),
        "positions": {pid: p if isinstance(p, dict) else pos(*p) for pid, p in positions.items()},
    }


def through_ball(sign: float = 1.0, attacker_x: float = 30.5, parts: dict | None = None):
    """a1 passes from x=10; a2 runs onto it; d1 is second-last at x=30; gk deeper (mirrored by sign)."""
    attacker = pos(sign * attacker_x, 5.0, **({"parts": parts} if parts else {}))
    return build(
        [
            touch(
                "a1",
                "pass",
                (sign * 10, 0),
                0.0,
                a1=(sign * 10, 0),
                a2=attacker,
                d1=(sign * 30, 3),
                gk=(sign * 45, 0),
            ),
            touch(
                "a2",
                "shot",
                (sign * 33, 5),
                1.5,
                a1=(sign * 12, 0),
                a2=(sign * 33, 5),
                d1=(sign * 31, 3),
                gk=(sign * 45, 0),
            ),
        ],
        towards="+x" if sign > 0 else "-x",
    )


def judged(situation: Situation) -> tuple[Situation, Verdict, Figure]:
    verdict = varroom.judge(situation)
    return situation, verdict, draw(situation, verdict)


# -- reading the figure back ------------------------------------------------------------------


def by_gid(figure: Figure, gid: str) -> list[Artist]:
    return list(figure.findobj(lambda artist: artist.get_gid() == gid))


def one(figure: Figure, gid: str) -> Any:
    found = by_gid(figure, gid)
    assert len(found) == 1, f"expected one artist with gid {gid!r}, found {len(found)}"
    return found[0]


def main_axes(figure: Figure, artist: Artist) -> Axes:
    axes = artist.axes
    assert axes is not None
    return axes


def display_points(artist: Artist) -> np.ndarray:
    """Where an artist's points land on the canvas, in pixels."""
    if isinstance(artist, Line2D):
        data = np.column_stack([artist.get_xdata(), artist.get_ydata()]).astype(float)
        return artist.get_transform().transform(data)
    if isinstance(artist, PathCollection):
        return artist.get_offset_transform().transform(artist.get_offsets())
    raise TypeError(type(artist))


def expected_display(axes: Axes, situation: Situation, x_m: float, y_m: float) -> np.ndarray:
    return axes.transData.transform([[x_m, y_m]])[0]


def pixels_per_metre(axes: Axes) -> float:
    (x0, _), (x1, _) = axes.transData.transform([[0.0, 0.0], [1.0, 0.0]])
    return abs(x1 - x0)


def assert_vertical_at(axes: Axes, line: Line2D, situation: Situation, x_m: float) -> None:
    points = display_points(line)
    expected_x = expected_display(axes, situation, x_m, 0.0)[0]
    # Within a millimetre of the pitch.
    tolerance = max(0.5, 0.001 * pixels_per_metre(axes))
    assert np.allclose(points[:, 0], expected_x, atol=tolerance), (points[:, 0], expected_x)


def banner(figure: Figure) -> str:
    return one(figure, "banner-title").get_text()


# -- the offside line, the reach, the margin --------------------------------------------------


@pytest.mark.parametrize("sign", [1.0, -1.0])
def test_offside_line_is_drawn_through_the_second_last_defender(sign: float) -> None:
    situation, verdict, figure = judged(through_ball(sign))
    assert verdict.judgement is not None and verdict.judgement.line is not None
    line = verdict.judgement.line
    assert line.x_m == pytest.approx(sign * 30)
    drawn = one(figure, "offside-line")
    assert_vertical_at(main_axes(figure, drawn), drawn, situation, line.x_m)
    # It crosses the whole width of the pitch.
    ys = sorted(float(y) for y in drawn.get_ydata())
    assert ys == pytest.approx([-situation.pitch.width_m / 2, situation.pitch.width_m / 2])
    label = one(figure, "offside-line-label").get_text()
    assert label.startswith("offside line: D1\n2nd-last opponent")


@pytest.mark.parametrize("sign", [1.0, -1.0])
def test_attackers_reach_point_and_line_are_where_the_judgement_says(sign: float) -> None:
    parts = {"head": sign * 30.62, "left_hand": sign * 31.5}  # the hand never counts
    situation, verdict, figure = judged(through_ball(sign, parts=parts))
    assert verdict.offender == "a2"
    reach = verdict.judgement.attackers["a2"].reach
    assert reach.x_m == pytest.approx(sign * 30.62)  # the head, not the hand
    point = one(figure, "reach-point")
    axes = main_axes(figure, point)
    np.testing.assert_allclose(
        display_points(point)[0], expected_display(axes, situation, reach.x_m, reach.y_m), atol=0.5
    )
    assert_vertical_at(axes, one(figure, "reach-line"), situation, reach.x_m)
    # The reach is on the goal side of the offside line, by the margin.
    line_px = display_points(one(figure, "offside-line"))[0, 0]
    reach_px = display_points(point)[0, 0]
    assert (reach_px - line_px) * sign == pytest.approx(0.62 * pixels_per_metre(axes), rel=0.01)


def test_margin_is_labelled_in_centimetres_with_its_sign() -> None:
    _, verdict, figure = judged(through_ball(attacker_x=30.04))
    assert verdict.status is Status.OFFENCE
    assert one(figure, "margin-label").get_text().startswith("+4 cm")
    assert one(figure, "closeup-margin").get_text() == "+4 cm"

    _, verdict, figure = judged(through_ball(attacker_x=29.65))
    assert verdict.status is Status.NO_OFFENCE
    assert one(figure, "margin-label").get_text().startswith("\u221235 cm")
    assert one(figure, "closeup-margin").get_text() == "\u221235 cm"


@pytest.mark.parametrize("sign", [1.0, -1.0])
def test_closeup_ruler_puts_the_attacker_the_margin_away_towards_goal(sign: float) -> None:
    _, verdict, figure = judged(through_ball(sign, attacker_x=30.04))
    zero = one(figure, "closeup-offside-line").get_xdata()[0]
    reach = one(figure, "closeup-reach-line").get_xdata()[0]
    assert zero == 0
    assert reach == pytest.approx(sign * verdict.margin_m)


def test_ball_line_is_drawn_only_when_the_ball_is_not_the_line() -> None:
    situation, verdict, figure = judged(through_ball())
    ball_line = one(figure, "ball-line")
    assert_vertical_at(main_axes(figure, ball_line), ball_line, situation, 10.0)

    # The ball ahead of the second-last defender sets the line.
    situation = build(
        [
            touch("a1", "pass", (36, 0), 0.0, a1=(36, 0), a2=(36.3, 5), d1=(30, 3), gk=(45, 0)),
            touch("a2", "shot", (37, 5), 1.0, a1=(36, 0), a2=(37, 5), d1=(31, 3), gk=(45, 0)),
        ]
    )
    situation, verdict, figure = judged(situation)
    assert verdict.judgement.line.x_m == pytest.approx(36)
    assert by_gid(figure, "ball-line") == []
    drawn = one(figure, "offside-line")
    assert_vertical_at(main_axes(figure, drawn), drawn, situation, 36.0)
    assert one(figure, "offside-line-label").get_text() == "offside line: the ball"


# -- the banner -------------------------------------------------------------------------------


def test_banner_says_offside_with_the_offender_and_margin() -> None:
    _, verdict, figure = judged(through_ball(attacker_x=30.5))
    assert verdict.status is Status.OFFENCE
    assert banner(figure) == "OFFSIDE \u2014 A2, 50 cm"
    assert "Law 11.2" in one(figure, "banner-reason").get_text()


def test_banner_says_onside() -> None:
    _, verdict, figure = judged(through_ball(attacker_x=29.0))
    assert verdict.status is Status.NO_OFFENCE
    assert banner(figure).startswith("ONSIDE")
    assert "OFFSIDE" not in banner(figure)


def test_banner_says_undecidable_with_one_defender() -> None:
    situation = build(
        [
            touch("a1", "pass", (10, 0), 0.0, a1=(10, 0), a2=(30, 5), gk=(45, 0)),
            touch("a2", "shot", (33, 5), 1.0, a1=(12, 0), a2=(33, 5), gk=(45, 0)),
        ],
        players=[
            {"id": "a1", "team": "A"},
            {"id": "a2", "team": "A"},
            {"id": "gk", "team": "D", "goalkeeper": True},
            {"id": "d9", "team": "D"},  # listed, not on the pitch
        ],
    )
    situation, verdict, figure = judged(situation)
    assert verdict.status is Status.UNDECIDABLE
    assert banner(figure).startswith("UNDECIDABLE")
    assert by_gid(figure, "offside-line") == []


# -- players and the ball ---------------------------------------------------------------------


def test_players_and_ball_are_drawn_at_the_judged_touch() -> None:
    situation, verdict, figure = judged(through_ball())
    assert verdict.judged_at == 0
    at = situation.touches[0]
    for player_id, where in at.positions.items():
        marker = one(figure, f"player:{player_id}")
        axes = main_axes(figure, marker)
        np.testing.assert_allclose(
            display_points(marker)[0],
            expected_display(axes, situation, where.x_m, where.y_m),
            atol=0.5,
        )
    ball = one(figure, "ball")
    np.testing.assert_allclose(
        display_points(ball)[0],
        expected_display(main_axes(figure, ball), situation, 10.0, 0.0),
        atol=0.5,
    )
    # The offender where he played the ball, faintly.
    ghost = one(figure, "involved:a2")
    np.testing.assert_allclose(
        display_points(ghost)[0],
        expected_display(main_axes(figure, ghost), situation, 33.0, 5.0),
        atol=0.5,
    )
    # The ball's path through the touches, in order.
    path = one(figure, "ball-path")
    np.testing.assert_allclose(
        display_points(path),
        [expected_display(main_axes(figure, path), situation, x, y) for x, y in ((10, 0), (33, 5))],
        atol=0.5,
    )


def test_judged_touch_is_the_last_team_mates_play_not_the_first_touch() -> None:
    """After a new pass by a team-mate, positions are those of that pass."""
    situation = build(
        [
            touch(
                "a1",
                "pass",
                (0, 0),
                0.0,
                a1=(0, 0),
                a2=(20, 5),
                a3=(10, -5),
                d1=(30, 3),
                gk=(45, 0),
            ),
            touch(
                "a3",
                "pass",
                (15, -5),
                1.0,
                a1=(2, 0),
                a2=(31, 5),
                a3=(15, -5),
                d1=(30, 3),
                gk=(45, 0),
            ),
            touch(
                "a2",
                "shot",
                (34, 5),
                2.0,
                a1=(2, 0),
                a2=(34, 5),
                a3=(16, -5),
                d1=(31, 3),
                gk=(45, 0),
            ),
        ]
    )
    situation, verdict, figure = judged(situation)
    assert verdict.judged_at == 1
    marker = one(figure, "player:a2")
    np.testing.assert_allclose(
        display_points(marker)[0],
        expected_display(main_axes(figure, marker), situation, 31, 5),
        atol=0.5,
    )


def test_view_is_zoomed_on_the_action_with_true_aspect_and_the_penalty_area() -> None:
    situation, verdict, figure = judged(through_ball())
    axes = main_axes(figure, one(figure, "offside-line"))
    x0, x1 = axes.get_xlim()
    y0, y1 = axes.get_ylim()
    half_l = LENGTH / 2
    # Zoomed: not the whole pitch, but the ball, the line and the attacker are in view.
    assert x1 - x0 < LENGTH
    for x_m, y_m in ((10, 0), (30, 3), (30.5, 5), (33, 5)):
        assert x0 < x_m < x1 and y0 < y_m < y1
    # Near goal, the penalty area is in view (16.5 m deep, 40.32 m wide).
    assert x1 >= half_l and x0 <= half_l - 16.5
    assert y0 <= -20.16 and y1 >= 20.16
    # A metre is as long across the pitch as along it.
    box = axes.get_window_extent()
    assert (x1 - x0) / (y1 - y0) == pytest.approx(box.width / box.height, rel=0.01)


# -- nothing crashes --------------------------------------------------------------------------


def test_no_judgement_when_no_attacker_played_the_ball(tmp_path: Path) -> None:
    situation = build([touch("d1", "clearance", (30, 3), 0.0, a2=(31, 5), d1=(30, 3), gk=(45, 0))])
    verdict = varroom.judge(situation)
    assert verdict.judgement is None
    render_png(situation, verdict, tmp_path / "none.png")
    assert (tmp_path / "none.png").stat().st_size > 0


def test_unnamed_players_missing_players_single_touch_minus_x(tmp_path: Path) -> None:
    players = [
        {"id": "a1", "team": "A", "number": 9},
        {"id": "a2", "team": "A"},
        {"id": "d1", "team": "D"},
        {"id": "gk", "team": "D", "goalkeeper": True, "number": 1},
        {"id": "d2", "team": "D", "name": "Only Name"},
    ]
    single = build(
        [touch("a1", "pass", (-10, 0), 0.0, a1=(-10, 0), a2=(-31, 5), d1=(-30, 3), gk=(-45, 0))],
        towards="-x",
        players=players,
    )
    situation, verdict, figure = judged(single)
    assert verdict.status is Status.NO_OFFENCE
    render_png(situation, verdict, tmp_path / "single.png")
    drawn = one(figure, "offside-line")
    assert_vertical_at(main_axes(figure, drawn), drawn, situation, -30.0)
    # d2 is listed but never on the pitch: not drawn.
    assert by_gid(figure, "player:d2") == []


def test_touch_by_nobody_off_the_woodwork(tmp_path: Path) -> None:
    situation = build(
        [
            touch("a1", "shot", (30, 0), 0.0, a1=(30, 0), a2=(40, 5), d1=(38, 3), gk=(49, 0)),
            touch(None, "woodwork", (50, 3.6), 0.5, a2=(41, 5), d1=(39, 3), gk=(49, 0)),
            touch("a2", "shot", (44, 3), 1.0, a2=(44, 3), d1=(40, 3), gk=(49, 0)),
        ]
    )
    situation, verdict, figure = judged(situation)
    assert verdict.status is Status.OFFENCE
    render_png(situation, verdict, tmp_path / "woodwork.png")


def test_every_example_draws_its_offside_line_where_the_verdict_says() -> None:
    files = sorted(EXAMPLES.glob("*.json"))
    assert files
    for file in files:
        situation = varroom.load_situation(file)
        verdict = varroom.judge(situation)
        figure = draw(situation, verdict)
        assert (
            banner(figure).split(" ")[0]
            in {
                Status.OFFENCE: {"OFFSIDE"},
                Status.NO_OFFENCE: {"ONSIDE", "NO"},
                Status.UNDECIDABLE: {"UNDECIDABLE"},
            }[verdict.status]
        ), file.name
        line = None if verdict.judgement is None else verdict.judgement.line
        if line is None:
            assert by_gid(figure, "offside-line") == [], file.name
            continue
        drawn = one(figure, "offside-line")
        assert_vertical_at(main_axes(figure, drawn), drawn, situation, line.x_m)


def test_kane_picture() -> None:
    situation = varroom.load_situation(KANE)
    situation, verdict, figure = judged(situation)
    assert banner(figure) == "OFFSIDE \u2014 Kane, 4 cm"
    assert one(figure, "offside-line-label").get_text() == "offside line: the ball"
    assert one(figure, "margin-label").get_text().startswith("+4 cm  Kane, left knee")
    drawn = one(figure, "offside-line")
    assert_vertical_at(main_axes(figure, drawn), drawn, situation, verdict.judgement.line.x_m)
    # The close call gets a magnified view, with the same line in it.
    zoomed = one(figure, "zoom:offside-line")
    assert_vertical_at(main_axes(figure, zoomed), zoomed, situation, verdict.judgement.line.x_m)


# -- the file ---------------------------------------------------------------------------------


def png_size(path: Path) -> tuple[int, int]:
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    assert data[12:16] == b"IHDR"
    width, height = struct.unpack(">II", data[16:24])
    assert data[-8:-4] == b"IEND", "truncated PNG"
    return width, height


def test_png_is_written_whole_at_the_expected_size(tmp_path: Path) -> None:
    situation, verdict, _ = judged(through_ball())
    target = tmp_path / "offside.png"
    render_png(situation, verdict, str(target))
    assert png_size(target) == (1600, 1000)
    assert [p.name for p in tmp_path.iterdir()] == ["offside.png"]


def test_missing_directory_is_a_varroom_error(tmp_path: Path) -> None:
    situation, verdict, _ = judged(through_ball())
    with pytest.raises(RenderError, match="no directory") as raised:
        render_png(situation, verdict, tmp_path / "nowhere" / "x.png")
    assert isinstance(raised.value, VarroomError)
    with pytest.raises(RenderError, match="is a directory"):
        render_png(situation, verdict, tmp_path)


@pytest.mark.parametrize("error", [OSError(28, "No space left on device"), RuntimeError("boom")])
def test_failure_while_writing_leaves_no_partial_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, error: Exception
) -> None:
    situation, verdict, _ = judged(through_ball())
    target = tmp_path / "x.png"
    target.write_bytes(b"the previous picture")

    def failing_savefig(self: Figure, stream: Any, **kwargs: Any) -> None:
        stream.write(b"\x89PNG\r\n\x1a\n half a picture")
        raise error

    monkeypatch.setattr(Figure, "savefig", failing_savefig)
    expected = RenderError if isinstance(error, OSError) else type(error)
    with pytest.raises(expected):
        render_png(situation, verdict, target)
    # The old file is untouched and no temporary file is left behind.
    assert target.read_bytes() == b"the previous picture"
    assert [p.name for p in tmp_path.iterdir()] == ["x.png"]


def test_cli_reports_an_unwritable_image_path_in_one_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from varroom.cli import main

    source = tmp_path / "s.json"
    source.write_text(
        json.dumps(
            {
                "players": [
                    {"id": "a1", "team": "A"},
                    {"id": "a2", "team": "A"},
                    {"id": "d1", "team": "D"},
                    {"id": "gk", "team": "D"},
                ],
                "attack": {"team": "A", "towards": "+x"},
                "touches": [
                    touch("a1", "pass", (10, 0), 0, a1=(10, 0), a2=(31, 5), d1=(30, 3), gk=(45, 0)),
                ],
            }
        )
    )
    target = tmp_path / "missing" / "x.png"
    monkeypatch.setattr(sys, "argv", ["varroom", "check", str(source), "--image", str(target)])
    with pytest.raises(SystemExit) as exited:
        main()
    assert exited.value.code == RenderError.exit_code
    err = capsys.readouterr().err
    assert err.startswith("varroom: cannot write the picture") and "Traceback" not in err
    assert len(err.strip().splitlines()) == 1
    assert not target.parent.exists()


def test_cli_writes_the_image(tmp_path: Path, run_cli: Any) -> None:
    source = tmp_path / "s.json"
    source.write_text(
        json.dumps(
            {
                "players": [
                    {"id": "a1", "team": "A"},
                    {"id": "a2", "team": "A"},
                    {"id": "d1", "team": "D"},
                    {"id": "gk", "team": "D"},
                ],
                "touches": [
                    touch("a1", "pass", (10, 0), 0, a1=(10, 0), a2=(31, 5), d1=(30, 3), gk=(45, 0)),
                    touch("a2", "shot", (33, 5), 1, a1=(12, 0), a2=(33, 5), d1=(31, 3), gk=(45, 0)),
                ],
            }
        )
    )
    result = run_cli("check", str(source), "--json", "--image", str(tmp_path / "out.png"))
    assert result.exit_code == 0
    assert json.loads(result.stdout)["offence"] is True
    assert png_size(tmp_path / "out.png") == (1600, 1000)


def test_draw_does_not_touch_pyplot() -> None:
    situation, verdict, _ = judged(through_ball())
    before = set(sys.modules)
    draw(situation, verdict)
    assert "matplotlib.pyplot" not in set(sys.modules) - before
    if "matplotlib.pyplot" in sys.modules:  # imported by something else: no figure of ours in it
        import matplotlib.pyplot as plt

        assert plt.get_fignums() == []


def test_margin_text_matches_distance_rounding() -> None:
    """The label is built from the same margin as the verdict, never re-measured."""
    _, verdict, figure = judged(through_ball(attacker_x=31.234))
    assert math.isclose(verdict.margin_m, 1.234, abs_tol=1e-9)
    assert one(figure, "margin-label").get_text().startswith("+1.23 m")
    assert banner(figure) == "OFFSIDE \u2014 A2, 1.23 m"


@pytest.mark.parametrize("sign", [1.0, -1.0])
def test_closeup_shows_the_margins_95_percent_interval_when_the_verdict_has_one(
    sign: float,
) -> None:
    _, verdict, figure = judged(through_ball(sign, attacker_x=30.04))
    spread = verdict.uncertainty
    assert spread is not None
    ends = sorted(float(x) for x in one(figure, "closeup-interval").get_xdata())
    expected = sorted(sign * v for v in spread.margin_ci_m)
    assert ends == pytest.approx(expected)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=situations())
def test_any_valid_situation_draws_and_its_line_is_where_the_verdict_says(data: dict) -> None:
    situation = varroom.parse_situation(json.dumps(data))
    verdict = varroom.judge(situation)
    figure = draw(situation, verdict)
    assert banner(figure)
    line = None if verdict.judgement is None else verdict.judgement.line
    if line is None:
        assert by_gid(figure, "offside-line") == []
    else:
        drawn = one(figure, "offside-line")
        assert_vertical_at(main_axes(figure, drawn), drawn, situation, line.x_m)


def test_uncertainty_band_is_centred_on_the_offside_line_with_the_95_percent_half_width():
    situation = varroom.load_situation(EXAMPLES / "tottenham-sporting-2022-kane.json")
    verdict = varroom.judge(situation)
    figure = draw(situation, verdict)
    band = next(a for a in figure.findobj() if a.get_gid() == "uncertainty-band")
    left, width = band.get_x(), band.get_width()
    half_band = 1.96 * verdict.uncertainty.margin_se_m
    assert width == pytest.approx(2 * half_band)
    assert left + width / 2 == pytest.approx(verdict.judgement.line.x_m)


def test_the_old_render_module_still_works_for_one_release_with_a_warning() -> None:
    import varroom.render as old

    with pytest.warns(DeprecationWarning, match="varroom.pictures.decision.write_decision"):
        assert old.render_png is render_png
    with pytest.warns(DeprecationWarning, match="draw_decision"):
        assert old.draw is draw
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        assert old.RenderError is RenderError
    with pytest.raises(AttributeError):
        _ = old.nothing_of_the_kind


def test_importing_the_old_render_module_imports_no_matplotlib() -> None:
    import subprocess

    code = (
        "import sys, varroom.render\n"
        "assert not any(m.startswith('matplotlib') for m in sys.modules), 'matplotlib imported'\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True, env={"PYTHONPATH": str(SRC)})


# -- what the picture says comes from the verdict ------------------------------------------------


def test_every_example_marks_the_touch_the_verdict_judged_positions_at() -> None:
    """The touches list says 'positions judged' at `verdict.judged_at` and nowhere else (for
    Kane: Emerson's header, not Perisic's cross)."""
    for file in sorted(EXAMPLES.glob("*.json")):
        situation = varroom.load_situation(file)
        verdict = varroom.judge(situation)
        figure = draw(situation, verdict)
        judged = [
            int(artist.get_gid().split(":")[1])
            for artist in by_gid_prefix(figure, "touch-what:")
            if artist.get_text().startswith(("positions judged", "judged;"))
        ]
        expected = [] if verdict.judgement is None else [verdict.judged_at]
        assert judged == expected, file.name
    kane = varroom.load_situation(KANE)
    verdict = varroom.judge(kane)
    assert kane.touches[verdict.judged_at].player == "emerson"


def test_the_attackers_own_play_is_not_called_a_team_mates() -> None:
    situation = varroom.load_situation(EXAMPLES / "only-arm-beyond-onside.json")
    verdict = varroom.judge(situation)
    figure = draw(situation, verdict)
    focus = verdict.offender or verdict.nearest_attacker
    own = [
        artist.get_text()
        for artist in by_gid_prefix(figure, "touch-what:")
        if situation.touches[int(artist.get_gid().split(":")[1])].player == focus
    ]
    assert own and all("team-mate" not in text for text in own)


def test_banner_text_is_never_cut_off() -> None:
    situation = varroom.load_situation(KANE)
    verdict = varroom.judge(situation)
    figure = draw(situation, verdict)
    details = one(figure, "banner-details").get_text()
    assert str(situation.meta["competition"]) in details and "\u2026" not in details
    reason = " ".join(one(figure, "banner-reason").get_text().split())
    assert reason.startswith(verdict.reason.split(". ")[0]) and "\u2026" not in reason


def test_shirt_numbers_an_icon_would_hide_move_into_the_name() -> None:
    """Kane's measured knee sits on his marker: his number goes into his label, not under it."""
    situation = varroom.load_situation(KANE)
    figure = draw(situation, varroom.judge(situation))
    assert by_gid(figure, "number:kane") == []
    assert one(figure, "label:kane").get_text() == "10 Kane"


def by_gid_prefix(figure: Figure, prefix: str) -> list[Any]:
    return list(figure.findobj(lambda artist: str(artist.get_gid() or "").startswith(prefix)))


# -- the shared look -------------------------------------------------------------------------------


def test_text_style_roles_become_matplotlib_keywords() -> None:
    from varroom.pictures import style
    from varroom.pictures.typeset import LabelBox, TextStyle

    plain = TextStyle(9, colour=style.MUTED, ha="right").kwargs()
    face = plain.pop("fontproperties")
    assert plain == {"color": style.MUTED, "ha": "right", "va": "center"}
    # Every face by its file: DejaVu Sans from matplotlib's mpl-data, never a system lookup.
    assert face.get_size() == 9 and Path(face.get_file()).name == "DejaVuSans.ttf"
    boxed = TextStyle(10, weight="bold", halo=3, box=LabelBox(alpha=None), clip=True).kwargs()
    assert Path(boxed["fontproperties"].get_file()).name == "DejaVuSans-Bold.ttf"
    assert boxed["clip_on"] is True
    assert boxed["bbox"] == {
        "boxstyle": "round,pad=0.3",
        "facecolor": style.LABEL_BOX,
        "edgecolor": "none",
    }
    assert len(boxed["path_effects"]) == 1
    headline = TextStyle(40, headline=True).kwargs()
    assert "fontsize" not in headline and headline["fontproperties"].get_size() == 40
    assert Path(headline["fontproperties"].get_file()).name == "RobotoCondensed-Bold.ttf"


# -- the shared geometry ---------------------------------------------------------------------------

coordinate = st.floats(-40, 40, allow_nan=False)


@settings(max_examples=60, deadline=None)
@given(
    points=st.lists(
        st.tuples(coordinate, st.floats(-25, 25, allow_nan=False)), min_size=1, max_size=8
    ),
    aspect=st.floats(0.6, 2.5),
    sign=st.sampled_from([1.0, -1.0]),
)
def test_the_view_fitter_holds_every_point_at_the_asked_shape(
    points: list[tuple[float, float]], aspect: float, sign: float
) -> None:
    from varroom.model.situation import Pitch
    from varroom.pictures.topdown import fit_box

    pitch = Pitch(105.0, 68.0)
    x0, y0, x1, y1 = fit_box(points, pitch, aspect, sign, pad_m=2.0, min_span=(20.0, 12.0))
    assert (x1 - x0) / (y1 - y0) == pytest.approx(aspect)
    assert x1 - x0 >= 20.0 - 1e-9 and y1 - y0 >= 12.0 - 1e-9
    for x, y in points:  # inside the pitch and 4 m round it, so never slid away
        assert x0 - 1e-9 <= x <= x1 + 1e-9 and y0 - 1e-9 <= y <= y1 + 1e-9


@settings(max_examples=100, deadline=None)
@given(
    ends=st.lists(st.floats(-50, 150, allow_nan=False), min_size=4, max_size=4),
    t=st.floats(0, 1),
)
def test_the_segment_clip_keeps_exactly_the_part_inside(ends: list[float], t: float) -> None:
    from varroom.model.camera import clip_segment

    box = (0.0, 0.0, 100.0, 60.0)
    segment = np.array([[ends[0], ends[1]], [ends[2], ends[3]]])
    piece = clip_segment(segment, box)
    point = segment[0] + t * (segment[1] - segment[0])
    inside = 0 <= point[0] <= 100 and 0 <= point[1] <= 60
    if piece is None:
        # Nothing of it is inside (allowing for rounding at the edge).
        assert not (0.001 <= point[0] <= 99.999 and 0.001 <= point[1] <= 59.999)
        return
    for end in piece:  # the piece lies in the box, on the segment
        assert -1e-9 <= end[0] <= 100 + 1e-9 and -1e-9 <= end[1] <= 60 + 1e-9
        (dx, dy), (ex, ey) = segment[1] - segment[0], end - segment[0]
        cross = dx * ey - dy * ex
        assert abs(cross) <= 1e-6 * (1 + np.linalg.norm(segment[1] - segment[0]) ** 2)
    if inside and 0.001 < t < 0.999:
        # A point of the segment inside the box is between the piece's ends.
        a, b = piece
        assert np.dot(point - a, point - b) <= 1e-6
