"""The clip must show the play as recorded: the right frames, the freeze at the moment of play,
positions interpolated between touches, and complete GIF and MP4 files."""

from __future__ import annotations

import math
import os
import re
import subprocess
from pathlib import Path

import pytest
from hypothesis import given, settings

import varroom
from situations import load, situation, situations, touch
from varroom.pictures import PictureError, clip_frames, write_clip
from varroom.pictures.clip import HEIGHT_PX, WIDTH_PX
from varroom.pictures.motion import ball_at, positions_at
from varroom.pictures.story import Story

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
KANE = EXAMPLES / "tottenham-sporting-2022-kane.json"


def kane() -> tuple[varroom.Situation, varroom.Verdict]:
    situation_ = varroom.load_situation(KANE)
    return situation_, varroom.judge(situation_)


def expected_count(t_play: float, t_end: float, fps: float) -> int:
    return (
        round(2.0 * fps)  # two seconds before
        + round(1.0 * fps)  # frozen for a second at the moment of play
        + math.ceil((t_end - t_play) * fps - 1e-9)  # on to the involvement
        + round(0.5 * fps)  # held at the end
    )


@pytest.mark.parametrize("fps", [10.0, 12.0, 15.0])
def test_kane_frame_schedule(fps: float) -> None:
    situation_, verdict = kane()
    frames = clip_frames(situation_, verdict, fps)
    header, shot = situation_.touches[1], situation_.touches[3]  # Emerson's header, Kane's shot
    assert verdict.judged_at == 1 and verdict.involved_at == 3
    assert len(frames) == expected_count(header.t_s, shot.t_s, fps)
    frozen = [f for f in frames if f.frozen]
    assert len(frozen) == round(fps)  # one second
    assert all(f.t_s == header.t_s for f in frozen)
    # The freeze is one run, right after the two seconds before it.
    first = frames.index(frozen[0])
    assert first == round(2 * fps)
    assert frames[first : first + len(frozen)] == frozen
    assert frames[0].t_s == pytest.approx(header.t_s - 2.0)
    # Time never runs backwards, and the clip ends at the involvement.
    assert all(b.t_s >= a.t_s for a, b in zip(frames, frames[1:], strict=False))
    assert frames[-1].t_s == shot.t_s
    assert [f.index for f in frames] == list(range(len(frames)))


def test_frozen_frames_show_the_positions_of_the_judged_touch() -> None:
    situation_, verdict = kane()
    header = situation_.touches[1]
    for frame in clip_frames(situation_, verdict, 12):
        if frame.frozen:
            assert frame.positions == {
                pid: (pos.x_m, pos.y_m) for pid, pos in header.positions.items()
            }
            assert frame.ball_m == header.ball_m
            assert frame.caption.startswith("MOMENT OF PLAY")


def test_positions_are_linear_between_touches() -> None:
    situation_, _ = kane()
    a, b = situation_.touches[1], situation_.touches[2]
    for f in (0.0, 0.25, 0.5, 0.9):
        t = a.t_s + f * (b.t_s - a.t_s)
        at = positions_at(situation_, t)
        for pid in a.positions:
            pa, pb = a.positions[pid], b.positions[pid]
            assert at[pid][0] == pytest.approx(pa.x_m + f * (pb.x_m - pa.x_m))
            assert at[pid][1] == pytest.approx(pa.y_m + f * (pb.y_m - pa.y_m))
        ball = ball_at(situation_, t)
        for k in range(3):
            assert ball[k] == pytest.approx(a.ball_m[k] + f * (b.ball_m[k] - a.ball_m[k]))


def test_before_the_first_touch_velocity_or_standing_still() -> None:
    first = touch(
        "a1",
        "pass",
        (0, 0),
        10.0,
        a1=(0, 0),
        a2={"x": 20.0, "y": 5.0, "v": [6.0, -1.0]},
        d1=(25, 0),
        d2=(40, 0),
    )
    first["ball_v"] = [3.0, 0.0]
    second = touch("a2", "shot", (26, 4), 11.0, a1=(2, 0), a2=(26, 4), d1=(26, 0), d2=(40, 0))
    situation_ = load(situation([first, second]))
    at = positions_at(situation_, 8.5)  # 1.5 s before the first touch
    assert at["a2"] == pytest.approx((20.0 - 6.0 * 1.5, 5.0 + 1.0 * 1.5))
    assert at["a1"] == (0.0, 0.0)  # no velocity: standing still
    assert at["d1"] == (25.0, 0.0)
    assert ball_at(situation_, 8.5) == pytest.approx((-4.5, 0.0, 0.0))
    # After the last touch everyone stands still.
    assert positions_at(situation_, 20.0)["a2"] == (26.0, 4.0)


