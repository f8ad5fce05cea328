"""tools/latest_report.py: what `make test-latest` found, for CI's log, without a line that a
reader of CI's log could take for the locked run's closing line."""

from __future__ import annotations

import re
import sys
from pathlib import Path

from machine import ROOT

sys.path.insert(0, str(ROOT / "tools"))

from latest_report import report  # noqa: E402

# What CI's log is read for: pytest's closing line, or a plain "N passed, N failed".
CLOSING_LIKE = re.compile(r"(^=+ .*\d+ (passed|failed))|(^(\w+: )?\d+ passed, \d+ failed)")

LOCK = "numpy==2.4.6 \\\n    --hash=sha256:ab\nmatplotlib==3.11.2 \\\n    --hash=sha256:cd\n"
FREEZE = "numpy==2.4.6\nmatplotlib==3.12.0\nPillow==13.0.0\n"


def _files(tmp_path: Path, log: str) -> tuple[Path, Path, Path]:
    paths = tmp_path / "log", tmp_path / "freeze", tmp_path / "lock"
    for path, text in zip(paths, (log, FREEZE, LOCK), strict=True):
        path.write_text(text)
    return paths


def test_a_failing_run_names_each_broken_test_and_the_newer_releases(tmp_path: Path) -> None:
    log = (
        "....F..E\nFAILED tests/test_a.py::test_one - AssertionError: x\n"
        "ERROR tests/test_b.py::test_two - OSError\n"
        "==== 1 failed, 2365 passed, 116 skipped, 1 error in 401.20s (0:06:41) ====\n"
    )
    lines = report(*_files(tmp_path, log), status=1)
    assert lines[0] == "newest releases differ from the lock in: matplotlib 3.11.2 -> 3.12.0"
    assert "tests/test_a.py::test_one" in lines[2] and "tests/test_b.py::test_two" in lines[3]
    assert "2 tests break" in lines[1]
    assert not [line for line in lines if CLOSING_LIKE.search(line)]


def test_a_passing_run_says_so_in_words_no_reader_takes_for_a_closing_line(
    tmp_path: Path,
) -> None:
    # As pytest prints it under the project's -q: no rules round the closing line.
    log = "....\n2366 passed, 116 skipped in 401.20s (0:06:41)\n"
    lines = report(*_files(tmp_path, log), status=0)
    assert lines[1] == "newest releases: every test holds (2366 passed; 116 skipped)"
    assert not [line for line in lines if CLOSING_LIKE.search(line)]


def test_a_run_that_stopped_before_testing_shows_the_end_of_its_log(tmp_path: Path) -> None:
    log = "Collecting x\nERROR: No matching distribution found for varroom-extra\n"
    lines = report(*_files(tmp_path, log), status=2)
    assert "stopped (exit 2) before testing" in lines[1]
    assert lines[-1].strip() == "ERROR: No matching distribution found for varroom-extra"
