"""The review room's stills: upload, suggest, judge with marks, save them with the incident,
decide on it (docs/review-room-still.md)."""

from __future__ import annotations

import copy
import io
import json
import stat
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from PIL import Image

from varroom.serve import create_app
from varroom.serve.service.stills import MAX_SIDE_PX

ROOT = Path(__file__).resolve().parent.parent
STILL = ROOT / "examples" / "still" / "offside-by-20cm.png"
MARKS = json.loads((ROOT / "examples" / "still" / "offside-by-20cm.marks.json").read_text())
ONSIDE = ROOT / "examples" / "still" / "onside-by-15cm.png"


@pytest.fixture
def room(tmp_path: Path) -> Iterator[TestClient]:
    app = create_app(None, None, tmp_path / "data")
    with TestClient(app, base_url="http://127.0.0.1") as client:
        yield client


def _upload(client: TestClient, body: bytes, media_type: str = "image/png") -> Any:
    return client.post(
        "/api/stills",
        content=body,
        params={"filename": "broadcast.png"},
        headers={"content-type": media_type},
    )


def _still(client: TestClient) -> int:
    response = _upload(client, STILL.read_bytes())
    assert response.status_code == 201, response.text
    still_id: int = response.json()["id"]
    return still_id


def _marks(**changes: Any) -> dict[str, Any]:
    marks = copy.deepcopy(MARKS)
    marks.update(changes)
    return marks


def _png(width: int, height: int) -> bytes:
    out = io.BytesIO()
    Image.new("RGB", (width, height), (30, 120, 40)).save(out, format="PNG")
    return out.getvalue()


def test_an_uploaded_still_is_kept_private_with_its_size(room: TestClient, tmp_path: Path) -> None:
    response = _upload(room, STILL.read_bytes())
    assert response.status_code == 201
    still = response.json()
    assert response.headers["location"] == f"/api/stills/{still['id']}"
    assert (still["width"], still["height"], still["media_type"]) == (1920, 1080, "image/png")
    assert still["situation_id"] is None and still["marks"] is None
    assert room.get(f"/api/stills/{still['id']}/image").content == STILL.read_bytes()
    (kept,) = (tmp_path / "data" / "stills").iterdir()
    assert stat.S_IMODE(kept.stat().st_mode) == 0o600
    assert str(tmp_path) not in response.text
    # The same picture again is a second still, its bytes kept once.
    assert _upload(room, STILL.read_bytes()).json()["id"] == still["id"] + 1
    assert len(list((tmp_path / "data" / "stills").iterdir())) == 1


def test_a_jpeg_is_a_still_too(room: TestClient) -> None:
    out = io.BytesIO()
    Image.open(ONSIDE).convert("RGB").save(out, format="JPEG")
    response = _upload(room, out.getvalue(), "image/jpeg")
    assert response.status_code == 201
    assert response.json()["media_type"] == "image/jpeg"


@pytest.mark.parametrize(
    ("body", "media_type", "status", "error"),
    [
        (b"GIF89a....", "image/gif", 415, "image/png or image/jpeg"),
        (b"\x89PNG\r\n\x1a\n not really", "image/png", 422, "not a PNG picture"),
        (STILL.read_bytes(), "image/jpeg", 422, "not a JPEG picture"),
        (STILL.read_bytes()[:5000], "image/png", 422, "not a PNG picture"),
        (_png(MAX_SIDE_PX + 1, 10), "image/png", 422, f"at most {MAX_SIDE_PX} pixels a side"),
        (_png(8, 8), "image/png", 422, "too small"),
    ],
)
def test_what_is_not_a_still_is_refused(
    room: TestClient, body: bytes, media_type: str, status: int, error: str
) -> None:
    response = _upload(room, body, media_type)
    assert response.status_code == status, response.text
    assert error in response.json()["error"]
    assert room.get("/api/stills/1").status_code == 404


