"""The database as the services share it: the engine, its one writer, the situation lookup,
and the room's hold on its log (`RoomLog`): every row a service adds to a log table goes
through `Store.logged`, which checks the table's end first and chains the row under the key."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import AbstractContextManager, contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Engine

from varroom.serve import db

# `now` is the log's time stamp: the services take it from here.
from varroom.serve.chain import (
    Head,
    Problem,
    state_digest,
    write_checkpoint,
)
from varroom.serve.chain import (
    now as now,
)
from varroom.serve.errors import ApiError
from varroom.serve.verify import (
    SITUATION_CHANGED,
    LogCheck,
    append_row,
    checked,
    hold_key,
    recorded_state,
    tail_problems,
)


class LogBroken(ApiError):
    """The log does not verify and no one has acknowledged it: nothing more is written to it."""

    def __init__(self, problems: list[Problem]) -> None:
        more = f" and {len(problems) - 1} more" if len(problems) > 1 else ""
        super().__init__(
            503,
            f"the log is broken ({problems[0]}{more}): the room takes no decisions until it "
            "is acknowledged (varroom verify-log --acknowledge)",
            more={"chain": "broken", "problems": [_problem_out(p, False) for p in problems]},
        )


class _Tampered(Exception):
    """A table's end is not what the room left there: found while adding a row."""

    def __init__(self, problems: list[Problem]) -> None:
        super().__init__(problems)
        self.problems = problems


def _problem_out(problem: Problem, acknowledged: bool) -> dict[str, Any]:
    return {
        "table": problem.table,
        "row": problem.row,
        "problem": problem.problem,
        "acknowledged": acknowledged,
    }


class RoomLog:
    """What the room knows of its log: the key, each table's head as it last saw or wrote
    it, the last whole check; checkpoints written to `checkpoints/room.json` as it grows."""

    def __init__(self, engine: Engine, key: bytes, checkpoints: Path) -> None:
        self.engine = engine
        self.key = key
        self.checkpoints = checkpoints
        self._lock = threading.Lock()
        self._heads: dict[str, Head] = {}
        self._check: LogCheck | None = None
        self._checked_at: str | None = None
        hold_key(engine, key)

    def head(self, table: str) -> Head:
        with self._lock:
            return self._heads.get(table, Head())

    def verify(self) -> LogCheck:
        """Walk the whole log against the checkpoints and what the room itself wrote; record
        the situations not yet in their facts history; a checkpoint when it verifies."""
        with self._lock:
            before = dict(self._heads)
        check = checked(self.engine, self.key, self.checkpoints, before)
        with self._lock:
            for name, head in check.heads.items():
                # A row the room added while the walk went on is newer than the walk's end.
                if self._heads.get(name) is before.get(name):
                    self._heads[name] = head
            self._check, self._checked_at = check, now()
            if check.open:
                self._write_checkpoint()
        if check.open and check.unlogged:
            with self.writing() as log:
                for situation_id in check.unlogged:
                    log.record_situation(situation_id)
        return check

    def _write_checkpoint(self) -> None:
        write_checkpoint(self.checkpoints, "room", self.key, self._heads)

    def acknowledged(self) -> frozenset[tuple[str, int | None]]:
        check = self._check
        return frozenset() if check is None else check.acknowledged

    def refresh(self) -> LogCheck | None:
        """The last check, done again if the log is broken and acknowledgements were added
        since (`varroom verify-log --acknowledge`, from outside the room)."""
        check = self._check
        if check is None or check.open:
            return check
        a = db.log_acknowledgements
        with self.engine.connect() as conn:
            count = conn.execute(sa.select(sa.func.count()).select_from(a)).scalar_one()
        if count != check.heads["log_acknowledgements"].count:
            return self.verify()
        return check

    def advance(self, heads: dict[str, Head]) -> None:
        """Rows committed: the heads move on, and the checkpoint with them."""
        if not heads:
            return
        with self._lock:
            for name, head in heads.items():
                if head.count > self._heads.get(name, Head()).count:
                    self._heads[name] = head
            if self._check is None or self._check.open:
                self._write_checkpoint()

    @contextmanager
    def writing(self) -> Iterator[LogWriter]:
        """A transaction that adds log rows: refused while the log is broken; a table's end
        found changed is a whole check, then `LogBroken` naming where."""
        check = self.refresh()
        if check is not None and not check.open:
            raise LogBroken(check.unacknowledged())
        try:
            with db.write_lock(self.engine):
                with self.engine.begin() as conn:
                    db.lock_log(conn)
                    writer = LogWriter(conn, self)
                    yield writer
                self.advance(writer.pending)
        except _Tampered as found:
            check = self.verify()
            raise LogBroken(check.unacknowledged() or found.problems) from None

    def status(self) -> dict[str, Any]:
        """The log as /api/health answers it."""
        check = self.refresh()
        if check is None:
            return {"chain": "unchecked", "decisions_accepted": True}
        return {
            "chain": "ok" if check.intact else "broken",
            "chain_checked_at": self._checked_at,
            "chain_problems": [
                _problem_out(p, (p.table, p.row) in check.acknowledged) for p in check.problems
            ],
            "decisions_accepted": check.open,
        }


