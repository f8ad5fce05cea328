"""Stills on PostgreSQL: migration 0004, marks saved and decided on, and the marks' history
append-only there too (a throwaway cluster, as `test_serve_postgres`)."""

from __future__ import annotations

import json
import warnings
from pathlib import Path

import pytest
import sqlalchemy as sa

from machine import Need
from test_serve_postgres import postgres_url  # noqa: F401 (the fixture)
from varroom.serve import create_app

pytestmark = pytest.mark.needs(Need.POSTGRESQL)

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

STILLS = Path(__file__).resolve().parent.parent / "examples" / "still"
MARKS = json.loads((STILLS / "offside-by-20cm.marks.json").read_text())


def test_a_still_marked_and_decided_on_postgres(
    postgres_url: str,  # noqa: F811
    tmp_path: Path,
) -> None:
    app = create_app(postgres_url, None, tmp_path / "data")
    with TestClient(app, base_url="http://127.0.0.1") as room:
        still = room.post(
            "/api/stills",
            content=(STILLS / "offside-by-20cm.png").read_bytes(),
            headers={"content-type": "image/png"},
        ).json()
        saved = room.put(f"/api/stills/{still['id']}/marks", json=MARKS)
        assert saved.status_code == 200, saved.text
        decided = room.post(
            f"/api/stills/{still['id']}/decisions",
            json={"reviewer": "Ana Lima", "decision": "confirm", "duration_s": 9.0},
            headers={"if-match": saved.headers["etag"]},
        )
        assert decided.status_code == 201, decided.text
        (entry,) = room.get(f"/api/stills/{still['id']}/decisions").json()
        assert entry["outcome"] == "offside" and entry["marks"] == MARKS
    engine = sa.create_engine(postgres_url)
    for statement in (
        "UPDATE still_marks SET marks_json = '{}'",
        "DELETE FROM still_decisions",
        "TRUNCATE still_decisions",
    ):
        with pytest.raises(sa.exc.DBAPIError, match="append-only"), engine.begin() as conn:
            conn.execute(sa.text(statement))
    engine.dispose()
