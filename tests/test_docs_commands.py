"""Every shell command the README and docs/ write is run in CI, as a reader would run it.

Each file's ```sh blocks (tools/docs_blocks.py finds them) run in order in one fresh
temporary folder (not the checkout), with the venv's bin first on PATH, after
`varroom examples --copy .`: the docs say their commands run from the checkout's root or from
a folder the examples were copied to, and this checks the second. A block fails the test on a
non-zero exit, and when it leaves a process running (a block stops what it starts).

What is not run here is run elsewhere in CI, and checked to be:
- a block preceded by `<!-- docs-test: ci -->` (make demo, make test, ...: they work on the
  checkout itself, from its root) is run by .ci/run: each of its commands must be a command
  line of .ci/run;
- a `pip install` line would change the venv the tests run in: make dist runs every one
  (tools/dist-check.sh, in the fresh venv it installs the wheel into);
no other marker is allowed.

Run here, but not exactly as written:
- a `varroom serve` in the foreground runs with a free loopback port appended until
  `/api/health` answers, then is stopped (tools/serve_check.py: a server never returns);
- the fixed loopback ports a block names (`--port N`, `127.0.0.1:N`) are each replaced by a
  free port, the same one wherever the block names it: a room or a feed the developer has
  running on them is left alone;
- a `--host` beyond loopback (`--host 0.0.0.0`, `--host ::`, a room reachable from other
  machines) becomes `--host 127.0.0.1`: a test listens on loopback only, and the room's rule
  that beyond loopback a token is needed is tested in tests/test_serve_cli.py;
- a block that names PostgreSQL runs with libpq's PGHOST, PGPORT and PGUSER set to a
  throwaway cluster (tests/postgres_cluster.py) that holds an empty database `varroom`.
"""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import tempfile
import time
import tomllib
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from machine import Need
from postgres_cluster import Cluster, throwaway_cluster

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tools"))

from docs_blocks import (  # noqa: E402
    Block,
    Command,
    Kind,
    all_blocks,
    blocks_of,
    documents,
    pip_installs,
)
from serve_check import free_port  # noqa: E402

BLOCK_TIMEOUT_S = 180
STOP_WAIT_S = 10  # for what a block stopped on its way out (a server closing) to be gone
CI_RUN = ROOT / ".ci" / "run"
DIST_CHECK = ROOT / "tools" / "dist-check.sh"
PORT = re.compile(r"(?P<before>--port[ =]|127\.0\.0\.1:|localhost:)(?P<port>\d+)\b")
ANY_HOST = re.compile(r"--host[ =](?:0\.0\.0\.0|::|\[::\])(?=\s|$)")

# `serve_check COMMAND...`: the review room on a free port, checked, then stopped.
PRELUDE = f'serve_check() {{ python "{ROOT / "tools" / "serve_check.py"}" "$@"; }}\n'

ALL_BLOCKS = all_blocks()
RUN_HERE = [block for block in ALL_BLOCKS if block.marker is None]
FILES = sorted({block.file for block in RUN_HERE})
CI_COMMANDS = [
    (f"{block.file}:{command.line} {' '.join(command.words)}", command)
    for block in ALL_BLOCKS
    if block.marker == "ci"
    for command in block.commands
    if command.words
]
INSTALLS = pip_installs()
INSTALL_IDS = [f"{where} {' '.join(command.words)}" for where, command in INSTALLS]


def script_of(block: Block, port_for: Callable[[], int] = free_port) -> str:
    lines = []
    for command in block.commands:
        if command.kind is Kind.INSTALL:
            lines.append(": # run by make dist: " + command.text.strip())
        elif command.kind is Kind.SERVE:
            # After any variable assignments, which then hold for the server.
            words = command.text.strip()
            at = words.index("varroom serve")
            lines.append(f"{words[:at]}serve_check {words[at:]}")
        else:
            lines.append(command.text)
    ports: dict[str, int] = {}

    def free(match: re.Match[str]) -> str:
        port = ports.setdefault(match["port"], port_for())
        return f"{match['before']}{port}"

    script = ANY_HOST.sub("--host 127.0.0.1", "\n".join(lines))
    return PRELUDE + PORT.sub(free, script) + "\n"


