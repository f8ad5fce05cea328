"""Competition profiles: the profile each incident is judged under.

`situations.profile` is the name of the profile an incident was queued under (the room's
default, `varroom serve --profile`, or the one its upload named); facts set later, its
picture and a still's marks are judged under it again. The verdicts themselves record the
profile's name and the hash of its content. NULL: an incident queued before profiles, judged
under the Laws as written (`ifab`).
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"


def upgrade() -> None:
    # A plain ALTER, not a copy of the table (as in 0003). Text: a profile file names itself,
    # at any length.
    with op.batch_alter_table("situations", recreate="never") as batch:
        batch.add_column(sa.Column("profile", sa.Text, nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("situations", recreate="never") as batch:
        batch.drop_column("profile")
