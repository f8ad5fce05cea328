"""Review-room test support: waiting for an audit the room runs in its own thread."""

from __future__ import annotations

import time
from typing import Any

from fastapi.testclient import TestClient


def wait_for(client: TestClient, audit_id: str) -> dict[str, Any]:
    """The audit's state once it is neither queued nor running (20 s at most)."""
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        audit: dict[str, Any] = client.get(f"/api/audits/{audit_id}").json()
        if audit["state"] not in ("queued", "running"):
            return audit
        time.sleep(0.02)
    raise AssertionError("the audit did not finish")
