"""`varroom serve`: the review room's HTTP API, through FastAPI's TestClient."""

from __future__ import annotations

import csv
import dataclasses
import io
import json
import sqlite3
import time
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

with warnings.catch_warnings():
    warnings.simplefilter("ignore")  # starlette's note about httpx versions
    from fastapi.testclient import TestClient

import sqlalchemy as sa

import varroom
from rooms import wait_for
from varroom.errors import InputError
from varroom.formats.situation_json import load_situation
from varroom.profiles import Profile, ifab
from varroom.serve import create_app, db
from varroom.serve.server import run_server

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples"
KANE = EXAMPLES / "tottenham-sporting-2022-kane.json"
DEFLECTION = EXAMPLES / "deflection-off-defender-gaining-advantage-offence.json"
NOT_INTERFERING = EXAMPLES / "offside-position-not-interfering-no-offence.json"
LOOPBACK = "http://127.0.0.1"
TOKEN = "test-token-0123456789abcdef"


def client_for(app: Any, **kwargs: Any) -> TestClient:
    return TestClient(app, base_url=kwargs.pop("base_url", LOOPBACK), **kwargs)


@pytest.fixture
def room(tmp_path: Path) -> Iterator[TestClient]:
    app = create_app(None, None, tmp_path / "data", audit_runner=_no_audit)
    with client_for(app) as client:
        yield client


def _no_audit(provider: str, files: Any, progress: Any) -> list[Any]:
    return []


def upload(client: TestClient, path: Path, **params: str) -> Any:
    return client.post(
        "/api/situations",
        params={"filename": path.name, **params},
        content=path.read_bytes(),
        headers={"content-type": "application/json"},
    )


def queued(client: TestClient, path: Path) -> dict[str, Any]:
    response = upload(client, path)
    assert response.status_code == 201, response.text
    return response.json()


# -- health, schema ---------------------------------------------------------------------------


def test_health_answers_200(room: TestClient) -> None:
    response = room.get("/api/health")
    assert response.status_code == 200
    body = response.json()
    assert body["ok"] is True
    assert body["schema"] == db.head_revision()
    assert response.headers["cache-control"] == "no-store"
    assert response.headers["x-content-type-options"] == "nosniff"


def test_page_and_assets_are_served_locally(room: TestClient) -> None:
    page = room.get("/")
    assert page.status_code == 200
    assert "text/html" in page.headers["content-type"]
    assert "default-src 'self'" in page.headers["content-security-policy"]
    assert "http://" not in page.text and "https://" not in page.text  # no CDN
    for asset in ("/static/app.js", "/static/app.css", "/static/favicon.svg"):
        assert asset in page.text
        response = room.get(asset)
        assert response.status_code == 200, asset
        assert "https://" not in response.text, asset


def test_migrations_create_the_schema_on_a_fresh_sqlite_file(tmp_path: Path) -> None:
    path = tmp_path / "fresh" / "room.db"
    create_app(f"sqlite:///{path}", data_dir=tmp_path / "data")
    assert path.is_file()
    with sqlite3.connect(path) as conn:
        tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")}
        triggers = {
            r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type='trigger'")
        }
        (revision,) = conn.execute("SELECT version_num FROM alembic_version").fetchone()
    assert {"situations", "decisions", "audits", "alembic_version"} <= tables
    assert {"decisions_append_only_update", "decisions_append_only_delete"} <= triggers
    assert revision == db.head_revision()
    # A second start finds the schema up to date and changes nothing.
    create_app(f"sqlite:///{path}", data_dir=tmp_path / "data")
    engine = db.make_engine(f"sqlite:///{path}")
    assert db.current_revision(engine) == db.head_revision()
    engine.dispose()


def test_default_database_is_sqlite_in_the_data_folder(tmp_path: Path) -> None:
    data = tmp_path / "varroom-data"
    app = create_app(data_dir=data)
    assert (data / "varroom.db").is_file()
    assert (data / ".gitignore").read_text().strip().endswith("*")
    with client_for(app) as client:
        assert client.get("/api/health").json()["database"] == "sqlite"


# -- the queue --------------------------------------------------------------------------------


def test_upload_a_situation_gives_its_id_and_the_engines_verdict(room: TestClient) -> None:
    response = upload(room, KANE)
    assert response.status_code == 201
    body = response.json()
    assert response.headers["location"] == f"/api/situations/{body['id']}"
    expected = {**varroom.judge(load_situation(KANE)).to_dict(), "profile": ifab().stamp()}
    assert body["verdict"] == expected  # exactly what `varroom check --json` prints
    assert body["status"] == "offence"
    assert body["summary"]["call"] == "OFFSIDE"
    assert body["summary"]["margin_text"] == "+4 cm"

    listed = room.get("/api/situations").json()
    assert [item["id"] for item in listed] == [body["id"]]
    item = listed[0]
    assert item["title"] == "Tottenham Hotspur 1-1 Sporting CP \u00b7 90+5'"
    assert item["source_name"] == KANE.name
    assert item["status"] == "offence"
    assert item["decided"] is False
    assert item["verdict"]["label"] == "OFFSIDE \u00b7 Harry Kane +4 cm"

    detail = room.get(f"/api/situations/{body['id']}").json()
    assert detail["verdict"] == expected
    assert detail["engine_verdict"] == expected
    assert detail["facts"] == {"plays": [], "involvement": [], "off_field": []}
    assert [t["settable"] for t in detail["touches"]] == [True, True, True, True]
    assert detail["situation"] == json.loads(KANE.read_text())


