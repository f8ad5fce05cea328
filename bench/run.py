"""`make bench`: each figure beside a reference timed in the same run (these machines are noisy).

Writes the raw numbers and the table to out/ (out/bench-results.json, out/BENCHMARKS.md), so
that a run leaves the checkout as it was; `--update` (`make bench-update`) writes the committed
ones instead (bench/results.json, BENCHMARKS.md), for a change that moves them. Each section
returns its figures; a row of the table names a figure, the reference it is read against, and
the goal where the issue set one.
"""

from __future__ import annotations

import argparse
import compileall
import json
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))

from against_revision import RESULTS as AGAINST_REVISION  # noqa: E402
from against_revision import markdown as against_revision_markdown  # noqa: E402
from audit_tracking import bench_audit, bench_audit_skillcorner  # noqa: E402
from ball_line import bench_ball_line  # noqa: E402
from judge_kane import bench_judge_kane  # noqa: E402
from live import bench_live  # noqa: E402
from match_load import bench_load_skillcorner  # noqa: E402
from penalty import bench_penalty  # noqa: E402
from pictures import bench_pictures  # noqa: E402
from season import bench_season  # noqa: E402
from season import markdown as season_markdown  # noqa: E402
from serve_load import bench_recompute, bench_review_room  # noqa: E402
from situation_22x3 import situation_22x3  # noqa: E402
from statsbomb_audit import bench_statsbomb  # noqa: E402
from still import bench_still  # noqa: E402
from tracab_load import bench_tracab_load  # noqa: E402
from unseen_calibration import bench_unseen_calibration  # noqa: E402
from unseen_oracle import bench_unseen_oracle  # noqa: E402

import varroom  # noqa: E402

KANE = ROOT / "examples" / "tottenham-sporting-2022-kane.json"
# (raw numbers, table): a run's own, or with --update the committed ones.
OUT = (ROOT / "out" / "bench-results.json", ROOT / "out" / "BENCHMARKS.md")
COMMITTED = (ROOT / "bench" / "results.json", ROOT / "BENCHMARKS.md")


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
    }


def interleaved_wall_s(commands: dict[str, list[str]], runs: int) -> dict[str, float]:
    """Each command's median wall time, the commands run in turn `runs` times over, so that a
    change in the machine's load falls on all of them alike."""
    times: dict[str, list[float]] = {name: [] for name in commands}
    for _ in range(runs):
        for name, command in commands.items():
            start = time.perf_counter()
            subprocess.run(command, check=True, capture_output=True)
            times[name].append(time.perf_counter() - start)
    return {name: statistics.median(values) for name, values in times.items()}


def load_average() -> str:
    """The 1, 5 and 15 minute load averages (Linux), to read the timings against."""
    try:
        return " ".join(Path("/proc/loadavg").read_text().split()[:3])
    except OSError:
        return "unknown"


def installed_varroom() -> str:
    """The console script, its modules compiled: time varroom as installed (pip compiles a
    package's modules, numpy's are); where PYTHONDONTWRITEBYTECODE is set, this checkout would
    compile ~50 of them at every run."""
    compileall.compile_dir(ROOT / "src" / "varroom", quiet=1)
    return str(Path(sys.executable).with_name("varroom"))


def bench_cli() -> dict[str, Any]:
    varroom_bin = installed_varroom()
    load = load_average()
    with tempfile.TemporaryDirectory() as tmp:
        walls = interleaved_wall_s(
            {
                "check_json_wall_s": [varroom_bin, "check", str(KANE), "--json"],
                "check_image_wall_s": [varroom_bin, "check", str(KANE), "--image", f"{tmp}/k.png"],
                "reference_import_numpy_wall_s": [sys.executable, "-c", "import numpy"],
                "reference_python_pass_wall_s": [sys.executable, "-c", "pass"],
            },
            runs=7,
        )
    numpy_s = walls["reference_import_numpy_wall_s"]
    return walls | {
        "check_json_vs_import_numpy": walls["check_json_wall_s"] / numpy_s,
        "check_image_vs_import_numpy": walls["check_image_wall_s"] / numpy_s,
        "cli_bench_loadavg": f"{load} (before) {load_average()} (after)",
    }


