"""The independent still cameras (tests/still_cameras.py) are what the still tests need: each
kind sees the pitch in front of it, distortion keeps points in order, and tight zooms see few
named points (the case line landmarks are for)."""

from __future__ import annotations

import numpy as np
import pytest

import still_cameras as cameras


@pytest.mark.parametrize("kind", cameras.CAMERA_KINDS)
def test_each_kind_sees_the_pitch_and_projects_consistently(kind: str) -> None:
    rng = np.random.default_rng(29)
    named = cameras.pitch_points_m()
    points = np.array([p for p in named.values()], dtype=float)
    for _ in range(3):
        camera = cameras.draw_camera(kind, rng)
        px = camera.project(points)
        seen = camera.visible(px)
        assert seen.sum() >= 1, kind
        w, h = camera.size_px
        inside = px[seen]
        assert np.all((inside >= 0) & (inside <= [w, h]))
        # Projecting is a function of the point: the same point twice, the same pixel.
        again = camera.project(points[seen])
        assert np.allclose(again, inside)
