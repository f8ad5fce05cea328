"""`varroom serve` against the bad input of issue 23 (defect 6): numbers past a float's range,
NaN and Infinity, a client_ref sent again with another decision, a gzip bomb, a body over the
limit, and what a server killed with SIGKILL left in its data folder. Each is a 4xx with the
JSON path, nothing stored; the kill, the bomb's memory and the 413's connection through a
real `varroom serve` process (bench/serve_kill.served), the client_ref race on SQLite and
PostgreSQL."""

from __future__ import annotations

import bz2
import copy
import gzip
import json
import os
import signal
import socket
import threading
import time
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

with warnings.catch_warnings():
    warnings.simplefilter("ignore")  # starlette's note about httpx versions
    from fastapi.testclient import TestClient

from serve_in_thread import serve_in_thread
from serve_kill import served

from machine import Need
from postgres_cluster import throwaway_cluster
from rooms import wait_for
from varroom.serve import create_app
from varroom.synthetic.provider_files import synthetic_season

ROOT = Path(__file__).resolve().parent.parent
KANE = json.loads((ROOT / "examples" / "tottenham-sporting-2022-kane.json").read_text())
STILL = ROOT / "examples" / "still" / "offside-by-20cm.png"
MARKS = json.loads((ROOT / "examples" / "still" / "offside-by-20cm.marks.json").read_text())
JSON = {"content-type": "application/json"}
PAST_FLOAT = "9" * 310  # read as an int; float() of it overflows


@pytest.fixture
def room(tmp_path: Path) -> Iterator[TestClient]:
    app = create_app(None, None, tmp_path / "data")
    with TestClient(app, base_url="http://127.0.0.1", raise_server_exceptions=False) as client:
        yield client


def with_literal(data: dict[str, Any], path: list[str | int], literal: str) -> str:
    """`data` as JSON text with the value at `path` written as `literal` (what json.dumps
    will not write: NaN, a 310-digit integer)."""
    changed = copy.deepcopy(data)
    inner = changed
    for key in path[:-1]:
        inner = inner[key]
    inner[path[-1]] = "@@here@@"
    return json.dumps(changed).replace('"@@here@@"', literal)


@pytest.mark.parametrize(
    ("path", "where"),
    [
        (["touches", 0, "t"], "$.touches[0].t"),
        (["touches", 0, "ball", 0], "$.touches[0].ball[0]"),
        (["pitch", "length"], "$.pitch.length"),
    ],
    ids=["touch time", "ball", "pitch"],
)
def test_an_integer_past_a_floats_range_in_a_situation_is_422_with_its_path(
    room: TestClient, path: list[str | int], where: str
) -> None:
    data = {**KANE, "pitch": {"length": 105, "width": 68}}
    response = room.post(
        "/api/situations", content=with_literal(data, path, PAST_FLOAT), headers=JSON
    )
    assert response.status_code == 422, response.text
    assert response.json()["where"] == where and "1.8e308" in response.json()["error"]
    assert room.get("/api/situations").json() == []


def test_an_integer_past_a_floats_range_in_still_marks_is_422_with_its_path(
    room: TestClient,
) -> None:
    still = room.post(
        "/api/stills", content=STILL.read_bytes(), headers={"content-type": "image/png"}
    )
    marks = with_literal(MARKS, ["landmarks", 1, "pixel", 0], PAST_FLOAT)
    for route in ("verdict", "marks"):
        call = room.put if route == "marks" else room.post
        response = call(f"/api/stills/{still.json()['id']}/{route}", content=marks, headers=JSON)
        assert response.status_code == 422, response.text
        assert response.json()["where"] == "$.landmarks[1].pixel[0]"
    assert room.get(f"/api/stills/{still.json()['id']}").json()["marks"] is None


