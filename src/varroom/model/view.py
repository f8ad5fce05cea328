"""What the data could see at a touch: the camera's view as a polygon in pitch metres.

Format 1.1 (`view.area`): every player inside the area is listed; one not listed may stand
anywhere outside it. Where that is, exactly, is what a settled verdict on partial data rests on
(format 1.2: settled means proven), so the reach of the ground outside the view is computed
exactly, not on a grid: the least and greatest x of (a box minus the polygon), cut by a disc
when a player's reach bounds him, are attained at vertices of that region, and those are among
the box's and the polygon's corners, their edges' crossings, the circle's crossings with the
edges and the circle's own ends along x.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

Floats = npt.NDArray[np.float64]

# Nobody takes part in play farther outside the pitch than this (a run behind the goal, a
# throw-in taken from the track): the situation reader refuses a position beyond it, and an
# unseen player is looked for no farther out.
AROUND_PITCH_M = 10.0
# Coordinates in metres carry float noise far below this: a point this near an edge is on it.
_ON_EDGE_M = 1e-7


@dataclass(frozen=True, slots=True)
class Box:
    """An axis-aligned rectangle of the ground, in pitch metres."""

    x_min_m: float
    x_max_m: float
    y_min_m: float
    y_max_m: float

    @property
    def corners_m(self) -> Floats:
        return np.array(
            [
                [self.x_min_m, self.y_min_m],
                [self.x_max_m, self.y_min_m],
                [self.x_max_m, self.y_max_m],
                [self.x_min_m, self.y_max_m],
            ]
        )


@dataclass(frozen=True, slots=True)
class Disc:
    """Where a player could have been: within `radius_m` of a point."""

    x_m: float
    y_m: float
    radius_m: float


@dataclass(frozen=True, slots=True)
class View:
    """The part of the pitch the data saw at one touch (at least three corners)."""

    area_m: tuple[tuple[float, float], ...]

    def covers(self, x_m: Floats, y_m: Floats) -> npt.NDArray[np.bool_]:
        """Whether each point lies inside the area (the even-odd rule), elementwise."""
        return inside_polygon(np.asarray(self.area_m, dtype=float), x_m, y_m)


def inside_polygon(polygon: Floats, x_m: Floats, y_m: Floats) -> npt.NDArray[np.bool_]:
    """The even-odd rule: a ray from each point towards +x crosses the polygon's edges an odd
    number of times."""
    x = np.asarray(x_m, dtype=float)[..., None]
    y = np.asarray(y_m, dtype=float)[..., None]
    x0, y0 = polygon.T
    x1, y1 = np.roll(polygon, -1, axis=0).T
    spans = (y0 > y) != (y1 > y)  # the edge reaches from below the ray to above it
    with np.errstate(divide="ignore", invalid="ignore"):  # flat edges never span the ray
        x_at = x0 + (y - y0) * (x1 - x0) / (y1 - y0)
    crossings = np.count_nonzero(spans & (x_at > x), axis=-1)
    inside: npt.NDArray[np.bool_] = crossings % 2 == 1
    return inside


def strictly_inside(polygon: Floats, points: Floats) -> npt.NDArray[np.bool_]:
    """Inside the polygon and not on its boundary: a player on the view's very edge may be the
    one not listed, so the edge counts as unseen ground."""
    start = polygon[None, :, :]
    edge = np.roll(polygon, -1, axis=0)[None, :, :] - start
    along = points[:, None, :] - start
    length2 = np.maximum((edge**2).sum(axis=-1), 1e-300)
    t = np.clip((along * edge).sum(axis=-1) / length2, 0.0, 1.0)
    gap = np.hypot(*(along - t[..., None] * edge).transpose(2, 0, 1))
    on_edge = (gap <= _ON_EDGE_M).any(axis=1)
    strict: npt.NDArray[np.bool_] = inside_polygon(polygon, points[:, 0], points[:, 1]) & ~on_edge
    return strict


def unseen_x_range(
    ground: Box, view: View | None, disc: Disc | None = None
) -> tuple[float, float] | None:
    """The least and greatest x of the ground outside the view (and inside the disc, if one is
    given), exactly; None where the view covers all of it."""
    polygon = None if view is None else np.asarray(view.area_m, dtype=float)
    rings = [ground.corners_m] + ([] if polygon is None else [polygon])
    starts = np.concatenate(rings)
    edges = np.concatenate([np.roll(ring, -1, axis=0) for ring in rings]) - starts
    candidates = [starts, _crossings(starts, edges)]
    if disc is not None:
        candidates.append(_circle_crossings(starts, edges, disc))
        candidates.append(
            np.array([[disc.x_m - disc.radius_m, disc.y_m], [disc.x_m + disc.radius_m, disc.y_m]])
        )
    points = np.concatenate(candidates)
    keep = _in_ground(ground, disc, points)
    if polygon is not None:
        keep &= ~strictly_inside(polygon, points)
    points = points[keep]
    if not len(points):
        return None
    # A candidate on the view's edge bounds the unseen ground only if ground out of view
    # touches it there; most extremes are not on an edge, so the test runs from each end
    # until one holds.
    order = np.argsort(points[:, 0], kind="stable")
    low = next(
        (k for k in order if _touches_unseen(points[k], ground, polygon, starts, edges, disc)), None
    )
    if low is None:
        return None
    high = next(
        k for k in order[::-1] if _touches_unseen(points[k], ground, polygon, starts, edges, disc)
    )
    return float(points[low, 0]), float(points[high, 0])


def _in_ground(ground: Box, disc: Disc | None, points: Floats) -> npt.NDArray[np.bool_]:
    inside: npt.NDArray[np.bool_] = (
        (points[:, 0] >= ground.x_min_m - _ON_EDGE_M)
        & (points[:, 0] <= ground.x_max_m + _ON_EDGE_M)
        & (points[:, 1] >= ground.y_min_m - _ON_EDGE_M)
        & (points[:, 1] <= ground.y_max_m + _ON_EDGE_M)
    )
    if disc is not None:
        reach = np.hypot(points[:, 0] - disc.x_m, points[:, 1] - disc.y_m)
        inside &= reach <= disc.radius_m + _ON_EDGE_M
    return inside


def _touches_unseen(
    point: Floats,
    ground: Box,
    polygon: Floats | None,
    starts: Floats,
    edges: Floats,
    disc: Disc | None,
) -> bool:
    """Whether ground out of view (and in the disc) lies right beside `point`: one probe a
    micrometre away in each wedge the edges and the circle through it cut out."""
    if polygon is None:
        return True
    along = point - starts
    length2 = np.maximum((edges**2).sum(axis=1), 1e-300)
    t = np.clip((along * edges).sum(axis=1) / length2, 0.0, 1.0)
    gap = np.hypot(*(along - t[:, None] * edges).T)
    through = gap <= _ON_EDGE_M
    if not through.any():
        return True  # off every edge: out of view, and the caller checked it is on the ground
    ends = np.concatenate([starts[through], (starts + edges)[through]]) - point
    ends = ends[np.hypot(*ends.T) > _ON_EDGE_M]
    angles = list(np.arctan2(ends[:, 1], ends[:, 0]))
    if disc is not None:
        radial = np.arctan2(point[1] - disc.y_m, point[0] - disc.x_m)
        angles += [radial + np.pi / 2, radial - np.pi / 2]
    # Each distinct direction once: a probe must fall inside a wedge, never along an edge.
    spokes = np.unique(
        np.round(np.mod(np.array(angles + [0.0, np.pi / 2, np.pi, 3 * np.pi / 2]), 2 * np.pi), 9)
    )
    middles = (spokes + np.diff(np.append(spokes, spokes[0] + 2 * np.pi)) / 2)[:, None]
    probes = point + 1e-6 * np.hstack([np.cos(middles), np.sin(middles)])
    # The probes are strictly in or out: a micrometre off the edges through the point.
    free = _in_ground(ground, disc, probes) & ~inside_polygon(polygon, probes[:, 0], probes[:, 1])
    return bool(free.any())


def _crossings(starts: Floats, edges: Floats) -> Floats:
    """Where any two edges cross (parallel ones meet only at corners, candidates already)."""
    a, r = starts[:, None, :], edges[:, None, :]
    c, s = starts[None, :, :], edges[None, :, :]
    denominator = r[..., 0] * s[..., 1] - r[..., 1] * s[..., 0]
    ca = c - a
    with np.errstate(divide="ignore", invalid="ignore"):
        t = (ca[..., 0] * s[..., 1] - ca[..., 1] * s[..., 0]) / denominator
        u = (ca[..., 0] * r[..., 1] - ca[..., 1] * r[..., 0]) / denominator
    meet = (np.abs(denominator) > 1e-12) & (t >= 0) & (t <= 1) & (u >= 0) & (u <= 1)
    crossing: Floats = (a + np.where(meet, t, 0.0)[..., None] * r)[meet]
    return crossing


def _circle_crossings(starts: Floats, edges: Floats, disc: Disc) -> Floats:
    """Where the disc's circle crosses each edge."""
    f = starts - np.array([disc.x_m, disc.y_m])
    qa = (edges**2).sum(axis=1)
    qb = 2 * (f * edges).sum(axis=1)
    qc = (f**2).sum(axis=1) - disc.radius_m**2
    root = np.sqrt(np.maximum(qb * qb - 4 * qa * qc, 0.0))
    real = (qb * qb - 4 * qa * qc >= 0) & (qa > 0)
    out = []
    for sign in (-1.0, 1.0):
        with np.errstate(divide="ignore", invalid="ignore"):
            t = (-qb + sign * root) / (2 * qa)
        ok = real & (t >= 0) & (t <= 1)
        out.append(starts[ok] + t[ok, None] * edges[ok])
    return np.concatenate(out)
