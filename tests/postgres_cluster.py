"""A throwaway PostgreSQL cluster on loopback, for the tests that need a real server (Debian's
postgresql; .ci/run installs it where it is missing). A test that uses it is marked
`needs(Need.POSTGRESQL)`, which skips it where the server is missing (tests/machine.py)."""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from machine import postgresql_bin

USER = "varroom"  # the cluster's superuser, trusted without a password on loopback


@dataclass(frozen=True, slots=True)
class Cluster:
    host: str
    port: int
    bin_dir: Path  # the server's programs

    def url(self, database: str = "postgres") -> str:
        return f"postgresql://{USER}@{self.host}:{self.port}/{database}"

    def environment(self) -> dict[str, str]:
        """libpq's defaults for this cluster: a URL without host, port or user uses them."""
        return {"PGHOST": self.host, "PGPORT": str(self.port), "PGUSER": USER}

    def create_database(self, name: str) -> None:
        subprocess.run(
            [
                str(self.bin_dir / "createdb"),
                "-h",
                self.host,
                "-p",
                str(self.port),
                "-U",
                USER,
                name,
            ],
            check=True,
            capture_output=True,
        )


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def _as_postgres(*command: str) -> list[str]:
    # PostgreSQL refuses to run as root; CI and these machines run tests as root.
    if os.geteuid() == 0:
        return ["runuser", "-u", "postgres", "--", *command]
    return list(command)


@contextmanager
def throwaway_cluster() -> Iterator[Cluster]:
    """A new cluster on a free loopback port, stopped and deleted on the way out."""
    bin_dir = postgresql_bin()
    assert bin_dir is not None, "a test that starts a cluster is marked needs(Need.POSTGRESQL)"
    # Not pytest's tmp_path: its parents are private to root, and the server runs as postgres.
    root = Path(tempfile.mkdtemp(prefix="varroom-pg-"))
    data = root / "data"
    if os.geteuid() == 0:
        shutil.chown(root, "postgres")
    subprocess.run(
        _as_postgres(str(bin_dir / "initdb"), "-D", str(data), "-U", USER, "--auth=trust"),
        check=True,
        capture_output=True,
    )
    cluster = Cluster("127.0.0.1", _free_port(), bin_dir)
    options = f"-h {cluster.host} -p {cluster.port} -k {root}"
    subprocess.run(
        _as_postgres(
            str(bin_dir / "pg_ctl"),
            "-D",
            str(data),
            "-o",
            options,
            "-w",
            "start",
            "-l",
            str(root / "log"),
        ),
        check=True,
        capture_output=True,
    )
    try:
        yield cluster
    finally:
        subprocess.run(
            _as_postgres(str(bin_dir / "pg_ctl"), "-D", str(data), "-m", "immediate", "stop"),
            capture_output=True,
        )
        shutil.rmtree(root, ignore_errors=True)
