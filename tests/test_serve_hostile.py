"""`varroom serve` against input crafted to break it: every fault a 4xx in the JSON error
shape with its path, nothing stored; an unexpected failure a JSON 500 that tells nothing."""

from __future__ import annotations

import copy
import json
import logging
import socket
import stat
import threading
import time
import warnings
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

with warnings.catch_warnings():
    warnings.simplefilter("ignore")  # starlette's note about httpx versions
    from fastapi.testclient import TestClient

from serve_in_thread import serve_in_thread

from varroom.errors import DataError
from varroom.serve import create_app
from varroom.serve.json_input import MAX_DEPTH, MAX_DIGITS

ROOT = Path(__file__).resolve().parent.parent
KANE = json.loads((ROOT / "examples" / "tottenham-sporting-2022-kane.json").read_text())
SECURITY = ("x-content-type-options", "x-frame-options", "content-security-policy")


@pytest.fixture
def room(tmp_path: Path) -> Iterator[TestClient]:
    app = create_app(None, None, tmp_path / "data")
    # Errors the app does not answer must come back as answers, not as exceptions in the test.
    with TestClient(app, base_url="http://127.0.0.1", raise_server_exceptions=False) as client:
        yield client


def post_json(client: TestClient, path: str, text: str) -> Any:
    # surrogatepass: the bytes of a lone surrogate, which is what a hostile client can send.
    return client.post(
        path,
        content=text.encode("utf-8", "surrogatepass"),
        headers={"content-type": "application/json"},
    )


def nested(depth: int) -> dict[str, Any]:
    """An object whose deepest value (an empty object) sits `depth` levels below it."""
    inner: dict[str, Any] = {}
    for _ in range(depth - 1):
        inner = {"a": inner}
    return inner


def kane_with(change: Any) -> str:
    data = copy.deepcopy(KANE)
    change(data)
    return json.dumps(data)


HUGE = "9" * (MAX_DIGITS + 700)
HOSTILE = [
    (
        "number past Python's digit limit",
        kane_with(lambda d: d.setdefault("meta", {}).update(n=0)).replace('"n": 0', f'"n": {HUGE}'),
        "$.meta.n",
        "digits",
    ),
    (
        "lone surrogate in meta.title",
        kane_with(lambda d: d.setdefault("meta", {}).update(title="Kane \ud800")),
        "$.meta.title",
        "surrogate",
    ),
    (
        "lone surrogate in a player's name",
        kane_with(lambda d: d["players"][0].update(name="\udfff")),
        "$.players[0].name",
        "surrogate",
    ),
    (
        "meta nested 260 deep",
        kane_with(lambda d: d.update(meta=nested(260))),
        "$.meta" + ".a" * MAX_DEPTH,
        "nested",
    ),
    (
        "NUL in a player id",
        json.dumps(KANE).replace('"kane"', '"ka\\u0000ne"'),
        None,
        "NUL",
    ),
]


@pytest.mark.parametrize(
    ("text", "where", "word"), [h[1:] for h in HOSTILE], ids=[h[0] for h in HOSTILE]
)
def test_a_situation_nothing_can_store_is_422_with_its_path(
    room: TestClient, text: str, where: str | None, word: str
) -> None:
    response = post_json(room, "/api/situations", text)
    assert response.status_code == 422, response.text
    body = response.json()
    assert word in body["error"]
    if where is None:  # the NUL: the first place the id stands
        index = next(i for i, p in enumerate(KANE["players"]) if p["id"] == "kane")
        where = f"$.players[{index}].id"
    assert body["where"] == where
    assert all(header in response.headers for header in SECURITY)
    assert room.get("/api/situations").json() == []


def test_meta_as_deep_as_allowed_is_stored_and_read_back(room: TestClient) -> None:
    # 260 deep used to be accepted and then answer 500 on every GET: the limit is far under
    # what the answer's serializer can write, so what is accepted can be read.
    text = kane_with(lambda d: d.update(meta=nested(MAX_DEPTH)))
    posted = post_json(room, "/api/situations", text)
    assert posted.status_code == 201, posted.text
    detail = room.get(f"/api/situations/{posted.json()['id']}")
    assert detail.status_code == 200
    assert detail.json()["meta"] == nested(MAX_DEPTH)