def test_a_player_known_at_one_touch_only_stands_where_he_is_known() -> None:
    first = touch("a1", "pass", (0, 0), 0.0, a1=(0, 0), a2=(20, 5), d1=(25, 0), d2=(40, 0))
    second = touch(
        "a2", "shot", (26, 4), 1.0, a1=(2, 0), a2=(26, 4), d1=(26, 0), d2=(40, 0), d3=(30, 3)
    )
    situation_ = load(situation([first, second]))
    assert positions_at(situation_, 0.5)["d3"] == (30.0, 3.0)


@settings(max_examples=60, deadline=None)
@given(situations())
def test_random_schedules(data: dict) -> None:
    situation_ = load(data)
    verdict = varroom.judge(situation_)
    story = Story(situation_, verdict)
    t_play = situation_.touches[story.judged_at].t_s
    t_end = max(t_play, situation_.touches[story.phase_end].t_s)
    frames = clip_frames(situation_, verdict, 10)
    assert len(frames) == expected_count(t_play, t_end, 10)
    frozen = [f for f in frames if f.frozen]
    assert len(frozen) == 10 and all(f.t_s == t_play for f in frozen)


def test_bad_fps_is_refused() -> None:
    situation_, verdict = kane()
    with pytest.raises(PictureError, match="frames per second"):
        clip_frames(situation_, verdict, 0)


# -- the files --------------------------------------------------------------------------------


def test_gif_has_every_frame_and_lasts_as_long_as_the_schedule(tmp_path: Path) -> None:
    from PIL import Image

    situation_, verdict = kane()
    target = tmp_path / "kane.gif"
    frames = write_clip(situation_, verdict, target)
    assert os.listdir(tmp_path) == ["kane.gif"]
    with Image.open(target) as gif:
        assert gif.size == (WIDTH_PX, HEIGHT_PX)
        durations = []
        for k in range(gif.n_frames):  # identical frames (the freeze) are merged by the encoder
            gif.seek(k)
            durations.append(gif.info["duration"])
    assert sum(durations) == pytest.approx(1000 * len(frames) / 12, abs=10)
    # The freeze is the longest GIF frame: a second.
    assert max(durations) == pytest.approx(1000, abs=10)


def test_mp4_is_complete_with_every_frame(tmp_path: Path) -> None:
    import imageio_ffmpeg

    situation_, verdict = kane()
    target = tmp_path / "kane.mp4"
    frames = write_clip(situation_, verdict, target)
    assert os.listdir(tmp_path) == ["kane.mp4"]
    data = target.read_bytes()
    assert data[4:8] == b"ftyp"
    probe = subprocess.run(
        [
            imageio_ffmpeg.get_ffmpeg_exe(),
            "-hide_banner",
            "-i",
            str(target),
            "-map",
            "0:v:0",
            "-c",
            "copy",
            "-f",
            "null",
            "-",
        ],
        capture_output=True,
        text=True,
        check=True,
    )
    counted = re.findall(r"frame=\s*(\d+)", probe.stderr)
    assert counted and int(counted[-1]) == len(frames)
    assert f"{WIDTH_PX}x{HEIGHT_PX}" in probe.stderr


def test_clip_files_fail_cleanly(tmp_path: Path) -> None:
    situation_, verdict = kane()
    with pytest.raises(PictureError, match="no directory"):
        write_clip(situation_, verdict, tmp_path / "nope" / "clip.gif")
    with pytest.raises(PictureError, match=r"\.gif or \.mp4"):
        write_clip(situation_, verdict, tmp_path / "clip.avi")
    assert list(tmp_path.iterdir()) == []


def test_ffmpeg_failure_leaves_no_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from varroom.pictures import clip

    situation_, verdict = kane()
    monkeypatch.setattr(clip, "_ffmpeg", lambda: "/bin/false")
    with pytest.raises(PictureError, match="ffmpeg failed"):
        write_clip(situation_, verdict, tmp_path / "clip.mp4")
    assert list(tmp_path.iterdir()) == []
