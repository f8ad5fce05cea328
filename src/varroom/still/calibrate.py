"""Calibrating a still's camera from its landmarks, and how sure the calibration is.

With landmarks on the ground only, the camera is the ground homography: the normalised DLT
(`varroom.model.camera.fit_homography`, which also refuses degenerate landmarks), refined by
least squares on the reprojection error in pixels. With six or more landmarks, at least four on
the ground and some off it (goalposts, the crossbar), it is a full `LensCamera` with radial
distortion: initialised from the ground homography (the focal length from its two orthogonal
columns, Zhang's constraint with the principal point at the centre), then refined on every
landmark.

The calibration's uncertainty is linearised: with landmark pixels off by sigma in each
coordinate, the parameters' covariance is sigma^2 (J^T J)^-1 (J the reprojection residuals'
Jacobian at the fit), sigma the larger of the reviewer's `pixel_sd` and what the fit's own
residuals show (sqrt(SSR / (2n - p)), when there are more landmarks than parameters).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from enum import Enum

import numpy as np
import numpy.typing as npt

from varroom.errors import InputError
from varroom.model.camera import DegenerateLandmarks, fit_homography
from varroom.still.camera import Floats, GroundHomography, LensCamera, StillCamera, ground_line
from varroom.still.least_squares import levenberg_marquardt
from varroom.still.marks import Landmark

# A fit whose landmarks sit further than this from where the camera puts them (RMS) is not a
# camera to judge offside by: a landmark was misplaced or mislabelled.
MAX_REPROJECTION_PX = 5.0
_REPROJECTION_SDS = 3.0  # ... or this many times the reviewer's own pixel_sd, if larger
_MIN_FULL_LANDMARKS = 6
_MIN_GROUND_LANDMARKS = 4


class Method(Enum):
    HOMOGRAPHY = "homography"
    CAMERA = "camera"  # a full 3x4 camera with radial lens distortion


@dataclass(frozen=True, slots=True)
class Calibration:
    method: Method
    camera: StillCamera
    theta: Floats
    covariance: Floats  # of theta, from the landmarks' pixel error
    residuals_px: Floats  # (n, 2): each landmark's reprojection minus its pixel
    landmark_sd_px: float  # the sigma the covariance was scaled by

    @property
    def reprojection_px(self) -> float:
        """The RMS reprojection error over the landmarks, in pixels."""
        return float(np.sqrt((self.residuals_px**2).sum(axis=1).mean()))

    def project(self, points: npt.ArrayLike) -> Floats:
        pts = np.atleast_2d(np.asarray(points, dtype=float))
        if pts.shape[1] == 2:
            pts = np.column_stack([pts, np.zeros(len(pts))])
        return self.camera.project(self.theta, pts)

    def ground(self, pixels: npt.ArrayLike, heights: npt.ArrayLike) -> Floats:
        return self.camera.ground(
            self.theta, np.atleast_2d(np.asarray(pixels, dtype=float)), np.asarray(heights)
        )

    def ground_line(self, x_m: float, y_from_m: float, y_to_m: float) -> Floats:
        return ground_line(self.camera, self.theta, x_m, y_from_m, y_to_m)

    def ground_jacobians(self, pixels: Floats, heights: Floats) -> tuple[Floats, Floats]:
        """d(pitch x, y)/d theta (N x 2 x p) and d(pitch x, y)/d pixel (N x 2 x 2), by central
        differences."""

        def by_theta(theta: Floats) -> Floats:
            return self.camera.ground(theta, pixels, heights)

        def by_pixel(shift: Floats) -> Floats:
            return self.camera.ground(self.theta, pixels + shift, heights)

        d_theta = _central(by_theta, self.theta, 1e-6 * np.maximum(1.0, np.abs(self.theta)))
        d_pixel = _central(by_pixel, np.zeros(2), np.full(2, 1e-3))
        return d_theta, d_pixel


def _central(fn: Callable[[Floats], Floats], at: Floats, steps: Floats) -> Floats:
    """The Jacobian of fn (a vector to N x 2) at `at`: N x 2 x len(at)."""
    columns = []
    for k, step in enumerate(steps):
        delta = np.zeros_like(at)
        delta[k] = step
        columns.append((fn(at + delta) - fn(at - delta)) / (2 * step))
    return np.stack(columns, axis=-1)


def calibrate(
    landmarks: Sequence[Landmark], size: tuple[int, int], pixel_sd: float, source: str
) -> Calibration:
    """Fit the still's camera; a fault is an `InputError` at $.landmarks (exit 2)."""
    ground = [lm for lm in landmarks if lm.on_ground]
    raised = [lm for lm in landmarks if not lm.on_ground]
    if len(ground) < _MIN_GROUND_LANDMARKS:
        raise InputError(
            source,
            "$.landmarks",
            f"at least {_MIN_GROUND_LANDMARKS} landmarks on the ground are needed, "
            f"got {len(ground)}",
        )
    pitch = np.array([lm.pitch_m[:2] for lm in ground])
    pixels = np.array([lm.pixel for lm in ground])
    try:
        h0, _ = fit_homography(pitch, pixels)
    except DegenerateLandmarks as exc:
        raise InputError(source, "$.landmarks", str(exc)) from None
    if raised and len(landmarks) < _MIN_FULL_LANDMARKS:
        raise InputError(
            source,
            "$.landmarks",
            f"landmarks off the ground fit a full camera, which needs at least "
            f"{_MIN_FULL_LANDMARKS} landmarks ({_MIN_GROUND_LANDMARKS} on the ground), "
            f"got {len(landmarks)}",
        )
    camera: StillCamera
    if raised:
        centre = (size[0] / 2, size[1] / 2)
        camera = LensCamera(centre)
        start = _camera_from_homography(h0, centre, ground, size)
        used = list(landmarks)
        method = Method.CAMERA
    else:
        normalise = _normalising(pitch)
        camera = GroundHomography(h0 @ np.linalg.inv(normalise), normalise)
        start = np.zeros(8)
        used = ground
        method = Method.HOMOGRAPHY
    points = np.array([lm.pitch_m for lm in used])
    observed = np.array([lm.pixel for lm in used])

    def residuals(theta: Floats) -> Floats:
        out: Floats = np.nan_to_num((camera.project(theta, points) - observed).ravel(), nan=1e6)
        return out

    theta, jac = levenberg_marquardt(residuals, start)
    residual = (camera.project(theta, points) - observed).reshape(-1, 2)
    if not np.all(np.isfinite(residual)):
        raise InputError(source, "$.landmarks", "the fitted camera puts a landmark behind it")
    calibration = Calibration(
        method, camera, theta, np.zeros((8, 8)), residual, _landmark_sd(residual, pixel_sd)
    )
    limit = max(MAX_REPROJECTION_PX, _REPROJECTION_SDS * pixel_sd)
    if calibration.reprojection_px > limit:
        worst = int(np.argmax((residual**2).sum(axis=1)))
        raise InputError(
            source,
            "$.landmarks",
            f"the camera misses the landmarks by {calibration.reprojection_px:.1f} px RMS "
            f"(limit {limit:g} px; worst {used[worst].where}, "
            f"{float(np.hypot(*residual[worst])):.1f} px): a landmark is misplaced or mislabelled",
        )
    normal = jac.T @ jac
    sv = np.linalg.svd(normal, compute_uv=False)
    if sv[-1] <= 1e-12 * sv[0]:
        raise InputError(source, "$.landmarks", "the landmarks do not fix the camera")
    covariance = np.asarray(np.linalg.inv(normal), dtype=np.float64) * calibration.landmark_sd_px**2
    return Calibration(method, camera, theta, covariance, residual, calibration.landmark_sd_px)


