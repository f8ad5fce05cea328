"""Competition profiles in the review room: the room's default (`varroom serve --profile`), a
profile an upload names, kept by the incident for everything judged of it later, shown with
every verdict and in the export."""

from __future__ import annotations

import csv
import io
import json
import re
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

with warnings.catch_warnings():
    warnings.simplefilter("ignore")  # starlette's note about httpx versions
    from fastapi.testclient import TestClient

from varroom.cli.main import cli
from varroom.profiles import Profile, ifab, load_profile
from varroom.serve import create_app

ROOT = Path(__file__).resolve().parent.parent
# Kane 4 cm beyond the line: offside under the Laws as written, not under a 5 cm tolerance.
KANE = ROOT / "examples" / "tottenham-sporting-2022-kane.json"
STILL = ROOT / "examples" / "still" / "offside-by-20cm.png"
STILL_MARKS = json.loads((ROOT / "examples" / "still" / "offside-by-20cm.marks.json").read_text())
TOLERANCE = "tolerance-5cm"
SHA256 = re.compile(r"^[0-9a-f]{64}$")


def _room(data: Path, profile: Profile | None = None) -> TestClient:
    app = create_app(None, None, data, audit_runner=lambda *_: [], profile=profile)
    return TestClient(app, base_url="http://127.0.0.1")


@pytest.fixture
def ifab_room(tmp_path: Path) -> Iterator[TestClient]:
    with _room(tmp_path / "data") as client:
        yield client


@pytest.fixture
def tolerance_room(tmp_path: Path) -> Iterator[TestClient]:
    with _room(tmp_path / "tolerance", load_profile(TOLERANCE)) as client:
        yield client


def upload(client: TestClient, **params: str) -> Any:
    return client.post(
        "/api/situations",
        params={"filename": KANE.name, **params},
        content=KANE.read_bytes(),
        headers={"content-type": "application/json"},
    )


def queued(client: TestClient, **params: str) -> dict[str, Any]:
    response = upload(client, **params)
    assert response.status_code == 201, response.text
    body: dict[str, Any] = response.json()
    return body


def stamped(profile: dict[str, str], name: str) -> None:
    assert profile["name"] == name
    assert SHA256.match(profile["sha256"]), profile
    assert profile == load_profile(name).stamp()


def test_the_rooms_profile_judges_every_upload_and_is_shown_with_the_verdict(
    ifab_room: TestClient, tolerance_room: TestClient
) -> None:
    assert queued(ifab_room)["status"] == "offence"
    body = queued(tolerance_room)
    assert body["status"] == body["verdict"]["status"] == "no_offence"
    assert "tolerance" in body["verdict"]["reason"]
    stamped(body["verdict"]["profile"], TOLERANCE)
    stamped(body["profile"], TOLERANCE)
    detail = tolerance_room.get(f"/api/situations/{body['id']}").json()
    stamped(detail["profile"], TOLERANCE)
    stamped(detail["engine_verdict"]["profile"], TOLERANCE)
    (item,) = tolerance_room.get("/api/situations").json()
    stamped(item["profile"], TOLERANCE)
    config = tolerance_room.get("/api/config").json()
    stamped(config["profile"], TOLERANCE)
    assert config["profiles"][0] == "ifab" and TOLERANCE in config["profiles"]


def test_an_upload_may_name_a_profile_that_its_incident_keeps(ifab_room: TestClient) -> None:
    sid = queued(ifab_room, profile=TOLERANCE)["id"]
    incident = f"/api/situations/{sid}"
    assert ifab_room.get(incident).json()["status"] == "no_offence"
    # Facts set, then taken back: judged again each time, under the incident's profile (the
    # room's, ifab, would call the file as it came in offside).
    ifab_room.post(f"{incident}/facts", json={"plays": [{"touch": 2, "kind": "deliberate_play"}]})
    back = ifab_room.post(f"{incident}/facts", json={"plays": []}).json()
    assert back["verdict_changed"] is False and back["verdict"]["status"] == "no_offence"
    stamped(back["verdict"]["profile"], TOLERANCE)
    assert ifab_room.get(f"{incident}/image.png").status_code == 200
    # A decision with facts of its own is judged under it too.
    entry = ifab_room.post(
        f"{incident}/decisions",
        json={"reviewer": "Ana", "decision": "confirm", "duration_s": 4, "facts": {"plays": []}},
    ).json()
    assert entry["engine_status"] == "no_offence"
    stamped(entry["profile"], TOLERANCE)
    # The other incidents of the room keep its own.
    other = queued(ifab_room)
    assert other["status"] == "offence"
    stamped(other["profile"], "ifab")


