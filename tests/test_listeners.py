"""Every socket the project opens listens on loopback unless asked otherwise: a local Dask
cluster with `audit-many` run against it (and the local process pool), and `varroom serve`.

The sockets are read from the operating system (psutil) while the processes run, for this
process and every process under it, so a listener on 0.0.0.0 or :: that a library opens by
itself (the installed `distributed` starts a dashboard despite `--no-dashboard`) is seen too.
"""

from __future__ import annotations

import ipaddress
import os
import secrets
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import httpx
import psutil
import pytest
from click.testing import CliRunner

from varroom.cli.main import cli

ROOT = Path(__file__).resolve().parents[1]
BIN = Path(sys.executable).parent
ENV = {**os.environ, "PYTHONPATH": str(ROOT / "src")}

Listener = tuple[str, str, int]  # (process, address, port)


def listeners() -> set[Listener]:
    """The listening TCP sockets and bound UDP sockets of this process and its descendants."""
    found: set[Listener] = set()
    me = psutil.Process()
    for process in [me, *me.children(recursive=True)]:
        try:
            name = " ".join(process.cmdline()[:3])
            connections = process.net_connections(kind="inet")
        except psutil.Error:  # it ended between the listing and the look
            continue
        for c in connections:
            tcp_listening = c.type == socket.SOCK_STREAM and c.status == psutil.CONN_LISTEN
            udp_bound = c.type == socket.SOCK_DGRAM and c.laddr and not c.raddr
            if tcp_listening or udp_bound:
                found.add((name, c.laddr.ip, c.laddr.port))
    return found


def beyond_loopback(found: set[Listener]) -> set[Listener]:
    return {f for f in found if not ipaddress.ip_address(f[1].split("%")[0]).is_loopback}


def watch(process: subprocess.Popen[bytes], timeout_s: float) -> set[Listener]:
    """Every listener seen, sampled every 50 ms, until `process` ends; fails if it fails."""
    seen: set[Listener] = set()
    deadline = time.monotonic() + timeout_s
    while process.poll() is None:
        assert time.monotonic() < deadline, "it did not finish in time"
        seen |= listeners()
        time.sleep(0.05)
    output = process.stdout.read().decode() if process.stdout else ""
    assert process.returncode == 0, output
    return seen


@pytest.fixture(scope="module")
def manifest(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("synthetic")
    args = ["synthetic", str(out), "--matches", "2", "--minutes", "10", "--seed", "3", "--quiet"]
    result = CliRunner().invoke(cli, args)
    assert result.exit_code == 0, result.output
    return out / "manifest.csv"


def audit_many(manifest: Path, out: Path, *options: str) -> subprocess.Popen[bytes]:
    command = [str(BIN / "varroom"), "audit-many", str(manifest), "--out", str(out), "--quiet"]
    return subprocess.Popen(
        [*command, *options], env=ENV, stdout=subprocess.PIPE, stderr=subprocess.STDOUT
    )


def test_a_local_dask_cluster_and_audit_many_on_it_listen_on_loopback_only(
    manifest: Path, tmp_path: Path
) -> None:
    pytest.importorskip("distributed")
    from varroom.season.local_cluster import local_cluster

    (tmp_path / "dask").mkdir()
    with local_cluster(tmp_path / "dask", workers=1, env=ENV) as address:
        seen = listeners()  # the scheduler, the worker, its nanny, their dashboards
        assert len(seen) >= 3, seen
        seen |= watch(audit_many(manifest, tmp_path / "out", "--scheduler", address), 180)
    assert not beyond_loopback(seen), seen


def test_audit_many_on_local_processes_opens_no_listener_beyond_loopback(
    manifest: Path, tmp_path: Path
) -> None:
    seen = watch(audit_many(manifest, tmp_path / "out", "--workers", "2"), 180)
    assert not beyond_loopback(seen), seen


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


@contextmanager
def serving(tmp_path: Path, *options: str, env: dict[str, str] = ENV) -> Iterator[int]:
    """`varroom serve` in a process of its own until the block ends; yields its port."""
    pytest.importorskip("uvicorn")
    port = free_port()
    command = [str(BIN / "varroom"), "serve", "--port", str(port), *options]
    server = subprocess.Popen(
        [*command, "--data-dir", str(tmp_path / "data")],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
    )
    try:
        deadline = time.monotonic() + 30
        while not any(p == port for _, _, p in listeners()):
            if server.poll() is not None or time.monotonic() > deadline:
                raise AssertionError(server.communicate()[0].decode())
            time.sleep(0.1)
        yield port
    finally:
        server.terminate()
        server.wait(timeout=10)


def test_the_review_room_listens_on_loopback_only(tmp_path: Path) -> None:
    with serving(tmp_path) as port:
        response = httpx.get(f"http://127.0.0.1:{port}/api/health", timeout=10)
        assert response.status_code == 200
        seen = listeners()
    assert ("127.0.0.1", port) in {(ip, p) for _, ip, p in seen}
    assert not beyond_loopback(seen), seen


def test_asked_to_listen_beyond_loopback_the_room_does_and_the_check_sees_it(
    tmp_path: Path,
) -> None:
    """The check above can fail: `--host 0.0.0.0` with a token is seen as 0.0.0.0."""
    env = {**ENV, "VARROOM_TOKEN": secrets.token_urlsafe()}  # for the second it listens
    with serving(tmp_path, "--host", "0.0.0.0", env=env) as port:
        seen = listeners()
    assert {(ip, p) for _, ip, p in beyond_loopback(seen)} == {("0.0.0.0", port)}
