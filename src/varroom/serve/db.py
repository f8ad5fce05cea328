"""The review room's database: SQLAlchemy Core tables, the engine, migrations.

The schema is made by the Alembic scripts in `migrations/` (run by `migrate` at startup);
the tables below describe it for queries and must follow those scripts. SQLite (the default,
one file in the data folder) and PostgreSQL go through the same code.

The log is append-only: the code only ever INSERTs into its tables (`chain.LOG_TABLES`), and
the migrations add triggers that make the database refuse every other change to them (UPDATE,
DELETE, TRUNCATE, REPLACE, UPSERT, MERGE); each row carries a keyed hash chained to the one
before (`chain.py`), so that a change made past the triggers shows.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Iterator
from contextlib import AbstractContextManager, contextmanager, nullcontext
from pathlib import Path
from typing import Any

import sqlalchemy as sa
from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import exc as sa_exc
from sqlalchemy.engine import Engine
from sqlalchemy.pool import StaticPool

from varroom.errors import VarroomError
from varroom.serve.config import PRIVATE_FILE

MIGRATIONS = Path(__file__).resolve().parent / "migrations"

metadata = sa.MetaData()


# What a column holds, stated once here; the migrations, frozen, spell each one out.
def _serial() -> sa.Column[int]:
    """A row's own number, given by the database."""
    return sa.Column("id", sa.Integer, primary_key=True, autoincrement=True)


def _stamp(name: str) -> sa.Column[str]:
    """A time in ISO 8601, UTC."""
    return sa.Column(name, sa.String(40), nullable=False)


def _document(name: str) -> sa.Column[str]:
    """A JSON document (`*_json`)."""
    return sa.Column(name, sa.Text, nullable=False)


def _required(name: str, type_: Any, *args: Any, **kwargs: Any) -> sa.Column[Any]:
    return sa.Column(name, type_, *args, nullable=False, **kwargs)


def _chain() -> tuple[sa.Column[str], sa.Column[str]]:
    """A log row's link to the one before and its own keyed hash (`chain.py`)."""
    return sa.Column("prev_hash", sa.String(64)), sa.Column("entry_hash", sa.String(64))


audits = sa.Table(
    "audits",
    metadata,
    sa.Column("id", sa.String(32), primary_key=True),
    _stamp("created_at"),
    _stamp("updated_at"),
    _required("provider", sa.String(40)),
    _required("state", sa.String(20)),
    _required("progress", sa.Float),
    _required("incidents_added", sa.Integer),
    _required("incidents_rejected", sa.Integer),
    _required("incidents_known", sa.Integer, server_default="0"),
    sa.Column("error", sa.Text),
    _document("files_json"),
)

situations = sa.Table(
    "situations",
    metadata,
    _serial(),
    _stamp("created_at"),
    _stamp("updated_at"),
    _required("title", sa.String(300)),
    sa.Column("source_name", sa.String(300)),
    _required("origin", sa.String(20)),
    sa.Column("audit_id", sa.String(32), sa.ForeignKey("audits.id")),
    _document("situation_json"),
    _document("facts_json"),
    _required("facts_version", sa.Integer),
    _document("engine_verdict_json"),
    _document("verdict_json"),
    _document("summary_json"),
    _required("status", sa.String(20)),
    # An audit's incident: its match, kind and moment (`serve.audit.incident_key`); uploads none.
    sa.Column("incident_key", sa.String(64), unique=True),
    # The profile it is judged under (migration 0005); NULL: queued before profiles (ifab).
    sa.Column("profile", sa.Text),
)

decisions = sa.Table(
    "decisions",
    metadata,
    _serial(),
    _required("situation_id", sa.Integer, sa.ForeignKey("situations.id")),
    _stamp("created_at"),
    _required("reviewer", sa.String(80)),
    _required("decision", sa.String(20)),
    _required("outcome", sa.String(20)),
    _required("engine_status", sa.String(20)),
    sa.Column("engine_offender", sa.String(200)),
    sa.Column("margin_m", sa.Float),
    _required("duration_s", sa.Float),
    _document("facts_json"),
    _document("verdict_json"),
    sa.Column("corrects", sa.Integer, sa.ForeignKey("decisions.id")),
    sa.Column("client_ref", sa.String(100)),
    sa.Column("note", sa.Text),
    sa.Column("conflicts_with", sa.Text),
    *_chain(),
)

# Stills (migration 0004): a broadcast picture, the marks set on it (each save a new row: the
# marks a decision was judged on never change), and which marks each decision rests on.
stills = sa.Table(
    "stills",
    metadata,
    _serial(),
    _stamp("created_at"),
    sa.Column("source_name", sa.String(300)),
    _required("media_type", sa.String(20)),
    _required("width", sa.Integer),
    _required("height", sa.Integer),
    _required("sha256", sa.String(64)),
    sa.Column("situation_id", sa.Integer, sa.ForeignKey("situations.id"), unique=True),
)

still_marks = sa.Table(
    "still_marks",
    metadata,
    _serial(),
    _required("still_id", sa.Integer, sa.ForeignKey("stills.id")),
    _stamp("created_at"),
    _required("facts_version", sa.Integer),
    _document("marks_json"),
    *_chain(),
)

still_decisions = sa.Table(
    "still_decisions",
    metadata,
    sa.Column("decision_id", sa.Integer, primary_key=True),  # a decisions.id (see 0004)
    _required("marks_id", sa.Integer, sa.ForeignKey("still_marks.id")),
    *_chain(),
)

