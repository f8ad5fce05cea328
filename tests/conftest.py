from __future__ import annotations

import json
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, settings

from machine import ROOT, Need, require
from varroom.cli.main import cli

EXAMPLES = ROOT / "examples"

# Property tests give the same result on every machine and at any load: no timing checks (a
# deadline or the too-slow health check fails a busy 2-core machine, not the code: CI runs
# three legs at once), each test's examples drawn from its own fixed seed, and no example
# database carried over from earlier runs on this machine. HYPOTHESIS_PROFILE=explore draws
# new examples on every run, to hunt for what the fixed ones miss.
_NO_TIMING = {"deadline": None, "suppress_health_check": [HealthCheck.too_slow]}
settings.register_profile("repeatable", derandomize=True, database=None, **_NO_TIMING)
settings.register_profile("explore", **_NO_TIMING)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "repeatable"))


def pytest_runtest_setup(item: pytest.Item) -> None:
    """`shared_data` and `needs(Need.X, ...)` marks: skipped with the reason where the machine
    lacks it, failed in CI (tests/machine.py)."""
    needs = [Need.SHARED_DATA] if item.get_closest_marker("shared_data") is not None else []
    for marker in item.iter_markers("needs"):
        needs.extend(marker.args)
    if needs:
        require(*needs)


@pytest.fixture
def runner() -> CliRunner:
    return CliRunner()


@pytest.fixture
def run_cli(runner: CliRunner) -> Callable[..., Any]:
    def run(*args: str) -> Any:
        return runner.invoke(cli, list(args), catch_exceptions=False)

    return run


@pytest.fixture
def write_json(tmp_path: Path) -> Callable[[Any, str], Path]:
    def write(data: Any, name: str = "situation.json") -> Path:
        path = tmp_path / name
        path.write_text(json.dumps(data))
        return path

    return write
