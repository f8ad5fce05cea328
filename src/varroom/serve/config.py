"""The review room's settings: size limits, where its data lives, whom it answers without a token."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

MAX_SITUATION_BYTES = 2 * 1024 * 1024
MAX_AUDIT_BYTES = 1024 * 1024 * 1024
# What an audit's compressed files may inflate to, in all: several full matches of 25 Hz
# tracking, while a 1 MB file of a few repeated bytes inflates to 1 GiB (and an audit holds
# about three times its files' bytes in memory).
MAX_INFLATED_BYTES = 512 * 1024 * 1024
MAX_STILL_BYTES = 25 * 1024 * 1024  # a 4K PNG broadcast frame
DEFAULT_DATA_DIR = Path("varroom-data")
LOOPBACK_NAMES = ("127.0.0.1", "localhost", "::1")
# The review room's data (the log, uploads, pictures) is for the user who serves it only.
PRIVATE_DIR = 0o700
PRIVATE_FILE = 0o600
# Longest wait for the next piece of a request body: a stalled client holds nothing longer.
READ_TIMEOUT_S = 10.0
# How often the room checks its whole log (between checks, each table's end before each row).
VERIFY_EVERY_S = 600.0
# The largest id a path or query may name: beyond it SQLite's and PostgreSQL's integers end.
MAX_ID = 2**62


@dataclass(frozen=True, slots=True)
class Limits:
    situation_bytes: int = MAX_SITUATION_BYTES
    audit_bytes: int = MAX_AUDIT_BYTES
    inflated_bytes: int = MAX_INFLATED_BYTES
    audit_files: int = 20
    still_bytes: int = MAX_STILL_BYTES
    read_timeout_s: float = READ_TIMEOUT_S
