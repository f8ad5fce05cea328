"""The shell commands the README and docs/ write: their ```sh blocks, the docs-test marker
above each, and each block's commands (continuation lines joined).

Shared by the docs' command test (tests/test_docs_commands.py), which runs the blocks, and by
make dist (tools/dist-check.sh), which runs the `pip install` lines in the fresh venv it
makes: `python tools/docs_blocks.py pip-installs` prints them, one `FILE:LINE<TAB>COMMAND`
a line. Standard library only: dist-check runs it with the Python it makes that venv from.

A block preceded by `<!-- docs-test: ci -->` is run by .ci/run from the checkout's root (the
test checks that .ci/run has each of its commands), not by the docs test.
"""

from __future__ import annotations

import re
import shlex
import sys
from dataclasses import dataclass
from enum import Enum
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
MARKER = re.compile(r"<!--\s*docs-test:\s*(?P<marker>.*?)\s*-->")
FENCE = re.compile(r"^```sh\s*$")
# `varroom serve`, after any variable assignments (`VARROOM_TOKEN=... varroom serve`).
SERVE = re.compile(r"^\s*(?:\w+=\S*\s+)*varroom serve\b")


class Kind(Enum):
    """How the docs test treats a command."""

    RUN = "run"  # as written
    INSTALL = "install"  # not here: it would change the tests' venv; make dist runs it
    SERVE = "serve"  # a server in the foreground: started, checked and stopped


@dataclass(frozen=True, slots=True)
class Command:
    """One command: its first line in the file, its text (continuations joined), its kind."""

    line: int
    text: str
    kind: Kind

    @property
    def words(self) -> tuple[str, ...]:
        """The command as the shell splits it, without its comment."""
        return tuple(shlex.split(self.text, comments=True))


@dataclass(frozen=True, slots=True)
class Block:
    """One ```sh block: its file, the line of its fence, its text, the marker above it."""

    file: str
    line: int
    text: str
    marker: str | None

    @property
    def where(self) -> str:
        return f"{self.file}:{self.line}"

    @property
    def commands(self) -> tuple[Command, ...]:
        out: list[Command] = []
        pending: list[str] = []
        for number, line in enumerate(self.text.splitlines(), self.line + 1):
            pending.append(line.removesuffix("\\"))
            if line.endswith("\\"):
                continue
            text = " ".join(pending)
            out.append(Command(number - len(pending) + 1, text, _kind(text)))
            pending = []
        return tuple(out)


def _kind(text: str) -> Kind:
    words = shlex.split(text, comments=True)
    if words[:2] == ["pip", "install"]:
        return Kind.INSTALL
    if SERVE.match(text) and words[-1:] != ["&"]:
        return Kind.SERVE
    return Kind.RUN


def documents(root: Path = ROOT) -> list[Path]:
    return [root / "README.md", *sorted((root / "docs").rglob("*.md"))]


def blocks_of(path: Path, root: Path = ROOT) -> list[Block]:
    """The ```sh blocks of a Markdown file, each with the docs-test marker just above it."""
    lines = path.read_text(encoding="utf-8").splitlines()
    name = str(path.relative_to(root)) if path.is_relative_to(root) else path.name
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
                Block(name, start + 1, "\n".join(body), marker["marker"] if marker else None)
            )
        i += 1
    return found


def all_blocks(root: Path = ROOT) -> list[Block]:
    return [block for path in documents(root) for block in blocks_of(path, root)]


def pip_installs(root: Path = ROOT) -> list[tuple[str, Command]]:
    """Every `pip install` line the docs ask a reader to run, with where it is."""
    return [
        (f"{block.file}:{command.line}", command)
        for block in all_blocks(root)
        if block.marker is None
        for command in block.commands
        if command.kind is Kind.INSTALL
    ]


def main(argv: list[str]) -> int:
    if argv != ["pip-installs"]:
        print("usage: python tools/docs_blocks.py pip-installs", file=sys.stderr)
        return 2
    for where, command in pip_installs():
        print(f"{where}\t{command.text.strip()}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
