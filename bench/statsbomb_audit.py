"""The audit of a real match: Turkey 0-3 Italy, Euro 2020, StatsBomb events and 360 frames.

Times loading and auditing, and tells what the engine says at each of the officials' six
offside calls, so that BENCHMARKS.md carries real results made by the same run.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

from varroom.audit.model import clock
from varroom.audit.run import audit_match, call_phases
from varroom.engine.explain import distance
from varroom.engine.verdict import Status
from varroom.match import load_match

ROOT = Path(__file__).resolve().parent.parent
SHARED = ROOT.parent / "shared" / "data" / "statsbomb-360-euro2020-3788741"
# The whole match from the shared data; in a clone without it (CI), the sample varroom ships
# (the plays around the six calls), so that make bench runs there too.
DATA = SHARED if SHARED.is_dir() else ROOT / "samples" / "statsbomb-euro2020-turkey-italy"
FILES = {
    "event_data": DATA / "statsbomb_3788741_event.json",
    "lineup_data": DATA / "statsbomb_3788741_lineup.json",
    "three_sixty_data": DATA / "statsbomb_3788741_360.json",
}


def bench_statsbomb() -> dict[str, Any]:
    start = time.perf_counter()
    match = load_match("statsbomb", **FILES)
    loaded = time.perf_counter()
    audit = audit_match(match)
    audited = time.perf_counter()
    at_calls = call_phases(match, audit)
    names = dict(zip(match.player_ids.tolist(), match.player_names, strict=True))
    rows = []
    for call, incident in zip(audit.official_calls, at_calls, strict=True):
        if incident is None:
            engine = "no play with a freeze frame"
        elif incident.status is Status.OFFENCE:
            engine = f"offside, {distance(incident.verdict.margin_m)}"
        elif incident.status is Status.UNDECIDABLE:
            engine = "undecidable"
        else:
            engine = "no offence"
        rows.append(
            {
                "clock": clock(call.period, call.t_s),
                "player": names.get(call.player or "", call.player),
                "engine": engine,
            }
        )
    return {
        "statsbomb_load_s": loaded - start,
        "statsbomb_audit_s": audited - loaded,
        "statsbomb_plays_judged": audit.phases_judged,
        "statsbomb_engine_offences": len(audit.incidents),
        "statsbomb_official_calls": len(audit.official_calls),
        "statsbomb_agreed": len(audit.agreement.both),
        "statsbomb_engine_only": len(audit.agreement.engine_only),
        "statsbomb_officials_only": len(audit.agreement.official_only),
        "statsbomb_undecidable": len(audit.undecidable),
        "statsbomb_calls": rows,
    }


if __name__ == "__main__":
    print(bench_statsbomb())
