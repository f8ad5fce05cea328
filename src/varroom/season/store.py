"""The season's Parquet store: a part file per match, written whole, then two tables.

`DIR/parts/<match_id>.incidents.parquet` and then `DIR/parts/<match_id>.match.parquet` are
written (each atomically, through `varroom.output_file`) by whoever audits the match, as
soon as it is done: the match part comes last and is the match's commit, so a crash loses
at most the matches in flight. `DIR/incidents.parquet` and `DIR/matches.parquet`, one file
each that DuckDB and pyarrow read, are gathered from the parts at the end of every run (a
run that resumes after a crash gathers the crashed run's parts too).

An incidents part belongs to its match part only when both carry the same `key` (the
match's inputs, settings and varroom version): a part left by an older run is not read.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.parquet as pq

from varroom.output_file import OutputError, write_atomically

INCIDENTS = pa.schema(
    [
        ("match_id", pa.string()),
        ("competition", pa.string()),
        ("season", pa.string()),
        ("referee", pa.string()),
        ("kind", pa.string()),  # offside / penalty / ball_line
        # offside and penalty: offence / no_offence (/ undecidable); null: an official call
        # alone. ball_line: missed_ball_out / goal_line, what the audit found.
        ("status", pa.string()),
        ("decision", pa.string()),  # penalty and ball_line: the Law's decision (goal, retake, ...)
        ("offender", pa.string()),  # the player's id in the data
        ("offender_name", pa.string()),  # and his name, as the lineup gives it
        ("team", pa.string()),  # the attacking team's name
        ("team_id", pa.string()),
        # offside: beyond the line; penalty: the goalkeeper's foot off his line; ball_line:
        # wholly over by (negative: short)
        ("margin_m", pa.float64()),
        ("probability", pa.float64()),  # P(margin > 0)
        ("class", pa.string()),  # clear / tight / too_close_to_call
        ("period", pa.int16()),
        ("t_s", pa.float64()),
        ("official_call", pa.bool_()),
        # offside: agreed / engine_only / officials_only / data_inconsistent / undecidable
        ("agreement", pa.string()),
        ("reason", pa.string()),
        ("policies", pa.string()),  # JSON: each standard policy's decision
        ("profile", pa.string()),  # the competition profile it was judged under, by name
        ("profile_sha256", pa.string()),  # and by its content's hash
        ("key", pa.string()),
    ]
)
MATCHES = pa.schema(
    [
        ("match_id", pa.string()),
        ("competition", pa.string()),
        ("season", pa.string()),
        ("referee", pa.string()),
        ("provider", pa.string()),
        ("profile", pa.string()),  # the competition profile its incidents were judged under
        ("profile_sha256", pa.string()),
        ("state", pa.string()),  # ok / failed
        ("error", pa.string()),
        ("seconds", pa.float64()),  # loading and auditing, in the worker
        ("n_incidents", pa.int32()),
        ("n_official_calls", pa.int32()),
        ("varroom_version", pa.string()),
        ("settings", pa.string()),  # JSON
        ("inputs", pa.string()),  # the files' content hash
        ("key", pa.string()),
        ("worker", pa.string()),  # host:pid
        ("worker_peak_mb", pa.float64()),  # the worker process's peak memory so far
    ]
)


def part_path(out: Path, match_id: str, table: str) -> Path:
    return out / "parts" / f"{match_id}.{table}.parquet"


def write_match(
    out: Path, match_id: str, match_row: Mapping[str, Any], incidents: Sequence[Mapping[str, Any]]
) -> None:
    """A match's parts: its incidents, then its row (the commit)."""
    _write(part_path(out, match_id, "incidents"), pa.Table.from_pylist(list(incidents), INCIDENTS))
    _write(part_path(out, match_id, "match"), pa.Table.from_pylist([dict(match_row)], MATCHES))


def done(out: Path, match_ids: Iterable[str]) -> dict[str, tuple[str, str]]:
    """(state, key) of each of `match_ids` that has a match part."""
    states = {}
    for match_id in match_ids:
        path = part_path(out, match_id, "match")
        if path.is_file():
            row = pq.read_table(path, columns=["state", "key"]).to_pylist()[0]
            states[match_id] = (row["state"], row["key"])
    return states


def gather(out: Path, match_ids: Sequence[str]) -> tuple[int, int]:
    """Write `DIR/matches.parquet` and `DIR/incidents.parquet` from the parts of `match_ids`
    (in that order); returns (matches, incidents)."""
    matches, incidents = [], []
    for match_id in match_ids:
        path = part_path(out, match_id, "match")
        if not path.is_file():
            continue
        match = pq.read_table(path, schema=MATCHES)
        matches.append(match)
        key = match.column("key")[0].as_py()
        part = part_path(out, match_id, "incidents")
        if part.is_file():
            table = pq.read_table(part, schema=INCIDENTS)
            if table.num_rows and table.column("key")[0].as_py() == key:
                incidents.append(table)
    match_table = pa.concat_tables(matches) if matches else MATCHES.empty_table()
    incident_table = pa.concat_tables(incidents) if incidents else INCIDENTS.empty_table()
    _write(out / "matches.parquet", match_table)
    _write(out / "incidents.parquet", incident_table)
    return match_table.num_rows, incident_table.num_rows


def read(out: Path) -> tuple[pa.Table, pa.Table]:
    """(matches, incidents) of a finished run."""
    try:
        return pq.read_table(out / "matches.parquet"), pq.read_table(out / "incidents.parquet")
    except (OSError, pa.ArrowInvalid) as error:
        from varroom.errors import InputError

        raise InputError(out, "", f"no season results here: {error}") from None


def _write(path: Path, table: pa.Table) -> None:
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise OutputError(f"cannot write {path.parent}: {error.strerror or error}") from None
    write_atomically(path, "", lambda stream: pq.write_table(table, stream))