def _landmark_sd(residual: Floats, pixel_sd: float) -> float:
    """The landmarks' pixel error: the reviewer's, or what the residuals show if more.

    What the residuals show is an estimate from `dof` numbers: a 95% interval drawn with it
    and the normal's 1.96 is too narrow (Student's t), so it is widened by t/z, which is the
    same interval as Student's."""
    dof = residual.size - 8
    if dof <= 0:
        return pixel_sd
    shown = math.sqrt(float((residual**2).sum()) / dof) * _t_over_z(dof)
    return max(pixel_sd, shown)


def _t_over_z(dof: int, z: float = 1.959963984540054) -> float:
    """Student's t 97.5% point over the normal's, for `dof` degrees of freedom (the
    Cornish-Fisher expansion: within 1% from 3 degrees of freedom on)."""
    t = z + (z**3 + z) / (4 * dof) + (5 * z**5 + 16 * z**3 + 3 * z) / (96 * dof**2)
    t += (3 * z**7 + 19 * z**5 + 17 * z**3 - 15 * z) / (384 * dof**3)
    return t / z


def _normalising(points: Floats) -> Floats:
    """The similarity moving the points' centroid to the origin, mean distance sqrt(2)."""
    centre = points.mean(axis=0)
    scale = math.sqrt(2) / float(np.sqrt(((points - centre) ** 2).sum(axis=1)).mean())
    return np.array(
        [[scale, 0.0, -scale * centre[0]], [0.0, scale, -scale * centre[1]], [0.0, 0.0, 1.0]]
    )


def _camera_from_homography(
    h: Floats, centre: tuple[float, float], ground: Sequence[Landmark], size: tuple[int, int]
) -> Floats:
    """A starting LensCamera (no distortion) from the ground homography H ~ K [r1 r2 t]."""
    shift = np.array([[1.0, 0.0, -centre[0]], [0.0, 1.0, -centre[1]], [0.0, 0.0, 1.0]])
    a = shift @ h
    (h11, h12, _), (h21, h22, _), (h31, h32, _) = a
    guesses = []
    # r1 . r2 = 0 and |r1| = |r2|, with K = diag(f, f, 1) after the shift.
    if abs(h31 * h32) > 1e-15:
        guesses.append(-(h11 * h12 + h21 * h22) / (h31 * h32))
    if abs(h32**2 - h31**2) > 1e-15:
        guesses.append((h11**2 + h21**2 - h12**2 - h22**2) / (h32**2 - h31**2))
    squares = [g for g in guesses if g > 0 and math.isfinite(g)]
    focal = math.sqrt(float(np.median(squares))) if squares else float(max(size))
    m = np.diag([1.0 / focal, 1.0 / focal, 1.0]) @ a
    scale = 2.0 / (np.linalg.norm(m[:, 0]) + np.linalg.norm(m[:, 1]))
    pitch = np.array([[*lm.pitch_m[:2], 1.0] for lm in ground])
    if np.mean((pitch @ m.T)[:, 2]) < 0:  # the landmarks must lie in front of the camera
        scale = -scale
    r1, r2, t = scale * m[:, 0], scale * m[:, 1], scale * m[:, 2]
    u, _, vt = np.linalg.svd(np.column_stack([r1, r2, np.cross(r1, r2)]))
    rotation = u @ vt
    if np.linalg.det(rotation) < 0:
        rotation = u @ np.diag([1.0, 1.0, -1.0]) @ vt
    return LensCamera.parameters(rotation, t, focal)
