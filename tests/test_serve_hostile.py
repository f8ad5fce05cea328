"""`varroom serve` against input crafted to break it: every fault a 4xx in the JSON error
shape with its path, nothing stored; an unexpected failure a JSON 500 that tells nothing."""

from __future__ import annotations

import copy
import json
import logging
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

with warnings.catch_warnings():
    warnings.simplefilter("ignore")  # starlette's note about httpx versions
    from fastapi.testclient import TestClient

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
