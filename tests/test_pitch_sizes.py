"""One pitch for every reader (issue 22, item 4): Law 1 allows 90-120 m by 45-90 m, and each
format's positions are checked against the pitch its file states, never the 105 x 68 m
default. A point is placed just inside and just outside the limit of the stated pitch: on
the default pitch the first would be refused (a 120 m pitch) or the second accepted (a 100 m
one), so a reader that checked the default could not pass both."""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from PIL import Image

from varroom import judge_penalty
from varroom.errors import InputError
from varroom.formats.ball_line_json import ball_line_from_dict
from varroom.formats.penalty_json import penalty_kick_from_dict
from varroom.formats.situation_json import situation_from_dict
from varroom.live.stream import Header, StreamReader
from varroom.model.situation import Pitch
from varroom.still.marks import marks_from_dict

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples"
PITCHES = [(120.0, 90.0), (100.0, 64.0)]
# How far beyond a line each format lets a point lie (docs/formats/): a player 10 m (the
# ground around the pitch), a tracked ball 20 m, a landmark none (it is a marking).
SITUATION_LIMIT_M = 10.0
BALL_LIMIT_M = 20.0
LANDMARK_LIMIT_M = 0.0


def _example(name: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((EXAMPLES / name).read_text())
    return data


def _situation(x_m: float, pitch: tuple[float, float]) -> dict[str, Any]:
    data = _example("through-ball-beyond-second-last-defender-offence.json")
    data["pitch"] = {"length": pitch[0], "width": pitch[1]}
    touch = data["touches"][0]
    player = next(p for p in touch["positions"] if p != touch["player"])
    touch["positions"][player] = {"x": x_m, "y": 0.0}
    return data


def _penalty(x_m: float, pitch: tuple[float, float]) -> dict[str, Any]:
    data = _example("penalty/legal-penalty-saved.json")
    data["pitch"] = {"length": pitch[0], "width": pitch[1]}
    kick = data["kick"]
    keeper = next(p["id"] for p in data["players"] if p.get("goalkeeper"))
    player = next(p for p in data["positions"] if p not in (kick["kicker"], keeper))
    data["positions"][player] = {"x": x_m, "y": 0.0}
    return data


def _ball_line(x_m: float, pitch: tuple[float, float]) -> dict[str, Any]:
    data = _example("ball-line/goal-by-millimetres.json")
    data["pitch"] = {"length": pitch[0], "width": pitch[1]}
    data["ball_track"][-1][1] = x_m
    return data


STILL = EXAMPLES / "still" / "offside-by-20cm"


def _marks(x_m: float, pitch: tuple[float, float]) -> dict[str, Any]:
    data = json.loads(STILL.with_suffix(".marks.json").read_text())
    data["pitch"] = {"length": pitch[0], "width": pitch[1]}
    # The still's markings are by the +x goal: moved with its goal line onto this pitch.
    for landmark in data["landmarks"]:
        landmark["pitch"][0] += (pitch[0] - 105.0) / 2
    data["landmarks"][0]["pitch"] = [x_m, 0.0]
    return data


def _read_marks(data: dict[str, Any]) -> object:
    with Image.open(STILL.with_suffix(".png")) as image:
        size = image.size
    return marks_from_dict(data, size, "marks.json")


FORMATS: dict[str, tuple[Callable[..., dict[str, Any]], Callable[[Any], object], float]] = {
    "situation": (_situation, situation_from_dict, SITUATION_LIMIT_M),
    "penalty_kick": (_penalty, penalty_kick_from_dict, SITUATION_LIMIT_M),
    "ball_line": (_ball_line, ball_line_from_dict, BALL_LIMIT_M),
    "still_marks": (_marks, _read_marks, LANDMARK_LIMIT_M),
}


@pytest.mark.parametrize("sign", [1.0, -1.0], ids=["+x", "-x"])
@pytest.mark.parametrize("pitch", PITCHES, ids=lambda p: f"{p[0]:g}x{p[1]:g}")
@pytest.mark.parametrize("kind", sorted(FORMATS))
def test_each_format_checks_positions_against_its_own_pitch(
    kind: str, pitch: tuple[float, float], sign: float
) -> None:
    build, read, limit_m = FORMATS[kind]
    half = pitch[0] / 2
    read(build(sign * (half + limit_m - 0.5), pitch))
    with pytest.raises(InputError) as refused:
        read(build(sign * (half + limit_m + 0.5), pitch))
    assert refused.value.where.startswith("$.")
    assert f"{pitch[0]:g}" in refused.value.problem or kind == "ball_line"


@pytest.mark.parametrize("pitch", PITCHES, ids=lambda p: f"{p[0]:g}x{p[1]:g}")
def test_the_frame_stream_keeps_the_pitch_of_its_header(pitch: tuple[float, float]) -> None:
    header = {
        "kind": "header",
        "fps": 25,
        "pitch": {"length": pitch[0], "width": pitch[1]},
        "players": [{"id": "a9", "team": "A"}, {"id": "b4", "team": "B"}],
        "attack": {"A": {"1": "+x"}, "B": {"1": "-x"}},
        "events": False,
    }
    read = StreamReader().read(json.dumps(header))
    assert isinstance(read, Header)
    assert read.pitch == Pitch(*pitch)


@pytest.mark.parametrize("direction", ["+x", "-x"])
@pytest.mark.parametrize("pitch", PITCHES, ids=lambda p: f"{p[0]:g}x{p[1]:g}")
@pytest.mark.parametrize(
    "name", sorted(p.name for p in (EXAMPLES / "penalty").glob("*.json")), ids=str
)
def test_a_penalty_moved_with_its_goal_line_is_decided_alike(
    name: str, pitch: tuple[float, float], direction: str
) -> None:
    """Law 14 measures from the goal line, the mark and the area: the same kick on another
    pitch, every point kept as far from the goal line attacked, is decided the same way."""
    base = _example(f"penalty/{name}")
    if direction == "-x":
        base["attack"] = {**base["attack"], "towards": "-x"}
        _map_points(base, lambda x, y: (-x, -y), mirror=True)
    moved = copy.deepcopy(base)
    shift = (1.0 if direction == "+x" else -1.0) * (pitch[0] - 105.0) / 2
    moved["pitch"] = {**moved.get("pitch", {}), "length": pitch[0], "width": pitch[1]}
    _map_points(moved, lambda x, y: (x + shift, y), mirror=False)
    before = judge_penalty(penalty_kick_from_dict(base))
    after = judge_penalty(penalty_kick_from_dict(moved))
    assert after.decision == before.decision
    assert [(o.player, o.what) for o in after.offences] == [
        (o.player, o.what) for o in before.offences
    ]


def _map_points(
    data: dict[str, Any], move: Callable[[float, float], tuple[float, float]], *, mirror: bool
) -> None:
    """Every point of a penalty kick moved in place: the ball, where it went, each player
    and his body parts (a part given by x alone keeps no y); `mirror` turns velocities too."""
    points = [data["kick"]["ball"]] + ([data["ball_after"]] if "ball_after" in data else [])
    for point in points:
        point[0], point[1] = move(point[0], point[1])
    for position in data["positions"].values():
        position["x"], position["y"] = move(position["x"], position["y"])
        if mirror and "v" in position:
            position["v"] = [-position["v"][0], -position["v"][1]]
        parts = position.get("parts", {})
        for name, part in parts.items():
            if isinstance(part, list):
                part[0], part[1] = move(part[0], part[1])
            else:
                parts[name] = move(part, 0.0)[0]
