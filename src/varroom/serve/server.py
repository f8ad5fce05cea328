"""`varroom serve`: the review room served with uvicorn, on 127.0.0.1 unless given a token."""

from __future__ import annotations

import errno
import ipaddress
import os
import socket
import sys
from typing import TYPE_CHECKING

from varroom.errors import VarroomError
from varroom.serve.config import DEFAULT_DATA_DIR, VERIFY_EVERY_S

if TYPE_CHECKING:
    from varroom.profiles import Profile


class PortInUse(VarroomError):
    """Another program listens on the port: a usage error, as a busy port is on the CLI."""

    exit_code = 2


def is_loopback(host: str) -> bool:
    host = host.strip("[]")
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def run_server(
    host: str = "127.0.0.1",
    port: int = 8000,
    db_url: str | None = None,
    token: str | None = None,
    data_dir: str | os.PathLike[str] = DEFAULT_DATA_DIR,
    profile: Profile | None = None,
    log_key: str | os.PathLike[str] | None = None,
    checkpoints: str | os.PathLike[str] | None = None,
    verify_every_s: float = VERIFY_EVERY_S,
) -> None:
    """Serve the review room until interrupted, judging under `profile` (the room's
    default; `ifab` unless given); the log's key, checkpoints and checks as `create_app`
    takes them.

    Any host but a loopback one needs a token (`token`, else the VARROOM_TOKEN environment
    variable): without one this raises VarroomError and serves nothing. The port is taken
    before anything else is made: a busy one is `PortInUse`, before the URL is printed.
    """
    import uvicorn

    from varroom.serve.app import create_app

    token = token or os.environ.get("VARROOM_TOKEN") or None
    if not is_loopback(host) and not token:
        raise VarroomError(
            f"serving on {host} opens the review room to the network: give a token "
            "(--token or VARROOM_TOKEN), or serve on 127.0.0.1"
        )
    if token is not None and len(token) < 16:
        print("varroom: warning: a token under 16 characters is easy to guess", file=sys.stderr)
    sock = listen(host, port)
    try:
        app = create_app(
            db_url,
            token,
            data_dir,
            prewarm_render=True,
            profile=profile,
            log_key=log_key,
            checkpoints=checkpoints,
            verify_every_s=verify_every_s,
        )
        shown = f"[{host}]" if ":" in host else host
        print(
            f"varroom review room: http://{shown}:{port}/"
            + ("  (the page asks for the token)" if token else "")
        )
        config = uvicorn.Config(app, log_level="warning", server_header=False, proxy_headers=False)
        uvicorn.Server(config).run(sockets=[sock])
    finally:
        sock.close()


def listen(host: str, port: int) -> socket.socket:
    """A socket bound to (host, port) for uvicorn; PortInUse when another program has it."""
    family = socket.AF_INET6 if ":" in host.strip("[]") else socket.AF_INET
    try:
        return socket.create_server((host.strip("[]"), port), family=family)
    except OSError as error:
        if error.errno == errno.EADDRINUSE:
            raise PortInUse(
                f"port {port} on {host} is in use: stop what serves there, or give --port"
            ) from None
        raise VarroomError(f"cannot listen on {host}:{port}: {error.strerror}") from None
