"""The audit of continuous tracking: a synthetic 90-minute, 25 Hz match (135,000 frames, 22
players), and SkillCorner's broadcast match 2417 when the shared data is there.

`audit_s_90min_25hz` is the best of a few runs of `audit_match` on a generated match
(generating it is timed apart); it includes the penalty kicks and the ball-out scan with its
goal-line moments (`varroom.audit.match_laws`), about 0.02 s of it. The reference, timed in the same run, is the cheapest pass
any audit must make over every frame and player: `np.nanargmin` over the (T, P)
ball-to-player distances. `peak_memory_mb` is tracemalloc's peak during one audit, above
what was allocated before it (numpy reports its arrays to tracemalloc).
"""

from __future__ import annotations

import gc
import time
import tracemalloc
from collections.abc import Callable
from pathlib import Path

import numpy as np

from varroom.audit.run import audit_match
from varroom.match import MatchTracking, load_match
from varroom.synthetic.match import SyntheticConfig, synthetic_match

ROOT = Path(__file__).resolve().parent.parent
SKILLCORNER = ROOT.parent / "shared" / "data" / "skillcorner-opendata-2417"


def best_s(work: Callable[[], object], runs: int) -> float:
    times = []
    for _ in range(runs):
        gc.collect()
        start = time.perf_counter()
        work()
        times.append(time.perf_counter() - start)
    return min(times)


def nearest_player(match: MatchTracking) -> np.ndarray:
    """The reference: the nearest player to the ball in every frame."""
    offset = match.players_m - match.ball_m[:, None, :2].astype(np.float32)
    distance = np.hypot(offset[..., 0], offset[..., 1])
    seen = ~np.isnan(distance).all(axis=1)
    return np.nanargmin(distance[seen], axis=1)


def peak_mb(work: Callable[[], object]) -> float:
    gc.collect()
    tracemalloc.start()
    work()
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    return peak / 2**20


def bench_audit() -> dict[str, float]:
    start = time.perf_counter()
    synthetic = synthetic_match(SyntheticConfig(seed=0, with_events=False))
    generate = time.perf_counter() - start
    match = synthetic.match
    audit = audit_match(match)  # warm up: first calls pay for imports
    audit_s = best_s(lambda: audit_match(match), runs=5)
    reference_s = best_s(lambda: nearest_player(match), runs=5)
    offences = [p for p in synthetic.truth if p.offence]
    found = sum(
        any(
            i.period == p.period and abs(i.t_s - p.t_s) < 0.5 and i.verdict.offender == p.offender
            for i in audit.incidents
        )
        for p in offences
    )
    return {
        "generate_s_90min_25hz": generate,
        "audit_s_90min_25hz": audit_s,
        "reference_nanargmin_nearest_player_s": reference_s,
        "audit_vs_reference": audit_s / reference_s,
        "peak_memory_mb": peak_mb(lambda: audit_match(match)),
        # What the audit reads: the match's own arrays, held before it starts.
        "reference_match_arrays_mb": (
            match.players_m.nbytes + match.ball_m.nbytes + match.t_s.nbytes
        )
        / 1e6,
        "recall_90min": found / len(offences),
        "precision_90min": found / max(len(audit.incidents), 1),
    }


def bench_audit_skillcorner() -> dict[str, float]:
    """SkillCorner's match 2417: 10 Hz broadcast tracking, no event data."""
    if not SKILLCORNER.is_dir():  # a clone without the shared data (CI): nothing to audit
        return {}
    match = load_match(
        "skillcorner",
        meta_data=SKILLCORNER / "match_data.json",
        raw_data=SKILLCORNER / "structured_data.json",
    )
    audit = audit_match(match)
    return {
        "audit_s_skillcorner": best_s(lambda: audit_match(match), runs=3),
        "skillcorner_phases_judged": audit.phases_judged,
        "skillcorner_incidents": len(audit.incidents),
        "skillcorner_undecidable": len(audit.undecidable),
        "skillcorner_peak_memory_mb": peak_mb(lambda: audit_match(match)),
    }


if __name__ == "__main__":
    print(bench_audit())
    if SKILLCORNER.is_dir():
        print(bench_audit_skillcorner())