@pytest.mark.parametrize("literal", ["NaN", "Infinity", "-Infinity", "1e999"])
def test_nan_and_infinity_are_422_with_their_path_not_stored_as_json_that_is_not(
    room: TestClient, literal: str
) -> None:
    text = with_literal(
        {**KANE, "meta": {"title": "x", "score": [1, 0]}}, ["meta", "score", 1], literal
    )
    response = room.post("/api/situations", content=text, headers=JSON)
    assert response.status_code == 422, response.text
    assert response.json()["where"] == "$.meta.score[1]" and "finite" in response.json()["error"]
    assert room.get("/api/situations").json() == []
    # In still marks and a decision the same (these went through readers that said less).
    still = room.post(
        "/api/stills", content=STILL.read_bytes(), headers={"content-type": "image/png"}
    )
    marks = with_literal(MARKS, ["meta"], literal)
    saved = room.put(f"/api/stills/{still.json()['id']}/marks", content=marks, headers=JSON)
    assert (saved.status_code, saved.json()["where"]) == (422, "$.meta")
    sid = room.post("/api/situations", json=KANE).json()["id"]
    body = f'{{"reviewer": "Ana", "decision": "confirm", "duration_s": {literal}}}'
    decided = room.post(f"/api/situations/{sid}/decisions", content=body, headers=JSON)
    assert (decided.status_code, decided.json()["where"]) == (422, "$.duration_s")


def test_a_client_ref_sent_again_with_another_decision_is_409_naming_the_field(
    room: TestClient,
) -> None:
    sid = room.post("/api/situations", json=KANE).json()["id"]
    decisions = f"/api/situations/{sid}/decisions"
    body = {"reviewer": "Ana", "decision": "offside", "duration_s": 3.25, "client_ref": "r1"}
    first = room.post(decisions, json=body)
    assert first.status_code == 201
    assert room.post(decisions, json=body).json() == first.json()  # the same one again: 200
    for change, where in [
        ({"decision": "no_offence"}, "$.decision"),
        ({"duration_s": 4}, "$.duration_s"),
        ({"note": "late flag"}, "$.note"),
        ({"facts": {"involvement": [{"touch": 0, "player": "kane", "kind": "challenges_opponent"}]}}, "$.facts"),
    ]:  # fmt: skip
        again = room.post(decisions, json={**body, **change})
        assert again.status_code == 409, (change, again.text)
        assert again.json()["where"] == where and again.json()["decision_id"] == first.json()["id"]
    assert [e["id"] for e in room.get("/api/decisions.json").json()] == [first.json()["id"]]


