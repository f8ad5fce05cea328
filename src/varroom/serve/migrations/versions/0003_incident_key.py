"""One incident per match moment: re-auditing the same files adds none twice.

`situations.incident_key` is the natural key of an incident an audit found (its match, kind
and moment; `varroom.serve.audit.incident_key`), unique; uploads have none (NULL, which a
unique index allows any number of on both databases). `audits.incidents_known` counts the
incidents an audit found that were in the queue already.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"


def upgrade() -> None:
    # Plain ALTERs, not a copy of the table (as in 0002).
    with op.batch_alter_table("situations", recreate="never") as batch:
        batch.add_column(sa.Column("incident_key", sa.String(64), nullable=True))
    op.create_index("ux_situations_incident_key", "situations", ["incident_key"], unique=True)
    with op.batch_alter_table("audits", recreate="never") as batch:
        batch.add_column(
            sa.Column("incidents_known", sa.Integer, nullable=False, server_default="0")
        )


def downgrade() -> None:
    op.drop_index("ux_situations_incident_key", "situations")
    with op.batch_alter_table("situations", recreate="never") as batch:
        batch.drop_column("incident_key")
    with op.batch_alter_table("audits", recreate="never") as batch:
        batch.drop_column("incidents_known")
