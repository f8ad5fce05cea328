"""The two locks agree with pyproject's ranges: requirements.lock within every range, and
requirements-lowest.lock at each lower bound pyproject promises, so that `make test-lowest`
tests exactly the versions a user may have (docs/development.md)."""

from __future__ import annotations

import re
import tomllib

import pytest
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name
from packaging.version import Version

from machine import ROOT

PIN = re.compile(r"^([A-Za-z0-9][A-Za-z0-9._-]*)==([^\s\\;]+)", re.MULTILINE)


def _requirements() -> list[Requirement]:
    """Every package pyproject names, in its dependencies and extras, but varroom itself."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    lines = [*project["dependencies"], *sum(project["optional-dependencies"].values(), [])]
    return [r for r in map(Requirement, lines) if canonicalize_name(r.name) != "varroom"]


def lower_bound(requirement: Requirement) -> Version:
    found = [Version(s.version) for s in requirement.specifier if s.operator == ">="]
    assert len(found) == 1, f"{requirement}: a range needs one lower bound, to be tested"
    return found[0]


def pins(lock_text: str) -> dict[str, list[Version]]:
    """Each package a lock pins, with its version(s) (a universal lock may hold two)."""
    found: dict[str, list[Version]] = {}
    for name, version in PIN.findall(lock_text):
        found.setdefault(canonicalize_name(name), []).append(Version(version))
    return found


REQUIREMENTS = {canonicalize_name(r.name): r for r in _requirements()}
LOWEST = pins((ROOT / "requirements-lowest.lock").read_text(encoding="utf-8"))
LOCKED = pins((ROOT / "requirements.lock").read_text(encoding="utf-8"))


@pytest.mark.parametrize("name", sorted(REQUIREMENTS))
def test_the_lowest_lock_holds_the_lower_bound(name: str) -> None:
    assert LOWEST.get(name) == [lower_bound(REQUIREMENTS[name])]


@pytest.mark.parametrize("name", sorted(REQUIREMENTS))
def test_the_lock_is_within_the_range(name: str) -> None:
    versions = LOCKED.get(name)
    assert versions, f"{name} is not in requirements.lock"
    assert all(REQUIREMENTS[name].specifier.contains(v, prereleases=True) for v in versions)


def test_a_lock_above_a_bound_is_seen() -> None:
    # A lock written before a bound was raised (or by hand) pins something else.
    numpy = REQUIREMENTS["numpy"]
    stale = pins("numpy==2.0.2 \\\n    --hash=sha256:00\nscipy==1.13.0\n")
    assert stale["numpy"] != [lower_bound(numpy)]
    assert not numpy.specifier.contains(stale["numpy"][0])
