"""The two cameras a still can be calibrated to, as functions of a parameter vector.

- `GroundHomography`: the ground plane (z = 0) to pixels, H(theta) = H0 T^-1 (I + D(theta)) T,
  where T normalises the landmarks' pitch points and D is a 3x3 matrix with D[2, 2] = 0 (eight
  parameters, a local chart around the DLT's H0 that leaves out H0's own scale).
- `LensCamera`: a pinhole camera with square pixels, its principal point at the picture's
  centre and one radial distortion term: theta = (rotation vector (3), translation (3),
  log focal length in pixels, k1); a camera point (X, Y, Z) lands at
  centre + f (X/Z, Y/Z) (1 + k1 r^2), r^2 = (X^2 + Y^2) / Z^2.

Both map pitch points to pixels (`project`) and pixels back to the pitch (`ground`, onto the
plane z = height). Both give NaN for points they cannot map: behind the camera, above the
horizon, or (with distortion) beyond the radius where the distortion stops being one-to-one.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Protocol

import numpy as np
import numpy.typing as npt

from varroom.model.camera import look_at

Floats = npt.NDArray[np.float64]
_FRONT = 1e-9


def _cross(k: Floats) -> Floats:
    return np.array([[0.0, -k[2], k[1]], [k[2], 0.0, -k[0]], [-k[1], k[0], 0.0]])


def rotation_matrix(rotvec: Floats) -> Floats:
    """The rotation about `rotvec`'s axis by its length in radians (Rodrigues' formula)."""
    angle = float(np.linalg.norm(rotvec))
    if angle < 1e-12:
        return np.eye(3) + _cross(rotvec)
    k = _cross(rotvec / angle)
    out: Floats = np.eye(3) + math.sin(angle) * k + (1.0 - math.cos(angle)) * (k @ k)
    return out


def rotation_vector(matrix: Floats) -> Floats:
    """The rotation vector of a rotation matrix (the inverse of `rotation_matrix`)."""
    cos = float(np.clip((np.trace(matrix) - 1.0) / 2.0, -1.0, 1.0))
    angle = math.acos(cos)
    skew = np.array(
        [matrix[2, 1] - matrix[1, 2], matrix[0, 2] - matrix[2, 0], matrix[1, 0] - matrix[0, 1]]
    )
    if angle < 1e-6:
        out: Floats = skew / 2.0
        return out
    if math.pi - angle > 1e-6:
        out = skew * (angle / (2.0 * math.sin(angle)))
        return out
    # A half turn: the axis is the column of (R + I) / 2 with the largest diagonal entry.
    half = (matrix + np.eye(3)) / 2.0
    column = int(np.argmax(np.diag(half)))
    axis = half[:, column] / math.sqrt(max(float(half[column, column]), 1e-300))
    out = axis / np.linalg.norm(axis) * angle
    return out


class StillCamera(Protocol):
    def project(self, theta: Floats, points: Floats) -> Floats:
        """Pitch points (N x 3) to pixels (N x 2)."""
        ...

    def ground(self, theta: Floats, pixels: Floats, heights: Floats) -> Floats:
        """Pixels (N x 2) to pitch points (N x 2) on the planes z = heights (N)."""
        ...


@dataclass(frozen=True, slots=True)
class GroundHomography:
    base: Floats  # H0 T^-1: pitch points normalised by T map to pixels at theta = 0
    normalise: Floats  # T

    def matrix(self, theta: Floats) -> Floats:
        d = np.append(np.asarray(theta, dtype=float), 0.0).reshape(3, 3)
        h: Floats = self.base @ (np.eye(3) + d) @ self.normalise
        return h

    def project(self, theta: Floats, points: Floats) -> Floats:
        pts = np.atleast_2d(points)
        h = np.column_stack([pts[:, 0], pts[:, 1], np.ones(len(pts))]) @ self.matrix(theta).T
        with np.errstate(divide="ignore", invalid="ignore"):
            uv = h[:, :2] / h[:, 2:3]
        uv[h[:, 2] <= _FRONT] = np.nan
        uv[np.abs(pts[:, 2]) > 0] = np.nan  # a homography knows the ground only
        return uv

    def ground(self, theta: Floats, pixels: Floats, heights: Floats) -> Floats:
        px = np.atleast_2d(pixels)
        q = np.column_stack([px, np.ones(len(px))]) @ np.linalg.inv(self.matrix(theta)).T
        with np.errstate(divide="ignore", invalid="ignore"):
            xy: Floats = q[:, :2] / q[:, 2:3]
        # The ground point's own w is 1/q[2]: negative above the horizon.
        xy[(q[:, 2] <= _FRONT) | (np.asarray(heights) != 0)] = np.nan
        return xy


@dataclass(frozen=True, slots=True)
class LensCamera:
    centre: tuple[float, float]

    @staticmethod
    def parameters(
        rotation: Floats, translation: Floats, focal_px: float, k1: float = 0.0
    ) -> Floats:
        """theta from a rotation matrix (world to camera), a translation, f and k1."""
        rotvec = rotation_vector(rotation)
        theta: Floats = np.concatenate([rotvec, translation, [np.log(focal_px), k1]])
        return theta

    @staticmethod
    def _parts(theta: Floats) -> tuple[Floats, Floats, float, float]:
        rotation = rotation_matrix(theta[:3])
        return rotation, theta[3:6], float(np.exp(theta[6])), float(theta[7])

    @staticmethod
    def _within_lens(r2: Floats, k1: float) -> npt.NDArray[np.bool_]:
        """Where r (1 + k1 r^2) still grows with r: beyond it, barrel distortion folds back."""
        return np.ones_like(r2, dtype=bool) if k1 >= 0 else r2 < -1.0 / (3.0 * k1)

    def project(self, theta: Floats, points: Floats) -> Floats:
        rotation, translation, f, k1 = self._parts(theta)
        cam = np.atleast_2d(points) @ rotation.T + translation
        with np.errstate(divide="ignore", invalid="ignore"):
            xn = cam[:, :2] / cam[:, 2:3]
        r2 = (xn**2).sum(axis=1)
        uv = np.asarray(self.centre) + f * xn * (1.0 + k1 * r2)[:, None]
        uv[(cam[:, 2] <= _FRONT) | ~self._within_lens(r2, k1)] = np.nan
        out: Floats = uv
        return out

    def ground(self, theta: Floats, pixels: Floats, heights: Floats) -> Floats:
        rotation, translation, f, k1 = self._parts(theta)
        xd = (np.atleast_2d(pixels) - np.asarray(self.centre)) / f
        xn = xd.copy()
        # Undistort by fixed-point iteration: a contraction for the distortions of TV lenses.
        for _ in range(50):
            xn = xd / (1.0 + k1 * (xn**2).sum(axis=1))[:, None]
        rays = np.column_stack([xn, np.ones(len(xn))]) @ rotation  # R^T d, as rows
        eye = -rotation.T @ translation
        with np.errstate(divide="ignore", invalid="ignore"):
            s = (np.asarray(heights, dtype=float) - eye[2]) / rays[:, 2]
        xy = eye[:2] + s[:, None] * rays[:, :2]
        bad = (s <= 0) | ~np.isfinite(s) | ~self._within_lens((xn**2).sum(axis=1), k1)
        xy[bad] = np.nan
        out: Floats = xy
        return out


def look_at_parameters(
    eye: npt.ArrayLike,
    target: npt.ArrayLike,
    focal_px: float,
    size: tuple[int, int],
    k1: float = 0.0,
) -> Floats:
    """A `LensCamera`'s theta for `varroom.model.camera.look_at`'s camera (at `eye`, looking at
    `target`, horizon level, principal point at the centre), with distortion k1 added."""
    p = look_at(
        list(np.asarray(eye, dtype=float)), list(np.asarray(target, dtype=float)), focal_px, size
    ).matrix
    # look_at's P = K [R | t] with |P[2, :3]| = 1 and det > 0, so K^-1 P is [R | t] itself.
    k = np.array([[focal_px, 0.0, size[0] / 2], [0.0, focal_px, size[1] / 2], [0.0, 0.0, 1.0]])
    rt = np.linalg.solve(k, p)
    return LensCamera.parameters(rt[:, :3], rt[:, 3], focal_px, k1)


def ground_line(
    camera: StillCamera, theta: Floats, x_m: float, y_from_m: float, y_to_m: float, n: int = 400
) -> Floats:
    """The pitch's ground line x = x_m between two widths, as the pixels it truly runs through
    (a polyline of n points: with lens distortion it is a curve); unmappable points dropped."""
    y = np.linspace(y_from_m, y_to_m, n)
    points = np.column_stack([np.full(n, x_m), y, np.zeros(n)])
    uv = camera.project(theta, points)
    keep: Floats = uv[np.all(np.isfinite(uv), axis=1)]
    return keep
