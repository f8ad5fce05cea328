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
SHARED_DATA = ROOT.parent / "shared" / "data"


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