def test_a_still_over_the_size_limit_is_413_and_other_bodies_keep_theirs(room: TestClient) -> None:
    big = b"\x89PNG\r\n\x1a\n" + bytes(26 * 1024 * 1024)
    response = _upload(room, big)
    assert response.status_code == 413
    assert "limit" in response.json()["error"]
    # A still's limit is for the upload alone: marks keep the situation's 2 MiB.
    still_id = _still(room)
    padded = _marks(meta={"padding": "x" * (3 * 1024 * 1024)})
    assert room.post(f"/api/stills/{still_id}/verdict", json=padded).status_code == 413


def test_the_marks_give_the_verdict_of_varroom_still(room: TestClient) -> None:
    still_id = _still(room)
    response = room.post(f"/api/stills/{still_id}/verdict", json=MARKS)
    assert response.status_code == 200, response.text
    verdict = response.json()
    assert (verdict["status"], verdict["offender"]) == ("offence", "a9")
    assert verdict["margin_m"] == pytest.approx(MARKS["meta"]["truth_margin_m"], abs=0.01)
    assert verdict["calibration"]["landmarks"] == len(MARKS["landmarks"])
    assert verdict["summary"]["call"] == "OFFSIDE"
    assert set(verdict["points_m"]) == {*MARKS["marks"], "$ball"}
    assert verdict["situation"]["players"][0]["id"] == "a9"
    assert room.get(f"/api/stills/{still_id}").json()["marks"] is None  # nothing stored


@pytest.mark.parametrize(
    ("change", "where"),
    [
        ({"landmarks": MARKS["landmarks"][:3]}, "$.landmarks"),
        ({"marks": {**MARKS["marks"], "x99": {"pixel": [10, 10]}}}, "$.marks"),
        ({"marks": {**MARKS["marks"], "a9": {"pixel": [2500, 10]}}}, "$.marks.a9.pixel"),
        ({"involved": "d4"}, "$.involved"),
        (
            {"landmarks": [{**MARKS["landmarks"][0], "pitch": [80.0, 0.0]}, *MARKS["landmarks"]]},
            "$.landmarks[0].pitch",
        ),
        ({"ball": {}}, "$.ball"),
    ],
)
def test_bad_marks_are_422_with_the_json_path(
    room: TestClient, change: dict[str, Any], where: str
) -> None:
    still_id = _still(room)
    for route in ("verdict", "picture.png"):
        response = room.post(f"/api/stills/{still_id}/{route}", json=_marks(**change))
        assert response.status_code == 422, response.text
        assert response.json()["where"] == where
    response = room.put(f"/api/stills/{still_id}/marks", json=_marks(**change))
    assert response.status_code == 422 and response.json()["where"] == where
    assert room.get(f"/api/stills/{still_id}").json()["situation_id"] is None


def test_marks_that_are_not_json_or_not_an_object_are_422(room: TestClient) -> None:
    still_id = _still(room)
    response = room.post(
        f"/api/stills/{still_id}/verdict",
        content=b"{not json",
        headers={"content-type": "application/json"},
    )
    assert response.status_code == 422 and response.json()["where"] == "$"
    response = room.post(f"/api/stills/{still_id}/verdict", json=[1, 2])
    assert response.status_code == 422
    assert room.post("/api/stills/99/verdict", json=MARKS).status_code == 404


def test_the_picture_is_the_still_with_the_line_drawn(room: TestClient) -> None:
    still_id = _still(room)
    response = room.post(f"/api/stills/{still_id}/picture.png", json=MARKS)
    assert response.status_code == 200
    assert response.headers["content-type"] == "image/png"
    drawn = Image.open(io.BytesIO(response.content))
    assert drawn.size == (1920, 1080)
    original = Image.open(STILL).convert("RGB")
    assert drawn.convert("RGB").tobytes() != original.tobytes()