def _race_one_client_ref(url: str) -> list[int]:
    """Eight reviewers' clients send one client_ref at once, each with another duration: the
    statuses answered."""
    sid = httpx.post(f"{url}/api/situations", json=KANE).json()["id"]
    start = threading.Barrier(8)
    statuses: list[int] = []

    def send(n: int) -> None:
        body = {"reviewer": "Ana", "decision": "offside", "duration_s": n, "client_ref": "r"}
        start.wait()
        answer = httpx.post(f"{url}/api/situations/{sid}/decisions", json=body, timeout=30)
        statuses.append(answer.status_code)

    threads = [threading.Thread(target=send, args=(n,)) for n in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return sorted(statuses)


@pytest.mark.parametrize(
    "database", ["sqlite", pytest.param("postgresql", marks=pytest.mark.needs(Need.POSTGRESQL))]
)
def test_one_client_ref_sent_at_once_with_other_bodies_is_one_decision_and_409s(
    tmp_path: Path, database: str
) -> None:
    if database == "sqlite":
        with served(tmp_path / "data", None) as (url, _server):
            statuses = _race_one_client_ref(url)
    else:
        with throwaway_cluster() as cluster, served(tmp_path / "data", cluster.url()) as (url, _):
            statuses = _race_one_client_ref(url)
    assert statuses == [201] + [409] * 7


# -- uploads: a gzip bomb, a body over the limit ------------------------------------------------


def gzip_bomb(inflated_mib: int) -> bytes:
    """A StatsBomb events file that starts as one and inflates to `inflated_mib` MiB of
    spaces: 1 MiB compressed per GiB (gzip members, each 16 MiB inflated, one after another)."""
    spaces = gzip.compress(b" " * (16 << 20))
    return gzip.compress(b'[{"id": "e1", "type": {"name": "Pass"}') + spaces * (inflated_mib // 16)


def audit_files(*files: tuple[str, bytes]) -> list[tuple[str, tuple[str, bytes, str]]]:
    return [("files", (name, data, "application/octet-stream")) for name, data in files]


def test_compressed_uploads_that_do_not_inflate_or_inflate_too_far_are_refused(
    tmp_path: Path,
) -> None:
    ran: list[Any] = []
    app = create_app(
        None,
        None,
        tmp_path / "data",
        audit_runner=lambda provider, files, progress: ran.append(files) or [],
        max_inflated_bytes=32 << 20,
    )
    good = gzip.compress(b"1:2:3\n" * 1000)
    with TestClient(app, base_url="http://127.0.0.1") as client:
        data = {"provider": "tracab", "roles": ["meta_data", "raw_data"]}
        refused = [
            client.post("/api/audits", data=data, files=audit_files(*files))
            for files in [
                (("meta.xml", b"<x/>"), ("raw.dat.gz", good[:-30])),  # cut short
                (("meta.xml.xz", b"not xz"), ("raw.dat", b"1:2:3")),
                (("meta.xml.gz", good), ("raw.dat.gz", gzip_bomb(48))),  # past 32 MiB in all
            ]
        ]
        assert [(r.status_code, r.json()["where"]) for r in refused] == [
            (422, "$.files[1]"),
            (422, "$.files[0]"),
            (413, "$.files[1]"),
        ]
        assert "inflate" in refused[0].json()["error"] and "33554432" in refused[2].json()["error"]
        assert list((tmp_path / "data" / "uploads").iterdir()) == []
        accepted = client.post(
            "/api/audits",
            data=data,
            files=audit_files(("m.xml.gz", good), ("r.dat.bz2", bz2.compress(b"1:2:3"))),
        )
        assert accepted.status_code == 202, accepted.text
        assert wait_for(client, accepted.json()["id"])["state"] == "done"
    assert [sorted(files) for files in ran] == [["meta_data", "raw_data"]]


def peak_rss_mib(pid: int) -> float:
    """The process's peak resident memory so far (VmHWM), in MiB."""
    status = Path(f"/proc/{pid}/status").read_text()
    line = next(line for line in status.splitlines() if line.startswith("VmHWM:"))
    return int(line.split()[1]) / 1024


@pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="reads /proc")
def test_a_gzip_bomb_is_413_inflated_a_piece_at_a_time(tmp_path: Path) -> None:
    bomb = gzip_bomb(1024)  # 1 MiB that inflates to 1 GiB
    assert len(bomb) < 1.5 * 1024 * 1024
    with served(tmp_path / "data", None) as (url, server):
        files = audit_files(("events.json.gz", bomb))
        data = {"provider": "statsbomb", "roles": ["event_data"]}
        # A first audit upload imports what uploads need (kloppy's list of providers).
        httpx.post(f"{url}/api/audits", data=data, files=audit_files(("e.json", b"x")), timeout=60)
        time.sleep(0.5)
        before = peak_rss_mib(server.pid)
        answer = httpx.post(f"{url}/api/audits", data=data, files=files, timeout=60)
        grew = peak_rss_mib(server.pid) - before
    assert answer.status_code == 413, answer.text
    assert answer.json()["where"] == "$.files[0]"
    assert grew < 100, f"the server grew by {grew:.0f} MiB"  # 3 GiB when it read it whole
    assert list((tmp_path / "data" / "uploads").iterdir()) == []


def _post_raw(url: str, head: bytes, pieces: Iterator[bytes]) -> tuple[bytes, str | None]:
    """Send a request and all of its body, then read the answer to the end: (the answer,
    why sending or reading failed, or None)."""
    host, port = url.removeprefix("http://").rsplit(":", 1)
    failed = None
    with socket.create_connection((host, int(port)), timeout=30) as conn:
        answer = b""
        try:
            conn.sendall(head)
            for piece in pieces:
                conn.sendall(piece)
        except OSError as error:
            failed = f"sending: {error!r}"
        try:
            while chunk := conn.recv(65536):
                answer += chunk
        except OSError as error:
            failed = failed or f"reading: {error!r}"
    return answer, failed


@pytest.mark.parametrize("framing", ["content-length", "chunked", "audit chunked"])
def test_a_10_mb_body_is_read_to_its_end_and_answered_413_before_the_close(
    tmp_path: Path, framing: str
) -> None:
    """Closed with the body unread, the socket sent a reset: the client's send failed, and
    the 413 could be lost with it."""
    target = "/api/audits" if framing.startswith("audit") else "/api/situations"
    kind = "multipart/form-data; boundary=x" if target == "/api/audits" else "application/json"
    head = f"POST {target} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: {kind}\r\n"
    mib = b" " * (1 << 20)
    if framing == "content-length":
        head += f"Content-Length: {10 * len(mib)}\r\n\r\n"
        pieces = iter([mib] * 10)
    else:
        head += "Transfer-Encoding: chunked\r\n\r\n"
        pieces = iter([b"100000\r\n" + mib + b"\r\n"] * 10 + [b"0\r\n\r\n"])
        if target == "/api/audits":  # a file's part, so that the form reads as one
            part = b'--x\r\nContent-Disposition: form-data; name="files"; filename="t.dat"\r\n\r\n'
            head += f"{len(part):x}\r\n".encode().decode() + part.decode() + "\r\n"
    app = create_app(None, None, tmp_path / "data", max_audit_bytes=4 << 20)
    with serve_in_thread(app) as url:
        answer, failed = _post_raw(url, head.encode(), pieces)
    assert failed is None, failed
    assert answer.startswith(b"HTTP/1.1 413"), answer[:200]
    assert answer.endswith(b'bytes"}'), answer  # the whole answer, then the close


# -- what a server killed with SIGKILL left -----------------------------------------------------


@pytest.fixture(scope="module")
def tracab_match(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A 10-minute TRACAB match: its audit runs long enough to be killed in."""
    manifest = synthetic_season(tmp_path_factory.mktemp("synthetic"), matches=1, minutes=10)
    return manifest.parent / "m0000"


def test_what_a_killed_server_was_writing_is_removed_when_it_starts_again(
    tmp_path: Path, tracab_match: Path
) -> None:
    data = tmp_path / "data"
    files = audit_files(
        ("meta.xml", (tracab_match / "meta.xml").read_bytes()),
        ("tracking.dat.gz", gzip.compress((tracab_match / "tracking.dat").read_bytes(), 1)),
    )
    with served(data, None) as (url, server):
        started = httpx.post(
            f"{url}/api/audits",
            data={"provider": "tracab", "roles": ["meta_data", "raw_data"]},
            files=files,
            timeout=60,
        ).json()
        deadline = time.monotonic() + 60
        while httpx.get(f"{url}/api/audits/{started['id']}").json()["state"] == "queued":
            assert time.monotonic() < deadline
            time.sleep(0.01)
        os.kill(server.pid, signal.SIGKILL)  # while it audits: its uploads are still there
    assert (data / "uploads" / started["id"]).is_dir()
    # A still's bytes cut off by a kill as they are written: the name they are written under.
    partial = data / "stills" / ".0a1b2c.5d6e7f8a9b0c.part.png"
    partial.parent.mkdir(exist_ok=True)
    partial.write_bytes(STILL.read_bytes()[:1000])
    with served(data, None) as (url, _server):
        audit = httpx.get(f"{url}/api/audits/{started['id']}").json()
        assert (audit["state"], audit["error"]) == ("failed", "the server stopped during the audit")
        assert list((data / "uploads").iterdir()) == []
        assert not partial.exists()