def test_the_queue_lists_newest_first(room: TestClient) -> None:
    ids = [queued(room, path)["id"] for path in (KANE, DEFLECTION, NOT_INTERFERING)]
    listed = room.get("/api/situations").json()
    assert [item["id"] for item in listed] == ids[::-1]
    assert {item["status"] for item in listed} == {"offence", "no_offence"}


def _bad_inputs() -> list[tuple[str, Any]]:
    kane = json.loads(KANE.read_text())
    unknown_player = json.loads(KANE.read_text())
    unknown_player["touches"][1]["player"] = "nobody"
    bad_action = json.loads(KANE.read_text())
    bad_action["touches"][2]["action"] = "handball"
    bad_part = json.loads(KANE.read_text())
    bad_part["touches"][1]["positions"]["kane"]["parts"]["left_elbo"] = 50.0
    out_of_order = json.loads(KANE.read_text())
    out_of_order["touches"][3]["t"] = 1.0
    not_finite = json.loads(KANE.read_text())
    not_finite["touches"][0]["ball"][0] = float("nan")
    del kane["players"]
    return [
        ("missing players", kane),
        ("unknown player", unknown_player),
        ("bad action", bad_action),
        ("bad part", bad_part),
        ("out of order", out_of_order),
        ("not finite", not_finite),
        ("not an object", [1, 2, 3]),
    ]


@pytest.mark.parametrize(("label", "data"), _bad_inputs(), ids=[b[0] for b in _bad_inputs()])
def test_a_bad_situation_is_422_with_the_same_json_path_as_the_cli(
    room: TestClient, tmp_path: Path, label: str, data: Any
) -> None:
    text = json.dumps(data)  # NaN is written as NaN, which Python's reader accepts, as the CLI does
    path = tmp_path / "bad.json"
    path.write_text(text)
    with pytest.raises(InputError) as cli:
        load_situation(path)
    response = room.post(
        "/api/situations", content=text, headers={"content-type": "application/json"}
    )
    assert response.status_code == 422, label
    body = response.json()
    assert body == {"error": cli.value.problem, "where": cli.value.where}
    assert room.get("/api/situations").json() == []


@pytest.mark.parametrize(
    ("content", "where"),
    [(b"{not json", "$"), (b"\xff\xfe", "$"), (b"[" * 100_000, "$"), (b"", "$")],
    ids=["syntax", "not utf-8", "nested too deep", "empty"],
)
def test_text_that_is_not_json_is_422_never_500(
    room: TestClient, content: bytes, where: str
) -> None:
    response = room.post(
        "/api/situations", content=content, headers={"content-type": "application/json"}
    )
    assert response.status_code == 422
    assert response.json()["where"] == where


def test_a_situation_must_be_sent_as_json(room: TestClient) -> None:
    response = room.post(
        "/api/situations", content=KANE.read_bytes(), headers={"content-type": "text/plain"}
    )
    assert response.status_code == 415


def test_a_file_name_is_for_display_only(room: TestClient) -> None:
    body = upload(room, KANE, filename="../../etc/passwd\x00.json").json()
    assert body["source_name"] == "passwd .json"
    data_files = {p.name for p in Path(room.app.state.room.data_dir).rglob("*")}
    assert "passwd" not in " ".join(data_files)


def test_uploads_over_the_size_limit_are_413(tmp_path: Path) -> None:
    app = create_app(None, None, tmp_path / "data", max_situation_bytes=4096)
    with client_for(app) as client:
        big = KANE.read_bytes()
        assert len(big) > 4096
        response = client.post(
            "/api/situations", content=big, headers={"content-type": "application/json"}
        )
        assert response.status_code == 413
        # Without a Content-Length (chunked), the body is counted as it arrives.
        chunks = iter([big[i : i + 1000] for i in range(0, len(big), 1000)])
        response = client.post(
            "/api/situations", content=chunks, headers={"content-type": "application/json"}
        )
        assert response.status_code == 413
        assert client.get("/api/situations").json() == []
        facts = {
            "involvement": [{"touch": 0, "player": "kane", "kind": "challenges_opponent"}] * 200
        }
        assert client.post("/api/situations/1/facts", json=facts).status_code == 413


