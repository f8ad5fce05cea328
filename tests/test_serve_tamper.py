"""The review room's log catches every change made past the database's triggers: each kind of
direct alteration of a log table (update, delete, insert, renumber, reorder, the tail cut,
the chain recomputed without the key, a still's marks, a situation's facts, an older copy of
the database), reported by `varroom verify-log` (exit 3) and by `/api/health`, with the
table and the row; the room then takes no decision until the problem is acknowledged.

The same through a running `varroom serve`, and on PostgreSQL, at the end."""

from __future__ import annotations

import hashlib
import hmac
import itertools
import json
import os
import shutil
import sqlite3
import subprocess
import sys
import time
import warnings
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa

with warnings.catch_warnings():
    warnings.simplefilter("ignore")  # starlette's note about httpx versions
    from fastapi.testclient import TestClient

from machine import Need
from postgres_cluster import Cluster, throwaway_cluster
from varroom.serve import create_app, db
from varroom.serve.chain import (
    LOG_TABLES,
    SITUATION_STATE,
    LogKeyError,
    LogTampered,
    entry_hash,
)
from varroom.serve.verify import verify_log

ROOT = Path(__file__).resolve().parent.parent
KANE = json.loads((ROOT / "examples" / "tottenham-sporting-2022-kane.json").read_text())
STILL = ROOT / "examples" / "still" / "offside-by-20cm.png"
MARKS = json.loads((ROOT / "examples" / "still" / "offside-by-20cm.marks.json").read_text())
MOVED = {**MARKS, "marks": {**MARKS["marks"], "a9": {"pixel": [775.3, 511.6]}}}
CLI = [sys.executable, "-c", "from varroom.cli import main; main()"]


def decide(room: TestClient, path: str, reviewer: str, tag: str | None = None) -> Any:
    body = {"reviewer": reviewer, "decision": "confirm", "duration_s": 3.5}
    return room.post(path, json=body, headers={"if-match": tag} if tag else {})


