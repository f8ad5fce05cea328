"""The 3D scene must carry the decision's geometry: the plane at the offside line, every player
where the judged touch has him, body parts where the tracker put them; and stay one small,
self-contained page."""

from __future__ import annotations

import json
import os
import re
import subprocess
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings

import varroom
from machine import Need, chromium
from situations import load, situations
from varroom.pictures import PictureError, write_scene
from varroom.pictures.body import BONES, POSE
from varroom.pictures.scene import scene_data, scene_html

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
KANE = EXAMPLES / "tottenham-sporting-2022-kane.json"


def embedded(html: str) -> dict[str, Any]:
    found = re.findall(
        r'<script type="application/json" id="scene-data">(.*?)</script>', html, flags=re.S
    )
    assert len(found) == 1
    return json.loads(found[0])


def written(tmp_path: Path, path: Path = KANE) -> tuple[varroom.Situation, varroom.Verdict, str]:
    situation = varroom.load_situation(path)
    verdict = varroom.judge(situation)
    target = tmp_path / "scene.html"
    write_scene(situation, verdict, target)
    assert os.listdir(tmp_path) == ["scene.html"]
    return situation, verdict, target.read_text(encoding="utf-8")


def test_plane_and_players_where_the_verdict_has_them(tmp_path: Path) -> None:
    situation, verdict, html = written(tmp_path)
    data = embedded(html)
    line = verdict.judgement.line
    assert data["plane"]["x"] == pytest.approx(line.x_m, abs=5e-4)
    assert data["plane"]["set_by"] == "ball"
    assert data["ball_line_x"] == pytest.approx(line.ball_x_m, abs=5e-4)
    touch = situation.touches[verdict.judged_at]
    assert data["moment"]["touch"] == verdict.judged_at
    assert data["ball"] == pytest.approx(list(touch.ball_m), abs=5e-4)
    players = {p["id"]: p for p in data["players"]}
    assert set(players) == set(touch.positions)
    for pid, position in touch.positions.items():
        assert players[pid]["x"] == pytest.approx(position.x_m, abs=5e-4)
        assert players[pid]["y"] == pytest.approx(position.y_m, abs=5e-4)
        assert players[pid]["attacker"] == situation.is_attacker(pid)
    assert players["kane"]["role"] == "attacker"
    assert data["margin"] == "4 cm"
    assert data["headline"] == "GOAL DISALLOWED \u2014 OFFSIDE"


def test_body_parts_become_a_skeleton_at_the_given_points(tmp_path: Path) -> None:
    situation, verdict, html = written(tmp_path)
    players = {p["id"]: p for p in embedded(html)["players"]}
    kane = players["kane"]
    assert kane["body"] == "skeleton"
    given_parts = situation.touches[verdict.judged_at].positions["kane"].parts
    assert sorted(kane["measured"]) == sorted(p.part.value for p in given_parts)
    for part in given_parts:
        assert kane["joints"][part.part.value][0] == pytest.approx(part.x_m, abs=5e-4)
    assert set(kane["joints"]) == set(POSE)
    # The nearest counting part: the left knee, at a knee's height, on the plane's far side.
    reach = verdict.judgement.attackers["kane"].reach
    assert kane["reach"][:2] == pytest.approx([reach.x_m, reach.y_m], abs=5e-4)
    assert kane["reach"][2] == pytest.approx(POSE["left_knee"][2])
    assert kane["reach"][0] > embedded(html)["plane"]["x"] - 1e-9
    # Without parts, a simple figure.
    assert players["son"]["body"] == "figure" and players["son"]["joints"] == {}
    assert embedded(html)["bones"] == [list(b) for b in BONES]


def test_parts_given_in_three_dimensions_keep_their_height() -> None:
    data = json.loads(KANE.read_text())
    data["touches"][1]["positions"]["coates"]["parts"] = {
        "head": [49.3, 0.5, 1.83],
        "left_foot": [49.25, 0.8],
    }
    situation = load(data)
    verdict = varroom.judge(situation)
    coates = {p["id"]: p for p in scene_data(situation, verdict)["players"]}["coates"]
    assert coates["joints"]["head"] == [49.3, 0.5, 1.83]
    assert coates["joints"]["left_foot"] == [49.25, 0.8, POSE["left_foot"][2]]