def test_unknown_ids_are_404_and_absurd_ids_422(room: TestClient) -> None:
    assert room.get("/api/situations/999").status_code == 404
    assert room.get("/api/situations/999").json() == {"error": "no situation 999"}
    for bad in ("0", "-1", "abc", str(2**70)):
        response = room.get(f"/api/situations/{bad}")
        assert response.status_code == 422, bad
        assert response.json()["where"] == "path:situation_id"
    assert room.get("/api/nothing").status_code == 404
    assert room.get("/api/audits/not-an-id").status_code == 422


# -- facts --------------------------------------------------------------------------------------


def test_a_deflection_set_to_a_deliberate_play_flips_offside_to_no_offence(
    room: TestClient,
) -> None:
    sid = queued(room, DEFLECTION)["id"]
    start = time.perf_counter()
    response = room.post(
        f"/api/situations/{sid}/facts", json={"plays": [{"touch": 1, "kind": "deliberate_play"}]}
    )
    round_trip_ms = (time.perf_counter() - start) * 1000
    assert response.status_code == 200
    body = response.json()
    assert body["previous_verdict"]["status"] == "offence"
    assert body["verdict"]["status"] == "no_offence"
    assert body["verdict_changed"] is True
    assert body["engine_verdict"]["status"] == "offence"
    assert "resets offside" in body["verdict"]["reason"]
    assert body["changes"] == ["Touch 2 (Ryan Okafor): deflection \u2192 deliberate play"]
    assert body["timing_ms"]["total"] < 100, body["timing_ms"]
    assert "judge;dur=" in response.headers["server-timing"]
    assert round_trip_ms < 1000

    detail = room.get(f"/api/situations/{sid}").json()
    assert detail["status"] == "no_offence"
    assert detail["facts"]["plays"] == [{"touch": 1, "kind": "deliberate_play"}]
    assert detail["situation"] == json.loads(DEFLECTION.read_text())  # the original is kept
    assert room.get("/api/situations").json()[0]["status"] == "no_offence"

    # Back to the situation's own facts: the engine's verdict again.
    back = room.post(f"/api/situations/{sid}/facts", json={"plays": []}).json()
    assert back["verdict"] == detail["engine_verdict"]
    assert back["changes"] == []


def test_the_kane_deflection_set_to_a_clearance_is_no_offence(room: TestClient) -> None:
    sid = queued(room, KANE)["id"]
    body = room.post(
        f"/api/situations/{sid}/facts", json={"plays": [{"touch": 2, "kind": "deliberate_play"}]}
    ).json()
    assert body["summary"]["call"] == "NO OFFENCE"
    assert body["previous_summary"]["call"] == "OFFSIDE"
    # The same deliberate play stated again changes nothing and is not an override.
    again = room.post(
        f"/api/situations/{sid}/facts", json={"plays": [{"touch": 0, "kind": "deliberate_play"}]}
    ).json()
    assert again["facts"]["plays"] == []
    assert again["summary"]["call"] == "OFFSIDE"


def test_an_involvement_fact_turns_an_offside_position_into_an_offence(room: TestClient) -> None:
    sid = queued(room, NOT_INTERFERING)["id"]
    fact = {"touch": 1, "player": "hale", "kind": "obstructs_line_of_vision"}
    body = room.post(f"/api/situations/{sid}/facts", json={"involvement": [fact]}).json()
    assert body["previous_verdict"]["status"] == "no_offence"
    assert body["verdict"]["status"] == "offence"
    assert body["verdict"]["offender"] == "hale"
    assert "line of vision" in body["verdict"]["reason"]
    assert body["facts"]["involvement"] == [fact]
    assert body["changes"] == [
        "Touch 2: Marcus Hale obstructs an opponent's line of vision (added)"
    ]


def test_a_defender_off_the_field_moves_the_line(room: TestClient) -> None:
    sid = queued(room, KANE)["id"]
    fact = {"touch": 1, "player": "st_juste", "status": "without_permission"}
    body = room.post(f"/api/situations/{sid}/facts", json={"off_field": [fact]}).json()
    assert body["verdict"]["status"] == "no_offence"
    assert "off the field without permission" in body["verdict"]["reason"]
    assert body["facts"]["off_field"] == [fact]


@pytest.mark.parametrize(
    ("facts", "where"),
    [
        ({"plays": [{"touch": 9, "kind": "deflection"}]}, "$.plays[0].touch"),
        ({"plays": [{"touch": 0, "kind": "handball"}]}, "$.plays[0].kind"),
        (
            {"plays": [{"touch": 2, "kind": "save"}, {"touch": 2, "kind": "deflection"}]},
            "$.plays[1].touch",
        ),
        (
            {"involvement": [{"touch": 0, "player": "nobody", "kind": "challenges_opponent"}]},
            "$.involvement[0].player",
        ),
        ({"involvement": [{"touch": 0, "player": "kane"}]}, "$.involvement[0].kind"),
        (
            {"off_field": [{"touch": 0, "player": "kane", "status": "gone"}]},
            "$.off_field[0].status",
        ),
        ({"plays": [], "surprise": 1}, "$.surprise"),
        ([1, 2], "$"),
    ],
)
def test_facts_that_do_not_fit_are_422_with_the_path(
    room: TestClient, facts: Any, where: str
) -> None:
    sid = queued(room, KANE)["id"]
    response = room.post(f"/api/situations/{sid}/facts", json=facts)
    assert response.status_code == 422, response.text
    assert response.json()["where"] == where
    assert room.get(f"/api/situations/{sid}").json()["facts_version"] == 0