@pytest.mark.parametrize(
    ("name", "hint"),
    [("tolerance-5", "(did you mean 'tolerance-5cm'?)"), ("nosuch", "it knows ifab, ")],
)
def test_a_profile_the_room_does_not_know_is_a_422_naming_the_parameter(
    ifab_room: TestClient, name: str, hint: str
) -> None:
    response = upload(ifab_room, profile=name)
    assert response.status_code == 422
    body = response.json()
    assert body["where"] == "query:profile"
    assert f"no profile {name!r} in this room" in body["error"] and hint in body["error"]
    assert ifab_room.get("/api/situations").json() == []


def test_the_export_names_the_profile_of_each_decision(ifab_room: TestClient) -> None:
    for profile in (TOLERANCE, "ifab"):
        sid = queued(ifab_room, profile=profile)["id"]
        decided = ifab_room.post(
            f"/api/situations/{sid}/decisions",
            json={"reviewer": "Ben", "decision": "confirm", "duration_s": 7},
        )
        assert decided.status_code == 201, decided.text
    logged = ifab_room.get("/api/decisions.json").json()
    assert [e["profile"] for e in logged] == [load_profile(TOLERANCE).stamp(), ifab().stamp()]
    rows = list(csv.DictReader(io.StringIO(ifab_room.get("/api/decisions.csv").text)))
    assert [(r["profile"], r["profile_sha256"], r["outcome"]) for r in rows] == [
        (TOLERANCE, load_profile(TOLERANCE).sha256, "no_offence"),
        ("ifab", ifab().sha256, "offside"),
    ]


def test_a_still_is_judged_under_the_rooms_profile(tolerance_room: TestClient) -> None:
    still = tolerance_room.post(
        "/api/stills", content=STILL.read_bytes(), headers={"content-type": "image/png"}
    ).json()
    verdict = tolerance_room.post(f"/api/stills/{still['id']}/verdict", json=STILL_MARKS).json()
    stamped(verdict["profile"], TOLERANCE)
    saved = tolerance_room.put(f"/api/stills/{still['id']}/marks", json=STILL_MARKS).json()
    stamped(saved["verdict"]["profile"], TOLERANCE)
    stamped(
        tolerance_room.get(f"/api/situations/{saved['situation_id']}").json()["profile"], TOLERANCE
    )


def test_an_incident_judged_under_a_profile_the_room_no_longer_has_is_a_409(
    tmp_path: Path,
) -> None:
    league = tmp_path / "league.toml"
    league.write_text(
        'name = "league"\nversion = "1"\nsource = "a test"\n[offside]\npolicy = "tolerance:5cm"\n'
    )
    with _room(tmp_path / "data", load_profile(league)) as room:
        body = queued(room)
        assert (body["status"], body["profile"]["name"]) == ("no_offence", "league")
    # Served again without the file: the incident's profile is not the room's to judge under.
    with _room(tmp_path / "data") as room:
        incident = f"/api/situations/{body['id']}"
        play = {"plays": [{"touch": 2, "kind": "deliberate_play"}]}
        for response in (
            room.post(f"{incident}/facts", json=play),
            room.get(f"{incident}/image.png"),
        ):
            assert response.status_code == 409
            assert "'league', which this room does not have" in response.json()["error"]
        assert room.get(incident).json()["profile"]["name"] == "league"  # shown all the same


def test_serve_with_an_unknown_profile_is_one_line_and_exit_2(tmp_path: Path) -> None:
    result = CliRunner().invoke(
        cli, ["serve", "--profile", "nosuch", "--data-dir", str(tmp_path / "d")]
    )
    assert result.exit_code == 2
    (line,) = result.output.strip().splitlines()
    assert line.startswith("varroom: --profile nosuch: no such profile")
    assert not (tmp_path / "d").exists()
