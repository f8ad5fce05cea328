"""A competition profile: how one competition applies the Laws, as one value every command
judges under (docs/formats/profile.md).

The Laws leave points to competitions (docs/settings.md); a profile states each of them, the
policy that settles tight offside calls, and the noise each kind of data is taken to have where
a file or a match does not state its own. A verdict names the profile it was judged under and
the hash of its content, so two verdicts under the same name but different settings are told
apart.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from typing import Any

from varroom.engine.policy import IFAB, Policy
from varroom.model.noise import NoiseModel
from varroom.model.noise_defaults import STATED_NOISE, NoiseDefaults
from varroom.model.penalty import PenaltySettings
from varroom.model.settings import LawSettings

NOISE_FIGURES = ("position_sd_m", "ball_sd_m", "frame_rate_hz", "centroid_reach_sd_m")
"""A tracking source's figures in a profile (and `timing_sd_s`, which may be left out)."""


@dataclass(frozen=True, slots=True)
class Profile:
    name: str
    version: str
    source: str  # where its choices come from, or that it is an example
    policy: Policy = IFAB
    law: LawSettings = LawSettings()
    penalty: PenaltySettings = PenaltySettings()
    noise: NoiseDefaults = STATED_NOISE
    sha256: str = field(init=False, compare=False)

    def __post_init__(self) -> None:
        text = json.dumps(self.to_dict(), sort_keys=True, separators=(",", ":"))
        object.__setattr__(self, "sha256", hashlib.sha256(text.encode()).hexdigest())

    def to_dict(self) -> dict[str, Any]:
        """Every setting, as the profile file names it (the content its hash is taken of)."""
        return {
            "name": self.name,
            "version": self.version,
            "source": self.source,
            "offside": {"policy": str(self.policy)},
            "law": self.law.to_dict(),
            "penalty_kick": self.penalty.to_dict(),
            "noise": {
                **{
                    source.value: _noise_dict(model)
                    for source, model in self.noise.tracking.items()
                },
                "ball_line": {source.value: sd for source, sd in self.noise.ball_sd_m.items()},
            },
        }

    @property
    def label(self) -> str:
        """Its name and the start of its hash, as a person reads which profile judged."""
        return f"{self.name} ({self.sha256[:12]})"

    def stamp(self) -> dict[str, str]:
        """What a verdict records of the profile it was judged under."""
        return {"name": self.name, "sha256": self.sha256}


def _noise_dict(model: NoiseModel) -> dict[str, float]:
    figures = {name: getattr(model, name) for name in NOISE_FIGURES}
    if model.timing_sd_s is not None:
        figures["timing_sd_s"] = model.timing_sd_s
    return figures