def test_a_restart_or_a_player_not_on_the_pitch_cannot_take_facts(room: TestClient) -> None:
    throw_in = queued(room, EXAMPLES / "throw-in-direct-no-offence.json")
    detail = room.get(f"/api/situations/{throw_in['id']}").json()
    restart = next(t["index"] for t in detail["touches"] if t["action"] == "throw_in")
    response = room.post(
        f"/api/situations/{throw_in['id']}/facts",
        json={"plays": [{"touch": restart, "kind": "deflection"}]},
    )
    assert response.status_code == 422
    assert "throw_in" in response.json()["error"]
    data = json.loads(KANE.read_text())
    del data["touches"][0]["positions"]["porro"]  # not on the pitch at the cross
    sid = room.post("/api/situations", json=data).json()["id"]
    response = room.post(
        f"/api/situations/{sid}/facts",
        json={"off_field": [{"touch": 0, "player": "porro", "status": "with_permission"}]},
    )
    assert response.status_code == 422
    assert response.json()["where"] == "$.off_field[0].player"


def test_facts_for_an_unknown_situation_are_404(room: TestClient) -> None:
    assert room.post("/api/situations/5/facts", json={"plays": []}).status_code == 404


# -- decisions -----------------------------------------------------------------------------------


def test_decisions_are_appended_and_exported(room: TestClient) -> None:
    sid = queued(room, KANE)["id"]
    other = queued(room, NOT_INTERFERING)["id"]
    first = room.post(
        f"/api/situations/{sid}/decisions",
        json={"reviewer": "Ana Lima", "decision": "confirm", "duration_s": 21.4},
    )
    assert first.status_code == 201
    first = first.json()
    assert first["outcome"] == "offside"
    assert first["engine_status"] == "offence"
    assert first["margin_m"] == 0.04
    # A correction is a new entry, with the facts it rests on.
    facts = {"plays": [{"touch": 2, "kind": "deliberate_play"}]}
    second = room.post(
        f"/api/situations/{sid}/decisions",
        json={
            "reviewer": "Ana Lima",
            "decision": "confirm",
            "duration_s": 48.0,
            "facts": facts,
            "corrects": first["id"],
            "note": "Inácio stretched for it: deliberate",
        },
    ).json()
    assert second["corrects"] == first["id"]
    assert second["outcome"] == "no_offence"
    assert second["engine_status"] == "no_offence"
    assert second["facts"]["plays"] == facts["plays"]
    # The entry's facts are its own: the incident's stay until POST .../facts changes them.
    assert room.get(f"/api/situations/{sid}").json()["status"] == "offence"
    third = room.post(
        f"/api/situations/{other}/decisions",
        json={
            "reviewer": "Bea",
            "decision": "offside",
            "duration_s": 9,
            "note": "=cmd|' /C calc'!A0",
        },
    ).json()
    assert third["outcome"] == "offside"

    entries = room.get("/api/decisions.json").json()
    assert [e["id"] for e in entries] == [first["id"], second["id"], third["id"]]
    assert entries[0]["outcome"] == "offside"  # the first entry is unchanged by its correction
    assert room.get(f"/api/situations/{sid}/decisions").json() == entries[:2]
    assert room.get("/api/decisions.json", params={"situation_id": other}).json() == entries[2:]
    assert room.get("/api/decisions.json", params={"last": 1}).json() == entries[2:]

    response = room.get("/api/decisions.csv")
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("text/csv")
    assert "attachment" in response.headers["content-disposition"]
    rows = list(csv.DictReader(io.StringIO(response.text)))
    assert [int(r["id"]) for r in rows] == [e["id"] for e in entries]
    assert rows[1]["corrects"] == str(first["id"])
    assert rows[1]["outcome"] == "no_offence"
    assert json.loads(rows[1]["facts"])["plays"] == facts["plays"]
    assert rows[2]["note"].startswith("'=")  # no formula injection into a spreadsheet
    listed = {item["id"]: item for item in room.get("/api/situations").json()}
    assert listed[sid]["decided"] and listed[sid]["decisions"] == 2
    assert listed[sid]["last_decision"] == {"outcome": "no_offence", "reviewer": "Ana Lima"}


