"""`GET /api/events` over a real server: the stream a page reads (with fetch, so that a room
with a token is told at once too) says `queue` the moment a situation is queued."""

from __future__ import annotations

import time
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from serve_in_thread import serve_in_thread

from varroom.serve import create_app

ROOT = Path(__file__).resolve().parent.parent
KANE = ROOT / "examples" / "tottenham-sporting-2022-kane.json"
TOKEN = "events-token-0123456789abcdef"
BEARER = {"authorization": f"Bearer {TOKEN}"}
EVENT_S = 1.0  # the stream looks at the queue every 0.05 s: 1 s is the slowest machine's margin


def _app(token: str | None, data: Path) -> Any:
    pytest.importorskip("uvicorn")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return create_app(None, token, data)


@pytest.fixture
def room(tmp_path: Path) -> Iterator[str]:
    """A room with a token, served in a thread."""
    with serve_in_thread(_app(TOKEN, tmp_path / "data")) as url:
        yield url


def _queue_event_after_upload(url: str, headers: dict[str, str]) -> float:
    """Seconds from an upload's answer to the stream's `queue` event."""
    with (
        httpx.Client(base_url=url, timeout=10) as client,
        client.stream("GET", "/api/events", headers=headers) as events,
    ):
        assert events.status_code == 200
        assert events.headers["content-type"].startswith("text/event-stream")
        lines = events.iter_lines()
        assert next(lines) == "retry: 1000"
        added = client.post(
            "/api/situations",
            content=KANE.read_bytes(),
            headers={**headers, "content-type": "application/json"},
        )
        assert added.status_code == 201
        uploaded = time.monotonic()
        for line in lines:
            if line == "event: queue":
                assert next(lines) == "data: 1"
                return time.monotonic() - uploaded
    raise AssertionError("the stream ended without a queue event")


def test_with_the_token_the_stream_says_queue_at_once(room: str) -> None:
    assert _queue_event_after_upload(room, BEARER) < EVENT_S


def test_without_a_token_the_stream_says_queue_at_once(tmp_path: Path) -> None:
    with serve_in_thread(_app(None, tmp_path / "data")) as url:
        assert _queue_event_after_upload(url, {}) < EVENT_S


@pytest.mark.parametrize(
    "headers, query",
    [
        ({}, ""),
        ({"authorization": "Bearer not-the-token"}, ""),
        ({"authorization": f"Basic {TOKEN}"}, ""),
        # The token is never taken from a URL (URLs end up in logs): the page sends the header.
        ({}, f"?token={TOKEN}"),
        ({}, f"?access_token={TOKEN}"),
    ],
)
def test_the_stream_of_a_room_with_a_token_needs_the_header(
    room: str, headers: dict[str, str], query: str
) -> None:
    refused = httpx.get(f"{room}/api/events{query}", headers=headers, timeout=10)
    assert refused.status_code == 401
    assert refused.headers["content-type"] == "application/json"
    assert refused.headers["www-authenticate"] == 'Bearer realm="varroom"'
    assert "token" in refused.json()["error"]