# The log of each situation's states (migration 0006): a row each time its facts (or, for a
# still, its marks) change, and at its upload, with the digest of all its columns then.
facts_history = sa.Table(
    "facts_history",
    metadata,
    _serial(),
    _required("situation_id", sa.Integer, sa.ForeignKey("situations.id")),
    _required("facts_version", sa.Integer),
    _stamp("created_at"),
    _document("facts_json"),
    _required("state_sha256", sa.String(64)),
    *_chain(),
)

# A broken log, acknowledged (`varroom verify-log --acknowledge`): one row per problem found.
log_acknowledgements = sa.Table(
    "log_acknowledgements",
    metadata,
    _serial(),
    _stamp("created_at"),
    _required("acknowledged_by", sa.String(200)),
    _required("log_table", sa.String(40)),
    sa.Column("row_id", sa.Integer),
    _required("problem", sa.Text),
    *_chain(),
)


def default_url(data_dir: str | os.PathLike[str]) -> str:
    return f"sqlite:///{Path(data_dir).resolve() / 'varroom.db'}"


def open_database(
    url: str, *, upgrade: bool = True, log_key: bytes | None = None
) -> tuple[Engine, str]:
    """The engine for `url` and its schema revision, migrated to the newest unless not
    `upgrade` (`log_key`: what migration 0006 chains an existing log under); a VarroomError
    (the URL without its password) when it cannot be used."""
    with usable(url):
        engine = make_engine(url)
        return engine, migrate(engine, log_key) if upgrade else current_revision(engine)


@contextmanager
def usable(url: str) -> Iterator[None]:
    """The database's failures to open or migrate as a VarroomError naming it."""
    try:
        yield
    except (ImportError, sa_exc.ArgumentError, sa_exc.NoSuchModuleError) as error:
        raise VarroomError(f"cannot use the database {safe_url(url)}: {error}") from None
    except sa_exc.OperationalError as error:
        raise VarroomError(f"cannot open the database {safe_url(url)}: {error.orig}") from None
    except OSError as error:  # making the SQLite file (a folder there, no permission)
        raise VarroomError(f"cannot open the database {safe_url(url)}: {error.strerror}") from None


def safe_url(url: str) -> str:
    """The URL without its password, for messages."""
    try:
        return sa.make_url(url).render_as_string(hide_password=True)
    except Exception:
        return "(unreadable URL)"


def make_engine(url: str) -> Engine:
    """An engine for `url`; SQLite gets WAL, a busy timeout and foreign keys."""
    parsed = sa.make_url(url)
    if parsed.get_backend_name() != "sqlite":
        return sa.create_engine(url, pool_pre_ping=True, pool_size=10, max_overflow=20)
    memory = parsed.database in (None, "", ":memory:")
    if parsed.database and not memory:
        path = Path(parsed.database)
        path.parent.mkdir(parents=True, exist_ok=True)
        # Made here, before SQLite makes it 0644: its -wal and -shm files take its mode.
        os.close(os.open(path, os.O_CREAT | os.O_WRONLY, PRIVATE_FILE))
    engine = sa.create_engine(
        url,
        connect_args={"check_same_thread": False, "timeout": 30},
        **({"poolclass": StaticPool} if memory else {"pool_size": 10, "max_overflow": 20}),
    )

    @sa.event.listens_for(engine, "connect")
    def _pragmas(dbapi_connection: Any, _record: Any) -> None:
        cursor = dbapi_connection.cursor()
        if not memory:
            cursor.execute("PRAGMA journal_mode=WAL")
        cursor.execute("PRAGMA foreign_keys=ON")
        cursor.execute("PRAGMA busy_timeout=30000")
        cursor.close()

    return engine


def write_lock(engine: Engine) -> AbstractContextManager[Any]:
    """SQLite takes one writer at a time: queue writers here rather than retry on 'locked'."""
    if engine.dialect.name == "sqlite":
        lock: threading.Lock = engine.__dict__.setdefault("_varroom_write_lock", threading.Lock())
        return lock
    return nullcontext()


def lock_log(conn: sa.Connection) -> None:
    """Hold the log's ends until this transaction ends, so that rows chain in order. SQLite has one writer at a time already (`write_lock`); PostgreSQL takes a
    transaction advisory lock."""
    if conn.dialect.name == "postgresql":
        conn.execute(sa.text("SELECT pg_advisory_xact_lock(:key)"), {"key": _LOG_LOCK})


# Any number that no other user of the database takes as an advisory lock: "VARD" in ASCII.
_LOG_LOCK = 0x56415244


def alembic_config(connection: sa.Connection | None = None, log_key: bytes | None = None) -> Config:
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    if connection is not None:
        config.attributes["connection"] = connection
    config.attributes["log_key"] = log_key
    return config


def migrate(engine: Engine, log_key: bytes | None = None) -> str:
    """Bring the schema up to the newest migration; returns the revision now in place.
    `log_key`: the key 0006 chains the log already written under (none needed for an empty
    one)."""
    with engine.begin() as connection:
        command.upgrade(alembic_config(connection, log_key), "head")
    return current_revision(engine)


def current_revision(engine: Engine) -> str:
    with engine.connect() as connection:
        return MigrationContext.configure(connection).get_current_revision() or ""


def head_revision() -> str:
    return ScriptDirectory.from_config(alembic_config()).get_current_head() or ""
