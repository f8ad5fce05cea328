"""The decision log: refuse INSERT OR REPLACE / REPLACE on SQLite; conflicts; a hash chain.

SQLite's REPLACE (and INSERT OR REPLACE) resolves a conflict by deleting the old row, and
delete triggers do not fire for that delete unless `recursive_triggers` is on in the
connection making it. A BEFORE INSERT trigger, in the schema and so in every connection,
refuses an entry whose id or (reviewer, client_ref) is already in the log. (An UPSERT's
DO UPDATE is an update: refused by the update triggers of 0001, on both databases.)

Each entry gets `conflicts_with` (the ids of other reviewers' standing decisions it
contradicts, as JSON; none for the entries already written), and `prev_hash` and
`entry_hash` (`varroom.serve.chain`); the entries already written are chained here, in id
order, with the update triggers held off.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from varroom.serve.chain import CHAINED, GENESIS, entry_hash

revision = "0002"
down_revision = "0001"

_REFUSED = "decisions are append-only: record a correction"
_SQLITE_NO_REPLACE = f"""CREATE TRIGGER decisions_append_only_replace BEFORE INSERT ON decisions
   WHEN EXISTS (SELECT 1 FROM decisions WHERE id = NEW.id)
     OR (NEW.client_ref IS NOT NULL AND EXISTS (
         SELECT 1 FROM decisions WHERE reviewer = NEW.reviewer AND client_ref = NEW.client_ref))
   BEGIN SELECT RAISE(ABORT, '{_REFUSED}'); END"""
_SQLITE_UPDATE = f"""CREATE TRIGGER decisions_append_only_update BEFORE UPDATE ON decisions
   BEGIN SELECT RAISE(ABORT, '{_REFUSED}'); END"""


def upgrade() -> None:
    dialect = op.get_bind().dialect.name
    # Plain ALTERs, not a batch: SQLite's batch mode copies the table and loses its triggers.
    with op.batch_alter_table("decisions", recreate="never") as batch:
        batch.add_column(sa.Column("conflicts_with", sa.Text, nullable=True))
        batch.add_column(sa.Column("prev_hash", sa.String(64), nullable=True))
        batch.add_column(sa.Column("entry_hash", sa.String(64), nullable=True))
    # What stands on an incident (each reviewer's newest, less what is corrected) is read
    # at every decision: over these indexes, not the incident's whole log.
    op.create_index("ix_decisions_standing", "decisions", ["situation_id", "reviewer", "id"])
    op.create_index("ix_decisions_corrects", "decisions", ["corrects"])
    if dialect == "sqlite":
        op.execute(_SQLITE_NO_REPLACE)
        op.execute("DROP TRIGGER decisions_append_only_update")
    elif dialect == "postgresql":
        op.execute("ALTER TABLE decisions DISABLE TRIGGER decisions_append_only")
    _chain_existing()
    if dialect == "sqlite":
        op.execute(_SQLITE_UPDATE)
    elif dialect == "postgresql":
        op.execute("ALTER TABLE decisions ENABLE TRIGGER decisions_append_only")


def _chain_existing() -> None:
    decisions = sa.table(
        "decisions",
        sa.column("id"),
        sa.column("prev_hash"),
        sa.column("entry_hash"),
        *(sa.column(c) for c in CHAINED),
    )
    connection = op.get_bind()
    previous = GENESIS
    for row in connection.execute(sa.select(decisions).order_by(decisions.c.id)).mappings():
        current = entry_hash(previous, dict(row))
        connection.execute(
            sa.update(decisions)
            .where(decisions.c.id == row["id"])
            .values(prev_hash=previous, entry_hash=current)
        )
        previous = current


def downgrade() -> None:
    if op.get_bind().dialect.name == "sqlite":
        op.execute("DROP TRIGGER IF EXISTS decisions_append_only_replace")
        op.execute("DROP TRIGGER decisions_append_only_update")
    elif op.get_bind().dialect.name == "postgresql":
        op.execute("ALTER TABLE decisions DISABLE TRIGGER decisions_append_only")
    op.drop_index("ix_decisions_corrects", "decisions")
    op.drop_index("ix_decisions_standing", "decisions")
    with op.batch_alter_table("decisions", recreate="never") as batch:
        batch.drop_column("entry_hash")
        batch.drop_column("prev_hash")
        batch.drop_column("conflicts_with")
    if op.get_bind().dialect.name == "sqlite":
        op.execute(_SQLITE_UPDATE)
    elif op.get_bind().dialect.name == "postgresql":
        op.execute("ALTER TABLE decisions ENABLE TRIGGER decisions_append_only")
