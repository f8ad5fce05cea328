"""`varroom serve`: the review room served with uvicorn, on 127.0.0.1 unless given a token."""

from __future__ import annotations

import ipaddress
import os
import sys

from varroom.errors import VarroomError
from varroom.serve.config import DEFAULT_DATA_DIR


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
) -> None:
    """Serve the review room until interrupted.

    Any host but a loopback one needs a token (`token`, else the VARROOM_TOKEN environment
    variable): without one this raises VarroomError and serves nothing.
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
    app = create_app(db_url, token, data_dir, prewarm_render=True)
    shown = f"[{host}]" if ":" in host else host
    print(
        f"varroom review room: http://{shown}:{port}/"
        + ("  (the page asks for the token)" if token else "")
    )
    uvicorn.run(
        app, host=host, port=port, log_level="warning", server_header=False, proxy_headers=False
    )
