"""`varroom serve` on the command line (skipped until the command is wired into the CLI)."""

from __future__ import annotations

import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest

from varroom.cli.main import cli


def test_serving_beyond_loopback_without_a_token_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("VARROOM_TOKEN", raising=False)
    from click.testing import CliRunner

    result = CliRunner().invoke(
        cli, ["serve", "--host", "0.0.0.0", "--data-dir", str(tmp_path / "d")]
    )
    assert result.exit_code == 1
    assert "token" in result.output
    assert "Traceback" not in result.output
    assert not (tmp_path / "d").exists()


def serve_command(port: int, data: Path) -> list[str]:
    """`varroom serve` in a process of its own (with this interpreter and PYTHONPATH)."""
    cli_main = "from varroom.cli import main; main()"
    return [sys.executable, "-c", cli_main, "serve", "--port", str(port), "--data-dir", str(data)]


def test_serve_answers_on_loopback(tmp_path: Path) -> None:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    command = serve_command(port, tmp_path / "data")
    server = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                response = httpx.get(f"http://127.0.0.1:{port}/api/health", timeout=2)
                break
            except httpx.TransportError:
                if server.poll() is not None or time.monotonic() > deadline:
                    raise AssertionError(server.communicate()[0].decode()) from None
                time.sleep(0.1)
        assert response.status_code == 200
        assert httpx.get(f"http://127.0.0.1:{port}/").status_code == 200
        assert (tmp_path / "data" / "varroom.db").is_file()
    finally:
        server.terminate()
        server.wait(timeout=10)


def test_a_busy_port_is_one_line_and_exit_2(tmp_path: Path) -> None:
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        result = subprocess.run(
            serve_command(port, tmp_path / "data"),
            capture_output=True,
            text=True,
            timeout=60,
        )
    assert result.returncode == 2
    assert result.stdout == ""  # the room's URL is not printed for a room that cannot open
    assert result.stderr.strip().splitlines() == [
        f"varroom: port {port} on 127.0.0.1 is in use: stop what serves there, or give --port"
    ]
    assert not (tmp_path / "data").exists()


def test_a_token_on_the_command_line_is_warned_about(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from click.testing import CliRunner

    token = "a-long-enough-token-0123456789"
    with socket.socket() as busy:  # so that the command stops after the warning
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = str(busy.getsockname()[1])
        data = str(tmp_path / "d")
        given = CliRunner().invoke(
            cli, ["serve", "--port", port, "--token", token, "--data-dir", data]
        )
        monkeypatch.setenv("VARROOM_TOKEN", token)
        from_env = CliRunner().invoke(cli, ["serve", "--port", port, "--data-dir", data])
    assert "process list" in given.stderr and "VARROOM_TOKEN" in given.stderr
    assert "process list" not in from_env.stderr
    assert given.exit_code == from_env.exit_code == 2  # the busy port
