"""The broadcast perspective must put things where the camera model says.

Cameras are built from known parts (intrinsics K, rotation R, translation t: P = K [R | t]) and
checked against projecting by hand; homographies are fitted from points a known H produced.
"""

from __future__ import annotations

import json
import math
import struct
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from matplotlib.lines import Line2D

import varroom
from varroom.errors import InputError
from varroom.formats.camera_json import camera_from_json
from varroom.model.camera import (
    DegenerateLandmarks,
    fit_homography,
    homography_camera,
    look_at,
    projection_camera,
)
from varroom.pictures import draw_broadcast, write_broadcast
from varroom.pictures.broadcast import line_segment

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
KANE = EXAMPLES / "tottenham-sporting-2022-kane.json"


def rotation(yaw: float, pitch: float, roll: float) -> np.ndarray:
    cz, sz = math.cos(yaw), math.sin(yaw)
    cy, sy = math.cos(pitch), math.sin(pitch)
    cx, sx = math.cos(roll), math.sin(roll)
    rz = np.array([[cz, -sz, 0], [sz, cz, 0], [0, 0, 1]])
    ry = np.array([[cy, 0, sy], [0, 1, 0], [-sy, 0, cy]])
    rx = np.array([[1, 0, 0], [0, cx, -sx], [0, sx, cx]])
    return rz @ ry @ rx


def broadcast_parts() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """A main-stand camera: 30 m up, 60 m out from the near touchline, looking at the box."""
    k = np.array([[2200.0, 0.0, 955.0], [0.0, 2200.0, 548.0], [0.0, 0.0, 1.0]])
    eye = np.array([38.0, -70.0, 30.0])
    # Camera axes from a look-at, then a small roll and pan so that nothing is axis-aligned.
    forward = np.array([46.0, 0.0, 0.0]) - eye
    forward /= np.linalg.norm(forward)
    right = np.cross(forward, [0, 0, 1.0])
    right /= np.linalg.norm(right)
    down = np.cross(forward, right)
    r = rotation(0.03, -0.02, 0.05) @ np.array([right, down, forward])
    t = -r @ eye
    return k, r, t


def by_hand(k: np.ndarray, r: np.ndarray, t: np.ndarray, point: np.ndarray) -> np.ndarray:
    cam = r @ point + t
    pix = k @ cam
    return pix[:2] / pix[2]


def test_projection_puts_a_known_point_where_the_model_says() -> None:
    k, r, t = broadcast_parts()
    p = k @ np.column_stack([r, t])
    for scale in (1.0, -3.5, 1e-3):  # P is defined up to scale, sign included
        camera = projection_camera(scale * p)
        for point in ([50.34, -0.9, 0.5], [52.5, 3.66, 2.44], [36.0, -20.16, 0.0], [0, 0, 0]):
            expected = by_hand(k, r, t, np.array(point))
            assert camera.project([point])[0] == pytest.approx(expected, abs=1e-6)
            assert camera.w([point])[0] > 0  # in front of the camera


def test_look_at_is_the_textbook_camera() -> None:
    camera = look_at((0.0, -50.0, 20.0), (0.0, 0.0, 0.0), 1000.0, (1000, 600))
    # The target lands on the principal point, a point to the right (+x) lands right of it,
    # a point above lands above it.
    assert camera.project([(0, 0, 0)])[0] == pytest.approx((500, 300))
    assert camera.project([(5, 0, 0)])[0][0] > 500
    assert camera.project([(0, 0, 3)])[0][1] < 300


def test_projected_offside_line_passes_through_the_projected_pitch_points() -> None:
    k, r, t = broadcast_parts()
    camera = projection_camera(k @ np.column_stack([r, t]))
    situation = varroom.load_situation(KANE)
    for x in (50.34, 36.0, 0.0, -40.0):
        seg = line_segment(camera, x, situation)
        assert seg is not None
        a, b = seg
        direction = (b - a) / np.linalg.norm(b - a)
        for y in np.linspace(-34, 34, 9):
            p = camera.project([(x, y, 0.0)])[0]
            offset = p - a
            # On the line through the segment, and between its ends.
            assert abs(offset[0] * direction[1] - offset[1] * direction[0]) < 1e-6
            along = offset @ direction
            # Between its ends, unless so far out of the frame (beyond two frames) that the
            # drawn piece was cut short there.
            if -2 * 1920 <= p[0] <= 3 * 1920 and -2 * 1080 <= p[1] <= 3 * 1080:
                assert -1e-6 <= along <= np.linalg.norm(b - a) + 1e-6


