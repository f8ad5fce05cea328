"""`make bench`: each figure beside a reference timed in the same run (these machines are noisy).

Writes bench/results.json and BENCHMARKS.md.
"""

from __future__ import annotations

import json
import platform
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))

from situation_22x3 import situation_22x3  # noqa: E402

import varroom  # noqa: E402

KANE = ROOT / "examples" / "tottenham-sporting-2022-kane.json"


def timings_ms(fn: Callable[[], object], runs: int) -> list[float]:
    out = []
    for _ in range(runs):
        start = time.perf_counter()
        fn()
        out.append((time.perf_counter() - start) * 1000)
    return out


def p99(values: list[float]) -> float:
    return statistics.quantiles(values, n=100)[98]


def bench_judge() -> dict[str, float]:
    text = situation_22x3()
    situation = varroom.parse_situation(text)
    for _ in range(200):  # warm up
        varroom.judge(situation)
    judge = timings_ms(lambda: varroom.judge(situation), 3000)
    parse = timings_ms(lambda: varroom.parse_situation(text), 1000)
    reference = timings_ms(lambda: json.loads(text), 3000)
    return {
        "judge_ms_median": statistics.median(judge),
        "judge_ms_p99": p99(judge),
        "parse_situation_ms_median": statistics.median(parse),
        "reference_json_loads_ms_median": statistics.median(reference),
        "judge_vs_json_loads": statistics.median(judge) / statistics.median(reference),
    }


def wall_s(command: list[str], runs: int) -> float:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        subprocess.run(command, check=True, capture_output=True)
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def bench_cli(tmp: Path) -> dict[str, float]:
    varroom_bin = str(Path(sys.executable).with_name("varroom"))
    check = wall_s([varroom_bin, "check", str(KANE), "--json"], 5)
    image = wall_s([varroom_bin, "check", str(KANE), "--image", str(tmp / "kane.png")], 5)
    bare = wall_s([sys.executable, "-c", "pass"], 5)
    return {
        "check_json_wall_s": check,
        "check_image_wall_s": image,
        "reference_python_pass_wall_s": bare,
        "check_image_vs_python_pass": image / bare,
    }


ROWS = [
    ("judge_ms_median", "`judge()` median, 22 players x 3 touches (ms)", "reference_json_loads_ms_median", "target < 1 ms"),
    ("judge_ms_p99", "`judge()` p99 (ms)", "reference_json_loads_ms_median", ""),
    ("parse_situation_ms_median", "`parse_situation()` median, same file (ms)", "reference_json_loads_ms_median", ""),
    ("check_json_wall_s", "`varroom check --json` Kane, wall (s)", "reference_python_pass_wall_s", ""),
    ("check_image_wall_s", "`varroom check --image` Kane, wall (s)", "reference_python_pass_wall_s", ""),
]

REFERENCES = {
    "reference_json_loads_ms_median": "`json.loads` of the same situation, median (ms)",
    "reference_python_pass_wall_s": "`python -c pass`, wall (s)",
}


def markdown(results: dict[str, float]) -> str:
    lines = [
        "# Benchmarks",
        "",
        "Written by `make bench` (`bench/run.py`); raw numbers in `bench/results.json`.",
        f"Machine: {platform.machine()}, Python {platform.python_version()}, {results['cpu_count']} cores.",
        "Each figure is given beside a reference timed in the same run, and as a ratio to it:",
        "the ratio is what to compare between runs, since these machines are noisy.",
        "",
        "| figure | value | reference | ratio | note |",
        "|---|---|---|---|---|",
    ]
    for key, label, ref, note in ROWS:
        if key in results:
            value, reference = results[key], results[ref]
            lines.append(f"| {label} | {value:.4g} | {reference:.4g} | {value / reference:.3g}x | {note} |")
    lines += ["", "References:", ""]
    lines += [f"- {text}: {results[key]:.4g}" for key, text in REFERENCES.items() if key in results]
    return "\n".join(lines) + "\n"


def main() -> None:
    import os
    import tempfile

    results: dict[str, float] = {"cpu_count": float(os.cpu_count() or 0)}
    results.update(bench_judge())
    with tempfile.TemporaryDirectory() as tmp:
        results.update(bench_cli(Path(tmp)))
    (ROOT / "bench" / "results.json").write_text(json.dumps(results, indent=2) + "\n")
    (ROOT / "BENCHMARKS.md").write_text(markdown(results))
    print(markdown(results))


if __name__ == "__main__":
    main()
