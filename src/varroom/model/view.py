"""What the data could see at a touch: the camera's view as a polygon in pitch metres.

Format 1.1 (`view.area`): every player inside the area is listed; one not listed may stand
anywhere outside it. The point-in-polygon test is vectorised: the unseen-opponent model asks
it for a grid over the whole pitch.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

Floats = npt.NDArray[np.float64]


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
