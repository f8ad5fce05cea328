"""The season manifest: what is written is read back, and what cannot be used is refused
with the file, row and column named."""

from __future__ import annotations

import csv
import tempfile
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from varroom.season.manifest import ManifestError, read_manifest

IDS = st.from_regex(r"[A-Za-z0-9][A-Za-z0-9._-]{0,20}", fullmatch=True)
TEXT = st.text(st.characters(categories=("L", "N", "Zs")), max_size=12).map(str.strip)
FILES = st.lists(
    st.from_regex(r"[a-z0-9_]{1,8}\.(dat|xml|json)", fullmatch=True), min_size=1, max_size=3
)


@settings(max_examples=60, deadline=None)
@given(
    st.lists(
        st.tuples(IDS, st.sampled_from(["tracab", "sportec", "skillcorner"]), TEXT, TEXT, FILES),
        min_size=1,
        max_size=6,
        unique_by=lambda row: row[0],
    )
)
def test_a_written_manifest_reads_back(rows: list[tuple[str, str, str, str, list[str]]]) -> None:
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "manifest.csv"
        with path.open("w", newline="", encoding="utf-8") as stream:
            writer = csv.writer(stream)
            writer.writerow(["match_id", "provider", "competition", "referee", "raw_data", "notes"])
            for match_id, provider, competition, referee, files in rows:
                writer.writerow([match_id, provider, competition, referee, ";".join(files), "x"])
        entries = read_manifest(path)
    assert [e.match_id for e in entries] == [row[0] for row in rows]
    for entry, (_, provider, competition, referee, files) in zip(entries, rows, strict=True):
        assert (entry.provider, entry.competition, entry.referee) == (
            provider,
            competition,
            referee,
        )
        assert entry.files == (("raw_data", tuple(Path(folder) / f for f in files)),)
        assert entry.official_calls is None


@pytest.mark.parametrize(
    ("text", "where", "problem"),
    [
        ("", "row 1", "no header"),
        ("match_id,provider,raw_data,raw_data\n", "row 1, column raw_data", "twice"),
        ("match_id,provider,raw_data\n", "", "no matches"),
        ("match_id,provider,raw_data\na,,x.dat\n", "row 2, column provider", "empty"),
        ("match_id,provider,raw_data\n\na,tracab,\n", "row 3", "no files"),
    ],
)
def test_a_bad_manifest_is_named(tmp_path: Path, text: str, where: str, problem: str) -> None:
    path = tmp_path / "manifest.csv"
    path.write_text(text, "utf-8")
    with pytest.raises(ManifestError) as caught:
        read_manifest(path)
    assert caught.value.exit_code == 2
    assert caught.value.where == where and problem in caught.value.problem


def test_a_missing_manifest_is_named(tmp_path: Path) -> None:
    with pytest.raises(ManifestError, match="no such manifest file"):
        read_manifest(tmp_path / "nowhere.csv")
