"""The database as the services share it: the engine, its one writer, the situation lookup."""

from __future__ import annotations

from contextlib import AbstractContextManager
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Engine

from varroom.serve import db
from varroom.serve.errors import ApiError


def now() -> str:
    """A time stamp as the log writes it: UTC, milliseconds, ISO 8601 with Z."""
    return datetime.now(UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")


@dataclass(frozen=True, slots=True)
class Store:
    engine: Engine
    write_lock: AbstractContextManager[Any] = field(init=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "write_lock", db.write_lock(self.engine))

    def situation_row(self, conn: sa.Connection, situation_id: int) -> Any:
        """The situation's row, or a 404."""
        row = conn.execute(
            sa.select(db.situations).where(db.situations.c.id == situation_id)
        ).first()
        if row is None:
            raise ApiError(404, f"no situation {situation_id}")
        return row
