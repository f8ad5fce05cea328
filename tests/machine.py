"""What a test needs of the machine beyond Python and make, looked for in one place.

A test says what it needs with a mark, `needs(Need.X, ...)` or `shared_data`, and nothing else
skips for a missing tool: conftest's hook reads the marks, skips the test with the reason where a
need is missing, so that the README's `make test` passes on a bare machine, and with CI=true
fails it instead, since CI must run every test (.ci/run installs Chromium, PostgreSQL and curl;
the project's CI has the real data beside the clone). So the tests a bare machine skips are
exactly those `-m "needs or shared_data"` selects: .ci/run runs them with the tools present. Tools are looked for on PATH only, and PostgreSQL's server where Debian puts
it, so that a run with them hidden (tools/bare-machine-check.sh) sees them missing.
"""

from __future__ import annotations

import os
import shutil
from enum import Enum
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
# The project's real data sets (a README per set, with its source and licence), beside the
# checkout: the project's CI has them; a clone on a fresh machine does not.
SHARED_DATA = ROOT.parent / "shared" / "data"
# Debian installs each PostgreSQL major version under a folder of its own.
POSTGRESQL_ROOT = Path("/usr/lib/postgresql")


class Need(Enum):
    """A thing outside Python that some tests use, and what they use it for."""

    CHROMIUM = "Chromium (the browser tests of the review room, the docs site and 3D scenes)"
    POSTGRESQL = "PostgreSQL's server (the review room's tests on PostgreSQL)"
    CURL = "curl (docs/live.md waits for the review room with it)"
    SHARED_DATA = f"the project's real data in {SHARED_DATA}"


def chromium() -> str | None:
    """Debian's Chromium on PATH (Playwright drives it: no browser download), or None."""
    return shutil.which("chromium") or shutil.which("chromium-browser")


def postgresql_bin() -> Path | None:
    """The newest PostgreSQL server's bin folder (initdb, pg_ctl, createdb), or None."""
    found = [p for p in POSTGRESQL_ROOT.glob("*/bin") if (p / "initdb").exists()]
    return max(found, key=lambda p: int(p.parent.name), default=None)


def present(need: Need) -> bool:
    if need is Need.CHROMIUM:
        return chromium() is not None
    if need is Need.POSTGRESQL:
        return postgresql_bin() is not None
    if need is Need.CURL:
        return shutil.which("curl") is not None
    return SHARED_DATA.is_dir()


def in_ci() -> bool:
    return os.environ.get("CI", "").lower() not in ("", "0", "false")


def require(*needs: Need) -> None:
    """Skip the test being set up when a need is missing; fail it in CI. Called by conftest's
    hook for the test's marks only, never by a test itself (see the module's docstring)."""
    missing = [need.value for need in needs if not present(need)]
    if not missing:
        return
    if in_ci():
        pytest.fail(f"CI must have {', '.join(missing)}: .ci/run installs it", pytrace=False)
    pytest.skip(f"needs {', '.join(missing)}, which this machine lacks")
