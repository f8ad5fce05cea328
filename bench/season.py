"""A season on one machine and on a Dask cluster: `audit-many` over 1, 4, 16 and 64
synthetic matches with 1 and 2 local workers, and 16 on a local Dask cluster of separate
scheduler and worker processes.

The matches are 10 minutes long (15,000 frames at 25 Hz, every planted kind once) so the
section takes a few minutes; one 90-minute match is audited apart to scale the per-match
time to real length. Wall times include starting the workers and their imports (paid once
per worker: `worker_processes` counts the distinct worker processes that audited matches),
so small runs show the fixed cost and large runs the rate. `peak_worker_mb` is the largest
peak resident memory of a worker process.

The extrapolation to 1,826 matches (five leagues' season) on N machines of C cores: a match
takes `s_90` seconds of one core; the machines' cores share the matches, at the parallel
efficiency measured here (speed-up on 2 workers / 2):
    hours = 1826 * s_90 / (N * C * efficiency) / 3600  (+ a second or two of start-up).
"""

from __future__ import annotations

import os
import shutil
import tempfile
import time
from pathlib import Path
from typing import Any

import pyarrow.parquet as pq

from varroom.season.local_cluster import local_cluster
from varroom.season.manifest import read_manifest
from varroom.season.runner import run_season
from varroom.synthetic.provider_files import synthetic_season

ROOT = Path(__file__).resolve().parent.parent
SIZES = (1, 4, 16, 64)
WORKERS = (1, 2)
MINUTES = 10
SEASON = 1826
DASK_MATCHES = 16


def _run(entries: list[Any], out: Path, **how: Any) -> dict[str, float]:
    shutil.rmtree(out, ignore_errors=True)
    start = time.perf_counter()
    summary = run_season(entries, out, **how)
    wall = time.perf_counter() - start
    assert summary.ok == len(entries), summary.errors
    matches = pq.read_table(out / "matches.parquet").to_pylist()
    return {
        "wall_s": wall,
        "matches_per_s": len(entries) / wall,
        "worker_processes": len({m["worker"] for m in matches}),
        "peak_worker_mb": max(m["worker_peak_mb"] for m in matches),
        "match_s_mean": sum(m["seconds"] for m in matches) / len(matches),
    }


def bench_season() -> dict[str, Any]:
    # The machine's load says how many cores the workers really had.
    results: dict[str, Any] = {"season_load_average_before": os.getloadavg()[0]}
    with tempfile.TemporaryDirectory() as folder:
        tmp = Path(folder)
        start = time.perf_counter()
        manifest = synthetic_season(tmp / "data", max(SIZES), MINUTES, seed=1)
        results["season_write_s_per_10min_match"] = (time.perf_counter() - start) / max(SIZES)
        entries = list(read_manifest(manifest))
        table = []
        for size in SIZES:
            row: dict[str, Any] = {"matches": size}
            for workers in WORKERS:
                run = _run(entries[:size], tmp / "out", workers=workers)
                row[f"w{workers}"] = run
            row["speedup"] = row["w1"]["wall_s"] / row["w2"]["wall_s"]
            table.append(row)
        results["season_scaling"] = table
        results["season_speedup_64"] = table[-1]["speedup"]
        results["season_matches_per_s_64_w2"] = table[-1]["w2"]["matches_per_s"]
        results["season_peak_worker_mb"] = max(
            r[f"w{w}"]["peak_worker_mb"] for r in table for w in WORKERS
        )

        long = synthetic_season(tmp / "long", 1, 90.0, seed=2)
        results["season_s_90min_match"] = _run(
            list(read_manifest(long)), tmp / "out-long", workers=1
        )["match_s_mean"]

        env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
        (tmp / "dask").mkdir()
        with local_cluster(tmp / "dask", workers=2, env=env) as address:
            dask = _run(entries[:DASK_MATCHES], tmp / "out-dask", scheduler=address)
        results["season_dask"] = {"matches": DASK_MATCHES, **dask}

    results["season_load_average_after"] = os.getloadavg()[0]
    efficiency = min(1.0, results["season_speedup_64"] / 2)
    results["season_efficiency"] = efficiency
    results["season_extrapolation_hours"] = {
        f"{machines}x{cores}": SEASON
        * results["season_s_90min_match"]
        / (machines * cores * efficiency)
        / 3600
        for machines, cores in ((1, 2), (1, 16), (4, 16), (16, 16))
    }
    return results


def markdown(results: dict[str, Any]) -> list[str]:
    """The section's table and extrapolation, for BENCHMARKS.md and docs/season.md."""
    lines = [
        f"`audit-many` over synthetic {MINUTES}-minute matches (15,000 frames each), wall time "
        "including the workers' start and imports (load average "
        f"{results['season_load_average_before']:.1f} before, "
        f"{results['season_load_average_after']:.1f} after, on {os.cpu_count()} cores):",
        "",
        "| matches | 1 worker (matches/s) | 2 workers (matches/s) | speed-up | worker processes | peak MB per worker |",
        "|---|---|---|---|---|---|",
    ]
    for row in results["season_scaling"]:
        w1, w2 = row["w1"], row["w2"]
        lines.append(
            f"| {row['matches']} | {w1['matches_per_s']:.2f} | {w2['matches_per_s']:.2f} | "
            f"{row['speedup']:.2f} | {w1['worker_processes']} / {w2['worker_processes']} | "
            f"{max(w1['peak_worker_mb'], w2['peak_worker_mb']):.0f} |"
        )
    dask = results["season_dask"]
    lines += [
        "",
        f"Local Dask cluster (a `dask scheduler` and two `dask worker` processes): "
        f"{dask['matches']} matches in {dask['wall_s']:.1f} s, {dask['matches_per_s']:.2f} "
        f"matches/s, {dask['worker_processes']} worker processes, peak "
        f"{dask['peak_worker_mb']:.0f} MB per worker.",
        "",
        f"One 90-minute match (135,000 frames): {results['season_s_90min_match']:.2f} s to load "
        f"and audit in a warm worker. Extrapolated to {SEASON:,} matches at the measured "
        f"parallel efficiency ({results['season_efficiency']:.2f}):",
        "",
        "| machines x cores | hours |",
        "|---|---|",
        *[
            f"| {key} | {hours:.2f} |"
            for key, hours in results["season_extrapolation_hours"].items()
        ],
    ]
    return lines


if __name__ == "__main__":
    import json

    figures = bench_season()
    print(json.dumps(figures, indent=1))
    print("\n".join(markdown(figures)))
