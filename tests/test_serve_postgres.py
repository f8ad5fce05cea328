"""The review room on PostgreSQL, through the same code as SQLite: a throwaway cluster on
loopback, started by the test (Debian's postgresql is part of the machine image)."""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import tempfile
import warnings
from collections.abc import Iterator
from pathlib import Path

import pytest
import sqlalchemy as sa

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

from varroom.serve import create_app

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
# Debian installs each major version under its own folder; take the newest.
BIN = max(
    Path("/usr/lib/postgresql").glob("*/bin"),
    default=Path("/nonexistent"),
    key=lambda p: int(p.parent.name),
)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _as_postgres(*command: str) -> list[str]:
    # PostgreSQL refuses to run as root; CI and these machines run tests as root.
    if os.geteuid() == 0:
        return ["runuser", "-u", "postgres", "--", *command]
    return list(command)


@pytest.fixture(scope="module")
def postgres_url() -> Iterator[str]:
    if not (BIN / "initdb").exists():
        pytest.fail("PostgreSQL server binaries not found: .ci/run installs postgresql")
    # Not pytest's tmp_path: its parents are private to root, and the server runs as postgres.
    root = Path(tempfile.mkdtemp(prefix="varroom-pg-"))
    data = root / "data"
    if os.geteuid() == 0:
        shutil.chown(root, "postgres")
    subprocess.run(
        _as_postgres(str(BIN / "initdb"), "-D", str(data), "-U", "varroom", "--auth=trust"),
        check=True,
        capture_output=True,
    )
    port = _free_port()
    options = f"-h 127.0.0.1 -p {port} -k {root}"
    subprocess.run(
        _as_postgres(
            str(BIN / "pg_ctl"),
            "-D",
            str(data),
            "-o",
            options,
            "-w",
            "start",
            "-l",
            str(root / "log"),
        ),
        check=True,
        capture_output=True,
    )
    try:
        yield f"postgresql://varroom@127.0.0.1:{port}/postgres"
    finally:
        subprocess.run(
            _as_postgres(str(BIN / "pg_ctl"), "-D", str(data), "-m", "immediate", "stop"),
            capture_output=True,
        )
        shutil.rmtree(root, ignore_errors=True)


def test_migrations_queue_and_append_only_log_on_postgres(
    postgres_url: str, tmp_path: Path
) -> None:
    app = create_app(postgres_url, None, tmp_path / "data")
    with TestClient(app, base_url="http://127.0.0.1") as room:
        posted = room.post(
            "/api/situations",
            params={"filename": "kane.json"},
            content=(EXAMPLES / "tottenham-sporting-2022-kane.json").read_bytes(),
            headers={"content-type": "application/json"},
        )
        assert posted.status_code == 201
        sid = posted.json()["id"]
        decision = room.post(
            f"/api/situations/{sid}/decisions",
            json={"reviewer": "Ana Lima", "decision": "confirm", "duration_s": 12.5},
        )
        assert decision.status_code == 201
        assert [e["outcome"] for e in room.get("/api/decisions.json").json()] == ["offside"]
    engine = sa.create_engine(postgres_url)
    with engine.connect() as conn:
        assert conn.execute(sa.text("SELECT count(*) FROM decisions")).scalar() == 1
        with pytest.raises(sa.exc.DBAPIError):
            conn.execute(sa.text("UPDATE decisions SET outcome = 'no_offence'"))
    engine.dispose()


def test_a_nul_in_a_player_id_is_422_on_postgres_not_a_broken_incident(
    postgres_url: str, tmp_path: Path
) -> None:
    # PostgreSQL's text cannot hold U+0000: such an id was accepted, then every decision on
    # the incident failed. Now the situation is refused, with the path, before it is stored.
    text = (EXAMPLES / "tottenham-sporting-2022-kane.json").read_text()
    app = create_app(postgres_url, None, tmp_path / "data")
    with TestClient(app, base_url="http://127.0.0.1") as room:
        before = len(room.get("/api/situations").json())
        response = room.post(
            "/api/situations",
            content=text.replace('"kane"', '"ka\\u0000ne"'),
            headers={"content-type": "application/json"},
        )
        assert response.status_code == 422
        assert response.json()["where"].endswith(".id")
        assert len(room.get("/api/situations").json()) == before
