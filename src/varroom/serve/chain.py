"""The review room's log and what proves it unchanged: keyed hash chains, the key, checkpoints.

The triggers make the database refuse to change the log; they cannot stop someone with the
database file, or a superuser, who drops them first. The chains make such a change visible.
Every log table (`LOG_TABLES`: the decisions, the still marks, which marks each still decision
rests on, the situations' facts history, the acknowledgements of a broken log) is a chain of
its own: each row carries the hash of the row before it and its own, an HMAC-SHA256 under the
room's key (kept outside the database) of every column, its id included. A row changed,
renumbered or moved no longer matches its hash; one removed or slipped in breaks the link of
the row after it; a chain recomputed without the key matches nothing. What a chain cannot
show is rows cut off its end: for that the room writes signed checkpoints (each table's row
count, newest id and hash) to files outside the database, which verification reads back.

The first chain (`CHAINED`, `entry_hash`: SHA-256 without a key, the id left out) is kept for
the migrations: 0002 wrote it, 0006 checks it and chains the log again under the key. The
hashes are part of the log's format: changing `LOG_TABLES` or `keyed_hash` would make every
log written before fail to verify.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import os
import secrets
import stat
from collections.abc import Iterable, Mapping
from contextlib import suppress
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from varroom.errors import VarroomError

GENESIS = "0" * 64
# The first chain's columns: every column of a decision but its id and the hashes.
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
# A REAL column gives 0.0 back for the 0 it was given: hashed as a float either way.
_FLOATS = frozenset(("margin_m", "duration_s"))

# Each log table's chained columns, its row key (the order of the chain) first; with
# `prev_hash` and `entry_hash` that is every column of the table (tests/test_serve_tamper.py).
LOG_TABLES: dict[str, tuple[str, ...]] = {
    "decisions": ("id", *CHAINED),
    "still_marks": ("id", "still_id", "created_at", "facts_version", "marks_json"),
    # A decision's id: linked in the decision's own transaction, so in the decisions' order.
    "still_decisions": ("decision_id", "marks_id"),
    "facts_history": (
        "id",
        "situation_id",
        "facts_version",
        "created_at",
        "facts_json",
        "state_sha256",
    ),
    "log_acknowledgements": (
        "id",
        "created_at",
        "acknowledged_by",
        "log_table",
        "row_id",
        "problem",
    ),
}
# A situation's columns, all of them: its state, as `facts_history.state_sha256` records it.
SITUATION_STATE = (
    "id",
    "created_at",
    "updated_at",
    "title",
    "source_name",
    "origin",
    "audit_id",
    "situation_json",
    "facts_json",
    "facts_version",
    "engine_verdict_json",
    "verdict_json",
    "summary_json",
    "status",
    "incident_key",
    "profile",
)


def now() -> str:
    """A time stamp as the log writes it: UTC, milliseconds, ISO 8601 with Z."""
    return datetime.now(UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")


class LogTampered(VarroomError):
    """The log does not verify: a change was made past the database's triggers."""

    exit_code = 3


class LogKeyError(VarroomError):
    """The log's key file is missing, unreadable, or readable by others."""

    exit_code = 2


def _values(columns: Iterable[str], row: Mapping[Any, Any]) -> list[Any]:
    return [None if row[c] is None else float(row[c]) if c in _FLOATS else row[c] for c in columns]


def _canonical(values: list[Any]) -> bytes:
    return json.dumps(values, separators=(",", ":"), allow_nan=False).encode("ascii")


def entry_hash(prev_hash: str, entry: Mapping[Any, Any]) -> str:
    """The first chain's hash: SHA-256 of the previous entry's hash and the entry's
    `CHAINED` columns, as canonical JSON."""
    return hashlib.sha256(_canonical([prev_hash, *_values(CHAINED, entry)])).hexdigest()


def keyed_hash(key: bytes, table: str, prev_hash: str, row: Mapping[Any, Any]) -> str:
    """HMAC-SHA256 under `key` of the table's name, the previous row's hash and every
    chained column of the row (its id first), as canonical JSON."""
    payload = _canonical(["varroom-log-2", table, prev_hash, *_values(LOG_TABLES[table], row)])
    return hmac.new(key, payload, hashlib.sha256).hexdigest()


def row_key(table: str) -> str:
    return LOG_TABLES[table][0]


def state_digest(situation: Mapping[Any, Any]) -> str:
    """SHA-256 of every column of a situation: what its facts history records of it."""
    return hashlib.sha256(_canonical(_values(SITUATION_STATE, situation))).hexdigest()


@dataclass(frozen=True, slots=True)
class ChainCheck:
    """The first chain, walked: used only to check a log before 0006 chains it again."""

    entries: int
    last_hash: str = GENESIS  # of the newest entry that verifies
    broken_at: int | None = None  # the id of the first entry that does not verify
    problem: str | None = None

    @property
    def intact(self) -> bool:
        return self.broken_at is None


