"""Checking the review room's log (`varroom verify-log`, and the room itself).

`check_log` walks every log table in order, checks each row's keyed hash and link, compares
each table with the checkpoints (a checkpoint's newest row must still be there, at its place,
with its hash) and each situation with the newest state its facts history records. The room
runs it at start and every few minutes; between those it checks a table's end before each
row it adds (`tail_problems`), so a decision costs two indexed reads, not a walk of the log.
"""

from __future__ import annotations

import os
import weakref
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Engine

from varroom.errors import VarroomError
from varroom.serve import db
from varroom.serve.chain import (
    GENESIS,
    LOG_TABLES,
    Claims,
    Head,
    LogTampered,
    Problem,
    key_path,
    keyed_hash,
    load_key,
    now,
    read_checkpoints,
    row_key,
    state_digest,
)
from varroom.serve.config import DEFAULT_DATA_DIR

# Past this many in one table the rest are counted: a chain recomputed without the key
# fails at every row.
MAX_SHOWN = 20


def table_of(name: str) -> sa.Table:
    return db.metadata.tables[name]


@dataclass(frozen=True, slots=True)
class LogCheck:
    heads: dict[str, Head]
    problems: tuple[Problem, ...] = ()
    # (table, row) of each problem acknowledged, and the acknowledgements in the log.
    acknowledged: frozenset[tuple[str, int | None]] = frozenset()
    unlogged: tuple[int, ...] = ()  # situations not yet in the facts history
    checkpoints: int = 0

    @property
    def intact(self) -> bool:
        return not self.problems

    @property
    def entries(self) -> int:
        return self.heads["decisions"].count

    @property
    def open(self) -> bool:
        """Whether the room may take decisions: every problem acknowledged."""
        return all((p.table, p.row) in self.acknowledged for p in self.problems)

    def unacknowledged(self) -> list[Problem]:
        return [p for p in self.problems if (p.table, p.row) not in self.acknowledged]


def _link_problem(row_id: int, before: int | None) -> str:
    after = "the start" if before is None else f"row {before}"
    return f"does not follow {after} before it: a row was removed, added or reordered"


_CHANGED = "does not match its keyed hash: changed after it was written, or written without the key"


@dataclass(slots=True)
class _Walk:
    """One table's chain, row after row: its head so far and what does not verify."""

    key: bytes
    table: str
    head: Head = field(default_factory=Head)
    problems: list[Problem] = field(default_factory=list)
    hidden: int = 0

    def add(self, problem: str, row_id: int | None) -> None:
        if len(self.problems) < MAX_SHOWN:
            self.problems.append(Problem(self.table, row_id, problem))
        else:
            self.hidden += 1

    def step(self, row: Mapping[Any, Any]) -> None:
        row_id = row[row_key(self.table)]
        if row["prev_hash"] != self.head.last_hash:
            self.add(_link_problem(row_id, self.head.last_id), row_id)
        if row["entry_hash"] != keyed_hash(self.key, self.table, row["prev_hash"] or "", row):
            self.add(_CHANGED, row_id)
        # Past a break the walk goes on from the row as it stands: one change, one problem.
        self.head = Head(self.head.count + 1, row_id, row["entry_hash"] or GENESIS)

    def found(self) -> list[Problem]:
        if self.hidden:
            more = f"and {self.hidden} more rows after it do not verify"
            return [*self.problems, Problem(self.table, None, more)]
        return self.problems


def _chained(name: str) -> sa.Select[Any]:
    table = table_of(name)
    return sa.select(table).order_by(table.c[row_key(name)])


def check_log(engine: Engine, key: bytes, claims: Iterable[tuple[str, Claims]] = ()) -> LogCheck:
    """Walk the whole log, streaming it, against `claims`: (where, each table's head then)
    from checkpoints."""
    claims = list(claims)
    heads: dict[str, Head] = {}
    problems: list[Problem] = []
    with engine.connect() as conn:
        for name in LOG_TABLES:
            # Where each claimed row was found: (its place in the chain, its hash).
            wanted = {c[name].last_id for _, c in claims if name in c}
            seen: dict[int | None, tuple[int, str]] = {}
            walk = _Walk(key, name)
            rows = conn.execution_options(yield_per=1000).execute(_chained(name)).mappings()
            for row in rows:
                walk.step(row)
                if walk.head.last_id in wanted:
                    seen[walk.head.last_id] = (walk.head.count, walk.head.last_hash)
            heads[name] = walk.head
            problems += walk.found()
            problems += _against_checkpoints(name, claims, seen, walk.head)
        situations, unlogged = _situation_problems(conn)
        acknowledged = frozenset(
            (r.log_table, r.row_id)
            for r in conn.execute(
                sa.select(db.log_acknowledgements.c.log_table, db.log_acknowledgements.c.row_id)
            )
        )
    return LogCheck(
        heads,
        tuple(dict.fromkeys([*problems, *situations])),
        acknowledged,
        tuple(unlogged),
        len(claims),
    )


