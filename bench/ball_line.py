"""A ball-line decision on a 500 Hz track of 1 s, beside `json.loads` of the same file; the
ball-out scan of a synthetic 90-min 25 Hz match after loading."""

from __future__ import annotations

import json
import statistics
import time
from collections.abc import Callable

import numpy as np

import varroom
from varroom.audit.ball_out import scan_ball_out
from varroom.profiles import ifab
from varroom.synthetic.match import SyntheticConfig, synthetic_match

RUNS = 7
CALLS = 200


def ball_line_500hz_text() -> str:
    """A shot that curls back off the goal line at +x, its furthest point between two samples."""
    t = np.arange(500) / 500
    x = 52.61 + 0.004 - 0.5 * 12.0 * (t - 0.4987) ** 2
    rows = np.column_stack([t, x, 1.0 - 1.5 * t, 0.11 + 0.3 * t])
    return json.dumps({"kind": "ball_line", "ball_track": np.round(rows, 5).tolist()})


def _median_ms(fn: Callable[[], object]) -> float:
    times = []
    for _ in range(CALLS):
        start = time.perf_counter()
        fn()
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times)


def bench_ball_line() -> dict[str, float]:
    text = ball_line_500hz_text()
    case = varroom.parse_ball_line(text)
    varroom.judge_ball_line(case)  # warm up
    decide, parse, reference = [], [], []
    # Interleaved, so that a noisy neighbour slows all three alike.
    for _ in range(RUNS):
        decide.append(_median_ms(lambda: varroom.judge_ball_line(case)))
        parse.append(_median_ms(lambda: varroom.parse_ball_line(text)))
        reference.append(_median_ms(lambda: json.loads(text)))
    match = synthetic_match(SyntheticConfig(seed=0, with_events=False)).match
    scan = []
    for _ in range(RUNS):
        start = time.perf_counter()
        scan_ball_out(match, ifab())
        scan.append(time.perf_counter() - start)
    return {
        "ball_out_scan_s_90min_25hz": statistics.median(scan),
        "ball_line_decision_ms_median": statistics.median(decide),
        "ball_line_parse_ms_median": statistics.median(parse),
        "reference_ball_line_json_loads_ms_median": statistics.median(reference),
    }


if __name__ == "__main__":
    print(bench_ball_line())
