"""`varroom still` on synthetic cameras whose truth is known: several positions and focal
lengths, with and without lens distortion (docs/still.md)."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from varroom.pictures.still import offside_line_pixels
from varroom.still.camera import rotation_matrix, rotation_vector
from varroom.still.judge import still_verdict
from varroom.synthetic.stills import CAMERAS, SyntheticCamera, marks, scene

CASES = [
    (camera, margin, by_ball, raised)
    for camera in CAMERAS
    for margin, by_ball in ((0.20, False), (-0.15, False), (-0.10, True))
    for raised in ((None, True) if camera.k1 == 0 else (None,))
]


def _id(case: tuple[SyntheticCamera, float, bool, bool | None]) -> str:
    camera, margin, by_ball, raised = case
    lens = f"k1={camera.k1}" if camera.k1 else "pinhole"
    return f"f{camera.focal_px:.0f}-{lens}-{margin:+.2f}{'-ball' if by_ball else ''}" + (
        "-full" if raised else ""
    )


@pytest.mark.parametrize("case", CASES, ids=[_id(c) for c in CASES])
def test_exact_marks_give_the_true_margin_within_a_centimetre(case):
    camera, margin, by_ball, raised = case
    still = scene("exact", camera, margin, by_ball=by_ball)
    result = still_verdict(marks(still, raised=raised), camera.size)
    expected = "camera" if (raised or camera.k1) else "homography"
    assert result.calibration.method.value == expected
    assert result.verdict.nearest_attacker == "a9"
    assert result.verdict.margin_m == pytest.approx(margin, abs=0.01)
    assert result.verdict.offence is (margin > 0)
    assert result.calibration.reprojection_px < 0.01
    setter = result.verdict.judgement.line.set_by.value
    assert setter == ("ball" if by_ball else "second_last_opponent")


def test_a_head_marked_above_the_ground_lands_under_it_with_a_full_camera():
    camera = CAMERAS[3]
    still = scene("head", camera, 0.20)
    data = marks(still)
    head = camera.project([(still.figures[0].x_m, still.figures[0].y_m, 1.7)])[0]
    data["marks"]["a9"] = {"pixel": [float(head[0]), float(head[1])], "height_m": 1.7}
    assert still_verdict(data, camera.size).verdict.margin_m == pytest.approx(0.20, abs=0.01)


def test_marks_with_pixel_noise_give_95_percent_intervals_that_hold_the_truth():
    rng = np.random.default_rng(2026)
    hits = trials = 0
    for camera in CAMERAS:
        for margin in (0.20, -0.15):
            still = scene("noisy", camera, margin)
            for _ in range(25):
                verdict = still_verdict(marks(still, rng, pixel_sd=1.5), camera.size).verdict
                low, high = verdict.uncertainty.margin_ci_m
                hits += low <= margin <= high
                trials += 1
    assert hits / trials >= 0.93, f"{hits} of {trials}"


def test_the_standard_error_grows_with_the_pixel_error():
    still = scene("sd", CAMERAS[0], 0.20)
    ses = [
        still_verdict({**marks(still), "pixel_sd": sd}, CAMERAS[0].size).margin_se_m
        for sd in (0.5, 1.5, 4.0)
    ]
    assert ses[0] < ses[1] < ses[2]
    # Linear in the pixel error when the residuals add nothing (exact landmarks).
    assert ses[2] / ses[1] == pytest.approx(4.0 / 1.5, rel=1e-3)


def _distance_to_polyline(points: np.ndarray, line: np.ndarray) -> np.ndarray:
    a, b = line[:-1], line[1:]
    ab = b - a
    t = ((points[:, None, :] - a) * ab).sum(axis=2) / (ab**2).sum(axis=1)
    nearest = a + np.clip(t, 0, 1)[:, :, None] * ab
    return np.sqrt(((points[:, None, :] - nearest) ** 2).sum(axis=2)).min(axis=1)


@pytest.mark.parametrize("camera", CAMERAS, ids=lambda c: f"f{c.focal_px:.0f}-k1={c.k1}")
def test_the_drawn_line_runs_within_a_pixel_of_the_true_projected_line(camera):
    still = scene("line", camera, 0.20)
    result = still_verdict(marks(still), camera.size)
    drawn = offside_line_pixels(result)
    truth = camera.project([(still.line_x_m, y) for y in np.linspace(-34, 34, 3001)])
    truth = truth[camera.visible(truth, inset_px=0.0)]
    assert len(truth) > 200  # the line crosses the picture
    assert _distance_to_polyline(truth, drawn).max() < 1.0
    # Not a vertical: the line leans as the perspective says.
    assert abs(truth[0, 0] - truth[-1, 0]) > 5.0


@settings(max_examples=12, deadline=None, derandomize=True)
@given(
    x=st.floats(15.0, 45.0),
    y=st.floats(-60.0, -38.0),
    z=st.floats(8.0, 30.0),
    focal=st.floats(1100.0, 2600.0),
)
def test_exact_marks_from_any_side_camera_give_the_true_margin(x, y, z, focal):
    camera = SyntheticCamera((x, y, z), (40.0, 0.0, 0.0), focal)
    still = scene("any", camera, 0.20)
    data = marks(still)
    if len(data["landmarks"]) < 6 or not {"a9", "d4"} <= set(data["marks"]):
        return  # this camera does not see enough of the penalty area to be marked
    assert still_verdict(data, camera.size).verdict.margin_m == pytest.approx(0.20, abs=0.01)


@settings(max_examples=200, deadline=None)
@given(
    st.lists(st.floats(-1.0, 1.0), min_size=3, max_size=3).filter(
        lambda v: 1e-3 < float(np.linalg.norm(v)) <= 1.0
    ),
    st.floats(0.0, 3.14),
)
def test_rotation_vector_and_matrix_are_inverse(axis: list[float], angle: float) -> None:
    rotvec = np.array(axis) / np.linalg.norm(axis) * angle
    matrix = rotation_matrix(rotvec)
    assert np.allclose(matrix @ matrix.T, np.eye(3), atol=1e-12)
    assert np.linalg.det(matrix) == pytest.approx(1.0)
    assert np.allclose(rotation_vector(matrix), rotvec, atol=1e-9)
