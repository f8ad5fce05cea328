"""The Turkey-Italy audit against the code of an earlier revision, in the same run.

Issue 21's goal is a ratio to the code before it ("no slower than 1.5x today's"), which no
reference inside one checkout can give. This extracts that revision's `src/` from git into
out/against/REV, then times the audit of the 937 plays after loading, each revision in a
fresh process, the two taking turns (which goes first alternates), `--runs` rounds: the
figure is the ratio of the medians. The raw numbers go to bench/against_revision.json,
which BENCHMARKS.md shows (`make bench-against`; it takes about a minute a round).

A child (`--child SRC`) imports varroom from SRC and prints one JSON line: the same files
and `audit_match` at either revision (it took the files beside the match before issue 25).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
# The last commit before issue 21's work (`git merge-base` of its merge, 468f572).
BEFORE_ISSUE_21 = "efde3802f40caddb8a506b70dbe188435081a4f1"
RESULTS = ROOT / "bench" / "against_revision.json"


def child(src: str) -> None:
    sys.path.insert(0, src)
    sys.path.insert(0, str(ROOT / "bench"))
    from statsbomb_audit import FILES  # the data files, not the code under test

    import varroom.audit.run
    from varroom.match import load_match

    match = load_match("statsbomb", **FILES)
    start = time.perf_counter()
    # Before issue 25 the audit took StatsBomb's files beside the match and read the facts it
    # needs from them; since, loading reads them. Each revision is timed as it audits.
    files = (FILES,) if hasattr(varroom.audit.run, "freeze_frame_facts") else ()
    audit = varroom.audit.run.audit_match(match, lambda *_: None, *files)
    audited = time.perf_counter() - start

    print(
        json.dumps(
            {"audit_s": audited, "plays": audit.phases_judged, "module": str(varroom.__file__)}
        )
    )


def extract(revision: str, into: Path) -> Path:
    """That revision's src/ under `into` (made afresh each time: nothing stale is timed)."""
    shutil.rmtree(into, ignore_errors=True)
    into.mkdir(parents=True)
    with tempfile.TemporaryFile() as archive:
        subprocess.run(
            ["git", "-C", str(ROOT), "archive", "--format=tar", revision, "src"],
            stdout=archive,
            check=True,
        )
        archive.seek(0)
        with tarfile.open(fileobj=archive) as tar:
            tar.extractall(into, filter="data")
    return into / "src"


def run_one(src: Path) -> dict[str, Any]:
    done = subprocess.run(
        [sys.executable, __file__, "--child", str(src)],
        capture_output=True,
        text=True,
        check=True,
        env={**os.environ, "PYTHONPATH": ""},
    )
    found: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    if not found["module"].startswith(str(src)):
        raise SystemExit(f"the child imported {found['module']}, not the code under {src}")
    return found


def compare(revision: str, runs: int) -> dict[str, Any]:
    full = subprocess.run(
        ["git", "-C", str(ROOT), "rev-parse", revision], capture_output=True, text=True, check=True
    ).stdout.strip()
    now = subprocess.run(
        ["git", "-C", str(ROOT), "rev-parse", "HEAD"], capture_output=True, text=True, check=True
    ).stdout.strip()
    # Timed is the checkout's src/, which may hold changes HEAD does not.
    dirty = subprocess.run(
        ["git", "-C", str(ROOT), "status", "--porcelain", "--", "src"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    before_src = extract(full, ROOT / "out" / "against" / full[:12])
    after_src = ROOT / "src"
    before: list[float] = []
    after: list[float] = []
    plays: set[tuple[str, int]] = set()
    load_before = os.getloadavg()
    for round_ in range(runs):
        order = [(before_src, before), (after_src, after)]
        for src, times in order if round_ % 2 == 0 else order[::-1]:
            found = run_one(src)
            times.append(found["audit_s"])
            plays.add((str(src), found["plays"]))
        print(f"round {round_ + 1}: before {before[-1]:.2f} s, now {after[-1]:.2f} s", flush=True)
    return {
        "revision": full,
        "head": now,
        "head_changed": bool(dirty),
        "runs": runs,
        "before_audit_s": before,
        "after_audit_s": after,
        "before_audit_s_median": statistics.median(before),
        "after_audit_s_median": statistics.median(after),
        "ratio": statistics.median(after) / statistics.median(before),
        "plays": sorted(n for _, n in plays),
        "load_average": [list(load_before), list(os.getloadavg())],
        "cpu_count": os.cpu_count() or 0,
    }


def markdown(found: dict[str, Any]) -> list[str]:
    """The section BENCHMARKS.md shows for bench/against_revision.json."""
    load = found["load_average"]
    head = found["head"][:7] + (" with uncommitted changes" if found["head_changed"] else "")
    return [
        f"The audit of Turkey-Italy ({', '.join(map(str, sorted(set(found['plays']))))} plays "
        f"judged), after loading, timed at {head} and at {found['revision'][:7]} (the code before issue 21), "
        f"each in a fresh process, taking turns, {found['runs']} rounds "
        f"(`make bench-against`; load average {load[0][0]:.2f} before, {load[1][0]:.2f} after, "
        f"{found['cpu_count']} cores). Goal: no more than 1.5x.",
        "",
        "| revision | median (s) | runs (s) |",
        "|---|---|---|",
        f"| {found['revision'][:7]}, before issue 21 | {found['before_audit_s_median']:.2f} | "
        f"{', '.join(f'{t:.2f}' for t in found['before_audit_s'])} |",
        f"| {head} | {found['after_audit_s_median']:.2f} | "
        f"{', '.join(f'{t:.2f}' for t in found['after_audit_s'])} |",
        "",
        f"Ratio of the medians: **{found['ratio']:.2f}x**.",
    ]


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--revision", default=BEFORE_ISSUE_21)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--child", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child:
        child(args.child)
        return
    found = compare(args.revision, args.runs)
    RESULTS.write_text(json.dumps(found, indent=2) + "\n")
    print("\n".join(markdown(found)))


if __name__ == "__main__":
    main()