def verify(rows: Iterable[Mapping[Any, Any]]) -> ChainCheck:
    """Check first-chain entries given in id order: each links to the one before and matches
    its hash."""
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


# -- the key ----------------------------------------------------------------------------------

KEY_ENV = "VARROOM_LOG_KEY_FILE"


def key_path(data_dir: Path, given: Path | None = None) -> Path:
    """Where the log's key is: `given` (--log-key), else $VARROOM_LOG_KEY_FILE, else
    `<data-dir>/keys/log.key`."""
    if given is not None:
        return given
    from_env = os.environ.get(KEY_ENV)
    return Path(from_env) if from_env else data_dir / "keys" / "log.key"


def load_key(path: Path, *, create: bool) -> bytes:
    """The key in `path` (64 hex digits), made there first (0600) when `create` and it is
    missing. A key others can read proves nothing: refused."""
    if create and not path.exists():
        path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        with suppress(FileExistsError):  # another room made it at the same moment
            descriptor = os.open(path, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o600)
            with os.fdopen(descriptor, "w") as out:
                out.write(secrets.token_hex(32) + "\n")
    try:
        mode = path.stat().st_mode
        text = path.read_text(encoding="ascii").strip()
    except FileNotFoundError:
        raise LogKeyError(
            f"no log key at {path}: the log was written under a key; give its file with "
            f"--log-key (or {KEY_ENV})"
        ) from None
    except (OSError, UnicodeDecodeError) as error:
        raise LogKeyError(f"cannot read the log key {path}: {error}") from None
    if mode & (stat.S_IRWXG | stat.S_IRWXO):
        raise LogKeyError(f"the log key {path} is open to others: chmod 600 {path}")
    try:
        key = bytes.fromhex(text)
    except ValueError:
        key = b""
    if len(key) < 32:
        raise LogKeyError(f"{path} is not a log key (64 hex digits)")
    return key


# -- checkpoints ------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Head:
    """A chain's end: how many rows, the newest row's key and hash (GENESIS when empty)."""

    count: int = 0
    last_id: int | None = None
    last_hash: str = GENESIS


@dataclass(frozen=True, slots=True)
class Problem:
    """Where a log does not verify: the table, the row (its key), and what is wrong."""

    table: str
    row: int | None
    problem: str

    def __str__(self) -> str:
        return f"{self.table}{'' if self.row is None else f' row {self.row}'}: {self.problem}"


def _signed(key: bytes, body: Mapping[str, Any]) -> str:
    return hmac.new(key, _canonical([body]), hashlib.sha256).hexdigest()


def write_checkpoint(folder: Path, name: str, key: bytes, heads: Mapping[str, Head]) -> None:
    """`folder/<name>.json`: each table's head, signed; replaced whole (never half written)."""
    body = {
        "format": 1,
        "tables": {
            table: {"count": h.count, "last_id": h.last_id, "last_hash": h.last_hash}
            for table, h in sorted(heads.items())
        },
    }
    text = json.dumps({**body, "hmac_sha256": _signed(key, body)}, indent=1) + "\n"
    folder.mkdir(mode=0o700, parents=True, exist_ok=True)
    target = folder / f"{name}.json"
    partial = folder / f".{name}.json.part"
    descriptor = os.open(partial, os.O_CREAT | os.O_TRUNC | os.O_WRONLY, 0o600)
    with os.fdopen(descriptor, "w") as out:
        out.write(text)
    os.replace(partial, target)


Claims = dict[str, Head]


def read_checkpoints(folder: Path, key: bytes) -> tuple[list[tuple[str, Claims]], list[Problem]]:
    """Every checkpoint in `folder` (`*.json`) as (its name, what it says of each table);
    one that is unreadable or not signed under the key is a problem of its own."""
    found: list[tuple[str, Claims]] = []
    problems: list[Problem] = []
    for path in sorted(folder.glob("*.json")) if folder.is_dir() else []:
        where = f"checkpoint {path.name}"
        try:
            document = json.loads(path.read_text(encoding="utf-8"))
            body = {k: v for k, v in document.items() if k != "hmac_sha256"}
            if not hmac.compare_digest(str(document.get("hmac_sha256")), _signed(key, body)):
                problems.append(Problem(where, None, "is not signed under the log's key"))
                continue
            claims = {
                table: Head(int(h["count"]), h["last_id"], str(h["last_hash"]))
                for table, h in body["tables"].items()
                if table in LOG_TABLES
            }
        except (OSError, ValueError, KeyError, TypeError, AttributeError) as error:
            problems.append(Problem(where, None, f"cannot be read ({error})"))
            continue
        found.append((where, claims))
    return found, problems
