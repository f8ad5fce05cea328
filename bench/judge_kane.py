"""`judge()` on the Kane situation against `json.loads` of its file (issue 26 item 3: <= 200 us,
about 4.5x the reference): the best of 7 runs of each, taken in turn so that a change in the
machine's load falls on both alike; each run is the median of a batch of calls."""

from __future__ import annotations

import json
import statistics
import time
from pathlib import Path

import varroom

KANE = Path(__file__).resolve().parent.parent / "examples" / "tottenham-sporting-2022-kane.json"
RUNS = 7
CALLS = 200


def _median_us(fn: object) -> float:
    assert callable(fn)
    times = []
    for _ in range(CALLS):
        start = time.perf_counter()
        fn()
        times.append((time.perf_counter() - start) * 1e6)
    return statistics.median(times)


def bench_judge_kane() -> dict[str, float]:
    text = KANE.read_text()
    situation = varroom.load_situation(KANE)
    for _ in range(100):  # warm up
        varroom.judge(situation)
    judge_runs, loads_runs = [], []
    for _ in range(RUNS):
        judge_runs.append(_median_us(lambda: varroom.judge(situation)))
        loads_runs.append(_median_us(lambda: json.loads(text)))
    return {
        "judge_kane_us_best_of_7": min(judge_runs),
        "reference_json_loads_kane_us_best_of_7": min(loads_runs),
    }


if __name__ == "__main__":
    figures = bench_judge_kane()
    ratio = figures["judge_kane_us_best_of_7"] / figures["reference_json_loads_kane_us_best_of_7"]
    print(json.dumps(figures | {"ratio": ratio}))
