"""Every shell command the README and docs/ write is run, as a reader would run it.

Each file's ```sh blocks run in order in one fresh temporary folder (not the checkout), with
the venv's bin first on PATH, after `varroom examples --copy .`: the docs say their commands
run from the checkout's root or from a folder the examples were copied to, and this checks
the second. A block fails the test on a non-zero exit.

Three kinds of command are not run as written, and each is listed as a skipped test (so
pytest's summary counts and names them):
- a block preceded by `<!-- docs-test: skip: REASON -->` (a long or environment-bound
  command: the whole test suite, a PostgreSQL server);
- a `pip install` line: it would change the venv the tests run in; `make dist` checks
  installing, from the wheel into a fresh venv;
- a `varroom serve` line runs with a free loopback port appended, until `/api/health`
  answers, then is stopped (a server never returns on its own).
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
MARKER = re.compile(r"<!--\s*docs-test:\s*skip:\s*(?P<reason>.+?)\s*-->")
FENCE = re.compile(r"^```sh\s*$")
BLOCK_TIMEOUT_S = 180

# `serve_check COMMAND...`: the review room on a free port, checked, then stopped.
PRELUDE = f'serve_check() {{ python "{ROOT / "tools" / "serve_check.py"}" "$@"; }}\n'


@dataclass(frozen=True, slots=True)
class Block:
    """One ```sh block: where it is, its text, and why it is skipped (None: it runs)."""

    file: str
    line: int
    text: str
    skip: str | None

    @property
    def where(self) -> str:
        return f"{self.file}:{self.line}"


def documents() -> list[Path]:
    return [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]


def blocks_of(path: Path) -> list[Block]:
    """The ```sh blocks of a Markdown file, each with the skip marker just above it."""
    lines = path.read_text(encoding="utf-8").splitlines()
    found: list[Block] = []
    i = 0
    while i < len(lines):
        if FENCE.match(lines[i]):
            start = i
            i += 1
            body: list[str] = []
            while i < len(lines) and lines[i].strip() != "```":
                body.append(lines[i])
                i += 1
            above = next((lines[k] for k in range(start - 1, -1, -1) if lines[k].strip()), "")
            marker = MARKER.search(above)
            found.append(
                Block(
                    str(path.relative_to(ROOT)) if path.is_relative_to(ROOT) else path.name,
                    start + 1,
                    "\n".join(body),
                    marker["reason"] if marker else None,
                )
            )
        i += 1
    return found


def commands_of(block: Block) -> list[tuple[str, str | None]]:
    """The block's logical lines (continuations joined), each with why it is not run as
    written: 'install' for pip install, 'serve' for varroom serve, else None."""
    joined = block.text.replace("\\\n", " ")
    out: list[tuple[str, str | None]] = []
    for line in joined.splitlines():
        command = line.strip()
        if command.startswith("pip install"):
            out.append((line, "install"))
        elif command.startswith("varroom serve"):
            out.append((line, "serve"))
        else:
            out.append((line, None))
    return out


def script_of(block: Block) -> str:
    lines = []
    for line, kind in commands_of(block):
        if kind == "install":
            lines.append(": # not run: " + line.strip())
        elif kind == "serve":
            lines.append("serve_check " + line.strip())
        else:
            lines.append(line)
    return PRELUDE + "\n".join(lines) + "\n"


ALL_BLOCKS = [block for path in documents() for block in blocks_of(path)]
FILES = sorted({block.file for block in ALL_BLOCKS})
SKIPPED = [(block.where, block.skip) for block in ALL_BLOCKS if block.skip] + [
    (block.where, f"pip install not run ({line.strip()}): make dist tests installing")
    for block in ALL_BLOCKS
    if not block.skip
    for line, kind in commands_of(block)
    if kind == "install"
]


def _environment() -> dict[str, str]:
    env = dict(os.environ)
    env["PATH"] = f"{Path(sys.executable).parent}{os.pathsep}{env.get('PATH', '')}"
    env["MPLBACKEND"] = "Agg"
    # A checkout's own src/ must win when the venv's editable install points elsewhere.
    env["PYTHONPATH"] = os.pathsep.join(
        p for p in (str(ROOT / "src"), env.get("PYTHONPATH", "")) if p
    )
    return env


def _run(script: str, where: str, cwd: Path) -> None:
    result = subprocess.run(
        ["bash", "-euo", "pipefail", "-c", script],
        cwd=cwd,
        env=_environment(),
        capture_output=True,
        text=True,
        timeout=BLOCK_TIMEOUT_S,
        check=False,
    )
    assert result.returncode == 0, (
        f"{where}: exit {result.returncode}\n--- stdout\n{result.stdout[-3000:]}"
        f"\n--- stderr\n{result.stderr[-3000:]}"
    )


@pytest.mark.parametrize("file", FILES)
def test_every_command_of_the_file_runs(file: str, tmp_path: Path) -> None:
    """The file's blocks, in order, in one folder holding a copy of the shipped examples."""
    assert Path.cwd() != tmp_path and tmp_path != ROOT
    _run("varroom examples --copy .", f"{file} (set-up)", tmp_path)
    for block in ALL_BLOCKS:
        if block.file == file and block.skip is None:
            _run(script_of(block), block.where, tmp_path)


@pytest.mark.parametrize(("where", "reason"), SKIPPED, ids=[w for w, _ in SKIPPED])
def test_marked_commands_are_listed(where: str, reason: str) -> None:
    pytest.skip(f"{where}: {reason}")


def test_the_extractor_finds_blocks_markers_and_special_lines(tmp_path: Path) -> None:
    page = tmp_path / "page.md"
    page.write_text(
        "text\n\n<!-- docs-test: skip: needs a database -->\n\n```sh\nmake test\n```\n"
        "```sh\npip install x\nvarroom serve --db y  # note\nvarroom check a \\\n  --json\n```\n"
        "```python\nprint(1)\n```\n",
        encoding="utf-8",
    )
    found = blocks_of(page)
    assert [(b.line, b.skip) for b in found] == [(5, "needs a database"), (8, None)]
    kinds = [kind for _, kind in commands_of(found[1])]
    assert kinds == ["install", "serve", None]
    script = script_of(found[1])
    assert "serve_check varroom serve --db y" in script
    assert "varroom check a    --json" in script


def test_docs_have_commands_and_every_file_is_covered() -> None:
    # A regression that loses the extraction (a renamed fence, a moved folder) must fail here.
    assert "README.md" in FILES
    assert any(f.startswith("docs/formats/") for f in FILES)
    running = [b for b in ALL_BLOCKS if b.skip is None]
    assert len(running) >= 5


def test_no_shell_command_hides_in_another_fence() -> None:
    # Only ```sh blocks are run: a ```bash, ```shell or ```console block would escape the test.
    hidden = [
        f"{path.relative_to(ROOT)}:{number}"
        for path in documents()
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if re.match(r"^```\s*(bash|shell|console|zsh)\b", line)
    ]
    assert hidden == []


def test_readme_opens_with_exactly_the_two_set_up_commands() -> None:
    first = blocks_of(ROOT / "README.md")[0]
    commands = [line.split("#")[0].strip() for line in first.text.splitlines()]
    assert commands == ["make demo", "make test"]
