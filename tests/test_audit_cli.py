"""`varroom audit PROVIDER --event-data F ...` on the StatsBomb sample."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result

from varroom.cli.main import cli

SAMPLE = Path(__file__).resolve().parent.parent / "samples" / "statsbomb-euro2020-turkey-italy"
FILES = [
    "--event-data",
    str(SAMPLE / "statsbomb_3788741_event.json"),
    "--lineup-data",
    str(SAMPLE / "statsbomb_3788741_lineup.json"),
    "--three-sixty-data",
    str(SAMPLE / "statsbomb_3788741_360.json"),
]
PNG_MAGIC = b"\x89PNG\r\n\x1a\n"


def _run(*args: str, env: dict[str, str] | None = None) -> Result:
    return CliRunner().invoke(cli, ["audit", *args], env=env)


@pytest.fixture(scope="module")
def written(tmp_path_factory: pytest.TempPathFactory) -> tuple[Result, Path]:
    """One audit writing everything: JSON on stdout, the HTML report, the pictures."""
    out = tmp_path_factory.mktemp("out")
    result = _run(
        "statsbomb", *FILES, "--json", "--html", str(out / "report.html"),
        "--images", str(out / "pictures"), "--quiet",
    )  # fmt: skip
    return result, out


@pytest.fixture(scope="module")
def printed(written: tuple[Result, Path]) -> dict[str, Any]:
    result, _ = written
    assert result.exit_code == 0, result.stderr
    return json.loads(result.stdout)


def test_json_is_one_object_with_the_audit(printed: dict[str, Any]) -> None:
    assert {"incidents", "official_calls", "undecidable", "agreement"} <= printed.keys()
    assert set(printed["agreement"]) == {
        "both",
        "engine_only",
        "official_only",
        "data_inconsistent",
    }
    assert len(printed["official_calls"]) == 6
    # No proven offence: Chiellini's rests on where the one unseen Turk stood (issue 21).
    assert printed["incidents"] == printed["agreement"]["both"] == []
    scores = [(row["clock"], row["score"]) for row in printed["scores"]]
    assert scores == [
        ("1H 22:05", "officials only"),
        ("1H 25:36", "officials only"),
        ("1H 30:07", "officials only"),
        ("2H 01:13", "data inconsistent"),
        ("2H 16:56", "officials only"),
        ("2H 32:40", "officials only"),
    ]
    assert all(row["reason"] for row in printed["scores"])
    [inconsistent] = printed["agreement"]["data_inconsistent"]
    assert inconsistent["official_call"] == 3 and "corner kick itself" in inconsistent["reason"]
    assert all(u["status"] == "undecidable" for u in printed["undecidable"])


def test_html_is_one_file_with_its_pictures_inside(written: tuple[Result, Path]) -> None:
    _, out = written
    report = (out / "report.html").read_text(encoding="utf-8")
    assert report.startswith("<!DOCTYPE html>") and report.rstrip().endswith("</html>")
    assert report.count('src="data:image/png;base64,') == 6  # one per official call
    assert 'src="http' not in report and "<link" not in report and "<script" not in report
    assert "Chiellini" in report and "StatsBomb" in report
    assert sorted(p.name for p in out.iterdir()) == ["pictures", "report.html"]


def test_images_are_one_png_per_incident_and_per_call(written: tuple[Result, Path]) -> None:
    _, out = written
    pictures = sorted((out / "pictures").iterdir())
    names = [p.name for p in pictures]
    assert names == [f"call-0{n}.png" for n in range(1, 7)]
    assert all(p.read_bytes().startswith(PNG_MAGIC) for p in pictures)


def test_the_table_names_teams_and_players() -> None:
    result = _run("statsbomb", *FILES, "--quiet")
    assert result.exit_code == 0, result.stderr
    assert "Chiellini" in result.stdout and "officials only" in result.stdout
    assert result.stderr == ""


def test_progress_goes_to_a_terminals_stderr_unless_quiet() -> None:
    terminal = {"TTY_COMPATIBLE": "1"}
    shown = _run("statsbomb", *FILES, "--json", env=terminal)
    quiet = _run("statsbomb", *FILES, "--json", "--quiet", env=terminal)
    assert shown.exit_code == quiet.exit_code == 0
    assert "judg" in shown.stderr
    assert quiet.stderr == ""
    assert json.loads(shown.stdout) == json.loads(quiet.stdout)


@pytest.mark.parametrize(
    ("provider", "event_data", "named"),
    [
        ("statsbomb", "missing.json", "missing.json"),
        ("wyscout", "statsbomb_3788741_event.json", "statsbomb_3788741_lineup.json"),
        ("nobody", "statsbomb_3788741_event.json", "provider 'nobody'"),
        ("statsbomb", "truncated.json", "truncated.json"),
    ],
)
def test_bad_input_is_one_line_exit_2_and_no_output(
    tmp_path: Path, provider: str, event_data: str, named: str
) -> None:
    events = SAMPLE / event_data
    if event_data == "truncated.json":
        events = tmp_path / event_data
        events.write_bytes((SAMPLE / "statsbomb_3788741_event.json").read_bytes()[:5000])
    elif event_data == "missing.json":
        events = tmp_path / event_data
    report, pictures = tmp_path / "report.html", tmp_path / "pictures"
    result = _run(
        provider, "--event-data", str(events),
        "--lineup-data", str(SAMPLE / "statsbomb_3788741_lineup.json"),
        "--html", str(report), "--images", str(pictures),
    )  # fmt: skip
    assert result.exit_code == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and named in lines[0] and lines[0].startswith("varroom: ")
    assert "Traceback" not in result.output
    assert not report.exists() and not pictures.exists()
    assert sorted(p.name for p in tmp_path.iterdir()) == (
        [event_data] if event_data == "truncated.json" else []
    )


def test_kloppy_argument_names_are_options() -> None:
    result = _run("--help")
    for option in (
        "--event-data",
        "--lineup-data",
        "--three-sixty-data",
        "--meta-data",
        "--raw-data",
    ):
        assert option in result.stdout


def test_images_into_a_folder_that_cannot_be_made_is_one_line(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    result = _run("statsbomb", *FILES, "--quiet", "--images", str(blocker / "pictures"))
    assert result.exit_code == 1
    assert result.stderr.startswith(f"varroom: cannot write {blocker / 'pictures'}")
    assert "Traceback" not in result.stderr


def test_situations_are_judged_by_check_as_the_audit_judged_them(tmp_path: Path) -> None:
    folder = tmp_path / "situations"
    first = _run("statsbomb", *FILES, "--situations", str(folder), "--quiet")
    assert first.exit_code == 0, first.stderr
    written = sorted(folder.iterdir())
    assert written and all(p.suffix == ".json" for p in written)
    for path in written:
        audited = json.loads(path.read_text(encoding="utf-8"))["meta"]["audit"]
        checked = CliRunner().invoke(cli, ["check", str(path), "--json"])
        assert checked.exit_code == 0, checked.stderr
        verdict = json.loads(checked.stdout)
        assert verdict["status"] == audited["status"]
        assert verdict["offender"] == audited["offender"]
        assert verdict["margin_m"] == (
            None if audited["margin_m"] is None else round(audited["margin_m"], 3)
        )
    # The same match again: the same files, none added.
    again = _run("statsbomb", *FILES, "--situations", str(folder), "--quiet")
    assert again.exit_code == 0 and sorted(folder.iterdir()) == written


def test_statsbomb_without_freeze_frames_warns_and_leaves_every_call_undecidable() -> None:
    result = _run("statsbomb", *FILES[:4], "--quiet")
    assert result.exit_code == 0
    assert "warning: no --three-sixty-data" in result.stderr
    assert "every official call is undecidable" in result.stderr
    assert result.stdout.count("undecidable") == 6  # the table wraps "no positions"
