"""The review room on PostgreSQL, through the same code as SQLite: a throwaway cluster on
loopback (postgres_cluster), started by the test."""

from __future__ import annotations

import json
import warnings
from collections.abc import Iterator
from pathlib import Path

import pytest
import sqlalchemy as sa

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

from machine import Need
from postgres_cluster import throwaway_cluster
from rooms import wait_for
from varroom.serve import create_app

pytestmark = pytest.mark.needs(Need.POSTGRESQL)

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
KANE = EXAMPLES / "tottenham-sporting-2022-kane.json"


@pytest.fixture(scope="module")
def postgres_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    # One database for the module's rooms, each with a data folder of its own: they share the
    # log's key, as rooms on one database must (docs/review-room.md, What the log proves).
    with throwaway_cluster() as cluster, pytest.MonkeyPatch.context() as env:
        env.setenv("VARROOM_LOG_KEY_FILE", str(tmp_path_factory.mktemp("key") / "log.key"))
        yield cluster.url()


def test_migrations_queue_and_append_only_log_on_postgres(
    postgres_url: str, tmp_path: Path
) -> None:
    app = create_app(postgres_url, None, tmp_path / "data")
    with TestClient(app, base_url="http://127.0.0.1") as room:
        posted = room.post(
            "/api/situations",
            params={"filename": "kane.json"},
            content=KANE.read_bytes(),
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
    text = KANE.read_text()
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


_COLUMNS = "situation_id, created_at, reviewer, decision, outcome, engine_status, duration_s, facts_json, verdict_json"
POSTGRES_ROUTES = {
    "update": "UPDATE decisions SET outcome = 'no_offence'",
    "delete": "DELETE FROM decisions",
    "truncate": "TRUNCATE decisions",
    "truncate cascade": "TRUNCATE situations CASCADE",
    "upsert": f"INSERT INTO decisions (id, {_COLUMNS}) SELECT id, {_COLUMNS} FROM decisions "
    "ON CONFLICT (id) DO UPDATE SET outcome = 'no_offence'",
    "merge update": "MERGE INTO decisions d USING decisions s ON d.id = s.id "
    "WHEN MATCHED THEN UPDATE SET outcome = 'no_offence'",
    "merge delete": "MERGE INTO decisions d USING decisions s ON d.id = s.id "
    "WHEN MATCHED THEN DELETE",
}


@pytest.mark.parametrize("statement", POSTGRES_ROUTES.values(), ids=POSTGRES_ROUTES.keys())
def test_postgres_refuses_every_route_to_rewrite_the_log(
    postgres_url: str, tmp_path: Path, statement: str
) -> None:
    from varroom.serve.verify import verify_log

    app = create_app(postgres_url, None, tmp_path / "data")
    with TestClient(app, base_url="http://127.0.0.1") as room:
        sid = room.post("/api/situations", json=json.loads(KANE.read_text())).json()["id"]
        body = {"reviewer": "Bo", "decision": "offside", "duration_s": 2}
        assert room.post(f"/api/situations/{sid}/decisions", json=body).status_code == 201
    engine = sa.create_engine(postgres_url)
    try:
        read = "SELECT * FROM decisions ORDER BY id"
        with engine.connect() as conn:
            before = conn.execute(sa.text(read)).all()
        with pytest.raises(sa.exc.DBAPIError, match="append-only"), engine.begin() as conn:
            conn.execute(sa.text(statement))
        with engine.connect() as conn:
            assert conn.execute(sa.text(read)).all() == before
    finally:
        engine.dispose()
    assert f"{len(before)} entries, hash chain intact" in verify_log(postgres_url)


def test_decisions_written_at_once_chain_in_order_on_postgres(
    postgres_url: str, tmp_path: Path
) -> None:
    # PostgreSQL takes writers at once (SQLite queues them): the log's end is locked, so no
    # two entries link to the same one before them.
    from concurrent.futures import ThreadPoolExecutor

    from varroom.serve.schemas import DecisionIn
    from varroom.serve.verify import check_chain

    app = create_app(postgres_url, None, tmp_path / "data")
    room = app.state.room
    sid = room.queue.add(json.loads(KANE.read_text()), "kane")["id"]

    def decide(n: int) -> None:
        entry = DecisionIn(
            reviewer=f"r{n % 8}", decision="offside", duration_s=n, client_ref=str(n)
        )
        room.log.add(sid, entry)

    with ThreadPoolExecutor(8) as pool:
        list(pool.map(decide, range(80)))
    check = check_chain(room.store.engine)
    room.close()
    assert check.intact, check


def test_two_reviewers_on_postgres_stale_facts_409_and_a_conflict(
    postgres_url: str, tmp_path: Path
) -> None:
    app = create_app(postgres_url, None, tmp_path / "data")
    with TestClient(app, base_url="http://127.0.0.1") as room:
        sid = room.post("/api/situations", json=json.loads(KANE.read_text())).json()["id"]
        incident = f"/api/situations/{sid}"
        tag = room.get(incident).headers["etag"]
        flip = {"plays": [{"touch": 2, "kind": "deliberate_play"}]}
        first = room.post(f"{incident}/facts", json=flip, headers={"if-match": tag})
        second = room.post(f"{incident}/facts", json={"plays": []}, headers={"if-match": tag})
        assert (first.status_code, second.status_code) == (200, 409)
        assert second.json()["facts"] == first.json()["facts"]
        for reviewer, decision in (("Ana", "offside"), ("Ben", "no_offence")):
            body = {"reviewer": reviewer, "decision": decision, "duration_s": 5}
            assert room.post(f"{incident}/decisions", json=body).status_code == 201
        assert room.get(incident).json()["conflict"] is True


def test_a_kill_9_on_postgres_loses_no_acknowledged_decision_and_the_chain_verifies(
    postgres_url: str, tmp_path: Path
) -> None:
    from serve_kill import kill_midway

    result = kill_midway(tmp_path / "data", postgres_url, reviewers=6, decisions=40, kill_after=80)
    assert result["killed"], result
    assert (result["lost"], result["doubled"]) == (0, 0), result
    assert "hash chain intact" in result["chain"], result


def test_an_audit_run_twice_adds_each_incident_once_on_postgres(
    postgres_url: str, tmp_path: Path
) -> None:
    from varroom.serve.audit import incident_key

    kane = json.loads(KANE.read_text())
    # Two moments of one match, as the default runner writes them (meta.match, meta.audit).
    found = [
        {
            **kane,
            "meta": {"match": "TOT v SCP", "audit": {"kind": "offside", "period": 2, "t_s": t}},
        }
        for t in (2753.4, 2801.0)
    ]

    def runner(provider: str, files: object, progress: object) -> list[dict[str, object]]:
        return found

    app = create_app(postgres_url, None, tmp_path / "data", audit_runner=runner)
    with TestClient(app, base_url="http://127.0.0.1") as room:
        states = []
        for _ in range(2):
            started = room.post(
                "/api/audits",
                data={"provider": "skillcorner", "roles": ["raw_data"]},
                files=[("files", ("t.jsonl", b"{}", "application/octet-stream"))],
            ).json()
            state = wait_for(room, started["id"])
            states.append((state["incidents_added"], state["incidents_known"]))
        assert states == [(2, 0), (0, 2)]
    engine = sa.create_engine(postgres_url)
    with engine.connect() as conn:
        keys = {incident_key(item) for item in found}
        stored = conn.execute(
            sa.text("SELECT incident_key FROM situations WHERE incident_key IS NOT NULL")
        ).scalars()
        assert keys <= set(stored)
        with pytest.raises(sa.exc.IntegrityError):  # the database itself holds the key
            conn.execute(
                sa.text(
                    "INSERT INTO situations (created_at, updated_at, title, origin, "
                    "situation_json, facts_json, facts_version, engine_verdict_json, "
                    "verdict_json, summary_json, status, incident_key) SELECT created_at, "
                    "updated_at, title, origin, situation_json, facts_json, facts_version, "
                    "engine_verdict_json, verdict_json, summary_json, status, incident_key "
                    "FROM situations WHERE incident_key IS NOT NULL LIMIT 1"
                )
            )
    engine.dispose()