class LogWriter:
    """Adds rows to log tables in one transaction, each chained after its table's end."""

    def __init__(self, conn: sa.Connection, log: RoomLog) -> None:
        self.conn = conn
        self.log = log
        self.pending: dict[str, Head] = {}

    def _stop_on(self, problems: list[Problem]) -> None:
        known = self.log.acknowledged()
        new = [p for p in problems if (p.table, p.row) not in known]
        if new:
            raise _Tampered(new)

    def append(self, table: str, values: dict[str, Any]) -> int:
        """Add the row, chained; its key (the id)."""
        head = self.pending.get(table) or self.log.head(table)
        tail, problems = tail_problems(self.conn, self.log.key, table, head)
        self._stop_on(problems)
        self.pending[table] = new = append_row(self.conn, self.log.key, table, values, tail)
        assert new.last_id is not None
        return new.last_id

    def check_situation(self, situation: Any) -> None:
        """The situation as its facts history last recorded it (or recorded now, the first
        time): a situation changed past the log stops the transaction."""
        recorded = recorded_state(self.conn, situation.id)
        if recorded is None:
            self.record_situation(situation.id)
        elif recorded != state_digest(situation._mapping):
            self._stop_on([Problem("situations", situation.id, SITUATION_CHANGED)])

    def record_situation(self, situation_id: int) -> None:
        """The situation's state now, as a row of its facts history."""
        s = db.situations
        row = self.conn.execute(sa.select(s).where(s.c.id == situation_id)).one()
        self.append(
            "facts_history",
            {
                "situation_id": situation_id,
                "facts_version": row.facts_version,
                "created_at": now(),
                "facts_json": row.facts_json,
                "state_sha256": state_digest(row._mapping),
            },
        )


@dataclass(frozen=True, slots=True)
class Store:
    engine: Engine
    log: RoomLog
    write_lock: AbstractContextManager[Any] = field(init=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "write_lock", db.write_lock(self.engine))

    def logged(self) -> AbstractContextManager[LogWriter]:
        """A transaction that adds to the log (`RoomLog.writing`)."""
        return self.log.writing()

    def situation_row(self, conn: sa.Connection, situation_id: int, lock: bool = False) -> Any:
        """The situation's row, or a 404; with `lock`, held (`SELECT ... FOR UPDATE` on
        PostgreSQL; SQLite has one writer at a time) until the transaction ends."""
        query = sa.select(db.situations).where(db.situations.c.id == situation_id)
        row = conn.execute(query.with_for_update() if lock else query).first()
        if row is None:
            raise ApiError(404, f"no situation {situation_id}")
        return row