def _environment(extra: dict[str, str]) -> dict[str, str]:
    env = dict(os.environ)
    env["PATH"] = f"{Path(sys.executable).parent}{os.pathsep}{env.get('PATH', '')}"
    env["MPLBACKEND"] = "Agg"
    # A checkout's own src/ must win when the venv's editable install points elsewhere.
    env["PYTHONPATH"] = os.pathsep.join(
        p for p in (str(ROOT / "src"), env.get("PYTHONPATH", "")) if p
    )
    return env | extra


def _group_alive(group: int) -> bool:
    try:
        os.killpg(group, 0)
    except ProcessLookupError:
        return False
    return True


def _run(
    script: str, where: str, cwd: Path, extra: dict[str, str], stop_wait_s: float = STOP_WAIT_S
) -> None:
    """Run the script in a process group of its own, its output in files: a background
    process it leaves cannot hold a pipe open, and is found and killed."""
    with tempfile.TemporaryFile("w+") as out, tempfile.TemporaryFile("w+") as err:
        shell = subprocess.Popen(
            ["bash", "-euo", "pipefail", "-c", script],
            cwd=cwd,
            env=_environment(extra),
            stdout=out,
            stderr=err,
            text=True,
            start_new_session=True,
        )
        try:
            code: int | str = shell.wait(timeout=BLOCK_TIMEOUT_S)
        except subprocess.TimeoutExpired:
            code = f"none: still running after {BLOCK_TIMEOUT_S} s"
        deadline = time.monotonic() + stop_wait_s
        while _group_alive(shell.pid) and time.monotonic() < deadline:
            time.sleep(0.1)
        left = _group_alive(shell.pid)
        if left:
            os.killpg(shell.pid, signal.SIGKILL)
        shell.wait()
        out.seek(0)
        err.seek(0)
        output = f"\n--- stdout\n{out.read()[-3000:]}\n--- stderr\n{err.read()[-3000:]}"
    assert code == 0, f"{where}: exit {code}{output}"
    assert not left, f"{where}: left a process running (killed){output}"


# What a block's commands use of the machine beyond Python, by the word that names it.
NEEDS_BY_WORD = {"chromium": Need.CHROMIUM, "curl": Need.CURL, "postgresql": Need.POSTGRESQL}


def needs_of(blocks: list[Block]) -> list[Need]:
    """What the blocks need of the machine: a file that runs Chromium is skipped where there is
    none (failed in CI), not failed with `command not found`."""
    words = {word for block in blocks for word in re.findall(r"[a-z]+", block.text)}
    return [need for word, need in NEEDS_BY_WORD.items() if word in words]


@pytest.fixture(scope="module")
def postgres() -> Iterator[Cluster]:
    """One throwaway cluster for the module, with the database the docs name."""
    with throwaway_cluster() as cluster:
        cluster.create_database("varroom")
        yield cluster


def _blocks_of(file: str) -> list[Block]:
    return [block for block in RUN_HERE if block.file == file]


@pytest.mark.parametrize(
    "file",
    [
        pytest.param(
            file, marks=[pytest.mark.needs(*needs)] if (needs := needs_of(_blocks_of(file))) else []
        )
        for file in FILES
    ],
)
def test_every_command_of_the_file_runs(
    file: str, tmp_path: Path, request: pytest.FixtureRequest
) -> None:
    """The file's blocks, in order, in one folder holding a copy of the shipped examples."""
    assert Path.cwd() != tmp_path and tmp_path != ROOT
    blocks = _blocks_of(file)
    extra: dict[str, str] = {}
    if Need.POSTGRESQL in needs_of(blocks):
        extra = request.getfixturevalue("postgres").environment()
    _run("varroom examples --copy .", f"{file} (set-up)", tmp_path, extra)
    for block in blocks:
        _run(script_of(block), block.where, tmp_path, extra)


def _ci_run_commands() -> set[tuple[str, ...]]:
    """Each command line of .ci/run, less the make variables it sets (`make test
    PYTEST_ARGS=...` runs the README's `make test` on a selection)."""
    return {
        tuple(word for word in words if not MAKE_VARIABLE.fullmatch(word))
        for line in CI_RUN.read_text(encoding="utf-8").splitlines()
        if (words := Command(0, line, Kind.RUN).words)
    }


