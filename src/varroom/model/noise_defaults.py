"""The noise a competition takes each kind of data to have, where a file or a match does not
state its own: the tracking sources' models and the ball-line sources' errors (a profile's
`[noise]`, docs/formats/profile.md)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from varroom.model.ball_line import BALL_SD_DEFAULTS_M, BallNoise, BallTrackingSource
from varroom.model.noise import NOISE_DEFAULTS, NoiseModel, TrackingSource


@dataclass(frozen=True, slots=True)
class NoiseDefaults:
    tracking: Mapping[TrackingSource, NoiseModel] = field(
        default_factory=lambda: dict(NOISE_DEFAULTS)
    )
    ball_sd_m: Mapping[BallTrackingSource, float] = field(
        default_factory=lambda: dict(BALL_SD_DEFAULTS_M)
    )

    def ball(self, source: BallTrackingSource) -> BallNoise:
        """The error of a ball-line source, where a file or a match does not say."""
        return BallNoise(source, self.ball_sd_m[source])


STATED_NOISE = NoiseDefaults()
"""The working defaults of `NOISE_DEFAULTS` and `BALL_SD_DEFAULTS_M` (docs/uncertainty.md)."""