@pytest.mark.parametrize(
    ("body", "where", "word"),
    [
        ('{"reviewer": "Ana", "decision": "offside", "duration_s": ' + HUGE + "}", "$.duration_s", "digits"),
        ('{"reviewer": "Ana\\ud800", "decision": "offside", "duration_s": 3}', "$.reviewer", "surrogate"),
        ('{"reviewer": "Ana", "decision": "offside", "duration_s": 3, "note": "a\\u0000b"}', "$.note", "NUL"),
        ('{"reviewer": "Ana", "decision": "offside", "duration_s": 3, "note": ' + json.dumps(nested(80)) + "}", "$.note" + ".a" * MAX_DEPTH, "nested"),
    ],
    ids=["digits", "surrogate", "NUL", "depth"],
)  # fmt: skip
def test_a_decision_nothing_can_store_is_422_with_its_path(
    room: TestClient, body: str, where: str, word: str
) -> None:
    sid = room.post("/api/situations", json=KANE).json()["id"]
    response = post_json(room, f"/api/situations/{sid}/decisions", body)
    assert response.status_code == 422, response.text
    assert word in response.json()["error"] and response.json()["where"] == where
    assert room.get("/api/decisions.json").json() == []


def test_facts_naming_a_player_with_a_nul_are_422(room: TestClient) -> None:
    sid = room.post("/api/situations", json=KANE).json()["id"]
    fact = {"touch": 0, "player": "ka\u0000ne", "kind": "challenges_opponent"}
    response = post_json(room, f"/api/situations/{sid}/facts", json.dumps({"involvement": [fact]}))
    assert response.status_code == 422
    assert response.json()["where"] == "$.involvement[0].player"
    assert room.get(f"/api/situations/{sid}").json()["facts_version"] == 0


def test_an_unexpected_error_is_a_json_500_that_tells_nothing(
    room: TestClient, caplog: pytest.LogCaptureFixture
) -> None:
    secret = "/srv/secret/varroom-data/varroom.db"

    def broken(*_args: Any, **_kwargs: Any) -> Any:
        raise RuntimeError(f"disk I/O error at {secret}")

    room.app.state.room.queue.listing = broken  # type: ignore[attr-defined]
    with caplog.at_level(logging.ERROR, logger="varroom.serve"):
        response = room.get("/api/situations")
    assert response.status_code == 500
    assert response.headers["content-type"] == "application/json"
    assert all(header in response.headers for header in SECURITY)
    assert response.headers["cache-control"] == "no-store"
    body = response.json()
    assert set(body) == {"error"}
    request_id = response.headers["x-request-id"]
    assert request_id in body["error"]
    assert "secret" not in response.text and "Traceback" not in response.text
    # ...and the server's log has what happened, under the same request id.
    (record,) = [r for r in caplog.records if request_id in r.getMessage()]
    assert record.exc_info is not None and secret in str(record.exc_info[1])
    assert room.get("/api/health").status_code == 200  # and the room still serves


def test_every_answer_carries_a_request_id_of_its_own(room: TestClient) -> None:
    ids = {room.get("/api/health").headers["x-request-id"] for _ in range(3)}
    assert len(ids) == 3


def test_head_of_the_page_is_200_without_a_body(room: TestClient) -> None:
    head = room.head("/")
    assert head.status_code == 200 and head.content == b""
    assert head.headers["content-type"].startswith("text/html")
    assert all(header in head.headers for header in SECURITY)


# -- text a reader cannot see as it was sent ---------------------------------------------------