def test_a_line_passing_behind_the_camera_is_cut_not_wrapped() -> None:
    # A camera on the pitch at x = 30 looking along the touchline towards +y: the line x = 30
    # runs from behind it to in front of it.
    camera = look_at((30.0, -20.0, 1.7), (30.0, 10.0, 1.0), 900.0, (1280, 720))
    situation = varroom.load_situation(KANE)
    seg = line_segment(camera, 30.0, situation)
    assert seg is not None and np.all(np.isfinite(seg))
    ahead = camera.project([(30.0, 0.0, 0.0), (30.0, 30.0, 0.0)])
    for p in ahead:
        offset = p - seg[0]
        d = seg[1] - seg[0]
        assert abs(offset[0] * d[1] - offset[1] * d[0]) / np.linalg.norm(d) < 1e-6
    behind = camera.project([(30.0, -30.0, 0.0)])[0]
    assert np.all(np.isnan(behind))
    # A line wholly behind the camera is not drawn at all.
    back = look_at((0.0, 0.0, 2.0), (10.0, 0.0, 1.0), 900.0)
    assert line_segment(back, -20.0, situation) is None


def ground_homography(k: np.ndarray, r: np.ndarray, t: np.ndarray) -> np.ndarray:
    return k @ np.column_stack([r[:, 0], r[:, 1], t])  # z = 0: columns r1, r2, t


LANDMARKS = [
    (52.5, -34.0), (52.5, 34.0), (36.0, -20.16), (36.0, 20.16), (47.0, -9.16), (47.0, 9.16),
    (0.0, -34.0), (0.0, 34.0),
]  # fmt: skip


@pytest.mark.parametrize("count", [4, 5, 8])
def test_homography_fit_recovers_a_known_homography(count: int) -> None:
    k, r, t = broadcast_parts()
    truth = ground_homography(k, r, t)
    pitch = np.array(LANDMARKS[:count] if count != 4 else [LANDMARKS[i] for i in (0, 1, 6, 7)])
    image = np.column_stack([pitch, np.ones(len(pitch))]) @ truth.T
    image = image[:, :2] / image[:, 2:3]
    fitted, rms = fit_homography(pitch, image)
    assert rms < 1e-6
    assert fitted / fitted[2, 2] == pytest.approx(truth / truth[2, 2], rel=1e-7, abs=1e-9)
    camera = homography_camera(pitch, image)
    # And it projects other ground points as the full camera does.
    full = projection_camera(k @ np.column_stack([r, t]))
    for point in ((50.34, -0.9), (11.0, 3.0), (-30.0, -20.0)):
        assert camera.project([point])[0] == pytest.approx(
            full.project([(*point, 0.0)])[0], abs=1e-6
        )


@pytest.mark.parametrize(
    ("pitch", "problem"),
    [
        ([(0, 0), (10, 0), (0, 10)], "at least 4"),
        ([(0, 0), (10, 0), (0, 10), (0, 0)], "the same"),
        ([(0, 0), (10, 0), (20, 0), (30, 0), (40, 0)], "on one line"),
        ([(0, 0), (10, 0), (20, 0), (0, 10)], "three of the four"),
    ],
)
def test_homography_rejects_degenerate_landmarks(pitch: list, problem: str) -> None:
    image = [(100 + 3 * x + y, 200 + x - 2 * y) for x, y in pitch]
    with pytest.raises(DegenerateLandmarks, match=problem):
        fit_homography(pitch, image)


def test_homography_rejects_a_collapsed_image() -> None:
    pitch = [(0, 0), (10, 0), (10, 10), (0, 10), (5, 5)]
    image = [(100, 100), (200, 100), (300, 100), (400, 100), (250, 100)]
    with pytest.raises(DegenerateLandmarks, match="image points all lie on one line"):
        fit_homography(pitch, image)


# -- the JSON ---------------------------------------------------------------------------------


def with_camera(camera: Any) -> dict[str, Any]:
    data = json.loads(KANE.read_text())
    data["camera"] = camera
    return data


def test_no_camera_is_none() -> None:
    assert camera_from_json(json.loads(KANE.read_text()), KANE) is None
    assert camera_from_json(with_camera(None), KANE) is None


def test_projection_from_json() -> None:
    k, r, t = broadcast_parts()
    p = (k @ np.column_stack([r, t])).tolist()
    camera = camera_from_json(with_camera({"projection": p, "size": [1910, 1096]}), KANE)
    assert camera is not None and camera.kind == "projection" and camera.size == (1910, 1096)
    assert camera.project([(50.0, 1.0, 1.0)])[0] == pytest.approx(
        by_hand(k, r, t, np.array([50.0, 1.0, 1.0]))
    )


