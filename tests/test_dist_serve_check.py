"""tools/serve_check.py, which make dist and the docs' command test use for `varroom serve`."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from conftest import ROOT

SCRIPT = ROOT / "tools" / "serve_check.py"


def test_a_server_that_exits_fails_the_check_with_its_log(tmp_path: Path) -> None:
    crashing = [sys.executable, "-c", "import sys; print('cannot bind'); sys.exit(3)"]
    result = subprocess.run(
        [sys.executable, str(SCRIPT), *crashing],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        check=False,
        timeout=60,
    )
    assert result.returncode == 1
    assert "the server exited with 3" in result.stderr
    assert "cannot bind" in result.stderr


def test_no_command_is_a_usage_error(tmp_path: Path) -> None:
    result = subprocess.run(
        [sys.executable, str(SCRIPT)], cwd=tmp_path, capture_output=True, text=True, check=False
    )
    assert result.returncode == 2
