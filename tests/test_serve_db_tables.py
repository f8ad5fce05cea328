"""The review room's tables (`serve.db`) describe the schema the migrations make: every table
and column, its type, whether it may be NULL, its foreign keys, on SQLite and PostgreSQL."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

pytest.importorskip("sqlalchemy")
pytest.importorskip("alembic")

from alembic.autogenerate import compare_metadata  # noqa: E402
from alembic.runtime.migration import MigrationContext  # noqa: E402

from machine import Need  # noqa: E402
from postgres_cluster import throwaway_cluster  # noqa: E402
from varroom.serve import db  # noqa: E402

# Indexes and unique constraints are the migrations' own: queries never name them.
_SCHEMA_ONLY = {"add_index", "remove_index", "add_constraint", "remove_constraint"}


def _differences(url: str) -> list[object]:
    engine, _ = db.open_database(url)
    try:
        with engine.connect() as connection:
            context = MigrationContext.configure(
                connection, opts={"compare_type": True, "compare_server_default": False}
            )
            return [
                diff
                for diff in compare_metadata(context, db.metadata)
                if not (isinstance(diff, tuple) and diff[0] in _SCHEMA_ONLY)
                # Alembic's own table is not the room's.
                and not (
                    isinstance(diff, tuple) and getattr(diff[1], "name", "") == "alembic_version"
                )
            ]
    finally:
        engine.dispose()


def test_the_tables_are_the_schema_the_migrations_make_on_sqlite(tmp_path: Path) -> None:
    assert _differences(db.default_url(tmp_path)) == []


def test_a_changed_column_is_seen(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # The comparison itself can fail: a table that says a column may be NULL where the
    # migration made it NOT NULL is a difference.
    column = db.situations.c.title
    monkeypatch.setattr(column, "nullable", True)
    assert _differences(db.default_url(tmp_path)) != []


@pytest.fixture(scope="module")
def postgres_url() -> Iterator[str]:
    with throwaway_cluster() as cluster:
        yield cluster.url()


@pytest.mark.needs(Need.POSTGRESQL)
def test_the_tables_are_the_schema_the_migrations_make_on_postgres(postgres_url: str) -> None:
    assert _differences(postgres_url) == []