MAKE_VARIABLE = re.compile(r"[A-Z][A-Z0-9_]*=.*", re.DOTALL)


@pytest.mark.parametrize("command", [c for _, c in CI_COMMANDS], ids=[w for w, _ in CI_COMMANDS])
def test_ci_runs_the_command_from_the_checkout(command: Command) -> None:
    assert command.words in _ci_run_commands(), f"{' '.join(command.words)} is not in .ci/run"


@pytest.fixture(scope="module")
def dist_check_lines() -> list[str]:
    """What make dist's check runs: the pip install lines as tools/docs_blocks.py prints them."""
    script = [line.strip() for line in DIST_CHECK.read_text(encoding="utf-8").splitlines()]
    assert 'installs=$("$python" "$tools/docs_blocks.py" pip-installs)' in script
    assert 'eval "$command"' in script and 'done <<< "$installs"' in script
    printed = subprocess.run(
        [sys.executable, str(ROOT / "tools" / "docs_blocks.py"), "pip-installs"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    return printed.splitlines()


@pytest.mark.parametrize("command", [c for _, c in INSTALLS], ids=INSTALL_IDS)
def test_make_dist_runs_the_pip_install(command: Command, dist_check_lines: list[str]) -> None:
    assert any(line.endswith(f"\t{command.text.strip()}") for line in dist_check_lines)


def test_no_docs_command_is_left_unrun() -> None:
    # Every block is run here or by .ci/run; a marker that says anything else hides a block.
    assert {block.marker for block in ALL_BLOCKS} <= {None, "ci"}
    assert len(CI_COMMANDS) >= 8 and len(INSTALLS) >= 3


def test_the_wheel_the_docs_install_is_the_version_make_dist_builds() -> None:
    version = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["version"]
    named = [
        (where, found)
        for where, command in INSTALLS
        for found in re.findall(r"varroom-([^-/\s]+)-py3-none-any\.whl", command.text)
    ]
    assert named, "getting-started installs the wheel by its file name"
    assert [(where, found) for where, found in named if found != version] == []


def test_the_extractor_finds_blocks_markers_and_special_lines(tmp_path: Path) -> None:
    page = tmp_path / "page.md"
    page.write_text(
        "text\n\n<!-- docs-test: ci -->\n\n```sh\nmake test   # all\n```\n"
        "```sh\npip install x\nA=1 varroom serve --db y  # note\nvarroom check a \\\n  --json\n"
        "varroom serve --port 8000 &\nvarroom live --room http://127.0.0.1:8000\n"
        "varroom serve --host 0.0.0.0 --db z\n```\n"
        "```python\nprint(1)\n```\n",
        encoding="utf-8",
    )
    found = blocks_of(page, tmp_path)
    assert [(b.line, b.marker) for b in found] == [(5, "ci"), (8, None)]
    assert [c.words for c in found[0].commands] == [("make", "test")]
    commands = found[1].commands
    assert [(c.line, c.kind) for c in commands] == [
        (9, Kind.INSTALL),
        (10, Kind.SERVE),
        (11, Kind.RUN),
        (13, Kind.RUN),
        (14, Kind.RUN),
        (15, Kind.SERVE),
    ]
    script = script_of(found[1], port_for=lambda: 5555)
    assert "A=1 serve_check varroom serve --db y" in script
    assert "varroom check a    --json" in script
    assert ": # run by make dist: pip install x" in script
    assert "varroom serve --port 5555 &\nvarroom live --room http://127.0.0.1:5555" in script
    assert "serve_check varroom serve --host 127.0.0.1 --db z" in script


def test_a_block_that_leaves_a_process_running_fails(tmp_path: Path) -> None:
    with pytest.raises(AssertionError, match="left a process running"):
        _run("sleep 600 &", "page.md:1", tmp_path, {}, stop_wait_s=0.5)


def test_docs_have_commands_and_every_file_is_covered() -> None:
    # A regression that loses the extraction (a renamed fence, a moved folder) must fail here.
    assert "README.md" in FILES
    assert any(f.startswith("docs/formats/") for f in FILES)
    assert len(RUN_HERE) >= 5


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
    assert [command.words for command in first.commands] == [("make", "demo"), ("make", "test")]
