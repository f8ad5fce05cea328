"""Where a live follower's lines come from, and the loop that follows them.

A TCP feed that closes before its end line is connected to again (for `RECONNECT_S`):
a stream that stops and resumes goes on where it was; the follower keeps its window.
"""

from __future__ import annotations

import socket
import sys
import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from urllib.parse import urlsplit

from varroom.errors import InputError
from varroom.live.follower import Alert, Counts, LiveFollower
from varroom.live.laws import LawAlert
from varroom.live.stream import End, Header, LineError, StreamReader, read_items
from varroom.profiles import Profile

RECONNECT_S = 10.0
RETRY_S = 0.2


def source_lines(source: str, reconnect_s: float = RECONNECT_S) -> Iterator[bytes]:
    """The lines of `-` (standard input) or `tcp://host:port`."""
    if source == "-":
        yield from sys.stdin.buffer
        return
    parts = urlsplit(source)
    if parts.scheme != "tcp" or not parts.hostname or parts.port is None:
        raise InputError(source, "", "expected - or tcp://host:port")
    yield from tcp_lines(parts.hostname, parts.port, reconnect_s)


def tcp_lines(host: str, port: int, reconnect_s: float = RECONNECT_S) -> Iterator[bytes]:
    """Lines from a TCP feed, connecting again when it closes (module docstring); the first
    connection is waited for as long."""
    connected_once = False
    while True:
        connection = _connect(host, port, reconnect_s)
        if connection is None:
            if connected_once:
                return  # the feed is gone: its end, as a closed stream means
            raise InputError(f"tcp://{host}:{port}", "", "cannot connect")
        connected_once = True
        with connection, connection.makefile("rb") as lines:
            yield from lines


def _connect(host: str, port: int, within_s: float) -> socket.socket | None:
    deadline = time.monotonic() + within_s
    while True:
        try:
            return socket.create_connection((host, port), timeout=None)
        except OSError:
            if time.monotonic() >= deadline:
                return None
            time.sleep(RETRY_S)


@dataclass
class Outcome:
    """What following a stream came to."""

    alerts: list[Alert | LawAlert] = field(default_factory=list)
    invalid_lines: int = 0
    counts: Counts | None = None
    match: str = ""


def follow(
    lines: Iterable[bytes | str],
    on_alert: Callable[[Alert | LawAlert, Header], None],
    on_invalid: Callable[[LineError], None],
    source: str = "<stream>",
    profile: Profile | None = None,
) -> Outcome:
    """Follow a stream to its end (or its last line): every alert as it is decided, as
    `profile` applies the Laws (`ifab` unless given)."""
    reader = StreamReader(source)
    outcome = Outcome()
    follower: LiveFollower | None = None
    ended = False
    for item in read_items(lines, reader):
        if isinstance(item, LineError):
            outcome.invalid_lines += 1
            on_invalid(item)
            continue
        if isinstance(item, Header):
            if follower is None:
                follower = LiveFollower(item, profile)
                outcome.match = item.match
            continue
        ended = isinstance(item, End)
        if follower is None:  # an end before any header: the reader takes nothing else
            break
        for alert in follower.feed(item):
            outcome.alerts.append(alert)
            on_alert(alert, follower.header)
    if follower is not None:
        if not ended:
            for alert in follower.end():
                outcome.alerts.append(alert)
                on_alert(alert, follower.header)
        outcome.counts = follower.counts
    return outcome