def test_saved_marks_queue_an_incident_and_each_decision_keeps_its_marks(
    room: TestClient,
) -> None:
    still_id = _still(room)
    assert (
        room.post(
            f"/api/stills/{still_id}/decisions",
            json={"reviewer": "A", "decision": "confirm", "duration_s": 1},
            headers={"if-match": '"f0"'},
        ).status_code
        == 409
    )
    saved = room.put(f"/api/stills/{still_id}/marks", json=MARKS)
    assert saved.status_code == 200, saved.text
    still = saved.json()
    assert saved.headers["etag"] == '"f0"'
    assert still["marks"] == MARKS and still["verdict"]["status"] == "offence"
    incident = room.get(f"/api/situations/{still['situation_id']}").json()
    assert (incident["origin"], incident["status"]) == ("still", "offence")
    assert room.get(f"/api/stills/{still_id}").json()["marks"] == MARKS

    entry = {"reviewer": "A. Referee", "decision": "confirm", "duration_s": 12.5}
    missing = room.post(f"/api/stills/{still_id}/decisions", json=entry)
    assert missing.status_code == 422 and missing.json()["where"] == "header:If-Match"
    first = room.post(f"/api/stills/{still_id}/decisions", json=entry, headers={"if-match": '"f0"'})
    assert first.status_code == 201, first.text
    assert first.json()["outcome"] == "offside" and first.json()["marks"] == MARKS

    # a9 moved back 60 px (towards his own goal): onside, a new version of the marks.
    moved = _marks(marks={**MARKS["marks"], "a9": {"pixel": [775.3, 511.6]}})
    stale = room.put(f"/api/stills/{still_id}/marks", json=moved, headers={"if-match": '"f7"'})
    assert stale.status_code == 409
    resaved = room.put(f"/api/stills/{still_id}/marks", json=moved, headers={"if-match": '"f0"'})
    assert resaved.status_code == 200 and resaved.headers["etag"] == '"f1"'
    assert resaved.json()["verdict"]["status"] == "no_offence"
    # A decision made on the old marks is refused now (the reviewer must look again).
    old = room.post(
        f"/api/stills/{still_id}/decisions",
        json={**entry, "reviewer": "B"},
        headers={"if-match": '"f0"'},
    )
    assert old.status_code == 409
    second = room.post(
        f"/api/stills/{still_id}/decisions",
        json={**entry, "reviewer": "B", "client_ref": "b-1"},
        headers={"if-match": '"f1"'},
    )
    assert second.status_code == 201 and second.json()["outcome"] == "no_offence"
    again = room.post(
        f"/api/stills/{still_id}/decisions",
        json={**entry, "reviewer": "B", "client_ref": "b-1"},
        headers={"if-match": '"f1"'},
    )
    assert again.status_code == 200 and again.json()["id"] == second.json()["id"]

    decisions = room.get(f"/api/stills/{still_id}/decisions").json()
    assert [d["marks"]["marks"]["a9"]["pixel"] for d in decisions] == [
        MARKS["marks"]["a9"]["pixel"],
        [775.3, 511.6],
    ]
    assert decisions[0]["marks_id"] != decisions[1]["marks_id"]
    assert all(d["marks_recorded"] for d in decisions)
    # They are the room's decisions, in its one log; one made on the main page (which knows
    # nothing of marks) is shown with the marks saved last before it.
    situation_id = still["situation_id"]
    main = room.post(
        f"/api/situations/{situation_id}/decisions",
        json={**entry, "reviewer": "C"},
        headers={"if-match": '"f1"'},
    )
    assert main.status_code == 201
    log = room.get("/api/decisions.json").json()
    decisions = room.get(f"/api/stills/{still_id}/decisions").json()
    assert [e["id"] for e in log] == [d["id"] for d in decisions]
    assert decisions[-1]["marks_recorded"] is False
    assert decisions[-1]["marks_id"] == decisions[1]["marks_id"]


def _suggestions(room: TestClient, still_id: int) -> dict[str, Any]:
    """The still's suggestions, asked again while the room's worker computes them."""
    for _ in range(600):
        response = room.get(f"/api/stills/{still_id}/suggestions")
        if response.status_code != 202:
            assert response.status_code == 200, response.text
            found: dict[str, Any] = response.json()
            return found
        assert response.json() == {"state": "computing"}
        assert response.headers["retry-after"] == "1"
        time.sleep(0.1)
    raise AssertionError("the suggestions never came")


