"""How this sample was cut from StatsBomb's files (run from the repository root).

    python samples/statsbomb-euro2020-turkey-italy/cut.py SOURCE_DIR

SOURCE_DIR holds statsbomb_3788741_{event,360,lineup}.json as StatsBomb publishes them.
Keeps every event that sets up the match (line-ups, half starts and ends, substitutions,
tactical shifts) and every event from 60 s before to 15 s after each of the six offside
calls, with their 360 frames; the lineup file is copied whole. Records are kept as they
are, only written without indentation.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

BEFORE_S, AFTER_S = 60.0, 15.0
SETUP_TYPES = {"Starting XI", "Half Start", "Half End", "Substitution", "Tactical Shift"}
HERE = Path(__file__).resolve().parent


def seconds(timestamp: str) -> float:
    hours, minutes, rest = timestamp.split(":")
    return int(hours) * 3600 + int(minutes) * 60 + float(rest)


def is_offside_call(event: dict) -> bool:
    outcome = (event.get("pass") or {}).get("outcome") or {}
    return event["type"]["name"] == "Offside" or outcome.get("name") == "Pass Offside"


def main(source: Path) -> None:
    events = json.loads((source / "statsbomb_3788741_event.json").read_text(encoding="utf-8"))
    calls = [(e["period"], seconds(e["timestamp"])) for e in events if is_offside_call(e)]
    kept = [
        e
        for e in events
        if e["type"]["name"] in SETUP_TYPES
        or any(
            e["period"] == period and -BEFORE_S <= seconds(e["timestamp"]) - t_s <= AFTER_S
            for period, t_s in calls
        )
    ]
    ids = {e["id"] for e in kept}
    frames = json.loads((source / "statsbomb_3788741_360.json").read_text(encoding="utf-8"))
    write("statsbomb_3788741_event.json", kept)
    write("statsbomb_3788741_360.json", [f for f in frames if f["event_uuid"] in ids])
    lineup = (source / "statsbomb_3788741_lineup.json").read_text(encoding="utf-8")
    (HERE / "statsbomb_3788741_lineup.json").write_text(lineup, encoding="utf-8")


def write(name: str, records: list) -> None:
    text = json.dumps(records, ensure_ascii=False, separators=(",", ":"))
    (HERE / name).write_text(text + "\n", encoding="utf-8")


if __name__ == "__main__":
    main(Path(sys.argv[1]))
