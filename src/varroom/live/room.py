"""Alerts into a running review room: each alert's situation is queued there as an incident,
through the room's situation upload (`POST /api/situations`, the bearer token when the room
has one). The room judges it and draws its picture as for any upload."""

from __future__ import annotations

import json
import urllib.error
import urllib.parse
import urllib.request
from typing import Any

TIMEOUT_S = 5.0


class RoomError(Exception):
    """The room did not take an alert: why, in one line."""


def post_situation(
    room_url: str, situation: dict[str, Any], token: str | None = None, profile: str | None = None
) -> int:
    """Queue a situation (or a penalty-kick file) in the room at `room_url`, judged there under
    the `profile` named (one the room knows: a built-in, or the room's own); its id there."""
    query = {"filename": "live-alert.json"} | ({"profile": profile} if profile else {})
    url = room_url.rstrip("/") + "/api/situations?" + urllib.parse.urlencode(query)
    headers = {"content-type": "application/json"}
    if token:
        headers["authorization"] = f"Bearer {token}"
    body = json.dumps(situation, ensure_ascii=False, allow_nan=False).encode("utf-8")
    request = urllib.request.Request(url, data=body, headers=headers, method="POST")
    try:
        with urllib.request.urlopen(request, timeout=TIMEOUT_S) as response:
            answer = json.loads(response.read().decode("utf-8"))
    except urllib.error.HTTPError as error:
        detail = error.read().decode("utf-8", "replace")[:200]
        raise RoomError(f"{url}: HTTP {error.code} {detail}") from None
    except (urllib.error.URLError, OSError, ValueError) as error:
        reason = getattr(error, "reason", error)
        raise RoomError(f"{url}: {reason}") from None
    return int(answer["id"])