def _against_checkpoints(
    name: str,
    claims: list[tuple[str, Claims]],
    seen: Mapping[int | None, tuple[int, str]],
    head: Head,
) -> Iterator[Problem]:
    for where, claim in claims:
        said = claim.get(name)
        if said is None or said.last_id is None:
            continue
        if said.last_id not in seen:
            yield Problem(
                name,
                said.last_id,
                f"is gone: {where} recorded it as row {said.count}, the newest then; the "
                f"table holds {head.count} rows now (cut back, or the database replaced)",
            )
            continue
        place, found = seen[said.last_id]
        if found != said.last_hash:
            yield Problem(name, said.last_id, f"is not the row {where} recorded")
        elif place != said.count:
            yield Problem(
                name,
                said.last_id,
                f"is row {place} of the chain, {where} recorded it as row {said.count}: rows "
                "were removed or added before it",
            )


def _situation_problems(conn: sa.Connection) -> tuple[list[Problem], list[int]]:
    """Each situation against the newest state its facts history records; those it does not
    record yet; history naming a situation that is gone."""
    s, h = db.situations, db.facts_history
    newest = sa.select(sa.func.max(h.c.id)).group_by(h.c.situation_id).scalar_subquery()
    states = dict(
        conn.execute(sa.select(h.c.situation_id, h.c.state_sha256).where(h.c.id.in_(newest))).all()
    )
    problems, unlogged = [], []
    for row in conn.execution_options(yield_per=200).execute(sa.select(s).order_by(s.c.id)):
        recorded = states.pop(row.id, None)
        if recorded is None:
            unlogged.append(row.id)
        elif recorded != state_digest(row._mapping):
            problems.append(Problem("situations", row.id, SITUATION_CHANGED))
    problems += [
        Problem("situations", gone, "is gone: its facts history records it") for gone in states
    ]
    return problems, unlogged


SITUATION_CHANGED = "is not the state its facts history records last: changed past the log"


def tail_problems(
    conn: sa.Connection, key: bytes, table: str, head: Head
) -> tuple[Head, list[Problem]]:
    """The table's end, checked from `head` (what the room last saw of it): that row still
    there with its hash and content, and any rows after it (another writer's) chained to it.
    The new head and what does not verify."""
    t = table_of(table)
    order = t.c[row_key(table)]
    query = _chained(table)
    if head.last_id is not None:
        query = query.where(order >= head.last_id)
    rows = conn.execute(query).mappings().all()
    walk = _Walk(key, table, head)
    if head.last_id is not None:
        first = rows[0] if rows else None
        if first is None or first[order.name] != head.last_id:
            walk.add("is gone: it was the newest row (the log was cut back)", head.last_id)
        elif first["entry_hash"] != head.last_hash:
            walk.add("is not the row the room wrote", head.last_id)
        elif first["entry_hash"] != keyed_hash(key, table, first["prev_hash"] or "", first):
            walk.add(_CHANGED, head.last_id)
        rows = rows[1:] if first is not None and first[order.name] == head.last_id else rows
    for row in rows:
        walk.step(row)
    return walk.head, walk.found()


def recorded_state(conn: sa.Connection, situation_id: int) -> str | None:
    """The state (`state_sha256`) the situation's facts history records last; None before
    it records any."""
    h = db.facts_history
    found: str | None = conn.execute(
        sa.select(h.c.state_sha256)
        .where(h.c.situation_id == situation_id)
        .order_by(h.c.id.desc())
        .limit(1)
    ).scalar()
    return found


def keyed_log_exists(engine: Engine, revision: str) -> bool:
    """Whether the database holds a log chained under a key (0006 and after, a row in it)."""
    if revision < "0006":
        return False
    with engine.connect() as conn:
        return any(
            conn.execute(sa.select(table_of(name)).limit(1)).first() is not None
            for name in LOG_TABLES
        )


def append_row(
    conn: sa.Connection, key: bytes, table: str, values: Mapping[str, Any], tail: Head
) -> Head:
    """Insert a row after `tail` (its table's end, checked), chained: its id one past the
    tail's unless it brings its own (a still decision's is its decision's). The new head."""
    column = row_key(table)
    row = dict(values)
    row.setdefault(column, (tail.last_id or 0) + 1)
    row["prev_hash"] = tail.last_hash
    row["entry_hash"] = keyed_hash(key, table, tail.last_hash, row)
    conn.execute(sa.insert(table_of(table)).values(row))
    return Head(tail.count + 1, row[column], row["entry_hash"])


# -- varroom verify-log ------------------------------------------------------------------------


def _opened(db_url: str | None, data_dir: Path, log_key: Path | None) -> tuple[Engine, bytes]:
    """The room's database, at the newest schema, and the log's key."""
    url = db_url or db.default_url(data_dir)
    parsed = sa.make_url(url)
    if parsed.get_backend_name() == "sqlite" and not Path(parsed.database or "").is_file():
        raise VarroomError(f"no review room database at {parsed.database or url}")
    engine, revision = db.open_database(url, upgrade=False)
    try:
        if revision != db.head_revision():
            raise VarroomError(
                f"the database {db.safe_url(url)} is at schema {revision or 'none'}, "
                f"not {db.head_revision()}: serve it once (varroom serve) to upgrade it"
            )
        return engine, load_key(key_path(data_dir, log_key), create=False)
    except VarroomError:
        engine.dispose()
        raise


