"""varroom's columnar readers of Metrica EPTS and Sportec (DFL) positions against kloppy's.

The files are the shared copies of kloppy's test files (kloppy 3.19.1, BSD-3-Clause; the
Sportec excerpts are DFL match DFL-MAT-003BN1, see their README): the EPTS frames have
gaps (NaN fields) and two periods; the Sportec positions have two periods, and one file
has referees, who are nobody.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

import kloppy
import numpy as np
import pytest

from varroom.match import DataError, DirectionSource, MatchTracking, load_match

DATA = Path(__file__).resolve().parents[2] / "shared" / "data"
EPTS = DATA / "metrica-sample-data" / "kloppy-test-snippets"
EPTS_META = EPTS / "epts_metrica_metadata.xml"
EPTS_FRAMES = EPTS / "epts_metrica_tracking.txt"
SPORTEC = DATA / "sportec-dfl-kloppy-samples"
SPORTEC_META = SPORTEC / "sportec_meta.xml"


FILES = {
    "epts": ("metrica", EPTS_META, EPTS_FRAMES),
    "sportec": ("sportec", SPORTEC_META, SPORTEC / "sportec_positional.xml"),
    "sportec_referees": ("sportec", SPORTEC_META, SPORTEC / "sportec_positional_w_referee.xml"),
}


def load(name: str, fast: bool, **changed: Path) -> MatchTracking:
    provider, meta_data, raw_data = FILES[name]
    files = {"meta_data": meta_data, "raw_data": raw_data} | changed
    return load_match(provider, fast=fast, **files)


@pytest.fixture
def write(tmp_path: Path) -> Callable[[str, bytes], Path]:
    def write(name: str, content: bytes) -> Path:
        path = tmp_path / name
        path.write_bytes(content)
        return path

    return write


def assert_same_match(fast: MatchTracking, kloppy: MatchTracking) -> None:
    for name in ("t_s", "ball_m", "players_m"):
        ours, theirs = getattr(fast, name), getattr(kloppy, name)
        np.testing.assert_array_equal(np.isnan(ours), np.isnan(theirs), err_msg=name)
        np.testing.assert_allclose(ours, theirs, rtol=0, atol=1e-9, err_msg=name)
    for name in ("period", "player_ids", "player_teams", "goalkeeper"):
        np.testing.assert_array_equal(getattr(fast, name), getattr(kloppy, name), err_msg=name)
    for name in (
        "provider",
        "pitch",
        "pitch_source",
        "teams",
        "attack",
        "frame_rate_hz",
        "player_names",
        "player_numbers",
        "events",
    ):
        assert getattr(fast, name) == getattr(kloppy, name), name


@pytest.mark.shared_data
@pytest.mark.parametrize("name", list(FILES))
def test_fast_reader_equals_kloppy(name: str) -> None:
    fast, kloppy = load(name, fast=True), load(name, fast=False)
    assert_same_match(fast, kloppy)
    assert np.isfinite(fast.players_m).any() and np.isfinite(fast.ball_m[:, :2]).all()


@pytest.mark.shared_data
def test_epts_frames() -> None:
    match = load("epts", fast=True)
    assert match.players_m.shape == (100, 22, 2)
    np.testing.assert_array_equal(match.period, [1] * 50 + [2] * 50)
    np.testing.assert_allclose(match.t_s[[0, 49, 50]], [0.0, 1.96, 0.0])
    # Two players of each frame have NaN fields; the ball has no height channel.
    assert np.count_nonzero(np.isnan(match.players_m[0, :, 0])) == 3
    assert np.isnan(match.ball_m[:, 2]).all()
    assert {attack.source for attack in match.attack} == {DirectionSource.METADATA}


@pytest.mark.shared_data
def test_epts_empty_fields_are_nan(write: Callable[[str, bytes], Path]) -> None:
    lines = EPTS_FRAMES.read_bytes().splitlines()
    # The first player's fields emptied in the first frame, as kloppy's own test file has them.
    first = re.sub(rb"^450:[^;]*;", b"450:,,,;", lines[0])
    frames = write("tracking.txt", b"\n".join([first, *lines[1:]]) + b"\n")
    fast, kloppy = load("epts", True, raw_data=frames), load("epts", False, raw_data=frames)
    assert_same_match(fast, kloppy)
    assert np.isnan(fast.players_m[0, 0]).all() and not np.isnan(fast.players_m[1, 0]).any()


@pytest.mark.shared_data
def test_epts_frames_outside_every_period_are_left_out(
    write: Callable[[str, bytes], Path],
) -> None:
    lines = EPTS_FRAMES.read_bytes().splitlines()
    # Frame 449 comes before the first period: it is read, but no frame of the match.
    early = re.sub(rb"^450:", b"449:", lines[0])
    frames = write("tracking.txt", b"\n".join([early, *lines]))
    match = load("epts", True, raw_data=frames)
    np.testing.assert_array_equal(match.players_m, load("epts", True).players_m)


@pytest.mark.shared_data
def test_sportec_referees_are_nobody() -> None:
    with_referees, without = load("sportec_referees", fast=True), load("sportec", fast=True)
    np.testing.assert_array_equal(with_referees.player_ids, without.player_ids)
    np.testing.assert_array_equal(with_referees.players_m, without.players_m)
    assert len(with_referees.t_s) == 202
    # No file states the directions: the few players seen tell them.
    assert {attack.source for attack in with_referees.attack} == {
        DirectionSource.INFERRED_FROM_PLAYERS
    }


def raises_naming(path: Path, message: str) -> pytest.RaisesExc:
    return pytest.raises(DataError, match=re.escape(str(path)) + ".*" + message)


@pytest.mark.shared_data
def test_epts_truncated_frames(write: Callable[[str, bytes], Path]) -> None:
    text = EPTS_FRAMES.read_bytes()
    cut = write("tracking.txt", text[: len(text) // 2 + 100])  # in the middle of line 51
    with raises_naming(cut, r"line 51 has \d+ fields where the metadata's .* has 92"):
        load("epts", True, raw_data=cut)


@pytest.mark.shared_data
def test_epts_wrong_frames_file() -> None:
    positions = SPORTEC / "sportec_positional.xml"
    with raises_naming(positions, "not Metrica EPTS frames"):
        load("epts", True, raw_data=positions)


@pytest.mark.shared_data
def test_epts_wrong_metadata(write: Callable[[str, bytes], Path]) -> None:
    # Metrica's marker, but no EPTS metadata inside.
    meta = write("metadata.xml", b"<main><Metadata><Teams/></Metadata></main>")
    with raises_naming(meta, "not Metrica EPTS metadata"):
        load("epts", True, meta_data=meta)


@pytest.mark.shared_data
@pytest.mark.parametrize("fast", [True, False], ids=["fast", "kloppy"])
def test_epts_missing_pitch(write: Callable[[str, bytes], Path], fast: bool) -> None:
    text = EPTS_META.read_bytes()
    meta = write("metadata.xml", re.sub(rb"<FieldSize>.*?</FieldSize>", b"", text, flags=re.S))
    with raises_naming(meta, "no pitch dimensions"):
        load("epts", fast, meta_data=meta)


@pytest.mark.shared_data
def test_sportec_positions_cut_after_a_frame_set(write: Callable[[str, bytes], Path]) -> None:
    text = (SPORTEC / "sportec_positional.xml").read_bytes()
    cut = write("positions.xml", text[: text.index(b"</FrameSet>") + len(b"</FrameSet>")])
    with raises_naming(cut, "malformed XML"):
        load("sportec", True, raw_data=cut)


@pytest.mark.shared_data
def test_sportec_wrong_metadata(write: Callable[[str, bytes], Path]) -> None:
    events = SPORTEC / "sportec_events.xml"
    with raises_naming(events, "does not look like sportec meta_data"):
        load("sportec", True, meta_data=events)
    # Sportec's marker, but no match information inside.
    empty = write("meta.xml", b"<PutDataRequest><MatchInformation/></PutDataRequest>")
    with raises_naming(empty, "not Sportec match information"):
        load("sportec", True, meta_data=empty)


# Tracab: kloppy's own test files (kloppy 3.19.1, BSD-3-Clause), as installed with it. The
# .dat has 19 frames, 7 of them within the metadata's two periods; the metadata comes as
# hierarchical XML (with and without players, Tracab's and Opta's), flat XML and JSON.
TRACAB = Path(kloppy.__file__).parent / "tests" / "files"
TRACAB_FRAMES = TRACAB / "tracab_raw.dat"
TRACAB_META = ["tracab_meta.xml", "tracab_meta_2.xml", "tracab_meta_3.xml", "tracab_meta_4.xml"]
TRACAB_META += ["tracab_meta.json"]


def load_tracab(fast: bool, meta: str = "tracab_meta.xml", raw_data: Path = TRACAB_FRAMES):
    return load_match("tracab", fast=fast, meta_data=TRACAB / meta, raw_data=raw_data)


@pytest.mark.parametrize("meta", TRACAB_META)
def test_tracab_fast_reader_equals_kloppy(meta: str) -> None:
    fast, kloppy_match = load_tracab(True, meta), load_tracab(False, meta)
    assert_same_match(fast, kloppy_match)
    assert np.isfinite(fast.players_m).any() and np.isfinite(fast.ball_m).all()


def test_tracab_frames() -> None:
    match = load_tracab(True)
    # Only the frames within a period, the periods' last frames included.
    np.testing.assert_array_equal(match.period, [1, 1, 1, 1, 2, 2, 2])
    np.testing.assert_allclose(match.t_s, [0, 0.04, 0.08, 2716, 0, 0.04, 3032.76], atol=1e-9)
    np.testing.assert_allclose(match.ball_m[0], [27.10, 37.22, 0.11])
    # Players are found by team and jersey; referees and others (teams -1, 3, 4) are nobody.
    assert match.players_m.shape == (7, 40, 2)
    # Without players in the metadata, kloppy names them by their team and jersey.
    unlisted = load_tracab(True, "tracab_meta_2.xml")
    assert list(unlisted.player_ids[:2]) == ["home_20", "home_55"]
    assert unlisted.player_numbers[:2] == (20, 55)


def test_tracab_json_raw_data_is_kloppys() -> None:
    raw_json = TRACAB / "tracab_raw.json"
    fast = load_tracab(True, "tracab_meta.json", raw_data=raw_json)
    assert_same_match(fast, load_tracab(False, "tracab_meta.json", raw_data=raw_json))


def test_tracab_decimal_positions_are_kloppys(write: Callable[[str, bytes], Path]) -> None:
    raw = write("tracab.dat", TRACAB_FRAMES.read_bytes().replace(b",-913,", b",-913.5,", 1))
    fast = load_tracab(True, raw_data=raw)
    assert_same_match(fast, load_tracab(False, raw_data=raw))
    assert np.float32(-9.135) in fast.players_m


@pytest.mark.parametrize(
    ("cut_at", "message"),
    [
        (b"-2402,", "frame 2017933 has no players and ball sections"),
        (b"H,De", "frame 2017933: unknown ball state 'De'"),
        (b";:2600,", "frame 2017933 has a ball of too few fields"),
    ],
    ids=["players", "state", "ball"],
)
def test_tracab_truncated_frames(
    write: Callable[[str, bytes], Path], cut_at: bytes, message: str
) -> None:
    text = TRACAB_FRAMES.read_bytes()
    cut = write("tracab.dat", text[: text.rindex(cut_at) + len(cut_at)])  # in the last frame
    with raises_naming(cut, re.escape(message)):
        load_tracab(True, raw_data=cut)
    with pytest.raises(DataError):  # kloppy fails too
        load_tracab(False, raw_data=cut)


def test_tracab_wrong_metadata(write: Callable[[str, bytes], Path]) -> None:
    meta = write("meta.xml", b"<TracabMetaData><match/></TracabMetaData>")
    with raises_naming(meta, "not Tracab metadata"):
        load_match("tracab", meta_data=meta, raw_data=TRACAB_FRAMES)
