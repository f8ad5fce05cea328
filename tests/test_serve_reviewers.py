"""`varroom serve` with two reviewers on one incident: stale facts are 409, contradictory
decisions are a conflict until resolved, and a decision records what its reviewer saw."""

from __future__ import annotations

import json
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

with warnings.catch_warnings():
    warnings.simplefilter("ignore")  # starlette's note about httpx versions
    from fastapi.testclient import TestClient

from varroom.serve import create_app

ROOT = Path(__file__).resolve().parent.parent
KANE = json.loads((ROOT / "examples" / "tottenham-sporting-2022-kane.json").read_text())
# Kane's chain: touch 2 is the deflection that makes him offside; a deliberate play makes
# the verdict no offence (Law 11.2).
DELIBERATE = {"plays": [{"touch": 2, "kind": "deliberate_play"}]}


@pytest.fixture
def room(tmp_path: Path) -> Iterator[TestClient]:
    app = create_app(None, None, tmp_path / "data")
    with TestClient(app, base_url="http://127.0.0.1") as client:
        yield client


@pytest.fixture
def incident(room: TestClient) -> str:
    sid = room.post("/api/situations", json=KANE).json()["id"]
    return f"/api/situations/{sid}"


def loaded(room: TestClient, incident: str) -> tuple[dict[str, Any], str]:
    """What a reviewer's page holds: the incident and its ETag."""
    response = room.get(incident)
    return response.json(), response.headers["etag"]


def decide(room: TestClient, incident: str, reviewer: str, decision: str, **more: Any) -> Any:
    tag = more.pop("tag", None)
    body = {"reviewer": reviewer, "decision": decision, "duration_s": 9, **more}
    headers = {"if-match": tag} if tag else {}
    return room.post(f"{incident}/decisions", json=body, headers=headers)


def test_facts_set_on_a_stale_incident_are_409_with_the_facts_now(
    room: TestClient, incident: str
) -> None:
    _, tag_ana = loaded(room, incident)
    _, tag_ben = loaded(room, incident)
    assert tag_ana == tag_ben == '"f0"'
    ana = room.post(f"{incident}/facts", json=DELIBERATE, headers={"if-match": tag_ana})
    assert ana.status_code == 200 and ana.headers["etag"] == '"f1"'
    ben = room.post(f"{incident}/facts", json={"plays": []}, headers={"if-match": tag_ben})
    assert ben.status_code == 409
    body = ben.json()
    assert body["where"] == "header:If-Match"
    assert (body["facts"], body["facts_version"]) == (ana.json()["facts"], 1)
    detail, tag = loaded(room, incident)
    assert (detail["facts"]["plays"], detail["status"], tag) == (
        DELIBERATE["plays"],
        "no_offence",
        '"f1"',
    )


def test_a_confirm_on_a_stale_incident_is_409_not_the_other_reviewers_verdict(
    room: TestClient, incident: str
) -> None:
    # Ben looks at OFFSIDE; Ana flips the deflection to a deliberate play (NO OFFENCE);
    # Ben's confirm meant OFFSIDE and must not be logged as no offence.
    seen, tag_ben = loaded(room, incident)
    assert seen["status"] == "offence"
    room.post(f"{incident}/facts", json=DELIBERATE, headers={"if-match": tag_ben})
    stale = decide(room, incident, "Ben", "confirm", tag=tag_ben)
    assert stale.status_code == 409 and stale.json()["facts_version"] == 1
    assert room.get("/api/decisions.json").json() == []
    _, fresh = loaded(room, incident)
    entry = decide(room, incident, "Ben", "confirm", tag=fresh).json()
    assert (entry["outcome"], entry["engine_status"]) == ("no_offence", "no_offence")
    assert entry["facts"]["plays"] == DELIBERATE["plays"]


def test_a_retry_is_answered_even_when_its_own_facts_moved_the_version(
    room: TestClient, incident: str
) -> None:
    _, tag = loaded(room, incident)
    first = decide(room, incident, "Ana", "confirm", tag=tag, facts=DELIBERATE, client_ref="a1")
    again = decide(room, incident, "Ana", "confirm", tag=tag, facts=DELIBERATE, client_ref="a1")
    assert (first.status_code, again.status_code) == (201, 200)
    assert first.json() == again.json()


def test_if_match_that_is_not_an_incident_tag_is_422(room: TestClient, incident: str) -> None:
    response = room.post(f"{incident}/facts", json=DELIBERATE, headers={"if-match": "3"})
    assert response.status_code == 422 and response.json()["where"] == "header:If-Match"
    assert (
        room.post(f"{incident}/facts", json=DELIBERATE, headers={"if-match": "*"}).status_code
        == 200
    )


def conflict(room: TestClient, incident: str) -> tuple[bool, bool]:
    sid = int(incident.rsplit("/", 1)[1])
    (queued,) = [s for s in room.get("/api/situations").json() if s["id"] == sid]
    return queued["conflict"], room.get(incident).json()["conflict"]


def test_contradictory_decisions_are_a_conflict_until_a_reviewer_decides_again(
    room: TestClient, incident: str
) -> None:
    ana = decide(room, incident, "Ana", "offside").json()
    assert ana["conflicts_with"] == [] and conflict(room, incident) == (False, False)
    ben = decide(room, incident, "Ben", "no_offence").json()
    assert ben["conflicts_with"] == [ana["id"]]
    assert conflict(room, incident) == (True, True)
    log = room.get("/api/decisions.json").json()
    assert [e["conflicts_with"] for e in log] == [[], [ana["id"]]]
    again = decide(room, incident, "Ben", "offside").json()  # Ben changes his mind
    assert again["conflicts_with"] == []
    assert conflict(room, incident) == (False, False)


def test_a_correction_of_the_other_decision_resolves_the_conflict(
    room: TestClient, incident: str
) -> None:
    ana = decide(room, incident, "Ana", "offside").json()
    ben = decide(room, incident, "Ben", "no_offence").json()
    assert conflict(room, incident) == (True, True)
    lead = decide(room, incident, "Cleo", "offside", corrects=ben["id"]).json()
    assert lead["conflicts_with"] == []  # what it corrects is not what it contradicts
    assert conflict(room, incident) == (False, False)
    assert ana["id"] < ben["id"] < lead["id"]


def test_a_decision_records_its_own_facts_and_leaves_the_incidents_alone(
    room: TestClient, incident: str
) -> None:
    before, tag = loaded(room, incident)
    response = decide(room, incident, "Ana", "confirm", tag=tag, facts=DELIBERATE)
    assert response.status_code == 201, response.text
    entry = response.json()
    # The entry holds what Ana decided on: her facts, and the verdict they give.
    assert entry["facts"]["plays"] == DELIBERATE["plays"]
    assert (entry["engine_status"], entry["outcome"]) == ("no_offence", "no_offence")
    # Everyone else still sees the incident's own facts, verdict and version.
    after, tag_after = loaded(room, incident)
    assert before["status"] == "offence"
    assert (after["facts"], after["facts_version"], after["status"], tag_after) == (
        before["facts"],
        before["facts_version"],
        before["status"],
        tag,
    )
    # Ben, confirming without facts, confirms the incident's verdict.
    ben = decide(room, incident, "Ben", "confirm", tag=tag).json()
    assert (ben["engine_status"], ben["outcome"], ben["facts"]) == (
        "offence",
        "offside",
        before["facts"],
    )
