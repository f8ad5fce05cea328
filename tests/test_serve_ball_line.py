"""`varroom serve` with ball lines (Laws 9 and 10): uploaded or found by an audit, judged as
`varroom check` judges them, pictured as the goal-line-technology view, decided."""

from __future__ import annotations

import csv
import io
import json
import warnings
from collections.abc import Iterator
from functools import cache
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

with warnings.catch_warnings():
    warnings.simplefilter("ignore")  # starlette's note about httpx versions
    from fastapi.testclient import TestClient

from rooms import wait_for
from varroom.audit.ball_lines import BallLineWhat
from varroom.audit.model import Audit
from varroom.audit.run import audit_match
from varroom.engine.ball_line import judge_ball_line
from varroom.formats.ball_line_json import ball_line_from_dict, ball_line_to_dict
from varroom.model.ball_line import (
    BallLineCase,
    BallNoise,
    BallTrack,
    BallTrackingSource,
    Goal,
)
from varroom.model.situation import Pitch
from varroom.profiles import ifab
from varroom.serve import create_app
from varroom.serve.audit import incident_dict
from varroom.synthetic.match import SyntheticConfig, synthetic_match

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = sorted((ROOT / "examples" / "ball-line").glob("*.json"))
# 6 mm over between the posts, the on-field call no goal (examples/ball-line/README.md).
GOAL_BY_MM = ROOT / "examples" / "ball-line" / "goal-by-millimetres.json"
OVER_THE_BAR = ROOT / "examples" / "ball-line" / "over-the-bar.json"
ENCROACHED = ROOT / "examples" / "penalty" / "encroachment-without-impact-not-penalised-goal.json"


def same_case(a: BallLineCase, b: BallLineCase) -> bool:
    """Field by field: a case holds arrays, so it has no == of its own."""
    return (
        np.array_equal(a.track.t_s, b.track.t_s)
        and np.array_equal(a.track.xyz_m, b.track.xyz_m)
        and (a.pitch, a.goal, a.ball_radius_m, a.noise, a.on_field_decision)
        == (b.pitch, b.goal, b.ball_radius_m, b.noise, b.on_field_decision)
        and dict(a.meta) == dict(b.meta)
    )


@cache
def synthetic_audit() -> Audit:
    """Two short halves with planted ball-outs play went on after, and goal-line moments."""
    config = SyntheticConfig(seed=5, period_s=600.0, incidents_per_kind=1, ball_lines_per_kind=1)
    return audit_match(synthetic_match(config).match)


def audited_ball_lines() -> list[Any]:
    """Every ball line the audit found: missed ball-outs and goal-line moments alike."""
    found = list(synthetic_audit().ball_lines)
    assert {b.what for b in found} == set(BallLineWhat)
    return found


def _audit_runner(provider: str, files: Any, progress: Any) -> Any:
    """The default runner's last step, on the synthetic match's ball lines."""
    audit = synthetic_audit()
    return [incident_dict(b, audit.match) for b in audited_ball_lines()]


@pytest.fixture
def room(tmp_path: Path) -> Iterator[TestClient]:
    app = create_app(None, None, tmp_path / "data", audit_runner=_audit_runner)
    with TestClient(app, base_url="http://127.0.0.1") as client:
        yield client


def post(room: TestClient, body: bytes, name: str = "ball.json") -> Any:
    return room.post(
        "/api/situations",
        params={"filename": name},
        content=body,
        headers={"content-type": "application/json"},
    )


def decide(
    room: TestClient, incident: str, reviewer: str, decision: str, tag: str | None = None
) -> Any:
    """A decision; with `tag`, on the facts at that version (If-Match)."""
    body = {"reviewer": reviewer, "decision": decision, "duration_s": 9}
    return room.post(f"{incident}/decisions", json=body, headers={"if-match": tag} if tag else {})