def test_suggestions_are_computed_once_per_still_in_the_rooms_worker(
    room: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 23: 14-23 s of CPU a call, uncached. The first ask is 202, then the result;
    every later ask, and another still with the same picture, is answered from what was kept."""
    pytest.importorskip("cv2")
    import varroom.still.suggest as suggest

    calls: list[int] = []
    found_landmarks = suggest.suggest_landmarks

    def counted(*args: Any, **kwargs: Any) -> Any:
        calls.append(1)
        time.sleep(0.3)  # slow enough that the first answer is 202
        return found_landmarks(*args, **kwargs)

    monkeypatch.setattr(suggest, "suggest_landmarks", counted)
    still_id = _still(room)
    first = room.get(f"/api/stills/{still_id}/suggestions")
    assert first.status_code == 202
    found = _suggestions(room, still_id)
    again = [_suggestions(room, still_id) for _ in range(3)]
    same_picture = _still(room)
    assert _suggestions(room, same_picture) == found == again[0]
    assert calls == [1]
    # The other direction of attack is a suggestion of its own.
    other = room.get(f"/api/stills/{still_id}/suggestions?towards=-x")
    assert other.status_code == 202
    for _ in range(600):  # done before the room closes
        if room.get(f"/api/stills/{still_id}/suggestions?towards=-x").status_code == 200:
            break
        time.sleep(0.1)
    assert calls == [1, 1]


def test_without_opencv_nothing_is_suggested_and_the_answer_says_so(
    room: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    still_id = _still(room)
    monkeypatch.setitem(sys.modules, "varroom.still.suggest", None)  # import fails: no cv2
    found = _suggestions(room, still_id)
    assert found["available"] is False
    assert "OpenCV is not installed" in found["reason"]
    assert found["landmarks"] == [] and found["players"] == []


def test_with_opencv_the_suggested_landmarks_are_in_the_marks_format(room: TestClient) -> None:
    pytest.importorskip("cv2")
    still_id = _still(room)
    found = _suggestions(room, still_id)
    assert found["available"] is True and found["line_error_px"] < 1.8
    truth = {tuple(lm["pitch"]): lm["pixel"] for lm in MARKS["landmarks"]}
    # Landmarks the example's marks leave out (the halfway line's end) may be suggested too.
    near = [
        lm
        for lm in found["landmarks"]
        if tuple(lm["pitch"]) in truth
        and max(abs(a - b) for a, b in zip(lm["pixel"], truth[tuple(lm["pitch"])], strict=True)) < 5
    ]
    assert len(near) >= len(MARKS["landmarks"]) - 1
    # The suggestion, accepted as it stands, judges as the exact marks do.
    verdict = room.post(
        f"/api/stills/{still_id}/verdict", json=_marks(landmarks=found["landmarks"])
    ).json()
    assert verdict["status"] == "offence"


def test_the_landmarks_to_click_follow_the_half_attacked(room: TestClient) -> None:
    plus = room.get("/api/stills/pitch-points").json()
    minus = room.get("/api/stills/pitch-points", params={"towards": "-x"}).json()
    assert {tuple(lm["pitch"]) for lm in MARKS["landmarks"]} <= {tuple(p["pitch"]) for p in plus}
    assert [p["pitch"][0] for p in minus] == [-p["pitch"][0] for p in plus]
    assert any(len(p["pitch"]) == 3 for p in plus)  # the goalposts' tops, for a full camera
    assert room.get("/api/stills/pitch-points", params={"towards": "up"}).status_code == 422


def test_the_still_page_is_served_and_linked_from_the_room(room: TestClient) -> None:
    page = room.get("/still")
    assert page.status_code == 200 and "/static/still.js" in page.text
    assert 'href="/still"' in room.get("/").text
    assert room.get("/static/still.js").status_code == 200