def test_the_decision_log_is_never_updated_or_deleted(room: TestClient) -> None:
    engine = room.app.state.room.store.engine
    statements: list[str] = []

    def record(conn: Any, cursor: Any, statement: str, *args: Any) -> None:
        statements.append(" ".join(statement.split()).upper())

    sa.event.listen(engine, "before_cursor_execute", record)
    try:
        sid = queued(room, KANE)["id"]
        for i, decision in enumerate(["confirm", "no_offence", "offside"]):
            body = {
                "reviewer": "Ben",
                "decision": decision,
                "duration_s": 10 + i,
                "client_ref": f"r{i}",
            }
            if i:
                body["corrects"] = i
                body["facts"] = {
                    "plays": [{"touch": 2, "kind": "deliberate_play" if i == 1 else "deflection"}]
                }
            assert room.post(f"/api/situations/{sid}/decisions", json=body).status_code == 201
        room.post(
            f"/api/situations/{sid}/decisions",
            json={"reviewer": "Ben", "decision": "confirm", "duration_s": 1, "client_ref": "r0"},
        )
        room.post(f"/api/situations/{sid}/facts", json={"plays": []})
        room.get("/api/decisions.csv")
    finally:
        sa.event.remove(engine, "before_cursor_execute", record)
    writes = [s for s in statements if "DECISIONS" in s and not s.startswith("SELECT")]
    assert writes and all(s.startswith("INSERT INTO DECISIONS") for s in writes), writes
    assert len(room.get("/api/decisions.json").json()) == 3
    # No route changes an entry...
    for method in ("put", "patch", "delete"):
        assert getattr(room, method)(f"/api/situations/{sid}/decisions").status_code == 405
    # ...and the database refuses to, whoever asks.
    for statement in ("UPDATE decisions SET outcome = 'offside'", "DELETE FROM decisions"):
        with pytest.raises(sa.exc.DatabaseError, match="append-only"), engine.begin() as conn:
            conn.execute(sa.text(statement))
    assert [e["outcome"] for e in room.get("/api/decisions.json").json()] == [
        "offside",
        "no_offence",
        "offside",
    ]


def test_a_client_ref_sent_twice_is_recorded_once(room: TestClient) -> None:
    sid = queued(room, KANE)["id"]
    body = {"reviewer": "Cleo", "decision": "confirm", "duration_s": 3.5, "client_ref": "cleo-1"}
    first = room.post(f"/api/situations/{sid}/decisions", json=body)
    again = room.post(f"/api/situations/{sid}/decisions", json=body)
    assert (first.status_code, again.status_code) == (201, 200)
    assert first.json() == again.json()
    assert len(room.get("/api/decisions.json").json()) == 1
    other = queued(room, DEFLECTION)["id"]
    clash = room.post(f"/api/situations/{other}/decisions", json=body)
    assert clash.status_code == 409
    assert clash.json()["where"] == "$.client_ref"


@pytest.mark.parametrize(
    ("body", "where"),
    [
        ({"decision": "confirm", "duration_s": 1}, "$.reviewer"),
        ({"reviewer": "   ", "decision": "confirm", "duration_s": 1}, "$.reviewer"),
        ({"reviewer": "A", "decision": "maybe", "duration_s": 1}, "$.decision"),
        ({"reviewer": "A", "decision": "confirm", "duration_s": -1}, "$.duration_s"),
        ({"reviewer": "A", "decision": "confirm"}, "$.duration_s"),
        ({"reviewer": "A", "decision": "confirm", "duration_s": 1, "corrects": 77}, "$.corrects"),
        (
            {
                "reviewer": "A",
                "decision": "confirm",
                "duration_s": 1,
                "facts": {"plays": [{"touch": 8, "kind": "save"}]},
            },
            "$.facts.plays[0].touch",
        ),
    ],
)
def test_a_bad_decision_is_422_and_not_logged(room: TestClient, body: Any, where: str) -> None:
    sid = queued(room, KANE)["id"]
    response = room.post(f"/api/situations/{sid}/decisions", json=body)
    assert response.status_code == 422, response.text
    assert response.json()["where"] == where
    assert room.get("/api/decisions.json").json() == []


def test_an_undecidable_verdict_cannot_be_confirmed(room: TestClient) -> None:
    data = json.loads(KANE.read_text())
    defenders = {p["id"] for p in data["players"] if p["team"] == "SCP"}
    keep = {"adan"}
    for touch in data["touches"]:
        touch["positions"] = {
            k: v for k, v in touch["positions"].items() if k not in defenders - keep
        }
    response = room.post("/api/situations", json=data)
    assert response.status_code == 201
    assert response.json()["status"] == "undecidable"
    sid = response.json()["id"]
    refused = room.post(
        f"/api/situations/{sid}/decisions",
        json={"reviewer": "D", "decision": "confirm", "duration_s": 2},
    )
    assert refused.status_code == 422
    assert refused.json()["where"] == "$.decision"
    decided = room.post(
        f"/api/situations/{sid}/decisions",
        json={"reviewer": "D", "decision": "offside", "duration_s": 2},
    )
    assert decided.status_code == 201
    assert decided.json()["outcome"] == "offside"


