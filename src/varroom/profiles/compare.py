"""What sets profiles apart: the settings whose values differ."""

from __future__ import annotations

from typing import Any

from varroom.profiles.profile import Profile

# What a profile's file says about itself, not how it judges.
_ABOUT = ("name", "version", "source")


def differing_settings(profiles: list[Profile]) -> dict[str, list[object]]:
    """Each setting (dotted, as the profile file names it) whose value is not the same under
    every profile, with its value under each, in order."""
    flat = [_flatten(profile.to_dict()) for profile in profiles]
    keys = [key for key in flat[0] if key.split(".")[0] not in _ABOUT]
    return {key: [f[key] for f in flat] for key in keys if len({repr(f[key]) for f in flat}) > 1}


def _flatten(table: dict[str, Any], prefix: str = "") -> dict[str, Any]:
    flat: dict[str, Any] = {}
    for key, value in table.items():
        if isinstance(value, dict):
            flat.update(_flatten(value, f"{prefix}{key}."))
        else:
            flat[f"{prefix}{key}"] = value
    return flat
