"""`varroom serve` under load: concurrent reviewers, a real uvicorn on 127.0.0.1, no decision
lost or doubled. (`bench/serve_load.py` runs the full 20 reviewers x 200 decisions.)"""

from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("uvicorn")
pytest.importorskip("httpx")

from serve_kill import kill_midway  # noqa: E402
from serve_load_client import review_room_load  # noqa: E402


def test_twenty_reviewers_at_once_lose_and_double_nothing() -> None:
    result = review_room_load(reviewers=20, decisions=25)
    assert result["failures"] == 0, result["first_failure"]
    assert result["logged"] == result["sent"] == 500
    assert result["lost"] == 0
    assert result["doubled"] == 0
    assert result["unexpected"] == 0
    assert result["chain_intact"]  # entries written at once still chain in order
    assert result["p50_ms"] < 2000 and result["p99_ms"] < 10000, result  # sanity, not a target


def test_a_kill_9_loses_no_acknowledged_decision_and_the_chain_verifies(tmp_path: Path) -> None:
    result = kill_midway(tmp_path / "data", reviewers=6, decisions=40, kill_after=80)
    assert result["killed"], result
    assert result["acknowledged"] >= 80
    assert (result["lost"], result["doubled"]) == (0, 0), result
    assert "hash chain intact" in result["chain"], result
