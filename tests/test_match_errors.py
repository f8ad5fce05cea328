"""Bad match data: every fault is one DataError naming the file at fault."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path

import pytest

from varroom.errors import InputError
from varroom.match import DataError, load_match

DATA = Path(__file__).resolve().parents[2] / "shared" / "data"
MATCH_DATA = DATA / "skillcorner-opendata-2417" / "match_data.json"
FRAMES = Path(__file__).parent / "files" / "skillcorner_2417_frames.json"
STATSBOMB = DATA / "statsbomb-360-euro2020-3788741"
SPORTEC = DATA / "sportec-dfl-kloppy-samples"
EPTS = DATA / "metrica-sample-data" / "kloppy-test-snippets"


BOTH_READERS = pytest.mark.parametrize("fast", [True, False], ids=["fast", "kloppy"])


@pytest.fixture
def write(tmp_path: Path) -> Callable[[str, str | bytes], Path]:
    def write(name: str, content: str | bytes) -> Path:
        path = tmp_path / name
        if isinstance(content, bytes):
            path.write_bytes(content)
        else:
            path.write_text(content, encoding="utf-8")
        return path

    return write


def raises_naming(path: Path, message: str) -> pytest.RaisesExc:
    return pytest.raises(DataError, match=re.escape(str(path)) + ".*" + message)


def skillcorner(fast: bool, meta_data: Path = MATCH_DATA, raw_data: Path = FRAMES) -> None:
    load_match("skillcorner", meta_data=meta_data, raw_data=raw_data, fast=fast)


@BOTH_READERS
def test_empty_file(write: Callable[..., Path], fast: bool) -> None:
    empty = write("match_data.json", "")
    with raises_naming(empty, "empty file"):
        skillcorner(fast, meta_data=empty)


@pytest.mark.shared_data
@BOTH_READERS
def test_missing_file(tmp_path: Path, fast: bool) -> None:
    missing = tmp_path / "structured_data.json"
    with raises_naming(missing, "no such file"):
        skillcorner(fast, raw_data=missing)


@pytest.mark.shared_data
@BOTH_READERS
def test_truncated_json(write: Callable[..., Path], fast: bool) -> None:
    text = MATCH_DATA.read_text(encoding="utf-8")
    truncated = write("match_data.json", text[: len(text) // 2])
    with raises_naming(truncated, "truncated"):
        skillcorner(fast, meta_data=truncated)


@pytest.mark.shared_data
@BOTH_READERS
def test_json_cut_after_a_whole_record_is_malformed(write: Callable[..., Path], fast: bool) -> None:
    text = FRAMES.read_text(encoding="utf-8")
    cut = write("structured_data.json", text[: text.index("}, {") + 1])  # ends with "}"
    with raises_naming(cut, "malformed JSON"):
        skillcorner(fast, raw_data=cut)


@pytest.mark.shared_data
@BOTH_READERS
def test_missing_pitch_dimensions(write: Callable[..., Path], fast: bool) -> None:
    meta = json.loads(MATCH_DATA.read_text(encoding="utf-8"))
    del meta["pitch_length"], meta["pitch_width"]
    no_pitch = write("match_data.json", json.dumps(meta))
    with raises_naming(no_pitch, "pitch"):
        skillcorner(fast, meta_data=no_pitch)


@pytest.mark.shared_data
def test_missing_pitch_dimensions_in_epts_metadata(write: Callable[..., Path]) -> None:
    text = (EPTS / "epts_metrica_metadata.xml").read_text(encoding="utf-8")
    no_pitch = write(
        "metadata.xml", re.sub(r"<FieldSize>.*?</FieldSize>", "", text, flags=re.DOTALL)
    )
    with raises_naming(no_pitch, "no pitch dimensions"):
        load_match("metrica", meta_data=no_pitch, raw_data=EPTS / "epts_metrica_tracking.txt")


@pytest.mark.shared_data
def test_file_of_another_format() -> None:
    sportec_events = SPORTEC / "sportec_events.xml"
    with raises_naming(sportec_events, "not JSON"):
        load_match(
            "statsbomb",
            event_data=sportec_events,
            lineup_data=STATSBOMB / "statsbomb_3788741_lineup.json",
        )


@pytest.mark.shared_data
def test_file_of_another_provider() -> None:
    lineup = STATSBOMB / "statsbomb_3788741_lineup.json"
    with raises_naming(lineup, 'does not look like skillcorner meta_data: no "home_team"'):
        load_match("skillcorner", meta_data=lineup, raw_data=FRAMES)


@pytest.mark.shared_data
def test_files_swapped() -> None:
    with raises_naming(FRAMES, "does not look like statsbomb lineup_data"):
        load_match(
            "statsbomb", event_data=STATSBOMB / "statsbomb_3788741_event.json", lineup_data=FRAMES
        )


def test_unknown_provider_names_the_provider_not_a_file() -> None:
    """Issue 28: the fault is the provider's name, and the files are not blamed for it."""
    with pytest.raises(DataError) as raised:
        load_match("skilcorner", meta_data=MATCH_DATA, raw_data=FRAMES)
    message = str(raised.value)
    assert message.startswith("provider 'skilcorner': unknown (did you mean 'skillcorner'?)")
    assert "the providers are" in message and "statsbomb" in message
    assert str(MATCH_DATA) not in message and raised.value.path is None


def test_files_a_provider_does_not_read_together() -> None:
    with raises_naming(FRAMES, "statsbomb reads event_data \\+ lineup_data; given raw_data"):
        load_match("statsbomb", raw_data=FRAMES)
    extra = SPORTEC / "sportec_events.xml"
    with raises_naming(extra, "skillcorner reads no event_data with meta_data, raw_data"):
        load_match("skillcorner", meta_data=MATCH_DATA, raw_data=FRAMES, event_data=extra)


def test_an_error_is_one_line_for_the_command_line(write: Callable[..., Path]) -> None:
    empty = write("match_data.json", b"  \n ")
    with pytest.raises(InputError) as caught:
        skillcorner(True, meta_data=empty)
    assert str(caught.value).startswith(str(empty))
    assert "\n" not in str(caught.value)
    assert caught.value.path == empty