@pytest.mark.parametrize(
    ("field", "text"),
    [
        ("note", "late flag\x1b[2J"),
        ("note", "line one\r\nline two"),
        ("reviewer", "Ana\u202eLima"),
        ("reviewer", "An\u200ba"),
        ("reviewer", "An\x85a"),
        ("client_ref", "r\u20661"),
    ],
    ids=["ESC in a note", "CR LF in a note", "RLO in a name", "ZWSP in a name", "C1 in a name", "bidi isolate in a ref"],
)  # fmt: skip
def test_control_bidi_and_invisible_characters_are_refused_in_text_fields(
    room: TestClient, field: str, text: str
) -> None:
    sid = room.post("/api/situations", json=KANE).json()["id"]
    body = {"reviewer": "Ana", "decision": "offside", "duration_s": 3, field: text}
    response = room.post(f"/api/situations/{sid}/decisions", json=body)
    assert response.status_code == 422, response.text
    assert response.json()["where"] == f"$.{field}"
    assert (
        f"U+{ord(next(c for c in text if not c.isalnum() and c != ' ')):04X}"
        in response.json()["error"]
    )
    assert room.get("/api/decisions.json").json() == []


def test_a_reviewer_is_one_name_whatever_form_it_is_typed_in(room: TestClient) -> None:
    sid = room.post("/api/situations", json=KANE).json()["id"]
    decisions = f"/api/situations/{sid}/decisions"
    body = {"decision": "offside", "duration_s": 3, "client_ref": "one"}
    first = room.post(decisions, json={**body, "reviewer": "Ana Lima"})
    # Full-width letters look the same on screen: NFKC makes them the same name.
    again = room.post(decisions, json={**body, "reviewer": "\uff21\uff4e\uff41 Lima "})
    assert (first.status_code, again.status_code) == (201, 200)
    assert [e["reviewer"] for e in room.get("/api/decisions.json").json()] == ["Ana Lima"]


def test_a_player_name_is_shown_without_what_cannot_be_seen(room: TestClient) -> None:
    text = kane_with(lambda d: d["players"][0].update(name="Ke\u202ene\u200b Walker"))
    sid = post_json(room, "/api/situations", text).json()["id"]
    players = room.get(f"/api/situations/{sid}").json()["players"]
    assert players[0]["name"] == "Ke ne  Walker"


# -- nothing of the server's internals out; its files its own; no stalled reads ----------------


def audit_failing_with(tmp_path: Path, error: Callable[[Path], Exception]) -> dict[str, Any]:
    def runner(provider: str, files: Any, progress: Any) -> Any:
        raise error(files["raw_data"][0])

    app = create_app(None, None, tmp_path / "data", audit_runner=runner)
    with TestClient(app, base_url="http://127.0.0.1") as client:
        started = client.post(
            "/api/audits",
            data={"provider": "tracab", "roles": ["raw_data"]},
            files=[("files", ("match.dat", b"1:2:3", "application/octet-stream"))],
        ).json()
        deadline = time.monotonic() + 20
        while (audit := client.get(f"/api/audits/{started['id']}").json())["state"] in (
            "queued",
            "running",
        ):
            assert time.monotonic() < deadline, audit
            time.sleep(0.02)
    return audit  # type: ignore[no-any-return]


def test_a_failed_audit_names_the_clients_file_not_the_servers_path(tmp_path: Path) -> None:
    audit = audit_failing_with(
        tmp_path, lambda path: DataError(path.resolve(), "not a TRACAB file", "line 1")
    )
    assert audit["state"] == "failed"
    assert audit["error"].startswith("match.dat: line 1: not a TRACAB file")
    assert str(tmp_path) not in audit["error"] and "uploads" not in audit["error"]


def test_an_audit_that_breaks_says_where_to_look_and_nothing_else(tmp_path: Path) -> None:
    audit = audit_failing_with(tmp_path, lambda path: RuntimeError(f"bad state in {path}"))
    assert audit["state"] == "failed"
    assert audit["error"] == (
        f"the audit failed unexpectedly: the server's log has it as audit {audit['id']}"
    )


