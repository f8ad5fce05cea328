"""Competition profiles: how a competition applies the Laws, one file every command takes as
`--profile NAME|FILE` (docs/formats/profile.md). The built-in ones are in `builtin/`."""

from __future__ import annotations

from functools import cache
from pathlib import Path

from varroom.errors import InputError
from varroom.formats.json_fields import did_you_mean
from varroom.profiles.profile import Profile
from varroom.profiles.reader import profile_from_text, read_profile_file

BUILTIN = Path(__file__).parent / "builtin"
IFAB_NAME = "ifab"


def builtin_names() -> list[str]:
    """The built-in profiles, `ifab` (the Laws as written) first."""
    names = sorted(path.stem for path in BUILTIN.glob("*.toml"))
    return [IFAB_NAME, *(name for name in names if name != IFAB_NAME)]


@cache
def builtin_profile(name: str) -> Profile:
    path = BUILTIN / f"{name}.toml"
    return profile_from_text(path.read_text(encoding="utf-8"), f"profile {name}")


def load_profile(name_or_file: str | Path) -> Profile:
    """A built-in profile by name, or a profile file (a path, or a name ending .toml)."""
    text = str(name_or_file)
    if text in builtin_names():
        return builtin_profile(text)
    path = Path(text)
    if path.suffix.lower() == ".toml" or path.exists():
        return read_profile_file(path)
    names = builtin_names()
    raise InputError(
        text,
        "",
        f"no such profile{did_you_mean(text, names)}: the built-in profiles are "
        f"{', '.join(names)}, or give a profile file (.toml)",
    )


def ifab() -> Profile:
    """The Laws as written: the profile every command judges under unless told otherwise."""
    return builtin_profile(IFAB_NAME)


__all__ = ["BUILTIN", "Profile", "builtin_names", "builtin_profile", "ifab", "load_profile"]
