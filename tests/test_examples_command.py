"""`varroom examples [--copy DIR]` and `varroom --version`."""

from __future__ import annotations

import json
import subprocess
import sys
import tomllib
from importlib import metadata
from pathlib import Path
from typing import Any

import pytest

from conftest import EXAMPLES, ROOT
from varroom.cli import examples as examples_module

SAMPLE = ROOT / "samples" / "statsbomb-euro2020-turkey-italy"


def test_lists_every_example_and_the_sample(run_cli: Any) -> None:
    result = run_cli("examples")
    assert result.exit_code == 0
    listed = [line.split()[0] for line in result.output.splitlines() if line.startswith("  ")]
    # Depth first in name order: subfolders (penalty/, ball-line/, still/) where they sort.
    found = sorted(EXAMPLES.rglob("*.json"), key=lambda p: p.relative_to(ROOT).parts)
    expected = [p.relative_to(ROOT).as_posix() for p in found]
    assert listed[: len(expected)] == expected
    assert listed[len(expected) :] == ["samples/statsbomb-euro2020-turkey-italy/"]
    kane = json.loads((EXAMPLES / "tottenham-sporting-2022-kane.json").read_text("utf-8"))
    assert kane["meta"]["law"] in result.output


def test_copy_writes_the_repository_layout_byte_for_byte(run_cli: Any, tmp_path: Path) -> None:
    result = run_cli("examples", "--copy", str(tmp_path / "mine"))
    assert result.exit_code == 0, result.output
    for source in [*EXAMPLES.iterdir(), *SAMPLE.iterdir()]:
        if source.is_file():
            copy = tmp_path / "mine" / source.relative_to(ROOT)
            assert copy.read_bytes() == source.read_bytes(), copy
    # The sample's licence travels with it.
    assert (tmp_path / "mine" / "samples" / SAMPLE.name / "LICENSE.md").is_file()
    again = run_cli("examples", "--copy", str(tmp_path / "mine"))
    assert again.exit_code == 0 and "Copied 0 files" in again.output


def test_copy_refuses_to_overwrite_a_changed_file_and_writes_nothing(
    runner: Any, tmp_path: Path
) -> None:
    from varroom.cli.main import cli

    changed = tmp_path / "examples" / "only-arm-beyond-onside.json"
    changed.parent.mkdir()
    changed.write_text("{}", encoding="utf-8")
    result = runner.invoke(cli, ["examples", "--copy", str(tmp_path)])
    assert result.exit_code == 1
    assert result.output.strip().splitlines() == [
        f"varroom: cannot copy the examples: {changed} exists and differs"
    ]
    assert changed.read_text(encoding="utf-8") == "{}"
    assert [p.name for p in tmp_path.rglob("*") if p.is_file()] == [changed.name]


def test_a_wheel_reads_its_packaged_data(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    package = tmp_path / "varroom"
    (package / "_data" / "examples").mkdir(parents=True)
    (package / "_data" / "samples" / "s").mkdir(parents=True)
    (package / "_data" / "examples" / "a.json").write_text("{}", encoding="utf-8")
    (package / "_data" / "samples" / "s" / "LICENSE.md").write_text("x", encoding="utf-8")
    monkeypatch.setattr(examples_module, "files", lambda name: package)
    assert examples_module.data_root() == package / "_data"
    relative = [str(item.relative) for item in examples_module.shipped_files()]
    assert relative == ["examples/a.json", "samples/s/LICENSE.md"]


def test_no_data_anywhere_is_one_clear_error(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    package = tmp_path / "a" / "b" / "varroom"
    package.mkdir(parents=True)
    monkeypatch.setattr(examples_module, "files", lambda name: package)
    with pytest.raises(examples_module.VarroomError, match="shipped examples are missing"):
        examples_module.data_root()


def test_version_is_the_installed_distributions() -> None:
    # The console script a user runs (click's CliRunner would name the program after the
    # function, and click remembers the first name it saw).
    script = Path(sys.executable).parent / "varroom"
    result = subprocess.run(
        [str(script), "--version"], capture_output=True, text=True, check=True, timeout=60
    )
    installed = metadata.version("varroom")
    assert result.stdout == f"varroom, version {installed}\n"
    direct = metadata.distribution("varroom").read_text("direct_url.json")
    if direct and json.loads(direct).get("url") == ROOT.as_uri():
        # Installed from this checkout (CI, make test): the version is pyproject's.
        pyproject = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
        assert installed == pyproject["project"]["version"]
