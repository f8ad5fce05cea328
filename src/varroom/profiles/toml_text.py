"""A profile written out as TOML, every key stated: what `varroom profiles show` prints, a
starting point for a competition's own file, and what `profiles.reader` reads back to the same
profile (the same hash)."""

from __future__ import annotations

import json
from enum import Enum

from varroom.model.penalty import PenaltySettings
from varroom.model.settings import LawSettings
from varroom.profiles.profile import Profile

_POLICIES = "ifab, daylight, tolerance:5cm (any distance, cm or m) or confidence:0.95"


def profile_to_toml(profile: Profile) -> str:
    content = profile.to_dict()
    lines = [
        "# A varroom competition profile (docs/formats/profile.md). A key left out keeps the",
        "# value of the `ifab` profile; an unknown key is refused.",
        *_values({key: content[key] for key in ("name", "version", "source")}),
        "",
        "[offside]",
        f"# How tight calls are settled: {_POLICIES}.",
        *_values(content["offside"]),
        "",
        "[law]",
        "# The points Law 11 leaves open (docs/settings.md).",
        *_values(content["law"], LawSettings()),
        "",
        "[penalty_kick]",
        "# The points Law 14 leaves open (docs/penalty.md).",
        *_values(content["penalty_kick"], PenaltySettings()),
    ]
    noise = content["noise"]
    lines += ["", "# The noise of each kind of data where a file or a match does not state it."]
    for source, figures in noise.items():
        lines += ["", f"[noise.{source}]", *_values(figures)]
    return "\n".join(lines) + "\n"


def _values(table: dict[str, object], settings: object = None) -> list[str]:
    lines = []
    for key, value in table.items():
        default = getattr(settings, key, None)
        if isinstance(default, Enum):
            lines.append(f"# {' | '.join(str(m.value) for m in type(default))}")
        lines.append(f"{key} = {json.dumps(value, ensure_ascii=False)}")
    return lines
