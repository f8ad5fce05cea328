"""`--profile` on the match commands (issue 25): `audit`, `audit-many` (and the manifest's
`profile` column), `season --html` (its profile groups, and the calls that would differ) and
`live`: the profile changes the verdicts where it says it should, and is recorded.

The oracle is the profile's own rule applied to the margins the `ifab` run measured: under a
tolerance of X an offence is a position beyond the line by more than X, so every offence found
is beyond by more than X, and every `ifab` offence beyond by more than X is found again (an
offence ends its phase under both; a stricter rule only lets a phase run on).
"""

from __future__ import annotations

import csv
import json
from pathlib import Path
from typing import Any

import pyarrow.parquet as pq
import pytest
from click.testing import CliRunner

from test_live_stream_cli import first_half, stream_file  # noqa: F401 (fixtures)
from varroom.cli.main import cli
from varroom.profiles import builtin_profile, ifab
from varroom.profiles.reader import read_profile_file


def varroom(*args: str, stdin: str | None = None) -> tuple[int, str, str]:
    result = CliRunner().invoke(cli, list(args), input=stdin)
    if result.exception and not isinstance(result.exception, SystemExit):
        raise result.exception
    return result.exit_code, result.stdout, result.stderr


def tolerance_file(folder: Path, tolerance_cm: float) -> Path:
    path = folder / "strict.toml"
    path.write_text(
        f'name = "strict"\nversion = "1"\nsource = "a test"\n'
        f'[offside]\npolicy = "tolerance:{tolerance_cm:g}cm"\n'
    )
    return path


