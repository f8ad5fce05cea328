"""Judging a penalty kick (Law 14), 22 players, against `json.loads` of the same file."""

from __future__ import annotations

import json
import statistics
import time
from collections.abc import Callable
from pathlib import Path

import varroom

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = ROOT / "examples" / "penalty" / "both-teams-encroach-retake.json"


def penalty_22() -> str:
    """The both-teams example with every player on the pitch: seven more a side, legally
    placed along the edge of the arc and behind it."""
    data = json.loads(EXAMPLE.read_text(encoding="utf-8"))
    for team in ("Rovers", "Athletic"):
        for k in range(7):
            pid = f"{team.lower()}_{k}"
            data["players"].append({"id": pid, "team": team})
            y = (-1) ** k * (10.0 + 2.0 * k) + (0.5 if team == "Athletic" else 0.0)
            data["positions"][pid] = {"x": 30.0 - 0.3 * k, "y": y, "v": [1.5, 0.0]}
    return json.dumps(data)


def _per_call_ms(fn: Callable[[], object], calls: int) -> float:
    start = time.perf_counter()
    for _ in range(calls):
        fn()
    return (time.perf_counter() - start) * 1000 / calls


def bench_penalty(rounds: int = 9, calls: int = 300) -> dict[str, float]:
    """Median over interleaved rounds: each round times judging and `json.loads` back to back,
    so both see the same machine load."""
    text = penalty_22()
    kick = varroom.parse_penalty_kick(text)
    for _ in range(100):  # warm up
        varroom.judge_penalty(kick)
    judge, parse, loads = [], [], []
    for _ in range(rounds):
        judge.append(_per_call_ms(lambda: varroom.judge_penalty(kick), calls))
        parse.append(_per_call_ms(lambda: varroom.parse_penalty_kick(text), calls))
        loads.append(_per_call_ms(lambda: json.loads(text), calls))
    return {
        "judge_penalty_ms_median": statistics.median(judge),
        "parse_penalty_kick_ms_median": statistics.median(parse),
        "reference_json_loads_penalty_ms_median": statistics.median(loads),
    }


if __name__ == "__main__":
    print(bench_penalty())
