"""The review room killed with SIGKILL while reviewers record decisions (tests, benchmarks).

`kill_midway(data_dir, db_url)` serves the room in a process of its own (`varroom serve`),
has reviewers record decisions at once, kills the server with `kill -9` once a share of
them is acknowledged, serves it again and reads the log back: every acknowledged decision
must be there exactly once, and the hash chain must verify. Not part of varroom.
"""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

KANE = Path(__file__).resolve().parent.parent / "examples" / "tottenham-sporting-2022-kane.json"


@contextmanager
def served(data_dir: Path, db_url: str | None) -> Iterator[tuple[str, subprocess.Popen[bytes]]]:
    """`varroom serve` on a free loopback port; yields (base URL, process)."""
    import httpx

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    command = [sys.executable, "-c", "from varroom.cli import main; main()", "serve"]
    command += ["--port", str(port), "--data-dir", str(data_dir)]
    command += ["--db", db_url] if db_url else []
    server = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                httpx.get(f"{url}/api/health", timeout=2).raise_for_status()
                break
            except httpx.TransportError:
                if server.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError("the review room did not start") from None
                time.sleep(0.1)
        yield url, server
    finally:
        if server.poll() is None:
            server.terminate()
        server.wait(timeout=30)


def kill_midway(
    data_dir: Path,
    db_url: str | None = None,
    reviewers: int = 8,
    decisions: int = 60,
    kill_after: int = 150,
) -> dict[str, Any]:
    import httpx

    from varroom.serve.verify import verify_log

    acknowledged: set[tuple[str, str]] = set()
    lock = threading.Lock()
    with served(data_dir, db_url) as (url, server):
        sid = httpx.post(f"{url}/api/situations", json=json.loads(KANE.read_text())).json()["id"]
        killed = threading.Event()

        def reviewer(r: int) -> None:
            name = f"reviewer-{r:02d}"
            with httpx.Client(base_url=url, timeout=30) as client:
                for seq in range(decisions):
                    body = {
                        "reviewer": name,
                        "decision": "offside",
                        "duration_s": seq,
                        "client_ref": str(seq),
                    }
                    try:
                        answer = client.post(f"/api/situations/{sid}/decisions", json=body)
                    except httpx.TransportError:
                        return  # the server is gone: this one was not acknowledged
                    if answer.status_code in (200, 201):
                        with lock:
                            acknowledged.add((name, str(seq)))
                            if len(acknowledged) >= kill_after and not killed.is_set():
                                killed.set()
                                os.kill(server.pid, signal.SIGKILL)

        threads = [threading.Thread(target=reviewer, args=(r,)) for r in range(reviewers)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    with served(data_dir, db_url) as (url, _server):
        log = httpx.get(f"{url}/api/decisions.json").json()
    names = {f"reviewer-{r:02d}" for r in range(reviewers)}
    seen: dict[tuple[str, str], int] = {}
    for entry in log:  # this run's entries: the database may hold others' (a shared server)
        if entry["reviewer"] in names:
            key = (entry["reviewer"], entry["client_ref"])
            seen[key] = seen.get(key, 0) + 1
    try:
        chain = verify_log(db_url, data_dir)
    except Exception as error:  # the report says why
        chain = str(error)
    return {
        "killed": killed.is_set(),
        "acknowledged": len(acknowledged),
        "logged": sum(seen.values()),
        "lost": len(acknowledged - seen.keys()),
        "doubled": sum(n - 1 for n in seen.values() if n > 1),
        "chain": chain,
    }