@pytest.fixture(scope="module")
def synthetic(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("synthetic")
    code, stdout, _ = varroom(
        "synthetic", str(out), "--matches", "2", "--minutes", "10", "--seed", "7"
    )
    assert code == 0, stdout
    return out


def _rows(folder: Path) -> list[dict[str, str]]:
    with (folder / "manifest.csv").open(newline="") as stream:
        return list(csv.DictReader(stream))


def _audit(folder: Path, *profile: str) -> dict[str, Any]:
    row = _rows(folder)[0]
    code, stdout, stderr = varroom(
        "audit", "tracab", "--meta-data", str(folder / row["meta_data"]),
        "--raw-data", str(folder / row["raw_data"]), "--json", "--quiet", *profile,
    )  # fmt: skip
    assert code == 0, stderr
    audit: dict[str, Any] = json.loads(stdout)
    return audit


def _offences(audit: dict[str, Any]) -> list[tuple[str, int, float, float]]:
    return [
        (i["offender"], i["period"], i["t_s"], i["margin_m"])
        for i in audit["incidents"]
        if i["status"] == "offence"
    ]


def _between(margins: list[float]) -> float:
    """A tolerance in cm that some measured offences are within and some beyond."""
    ordered = sorted(margins)
    assert len(ordered) >= 2 and ordered[0] < ordered[-1], ordered
    middle = len(ordered) // 2
    return round((ordered[middle - 1] + ordered[middle]) / 2 * 100, 1)


@pytest.fixture(scope="module")
def by_ifab(synthetic: Path) -> dict[str, Any]:
    return _audit(synthetic)


def test_audit_under_a_tolerance_profile_finds_only_offences_beyond_it(
    synthetic: Path, by_ifab: dict[str, Any], tmp_path: Path
) -> None:
    found = _offences(by_ifab)
    tolerance_cm = _between([margin for *_, margin in found])
    strict = _audit(synthetic, "--profile", str(tolerance_file(tmp_path, tolerance_cm)))
    again = _offences(strict)
    assert all(margin > tolerance_cm / 100 for *_, margin in again)
    kept = {o for o in found if o[3] > tolerance_cm / 100 + 1e-6}
    assert kept <= set(again)
    assert len(again) < len(found)
    sha = read_profile_file(tmp_path / "strict.toml").sha256
    assert strict["profile"] == {"name": "strict", "sha256": sha}
    for part in ("incidents", "undecidable", "penalties", "ball_lines"):
        assert all(item["profile"]["name"] == "strict" for item in strict[part])
    assert by_ifab["profile"] == ifab().stamp()


def test_audit_prints_the_profile_for_a_person(synthetic: Path) -> None:
    row = _rows(synthetic)[0]
    code, stdout, _ = varroom(
        "audit", "tracab", "--meta-data", str(synthetic / row["meta_data"]),
        "--raw-data", str(synthetic / row["raw_data"]), "--quiet", "--profile", "daylight",
    )  # fmt: skip
    assert code == 0
    assert f"under the {builtin_profile('daylight').label} profile" in " ".join(stdout.split())


def _manifest_with_profiles(synthetic: Path, profiles: list[str], name: str) -> Path:
    """The synthetic manifest with a `profile` column, both matches in one competition."""
    rows = _rows(synthetic)
    path = synthetic / name
    with path.open("w", newline="") as stream:
        writer = csv.DictWriter(stream, [*rows[0], "profile"])
        writer.writeheader()
        for row, profile in zip(rows, profiles, strict=True):
            writer.writerow({**row, "competition": "One League", "profile": profile})
    return path


@pytest.fixture(scope="module")
def season(
    synthetic: Path, by_ifab: dict[str, Any], tmp_path_factory: pytest.TempPathFactory
) -> tuple[Path, float]:
    tolerance_cm = _between([margin for *_, margin in _offences(by_ifab)])
    tolerance_file(synthetic, tolerance_cm)
    # The first match as the command's --profile says (ifab), the second under the file.
    manifest = _manifest_with_profiles(synthetic, ["", "strict.toml"], "profiles.csv")
    out = tmp_path_factory.mktemp("season")
    code, stdout, stderr = varroom("audit-many", str(manifest), "--out", str(out), "--workers", "1")
    assert code == 0 and "2 audited" in stdout, stderr
    return out, tolerance_cm


def test_audit_many_judges_each_match_under_its_rows_profile(season: tuple[Path, float]) -> None:
    out, tolerance_cm = season
    matches = {m["match_id"]: m for m in pq.read_table(out / "matches.parquet").to_pylist()}
    assert matches["m0000"]["profile"] == "ifab"
    assert matches["m0000"]["profile_sha256"] == ifab().sha256
    assert matches["m0001"]["profile"] == "strict"
    rows = pq.read_table(out / "incidents.parquet").to_pylist()
    for row in rows:
        assert row["profile"] == matches[row["match_id"]]["profile"]
        assert row["profile_sha256"] == matches[row["match_id"]]["profile_sha256"]
    strict = [r for r in rows if r["match_id"] == "m0001" and r["kind"] == "offside"]
    offences = [r for r in strict if r["status"] == "offence"]
    assert offences and all(r["margin_m"] > tolerance_cm / 100 for r in offences)


def test_audit_many_takes_the_commands_profile_for_rows_without_one(
    synthetic: Path, tmp_path: Path
) -> None:
    manifest = _manifest_with_profiles(synthetic, ["", "daylight"], "default.csv")
    code, _, stderr = varroom(
        "audit-many", str(manifest), "--out", str(tmp_path), "--workers", "1",
        "--profile", "confidence-95", "--quiet",
    )  # fmt: skip
    assert code == 0, stderr
    matches = {
        m["match_id"]: m["profile"] for m in pq.read_table(tmp_path / "matches.parquet").to_pylist()
    }
    assert matches == {"m0000": "confidence-95", "m0001": "daylight"}


def test_a_bad_profile_in_the_manifest_is_one_line_naming_row_and_column(
    synthetic: Path, tmp_path: Path
) -> None:
    manifest = _manifest_with_profiles(synthetic, ["ifab", "tolerance5cm"], "bad.csv")
    code, stdout, stderr = varroom("audit-many", str(manifest), "--out", str(tmp_path))
    assert code == 2 and stdout == ""
    line = stderr.strip()
    assert "\n" not in line and "row 3, column profile" in line
    assert "did you mean 'tolerance-5cm'?" in line


def test_season_report_groups_by_profile_and_flags_a_competition_judged_two_ways(
    season: tuple[Path, float], tmp_path: Path
) -> None:
    out, _ = season
    report = tmp_path / "season.html"
    code, _, stderr = varroom("season", str(out), "--html", str(report))
    assert code == 0, stderr
    page = report.read_text()
    assert "<h2>Profiles</h2>" in page
    assert ifab().sha256[:12] in page and "strict" in page
    assert "One League: judged under different profiles" in page
    # The calls that would differ, read off the policies each verdict records.
    rows = pq.read_table(out / "incidents.parquet").to_pylist()
    changed = [
        r for r in rows
        if r["profile"] == "ifab" and r["kind"] == "offside" and r["policies"]
        and json.loads(r["policies"]).get("tolerance:5cm") not in (None, r["status"])
    ]  # fmt: skip
    title = "Under tolerance-5cm:"
    if changed:
        calls = "call" if len(changed) == 1 else "calls"
        assert f"{title} {len(changed)} {calls} would differ" in page
    else:
        assert title not in page


def test_live_under_a_profile_alerts_only_offences_beyond_its_tolerance(
    stream_file: Path,  # noqa: F811
    tmp_path: Path,
) -> None:
    stream = stream_file.read_text()
    code, stdout, _ = varroom("live", "--json", stdin=stream)
    assert code == 0
    alerts = [json.loads(line) for line in stdout.splitlines()]
    margins = [a["margin_m"] for a in alerts if a["decision"] == "offside"]
    assert margins and all(a["profile"] == ifab().stamp() for a in alerts)
    offenders = [a["offender"] for a in alerts if a["decision"] == "offside"]
    for tolerance_cm, expected in (
        (round(min(margins) * 100 / 2, 1), offenders),  # within every margin: all stay
        (round(max(margins) * 100 + 1, 1), []),  # beyond every margin: none is an offence
    ):
        code, stdout, _ = varroom(
            "live", "--json", "--profile", str(tolerance_file(tmp_path, tolerance_cm)),
            stdin=stream,
        )  # fmt: skip
        assert code == 0
        strict = [json.loads(line) for line in stdout.splitlines()]
        assert [a["offender"] for a in strict if a["decision"] == "offside"] == expected
        assert all(a["profile"]["name"] == "strict" for a in strict)
