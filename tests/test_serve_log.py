"""`varroom serve`: the decision log holds against every SQL route on SQLite, and its hash
chain shows what was changed past the triggers (`varroom verify-log`).

The same routes on PostgreSQL are in test_serve_postgres.py (it starts the cluster); every
kind of change past the triggers, on every log table, in test_serve_tamper.py."""

from __future__ import annotations

import json
import sqlite3
import subprocess
import sys
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from alembic import command
from hypothesis import given, settings
from hypothesis import strategies as st

with warnings.catch_warnings():
    warnings.simplefilter("ignore")  # starlette's note about httpx versions
    from fastapi.testclient import TestClient

from varroom.serve import create_app, db
from varroom.serve.chain import CHAINED, GENESIS, entry_hash, load_key, verify
from varroom.serve.verify import LogTampered, verify_log

ROOT = Path(__file__).resolve().parent.parent
KANE = json.loads((ROOT / "examples" / "tottenham-sporting-2022-kane.json").read_text())

# What SQLite's REPLACE / INSERT OR REPLACE / UPSERT / UPDATE OR REPLACE would do to entry 1.
_COLUMNS = "situation_id, created_at, reviewer, decision, outcome, engine_status, duration_s, facts_json, verdict_json, client_ref"
_REWRITTEN = _COLUMNS.replace("outcome", "'no_offence'")
SQLITE_ROUTES = {
    "update": "UPDATE decisions SET outcome = 'no_offence' WHERE id = 1",
    "delete": "DELETE FROM decisions WHERE id = 1",
    "delete all": "DELETE FROM decisions",
    "insert or replace (same id)": f"INSERT OR REPLACE INTO decisions (id, {_COLUMNS}) "
    f"SELECT id, {_REWRITTEN} FROM decisions WHERE id = 1",
    "replace (same reviewer and client_ref)": f"REPLACE INTO decisions ({_COLUMNS}) "
    f"SELECT {_REWRITTEN} FROM decisions WHERE id = 1",
    "upsert": f"INSERT INTO decisions (id, {_COLUMNS}) SELECT id, {_COLUMNS} FROM decisions "
    "WHERE id = 1 ON CONFLICT (id) DO UPDATE SET outcome = 'no_offence'",
    "update or replace": "UPDATE OR REPLACE decisions SET id = 2 WHERE id = 1",
}


@pytest.fixture
def logged(tmp_path: Path) -> Iterator[Path]:
    """A data folder whose log holds three decisions (with client refs); the room closed."""
    data = tmp_path / "data"
    app = create_app(None, None, data)
    with TestClient(app, base_url="http://127.0.0.1") as room:
        sid = room.post("/api/situations", json=KANE).json()["id"]
        for i, decision in enumerate(["confirm", "no_offence", "offside"]):
            body = {"reviewer": "Ana", "decision": decision, "duration_s": 4 + i / 3}
            answer = room.post(
                f"/api/situations/{sid}/decisions", json={**body, "client_ref": f"r{i}"}
            )
            assert answer.status_code == 201
    yield data / "varroom.db"


def rows(path: Path) -> list[tuple[Any, ...]]:
    with sqlite3.connect(path) as conn:
        return conn.execute("SELECT * FROM decisions ORDER BY id").fetchall()


@pytest.mark.parametrize("statement", SQLITE_ROUTES.values(), ids=SQLITE_ROUTES.keys())
def test_sqlite_refuses_every_route_to_rewrite_the_log(logged: Path, statement: str) -> None:
    before = rows(logged)
    # A plain connection, as anyone with the file would open it: none of the server's pragmas.
    conn = sqlite3.connect(logged)
    try:
        with pytest.raises(sqlite3.DatabaseError, match="append-only"):
            conn.execute(statement)
        conn.commit()
    finally:
        conn.close()
    assert rows(logged) == before
    assert verify_log(data_dir=logged.parent).startswith(
        "decision log: 3 entries, hash chain intact; newest hash "
    )


def drop_triggers(path: Path) -> None:
    """What only someone with the file can do, and the triggers cannot stop."""
    with sqlite3.connect(path) as conn:
        for (name,) in conn.execute("SELECT name FROM sqlite_master WHERE type = 'trigger'"):
            conn.execute(f"DROP TRIGGER {name}")


@pytest.mark.parametrize(
    ("statement", "found"),
    [
        (
            "UPDATE decisions SET outcome = 'offside' WHERE id = 2",
            "decisions row 2: does not match its keyed hash",
        ),
        ("DELETE FROM decisions WHERE id = 2", "decisions row 3: does not follow row 1 before it"),
    ],
    ids=["changed", "removed"],
)
def test_an_entry_changed_or_removed_past_the_triggers_is_found(
    logged: Path, statement: str, found: str
) -> None:
    drop_triggers(logged)
    with sqlite3.connect(logged) as conn:
        conn.execute(statement)
    with pytest.raises(LogTampered, match=found):
        verify_log(data_dir=logged.parent)


def test_verify_log_on_the_command_line(logged: Path) -> None:
    command_line = [
        sys.executable,
        "-c",
        "from varroom.cli import main; main()",
        "verify-log",
        "--data-dir",
        str(logged.parent),
    ]
    good = subprocess.run(command_line, capture_output=True, text=True, timeout=60)
    newest = rows(logged)[-1][-1]
    assert good.returncode == 0
    assert good.stdout.splitlines() == [
        f"decision log: 3 entries, hash chain intact; newest hash {newest}",
        "other log tables, intact: still_marks 0, still_decisions 0, facts_history 1, "
        "log_acknowledgements 0; checked against 1 checkpoints",
    ]
    drop_triggers(logged)
    with sqlite3.connect(logged) as conn:
        conn.execute("UPDATE decisions SET note = 'nothing to see' WHERE id = 3")
    bad = subprocess.run(command_line, capture_output=True, text=True, timeout=60)
    assert bad.returncode == 3
    assert bad.stderr.strip().splitlines() == [
        "varroom: the log was altered: decisions row 3: does not match its keyed hash: changed "
        "after it was written, or written without the key"
    ]