def bench_help() -> dict[str, Any]:
    """`varroom --help`, which imports no command (issue 26), against `import numpy`."""
    varroom_bin = installed_varroom()
    load = load_average()
    walls = interleaved_wall_s(
        {
            "help_wall_s": [varroom_bin, "--help"],
            "reference_import_numpy_help_wall_s": [sys.executable, "-c", "import numpy"],
        },
        runs=7,
    )
    return walls | {
        "help_vs_import_numpy": walls["help_wall_s"] / walls["reference_import_numpy_help_wall_s"],
        "help_bench_loadavg": f"{load} (before) {load_average()} (after)",
    }


def bench_room() -> dict[str, float]:
    load = bench_review_room()
    recompute = bench_recompute()
    kane = varroom.load_situation(KANE)
    reference = statistics.median(timings_ms(lambda: varroom.judge(kane), 300))
    return {
        "review_decision_ms_p50": load["p50_ms"],
        "review_decision_ms_p99": load["p99_ms"],
        "review_decisions_sent": load["sent"],
        "review_decisions_logged": load["logged"],
        "review_recompute_http_ms_p50": recompute["http_ms_p50"],
        "review_recompute_http_ms_p99": recompute["http_ms_p99"],
        "reference_judge_kane_ms_median": reference,
    }


SECTIONS: list[Callable[[], dict[str, Any]]] = [
    bench_judge,
    bench_judge_kane,
    bench_penalty,
    bench_ball_line,
    bench_cli,
    bench_help,
    bench_tracab_load,
    bench_load_skillcorner,
    bench_audit,
    bench_audit_skillcorner,
    bench_pictures,
    bench_room,
    bench_statsbomb,
    bench_unseen_oracle,
    bench_unseen_calibration,
    bench_season,
    bench_still,
    bench_live,
]

