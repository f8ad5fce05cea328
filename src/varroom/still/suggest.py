"""Suggesting a still's landmarks from its white pitch lines, and its players, with OpenCV
(the optional `still` extra; offline, nothing downloaded). A suggestion is only a start: the
reviewer accepts or corrects each landmark, and the line error says how far to trust it.

Landmarks, in five steps (docs/still.md):

1. the grass: green enough pixels (HSV), the largest region, its convex hull;
2. the white lines on it: a morphological top-hat (thin and brighter than the grass around),
   small blobs (heads, the ball) dropped; a noisy still is smoothed first and thresholded
   above its noise, and a far line broken into dashes is joined up;
3. line segments (probabilistic Hough), merged into lines, each refitted on the white pixels along it, the longest eight kept;
4. the fit against the pitch model: every choice of two of them as two of the lines x = const
   and two others as two of the lines y = const gives a homography from the four corners; each is scored by how many of
   the model's marking points land on a white line (a distance transform) less those that land
   on grass; of the best, the first that a camera above the ground can see;
5. refined: the model's marking points pulled to the nearest white pixel and the homography
   refitted, a few times (an iterative closest point).

Players: OpenCV's built-in HOG people detector (Dalal and Triggs' linear SVM), on the still
scaled up so that a player is about the detector's 128 pixels tall.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import combinations, permutations

import cv2
import numpy as np
import numpy.typing as npt

from varroom.model.camera import DegenerateLandmarks, fit_homography
from varroom.still.camera import Floats
from varroom.still.pitch_model import GROUND_LANDMARKS, LINES_X, LINES_Y, marking_points

Image = npt.NDArray[np.uint8]

_INLIER_PX = 3.0
_TOPHAT = 35  # grey levels above the grass around, on a still without noise
# A still noisier than this (the robust SD of its grass, in grey levels) is smoothed first, and
# its threshold follows the noise left, floored: a far line a pixel wide is as faint as noise.
_NOISY = 1.0
_SMOOTH_PX = 1.0
_NOISE_SDS = 5.0
_TOPHAT_FLOOR = 12
_LINE_SPAN_PX = 30  # a mark spanning less is a blob (a head, the ball), not a line
_JOIN_PX = 5  # pieces this close are one when spans are measured (noise breaks far lines)
_LINES_USED = 8  # the longest lines found
_CHUNK = 4096
_CELL_PX = 6
_CLOSE = 0.95
_REFINED = 6  # the best hypotheses refined before one is chosen
_MISS_WEIGHT = 0.25  # a model point on grass but on no white line (lines fade in the distance)
# A camera above the ground sees the pitch's (x, y) mirrored into the picture's (u, v down):
# det H < 0 once H is scaled so that w > 0 on the pitch.
_ABOVE_GROUND_SIGN = -1.0


@dataclass(frozen=True, slots=True)
class LandmarkSuggestion:
    homography: Floats  # pitch (x, y, 1) to pixels
    landmarks: tuple[tuple[tuple[float, float], tuple[float, float]], ...]  # (pitch, pixel)
    line_error_px: float  # RMS distance from the model's lines to the white lines found
    lines_found: int

    def to_json(self) -> list[dict[str, list[float]]]:
        """As the still-marks format's `landmarks`."""
        return [
            {"pitch": [x, y], "pixel": [round(u, 1), round(v, 1)]}
            for (x, y), (u, v) in self.landmarks
        ]


def suggest_landmarks(image: Image, towards: float = 1.0) -> LandmarkSuggestion | None:
    """The landmarks of the half attacked towards `towards` (+1: +x, -1: -x) that the still's
    lines give, or None when too few lines are found to fit the pitch."""
    grass = grass_region(image)
    white = white_lines(image, grass)
    found = _merged_lines(white)
    lines = [line for line, _ in sorted(found, key=lambda item: -item[1])][:_LINES_USED]
    if len(lines) < 4:
        return None
    nearest = _Nearest(white)
    distance = nearest.distance
    half = marking_points(1.0)
    model = half[half[:, 0] >= 0.0] * np.array([towards, 1.0])
    fits = [_refine(h, nearest, model) for h in _best_fit(lines, distance, grass, model, towards)]
    if not fits:
        return None
    # Near misses (a line taken for its neighbour) score nearly as well as the right one but
    # cannot be refined onto the lines: of the fits scoring within a few percent of the best,
    # the one that lies closest to the white lines.
    scores = [float(_scores(h[None], distance, grass, model)[0]) for h, _ in fits]
    close = [fit for fit, score in zip(fits, scores, strict=True) if score >= _CLOSE * max(scores)]
    h, error = min(close, key=lambda fit: fit[1] if np.isfinite(fit[1]) else np.inf)
    height, width = white.shape
    landmarks = []
    for x, y in GROUND_LANDMARKS:
        point = (towards * x, y)
        uv = _apply(h, np.array([point]))[0]
        if 5 <= uv[0] <= width - 5 and 5 <= uv[1] <= height - 5 and grass[int(uv[1]), int(uv[0])]:
            landmarks.append((point, (float(uv[0]), float(uv[1]))))
    return LandmarkSuggestion(h, tuple(landmarks), error, len(found))


