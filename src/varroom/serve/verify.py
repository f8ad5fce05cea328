"""`varroom verify-log`: check a review room's decision log against its hash chain."""

from __future__ import annotations

import os
from pathlib import Path

import sqlalchemy as sa
from sqlalchemy.engine import Engine

from varroom.errors import VarroomError
from varroom.serve import db
from varroom.serve.chain import CHAINED, ChainCheck, verify
from varroom.serve.config import DEFAULT_DATA_DIR


class LogTampered(VarroomError):
    """The log does not verify: a change was made past the database's triggers."""

    exit_code = 3


def check_chain(engine: Engine) -> ChainCheck:
    """Walk the whole log in id order, streaming it."""
    d = db.decisions
    query = sa.select(d.c.id, d.c.prev_hash, d.c.entry_hash, *(d.c[c] for c in CHAINED))
    with engine.connect() as conn:
        rows = conn.execution_options(yield_per=1000).execute(query.order_by(d.c.id))
        return verify(rows.mappings())


def verify_log(
    db_url: str | None = None, data_dir: str | os.PathLike[str] = DEFAULT_DATA_DIR
) -> str:
    """One line saying the log verifies, with the newest entry's hash (kept elsewhere, it
    shows entries cut off the end); LogTampered naming the first entry that does not.

    Reads only: the database is neither made nor upgraded.
    """
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
        result = check_chain(engine)
    finally:
        engine.dispose()
    if not result.intact:
        raise LogTampered(
            f"decision log: entry {result.broken_at} {result.problem} "
            f"({result.entries - 1} entries before it verify)"
        )
    return (
        f"decision log: {result.entries} entries, hash chain intact; newest hash {result.last_hash}"
    )
