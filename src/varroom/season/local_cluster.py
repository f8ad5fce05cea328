"""A Dask cluster of separate local processes (`dask scheduler`, `dask worker`) on loopback:
what the tests and the benchmark run `audit-many --scheduler` against, and a way to try it
on one machine. A real deployment starts the same commands on its own machines.

Every socket it opens listens on 127.0.0.1 only: the scheduler, each worker and its nanny,
and their dashboards. The installed `distributed` starts a dashboard despite `--no-dashboard`
(the scheduler's on 0.0.0.0:8787, each worker's on 0.0.0.0 at a random port), so each
dashboard is given a loopback address of its own as well."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path

_BIN = Path(sys.executable).parent


@contextmanager
def local_cluster(
    folder: Path, workers: int = 2, env: Mapping[str, str] | None = None, timeout_s: float = 90.0
) -> Iterator[str]:
    """Start a scheduler and `workers` single-threaded worker processes, wait until every
    worker has joined, yield the scheduler's address; kill them all on the way out,
    whatever happens."""
    address_file = folder / "scheduler.json"
    address_file.unlink(missing_ok=True)
    loopback = "127.0.0.1"
    loopback_only = ["--no-dashboard", "--dashboard-address", f"{loopback}:0"]
    processes: list[subprocess.Popen[bytes]] = []

    def start(*args: str) -> None:
        processes.append(
            subprocess.Popen(
                [str(_BIN / "dask"), *args, *loopback_only],
                env=dict(env or os.environ),
                cwd=folder,
                start_new_session=True,  # its own process group: killed with its children
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
            )
        )

    try:
        start("scheduler", "--host", loopback, "--port", "0", "--scheduler-file", str(address_file))
        deadline = time.monotonic() + timeout_s
        while not address_file.exists():
            if time.monotonic() > deadline or processes[0].poll() is not None:
                raise TimeoutError("the Dask scheduler did not start")
            time.sleep(0.1)
        for _ in range(workers):
            start(
                "worker",
                "--scheduler-file",
                str(address_file),
                "--nthreads",
                "1",
                "--host",
                loopback,
            )
        address = str(json.loads(address_file.read_text())["address"])
        from distributed import Client

        with Client(address, timeout=f"{timeout_s}s") as client:  # type: ignore[no-untyped-call]
            client.wait_for_workers(workers, timeout=timeout_s)
        yield address
    finally:
        for process in reversed(processes):
            if process.poll() is None:
                os.killpg(process.pid, signal.SIGKILL)
            process.wait()
