"""Loading a synthetic 90-minute Tracab match (`.dat` and metadata XML, as `varroom synthetic`
writes it) at 25 Hz and at 50 Hz, each in a fresh process (issue 26).

The CPU figure is the `load_match` call's own (the process's imports are not in it), against
reading the same file and splitting its lines (`bytes.splitlines` on the whole file) in a
process of its own. The memory figure is the process's peak resident set above what it held
just before loading, against the bytes of the match's arrays; the 50 Hz match's peak is read
against the 25 Hz one's. The peak is the kernel's high-water mark (VmHWM), not `ru_maxrss`:
that one survives `exec`, so a child forked from a large parent (this bench's, after the
sections before it) would start from the parent's size. Medians of 5 interleaved runs (each
child once in turn).
"""

from __future__ import annotations

import json
import statistics
import subprocess
import sys
import tempfile
from dataclasses import replace
from pathlib import Path

RUNS = 5

# Each child prints its figures as one JSON line.
_LOAD = """
import json, sys, time
from pathlib import Path
from varroom.match import load_match
import varroom.match.tracab_dat

def resident_kb(field):
    lines = Path("/proc/self/status").read_text().splitlines()
    return next(int(line.split()[1]) for line in lines if line.startswith(field + ":"))

folder = Path(sys.argv[1])
before_kb = resident_kb("VmRSS")
start = time.process_time()
match = load_match("tracab", meta_data=folder / "meta.xml", raw_data=folder / "tracking.dat")
cpu_s = time.process_time() - start
peak_kb = resident_kb("VmHWM")
arrays = sum(v.nbytes for v in vars(match).values() if hasattr(v, "nbytes"))
print(json.dumps({"cpu_s": cpu_s, "peak_mb": (peak_kb - before_kb) / 1024,
                  "process_peak_mb": peak_kb / 1024, "arrays_mb": arrays / 2**20}))
"""
_SPLIT = """
import json, sys, time
from pathlib import Path

start = time.process_time()
lines = Path(sys.argv[1], "tracking.dat").read_bytes().splitlines()
print(json.dumps({"cpu_s": time.process_time() - start}))
"""


def write_matches(folder: Path) -> dict[int, Path]:
    """The synthetic match (seed 1) written at 25 and at 50 Hz."""
    from varroom.synthetic.match import SyntheticConfig
    from varroom.synthetic.provider_files import season_plan, write_match

    plan = season_plan(1, seed=1)[0]
    config = SyntheticConfig(with_events=False)
    out = {}
    for hz in (25, 50):
        out[hz] = folder / f"{hz}hz"
        write_match(out[hz], plan, replace(config, frame_rate_hz=float(hz)))
    return out


def child(code: str, folder: Path) -> dict[str, float]:
    done = subprocess.run(
        [sys.executable, "-c", code, str(folder)], capture_output=True, text=True, check=True
    )
    figures: dict[str, float] = json.loads(done.stdout.splitlines()[-1])
    return figures


def bench_tracab_load() -> dict[str, float]:
    with tempfile.TemporaryDirectory() as tmp:
        folder = write_matches(Path(tmp))
        runs: dict[str, list[dict[str, float]]] = {"25": [], "50": [], "split": []}
        for _ in range(RUNS):
            runs["25"].append(child(_LOAD, folder[25]))
            runs["50"].append(child(_LOAD, folder[50]))
            runs["split"].append(child(_SPLIT, folder[25]))

    def median(name: str, figure: str) -> float:
        return statistics.median(run[figure] for run in runs[name])

    load_s, split_s = median("25", "cpu_s"), median("split", "cpu_s")
    peak_25, peak_50 = median("25", "peak_mb"), median("50", "peak_mb")
    arrays_mb = median("25", "arrays_mb")
    return {
        "tracab_load_cpu_s_25hz": load_s,
        "reference_tracab_splitlines_cpu_s": split_s,
        "tracab_load_vs_splitlines": load_s / split_s,
        "tracab_load_cpu_s_50hz": median("50", "cpu_s"),
        "tracab_load_peak_mb_25hz": peak_25,
        "reference_tracab_match_arrays_mb": arrays_mb,
        "tracab_load_peak_vs_arrays": peak_25 / arrays_mb,
        "tracab_load_peak_mb_50hz": peak_50,
        "reference_tracab_load_peak_mb_25hz": peak_25,
        "tracab_load_peak_50hz_vs_25hz": peak_50 / peak_25,
        "tracab_load_process_peak_mb_25hz": median("25", "process_peak_mb"),
    }


if __name__ == "__main__":
    print(json.dumps(bench_tracab_load(), indent=1))
