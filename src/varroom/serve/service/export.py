"""The decision log as CSV: one row per entry, the profile its verdict was judged under (name
and hash), facts as JSON in the last column."""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Iterable, Mapping
from typing import Any

from varroom.serve.chain import CHAINED

# Who decided what, and the engine's view of it: the chained columns, in the chain's order.
_DECIDED = CHAINED[CHAINED.index("reviewer") : CHAINED.index("duration_s") + 1]
COLUMNS = (
    "id",
    "created_at",
    "situation_id",
    "situation_title",
    *_DECIDED,
    "profile",
    "profile_sha256",
    "corrects",
    "client_ref",
    "note",
    "facts",
)


def decisions_csv(entries: Iterable[Mapping[str, Any]]) -> str:
    """The entries (as `DecisionLog.entries` gives them) as CSV text, CRLF line ends."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow(COLUMNS)
    for entry in entries:
        profile = entry["profile"] or {}  # none before profiles: the cells stay empty
        entry = {
            **entry,
            "profile": profile.get("name"),
            "profile_sha256": profile.get("sha256"),
            "facts": json.dumps(entry["facts"], separators=(",", ":")),
        }
        writer.writerow([csv_cell(entry[c]) for c in COLUMNS])
    return out.getvalue()


def csv_cell(value: Any) -> Any:
    """Spreadsheets run cells that start with = + - @: quote text ones (numbers stay numbers)."""
    if isinstance(value, str) and value[:1] in ("=", "+", "-", "@", "\t", "\r"):
        return "'" + value
    return "" if value is None else value
