"""`varroom audit-many` on a season that mixes tracking and StatsBomb 360 freeze frames: a
synthetic Tracab match and the bundled Turkey v Italy sample, each judged by the path its
positions call for from the loaded match alone, and `varroom season` over both."""

from __future__ import annotations

import csv
from pathlib import Path

import pyarrow.parquet as pq
from click.testing import CliRunner

from varroom.cli.main import cli

SAMPLE = Path(__file__).resolve().parents[1] / "samples" / "statsbomb-euro2020-turkey-italy"
STATSBOMB_ROW = {
    "match_id": "turkey-italy",
    "provider": "statsbomb",
    "competition": "Euro 2020",
    "season": "2020-21",
    "referee": "D. Makkelie",
    **{
        role: str(SAMPLE / f"statsbomb_3788741_{kind}.json")
        for role, kind in (
            ("event_data", "event"),
            ("lineup_data", "lineup"),
            ("three_sixty_data", "360"),
        )
    },
}


def varroom(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(cli, list(args))
    if result.exception and not isinstance(result.exception, SystemExit):
        raise result.exception
    return result.exit_code, result.output


def test_a_season_of_tracking_and_statsbomb_freeze_frames_is_audited_and_reported(
    tmp_path: Path,
) -> None:
    data, out = tmp_path / "data", tmp_path / "results"
    code, output = varroom("synthetic", str(data), "--matches", "1", "--minutes", "10", "--quiet")
    assert code == 0, output
    manifest = data / "manifest.csv"
    with manifest.open(newline="", encoding="utf-8") as stream:
        rows = list(csv.DictReader(stream))
    with manifest.open("w", newline="", encoding="utf-8") as stream:
        writer = csv.DictWriter(stream, [*rows[0], "event_data", "lineup_data", "three_sixty_data"])
        writer.writeheader()
        writer.writerows([*rows, STATSBOMB_ROW])

    code, output = varroom("audit-many", str(manifest), "--out", str(out), "--workers", "2")

    assert code == 0 and "2 audited" in output and "0 failed" in output, output
    matches = {row["match_id"]: row for row in pq.read_table(out / "matches.parquet").to_pylist()}
    assert {m: (row["provider"], row["state"]) for m, row in matches.items()} == {
        rows[0]["match_id"]: ("tracab", "ok"),
        "turkey-italy": ("statsbomb", "ok"),
    }
    incidents = pq.read_table(out / "incidents.parquet").to_pylist()
    assert {row["match_id"] for row in incidents} == set(matches)
    # The six offside calls of the sample, scored as `varroom audit` scores them
    # (tests/test_audit_freeze_frames.py): Berardi's on a corner kick contradicts the data.
    calls = [r for r in incidents if r["match_id"] == "turkey-italy" and r["official_call"]]
    assert matches["turkey-italy"]["n_official_calls"] == len(calls) == 6
    agreements = sorted(str(r["agreement"]) for r in calls)
    assert agreements == ["data_inconsistent", *["officials_only"] * 5]

    report = tmp_path / "season.html"
    code, output = varroom("season", str(out), "--html", str(report))
    assert code == 0, output
    page = report.read_text("utf-8")
    assert "Euro 2020" in page and "D. Makkelie" in page and "North League" in page
