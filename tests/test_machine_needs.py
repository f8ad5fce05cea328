"""What a test needs of the machine is said by its marks alone (tests/machine.py), so that the
tests a bare machine skips are exactly those .ci/run runs with the tools: `-m "needs or
shared_data"`."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from machine import Need, require

TESTS = Path(__file__).resolve().parent
# What a test would look at to decide for itself that the machine lacks a need.
LOOKS_FOR_A_NEED = {"require", "present", "chromium", "postgresql_bin", "SHARED_DATA"}


def _skips_of_its_own(path: Path) -> list[str]:
    """The lines of `path` where an `if` on a need leads to pytest.skip: a test deciding for
    itself, which a bare machine would skip and the marks would not select."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "require":
            found.append(f"{path.name}:{node.lineno} calls require()")
        if isinstance(node, ast.If):
            names = {n.id for n in ast.walk(node.test) if isinstance(n, ast.Name)}
            skips = any(isinstance(n, ast.Attribute) and n.attr == "skip" for n in ast.walk(node))
            if names & LOOKS_FOR_A_NEED and skips:
                found.append(f"{path.name}:{node.lineno} skips on a need of its own")
    return found


def test_only_the_marks_skip_for_a_missing_need() -> None:
    own = [
        line
        for path in sorted(TESTS.glob("*.py"))
        if path.name not in ("conftest.py", "machine.py", Path(__file__).name)
        for line in _skips_of_its_own(path)
    ]
    assert own == []


def test_the_check_finds_a_test_that_skips_by_itself(tmp_path: Path) -> None:
    sneaky = tmp_path / "test_sneaky.py"
    sneaky.write_text(
        "import pytest\nfrom machine import SHARED_DATA, Need, require\n\n"
        "def test_a():\n    if not SHARED_DATA.is_dir():\n        pytest.skip('no data')\n\n"
        "def test_b():\n    require(Need.CURL)\n"
    )
    assert _skips_of_its_own(sneaky) == [
        "test_sneaky.py:5 skips on a need of its own",
        "test_sneaky.py:9 calls require()",
    ]


def test_a_missing_need_skips_outside_ci_and_fails_in_it(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setattr("machine.SHARED_DATA", tmp_path / "nothing-here")
    monkeypatch.delenv("CI", raising=False)
    with pytest.raises(pytest.skip.Exception, match="needs the project's real data"):
        require(Need.SHARED_DATA)
    monkeypatch.setenv("CI", "true")
    with pytest.raises(pytest.fail.Exception, match="CI must have the project's real data"):
        require(Need.SHARED_DATA)
    monkeypatch.setattr("machine.SHARED_DATA", tmp_path)
    require(Need.SHARED_DATA)  # present: nothing happens, in CI or not
