"""Loading SkillCorner's match 2417 (52 MB, 34,783 frames) into a MatchTracking.

Both figures are the whole `load_match` call, so both end with the same MatchTracking:
kloppy's reader plus the conversion of its dataset, against varroom's own reader.
"""

from __future__ import annotations

import gc
import time
from collections.abc import Callable
from pathlib import Path

from varroom.match import load_match

ROOT = Path(__file__).resolve().parent.parent
SKILLCORNER = ROOT.parent / "shared" / "data" / "skillcorner-opendata-2417"


def best_s(load: Callable[[], object], runs: int) -> float:
    times = []
    for _ in range(runs):
        gc.collect()  # the previous run's half-gigabyte of objects is not this run's cost
        start = time.perf_counter()
        load()
        times.append(time.perf_counter() - start)
    return min(times)


def bench_load_skillcorner() -> dict[str, float]:
    if not SKILLCORNER.is_dir():  # a clone without the shared data (CI): nothing to load
        return {}

    def load(fast: bool) -> Callable[[], object]:
        return lambda: load_match(
            "skillcorner",
            meta_data=SKILLCORNER / "match_data.json",
            raw_data=SKILLCORNER / "structured_data.json",
            fast=fast,
        )

    fast = best_s(load(True), runs=3)
    kloppy = best_s(load(False), runs=2)
    return {
        "load_s_skillcorner_kloppy": kloppy,
        "load_s_skillcorner_fast": fast,
        "load_speedup_vs_kloppy": kloppy / fast,
    }


if __name__ == "__main__":
    print(bench_load_skillcorner())
