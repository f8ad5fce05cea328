"""Measurement noise of each kind of tracking: working defaults, overridable per situation."""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum


class TrackingSource(Enum):
    """Where positions come from; each has default noise levels (overridable)."""

    SKELETAL_OPTICAL = "skeletal_optical"  # multi-camera limb tracking, as semi-automated offside
    CENTROID_OPTICAL = "centroid_optical"  # in-stadium optical tracking of each player's centre
    BROADCAST = "broadcast"  # tracking from the TV picture
    MANUAL = "manual"  # placed by hand by a reviewer or an analyst


@dataclass(frozen=True, slots=True)
class NoiseModel:
    position_sd_m: float
    ball_sd_m: float
    frame_rate_hz: float
    centroid_reach_sd_m: float
    timing_sd_s: float | None = None  # default: half a frame

    @property
    def moment_sd_s(self) -> float:
        return self.timing_sd_s if self.timing_sd_s is not None else 0.5 / self.frame_rate_hz


# Assumed defaults, not measurements of any one system: docs/uncertainty.md says how they were
# chosen; a data set or a situation that knows better overrides them.
NOISE_DEFAULTS: dict[TrackingSource, NoiseModel] = {
    TrackingSource.SKELETAL_OPTICAL: NoiseModel(0.03, 0.03, 50.0, 0.0),
    TrackingSource.CENTROID_OPTICAL: NoiseModel(0.10, 0.10, 25.0, 0.15),
    TrackingSource.BROADCAST: NoiseModel(0.40, 0.40, 10.0, 0.15),
    TrackingSource.MANUAL: NoiseModel(0.15, 0.10, 25.0, 0.15),
}


@dataclass(frozen=True, slots=True)
class Tracking:
    """A situation's tracking source and the noise model its margins are read with."""

    source: TrackingSource
    noise: NoiseModel
