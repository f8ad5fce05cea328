"""A log that catches every change: every log table chained under a key, the id included.

The decisions' first chain (0002: SHA-256 without a key, the id left out) is checked first:
a log that does not verify is not chained again (that would vouch for the change), and the
upgrade stops with `LogTampered` (exit 3). Then every log table is chained under the room's
key (`chain.keyed_hash`, handed over in `config.attributes["log_key"]`): the decisions, the
still marks and still decisions (new `prev_hash`, `entry_hash`), and two new tables, the
situations' facts history (each situation's state now, one row each) and the
acknowledgements of a broken log. The triggers are held off meanwhile (as in 0002), and come
back with those the new tables need; SQLite also refuses INSERT OR REPLACE into the still
tables now (their REPLACE's delete fired no trigger, as the decisions' did before 0002).
What the first chain did not cover (an old entry's id) the upgrade cannot check.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import context, op

from varroom.serve.chain import (
    GENESIS,
    LOG_TABLES,
    SITUATION_STATE,
    LogTampered,
    keyed_hash,
    now,
    state_digest,
    verify,
)

revision = "0006"
down_revision = "0005"

_OLD = ("decisions", "still_marks", "still_decisions")
_NEW = ("facts_history", "log_acknowledgements")
# A row the table holds already, by its key (and, for marks, by the unique version): what a
# REPLACE would delete to make room.
_SQLITE_SAME_ROW = {
    "still_marks": "id = NEW.id OR (still_id = NEW.still_id AND facts_version = NEW.facts_version)",
    "still_decisions": "decision_id = NEW.decision_id",
    "facts_history": "id = NEW.id",
    "log_acknowledgements": "id = NEW.id",
}


def _chain_columns() -> list[sa.Column[str]]:
    return [sa.Column("prev_hash", sa.String(64)), sa.Column("entry_hash", sa.String(64))]


def _table(name: str) -> sa.TableClause:
    columns = {*LOG_TABLES[name], "prev_hash", "entry_hash"}
    return sa.table(name, *(sa.column(c) for c in sorted(columns)))


def upgrade() -> None:
    dialect = op.get_bind().dialect.name
    for name in ("still_marks", "still_decisions"):
        with op.batch_alter_table(name, recreate="never") as batch:  # plain ALTERs (as 0002)
            for column in _chain_columns():
                batch.add_column(column)
    op.create_table(
        "facts_history",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("situation_id", sa.Integer, sa.ForeignKey("situations.id"), nullable=False),
        sa.Column("facts_version", sa.Integer, nullable=False),
        sa.Column("created_at", sa.String(40), nullable=False),
        sa.Column("facts_json", sa.Text, nullable=False),
        sa.Column("state_sha256", sa.String(64), nullable=False),
        *_chain_columns(),
    )
    # A situation's newest state is read at every decision on it.
    op.create_index("ix_facts_history_situation", "facts_history", ["situation_id", "id"])
    op.create_table(
        "log_acknowledgements",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("created_at", sa.String(40), nullable=False),
        sa.Column("acknowledged_by", sa.String(200), nullable=False),
        sa.Column("log_table", sa.String(40), nullable=False),
        sa.Column("row_id", sa.Integer, nullable=True),
        sa.Column("problem", sa.Text, nullable=False),
        *_chain_columns(),
    )
    _hold_triggers(dialect, off=True)
    _check_first_chain()
    key = context.config.attributes.get("log_key")
    _record_situations(key)
    for name in (*_OLD, "facts_history"):
        _chain(name, key)
    _hold_triggers(dialect, off=False)
    for name in _NEW:
        _append_only(dialect, name)
    if dialect == "sqlite":
        for name in _SQLITE_SAME_ROW:
            op.execute(
                f"CREATE TRIGGER {name}_append_only_replace BEFORE INSERT ON {name} "
                f"WHEN EXISTS (SELECT 1 FROM {name} WHERE {_SQLITE_SAME_ROW[name]}) "
                f"BEGIN SELECT RAISE(ABORT, '{name} is append-only'); END"
            )


def _hold_triggers(dialect: str, *, off: bool) -> None:
    """The update triggers of the tables chained again, held off (SQLite has no DISABLE)."""
    if dialect == "postgresql":
        for name in _OLD:
            action = "DISABLE" if off else "ENABLE"
            op.execute(f"ALTER TABLE {name} {action} TRIGGER {name}_append_only")
    elif dialect == "sqlite":
        refusal = {
            "decisions": "decisions are append-only: record a correction",
            "still_marks": "still_marks is append-only",
            "still_decisions": "still_decisions is append-only",
        }
        for name in _OLD:
            op.execute(f"DROP TRIGGER IF EXISTS {name}_append_only_update")
            if not off:
                op.execute(
                    f"CREATE TRIGGER {name}_append_only_update BEFORE UPDATE ON {name} "
                    f"BEGIN SELECT RAISE(ABORT, '{refusal[name]}'); END"
                )


def _append_only(dialect: str, name: str) -> None:
    if dialect == "sqlite":
        for event in ("UPDATE", "DELETE"):
            op.execute(
                f"CREATE TRIGGER {name}_append_only_{event.lower()} BEFORE {event} ON {name} "
                f"BEGIN SELECT RAISE(ABORT, '{name} is append-only'); END"
            )
    elif dialect == "postgresql":
        # 0004's function: it names the table it refuses.
        op.execute(
            f"CREATE TRIGGER {name}_append_only BEFORE UPDATE OR DELETE ON {name} "
            "FOR EACH ROW EXECUTE FUNCTION varroom_stills_append_only()"
        )
        op.execute(
            f"CREATE TRIGGER {name}_append_only_truncate BEFORE TRUNCATE ON {name} "
            "FOR EACH STATEMENT EXECUTE FUNCTION varroom_stills_append_only()"
        )


def _check_first_chain() -> None:
    decisions = _table("decisions")
    rows = op.get_bind().execute(sa.select(decisions).order_by(decisions.c.id)).mappings()
    check = verify(rows)
    if not check.intact:
        raise LogTampered(
            f"decision log: entry {check.broken_at} {check.problem} ({check.entries - 1} "
            "entries before it verify): the upgrade to a keyed log stops here"
        )


def _record_situations(key: bytes | None) -> None:
    situations = sa.table("situations", *(sa.column(c) for c in SITUATION_STATE))
    history = _table("facts_history")
    connection = op.get_bind()
    stamp = now()
    query = sa.select(situations).order_by(situations.c.id)
    for number, row in enumerate(connection.execute(query).mappings(), start=1):
        connection.execute(
            sa.insert(history).values(
                id=number,
                situation_id=row["id"],
                facts_version=row["facts_version"],
                created_at=stamp,
                facts_json=row["facts_json"],
                state_sha256=state_digest(row),
            )
        )


def _chain(name: str, key: bytes | None) -> None:
    table = _table(name)
    order = table.c[LOG_TABLES[name][0]]
    connection = op.get_bind()
    rows = connection.execute(sa.select(table).order_by(order)).mappings().all()
    if rows and key is None:
        raise RuntimeError("migration 0006 chains the log under its key: run varroom serve")
    previous = GENESIS
    for row in rows:
        assert key is not None
        current = keyed_hash(key, name, previous, row)
        connection.execute(
            sa.update(table)
            .where(order == row[order.name])
            .values(prev_hash=previous, entry_hash=current)
        )
        previous = current


def downgrade() -> None:
    dialect = op.get_bind().dialect.name
    if dialect == "sqlite":
        for name in _SQLITE_SAME_ROW:
            op.execute(f"DROP TRIGGER IF EXISTS {name}_append_only_replace")
    op.drop_table("log_acknowledgements")
    op.drop_index("ix_facts_history_situation", "facts_history")
    op.drop_table("facts_history")
    _hold_triggers(dialect, off=True)
    for name in ("still_marks", "still_decisions"):
        with op.batch_alter_table(name, recreate="never") as batch:
            batch.drop_column("entry_hash")
            batch.drop_column("prev_hash")
    _hold_triggers(dialect, off=False)