def _log_before_the_chain(path: Path) -> None:
    """A database at 0001 with three decisions, as a room wrote it before the chain."""
    engine = db.make_engine(f"sqlite:///{path}")
    with engine.begin() as conn:
        command.upgrade(db.alembic_config(conn), "0001")
        conn.execute(
            sa.text("INSERT INTO audits VALUES ('a', 't', 't', 'p', 'done', 1, 0, 0, NULL, '[]')")
        )
        conn.execute(
            sa.text(
                "INSERT INTO situations (id, created_at, updated_at, title, origin, situation_json, "
                "facts_json, facts_version, engine_verdict_json, verdict_json, summary_json, status) "
                "VALUES (1, 't', 't', 'old', 'upload', '{}', '{}', 0, '{}', '{}', '{}', 'offence')"
            )
        )
        for i in range(3):
            conn.execute(
                sa.text(
                    f"INSERT INTO decisions ({_COLUMNS}, margin_m) VALUES "
                    f"(1, 't{i}', 'Old', 'offside', 'offside', 'offence', {i}, '{{}}', '{{}}', NULL, 0)"
                )
            )
    engine.dispose()


def test_the_upgrades_chain_a_log_written_before_the_chain_then_key_it(tmp_path: Path) -> None:
    path = tmp_path / "old.db"
    _log_before_the_chain(path)
    key_file = tmp_path / "log.key"
    key = load_key(key_file, create=True)
    engine = db.make_engine(f"sqlite:///{path}")
    db.migrate(engine, key)
    engine.dispose()
    said = verify_log(f"sqlite:///{path}", tmp_path, log_key=key_file)
    assert "3 entries, hash chain intact" in said
    assert "facts_history 1" in said  # the old situation's state, recorded by the upgrade
    with pytest.raises(sqlite3.DatabaseError, match="append-only"), sqlite3.connect(path) as conn:
        conn.execute("UPDATE decisions SET outcome = 'no_offence'")  # the triggers came back


def test_the_upgrade_to_a_keyed_log_stops_on_a_first_chain_that_does_not_verify(
    tmp_path: Path,
) -> None:
    # Chaining such a log again under the key would vouch for the change.
    path = tmp_path / "old.db"
    _log_before_the_chain(path)
    engine = db.make_engine(f"sqlite:///{path}")
    with engine.begin() as conn:
        command.upgrade(db.alembic_config(conn), "0005")
    drop_triggers(path)
    with sqlite3.connect(path) as conn:
        conn.execute("UPDATE decisions SET outcome = 'no_offence' WHERE id = 2")
    with pytest.raises(LogTampered, match="entry 2 does not match its hash") as found:
        db.migrate(engine, b"k" * 32)
    engine.dispose()
    assert found.value.exit_code == 3


def test_verify_log_neither_makes_nor_upgrades_a_database(tmp_path: Path) -> None:
    with pytest.raises(Exception, match="no review room database"):
        verify_log(data_dir=tmp_path)
    assert list(tmp_path.iterdir()) == []


# -- the chain itself ------------------------------------------------------------------------

entries = st.lists(
    st.fixed_dictionaries(
        {
            "situation_id": st.integers(1, 9),
            "created_at": st.text(max_size=5),
            "reviewer": st.text(min_size=1, max_size=5),
            "decision": st.sampled_from(["confirm", "offside", "no_offence"]),
            "outcome": st.sampled_from(["offside", "no_offence"]),
            "engine_status": st.sampled_from(["offence", "no_offence", "undecidable"]),
            "engine_offender": st.none() | st.text(max_size=5),
            "margin_m": st.none() | st.floats(-5, 5),
            "duration_s": st.floats(0, 100),
            "facts_json": st.just("{}"),
            "verdict_json": st.just("{}"),
            "corrects": st.none() | st.integers(1, 9),
            "client_ref": st.none() | st.text(max_size=5),
            "note": st.none() | st.text(max_size=5),
            "conflicts_with": st.none() | st.just("[1]"),
        }
    ),
    min_size=1,
    max_size=6,
)


def chained(log: list[dict[str, Any]]) -> list[dict[str, Any]]:
    previous, out = GENESIS, []
    for i, entry in enumerate(log, start=1):
        row = {**entry, "id": i, "prev_hash": previous}
        row["entry_hash"] = previous = entry_hash(previous, row)
        out.append(row)
    return out


@settings(max_examples=60, deadline=None)
@given(entries, st.data())
def test_any_change_to_any_entry_is_found(log: list[dict[str, Any]], data: st.DataObject) -> None:
    rows = chained(log)
    check = verify(rows)
    assert check.intact and check.entries == len(rows)
    assert check.last_hash == rows[-1]["entry_hash"]
    victim = data.draw(st.integers(0, len(rows) - 1))
    column = data.draw(st.sampled_from(CHAINED))
    changed = [dict(r) for r in rows]
    value = changed[victim][column]
    numeric = column in ("situation_id", "margin_m", "duration_s", "corrects")
    changed[victim][column] = (value or 0) + 1 if numeric else f"{value or ''}x"
    check = verify(changed)
    assert not check.intact and check.broken_at == victim + 1
    if len(rows) > 1:  # an entry taken out breaks the link of the one after it
        removed = rows[:victim] + rows[victim + 1 :]
        if victim < len(rows) - 1:
            assert verify(removed).broken_at == rows[victim + 1]["id"]
