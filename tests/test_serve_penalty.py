"""`varroom serve` with penalty kicks (Law 14): uploaded or found by an audit, judged as
`varroom check` judges them, facts tracking cannot see re-judged at once, decided."""

from __future__ import annotations

import json
import warnings
from collections.abc import Iterator
from functools import cache
from pathlib import Path
from typing import Any

import pytest

with warnings.catch_warnings():
    warnings.simplefilter("ignore")  # starlette's note about httpx versions
    from fastapi.testclient import TestClient

from rooms import wait_for
from varroom.audit.model import Audit
from varroom.audit.run import audit_match
from varroom.engine.penalty import judge_penalty
from varroom.formats.penalty_json import penalty_kick_from_dict, penalty_kick_to_dict
from varroom.serve import create_app
from varroom.serve.audit import incident_dict
from varroom.synthetic.match import SyntheticConfig, synthetic_match

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = sorted((ROOT / "examples" / "penalty").glob("*.json"))
# Reyes (Rovers) inside the area at the kick, the goal scored: not penalised unless he
# affected the goalkeeper or played on (Law 14.2, 24/25).
ENCROACHED = ROOT / "examples" / "penalty" / "encroachment-without-impact-not-penalised-goal.json"
KANE = ROOT / "examples" / "tottenham-sporting-2022-kane.json"


@cache
def synthetic_audit() -> Audit:
    """Two short halves with one planted kick of each kind, their events named."""
    config = SyntheticConfig(seed=5, period_s=600.0, incidents_per_kind=1, penalties_per_kind=1)
    return audit_match(synthetic_match(config).match)


def _audit_runner(provider: str, files: Any, progress: Any) -> Any:
    """The default runner's last step, on the synthetic match's kicks."""
    audit = synthetic_audit()
    return [incident_dict(kick, audit.match) for kick in audit.penalties]


@pytest.fixture
def room(tmp_path: Path) -> Iterator[TestClient]:
    app = create_app(None, None, tmp_path / "data", audit_runner=_audit_runner)
    with TestClient(app, base_url="http://127.0.0.1") as client:
        yield client


def upload(room: TestClient, path: Path) -> str:
    response = room.post(
        "/api/situations",
        params={"filename": path.name},
        content=path.read_bytes(),
        headers={"content-type": "application/json"},
    )
    assert response.status_code == 201, response.text
    return f"/api/situations/{response.json()['id']}"


def loaded(room: TestClient, incident: str) -> tuple[dict[str, Any], str]:
    response = room.get(incident)
    return response.json(), response.headers["etag"]


@pytest.mark.parametrize("path", EXAMPLES, ids=[p.stem for p in EXAMPLES])
def test_a_kick_written_back_reads_as_the_same_kick(path: Path) -> None:
    kick = penalty_kick_from_dict(json.loads(path.read_text(encoding="utf-8")))
    assert penalty_kick_from_dict(penalty_kick_to_dict(kick)) == kick


def test_an_uploaded_kick_is_judged_refacted_and_decided(room: TestClient) -> None:
    incident = upload(room, ENCROACHED)
    detail, tag = loaded(room, incident)
    expected = judge_penalty(penalty_kick_from_dict(json.loads(ENCROACHED.read_text())))
    assert detail["kind"] == "penalty_kick" and detail["touches"] == []
    assert (detail["status"], detail["verdict"]["decision"]) == ("goal", "goal")
    assert detail["verdict"]["offences"] == [o.to_dict() for o in expected.offences]
    assert detail["summary"]["call"] == "GOAL"
    assert detail["facts"]["penalty"]["encroacher_involved"] == []
    # Reyes then played the rebound: his encroachment counts, and the kick is retaken.
    facts = {"penalty": {"encroacher_involved": ["reyes"]}}
    changed = room.post(f"{incident}/facts", json=facts, headers={"if-match": tag})
    assert changed.status_code == 200, changed.text
    body = changed.json()
    assert (body["verdict"]["decision"], body["verdict_changed"]) == ("retake", True)
    assert [o["penalised"] for o in body["verdict"]["offences"]] == [True]
    assert body["changes"] == [
        "Luis Reyes encroached, then played or challenged for the ball (added)"
    ]
    assert body["summary"]["label"].startswith("RETAKE \u00b7 Luis Reyes +")
    detail, tag = loaded(room, incident)
    decided = room.post(
        f"{incident}/decisions",
        json={"reviewer": "Ana", "decision": "confirm", "duration_s": 12},
        headers={"if-match": tag},
    )
    assert decided.status_code == 201, decided.text
    entry = decided.json()
    assert (entry["outcome"], entry["engine_status"]) == ("retake", "retake")
    assert entry["facts"]["penalty"]["encroacher_involved"] == ["reyes"]
    overturned = room.post(
        f"{incident}/decisions", json={"reviewer": "Ben", "decision": "goal", "duration_s": 20}
    ).json()
    assert overturned["outcome"] == "goal" and overturned["conflicts_with"] == [entry["id"]]
    assert room.get(incident).json()["conflict"] is True


def test_the_decisions_and_facts_of_the_other_kind_are_refused(room: TestClient) -> None:
    kick, situation = upload(room, ENCROACHED), upload(room, KANE)

    def decide(incident: str, decision: str) -> Any:
        body = {"reviewer": "Ana", "decision": decision, "duration_s": 3}
        return room.post(f"{incident}/decisions", json=body)

    for incident, decision in ((kick, "offside"), (situation, "retake")):
        refused = decide(incident, decision)
        assert (refused.status_code, refused.json()["where"]) == (422, "$.decision")
    wrong = {
        kick: ({"plays": [{"touch": 0, "kind": "save"}]}, "$.plays"),
        situation: ({"penalty": {"feint_after_run_up": True}}, "$.penalty"),
    }
    for incident, (facts, where) in wrong.items():
        refused = room.post(f"{incident}/facts", json=facts)
        assert (refused.status_code, refused.json()["where"]) == (422, where)
    unknown = room.post(f"{kick}/facts", json={"penalty": {"encroacher_involved": ["nobody"]}})
    assert unknown.json()["where"] == "$.penalty.encroacher_involved[0]"
    assert room.get("/api/decisions.json").json() == []


def test_the_room_judges_an_audits_kicks_as_the_audit_did_and_adds_none_twice(
    room: TestClient,
) -> None:
    kicks = synthetic_audit().penalties
    assert len({k.verdict.decision for k in kicks}) >= 3  # more than one row of the table

    def audit() -> dict[str, Any]:
        started = room.post(
            "/api/audits",
            data={"provider": "skillcorner", "roles": ["raw_data"]},
            files=[("files", ("t.jsonl", b"{}", "application/octet-stream"))],
        ).json()
        return wait_for(room, started["id"])

    first = audit()
    assert (first["state"], first["incidents_added"]) == ("done", len(kicks)), first
    shown = []
    for item in room.get("/api/situations").json():
        detail = room.get(f"/api/situations/{item['id']}").json()
        audited = detail["meta"]["audit"]["verdict"]
        assert detail["verdict"]["decision"] == audited["decision"]
        assert detail["verdict"]["offences"] == audited["offences"]
        shown.append((detail["meta"]["audit"]["t_s"], detail["verdict"]["decision"]))
    assert sorted(shown) == sorted((round(k.t_s, 3), k.verdict.decision.value) for k in kicks)
    second = audit()
    assert (second["incidents_added"], second["incidents_known"]) == (0, len(kicks))