def test_the_data_folder_and_database_are_for_their_owner_only(tmp_path: Path) -> None:
    data = tmp_path / "fresh"
    app = create_app(None, None, data)
    with TestClient(app, base_url="http://127.0.0.1") as client:
        sid = client.post("/api/situations", json=KANE).json()["id"]
        body = {"reviewer": "Ana", "decision": "offside", "duration_s": 2}
        assert client.post(f"/api/situations/{sid}/decisions", json=body).status_code == 201
        for folder in (data, data / "images", data / "uploads"):
            assert stat.S_IMODE(folder.stat().st_mode) == 0o700, folder
        files = [p for p in data.iterdir() if p.name.startswith("varroom.db")]
        assert {p.name for p in files} >= {"varroom.db", "varroom.db-wal"}
        for path in files:
            assert stat.S_IMODE(path.stat().st_mode) & 0o077 == 0, path


def test_a_stalled_body_is_408_after_the_read_timeout(tmp_path: Path) -> None:
    app = create_app(None, None, tmp_path / "data", read_timeout_s=0.3)
    with serve_in_thread(app) as url:
        host, port = url.removeprefix("http://").rsplit(":", 1)
        with socket.create_connection((host, int(port)), timeout=10) as conn:
            conn.sendall(
                b"POST /api/situations HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                b'Content-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"players"'
            )
            began = time.monotonic()
            answer = conn.recv(4096)
            waited = time.monotonic() - began
            while chunk := conn.recv(4096):  # the answer closes the connection
                answer += chunk
    assert answer.startswith(b"HTTP/1.1 408"), answer
    assert b"stalled" in answer and 0.2 < waited < 5


FIFTY_MB = 50 * 1024 * 1024


def _flood(url: str, target: str, content_type: str, preamble: bytes) -> tuple[bytes, int]:
    """POST 50 MB in 1 MB chunks (no Content-Length) to a real server: (the answer, the
    bytes sent when it came). Bounded: the answer is awaited 20 s at most."""
    host, port = url.removeprefix("http://").rsplit(":", 1)
    conn = socket.create_connection((host, int(port)), timeout=20)
    conn.sendall(
        f"POST {target} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: {content_type}\r\n"
        "Transfer-Encoding: chunked\r\n\r\n".encode()
        + f"{len(preamble):x}\r\n".encode()
        + preamble
        + b"\r\n"
    )
    piece = b"100000\r\n" + b" " * 0x100000 + b"\r\n"
    sent = [0]

    def send() -> None:
        try:
            while sent[0] < FIFTY_MB:
                conn.sendall(piece)
                sent[0] += 0x100000
            conn.sendall(b"0\r\n\r\n")
        except OSError:  # the server closed the connection: it read no further
            pass

    sender = threading.Thread(target=send, daemon=True)
    sender.start()
    try:
        answer = conn.recv(65536)
        when = sent[0]
        conn.settimeout(2)
        try:
            while chunk := conn.recv(65536):
                answer += chunk
        except OSError:  # no close after the answer: what came is the answer
            pass
    finally:
        conn.close()
        sender.join(20)
    return answer, when


@pytest.mark.parametrize(
    ("target", "content_type", "preamble"),
    [
        ("/api/situations", "application/json", b'{"meta": {"title": "'),
        (
            "/api/audits",
            "multipart/form-data; boundary=x",
            b'--x\r\nContent-Disposition: form-data; name="files"; filename="t.dat"\r\n'
            b"Content-Type: application/octet-stream\r\n\r\n",
        ),
    ],
    ids=["situation", "audit"],
)
def test_a_50_mb_chunked_body_is_413_before_it_is_all_read(
    tmp_path: Path, target: str, content_type: str, preamble: bytes
) -> None:
    app = create_app(None, None, tmp_path / "data", max_audit_bytes=4 * 1024 * 1024)
    with serve_in_thread(app) as url:
        answer, sent = _flood(url, target, content_type, preamble)
        head, _, body = answer.partition(b"\r\n\r\n")
        assert head.startswith(b"HTTP/1.1 413"), head
        assert b"content-type: application/json" in head.lower()
        assert b'"error"' in body
        # Answered after at most a few megabytes (the limit and the socket's buffers).
        assert sent < FIFTY_MB / 4, sent
        with socket.create_connection(
            tuple(url.removeprefix("http://").rsplit(":", 1)), timeout=5
        ) as conn:
            conn.sendall(
                b"GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n"
            )
            assert conn.recv(64).startswith(b"HTTP/1.1 200")
