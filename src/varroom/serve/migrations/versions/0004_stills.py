"""Stills: a broadcast picture uploaded to the room, the marks set on it, and the marks each
decision on its incident was judged on.

A still becomes an incident (a row of `situations`, origin "still") when its marks are first
saved. Marks are never changed in place: each save is a new `still_marks` row, stamped with the
incident's facts version it set, so that a decision (made at a known facts version) names the
marks it rests on in `still_decisions`. Both are append-only, like the decision log.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"

_APPEND_ONLY = ("still_marks", "still_decisions")


def upgrade() -> None:
    op.create_table(
        "stills",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("created_at", sa.String(40), nullable=False),
        sa.Column("source_name", sa.String(300), nullable=True),
        sa.Column("media_type", sa.String(20), nullable=False),
        sa.Column("width", sa.Integer, nullable=False),
        sa.Column("height", sa.Integer, nullable=False),
        sa.Column("sha256", sa.String(64), nullable=False),
        sa.Column(
            "situation_id", sa.Integer, sa.ForeignKey("situations.id"), nullable=True, unique=True
        ),
    )
    op.create_table(
        "still_marks",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("still_id", sa.Integer, sa.ForeignKey("stills.id"), nullable=False),
        sa.Column("created_at", sa.String(40), nullable=False),
        sa.Column("facts_version", sa.Integer, nullable=False),
        sa.Column("marks_json", sa.Text, nullable=False),
        sa.UniqueConstraint("still_id", "facts_version", name="uq_still_marks_version"),
    )
    op.create_table(
        "still_decisions",
        # No foreign key to `decisions`: PostgreSQL would then answer a TRUNCATE of the log
        # with the reference, before the log's own append-only trigger can refuse it.
        sa.Column("decision_id", sa.Integer, primary_key=True),
        sa.Column("marks_id", sa.Integer, sa.ForeignKey("still_marks.id"), nullable=False),
    )
    dialect = op.get_bind().dialect.name
    for table in _APPEND_ONLY:
        if dialect == "sqlite":
            for event in ("UPDATE", "DELETE"):
                op.execute(
                    f"CREATE TRIGGER {table}_append_only_{event.lower()} BEFORE {event} ON {table} "
                    f"BEGIN SELECT RAISE(ABORT, '{table} is append-only'); END"
                )
        elif dialect == "postgresql":
            op.execute(_POSTGRES_FUNCTION)
            op.execute(
                f"CREATE TRIGGER {table}_append_only BEFORE UPDATE OR DELETE ON {table} "
                "FOR EACH ROW EXECUTE FUNCTION varroom_stills_append_only()"
            )
            op.execute(
                f"CREATE TRIGGER {table}_append_only_truncate BEFORE TRUNCATE ON {table} "
                "FOR EACH STATEMENT EXECUTE FUNCTION varroom_stills_append_only()"
            )


_POSTGRES_FUNCTION = """
CREATE OR REPLACE FUNCTION varroom_stills_append_only() RETURNS trigger AS $$
BEGIN
    RAISE EXCEPTION '% is append-only', TG_TABLE_NAME;
END;
$$ LANGUAGE plpgsql
"""


def downgrade() -> None:
    dialect = op.get_bind().dialect.name
    for table in _APPEND_ONLY:
        if dialect == "sqlite":
            op.execute(f"DROP TRIGGER IF EXISTS {table}_append_only_update")
            op.execute(f"DROP TRIGGER IF EXISTS {table}_append_only_delete")
    if dialect == "postgresql":
        op.execute("DROP FUNCTION IF EXISTS varroom_stills_append_only() CASCADE")
    op.drop_table("still_decisions")
    op.drop_table("still_marks")
    op.drop_table("stills")