# -- security ------------------------------------------------------------------------------------


def test_with_a_token_every_api_call_needs_it(tmp_path: Path) -> None:
    app = create_app(None, TOKEN, tmp_path / "data")
    with client_for(app, base_url="http://review.example:8080") as client:
        assert client.get("/").status_code == 200  # the page itself holds nothing
        for method, path in [
            ("get", "/api/health"),
            ("get", "/api/situations"),
            ("get", "/api/decisions.csv"),
            ("post", "/api/situations"),
        ]:
            response = getattr(client, method)(path)
            assert response.status_code == 401, path
            assert response.headers["www-authenticate"].startswith("Bearer")
        wrong = client.get("/api/health", headers={"authorization": "Bearer nope"})
        assert wrong.status_code == 401
        basic = client.get("/api/health", headers={"authorization": f"Basic {TOKEN}"})
        assert basic.status_code == 401
        good = {"authorization": f"Bearer {TOKEN}"}
        assert client.get("/api/health", headers=good).status_code == 200
        made = client.post(
            "/api/situations",
            content=KANE.read_bytes(),
            headers={**good, "content-type": "application/json"},
        )
        assert made.status_code == 201
        assert client.get("/api/situations", headers=good).json()[0]["id"] == made.json()["id"]


def test_without_a_token_only_loopback_host_names_are_served(
    room: TestClient, tmp_path: Path
) -> None:
    assert room.get("/api/health").status_code == 200
    assert room.get("/api/health", headers={"host": "localhost:8000"}).status_code == 200
    assert room.get("/api/health", headers={"host": "[::1]:8000"}).status_code == 200
    rebound = room.get("/api/health", headers={"host": "attacker.example"})  # DNS rebinding
    assert rebound.status_code == 400
    assert room.get("/", headers={"host": "attacker.example"}).status_code == 400


def test_a_cross_site_write_is_refused(room: TestClient) -> None:
    response = room.post(
        "/api/situations",
        content=KANE.read_bytes(),
        headers={"content-type": "application/json", "origin": "http://attacker.example"},
    )
    assert response.status_code == 403
    sandboxed = room.post(
        "/api/situations/1/decisions",
        json={"reviewer": "x", "decision": "offside", "duration_s": 1},
        headers={"origin": "null"},
    )
    assert sandboxed.status_code == 403
    same = room.post(
        "/api/situations",
        content=KANE.read_bytes(),
        headers={"content-type": "application/json", "origin": LOOPBACK},
    )
    assert same.status_code == 201


def test_a_database_that_cannot_be_used_is_one_clear_error(tmp_path: Path) -> None:
    with pytest.raises(varroom.VarroomError, match="cannot use the database"):
        create_app("nosuchdb://user:secret@host/db", data_dir=tmp_path / "data")
    with pytest.raises(varroom.VarroomError) as error:
        create_app(f"sqlite:///{tmp_path / 'data'}", data_dir=tmp_path / "data")  # a folder
    assert "secret" not in str(error.value)