def grass_region(image: Image) -> npt.NDArray[np.bool_]:
    """The pitch in the picture: the convex hull of the largest green region."""
    hsv = cv2.cvtColor(image, cv2.COLOR_RGB2HSV)
    green = cv2.inRange(hsv, (30, 50, 40), (90, 255, 255))
    green = cv2.morphologyEx(green, cv2.MORPH_CLOSE, np.ones((15, 15), np.uint8))
    count, labels, stats, _ = cv2.connectedComponentsWithStats(green)
    region = np.zeros(green.shape, np.uint8)
    if count > 1:
        largest = 1 + int(np.argmax(stats[1:, cv2.CC_STAT_AREA]))
        points = np.column_stack(np.nonzero(labels == largest)[::-1]).astype(np.int32)
        cv2.fillConvexPoly(region, cv2.convexHull(points), 1)
    mask: npt.NDArray[np.bool_] = region.astype(bool)
    return mask


def white_lines(image: Image, grass: npt.NDArray[np.bool_]) -> npt.NDArray[np.bool_]:
    """Thin bright marks on the grass, blobs smaller than a line piece dropped. A noisy still
    is smoothed first and thresholded above the noise left (`_NOISY`)."""
    gray = cv2.cvtColor(image, cv2.COLOR_RGB2GRAY)
    noisy = (
        bool(grass.any())
        and _robust_sd(gray.astype(np.int16) - cv2.medianBlur(gray, 3), grass) > _NOISY
    )
    if noisy:
        gray = cv2.GaussianBlur(gray, (0, 0), _SMOOTH_PX)
    tophat = cv2.morphologyEx(gray, cv2.MORPH_TOPHAT, cv2.getStructuringElement(2, (15, 15)))
    threshold = float(_TOPHAT)
    if noisy:
        level = float(np.median(tophat[grass]))
        threshold = min(
            threshold, max(_TOPHAT_FLOOR, level + _NOISE_SDS * _robust_sd(tophat, grass))
        )
    saturation = cv2.cvtColor(image, cv2.COLOR_RGB2HSV)[..., 1]
    marks = (tophat > threshold) & (saturation < 90) & grass
    joined = cv2.dilate(marks.astype(np.uint8), np.ones((_JOIN_PX, _JOIN_PX), np.uint8))
    count, labels, stats, _ = cv2.connectedComponentsWithStats(joined)
    span = np.maximum(stats[:, cv2.CC_STAT_WIDTH], stats[:, cv2.CC_STAT_HEIGHT])
    keep = span >= _LINE_SPAN_PX
    keep[0] = False
    mask: npt.NDArray[np.bool_] = keep[labels] & marks
    return mask


def _robust_sd(values: npt.NDArray[np.generic], where: npt.NDArray[np.bool_]) -> float:
    """The SD of `values` on `where` from their median absolute deviation (lines and players
    are outliers to it, the noise is not)."""
    chosen = values[where].astype(float)
    return 1.4826 * float(np.median(np.abs(chosen - np.median(chosen))))


