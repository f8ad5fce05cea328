"""Alembic environment for the review room's database.

Run from code (`varroom.serve.db.migrate`), which hands over an open connection in
`config.attributes["connection"]`; from the command line (`alembic -x url=...`) the URL is
taken from `-x url=` or the `sqlalchemy.url` option. There is no alembic.ini to find.
"""

from __future__ import annotations

from alembic import context
from sqlalchemy import create_engine, pool

config = context.config


def _run(connection) -> None:  # type: ignore[no-untyped-def]
    context.configure(
        connection=connection,
        target_metadata=None,
        render_as_batch=connection.dialect.name == "sqlite",
    )
    with context.begin_transaction():
        context.run_migrations()


def run_migrations_online() -> None:
    connection = config.attributes.get("connection")
    if connection is not None:
        _run(connection)
        return
    url = context.get_x_argument(as_dictionary=True).get("url") or config.get_main_option(
        "sqlalchemy.url"
    )
    if not url:
        raise RuntimeError("alembic: give the database as -x url=... or sqlalchemy.url")
    engine = create_engine(url, poolclass=pool.NullPool)
    with engine.connect() as connection:
        _run(connection)


def run_migrations_offline() -> None:
    context.configure(
        url=config.get_main_option("sqlalchemy.url"),
        target_metadata=None,
        literal_binds=True,
        dialect_opts={"paramstyle": "named"},
    )
    with context.begin_transaction():
        context.run_migrations()


if context.is_offline_mode():
    run_migrations_offline()
else:
    run_migrations_online()