@pytest.fixture(scope="module")
def pristine(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A data folder whose every log table holds rows: situation 1 with its facts set once
    and decisions 1-4 and 7 on it; still 1 (situation 2), marked twice, decisions 5 and 6 on
    its two marks. `older.db`: a copy of the database after decision 4."""
    data = tmp_path_factory.mktemp("pristine") / "data"
    with TestClient(create_app(None, None, data), base_url="http://127.0.0.1") as room:
        sid = room.post("/api/situations", json=KANE).json()["id"]
        flip = {"plays": [{"touch": 2, "kind": "deliberate_play"}]}
        assert room.post(f"/api/situations/{sid}/facts", json=flip).status_code == 200
        for reviewer in ("Ana", "Ben", "Cy", "Di"):
            assert decide(room, f"/api/situations/{sid}/decisions", reviewer).status_code == 201
        with (
            sqlite3.connect(data / "varroom.db") as live,
            sqlite3.connect(data / "older.db") as old,
        ):
            live.backup(old)
        still = room.post(
            "/api/stills", content=STILL.read_bytes(), headers={"content-type": "image/png"}
        ).json()["id"]
        assert room.put(f"/api/stills/{still}/marks", json=MARKS).status_code == 200
        assert decide(room, f"/api/stills/{still}/decisions", "Ana", '"f0"').status_code == 201
        moved = room.put(f"/api/stills/{still}/marks", json=MOVED, headers={"if-match": '"f0"'})
        assert moved.status_code == 200
        assert decide(room, f"/api/stills/{still}/decisions", "Ben", '"f1"').status_code == 201
        assert decide(room, f"/api/situations/{sid}/decisions", "Ed").status_code == 201
    return data


@pytest.fixture
def copied(pristine: Path, tmp_path: Path) -> Path:
    """A copy of the pristine data folder, its database's triggers dropped (what only someone
    with the file can do)."""
    data = tmp_path / "data"
    shutil.copytree(pristine, data)
    with sqlite3.connect(data / "varroom.db") as conn:
        for (name,) in conn.execute("SELECT name FROM sqlite_master WHERE type = 'trigger'"):
            conn.execute(f"DROP TRIGGER {name}")
    return data


def _rows(conn: sqlite3.Connection, table: str) -> list[dict[str, Any]]:
    conn.row_factory = sqlite3.Row
    key = LOG_TABLES[table][0]
    return [dict(r) for r in conn.execute(f"SELECT * FROM {table} ORDER BY {key}")]


def _rehash(
    conn: sqlite3.Connection, table: str, hash_of: Callable[[str, dict[str, Any]], str]
) -> None:
    """Chain the whole table again with `hash_of(prev, row)`: what one without the key can do."""
    key = LOG_TABLES[table][0]
    previous = "0" * 64
    for row in _rows(conn, table):
        current = hash_of(previous, row)
        conn.execute(
            f"UPDATE {table} SET prev_hash = ?, entry_hash = ? WHERE {key} = ?",
            (previous, current, row[key]),
        )
        previous = current


def _unkeyed(previous: str, row: dict[str, Any]) -> str:
    return entry_hash(previous, row)  # the first chain's SHA-256: no key


def _own_key(previous: str, row: dict[str, Any]) -> str:
    payload = json.dumps([previous, *(row[c] for c in LOG_TABLES["decisions"])])
    return hmac.new(b"a key of my own", payload.encode(), hashlib.sha256).hexdigest()


def _sql(*statements: str) -> Callable[[sqlite3.Connection, Path], None]:
    def run(conn: sqlite3.Connection, _data: Path) -> None:
        for statement in statements:
            conn.execute(statement)

    return run


def _recompute_without_the_key(conn: sqlite3.Connection, _data: Path) -> None:
    conn.execute("UPDATE decisions SET outcome = 'offside' WHERE id = 2")
    _rehash(conn, "decisions", _unkeyed)


def _recompute_under_another_key(conn: sqlite3.Connection, _data: Path) -> None:
    conn.execute("UPDATE decisions SET outcome = 'offside' WHERE id = 2")
    _rehash(conn, "decisions", _own_key)


def _forge_a_decision(conn: sqlite3.Connection, _data: Path) -> None:
    last = _rows(conn, "decisions")[-1]
    forged = {
        **last,
        "id": 8,
        "reviewer": "Forger",
        "client_ref": None,
        "prev_hash": last["entry_hash"],
    }
    forged["entry_hash"] = _unkeyed(last["entry_hash"], forged)
    columns = ", ".join(forged)
    conn.execute(
        f"INSERT INTO decisions ({columns}) VALUES ({', '.join('?' * len(forged))})",
        list(forged.values()),
    )


def _cut_three_and_write_three(conn: sqlite3.Connection, _data: Path) -> None:
    rows = _rows(conn, "decisions")
    conn.execute("DELETE FROM decisions WHERE id >= 5")
    previous = rows[3]["entry_hash"]
    for row in rows[4:]:
        new = {**row, "note": "rewritten", "prev_hash": previous}
        new["entry_hash"] = previous = _own_key(previous, new)
        conn.execute(
            f"INSERT INTO decisions ({', '.join(new)}) VALUES ({', '.join('?' * len(new))})",
            list(new.values()),
        )


def _swap_two_decisions(conn: sqlite3.Connection, _data: Path) -> None:
    conn.execute("UPDATE decisions SET id = 1000 WHERE id = 2")
    conn.execute("UPDATE decisions SET id = 2 WHERE id = 3")
    conn.execute("UPDATE decisions SET id = 3 WHERE id = 1000")


def _older_copy(conn: sqlite3.Connection, data: Path) -> None:
    with sqlite3.connect(data / "older.db") as old:
        old.backup(conn)


def _forged_checkpoint(_conn: sqlite3.Connection, data: Path) -> None:
    room = json.loads((data / "checkpoints" / "room.json").read_text())
    room["tables"]["decisions"]["count"] = 2
    (data / "checkpoints" / "evil.json").write_text(json.dumps(room))


def _forged_acknowledgement(conn: sqlite3.Connection, _data: Path) -> None:
    conn.execute(
        "INSERT INTO log_acknowledgements (id, created_at, acknowledged_by, log_table, row_id, "
        "problem, prev_hash, entry_hash) VALUES (1, 't', 'me', 'decisions', 2, 'fine', ?, ?)",
        ("0" * 64, "1" * 64),
    )


# Each kind of alteration, and the table and row it must be reported at.
ALTERATIONS: dict[str, tuple[Callable[[sqlite3.Connection, Path], None], str, int | None]] = {
    "update a decision": (
        _sql("UPDATE decisions SET outcome = 'offside' WHERE id = 2"),
        "decisions",
        2,
    ),
    "update the newest decision's note": (
        _sql("UPDATE decisions SET note = 'nothing to see' WHERE id = 7"),
        "decisions",
        7,
    ),
    "update a decision's hashes": (
        _sql("UPDATE decisions SET entry_hash = prev_hash WHERE id = 3"),
        "decisions",
        3,
    ),
    "delete a decision": (_sql("DELETE FROM decisions WHERE id = 3"), "decisions", 4),
    "delete the newest decision": (_sql("DELETE FROM decisions WHERE id = 7"), "decisions", 7),
    "cut the last three decisions": (_sql("DELETE FROM decisions WHERE id >= 5"), "decisions", 7),
    "empty the log": (_sql("DELETE FROM decisions"), "decisions", 7),
    "insert a decision hashed without the key": (_forge_a_decision, "decisions", 8),
    "renumber every decision": (_sql("UPDATE decisions SET id = id + 100"), "decisions", 101),
    "renumber one decision": (_sql("UPDATE decisions SET id = 50 WHERE id = 7"), "decisions", 50),
    "reorder two decisions": (_swap_two_decisions, "decisions", 2),
    "recompute the chain without the key": (_recompute_without_the_key, "decisions", 1),
    "recompute the chain under another key": (_recompute_under_another_key, "decisions", 1),
    "cut three decisions and write three new": (_cut_three_and_write_three, "decisions", 5),
    "an older copy of the database": (_older_copy, "decisions", 7),
    "edit a still's marks": (
        _sql("UPDATE still_marks SET marks_json = '{}' WHERE id = 1"),
        "still_marks",
        1,
    ),
    "delete a still's newest marks": (
        _sql("DELETE FROM still_marks WHERE id = 2"),
        "still_marks",
        2,
    ),
    "point a still decision at other marks": (
        _sql("UPDATE still_decisions SET marks_id = 2 WHERE decision_id = 5"),
        "still_decisions",
        5,
    ),
    "insert or replace a still decision": (
        _sql(
            "INSERT OR REPLACE INTO still_decisions SELECT decision_id, 1, prev_hash, entry_hash "
            "FROM still_decisions WHERE decision_id = 6"
        ),
        "still_decisions",
        6,
    ),
    "delete a still decision": (
        _sql("DELETE FROM still_decisions WHERE decision_id = 5"),
        "still_decisions",
        6,
    ),
    "edit a situation's facts": (
        _sql("UPDATE situations SET facts_json = '{\"plays\": []}' WHERE id = 1"),
        "situations",
        1,
    ),
    "edit a situation as uploaded": (
        _sql("UPDATE situations SET situation_json = replace(situation_json, 'kane', 'kain')"),
        "situations",
        1,
    ),
    "set a situation's facts a version back": (
        _sql("UPDATE situations SET facts_version = 0 WHERE id = 1"),
        "situations",
        1,
    ),
    "edit the facts history": (
        _sql("UPDATE facts_history SET facts_json = '{}' WHERE id = 1"),
        "facts_history",
        1,
    ),
    "delete a situation's newest facts": (
        _sql("DELETE FROM facts_history WHERE id = (SELECT max(id) FROM facts_history)"),
        "facts_history",
        4,
    ),
    "forge an acknowledgement": (_forged_acknowledgement, "log_acknowledgements", 1),
    "forge a checkpoint": (_forged_checkpoint, "checkpoint evil.json", None),
}


def _alter(data: Path, alteration: Callable[[sqlite3.Connection, Path], None]) -> None:
    conn = sqlite3.connect(data / "varroom.db")
    try:
        alteration(conn, data)
        conn.commit()
    finally:
        conn.close()


@pytest.mark.parametrize(
    ("alteration", "table", "row"), ALTERATIONS.values(), ids=ALTERATIONS.keys()
)
def test_every_alteration_is_reported_with_its_table_and_row(
    copied: Path,
    alteration: Callable[[sqlite3.Connection, Path], None],
    table: str,
    row: int | None,
) -> None:
    assert "hash chain intact" in verify_log(data_dir=copied)
    _alter(copied, alteration)
    where = table if row is None else f"{table} row {row}"
    with pytest.raises(LogTampered, match=f"the log was altered: .*{where}: ") as found:
        verify_log(data_dir=copied)
    assert found.value.exit_code == 3
    with TestClient(create_app(None, None, copied), base_url="http://127.0.0.1") as room:
        health = room.get("/api/health").json()
        assert health["chain"] == "broken" and health["decisions_accepted"] is False
        assert {"table": table, "row": row} in [
            {"table": p["table"], "row": p["row"]} for p in health["chain_problems"]
        ]
        refused = decide(room, "/api/situations/1/decisions", "Fay")
        assert refused.status_code == 503, refused.text
        assert refused.json()["chain"] == "broken"
        assert "varroom verify-log --acknowledge" in refused.json()["error"]


def test_at_least_twenty_kinds_of_alteration() -> None:
    assert len(ALTERATIONS) >= 20


def test_every_column_of_every_log_table_is_chained() -> None:
    # A column added to a log table (or a situation) without adding it here would go unseen.
    for name, chained in LOG_TABLES.items():
        assert {*chained, "prev_hash", "entry_hash"} == set(db.metadata.tables[name].c.keys())
    assert set(SITUATION_STATE) == set(db.situations.c.keys())


def test_the_sqlite_triggers_refuse_insert_or_replace_into_the_still_tables(
    pristine: Path, tmp_path: Path
) -> None:
    shutil.copytree(pristine, tmp_path / "data")
    conn = sqlite3.connect(tmp_path / "data" / "varroom.db")
    try:
        for statement in (
            "INSERT OR REPLACE INTO still_decisions SELECT decision_id, 1, prev_hash, entry_hash "
            "FROM still_decisions WHERE decision_id = 6",
            "REPLACE INTO still_marks (still_id, created_at, facts_version, marks_json) "
            "VALUES (1, 't', 0, '{}')",
            "INSERT OR REPLACE INTO facts_history SELECT * FROM facts_history WHERE id = 1",
        ):
            with pytest.raises(sqlite3.DatabaseError, match="append-only"):
                conn.execute(statement)
    finally:
        conn.close()


def test_a_still_decision_sent_again_keeps_the_marks_it_was_made_on(tmp_path: Path) -> None:
    with TestClient(create_app(None, None, tmp_path / "data"), base_url="http://127.0.0.1") as room:
        still = room.post(
            "/api/stills", content=STILL.read_bytes(), headers={"content-type": "image/png"}
        ).json()["id"]
        first_marks = room.put(f"/api/stills/{still}/marks", json=MARKS).json()["marks_id"]
        body = {"reviewer": "Ana", "decision": "confirm", "duration_s": 2, "client_ref": "x1"}
        path = f"/api/stills/{still}/decisions"
        first = room.post(path, json=body, headers={"if-match": '"f0"'})
        room.put(f"/api/stills/{still}/marks", json=MOVED, headers={"if-match": '"f0"'})
        again = room.post(path, json=body, headers={"if-match": '"f1"'})
        assert (first.status_code, again.status_code) == (201, 200)
        assert again.json()["marks_id"] == first.json()["marks_id"] == first_marks
        assert again.json()["marks"] == MARKS
    assert "still_decisions 1" in verify_log(data_dir=tmp_path / "data")


def test_a_key_open_to_others_or_gone_is_refused_not_replaced(
    pristine: Path, tmp_path: Path
) -> None:
    data = tmp_path / "data"
    shutil.copytree(pristine, data)
    key = data / "keys" / "log.key"
    key.chmod(0o644)
    with pytest.raises(LogKeyError, match="open to others"):
        create_app(None, None, data)
    key.unlink()
    with pytest.raises(LogKeyError, match="no log key") as found:
        create_app(None, None, data)
    assert found.value.exit_code == 2
    assert not key.exists()  # a new key would find every row changed


def test_checkpoints_kept_elsewhere_catch_the_tail_cut(tmp_path: Path) -> None:
    data, elsewhere = tmp_path / "data", tmp_path / "other-machine"
    key = tmp_path / "secret" / "log.key"
    app = create_app(None, None, data, log_key=key, checkpoints=elsewhere)
    with TestClient(app, base_url="http://127.0.0.1") as room:
        sid = room.post("/api/situations", json=KANE).json()["id"]
        for reviewer in ("Ana", "Ben"):
            assert decide(room, f"/api/situations/{sid}/decisions", reviewer).status_code == 201
    assert not (data / "checkpoints").exists() and not (data / "keys").exists()
    with sqlite3.connect(data / "varroom.db") as conn:
        conn.execute("DROP TRIGGER decisions_append_only_delete")
        conn.execute("DELETE FROM decisions WHERE id = 2")
    with pytest.raises(LogTampered, match="decisions row 2: is gone"):
        verify_log(data_dir=data, log_key=key, checkpoints=elsewhere)


# -- while the room runs --------------------------------------------------------------------


def test_the_room_finds_a_change_at_its_next_check_of_the_log(copied: Path) -> None:
    app = create_app(None, None, copied, verify_every_s=0.1)
    with TestClient(app, base_url="http://127.0.0.1") as room:
        assert room.get("/api/health").json()["chain"] == "ok"
        _alter(copied, _sql("UPDATE still_marks SET marks_json = '{}' WHERE id = 1"))
        deadline = time.monotonic() + 30
        while (health := room.get("/api/health").json())["chain"] == "ok":
            assert time.monotonic() < deadline, "the periodic check did not find the change"
            time.sleep(0.05)
        assert [(p["table"], p["row"]) for p in health["chain_problems"]] == [("still_marks", 1)]
        assert decide(room, "/api/situations/1/decisions", "Gil").status_code == 503


def _verify_log(data: Path, *more: str) -> subprocess.CompletedProcess[str]:
    command = [*CLI, "verify-log", "--data-dir", str(data), *more]
    return subprocess.run(command, capture_output=True, text=True, timeout=60)


def test_a_running_server_finds_a_change_stops_and_goes_on_once_acknowledged(
    copied: Path,
) -> None:
    import httpx
    from serve_kill import served

    with served(copied, None) as (url, _server):
        decisions = f"{url}/api/situations/1/decisions"
        body = {"reviewer": "Gil", "decision": "confirm", "duration_s": 1}
        assert httpx.post(decisions, json=body).status_code == 201
        # The still's newest marks edited under the running room: found at the next save.
        _alter(copied, _sql("UPDATE still_marks SET marks_json = '{}' WHERE id = 2"))
        saved = httpx.put(f"{url}/api/stills/1/marks", json=MARKS, headers={"if-match": '"f1"'})
        assert saved.status_code == 503 and "still_marks row 2" in saved.json()["error"]
        health = httpx.get(f"{url}/api/health").json()
        assert (health["chain"], health["decisions_accepted"]) == ("broken", False)
        assert [(p["table"], p["row"]) for p in health["chain_problems"]] == [("still_marks", 2)]
        assert httpx.post(decisions, json=body).status_code == 503

        acknowledged = _verify_log(copied, "--acknowledge", "--by", "the supervisor")
        assert acknowledged.returncode == 0, acknowledged.stderr
        assert acknowledged.stdout.startswith("acknowledged by the supervisor: still_marks row 2")
        assert httpx.post(decisions, json=body).status_code == 201
        health = httpx.get(f"{url}/api/health").json()
        assert (health["chain"], health["decisions_accepted"]) == ("broken", True)
        assert health["chain_problems"][0]["acknowledged"] is True

        # The newest decision cut off while the room runs: found at the next decision.
        _alter(copied, _sql("DELETE FROM decisions WHERE id = (SELECT max(id) FROM decisions)"))
        cut = httpx.post(decisions, json=body)
        assert cut.status_code == 503 and "decisions row 9: is gone" in cut.json()["error"]
    said = _verify_log(copied)
    assert said.returncode == 3
    assert "still_marks row 2: " in said.stderr and "(acknowledged)" in said.stderr
    assert "decisions row 9: is gone" in said.stderr


def test_the_command_line_says_why_it_cannot_acknowledge(copied: Path) -> None:
    said = _verify_log(copied, "--acknowledge")
    assert said.returncode == 2 and "--by" in said.stderr
    said = _verify_log(copied, "--acknowledge", "--by", "me")
    assert (said.returncode, said.stdout.strip()) == (0, "nothing to acknowledge: the log verifies")
    assert os.stat(copied / "keys" / "log.key").st_mode & 0o777 == 0o600


# -- on PostgreSQL ----------------------------------------------------------------------------

_DATABASES = itertools.count()
POSTGRES_ALTERATIONS = {
    "update": ("UPDATE decisions SET outcome = 'no_offence' WHERE id = 1", "decisions", 1),
    "renumber": ("UPDATE decisions SET id = id + 10", "decisions", 11),
    "cut the tail": ("DELETE FROM decisions WHERE id = 2", "decisions", 2),
    "truncate": ("TRUNCATE decisions", "decisions", 2),
    "edit the facts": ("UPDATE situations SET facts_json = '{}'", "situations", 1),
}


@pytest.fixture(scope="module")
def cluster() -> Iterator[Cluster]:
    with throwaway_cluster() as started:
        yield started


@pytest.mark.needs(Need.POSTGRESQL)
@pytest.mark.parametrize(
    ("statement", "table", "row"), POSTGRES_ALTERATIONS.values(), ids=POSTGRES_ALTERATIONS.keys()
)
def test_alterations_past_disabled_triggers_are_reported_on_postgres(
    cluster: Cluster, tmp_path: Path, statement: str, table: str, row: int
) -> None:
    name = f"tamper_{next(_DATABASES)}"
    cluster.create_database(name)
    postgres_url = cluster.url(name)
    data = tmp_path / "data"
    with TestClient(create_app(postgres_url, None, data), base_url="http://127.0.0.1") as room:
        sid = room.post("/api/situations", json=KANE).json()["id"]
        for reviewer in ("Ana", "Ben"):
            assert decide(room, f"/api/situations/{sid}/decisions", reviewer).status_code == 201
    engine = sa.create_engine(postgres_url)
    try:
        with engine.begin() as conn:
            for name in ("decisions", "still_decisions", "situations"):
                conn.execute(sa.text(f"ALTER TABLE {name} DISABLE TRIGGER ALL"))
            conn.execute(sa.text(statement))
    finally:
        engine.dispose()
    with pytest.raises(LogTampered, match=f"{table} row {row}: "):
        verify_log(postgres_url, data)
    with TestClient(create_app(postgres_url, None, data), base_url="http://127.0.0.1") as room:
        health = room.get("/api/health").json()
        assert (table, row) in [(p["table"], p["row"]) for p in health["chain_problems"]]
        assert decide(room, f"/api/situations/{sid}/decisions", "Cy").status_code == 503