# A match's files as the page sends them: the runner here ignores them.
AUDIT_FORM: dict[str, Any] = {
    "data": {"provider": "skillcorner", "roles": ["raw_data"]},
    "files": [("files", ("t.jsonl", b"{}", "application/octet-stream"))],
}


def upload(room: TestClient, path: Path) -> str:
    response = post(room, path.read_bytes(), path.name)
    assert response.status_code == 201, response.text
    return f"/api/situations/{response.json()['id']}"


@pytest.mark.parametrize("path", EXAMPLES, ids=[p.stem for p in EXAMPLES])
def test_a_ball_line_written_back_reads_as_the_same_ball_line(path: Path) -> None:
    case = ball_line_from_dict(json.loads(path.read_text(encoding="utf-8")))
    again = ball_line_from_dict(json.loads(json.dumps(ball_line_to_dict(case))))
    assert same_case(again, case)
    assert judge_ball_line(again) == judge_ball_line(case)


_COORD = st.floats(-50.0, 50.0, allow_nan=False)


@settings(max_examples=40, deadline=None)
@given(
    steps=st.lists(st.floats(0.001, 0.1), min_size=1, max_size=8),
    xyz=st.lists(st.tuples(_COORD, _COORD, st.floats(0.0, 5.0)), min_size=9, max_size=9),
    radius=st.floats(0.05, 0.2),
    source=st.sampled_from(BallTrackingSource),
    sd=st.floats(0.0, 0.05),
    goal=st.tuples(st.floats(5.0, 8.0), st.floats(2.0, 3.0), st.floats(0.0, 0.2)),
    on_field=st.none() | st.sampled_from(["goal", "no_goal", "out_of_play", "in_play"]),
)
def test_any_ball_line_written_back_reads_as_the_same(
    steps: list[float],
    xyz: list[tuple[float, float, float]],
    radius: float,
    source: BallTrackingSource,
    sd: float,
    goal: tuple[float, float, float],
    on_field: str | None,
) -> None:
    t_s = np.concatenate([[0.0], np.cumsum(steps)])
    case = BallLineCase(
        BallTrack(t_s, np.array(xyz[: len(t_s)], dtype=np.float64)),
        pitch=Pitch(),
        goal=Goal(*goal),
        ball_radius_m=radius,
        noise=BallNoise(source, sd),
        on_field_decision=on_field,
        meta={"match": "a v b"},
    )
    assert same_case(ball_line_from_dict(json.loads(json.dumps(ball_line_to_dict(case)))), case)


def test_an_uploaded_ball_line_is_judged_pictured_and_decided(room: TestClient) -> None:
    incident = upload(room, GOAL_BY_MM)
    detail = room.get(incident).json()
    expected = judge_ball_line(ball_line_from_dict(json.loads(GOAL_BY_MM.read_text())))
    assert (detail["kind"], detail["players"], detail["touches"]) == ("ball_line", [], [])
    assert detail["verdict"] == {**expected.to_dict(), "status": "goal", "profile": ifab().stamp()}
    assert detail["summary"]["call"] == "GOAL"
    assert detail["summary"]["label"] == "GOAL \u00b7 ball +6.0 mm"
    assert detail["on_field"] == {"decision": "no_goal"}
    assert (detail["facts"], detail["changes"]) == ({}, [])
    queued = room.get("/api/situations").json()
    assert [(q["status"], q["verdict"]["who"], q["verdict"]["margin_text"]) for q in queued] == [
        ("goal", "ball", "+6.0 mm")
    ]
    picture = room.get(f"{incident}/image.png")
    assert picture.status_code == 200 and picture.content.startswith(b"\x89PNG")
    confirmed = decide(room, incident, "Ana", "confirm", room.get(incident).headers["etag"])
    assert confirmed.status_code == 201, confirmed.text
    entry = confirmed.json()
    assert (entry["outcome"], entry["engine_status"], entry["facts"]) == ("goal", "goal", {})
    overturned = decide(room, incident, "Ben", "in_play").json()
    assert overturned["outcome"] == "in_play" and overturned["conflicts_with"] == [entry["id"]]
    assert room.get(incident).json()["conflict"] is True
    exported = csv.DictReader(io.StringIO(room.get("/api/decisions.csv").text))
    assert [(r["decision"], r["outcome"], r["engine_status"]) for r in exported] == [
        ("confirm", "goal", "goal"),
        ("in_play", "in_play", "goal"),
    ]


