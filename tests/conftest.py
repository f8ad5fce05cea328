from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from varroom.cli.main import cli

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples"
# The project's real data sets (a README per set, with its source and licence), beside the
# checkout: the project's CI has them; a clone on a fresh machine does not, and there the tests
# marked `shared_data` are skipped, each saying why, so that `make test` passes on it too.
SHARED_DATA = ROOT.parent / "shared" / "data"


def pytest_runtest_setup(item: pytest.Item) -> None:
    if item.get_closest_marker("shared_data") is not None and not SHARED_DATA.is_dir():
        pytest.skip(f"needs the project's real data in {SHARED_DATA}, not beside this clone")


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
