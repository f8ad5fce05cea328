"""A real uvicorn server in a background thread, on a free loopback port (tests, benchmarks).

Not part of varroom: the review room's load test and browser tests use it.
"""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any


@contextmanager
def serve_in_thread(app: Any, host: str = "127.0.0.1", **config: Any) -> Iterator[str]:
    """Serve `app` on `host` at a free port until the block ends; yields the base URL."""
    import uvicorn

    sock = socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    sock.bind((host, 0))
    port = sock.getsockname()[1]
    options = {"log_level": "warning", "access_log": False, "lifespan": "on", **config}
    server = uvicorn.Server(uvicorn.Config(app, host=host, port=port, **options))
    thread = threading.Thread(
        target=server.run, kwargs={"sockets": [sock]}, name="varroom-uvicorn", daemon=True
    )
    thread.start()
    deadline = time.monotonic() + 20
    while not server.started:
        if not thread.is_alive() or time.monotonic() > deadline:
            raise RuntimeError("the review room server did not start")
        time.sleep(0.01)
    shown = f"[{host}]" if ":" in host else host
    try:
        yield f"http://{shown}:{port}"
    finally:
        server.should_exit = True
        thread.join(timeout=10)
        sock.close()
