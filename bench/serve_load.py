"""The review room under load: 20 reviewers recording 200 decisions each, at once.

`bench_review_room()` serves a fresh review room with uvicorn on 127.0.0.1 (in a thread of
this process: the reviewers' clients and the server share the machine and the interpreter)
and returns the latency of recording a decision (p50, p99, in ms) and whether the log holds
every decision exactly once. Run directly, it prints the result as JSON.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
KANE = ROOT / "examples" / "tottenham-sporting-2022-kane.json"


def bench_review_room(reviewers: int = 20, decisions: int = 200) -> dict[str, Any]:
    from serve_load_client import review_room_load

    result = review_room_load(reviewers, decisions, json.loads(KANE.read_text(encoding="utf-8")))
    if (
        result["lost"]
        or result["doubled"]
        or result["unexpected"]
        or result["failures"]
        or not result["chain_intact"]
    ):
        raise RuntimeError(f"the decision log is wrong under load: {result}")
    return result


def bench_recompute(changes: int = 200) -> dict[str, Any]:
    """Setting a fact (the Kane deflection, back and forth): judging again, in ms."""
    from serve_load_client import recompute_latency

    return recompute_latency(changes, json.loads(KANE.read_text(encoding="utf-8")))


if __name__ == "__main__":
    json.dump({"load": bench_review_room(), "recompute": bench_recompute()}, sys.stdout, indent=2)
    print()