@settings(max_examples=40, deadline=None)
@given(situations())
def test_random_scenes_carry_the_line_and_the_positions(data: dict) -> None:
    situation = load(data)
    verdict = varroom.judge(situation)
    scene = scene_data(situation, verdict)
    line = verdict.judgement.line if verdict.judgement is not None else None
    if line is None:
        assert scene["plane"] is None
    else:
        assert scene["plane"]["x"] == pytest.approx(line.x_m, abs=5e-4)
    judged = situation.touches[verdict.judged_at or 0]
    players = {p["id"]: p for p in scene["players"]}
    assert set(players) == set(judged.positions)
    for pid, pos in judged.positions.items():
        assert (players[pid]["x"], players[pid]["y"]) == pytest.approx((pos.x_m, pos.y_m), abs=5e-4)


def test_the_page_is_small_and_self_contained(tmp_path: Path) -> None:
    _, _, html = written(tmp_path)
    assert len(html.encode("utf-8")) < 200_000
    assert "http://" not in html and "https://" not in html
    # Nothing is fetched: no external scripts, styles, images or fonts.
    assert not re.search(r"<script[^>]+src=", html)
    assert not re.search(r"<link\b", html)
    assert "url(" not in html and "@import" not in html and "<img" not in html
    assert "WebGL" not in html and 'getContext("webgl' not in html
    assert 'getContext("2d")' in html


def test_a_name_cannot_end_the_script(tmp_path: Path) -> None:
    data = json.loads(KANE.read_text())
    data["players"][10]["name"] = "Harry </script><script>alert(1)</script> Kane"
    situation = load(data)
    html = scene_html(situation, varroom.judge(situation))
    assert html.count("</script>") == 2  # the data block's and the renderer's
    players = {p["id"]: p for p in embedded(html)["players"]}
    assert "</script>" in players["kane"]["name"]


def test_scene_files_fail_cleanly(tmp_path: Path) -> None:
    situation = varroom.load_situation(KANE)
    verdict = varroom.judge(situation)
    with pytest.raises(PictureError, match="no directory"):
        write_scene(situation, verdict, tmp_path / "missing" / "scene.html")
    with pytest.raises(PictureError, match=r"\.html"):
        write_scene(situation, verdict, tmp_path / "scene.png")
    assert list(tmp_path.iterdir()) == []


@pytest.mark.needs(Need.CHROMIUM)
def test_the_page_draws_in_a_browser_without_errors(tmp_path: Path) -> None:
    from PIL import Image

    _, _, _ = written(tmp_path)
    shot = tmp_path / "shot.png"
    run = subprocess.run(
        [chromium(), "--headless", "--no-sandbox", "--disable-gpu", "--enable-logging=stderr",
         "--v=0", f"--screenshot={shot}", "--window-size=800,500", "--virtual-time-budget=2000",
         (tmp_path / "scene.html").as_uri()],
        capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert shot.is_file(), run.stderr[-2000:]
    assert "Uncaught" not in run.stderr, run.stderr[-2000:]
    with Image.open(shot) as image:
        colours = image.convert("RGB").resize((80, 50)).getcolors(4000)
    assert colours is not None and len(colours) > 50  # a drawn scene, not a blank page


def test_the_scene_needs_no_matplotlib() -> None:
    code = (
        "import sys, varroom\n"
        "from varroom.pictures import write_scene\n"
        f"s = varroom.load_situation({str(KANE)!r})\n"
        "import tempfile, pathlib\n"
        "with tempfile.TemporaryDirectory() as d:\n"
        "    write_scene(s, varroom.judge(s), pathlib.Path(d) / 'scene.html')\n"
        "assert 'matplotlib' not in sys.modules, 'matplotlib imported'\n"
    )
    import sys

    subprocess.run([sys.executable, "-c", code], check=True, timeout=60)