def test_over_the_bar_is_out_of_play_and_pictured(room: TestClient) -> None:
    incident = upload(room, OVER_THE_BAR)
    detail = room.get(incident).json()
    assert (detail["status"], detail["summary"]["label"]) == (
        "out_of_play",
        "OUT OF PLAY \u00b7 ball +1.39 m",
    )
    assert room.get(f"{incident}/image.png").status_code == 200


def test_a_ball_line_takes_its_own_decisions_and_no_facts(room: TestClient) -> None:
    ball, kick = upload(room, GOAL_BY_MM), upload(room, ENCROACHED)
    for incident, decision in ((ball, "offside"), (ball, "retake"), (kick, "out_of_play")):
        refused = decide(room, incident, "Ana", decision)
        assert (refused.status_code, refused.json()["where"]) == (422, "$.decision")
    for facts, where in (
        ({"plays": [{"touch": 0, "kind": "save"}]}, "$.plays"),
        ({"penalty": {"feint_after_run_up": True}}, "$.penalty"),
        ({"off_field": [{"touch": 0, "player": "x", "status": "stepped_off"}]}, "$.off_field"),
    ):
        refused = room.post(f"{ball}/facts", json=facts)
        assert (refused.status_code, refused.json()["where"]) == (422, where)
    assert room.get("/api/decisions.json").json() == []


@pytest.mark.parametrize(
    ("change", "where"),
    [
        (lambda d: d.update(ball_track=d["ball_track"][:1]), "$.ball_track"),
        (lambda d: d["ball_track"][3].__setitem__(0, -1.0), "$.ball_track[3][0]"),
        (lambda d: d["ball_track"][2].__setitem__(3, "high"), "$.ball_track[2][3]"),
        (lambda d: d.update(ball_radius_m=-0.11), "$.ball_radius_m"),
        (lambda d: d.update(noise={"source": "radar"}), "$.noise.source"),
        (lambda d: d.update(goal={"width": 0}), "$.goal.width"),
        (lambda d: d.pop("ball_track"), "$.ball_track"),
    ],
)
def test_a_bad_ball_line_is_a_422_with_its_json_path(
    room: TestClient, change: Any, where: str
) -> None:
    data = json.loads(GOAL_BY_MM.read_text())
    change(data)
    response = post(room, json.dumps(data).encode())
    assert response.status_code == 422, response.text
    assert response.json()["where"] == where
    assert room.get("/api/situations").json() == []


def test_the_room_judges_an_audits_ball_lines_as_the_audit_did_and_adds_none_twice(
    room: TestClient,
) -> None:
    found = audited_ball_lines()
    assert len({b.verdict.decision for b in found}) >= 2, found
    # The same files twice: the second audit finds the same ball lines and adds none.
    for added, known in ((len(found), 0), (0, len(found))):
        done = wait_for(room, room.post("/api/audits", **AUDIT_FORM).json()["id"])
        assert (done["state"], done["incidents_added"], done["incidents_known"]) == (
            "done",
            added,
            known,
        ), done
    shown = []
    for item in room.get("/api/situations").json():
        detail = room.get(f"/api/situations/{item['id']}").json()
        audited = detail["meta"]["audit"]
        assert detail["kind"] == audited["kind"] == "ball_line"
        judged = {**audited["verdict"], "status": audited["verdict"]["decision"]}
        assert {**judged, "profile": ifab().stamp()} == detail["verdict"]
        shown.append((audited["t_s"], detail["status"]))
    assert sorted(shown) == sorted((round(b.t_s, 3), b.verdict.decision.value) for b in found)
