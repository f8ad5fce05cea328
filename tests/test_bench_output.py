"""Where `make bench` writes: to out/, leaving the committed BENCHMARKS.md and
bench/results.json as they are, unless asked (`make bench-update`, `bench/run.py --update`).
The benchmarks themselves take minutes and are not run here: the writer is, on the committed
numbers."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import run

ROOT = Path(__file__).resolve().parents[1]
RESULTS = json.loads((ROOT / "bench" / "results.json").read_text(encoding="utf-8"))


def test_the_committed_table_is_what_the_writer_writes_from_the_committed_numbers() -> None:
    assert run.COMMITTED == (ROOT / "bench" / "results.json", ROOT / "BENCHMARKS.md")
    assert run.markdown(RESULTS) == (ROOT / "BENCHMARKS.md").read_text(encoding="utf-8")


@pytest.mark.parametrize("update", [False, True], ids=["make bench", "make bench-update"])
def test_a_run_writes_to_out_unless_asked(
    update: bool, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert run.OUT == (ROOT / "out" / "bench-results.json", ROOT / "out" / "BENCHMARKS.md")
    out = (tmp_path / "out" / "bench-results.json", tmp_path / "out" / "BENCHMARKS.md")
    committed = (tmp_path / "bench" / "results.json", tmp_path / "BENCHMARKS.md")
    monkeypatch.setattr(run, "ROOT", tmp_path)
    monkeypatch.setattr(run, "OUT", out)
    monkeypatch.setattr(run, "COMMITTED", committed)
    committed[0].parent.mkdir()
    for path in committed:
        path.write_text("committed\n")
    text = run.write(RESULTS, update)
    written, untouched = (committed, out) if update else (out, committed)
    assert json.loads(written[0].read_text()) == RESULTS
    assert written[1].read_text() == text
    raw = written[0].relative_to(tmp_path).as_posix()
    assert f"raw numbers in `{raw}`" in text
    if update:
        assert not any(path.exists() for path in untouched)
    else:
        assert all(path.read_text() == "committed\n" for path in untouched)


def test_the_audit_against_the_older_code_is_read_from_its_own_runs() -> None:
    """bench/against_revision.json's medians and ratio are what its runs give: the table
    shows figures from the runs, not typed in."""
    import statistics

    import against_revision

    found = json.loads(against_revision.RESULTS.read_text(encoding="utf-8"))
    assert len(found["before_audit_s"]) == len(found["after_audit_s"]) == found["runs"] >= 5
    before = statistics.median(found["before_audit_s"])
    after = statistics.median(found["after_audit_s"])
    assert found["ratio"] == pytest.approx(after / before)
    text = "\n".join(against_revision.markdown(found))
    assert f"**{after / before:.2f}x**" in text
    assert found["revision"] == against_revision.BEFORE_ISSUE_21
