"""The decision log's hash chain: each entry carries the hash of the one before it.

The triggers make the database refuse to change the log; they cannot stop someone with the
database file, or a superuser, who drops them first. The chain makes such a change visible:
an entry changed no longer matches its hash, and an entry removed or inserted breaks the
link of the one after it. `verify` walks the log in id order (`varroom verify-log`). What
the chain alone cannot show is the newest entries cut off the end: for that, keep the
newest hash `verify-log` prints somewhere else (a match report, an email) and compare.

The hash is part of the log's format: changing `CHAINED` or `entry_hash` would make every
log written before fail to verify. The migration that added the chain uses them too.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

GENESIS = "0" * 64
# Every column of an entry but its id (given by the database after the hash is made) and
# the hashes themselves.
CHAINED = (
    "situation_id",
    "created_at",
    "reviewer",
    "decision",
    "outcome",
    "engine_status",
    "engine_offender",
    "margin_m",
    "duration_s",
    "facts_json",
    "verdict_json",
    "corrects",
    "client_ref",
    "note",
    "conflicts_with",
)

_FLOATS = (CHAINED.index("margin_m"), CHAINED.index("duration_s"))


def entry_hash(prev_hash: str, entry: Mapping[Any, Any]) -> str:
    """SHA-256 of the previous entry's hash and this entry's columns, as canonical JSON."""
    values = [entry[c] for c in CHAINED]
    for index in _FLOATS:  # a REAL column gives 0.0 back for the 0 it was given
        values[index] = None if values[index] is None else float(values[index])
    payload = json.dumps([prev_hash, *values], separators=(",", ":"), allow_nan=False)
    return hashlib.sha256(payload.encode("ascii")).hexdigest()


@dataclass(frozen=True, slots=True)
class ChainCheck:
    entries: int
    last_hash: str = GENESIS  # of the newest entry that verifies
    broken_at: int | None = None  # the id of the first entry that does not verify
    problem: str | None = None

    @property
    def intact(self) -> bool:
        return self.broken_at is None


def verify(rows: Iterable[Mapping[Any, Any]]) -> ChainCheck:
    """Check entries given in id order: each links to the one before and matches its hash."""
    previous = GENESIS
    count = 0
    for row in rows:
        count += 1
        if row["prev_hash"] != previous:
            return ChainCheck(
                count,
                previous,
                row["id"],
                "does not follow the entry before it: an entry was removed, added or reordered",
            )
        if row["entry_hash"] != entry_hash(previous, row):
            return ChainCheck(
                count, previous, row["id"], "does not match its hash: changed after it was written"
            )
        previous = row["entry_hash"]
    return ChainCheck(count, previous)
