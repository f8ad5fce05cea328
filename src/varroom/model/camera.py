"""A broadcast camera: how pitch metres land on a picture's pixels.

A situation may carry `camera` (docs/pictures.md), either

- `{"projection": [[p11, p12, p13, p14], [...], [...]]}`: a 3x4 matrix P taking homogeneous
  pitch metres (x, y, z, 1) (origin at the centre spot, z up) to homogeneous pixels (u w, v w, w);
  anything can be drawn, at any height (the offside plane as a wall);
- `{"homography": {"pitch": [[x, y], ...], "image": [[u, v], ...]}}`: four or more landmarks on
  the ground and where they are in the picture; the 3x3 homography H is fitted by the normalised
  direct linear transform (Hartley & Zisserman, algorithm 4.2). Only the ground (z = 0) can be
  drawn;

plus optional `"image": "still.jpg"` (relative to the situation file) and `"size": [w, h]` (the
pixel frame P or H maps to; default: the still's size, else 1920 x 1080). The JSON is read by
`varroom.formats.camera_json`.

Pixels: u to the right, v down, (0, 0) the top-left corner of the top-left pixel.
Points behind the camera are cut away before projecting (a line that passes behind the camera
is not drawn through infinity).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import numpy.typing as npt

Floats = npt.NDArray[np.float64]
DEFAULT_SIZE = (1920, 1080)
_FRONT = 1e-6  # how far in front of the camera (in its own depth units) a point must lie


@dataclass(frozen=True, slots=True)
class Camera:
    """A projection P (3x4) or a ground homography H (3x3), normalised so that points in
    front of the camera have w > 0."""

    kind: str  # "projection" or "homography"
    matrix: Floats
    size: tuple[int, int]
    image: Path | None = None
    rms_px: float | None = None  # the homography's fit residual over its landmarks

    @property
    def sees_height(self) -> bool:
        """Whether points above the ground can be drawn (a projection matrix, not a homography)."""
        return self.kind == "projection"

    def _homogeneous(self, points: npt.ArrayLike) -> Floats:
        pts = np.atleast_2d(np.asarray(points, dtype=float))
        if pts.shape[1] == 2:
            pts = np.column_stack([pts, np.zeros(len(pts))])
        if self.kind == "homography":
            if np.any(np.abs(pts[:, 2]) > 1e-9):
                raise ValueError("a homography maps the ground only (z = 0)")
            return np.column_stack([pts[:, 0], pts[:, 1], np.ones(len(pts))])
        return np.column_stack([pts, np.ones(len(pts))])

    def w(self, points: npt.ArrayLike) -> Floats:
        """Each point's w: positive in front of the camera."""
        return (self._homogeneous(points) @ self.matrix.T)[:, 2]

    def project(self, points: npt.ArrayLike) -> Floats:
        """Pitch points (N x 2 on the ground, or N x 3) to pixels (N x 2); NaN behind the camera."""
        h = self._homogeneous(points) @ self.matrix.T
        out = np.full((len(h), 2), np.nan)
        front = h[:, 2] > _FRONT
        out[front] = h[front, :2] / h[front, 2:3]
        return out

    def _to_3d(self, points: npt.ArrayLike) -> Floats:
        pts = np.atleast_2d(np.asarray(points, dtype=float))
        if pts.shape[1] == 2:
            pts = np.column_stack([pts, np.zeros(len(pts))])
        return pts

    def project_segment(self, a: Sequence[float], b: Sequence[float]) -> Floats | None:
        """The visible part of the straight pitch segment a-b, as two pixels; None when it lies
        wholly behind the camera. Its projection is a straight segment (straight lines stay
        straight under a projection)."""
        ends = self._to_3d([a, b])
        wa, wb = self.w(ends)
        if wa <= _FRONT and wb <= _FRONT:
            return None
        if wa <= _FRONT or wb <= _FRONT:
            # Cut at w = _FRONT (w is linear along the segment in pitch coordinates).
            t = (_FRONT * 2 - wa) / (wb - wa)
            cut = ends[0] + t * (ends[1] - ends[0])
            ends = np.array([cut, ends[1]]) if wa <= _FRONT else np.array([ends[0], cut])
        uv = self.project(ends)
        return clip_segment(uv, self._bounds())

    def _bounds(self) -> tuple[float, float, float, float]:
        """A box well beyond the frame: projected pieces are cut to it, so that a point just in
        front of the camera (projected far out) stays a number matplotlib can draw."""
        w, h = self.size
        return -2.0 * w, -2.0 * h, 3.0 * w, 3.0 * h

    def project_polyline(self, points: npt.ArrayLike) -> list[Floats]:
        """The visible pieces of a pitch polyline, in pixels."""
        pts = self._to_3d(points)
        pieces: list[list[Floats]] = []
        current: list[Floats] = []
        for a, b in zip(pts[:-1], pts[1:], strict=True):
            seg = self.project_segment(a, b)
            if seg is None:
                if current:
                    pieces.append(current)
                    current = []
                continue
            if current and np.allclose(current[-1], seg[0]):
                current.append(seg[1])
            else:
                if current:
                    pieces.append(current)
                current = [seg[0], seg[1]]
        if current:
            pieces.append(current)
        return [np.array(piece) for piece in pieces]

    def project_polygon(self, points: npt.ArrayLike) -> Floats | None:
        """A pitch polygon clipped to what lies in front of the camera, in pixels (Sutherland-
        Hodgman against w > 0); None when nothing is left."""
        pts = self._to_3d(points)
        ws = self.w(pts)
        out: list[Floats] = []
        limit = _FRONT * 2
        for k in range(len(pts)):
            a, b = pts[k], pts[(k + 1) % len(pts)]
            wa, wb = ws[k], ws[(k + 1) % len(pts)]
            if wa > limit:
                out.append(a)
            if (wa > limit) != (wb > limit):
                out.append(a + (limit - wa) / (wb - wa) * (b - a))
        if len(out) < 3:
            return None
        return _clip_polygon_2d(self.project(np.array(out)), self._bounds())