# (figure, what it is, reference figure, goal)
ROWS = [
    (
        "still_json_wall_s",
        "`varroom still --json`, 1920x1080 still, median of 7 interleaved (s)",
        "reference_check_same_situation_wall_s",
        "<= 1.5x",
    ),
    (
        "judge_ms_median",
        "`judge()` median, 22 players x 3 touches (ms)",
        "reference_json_loads_ms_median",
        "< 1 ms",
    ),
    ("judge_ms_p99", "`judge()` p99 (ms)", "reference_json_loads_ms_median", ""),
    (
        "judge_kane_us_best_of_7",
        "`judge()` on Kane, median of 200 calls, best of 7 interleaved (us)",
        "reference_json_loads_kane_us_best_of_7",
        "<= 200 us (~4.5x)",
    ),
    (
        "judge_partial_ms_median",
        "`judge()` on a broadcast view, 5 defenders out of it, median of 7 interleaved (ms)",
        "reference_json_loads_partial_ms_median",
        "<= 1.5 ms",
    ),
    (
        "parse_situation_ms_median",
        "`parse_situation()` median, same file (ms)",
        "reference_json_loads_ms_median",
        "",
    ),
    (
        "judge_penalty_ms_median",
        "`judge_penalty()` median, 22 players, 9 interleaved rounds (ms)",
        "reference_json_loads_penalty_ms_median",
        "<= 1 ms",
    ),
    (
        "parse_penalty_kick_ms_median",
        "`parse_penalty_kick()` median, same file (ms)",
        "reference_json_loads_penalty_ms_median",
        "",
    ),
    (
        "ball_line_decision_ms_median",
        "ball-line decision, 500 Hz track of 1 s, median of 7 interleaved runs (ms)",
        "reference_ball_line_json_loads_ms_median",
        "<= 1 ms",
    ),
    (
        "ball_out_scan_s_90min_25hz",
        "ball-out and goal-line scan of a synthetic 90-min 25 Hz match after loading (s)",
        "reference_nanargmin_nearest_player_s",
        "<= 0.2 s",
    ),
    (
        "ball_line_parse_ms_median",
        "`parse_ball_line()` median, same file (ms)",
        "reference_ball_line_json_loads_ms_median",
        "",
    ),
    (
        "check_json_wall_s",
        "`varroom check --json` Kane, wall (s)",
        "reference_import_numpy_wall_s",
        "<= 3x",
    ),
    (
        "check_image_wall_s",
        "`varroom check --image` Kane, wall (s)",
        "reference_import_numpy_wall_s",
        "<= 10x",
    ),
    (
        "help_wall_s",
        "`varroom --help`, wall, median of 7 interleaved (s)",
        "reference_import_numpy_help_wall_s",
        "<= 1.5x",
    ),
    (
        "tracab_load_cpu_s_25hz",
        "load a synthetic 90-min 25 Hz Tracab match, CPU of `load_match`, fresh process (s)",
        "reference_tracab_splitlines_cpu_s",
        "<= 4x",
    ),
    (
        "tracab_load_peak_mb_25hz",
        "peak RSS of that load above the process before it (MB)",
        "reference_tracab_match_arrays_mb",
        "<= 2.5x",
    ),
    (
        "tracab_load_peak_mb_50hz",
        "peak RSS of loading the same match at 50 Hz (MB)",
        "reference_tracab_load_peak_mb_25hz",
        "<= 2x",
    ),
    (
        "load_s_skillcorner_fast",
        "load SkillCorner 2417 (52 MB, 34,783 frames), varroom (s)",
        "load_s_skillcorner_kloppy",
        ">= 5x faster",
    ),
    (
        "statsbomb_audit_s",
        "audit of Turkey-Italy, 937 plays with freeze frames, after loading (s)",
        "statsbomb_load_s",
        "",
    ),
    (
        "audit_s_90min_25hz",
        "audit of a synthetic 90-min 25 Hz match after loading (s)",
        "reference_nanargmin_nearest_player_s",
        "0.5 s",
    ),
    ("peak_memory_mb", "peak memory of that audit (MB)", "reference_match_arrays_mb", "< 1024 MB"),
    (
        "audit_s_skillcorner",
        "audit of SkillCorner 2417 (10 Hz broadcast) after loading (s)",
        "reference_nanargmin_nearest_player_s",
        "",
    ),
    ("picture_s_image", "2D picture, Kane (s)", "reference_picture_s", "< 1 s"),
    ("picture_s_screen", "stadium-screen still, Kane (s)", "reference_picture_s", "< 1 s"),
    ("picture_s_clip_gif", "clip GIF, Kane (s)", "reference_picture_s", "< 5 s"),
    ("picture_s_clip_mp4", "clip MP4, Kane (s)", "reference_picture_s", "< 5 s"),
    ("picture_s_scene", "3D scene HTML, Kane (s)", "reference_picture_s", "< 5 s"),
    (
        "review_decision_ms_p50",
        "review room: record a decision, 20 reviewers x 200, p50 (ms)",
        "reference_judge_kane_ms_median",
        "",
    ),
    (
        "review_decision_ms_p99",
        "review room: record a decision, p99 (ms)",
        "reference_judge_kane_ms_median",
        "",
    ),
    (
        "review_recompute_http_ms_p50",
        "review room: set a fact, new verdict over HTTP, p50 (ms)",
        "reference_judge_kane_ms_median",
        "< 100 ms",
    ),
    (
        "review_recompute_http_ms_p99",
        "review room: set a fact, p99 (ms)",
        "reference_judge_kane_ms_median",
        "< 100 ms",
    ),
    (
        "live_latency_s_median",
        "live: detection latency, synthetic 90-min 25 Hz, median (s)",
        "reference_frame_interval_s",
        "<= 0.5 s",
    ),
    (
        "live_latency_s_worst",
        "live: detection latency, worst (s)",
        "reference_frame_interval_s",
        "<= 0.5 s",
    ),
    (
        "live_compute_ms_per_frame",
        "live: compute per frame, JSON line read and followed (ms)",
        "reference_frame_interval_ms",
        "< 0.05x (5% of a core)",
    ),
    (
        "live_follower_ms_per_frame",
        "live: the follower alone, per frame (ms)",
        "reference_frame_interval_ms",
        "",
    ),
    (
        "live_speed50_wall_s",
        "live: 90-min `varroom replay --speed 50` piped into `varroom live`, wall (s)",
        "reference_live_speed50_match_s",
        "1x (keeps up)",
    ),
    (
        "live_skillcorner_follower_ms_per_frame",
        "live: the follower per frame, SkillCorner 2417, 451 tracks (ms)",
        "reference_skillcorner_frame_interval_ms",
        "",
    ),
]


