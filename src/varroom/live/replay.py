"""Replaying a recorded match as a frame stream, at real speed or N times it.

The stream's clock is the frames' own: each line is written when the match has run that
long since the first, divided by the speed (the half-time break is not waited for: the
second period follows the first). Lines go to a text file (standard output) or to the one
reader that connects to a TCP port on loopback.
"""

from __future__ import annotations

import json
import socket
import time
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import IO

from varroom.errors import InputError
from varroom.live.stream import END_LINE, header_line, stream_lines
from varroom.match.tracking import MatchTracking

Timed = tuple[int, float, str]  # (period, t_s, line); period 0 for a line with no time


def match_lines(match: MatchTracking) -> Iterator[Timed]:
    """A match's whole stream, header to end."""
    yield 0, 0.0, header_line(match)
    yield from stream_lines(match)
    yield 0, 0.0, END_LINE


def file_lines(path: Path) -> Iterator[Timed]:
    """A recorded stream's lines with their times (a line that is not JSON has none: the
    reader will report it)."""
    try:
        with path.open(encoding="utf-8") as lines:
            for line in lines:
                line = line.rstrip("\n")
                try:
                    data = json.loads(line)
                    yield int(data["period"]), float(data["t"]), line
                except (ValueError, KeyError, TypeError):
                    yield 0, 0.0, line
    except OSError as error:
        raise InputError(path, "", f"cannot read it: {error.strerror or error}") from None


def paced(
    lines: Iterable[Timed],
    speed: float,
    clock: Callable[[], float] = time.monotonic,
    sleep: Callable[[float], None] = time.sleep,
) -> Iterator[str]:
    """The lines, each when its time comes at `speed` times real speed (0: no waiting)."""
    start = clock()
    elapsed_s = 0.0  # match time since the first line
    last: tuple[int, float] | None = None
    for period, t_s, line in lines:
        if period and speed > 0:
            if last is not None:
                elapsed_s += max(0.0, t_s - last[1]) if period == last[0] else 0.0
            last = (period, t_s)
            wait = start + elapsed_s / speed - clock()
            if wait > 0:
                sleep(wait)
        yield line


def write_lines(lines: Iterable[str], out: IO[str]) -> None:
    for line in lines:
        out.write(line + "\n")
        out.flush()


@contextmanager
def listening(port: int, host: str = "127.0.0.1") -> Iterator[socket.socket]:
    """A server socket on loopback, closed at the end."""
    server = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    server.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        server.bind((host, port))
    except OSError as error:
        server.close()
        raise InputError(f"{host}:{port}", "", f"cannot listen there: {error.strerror}") from None
    server.listen(1)
    try:
        yield server
    finally:
        server.close()


def serve_lines(server: socket.socket, lines: Iterable[str]) -> None:
    """Stream the lines to the first reader that connects; a reader that goes away ends it."""
    connection, _ = server.accept()
    with connection:
        connection.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        try:
            for line in lines:
                connection.sendall((line + "\n").encode("utf-8"))
        except (BrokenPipeError, ConnectionResetError):
            return