def clip_segment(uv: Floats, box: tuple[float, float, float, float]) -> Floats | None:
    """The part of the segment uv[0]-uv[1] inside the axis-aligned box (x0, y0, x1, y1), as
    two points; None when none of it is (Liang-Barsky). The one segment clip of the package:
    the camera cuts projected lines to its frame with it, the pictures their labels' lines."""
    # Python floats: a near-zero step divides to inf, as the method wants, without a warning.
    (ax, ay), (bx, by) = ((float(u), float(v)) for u, v in uv)
    dx, dy = bx - ax, by - ay
    lo, hi = 0.0, 1.0
    x0, y0, x1, y1 = box
    for p, q in ((-dx, ax - x0), (dx, x1 - ax), (-dy, ay - y0), (dy, y1 - ay)):
        if p == 0:
            if q < 0:
                return None
            continue
        r = q / p
        if p < 0:
            lo = max(lo, r)
        else:
            hi = min(hi, r)
        if lo > hi:
            return None
    return np.array([[ax + lo * dx, ay + lo * dy], [ax + hi * dx, ay + hi * dy]])


def _clip_polygon_2d(points: Floats, box: tuple[float, float, float, float]) -> Floats | None:
    """Sutherland-Hodgman against each side of the box."""
    x0, y0, x1, y1 = box
    poly = [tuple(p) for p in points]
    for axis, limit, keep_above in ((0, x0, True), (0, x1, False), (1, y0, True), (1, y1, False)):
        out: list[tuple[float, float]] = []
        for k in range(len(poly)):
            a, b = poly[k], poly[(k + 1) % len(poly)]
            ina = (a[axis] >= limit) if keep_above else (a[axis] <= limit)
            inb = (b[axis] >= limit) if keep_above else (b[axis] <= limit)
            if ina:
                out.append(a)
            if ina != inb:
                t = (limit - a[axis]) / (b[axis] - a[axis])
                out.append((a[0] + t * (b[0] - a[0]), a[1] + t * (b[1] - a[1])))
        poly = out
        if len(poly) < 3:
            return None
    return np.array(poly)


# -- building cameras -------------------------------------------------------------------------


def projection_camera(
    matrix: npt.ArrayLike, size: tuple[int, int] = DEFAULT_SIZE, image: Path | None = None
) -> Camera:
    """A camera from a 3x4 projection matrix, its sign fixed so that w > 0 in front of it
    (depth = sign(det M) w / |m3|, Hartley & Zisserman 6.2.3)."""
    p = np.asarray(matrix, dtype=float).reshape(3, 4)
    det = float(np.linalg.det(p[:, :3]))
    if not math.isfinite(det) or abs(det) <= 1e-12 * max(1.0, float(np.abs(p[:, :3]).max())) ** 3:
        raise ValueError("its left 3x3 part is singular: not a camera")
    p = p * (1.0 if det > 0 else -1.0) / np.linalg.norm(p[2, :3])
    return Camera("projection", p, size, image)


def look_at(
    eye: Sequence[float],
    target: Sequence[float],
    focal_px: float,
    size: tuple[int, int] = DEFAULT_SIZE,
    principal: tuple[float, float] | None = None,
) -> Camera:
    """A pinhole camera at `eye` looking at `target` (pitch metres, z up), horizon level:
    P = K [R | -R eye]. For tests and examples."""
    eye_ = np.asarray(eye, dtype=float)
    forward = np.asarray(target, dtype=float) - eye_
    forward /= np.linalg.norm(forward)
    right = np.cross(forward, [0.0, 0.0, 1.0])
    right /= np.linalg.norm(right)
    down = np.cross(forward, right)
    rotation = np.array([right, down, forward])  # camera axes: x right, y down, z ahead
    cx, cy = principal if principal is not None else (size[0] / 2, size[1] / 2)
    k = np.array([[focal_px, 0.0, cx], [0.0, focal_px, cy], [0.0, 0.0, 1.0]])
    return projection_camera(k @ np.column_stack([rotation, -rotation @ eye_]), size)