def markdown(results: dict[str, Any], raw: Path = COMMITTED[0]) -> str:
    written = (
        "Written by `make bench-update` (`bench/run.py --update`)"
        if raw == COMMITTED[0]
        else "Written by `make bench` (`bench/run.py`) to out/"
    )
    lines = [
        "# Benchmarks",
        "",
        f"{written}; raw numbers in `{raw.relative_to(ROOT).as_posix()}`.",
        f"Machine: {platform.machine()}, Python {platform.python_version()}, "
        f"{results['cpu_count']} cores.",
        "Each figure stands beside a reference timed in the same run, and as a ratio to it:",
        "the ratio is what to compare between runs, since these machines are noisy.",
        "",
        "| figure | value | reference | ratio | goal |",
        "|---|---|---|---|---|",
    ]
    for key, label, ref, goal in ROWS:
        if key in results and ref in results:
            value, reference = results[key], results[ref]
            lines.append(
                f"| {label} | {value:.4g} | {reference:.4g} | {value / reference:.3g}x | {goal} |"
            )
    lines += ["", "References:", ""]
    lines += [
        f"- `{key}`: {value:.4g}"
        for key, value in results.items()
        if key.startswith("reference_") or key == "load_s_skillcorner_kloppy"
    ]
    lines += [
        "",
        "The command timings are medians of 7 interleaved runs (each command once in turn), "
        'against `python -c "import numpy"` run in the same turns; load average '
        f"{results.get('cli_bench_loadavg')}.",
        "",
        f"Review room under load: {results.get('review_decisions_sent')} decisions sent, "
        f"{results.get('review_decisions_logged')} in the log (none lost, none doubled).",
        f"Synthetic 90-min match: recall {results.get('recall_90min', 0):.2f}, precision "
        f"{results.get('precision_90min', 0):.2f} on the planted offences; SkillCorner 2417: "
        f"{results.get('skillcorner_incidents')} offences, {results.get('skillcorner_undecidable')} "
        "undecidable (opponents out of the broadcast picture).",
        f"Loading: varroom's SkillCorner reader is {results.get('load_speedup_vs_kloppy', 0):.1f}x "
        "kloppy's (same MatchTracking, tested equal).",
        f"Live (`bench/live.py`): the follower's alerts equal the audit's offences on the "
        f"synthetic 90-min match: {results.get('live_equals_audit_90min')} "
        f"({results.get('live_alerts_90min')} offences); on SkillCorner 2417: "
        f"{results.get('live_equals_audit_skillcorner')} "
        f"({results.get('live_skillcorner_judged')} phases judged). Latency and compute are "
        "read against the frame interval (40 ms at 25 Hz).",
    ]
    if "still_suggest_recall" in results:
        lines += [
            "",
            f"Still landmark suggestion (OpenCV) on {results['still_suggest_stills']} synthetic "
            f"stills: landmark recall {results['still_suggest_recall']:.2f} (within "
            f"{results['still_suggest_within_px']} px); ground error in the penalty area, median "
            f"{results['still_suggest_ground_cm_median']:.1f} cm, worst "
            f"{results['still_suggest_ground_cm_max']:.1f} cm over the stills it calibrated; "
            f"players found {results['still_suggest_player_recall']:.2f} (docs/still.md).",
        ]
    lines += [
        "",
        "## Real results: Turkey 0-3 Italy, Euro 2020 (StatsBomb 360)",
        "",
        f"{results['statsbomb_plays_judged']} plays judged; the engine finds "
        f"{results['statsbomb_engine_offences']} offside offences, the officials called "
        f"{results['statsbomb_official_calls']}: agreed on {results['statsbomb_agreed']}, "
        f"engine only {results['statsbomb_engine_only']}, officials only "
        f"{results['statsbomb_officials_only']}; {results['statsbomb_undecidable']} plays where "
        "an offence was possible but the freeze frame cannot settle it.",
        "",
        "| official call | player | the engine at that play |",
        "|---|---|---|",
        *[f"| {r['clock']} | {r['player']} | {r['engine']} |" for r in results["statsbomb_calls"]],
        "",
        "Why each disagreement: [docs/statsbomb-euro2020.md](docs/statsbomb-euro2020.md).",
    ]
    if AGAINST_REVISION.is_file():
        lines += ["", "### Against the code before issue 21", ""]
        lines += against_revision_markdown(json.loads(AGAINST_REVISION.read_text()))
    if "oracle_moments" in results:
        lines += [
            "",
            "## Settled means proven: partial data against an oracle",
            "",
            *_oracle(results),
        ]
    if "calibration_bins" in results:
        lines += ["", "## Only probable: the unseen prior's probability, calibrated", ""]
        lines += _calibration(results)
    if "season_scaling" in results:
        lines += ["", "## A season: `varroom audit-many`", "", *season_markdown(results)]
    return "\n".join(lines) + "\n"