@pytest.mark.parametrize(
    ("camera", "where", "problem"),
    [
        ([1, 2], "$.camera", "expected an object"),
        ({}, "$.camera", "exactly one of"),
        ({"projection": [], "homography": {}}, "$.camera", "exactly one of"),
        ({"projection": [[1, 0, 0, 0], [0, 1, 0, 0]]}, "$.camera.projection", "3x4"),
        ({"projection": [[1, 0, 0, 0], [0, 1, 0], [0, 0, 1, 0]]}, "$.camera.projection[1]", "4 numbers"),
        ({"projection": [[1, 0, 0, 0], [0, 1, "a", 0], [0, 0, 1, 0]]}, "$.camera.projection[1][2]", "a number"),
        ({"projection": [[1, 0, 0, 0], [2, 0, 0, 0], [0, 0, 1, 0]]}, "$.camera.projection", "singular"),
        ({"homography": []}, "$.camera.homography", "expected an object"),
        ({"homography": {"pitch": [[0, 0]] * 4}}, "$.camera.homography.image", "missing"),
        ({"homography": {"pitch": [[0, 0]] * 3, "image": [[0, 0]] * 3}}, "$.camera.homography.pitch", "at least 4"),
        ({"homography": {"pitch": [[0, 0], [1, 0], [1, 1], [0, 1]], "image": [[0, 0], [1, 0], [1, 1], [0, 1], [2, 2]]}}, "$.camera.homography", "one for each"),
        ({"homography": {"pitch": [[0, 0], [1, 0], [2, 0], [3, 0]], "image": [[0, 0], [1, 0], [1, 1], [0, 1]]}}, "$.camera.homography", "on one line"),
        ({"homography": {"pitch": [[0, 0], [1, 0], [1, 1], [0, 1, 2]], "image": [[0, 0], [1, 0], [1, 1], [0, 1]]}}, "$.camera.homography.pitch[3]", "2 numbers"),
        ({"projection": [[1, 0, 0, 0], [0, 1, 0, 0], [0, 0, 1, 5]], "size": [1920]}, "$.camera.size", "[width, height]"),
        ({"projection": [[1, 0, 0, 0], [0, 1, 0, 0], [0, 0, 1, 5]], "size": [1920, 0]}, "$.camera.size[1]", "whole number"),
        ({"projection": [[1, 0, 0, 0], [0, 1, 0, 0], [0, 0, 1, 5]], "image": "nowhere.jpg"}, "$.camera.image", "no such file"),
        ({"projection": [[1, 0, 0, 0], [0, 1, 0, 0], [0, 0, 1, 5]], "image": 7}, "$.camera.image", "file name"),
    ],
)  # fmt: skip
def test_camera_faults_name_the_file_and_the_json_path(
    camera: Any, where: str, problem: str
) -> None:
    with pytest.raises(InputError) as caught:
        camera_from_json(with_camera(camera), KANE)
    assert caught.value.source == str(KANE)
    assert caught.value.where == where
    assert problem in caught.value.problem


def png_size(path: Path) -> tuple[int, int]:
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and data.endswith(b"IEND\xaeB`\x82")
    return struct.unpack(">II", data[16:24])


def test_still_image_relative_to_the_situation_sets_the_size(tmp_path: Path) -> None:
    from PIL import Image

    (tmp_path / "frames").mkdir()
    Image.new("RGB", (320, 180), (40, 90, 50)).save(tmp_path / "frames" / "still.png")
    situation_path = tmp_path / "kane.json"
    cam = look_at((40.0, -60.0, 25.0), (48.0, 0.0, 0.0), 300.0, (320, 180))
    data = with_camera({"projection": cam.matrix.tolist(), "image": "frames/still.png"})
    situation_path.write_text(json.dumps(data))
    camera = camera_from_json(data, situation_path)
    assert camera is not None and camera.size == (320, 180)
    assert camera.image == tmp_path / "frames" / "still.png"
    situation = varroom.load_situation(situation_path)
    verdict = varroom.judge(situation)
    write_broadcast(situation, verdict, camera, tmp_path / "broadcast.png")
    assert png_size(tmp_path / "broadcast.png") == (320, 180)


# -- the picture ------------------------------------------------------------------------------


def artist(figure: Any, gid: str) -> Any:
    found = [a for a in figure.findobj() if getattr(a, "get_gid", lambda: None)() == gid]
    assert len(found) == 1, gid
    return found[0]


@pytest.mark.parametrize("kind", ["projection", "homography"])
def test_the_drawn_line_and_point_are_the_cameras_projection(kind: str) -> None:
    situation = varroom.load_situation(KANE)
    verdict = varroom.judge(situation)
    k, r, t = broadcast_parts()
    full = projection_camera(k @ np.column_stack([r, t]))
    if kind == "projection":
        camera = full
    else:
        pitch = np.array(LANDMARKS)
        camera = homography_camera(pitch, full.project(np.column_stack([pitch, np.zeros(8)])))
    figure = draw_broadcast(situation, verdict, camera)
    line = verdict.judgement.line
    drawn: Line2D = artist(figure, "broadcast-offside-line")
    expected = full.project([(line.x_m, -34.0, 0.0), (line.x_m, 34.0, 0.0)])
    assert np.column_stack([drawn.get_xdata(), drawn.get_ydata()]) == pytest.approx(
        expected, abs=1e-6
    )
    reach = verdict.judgement.attackers["kane"].reach  # the left knee
    marker: Line2D = artist(figure, "broadcast-reach")
    height = 0.5 if kind == "projection" else 0.0  # the standard knee height, or the ground
    where = full.project([(reach.x_m, reach.y_m, height)])[0]
    assert (marker.get_xdata()[0], marker.get_ydata()[0]) == pytest.approx(tuple(where), abs=1e-6)
    if kind == "projection":
        artist(figure, "broadcast-wall")
    else:
        assert not [
            a for a in figure.findobj() if getattr(a, "get_gid", lambda: None)() == "broadcast-wall"
        ]
    assert figure.get_size_inches() * figure.dpi == pytest.approx(camera.size)
