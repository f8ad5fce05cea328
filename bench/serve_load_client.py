"""The review room's load-test client: many reviewers recording decisions at once.

`review_room_load(reviewers, decisions)` serves a fresh review room (SQLite in a temporary
folder) with uvicorn on 127.0.0.1, has each reviewer post its decisions on one thread of its
own, then reads the log back: every (reviewer, seq) must be there exactly once.
"""

from __future__ import annotations

import json
import statistics
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

from serve_in_thread import serve_in_thread

KANE = Path(__file__).resolve().parent.parent / "examples" / "tottenham-sporting-2022-kane.json"


def _percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    if not ordered:
        return float("nan")
    k = (len(ordered) - 1) * q
    lo, hi = int(k), min(int(k) + 1, len(ordered) - 1)
    return ordered[lo] + (ordered[hi] - ordered[lo]) * (k - lo)


def review_room_load(
    reviewers: int = 20, decisions: int = 200, situation: dict[str, Any] | None = None
) -> dict[str, Any]:
    import httpx

    from varroom.serve import create_app
    from varroom.serve.verify import check_chain

    data = situation if situation is not None else json.loads(KANE.read_text(encoding="utf-8"))
    with tempfile.TemporaryDirectory(prefix="varroom-load-") as folder:
        app = create_app(None, None, folder)
        with serve_in_thread(app) as url:
            with httpx.Client(base_url=url, timeout=60) as setup:
                response = setup.post("/api/situations", json=data)
                response.raise_for_status()
                situation_id = response.json()["id"]

            latencies: list[list[float]] = [[] for _ in range(reviewers)]
            failures: list[str] = []
            retries = [0]
            start_line = threading.Barrier(reviewers + 1)

            def reviewer(r: int) -> None:
                name = f"reviewer-{r:02d}"
                with httpx.Client(base_url=url, timeout=60) as client:
                    start_line.wait()
                    for seq in range(decisions):
                        body = {
                            "reviewer": name,
                            "decision": ("confirm", "offside", "no_offence")[seq % 3],
                            "duration_s": 5 + (seq % 40),
                            "client_ref": str(seq),
                        }
                        for _attempt in range(5):
                            began = time.perf_counter()
                            try:
                                answer = client.post(
                                    f"/api/situations/{situation_id}/decisions", json=body
                                )
                            except httpx.TransportError:
                                retries[0] += 1  # the same client_ref again: recorded once
                                continue
                            latencies[r].append((time.perf_counter() - began) * 1000)
                            if answer.status_code not in (200, 201):
                                failures.append(
                                    f"{name} #{seq}: {answer.status_code} {answer.text[:200]}"
                                )
                            break
                        else:
                            failures.append(f"{name} #{seq}: no answer")

            threads = [threading.Thread(target=reviewer, args=(r,)) for r in range(reviewers)]
            for thread in threads:
                thread.start()
            start_line.wait()
            began = time.perf_counter()
            for thread in threads:
                thread.join()
            wall_s = time.perf_counter() - began

            with httpx.Client(base_url=url, timeout=60) as reader:
                log = reader.get("/api/decisions.json").json()
        chain = check_chain(app.state.room.store.engine)
        app.state.room.close()

    seen: dict[tuple[str, str], int] = {}
    for entry in log:
        key = (entry["reviewer"], entry["client_ref"])
        seen[key] = seen.get(key, 0) + 1
    expected = {(f"reviewer-{r:02d}", str(s)) for r in range(reviewers) for s in range(decisions)}
    flat = [ms for per in latencies for ms in per]
    return {
        "reviewers": reviewers,
        "decisions_each": decisions,
        "sent": reviewers * decisions,
        "logged": len(log),
        "lost": len(expected - seen.keys()),
        "doubled": sum(n - 1 for n in seen.values() if n > 1),
        "unexpected": len(seen.keys() - expected),
        "failures": len(failures),
        "chain_intact": chain.intact and chain.entries == len(log),
        "first_failure": failures[0] if failures else None,
        "retries": retries[0],
        "p50_ms": round(_percentile(flat, 0.50), 2),
        "p99_ms": round(_percentile(flat, 0.99), 2),
        "max_ms": round(max(flat), 2) if flat else None,
        "mean_ms": round(statistics.fmean(flat), 2) if flat else None,
        "wall_s": round(wall_s, 2),
        "decisions_per_s": round(len(flat) / wall_s, 1) if wall_s else None,
    }


def recompute_latency(
    changes: int = 200, situation: dict[str, Any] | None = None
) -> dict[str, Any]:
    """Flip a fact back and forth `changes` times: how long judging again takes, server-side
    (`timing_ms` of each answer) and over HTTP on loopback."""
    import httpx

    from varroom.serve import create_app

    data = situation if situation is not None else json.loads(KANE.read_text(encoding="utf-8"))
    deflection = next(
        (i for i, t in enumerate(data["touches"]) if t["action"] == "deflection"), None
    )
    if deflection is None:
        raise ValueError("the situation needs a deflection to flip")
    judge_ms: list[float] = []
    server_ms: list[float] = []
    http_ms: list[float] = []
    with tempfile.TemporaryDirectory(prefix="varroom-recompute-") as folder:
        app = create_app(None, None, folder)
        with serve_in_thread(app) as url, httpx.Client(base_url=url, timeout=60) as client:
            situation_id = client.post("/api/situations", json=data).json()["id"]
            for n in range(changes + 10):
                kind = "deliberate_play" if n % 2 == 0 else "deflection"
                began = time.perf_counter()
                answer = client.post(
                    f"/api/situations/{situation_id}/facts",
                    json={"plays": [{"touch": deflection, "kind": kind}]},
                )
                elapsed = (time.perf_counter() - began) * 1000
                answer.raise_for_status()
                if n >= 10:  # the first few warm up
                    timing = answer.json()["timing_ms"]
                    judge_ms.append(timing["judge"])
                    server_ms.append(timing["total"])
                    http_ms.append(elapsed)
        app.state.room.close()
    return {
        "changes": changes,
        "judge_ms_p50": round(_percentile(judge_ms, 0.5), 2),
        "judge_ms_p99": round(_percentile(judge_ms, 0.99), 2),
        "server_ms_p50": round(_percentile(server_ms, 0.5), 2),
        "server_ms_p99": round(_percentile(server_ms, 0.99), 2),
        "http_ms_p50": round(_percentile(http_ms, 0.5), 2),
        "http_ms_p99": round(_percentile(http_ms, 0.99), 2),
    }