def checked(engine: Engine, key: bytes, checkpoints: Path, own: Claims | None = None) -> LogCheck:
    """The whole log against the checkpoints in the folder (each one's signature too) and
    `own`, what the room checking it wrote last."""
    claims, unreadable = read_checkpoints(checkpoints, key)
    if own:
        claims.append(("the room's own record", own))
    check = check_log(engine, key, claims)
    if not unreadable:
        return check
    problems = (*check.problems, *unreadable)
    return LogCheck(check.heads, problems, check.acknowledged, check.unlogged, check.checkpoints)


def verify_log(
    db_url: str | None = None,
    data_dir: str | os.PathLike[str] = DEFAULT_DATA_DIR,
    *,
    log_key: Path | None = None,
    checkpoints: Path | None = None,
) -> str:
    """A line saying the log verifies (each table's rows, the decisions' newest hash);
    LogTampered naming each table and row that does not, or the problems acknowledged.

    The key is `log_key` (else $VARROOM_LOG_KEY_FILE, else `<data_dir>/keys/log.key`), the
    checkpoints those in `checkpoints` (else `<data_dir>/checkpoints`). Reads only: the
    database is neither made nor upgraded.
    """
    data = Path(data_dir)
    engine, key = _opened(db_url, data, log_key)
    try:
        check = checked(engine, key, checkpoints or data / "checkpoints")
        acknowledgements = _acknowledgements(engine)
    finally:
        engine.dispose()
    if check.problems or acknowledgements:
        raise LogTampered(_altered(check, acknowledgements))
    decisions = check.heads["decisions"]
    others = ", ".join(
        f"{name} {head.count}" for name, head in check.heads.items() if name != "decisions"
    )
    unlogged = (
        f"; {len(check.unlogged)} situations not yet in the facts history" if check.unlogged else ""
    )
    return (
        f"decision log: {decisions.count} entries, hash chain intact; newest hash "
        f"{decisions.last_hash}\nother log tables, intact: {others}; checked against "
        f"{check.checkpoints} checkpoints{unlogged}"
    )


def _acknowledgements(engine: Engine) -> list[Any]:
    a = db.log_acknowledgements
    with engine.connect() as conn:
        return list(conn.execute(sa.select(a).order_by(a.c.id)))


def _altered(check: LogCheck, acknowledgements: list[Any]) -> str:
    found = "; ".join(
        f"{p}{'' if (p.table, p.row) not in check.acknowledged else ' (acknowledged)'}"
        for p in check.problems
    )
    said = "; ".join(
        f"{a.log_table}{'' if a.row_id is None else f' row {a.row_id}'}: {a.problem} "
        f"(acknowledged by {a.acknowledged_by} at {a.created_at})"
        for a in acknowledgements
    )
    parts = [f"the log was altered: {found}" if found else "the log verifies now"]
    if said:
        parts.append(f"acknowledged before: {said}")
    return "; ".join(parts)


def acknowledge_log(
    by: str,
    db_url: str | None = None,
    data_dir: str | os.PathLike[str] = DEFAULT_DATA_DIR,
    *,
    log_key: Path | None = None,
    checkpoints: Path | None = None,
) -> str:
    """Record in the log that each problem it shows now was seen (by `by`): a room refusing
    decisions on it takes them again. What it says, one line."""
    data = Path(data_dir)
    engine, key = _opened(db_url, data, log_key)
    try:
        check = checked(engine, key, checkpoints or data / "checkpoints")
        new = check.unacknowledged()
        if new:
            with db.write_lock(engine), engine.begin() as conn:
                db.lock_log(conn)
                tail = tail_problems(conn, key, "log_acknowledgements", Head())[0]
                for problem in new:
                    values = {
                        "created_at": now(),
                        "acknowledged_by": by,
                        "log_table": problem.table,
                        "row_id": problem.row,
                        "problem": problem.problem,
                    }
                    tail = append_row(conn, key, "log_acknowledgements", values, tail)
    finally:
        engine.dispose()
    if not new:
        return "nothing to acknowledge: " + (
            "the log verifies" if check.intact else "every problem was acknowledged before"
        )
    return f"acknowledged by {by}: " + "; ".join(str(p) for p in new)


# The key of the room serving each engine, for `check_chain` on an engine alone.
_KEYS: weakref.WeakKeyDictionary[Engine, bytes] = weakref.WeakKeyDictionary()


def hold_key(engine: Engine, key: bytes) -> None:
    _KEYS[engine] = key


def check_chain(engine: Engine, key: bytes | None = None) -> LogCheck:
    """The whole log on `engine`, without checkpoints; `key`: the one the room serving it
    holds unless given."""
    if key is None and engine not in _KEYS:
        raise VarroomError("no review room holds this database's log key: give it")
    return check_log(engine, key or _KEYS[engine])
