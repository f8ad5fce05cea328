"""`make release-check` (tools/release_check.py): refuses a version already released."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest

from conftest import ROOT

SCRIPT = ROOT / "tools" / "release_check.py"


def _module() -> ModuleType:
    spec = importlib.util.spec_from_file_location("release_check", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


CHANGELOG = """# Changelog

## [0.3.0] - Unreleased

### Added
- something

## [0.2.0] - 2026-12-24

## [0.1.0] - 2026-11-30
"""


@pytest.mark.parametrize(
    ("version", "problem"),
    [
        ("0.3.0", None),
        ("0.2.0", "0.2.0 is already released (2026-12-24 in CHANGELOG.md)"),
        ("0.1.0", "0.1.0 is already released (2026-11-30 in CHANGELOG.md)"),
        ("0.4.0", "CHANGELOG.md has no section '## [0.4.0] - Unreleased' for 0.4.0"),
        ("0.3", "0.3 is not a semantic version (MAJOR.MINOR.PATCH)"),
    ],
)
def test_release_problem(version: str, problem: str | None) -> None:
    found = _module().release_problem(version, CHANGELOG)
    if problem is None:
        assert found is None
    else:
        assert found is not None and found.startswith(problem)


def test_a_version_below_a_released_one_is_refused() -> None:
    changelog = CHANGELOG.replace("## [0.3.0] - Unreleased", "## [0.1.5] - Unreleased")
    assert (
        _module().release_problem("0.1.5", changelog)
        == "0.1.5 is not above 0.2.0, already released"
    )


def _run(tmp_path: Path, version: str) -> subprocess.CompletedProcess[str]:
    pyproject = tmp_path / "pyproject.toml"
    pyproject.write_text(f'[project]\nname = "x"\nversion = "{version}"\n', encoding="utf-8")
    changelog = tmp_path / "CHANGELOG.md"
    changelog.write_text(CHANGELOG, encoding="utf-8")
    return subprocess.run(
        [sys.executable, str(SCRIPT), "--pyproject", str(pyproject), "--changelog", str(changelog)],
        capture_output=True,
        text=True,
        check=False,
    )


def test_the_command_refuses_a_released_version_with_one_line(tmp_path: Path) -> None:
    refused = _run(tmp_path, "0.2.0")
    assert refused.returncode == 1
    assert refused.stdout == ""
    assert refused.stderr.startswith("release-check: 0.2.0 is already released")
    assert len(refused.stderr.splitlines()) == 1
    accepted = _run(tmp_path, "0.3.0")
    assert accepted.returncode == 0, accepted.stderr


def test_this_checkouts_version_may_be_released() -> None:
    # pyproject's version must have an unreleased section: after a release, raise the version.
    result = subprocess.run(
        [sys.executable, str(SCRIPT)], capture_output=True, text=True, check=False
    )
    assert result.returncode == 0, result.stderr