def _normalising(points: Floats) -> Floats:
    """The similarity moving the points' centroid to the origin, mean distance sqrt(2)."""
    centre = points.mean(axis=0)
    spread = np.sqrt(((points - centre) ** 2).sum(axis=1)).mean()
    scale = math.sqrt(2) / spread
    return np.array(
        [[scale, 0.0, -scale * centre[0]], [0.0, scale, -scale * centre[1]], [0.0, 0.0, 1.0]]
    )


class DegenerateLandmarks(ValueError):
    """Landmarks from which no homography (or no unique one) follows."""


def _collinear(points: Floats) -> bool:
    centred = points - points.mean(axis=0)
    s = np.linalg.svd(centred, compute_uv=False)
    return bool(s[0] == 0 or s[1] / s[0] < 1e-6)


def fit_homography(pitch: npt.ArrayLike, image: npt.ArrayLike) -> tuple[Floats, float]:
    """The homography H (3x3, |H| = 1) with image ~ H pitch, by the normalised DLT, and its RMS
    reprojection error in pixels. Raises `DegenerateLandmarks` for fewer than four points,
    repeated points, points all on a line, four points with three on a line, or a system
    without a unique solution."""
    src = np.asarray(pitch, dtype=float)
    dst = np.asarray(image, dtype=float)
    if src.ndim != 2 or src.shape[1] != 2 or dst.shape != src.shape:
        raise DegenerateLandmarks("expected as many [x, y] pitch points as [u, v] image points")
    n = len(src)
    if n < 4:
        raise DegenerateLandmarks(f"at least 4 landmarks are needed, got {n}")
    if not (np.all(np.isfinite(src)) and np.all(np.isfinite(dst))):
        raise DegenerateLandmarks("landmarks must be finite numbers")
    for name, pts in (("pitch", src), ("image", dst)):
        gaps = np.sqrt(((pts[:, None, :] - pts[None, :, :]) ** 2).sum(axis=2))
        span = float(gaps.max())
        if span == 0 or float(gaps[np.triu_indices(n, 1)].min()) <= 1e-9 * span:
            raise DegenerateLandmarks(f"two {name} points are the same")
        if _collinear(pts):
            raise DegenerateLandmarks(f"the {name} points all lie on one line")
        if n == 4:
            for k in range(4):
                if _collinear(np.delete(pts, k, axis=0)):
                    raise DegenerateLandmarks(f"three of the four {name} points lie on one line")
    t_src, t_dst = _normalising(src), _normalising(dst)
    s = (np.column_stack([src, np.ones(n)]) @ t_src.T)[:, :2]
    d = (np.column_stack([dst, np.ones(n)]) @ t_dst.T)[:, :2]
    rows = []
    for (x, y), (u, v) in zip(s, d, strict=True):
        rows.append([-x, -y, -1.0, 0.0, 0.0, 0.0, u * x, u * y, u])
        rows.append([0.0, 0.0, 0.0, -x, -y, -1.0, v * x, v * y, v])
    a = np.array(rows)
    _, sv, vt = np.linalg.svd(a)
    if len(sv) >= 8 and sv[7] <= 1e-9 * sv[0]:
        raise DegenerateLandmarks("the landmarks do not fix a unique homography")
    h = np.linalg.inv(t_dst) @ vt[-1].reshape(3, 3) @ t_src
    h /= np.linalg.norm(h)
    hs = np.linalg.svd(h, compute_uv=False)
    if hs[2] <= 1e-10 * hs[0]:
        raise DegenerateLandmarks("the fitted homography is singular")
    mapped = np.column_stack([src, np.ones(n)]) @ h.T
    if np.all(mapped[:, 2] < 0):
        h, mapped = -h, -mapped
    if np.any(mapped[:, 2] <= 0):
        raise DegenerateLandmarks("the landmarks put part of the pitch behind the camera")
    residual = mapped[:, :2] / mapped[:, 2:3] - dst
    rms = float(np.sqrt((residual**2).sum(axis=1).mean()))
    return h, rms


def homography_camera(
    pitch: npt.ArrayLike,
    image: npt.ArrayLike,
    size: tuple[int, int] = DEFAULT_SIZE,
    still: Path | None = None,
) -> Camera:
    h, rms = fit_homography(pitch, image)
    return Camera("homography", h, size, still, rms)
