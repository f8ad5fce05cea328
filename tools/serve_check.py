"""Start the review room, check that it answers, stop it: for commands that never return.

Usage: python tools/serve_check.py [--page] COMMAND... (e.g. `varroom serve --data-dir d`)

COMMAND runs with `--port P` appended, P a free loopback port, its output in serve.log in the
current folder. Exit 0 once `/api/health` answers (and, with --page, `/` is an HTML page);
1 with the server's log when it does not within 60 s, or answers with an error. The health
check brings the room's token when it has one (COMMAND's `--token`, or VARROOM_TOKEN, as the
server reads it). The server is stopped either way.
Used by `make dist` (tools/dist-check.sh) and by the docs' command test.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

WAIT_S = 60.0


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def token_of(command: list[str]) -> str | None:
    """The token the server is started with: its last `--token`, else VARROOM_TOKEN."""
    given = [b for a, b in zip(command, command[1:], strict=False) if a == "--token"]
    given += [word.removeprefix("--token=") for word in command if word.startswith("--token=")]
    return given[-1] if given else os.environ.get("VARROOM_TOKEN") or None


def check(command: list[str], page: bool) -> str | None:
    """None when the server answered, else why not."""
    token = token_of(command)
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    health_url = base + "/api/health"
    health_request = urllib.request.Request(
        health_url, headers={"Authorization": f"Bearer {token}"} if token else {}
    )
    log = Path("serve.log")
    with log.open("wb") as out:
        server = subprocess.Popen([*command, "--port", str(port)], stdout=out, stderr=out)
    try:
        deadline = time.monotonic() + WAIT_S
        while True:
            if server.poll() is not None:
                return f"the server exited with {server.returncode}:\n{log.read_text()}"
            try:
                health = urllib.request.urlopen(health_request, timeout=2).read().decode()
                break
            except urllib.error.HTTPError as error:
                return f"{health_url} answered {error.code}:\n{log.read_text()}"
            except OSError:
                if time.monotonic() > deadline:
                    return f"no answer from {health_url} in {WAIT_S:.0f} s:\n{log.read_text()}"
                time.sleep(0.3)
        print(f"{health_url}: {health}")
        if page:
            html = urllib.request.urlopen(base + "/", timeout=5).read().decode()
            if "<html" not in html.lower():
                return f"{base}/ is not an HTML page: {html[:200]!r}"
            print(f"{base}/: an HTML page of {len(html)} characters")
        return None
    finally:
        server.terminate()
        try:
            server.wait(timeout=15)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()


def main(argv: list[str]) -> int:
    page = bool(argv) and argv[0] == "--page"
    command = argv[1:] if page else argv
    if not command:
        print(__doc__, file=sys.stderr)
        return 2
    problem = check(command, page)
    if problem is not None:
        print(f"serve_check: {problem}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
