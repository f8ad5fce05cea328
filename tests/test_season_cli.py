"""A season on synthetic matches: `varroom synthetic`, `audit-many` locally, on a Dask cluster
of separate processes, resumed after SIGKILL, with a corrupt file; and `varroom season`.

Short matches (10 minutes, every planted kind once) keep the whole file near a minute."""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pyarrow.parquet as pq
import pytest
from click.testing import CliRunner

from varroom.cli.main import cli
from varroom.season.local_cluster import local_cluster
from varroom.synthetic.penalties import PenaltyPlant

ROOT = Path(__file__).resolve().parents[1]
MATCHES, MINUTES = 4, 10
BIN = Path(sys.executable).parent
ENV = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
VOLATILE = ("seconds", "worker", "worker_peak_mb")  # differ from run to run by nature


def varroom(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(cli, list(args))
    if result.exception and not isinstance(result.exception, SystemExit):
        raise result.exception
    return result.exit_code, result.stdout, result.stderr


@pytest.fixture(scope="module")
def manifest(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("synthetic")
    code, stdout, _ = varroom(
        "synthetic", str(out), "--matches", str(MATCHES), "--minutes", str(MINUTES), "--seed", "7"
    )
    assert code == 0, stdout
    return out / "manifest.csv"


@pytest.fixture(scope="module")
def local(manifest: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("local")
    code, stdout, _ = varroom("audit-many", str(manifest), "--out", str(out), "--workers", "2")
    assert code == 0 and f"{MATCHES} audited" in stdout, stdout
    return out


def tables(out: Path) -> tuple[list[dict[str, object]], list[dict[str, object]]]:
    """(matches, incidents) rows, in a fixed order, without the volatile columns."""
    matches = pq.read_table(out / "matches.parquet").drop_columns(list(VOLATILE)).to_pylist()
    incidents = pq.read_table(out / "incidents.parquet").to_pylist()
    return (
        sorted(matches, key=lambda r: str(r["match_id"])),
        sorted(incidents, key=lambda r: (str(r["match_id"]), r["period"], r["t_s"])),
    )


def test_kloppy_reads_the_synthetic_files_as_load_match_does(manifest: Path) -> None:
    import numpy as np
    from kloppy import tracab

    from varroom.match import load_match

    meta, raw = manifest.parent / "m0000" / "meta.xml", manifest.parent / "m0000" / "tracking.dat"
    ours = load_match("tracab", meta_data=meta, raw_data=raw)
    frames = 200  # kloppy takes seconds per thousand frames: the first ones say enough
    dataset = tracab.load(
        meta_data=str(meta), raw_data=str(raw), coordinates="tracab", limit=frames
    )
    assert len(ours.t_s) == MINUTES * 60 * 25
    assert [str(t.name) for t in ours.teams] == [t.name for t in dataset.metadata.teams]
    columns = {str(pid): c for c, pid in enumerate(ours.player_ids)}
    theirs = np.full((frames, len(columns), 2), np.nan)
    for k, frame in enumerate(dataset.frames):
        for player, data in frame.players_data.items():
            theirs[k, columns[str(player.player_id)]] = data.coordinates.x, data.coordinates.y
    np.testing.assert_allclose(ours.players_m[:frames], theirs / 100, atol=1e-6)
    ball = [(f.ball_coordinates.x, f.ball_coordinates.y) for f in dataset.frames]
    np.testing.assert_allclose(ours.ball_m[:frames, :2], np.array(ball) / 100, atol=1e-6)


def test_planted_truth_is_recalled(manifest: Path, local: Path) -> None:
    from varroom.synthetic.provider_files import read_truth

    _, incidents = tables(local)
    found: dict[str, list[bool]] = {}
    for match_id, truth in read_truth(manifest).items():
        assert truth["penalty_kicks"] == truth["ball_lines"] == []  # none asked for
        for planted in truth["offside"]:
            if not planted["offence"]:
                continue
            hit = any(
                row["match_id"] == match_id
                and row["status"] == "offence"
                and row["period"] == planted["period"]
                and abs(float(row["t_s"]) - float(planted["t_s"])) < 0.5  # type: ignore[arg-type]
                and row["offender"] == planted["offender"]
                for row in incidents
            )
            found.setdefault("offside", []).append(hit)
            found.setdefault(str(planted["kind"]), []).append(hit)
    assert len(found["offside"]) >= 4 * MATCHES
    for kind, hits in found.items():
        assert sum(hits) / len(hits) >= 0.95, kind


def test_rows_and_agreement(local: Path) -> None:
    matches, incidents = tables(local)
    assert [m["state"] for m in matches] == ["ok"] * MATCHES
    offside = [r for r in incidents if r["kind"] == "offside"]
    assert {r["kind"] for r in incidents} <= {"offside", "penalty", "ball_line"}
    assert {r["agreement"] for r in offside} <= {
        "agreed",
        "engine_only",
        "officials_only",
        "data_inconsistent",
        "undecidable",
    }
    assert any(r["agreement"] == "agreed" for r in offside)
    for row in offside:
        assert (row["agreement"] in ("agreed", "officials_only")) == row["official_call"]
        if row["status"] is not None:
            assert set(json.loads(str(row["policies"]))) == {
                "ifab",
                "tolerance:5cm",
                "daylight",
                "confidence:0.95",
            }


def test_rerun_skips_everything_and_force_redoes(manifest: Path, local: Path) -> None:
    before = tables(local)
    code, stdout, _ = varroom("audit-many", str(manifest), "--out", str(local), "--quiet")
    assert code == 0 and f"0 audited, {MATCHES} already done" in stdout
    assert tables(local) == before
    parts = sorted((local / "parts").glob("*.match.parquet"))
    written = [part.stat().st_mtime_ns for part in parts]
    code, stdout, _ = varroom(
        "audit-many", str(manifest), "--out", str(local), "--force", "--workers", "2"
    )
    assert code == 0 and f"{MATCHES} audited, 0 already done" in stdout
    assert all(p.stat().st_mtime_ns > t for p, t in zip(parts, written, strict=True))
    assert tables(local) == before


def test_a_corrupt_file_fails_that_match_only(manifest: Path, local: Path, tmp_path: Path) -> None:
    copy = tmp_path / "data"
    shutil.copytree(manifest.parent, copy)
    (copy / "m0001" / "tracking.dat").write_bytes(b"100000:garbage\n" * 3)
    (copy / "m0002" / "meta.xml").unlink()
    out = tmp_path / "out"
    code, stdout, stderr = varroom(
        "audit-many", str(copy / "manifest.csv"), "--out", str(out), "--workers", "2"
    )
    assert code == 0 and "2 audited, 0 already done, 2 failed" in stdout
    matches, incidents = tables(out)
    failed = {m["match_id"]: str(m["error"]) for m in matches if m["state"] == "failed"}
    assert set(failed) == {"m0001", "m0002"}
    assert "tracking.dat" in failed["m0001"] and "meta.xml" in failed["m0002"]
    assert all("\n" not in error for error in failed.values())
    assert "match m0001 failed" in stderr
    _, local_incidents = tables(local)
    kept = [r for r in local_incidents if r["match_id"] not in failed]
    strip = [{k: v for k, v in r.items() if k != "key"} for r in kept]
    assert [{k: v for k, v in r.items() if k != "key"} for r in incidents] == strip


def test_every_match_failing_exits_1(manifest: Path, tmp_path: Path) -> None:
    bad = tmp_path / "manifest.csv"
    bad.write_text(
        "match_id,provider,meta_data,raw_data\nx,tracab,nowhere.xml,nowhere.dat\n", "utf-8"
    )
    code, stdout, stderr = varroom("audit-many", str(bad), "--out", str(tmp_path / "o"))
    assert code == 1 and "1 failed" in stdout and "nowhere" in stderr


@pytest.mark.parametrize(
    ("text", "where"),
    [
        ("provider,raw_data\ntracab,a.dat\n", "row 1"),
        ("match_id,provider,raw_data\na,tracab,a.dat\na,tracab,b.dat\n", "row 3, column match_id"),
        ("match_id,provider,raw_data\nbad id,tracab,a.dat\n", "row 2, column match_id"),
        ("match_id,provider,raw_data\na,tracab\n", "row 2"),
        ("match_id,provider,competition\na,tracab,x\n", "row 1"),
    ],
)
def test_a_bad_manifest_exits_2_naming_file_row_and_column(
    tmp_path: Path, text: str, where: str
) -> None:
    bad = tmp_path / "manifest.csv"
    bad.write_text(text, "utf-8")
    code, _, stderr = varroom("audit-many", str(bad), "--out", str(tmp_path / "o"))
    assert code == 2
    [line] = stderr.strip().splitlines()
    assert line.startswith(f"varroom: {bad}: {where}")
    assert not (tmp_path / "o").exists()


def test_a_killed_run_resumes_with_every_match_once(
    manifest: Path, local: Path, tmp_path: Path
) -> None:
    out = tmp_path / "out"
    command = [str(BIN / "varroom"), "audit-many", str(manifest), "--out", str(out)]
    process = subprocess.Popen(
        [*command, "--workers", "1", "--quiet"], env=ENV, start_new_session=True
    )
    try:
        deadline = time.monotonic() + 60
        while len(list((out / "parts").glob("*.match.parquet"))) < 1:
            assert process.poll() is None and time.monotonic() < deadline
            time.sleep(0.05)
    finally:
        os.killpg(process.pid, signal.SIGKILL)
        process.wait()
    done_before = len(list((out / "parts").glob("*.match.parquet")))
    assert 1 <= done_before < MATCHES
    code, stdout, _ = varroom("audit-many", str(manifest), "--out", str(out), "--workers", "2")
    assert code == 0 and f"{done_before} already done" in stdout
    assert tables(out) == tables(local)


def test_a_worker_killed_under_a_match_costs_a_retry_not_the_run(
    manifest: Path, local: Path, tmp_path: Path
) -> None:
    import psutil

    out = tmp_path / "out"
    command = [str(BIN / "varroom"), "audit-many", str(manifest), "--out", str(out)]
    process = subprocess.Popen(
        [*command, "--workers", "2", "--quiet"],
        env=ENV,
        start_new_session=True,
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        deadline = time.monotonic() + 60
        workers: list[psutil.Process] = []
        while not workers:
            assert process.poll() is None and time.monotonic() < deadline
            children = psutil.Process(process.pid).children()
            workers = [c for c in children if "spawn_main" in " ".join(c.cmdline())]
            time.sleep(0.05)
        killed = workers[0].pid
        workers[0].kill()
        stdout, _ = process.communicate(timeout=120)
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()
    assert process.returncode == 0 and f"{MATCHES} audited" in stdout, stdout
    assert tables(out) == tables(local)
    matches = pq.read_table(out / "matches.parquet").to_pylist()
    assert not any(str(m["worker"]).endswith(f":{killed}") for m in matches)


@pytest.fixture
def dask_cluster(tmp_path: Path) -> Iterator[str]:
    """A scheduler and two single-threaded workers on loopback, each a process of its own."""
    with local_cluster(tmp_path, workers=2, env=ENV) as address:
        yield address


def test_a_dask_cluster_gives_the_rows_of_the_local_run(
    manifest: Path, local: Path, dask_cluster: str, tmp_path: Path
) -> None:
    out = tmp_path / "out"
    code, stdout, _ = varroom(
        "audit-many", str(manifest), "--out", str(out), "--scheduler", dask_cluster
    )
    assert code == 0 and f"{MATCHES} audited" in stdout, stdout
    assert tables(out) == tables(local)
    workers = {m["worker"] for m in pq.read_table(out / "matches.parquet").to_pylist()}
    assert len(workers) == 2  # both workers took matches


def test_season_report(local: Path, tmp_path: Path) -> None:
    report = tmp_path / "season.html"
    code, _, _ = varroom("season", str(local), "--html", str(report))
    assert code == 0
    page = report.read_text("utf-8")
    for text in ("North League", "South League", "Per referee", "Per team", "Penalty kicks"):
        assert text in page
    assert page.count("data:image/png;base64,") == 2
    _, incidents = tables(local)
    agreed = sum(1 for r in incidents if r["agreement"] == "agreed")
    assert agreed > 0


def test_a_scheduler_file_gives_the_address_and_a_bad_one_is_one_line(
    manifest: Path, tmp_path: Path
) -> None:
    from varroom.season.runner import SchedulerError, scheduler_address

    written = tmp_path / "cluster.json"
    written.write_text(json.dumps({"type": "Scheduler", "address": "tcp://127.0.0.1:8786"}))
    assert scheduler_address(written) == "tcp://127.0.0.1:8786"
    with pytest.raises(
        SchedulerError, match=r"never\.json: no Dask scheduler wrote it within 0.2 s"
    ):
        scheduler_address(tmp_path / "never.json", wait_s=0.2)
    written.write_text(json.dumps({"type": "Scheduler"}))
    out = str(tmp_path / "out")
    code, _, stderr = varroom(
        "audit-many", str(manifest), "--out", out, "--scheduler-file", str(written)
    )
    assert code == 2
    assert stderr.strip().splitlines() == [
        f"varroom: {written}: address: expected the Dask scheduler's address"
    ]
    both = ("--scheduler", "tcp://127.0.0.1:8786", "--scheduler-file", str(written))
    code, _, stderr = varroom("audit-many", str(manifest), "--out", out, *both)
    assert code == 2 and "not both" in stderr
    assert not (tmp_path / "out").exists()


def test_penalty_kicks_and_balls_over_the_line_planted_are_season_rows(tmp_path: Path) -> None:
    code, stdout, _ = varroom(
        "synthetic", str(tmp_path / "data"), "--matches", "1", "--minutes", "20",
        "--penalties", "1", "--ball-lines", "1", "--quiet",
    )  # fmt: skip
    assert code == 0, stdout
    out = tmp_path / "results"
    code, stdout, _ = varroom(
        "audit-many", str(tmp_path / "data" / "manifest.csv"), "--out", str(out)
    )
    assert code == 0, stdout
    _, incidents = tables(out)
    kicks = [r for r in incidents if r["kind"] == "penalty"]
    lines = [r for r in incidents if r["kind"] == "ball_line"]
    assert len(kicks) == len(PenaltyPlant)  # one of each kind, found from the tracking alone
    assert {r["decision"] for r in kicks} >= {"goal", "retake"}
    assert {r["status"] for r in lines} == {"missed_ball_out", "goal_line"}
    # Each row is the planted scene it should be, by truth.json: the kick's offender, the
    # ball's status and decision.
    from varroom.synthetic.ball_lines import BallLinePlant
    from varroom.synthetic.provider_files import read_truth

    ((match_id, truth),) = read_truth(tmp_path / "data" / "manifest.csv").items()
    assert len(truth["penalty_kicks"]) == len(PenaltyPlant)
    assert len(truth["ball_lines"]) == len(BallLinePlant)

    def near(rows: list[dict[str, object]], planted: dict[str, object], within_s: float) -> list:
        return [
            r
            for r in rows
            if r["match_id"] == match_id
            and r["period"] == planted["period"]
            and abs(float(r["t_s"]) - float(planted["t_s"])) <= within_s  # type: ignore[arg-type]
        ]

    for kick in truth["penalty_kicks"]:
        (row,) = near(kicks, kick, 0.5)
        # Not every offence is penalised (an encroacher who takes no part, say): a legal kick
        # never is, and one that is names the planted offender.
        if kick["offence"] is None:
            assert row["status"] == "no_offence", kick
        if row["status"] == "offence":
            assert row["offender"] == kick["offender"], kick
    assert any(row["status"] == "offence" for row in kicks)
    for moment in truth["ball_lines"]:
        kind = BallLinePlant(moment["kind"])
        found = {(r["status"], r["decision"]) for r in near(lines, moment, 1.0)}
        if kind.goal_mouth:
            decision = "goal" if float(moment["margin_m"]) > 0 else "in_play"  # type: ignore[arg-type]
            assert ("goal_line", decision) in found, moment
        elif kind.out:
            assert any(status == "missed_ball_out" for status, _ in found), moment
        else:  # short of the line: never called out
            assert not any(status == "missed_ball_out" for status, _ in found), moment
    assert all(r["agreement"] is None and r["official_call"] is None for r in kicks + lines)
    report = tmp_path / "season.html"
    assert varroom("season", str(out), "--html", str(report))[0] == 0
    page = report.read_text("utf-8")
    assert "No penalty kicks" not in page and "No missed ball-outs" not in page


def test_more_planted_scenes_than_a_match_holds_is_one_line_and_no_manifest(tmp_path: Path) -> None:
    data = tmp_path / "data"
    code, _, stderr = varroom(
        "synthetic", str(data), "--matches", "2", "--minutes", "10", "--penalties", "3", "--quiet"
    )
    assert code == 2
    assert len(stderr.strip().splitlines()) == 1
    assert stderr.startswith("varroom: --penalties/--ball-lines: ") and "(--minutes)" in stderr
    assert not (data / "manifest.csv").exists()
