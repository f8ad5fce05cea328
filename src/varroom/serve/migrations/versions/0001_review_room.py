"""The review room: the queue of situations, the decision log, match audits."""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None

_SQLITE_APPEND_ONLY = [
    """CREATE TRIGGER decisions_append_only_update BEFORE UPDATE ON decisions
       BEGIN SELECT RAISE(ABORT, 'decisions are append-only: record a correction'); END""",
    """CREATE TRIGGER decisions_append_only_delete BEFORE DELETE ON decisions
       BEGIN SELECT RAISE(ABORT, 'decisions are append-only: record a correction'); END""",
]

_POSTGRES_APPEND_ONLY = [
    """CREATE FUNCTION varroom_decisions_append_only() RETURNS trigger AS $$
       BEGIN RAISE EXCEPTION 'decisions are append-only: record a correction'; END;
       $$ LANGUAGE plpgsql""",
    """CREATE TRIGGER decisions_append_only BEFORE UPDATE OR DELETE ON decisions
       FOR EACH ROW EXECUTE FUNCTION varroom_decisions_append_only()""",
    """CREATE TRIGGER decisions_append_only_truncate BEFORE TRUNCATE ON decisions
       FOR EACH STATEMENT EXECUTE FUNCTION varroom_decisions_append_only()""",
]


def upgrade() -> None:
    op.create_table(
        "audits",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("created_at", sa.String(40), nullable=False),
        sa.Column("updated_at", sa.String(40), nullable=False),
        sa.Column("provider", sa.String(40), nullable=False),
        sa.Column("state", sa.String(20), nullable=False),
        sa.Column("progress", sa.Float, nullable=False, server_default="0"),
        sa.Column("incidents_added", sa.Integer, nullable=False, server_default="0"),
        sa.Column("incidents_rejected", sa.Integer, nullable=False, server_default="0"),
        sa.Column("error", sa.Text, nullable=True),
        sa.Column("files_json", sa.Text, nullable=False),
    )
    op.create_table(
        "situations",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("created_at", sa.String(40), nullable=False),
        sa.Column("updated_at", sa.String(40), nullable=False),
        sa.Column("title", sa.String(300), nullable=False),
        sa.Column("source_name", sa.String(300), nullable=True),
        sa.Column("origin", sa.String(20), nullable=False),
        sa.Column("audit_id", sa.String(32), sa.ForeignKey("audits.id"), nullable=True),
        sa.Column("situation_json", sa.Text, nullable=False),
        sa.Column("facts_json", sa.Text, nullable=False),
        sa.Column("facts_version", sa.Integer, nullable=False, server_default="0"),
        sa.Column("engine_verdict_json", sa.Text, nullable=False),
        sa.Column("verdict_json", sa.Text, nullable=False),
        sa.Column("summary_json", sa.Text, nullable=False),
        sa.Column("status", sa.String(20), nullable=False),
    )
    op.create_table(
        "decisions",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("situation_id", sa.Integer, sa.ForeignKey("situations.id"), nullable=False),
        sa.Column("created_at", sa.String(40), nullable=False),
        sa.Column("reviewer", sa.String(80), nullable=False),
        sa.Column("decision", sa.String(20), nullable=False),
        sa.Column("outcome", sa.String(20), nullable=False),
        sa.Column("engine_status", sa.String(20), nullable=False),
        sa.Column("engine_offender", sa.String(200), nullable=True),
        sa.Column("margin_m", sa.Float, nullable=True),
        sa.Column("duration_s", sa.Float, nullable=False),
        sa.Column("facts_json", sa.Text, nullable=False),
        sa.Column("verdict_json", sa.Text, nullable=False),
        sa.Column("corrects", sa.Integer, sa.ForeignKey("decisions.id"), nullable=True),
        sa.Column("client_ref", sa.String(100), nullable=True),
        sa.Column("note", sa.Text, nullable=True),
        sa.UniqueConstraint("reviewer", "client_ref", name="uq_decisions_reviewer_client_ref"),
    )
    op.create_index("ix_decisions_situation_id", "decisions", ["situation_id"])
    op.create_index("ix_situations_audit_id", "situations", ["audit_id"])
    dialect = op.get_bind().dialect.name
    statements = {"sqlite": _SQLITE_APPEND_ONLY, "postgresql": _POSTGRES_APPEND_ONLY}
    for statement in statements.get(dialect, []):
        op.execute(statement)


def downgrade() -> None:
    dialect = op.get_bind().dialect.name
    if dialect == "sqlite":
        op.execute("DROP TRIGGER IF EXISTS decisions_append_only_update")
        op.execute("DROP TRIGGER IF EXISTS decisions_append_only_delete")
    elif dialect == "postgresql":
        op.execute("DROP TRIGGER IF EXISTS decisions_append_only ON decisions")
        op.execute("DROP TRIGGER IF EXISTS decisions_append_only_truncate ON decisions")
        op.execute("DROP FUNCTION IF EXISTS varroom_decisions_append_only()")
    op.drop_index("ix_situations_audit_id", "situations")
    op.drop_index("ix_decisions_situation_id", "decisions")
    op.drop_table("decisions")
    op.drop_table("situations")
    op.drop_table("audits")