def test_serving_beyond_loopback_needs_a_token(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.delenv("VARROOM_TOKEN", raising=False)
    with pytest.raises(varroom.VarroomError, match="token"):
        run_server("0.0.0.0", 8765, None, None, data_dir=tmp_path / "data")
    with pytest.raises(varroom.VarroomError, match="token"):
        run_server("192.168.1.20", 8765, None, "", data_dir=tmp_path / "data")
    assert not (tmp_path / "data").exists()  # refused before anything was made


# -- pictures ------------------------------------------------------------------------------------


def test_the_picture_is_drawn_on_demand_and_cached(room: TestClient) -> None:
    sid = queued(room, KANE)["id"]
    renderer = room.app.state.room.pictures.renderer
    assert renderer.get() is not None
    calls: list[str] = []
    real = renderer.get()

    def counting(situation: Any, verdict: Any, path: Any) -> None:
        calls.append(verdict.status.value)
        real(situation, verdict, path)

    renderer._render = counting
    first = room.get(f"/api/situations/{sid}/image.png")
    assert first.status_code == 200
    assert first.headers["content-type"] == "image/png"
    assert first.content[:8] == b"\x89PNG\r\n\x1a\n"
    assert room.get(f"/api/situations/{sid}/image.png").content == first.content
    assert calls == ["offence"]
    room.post(
        f"/api/situations/{sid}/facts", json={"plays": [{"touch": 2, "kind": "deliberate_play"}]}
    )
    changed = room.get(f"/api/situations/{sid}/image.png")
    assert changed.status_code == 200 and changed.content != first.content
    assert calls == ["offence", "no_offence"]
    assert room.get("/api/situations/99/image.png").status_code == 404


def test_no_renderer_means_no_picture_not_an_error(room: TestClient) -> None:
    sid = queued(room, KANE)["id"]
    renderer = room.app.state.room.pictures.renderer
    renderer._loaded, renderer._render = True, None
    response = room.get(f"/api/situations/{sid}/image.png")
    assert response.status_code == 404
    assert "renderer" in response.json()["error"]


# -- match audits --------------------------------------------------------------------------------


def test_an_audit_adds_its_incidents_to_the_queue(tmp_path: Path) -> None:
    seen: dict[str, Any] = {}

    def runner(provider: str, files: Any, progress: Any) -> Any:
        seen["provider"] = provider
        seen["files"] = {
            role: [(p.name, p.read_bytes()) for p in paths] for role, paths in files.items()
        }
        seen["dirs"] = {p.parent for paths in files.values() for p in paths}
        progress(0.5)
        yield json.loads(KANE.read_text())
        yield {"players": []}  # rejected, as an upload would be
        progress(1.0)
        yield json.loads(DEFLECTION.read_text())

    app = create_app(None, None, tmp_path / "data", audit_runner=runner)
    with client_for(app) as client:
        response = client.post(
            "/api/audits",
            data={"provider": "sportec", "roles": ["meta_data", "raw_data"]},
            files=[
                ("files", ("../../meta.xml", b"<meta/>", "text/xml")),
                ("files", ("positions.xml", b"<positions/>", "text/xml")),
            ],
        )
        assert response.status_code == 202, response.text
        done = wait_for(client, response.json()["id"])
        assert done["state"] == "done"
        assert done["progress"] == 1.0
        assert (done["incidents_added"], done["incidents_rejected"]) == (2, 1)
        assert "$.players" in done["error"]
        assert [f["name"] for f in done["files"]] == ["meta.xml", "positions.xml"]
        assert seen["provider"] == "sportec"
        assert seen["files"] == {
            "meta_data": [("0.xml", b"<meta/>")],
            "raw_data": [("1.xml", b"<positions/>")],
        }
        (folder,) = seen["dirs"]
        assert folder.parent == tmp_path / "data" / "uploads"
        listed = client.get("/api/situations").json()
        assert [(i["origin"], i["status"]) for i in listed] == [
            ("audit", "offence"),
            ("audit", "offence"),
        ]


def test_the_audit_form_offers_real_providers_and_the_files_each_takes(room: TestClient) -> None:
    config = room.get("/api/config").json()
    assert "synthetic" not in config["providers"]  # no loader: `varroom audit` refuses it too
    files = config["provider_files"]
    assert set(files) == set(config["providers"])
    assert files["tracab"] == ["meta_data", "raw_data"]
    assert files["statsbomb"] == ["event_data", "lineup_data", "three_sixty_data"]


@pytest.mark.parametrize(
    ("data", "files", "where"),
    [
        ({"provider": "nobody"}, [("files", ("a.json", b"{}", "application/json"))], "$.provider"),
        (
            {"provider": "tracab"},
            [("files", ("a", b"x", "text/plain")), ("files", ("b", b"y", "text/plain"))],
            "$.roles",
        ),
        (
            {"provider": "tracab", "roles": ["Raw/../data"]},
            [("files", ("a", b"x", "text/plain"))],
            "$.roles[0]",
        ),
        ({"provider": "tracab"}, [], "$.files"),
        (  # a file TRACAB's loader does not take
            {"provider": "tracab", "roles": ["raw_data", "three_sixty_data"]},
            [("files", ("a", b"x", "text/plain")), ("files", ("b", b"y", "text/plain"))],
            "$.roles[1]",
        ),
    ],
)
def test_a_bad_audit_request_is_422(room: TestClient, data: Any, files: Any, where: str) -> None:
    response = room.post("/api/audits", data=data, files=files or None)
    assert response.status_code == 422, response.text
    assert response.json()["where"] == where


def test_an_unknown_audit_is_404(room: TestClient) -> None:
    assert room.get(f"/api/audits/{'0' * 32}").status_code == 404


def test_the_room_works_again_after_its_lifespan_ends(tmp_path: Path) -> None:
    app = create_app(None, None, tmp_path / "data", audit_runner=_no_audit)
    for _ in range(2):  # e.g. a test client opened twice, or a server restarted in-process
        with client_for(app) as client:
            response = client.post(
                "/api/audits",
                data={"provider": "tracab"},
                files={"files": ("a.dat", b"x", "application/octet-stream")},
            )
            assert response.status_code == 202
            assert wait_for(client, response.json()["id"])["state"] == "done"


def test_the_default_runner_loads_the_match_and_queues_what_the_audit_finds(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import varroom.audit.run
    import varroom.match
    from varroom.audit.model import Agreement, Audit, Incident, IncidentSource

    kane = dataclasses.replace(load_situation(KANE), meta={})  # what the audit knows is added
    loaded: dict[str, Any] = {}

    def load_match(provider: str, **files: Any) -> str:
        loaded.update(provider=provider, files=files)
        return "the match"

    def audit_match(match: str, progress: Any, profile: Profile) -> Any:
        assert match == "the match"
        assert profile == ifab()  # the room's default
        progress(1, 2, "first half")
        progress(2, 2, "second half")
        incident = Incident(
            period=2,
            t_s=2753.4,
            team=kane.attacking_team,
            situation=kane,
            verdict=varroom.judge(kane),
            source=IncidentSource.TRACKING,
            chain_confidence=0.8,
        )
        return Audit("TOT v SCP", (incident,), (), (), Agreement((), (0,), ()))

    monkeypatch.setattr(varroom.match, "load_match", load_match)
    monkeypatch.setattr(varroom.audit.run, "audit_match", audit_match)
    app = create_app(None, None, tmp_path / "data")
    with client_for(app) as client:
        response = client.post(
            "/api/audits",
            data={"provider": "skillcorner", "roles": ["raw_data", "meta_data"]},
            files=[
                ("files", ("t.jsonl", b"{}", "application/octet-stream")),
                ("files", ("m.json", b"{}", "application/json")),
            ],
        )
        done = wait_for(client, response.json()["id"])
        assert (done["state"], done["incidents_added"], done["progress"]) == ("done", 1, 1.0), done
        assert loaded["provider"] == "skillcorner"
        assert {k: v.name for k, v in loaded["files"].items()} == {
            "raw_data": "0.jsonl",
            "meta_data": "1.json",
        }
        (item,) = client.get("/api/situations").json()
        detail = client.get(f"/api/situations/{item['id']}").json()
        assert detail["origin"] == "audit" and detail["audit_id"] == done["id"]
        assert detail["verdict"] == {**varroom.judge(kane).to_dict(), "profile": ifab().stamp()}
        assert detail["title"] == "TOT v SCP \u00b7 2H 45:53"
        assert detail["meta"]["audit"]["source"] == "tracking"
        assert detail["meta"]["audit"]["chain_confidence"] == 0.8


SAMPLE = ROOT / "samples" / "statsbomb-euro2020-turkey-italy"
SAMPLE_FILES = {
    "event_data": SAMPLE / "statsbomb_3788741_event.json",
    "lineup_data": SAMPLE / "statsbomb_3788741_lineup.json",
    "three_sixty_data": SAMPLE / "statsbomb_3788741_360.json",
}


def _audit_sample(client: TestClient) -> dict[str, Any]:
    response = client.post(
        "/api/audits",
        data={"provider": "statsbomb", "roles": list(SAMPLE_FILES)},
        files=[
            ("files", (path.name, path.read_bytes(), "application/json"))
            for path in SAMPLE_FILES.values()
        ],
    )
    assert response.status_code == 202, response.text
    done = wait_for(client, response.json()["id"])
    assert done["state"] == "done" and done["incidents_rejected"] == 0, done
    return done


def test_the_room_judges_every_audit_incident_as_the_audit_did_and_adds_none_twice(
    tmp_path: Path,
) -> None:
    from varroom.audit.run import audit_match
    from varroom.match import load_match

    match = load_match("statsbomb", **SAMPLE_FILES)
    audit = audit_match(match)
    found = [*audit.incidents, *audit.undecidable, *audit.penalties]
    expected = sorted(
        (i.period, round(i.t_s, 3), i.verdict.status.value, i.verdict.offender, i.verdict.margin_m)
        for i in found
    )
    app = create_app(None, None, tmp_path / "data")  # the default runner: varroom's own audit
    with client_for(app) as client:
        first = _audit_sample(client)
        assert (first["incidents_added"], first["incidents_known"]) == (len(found), 0)
        listed = client.get("/api/situations").json()
        assert {item["origin"] for item in listed} == {"audit"}
        shown = []
        for item in listed:
            detail = client.get(f"/api/situations/{item['id']}").json()
            audited, verdict = detail["meta"]["audit"], detail["verdict"]
            # The headline is the verdict on exactly the file the audit judged.
            assert (verdict["status"], verdict["offender"]) == (
                audited["status"],
                audited["offender"],
            ), detail["title"]
            assert item["verdict"]["status"] == audited["status"]
            assert verdict["margin_m"] == pytest.approx(audited["margin_m"], abs=5e-4)
            shown.append(
                (
                    audited["period"],
                    audited["t_s"],
                    verdict["status"],
                    verdict["offender"],
                    verdict["margin_m"],
                )
            )
        assert [s[:4] for s in sorted(shown)] == [e[:4] for e in expected]
        # The same files again: the same incidents, none added.
        second = _audit_sample(client)
        assert (second["incidents_added"], second["incidents_known"]) == (0, len(found))
        assert len(client.get("/api/situations").json()) == len(found)
