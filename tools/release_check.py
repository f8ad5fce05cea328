"""`make release-check`: may pyproject's version be released now?

Refuses (exit 1, one line saying why) a version that CHANGELOG.md already lists as released
(`## [X.Y.Z] - YYYY-MM-DD`), a version with no section in the changelog, a version that is not
semantic (MAJOR.MINOR.PATCH), and one not above the latest released version. Passes for a
version whose section is still `## [X.Y.Z] - Unreleased`.

Usage: python tools/release_check.py [--pyproject FILE] [--changelog FILE]
"""

from __future__ import annotations

import argparse
import re
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SEMVER = re.compile(r"^(\d+)\.(\d+)\.(\d+)(?:-[0-9A-Za-z.-]+)?$")
HEADING = re.compile(r"^## \[(?P<version>[^\]]+)\](?: - (?P<when>.+))?$", re.MULTILINE)
DATE = re.compile(r"^\d{4}-\d{2}-\d{2}$")


def release_problem(version: str, changelog: str) -> str | None:
    """Why `version` may not be released, or None when it may."""
    match = SEMVER.match(version)
    if match is None:
        return f"{version} is not a semantic version (MAJOR.MINOR.PATCH)"
    sections = {m["version"]: (m["when"] or "").strip() for m in HEADING.finditer(changelog)}
    released = {v: when for v, when in sections.items() if DATE.match(when)}
    if version in released:
        return (
            f"{version} is already released ({released[version]} in CHANGELOG.md): "
            "raise the version in pyproject.toml"
        )
    if version not in sections:
        return f"CHANGELOG.md has no section '## [{version}] - Unreleased' for {version}"
    number = tuple(int(part) for part in match.groups())
    for other in released:
        other_match = SEMVER.match(other)
        if other_match and tuple(int(p) for p in other_match.groups()) >= number:
            return f"{version} is not above {other}, already released"
    return None


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pyproject", type=Path, default=ROOT / "pyproject.toml")
    parser.add_argument("--changelog", type=Path, default=ROOT / "CHANGELOG.md")
    args = parser.parse_args(argv)
    version = tomllib.loads(args.pyproject.read_text(encoding="utf-8"))["project"]["version"]
    problem = release_problem(version, args.changelog.read_text(encoding="utf-8"))
    if problem is not None:
        print(f"release-check: {problem}", file=sys.stderr)
        return 1
    print(f"release-check: {version} is not released yet and CHANGELOG.md has its section")
    return 0


if __name__ == "__main__":
    sys.exit(main())