def _merged_lines(white: npt.NDArray[np.bool_]) -> list[tuple[Floats, float]]:
    """Hough segments merged into lines: (a, b, c) with a u + b v + c = 0, |(a, b)| = 1, and the
    length of white found along it."""
    found = cv2.HoughLinesP(
        white.astype(np.uint8) * 255, 1, np.pi / 720, 40, minLineLength=40, maxLineGap=8
    )
    if found is None:
        return []
    segments = found[:, 0, :].astype(float)
    lengths = np.hypot(segments[:, 2] - segments[:, 0], segments[:, 3] - segments[:, 1])
    clusters: list[list[int]] = []
    lines: list[Floats] = []
    for k in np.argsort(-lengths):
        ends = segments[k].reshape(2, 2)
        for members, line in zip(clusters, lines, strict=True):
            if np.abs(ends @ line[:2] + line[2]).max() < 4.0:
                members.append(int(k))
                break
        else:
            clusters.append([int(k)])
            lines.append(_line_through(ends))
    vs, us = np.nonzero(white)
    pixels = np.column_stack([us, vs]) + 0.5
    out = []
    for members in clusters:
        if lengths[members].sum() < 80.0:
            continue
        line = _line_through(segments[members].reshape(-1, 2))
        # Refit on the white pixels along it: the segments' ends are only as good as Hough's
        # quantisation, the pixels give the line's centre.
        close = pixels[np.abs(pixels @ line[:2] + line[2]) < 2.5]
        if len(close) >= 20:
            line = _line_through(close)
        out.append((line, float(lengths[members].sum())))
    return out


def _line_through(points: Floats) -> Floats:
    centre = points.mean(axis=0)
    _, _, vt = np.linalg.svd(points - centre)
    normal = vt[-1]
    line: Floats = np.array([normal[0], normal[1], -normal @ centre])
    return line


def _best_fit(
    lines: list[Floats],
    distance: npt.NDArray[np.float32],
    grass: npt.NDArray[np.bool_],
    model: Floats,
    towards: float,
) -> list[Floats]:
    """The few hypotheses whose projected markings best cover the white lines (step 4)."""
    image_pts, pitch_pts = [], []
    xs = [towards * x for x in LINES_X]
    # Any two of the lines found may be two of the lines x = const, any two others two of the
    # lines y = const: perspective makes their directions too unlike to split them first.
    for i, j in combinations(range(len(lines)), 2):
        rest = [k for k in range(len(lines)) if k not in (i, j)]
        for k, m in combinations(rest, 2):
            corners = [np.cross(lines[a], lines[b]) for a in (i, j) for b in (k, m)]
            if any(abs(c[2]) < 1e-9 for c in corners):
                continue
            uv = np.array([c[:2] / c[2] for c in corners])
            for (xa, xb), (ya, yb) in (
                (p, q) for p in permutations(xs, 2) for q in permutations(LINES_Y, 2)
            ):
                image_pts.append(uv)
                pitch_pts.append([(xa, ya), (xa, yb), (xb, ya), (xb, yb)])
    if not image_pts:
        return []
    hs = _four_point_homographies(np.array(pitch_pts), np.array(image_pts))
    scores = np.concatenate(
        [_scores(hs[s : s + _CHUNK], distance, grass, model) for s in range(0, len(hs), _CHUNK)]
    )
    candidates: list[Floats] = []
    for k in np.argsort(-scores)[:100]:
        h = hs[k]
        w = np.column_stack([model, np.ones(len(model))]) @ h[2]
        h = h * np.sign(np.median(w))
        if np.all(np.isfinite(h)) and np.sign(np.linalg.det(h)) == _ABOVE_GROUND_SIGN:
            candidates.append(h)
        if len(candidates) == _REFINED:
            break
    return candidates


def _four_point_homographies(src: Floats, dst: Floats) -> Floats:
    """H (with h33 = 1) for each set of four point pairs (N x 4 x 2 each), batched."""
    n = len(src)
    a = np.zeros((n, 8, 8))
    b = np.zeros((n, 8))
    x, y = src[..., 0], src[..., 1]
    u, v = dst[..., 0], dst[..., 1]
    a[:, 0::2, 0], a[:, 0::2, 1], a[:, 0::2, 2] = x, y, 1.0
    a[:, 0::2, 6], a[:, 0::2, 7] = -u * x, -u * y
    a[:, 1::2, 3], a[:, 1::2, 4], a[:, 1::2, 5] = x, y, 1.0
    a[:, 1::2, 6], a[:, 1::2, 7] = -v * x, -v * y
    b[:, 0::2], b[:, 1::2] = u, v
    ok = np.abs(np.linalg.det(a)) > 1e-12
    h = np.full((n, 9), np.nan)
    h[ok, :8] = np.linalg.solve(a[ok], b[ok][..., None])[..., 0]
    h[ok, 8] = 1.0
    out: Floats = h.reshape(n, 3, 3)
    return out