def _oracle(results: dict[str, Any]) -> list[str]:
    """The oracle's count (bench/unseen_oracle.py, tests/football11.py)."""

    def share(prefix: str, key: str) -> str:
        return f"{100 * results[prefix + key] / results[prefix + 'moments']:.1f} %"

    rows = []
    for name, prefix in (
        ("football11's generator (not varroom.synthetic), seed 21", "oracle_"),
        ("varroom.synthetic, one 90-minute match (seed 1)", "oracle_synthetic_"),
    ):
        rows.append(
            f"| {name} | {results[prefix + 'situations']} | {results[prefix + 'moments']} | "
            f"{results[prefix + 'settled']} | **{results[prefix + 'contradicting']}** | "
            f"{share(prefix, 'undecidable')} | {share(prefix, 'oracle_undecidable')} |"
        )
    return [
        "Complete 11 v 11 situations masked as a broadcast camera, a freeze frame, a strip view "
        "or dropped tracks do (17 masks each); each masked moment judged by varroom against the "
        "complete truth, and the exact oracle (the unseen at the extremes of the ground out of "
        "view) on the same mask. The goal: no settled verdict contradicts the truth, and the "
        "undecidable share is at most the oracle's plus 3 points.",
        "",
        "| situations from | situations | masked moments | settled | contradicting the truth "
        "| undecidable | oracle's undecidable |",
        "|---|---|---|---|---|---|---|",
        *rows,
    ]


def _calibration(results: dict[str, Any]) -> list[str]:
    """The reliability table and Brier score (bench/unseen_calibration.py)."""
    rows = [
        f"| {row['low']:.1f} to {row['high']:.1f} | {row['count']} | {row['mean_p']:.2f} | "
        f"{row['share_offside']:.2f} |"
        for row in results["calibration_bins"]
    ]
    return [
        f"The {results['calibration_moments']} masked moments of football11's situations above "
        "that the unseen leave undecidable, about the receiver: the verdict's probability "
        "(P offside position, the whole-team prior included) against the share the complete "
        "data calls offside. Brier score "
        f"**{results['calibration_brier']:.3f}**, against "
        f"{results['calibration_brier_base_rate']:.3f} for the share itself forecast every time "
        "(lower is better). The prior is of one real match's formations, and football11's "
        "are another generator's: this says how far to trust the figure, not that it is "
        "right.",
        "",
        "| predicted P | moments | mean predicted | share offside |",
        "|---|---|---|---|",
        *rows,
    ]


def write(results: dict[str, Any], update: bool) -> str:
    """The raw numbers and the table, to out/ or (`update`) to the committed files."""
    raw, table = COMMITTED if update else OUT
    raw.parent.mkdir(parents=True, exist_ok=True)
    raw.write_text(json.dumps(results, indent=2) + "\n")
    text = markdown(results, raw)
    table.write_text(text)
    return text


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--update",
        action="store_true",
        help="write bench/results.json and BENCHMARKS.md (committed) instead of out/",
    )
    update = parser.parse_args(argv).update
    results: dict[str, Any] = {"cpu_count": os.cpu_count() or 0}
    for section in SECTIONS:
        print(f"bench: {section.__name__} ...", file=sys.stderr, flush=True)
        results.update(section())
    print(write(results, update))


if __name__ == "__main__":
    main()
