"""Debian's Chromium for the browser tests: its path, or the module skipped where a person's
machine lacks it; in CI (which installs it) a missing browser is a failure, never a skip."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest


def chromium_or_skip() -> str:
    """The path of Chromium; skips the calling test module when it is missing outside CI."""
    found = shutil.which("chromium") or (
        "/usr/bin/chromium" if Path("/usr/bin/chromium").exists() else None
    )
    if found is None:
        if os.environ.get("CI"):
            pytest.fail("CI must have Debian's chromium (.ci/run installs it)", pytrace=False)
        pytest.skip("no Chromium here (CI installs it)", allow_module_level=True)
    return found