def _scores(
    hs: Floats,
    distance: npt.NDArray[np.float32],
    grass: npt.NDArray[np.bool_],
    model: Floats,
) -> Floats:
    height, width = distance.shape
    pts = np.column_stack([model, np.ones(len(model))])
    proj = np.einsum("nij,kj->nki", np.nan_to_num(hs), pts)
    w = proj[..., 2]
    with np.errstate(divide="ignore", invalid="ignore"):
        u, v = proj[..., 0] / w, proj[..., 1] / w
    inside = (np.abs(w) > 1e-12) & (u >= 0) & (u < width) & (v >= 0) & (v < height)
    ui = np.where(inside, u, 0).astype(int)
    vi = np.where(inside, v, 0).astype(int)
    on_grass = inside & grass[vi, ui]
    hit = on_grass & (distance[vi, ui] < _INLIER_PX)
    # Count the distinct places hit, not the points: a wrong homography that squeezes the model
    # onto one long line would otherwise score as many hits as the right one.
    cells = np.where(hit, (vi // _CELL_PX) * (width // _CELL_PX + 1) + ui // _CELL_PX, -1)
    cells.sort(axis=1)
    distinct = ((np.diff(cells, axis=1) != 0) & (cells[:, 1:] >= 0)).sum(axis=1)
    distinct += cells[:, 0] >= 0
    score: Floats = distinct - _MISS_WEIGHT * (on_grass & ~hit).sum(axis=1)
    score[~np.all(np.isfinite(hs.reshape(len(hs), -1)), axis=1)] = -np.inf
    return score


def _apply(h: Floats, points: Floats) -> Floats:
    q = np.column_stack([points, np.ones(len(points))]) @ h.T
    out: Floats = q[:, :2] / q[:, 2:3]
    return out


class _Nearest:
    """For any pixel, the nearest white one (a distance transform with labels)."""

    def __init__(self, white: npt.NDArray[np.bool_]) -> None:
        self.shape = white.shape
        distance, labels = cv2.distanceTransformWithLabels(
            (~white).astype(np.uint8), cv2.DIST_L2, 5, labelType=cv2.DIST_LABEL_PIXEL
        )
        self.distance: npt.NDArray[np.float32] = np.asarray(distance, dtype=np.float32)
        self.labels = np.asarray(labels)
        vs, us = np.nonzero(white)
        self.where = np.zeros((int(labels.max()) + 1, 2))
        self.where[labels[vs, us]] = np.column_stack([us, vs]) + 0.5


def _refine(h: Floats, nearest: _Nearest, model: Floats) -> tuple[Floats, float]:
    """Step 5: pull the model's marking points to the nearest white pixel, refit, repeat."""
    height, width = nearest.shape
    error = float("nan")
    for reach in (12.0, 8.0, 6.0, 4.0, 4.0, 4.0):
        uv = _apply(h, model)
        inside = np.all(np.isfinite(uv), axis=1)
        inside &= (uv[:, 0] >= 0) & (uv[:, 0] < width) & (uv[:, 1] >= 0) & (uv[:, 1] < height)
        ui, vi = uv[inside, 0].astype(int), uv[inside, 1].astype(int)
        near = nearest.distance[vi, ui] < reach
        if near.sum() < 8:
            break
        target = nearest.where[nearest.labels[vi[near], ui[near]]]
        error = float(np.sqrt(((target - uv[inside][near]) ** 2).sum(axis=1).mean()))
        try:
            h, _ = fit_homography(model[inside][near], target)
        except DegenerateLandmarks:
            break
    return h, error


def suggest_players(image: Image, player_height_px: float = 60.0) -> list[tuple[float, float]]:
    """Where OpenCV's HOG people detector finds players: the pixel under the middle of each
    one's feet (the bottom centre of the box), in the still's own pixels."""
    scale = max(1.0, 100.0 / player_height_px)  # the detector's window holds a 96-pixel person
    big = cv2.resize(image, None, fx=scale, fy=scale, interpolation=cv2.INTER_LINEAR)
    hog = cv2.HOGDescriptor()
    window_w, window_h = hog.winSize
    if big.shape[0] < window_h or big.shape[1] < window_w:
        # No one fits in the detector's window; OpenCV would read outside the picture (a
        # segmentation fault, found by fuzzing the still upload with a 64x36 picture).
        return []
    hog.setSVMDetector(np.asarray(cv2.HOGDescriptor.getDefaultPeopleDetector(), np.float32))
    boxes, _ = hog.detectMultiScale(
        cv2.cvtColor(big, cv2.COLOR_RGB2GRAY), winStride=(8, 8), padding=(8, 8), scale=1.1
    )
    return [((x + w / 2) / scale, (y + h * 0.95) / scale) for x, y, w, h in np.asarray(boxes)]
