"""The clip: the phase from two seconds before the moment of play to the involvement, top-down,
frozen for a second at the moment of play with the offside line drawn.

The frame schedule is data (`clip_frames`), so a test can count the frames and find the freeze:

- `before`: `round(before_s * fps)` frames at t_play - k / fps (k = n .. 1), the build-up;
- `moment`: `round(freeze_s * fps)` frames, all at t_play (the judged touch), `frozen=True`:
  the offside line, the ball line, the attacker's nearest counting part and the margin;
- `after`: `ceil((t_end - t_play) * fps)` frames from t_play + 1 / fps to t_end (the touch at
  which the attacker became involved, else the next attacker's touch, else the last touch of
  the chain), the last one exactly at t_end; the line stays, fainter, where it was drawn;
- `end`: `round(end_hold_s * fps)` frames held at t_end with the decision, so that a looping
  GIF does not jump straight back.

Positions between touches come from `varroom.pictures.motion` (straight lines; before the first
touch backwards along `v` where given, else standing still).

Frames are drawn with matplotlib once for the pitch, then only the moving artists per frame
(blitting), 960 x 600 px. GIF through Pillow (one shared palette), MP4 through the ffmpeg that
imageio-ffmpeg bundles (raw RGB frames on a pipe, H.264, yuv420p).
"""

from __future__ import annotations

import math
import os
import subprocess
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO

import numpy as np
from matplotlib.artist import Artist
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure
from matplotlib.patches import Rectangle
from matplotlib.text import Text
from matplotlib.transforms import Bbox

from varroom.engine.verdict import Effect, Status, Verdict
from varroom.model.situation import Situation
from varroom.output_file import CLIP_SUFFIXES, check_target, write_atomically
from varroom.pictures import PictureError, style, typeset
from varroom.pictures.marks import ball_mark, dots, polyline, vline
from varroom.pictures.motion import XY, ball_at, positions_at
from varroom.pictures.placement import Spot, around, marker_boxes, overlap, place
from varroom.pictures.story import Story
from varroom.pictures.topdown import draw_pitch, fit_box, goal_mouth, shade_unseen
from varroom.pictures.typeset import HAlign, LabelBox, VAlign

FPS = 12.0
BEFORE_S = 2.0
FREEZE_S = 1.0
END_HOLD_S = 0.5
WIDTH_PX, HEIGHT_PX, DPI = 960, 600, 100
HEADER = 0.1  # the caption bar on top, figure fraction
# The bar at the bottom, off the pitch, so that the freeze badge and the decision never cover a
# player: "FROZEN" and the margin at the moment of play, the decision at the end.
FOOTER = 0.1

# The text roles of the clip's bars (typeset).
VERDICT = typeset.TextStyle(30, headline=True)
DETAIL = typeset.TextStyle(13)
CAPTION = typeset.TextStyle(14, weight="bold")
CLOCK = typeset.TextStyle(12, colour=style.MUTED, ha="right", mono=True)
FROZEN = typeset.TextStyle(13, colour=style.BACKGROUND, weight="bold")
LINE_LABEL = typeset.LINE_LABEL.but(
    size=9.5, weight="normal", va="bottom", box=LabelBox(alpha=0.75)
)

_EFFECT = {
    Effect.RESET: "a deliberate play: offside reset",
    Effect.DEFLECTION: "a deflection: no reset",
    Effect.SAVE: "a save: no reset",
    Effect.REBOUND: "a rebound: no reset",
    Effect.OUT_OF_PLAY: "ball out of play",
}


@dataclass(frozen=True, slots=True)
class ClipFrame:
    """One frame of the clip: the time shown and what is drawn at it."""

    index: int
    t_s: float
    frozen: bool  # held at the moment of play (the judged touch), line drawn
    phase: str  # "before", "moment", "after" or "end"
    positions: Mapping[str, XY]
    ball_m: tuple[float, float, float]
    caption: str


def clip_frames(
    situation: Situation,
    verdict: Verdict,
    fps: float = FPS,
    before_s: float = BEFORE_S,
    freeze_s: float = FREEZE_S,
    end_hold_s: float = END_HOLD_S,
) -> list[ClipFrame]:
    """The frame schedule (see the module's docstring)."""
    if not (fps > 0 and math.isfinite(fps)):
        raise PictureError(f"cannot make the clip: frames per second must be positive, got {fps}")
    story = Story(situation, verdict)
    t_play = story.touch.t_s
    t_end = max(t_play, situation.touches[story.phase_end].t_s)
    times: list[tuple[float, str]] = []
    n_before = round(before_s * fps)
    times += [(t_play - (n_before - k) / fps, "before") for k in range(n_before)]
    times += [(t_play, "moment")] * max(1, round(freeze_s * fps))
    n_after = math.ceil((t_end - t_play) * fps - 1e-9)
    times += [(min(t_play + k / fps, t_end), "after") for k in range(1, n_after + 1)]
    times += [(t_end, "end")] * round(end_hold_s * fps)
    captions = _Captions(story)
    return [
        ClipFrame(
            index=k,
            t_s=t,
            frozen=phase == "moment",
            phase=phase,
            positions=positions_at(situation, t),
            ball_m=ball_at(situation, t),
            caption=captions.at(t, phase),
        )
        for k, (t, phase) in enumerate(times)
    ]


class _Captions:
    def __init__(self, story: Story) -> None:
        self.story = story
        self.effects = {step.index: step.effect for step in story.v.chain}

    def at(self, t_s: float, phase: str) -> str:
        story = self.story
        if phase == "moment":
            return f"MOMENT OF PLAY \u2014 {story.played_label()}: positions judged"
        if phase == "end":
            return self.decision()
        touches = story.s.touches
        latest = max(
            (i for i, touch in enumerate(touches) if touch.t_s <= t_s + 1e-9), default=None
        )
        if latest is None:
            return f"Build-up \u2014 {story.played_label()} in {story.touch.t_s - t_s:.1f} s"
        text = story.played_label(latest)
        if phase == "after" and latest > story.judged_at:
            effect = _EFFECT.get(self.effects.get(latest))  # type: ignore[arg-type]
            if effect:
                text += f" \u2014 {effect}"
        return text[:1].upper() + text[1:]

    def decision(self) -> str:
        story = self.story
        involved = story.played_label(story.phase_end)
        margin = story.margin_text()
        text = story.headline
        if margin:
            text += f" \u00b7 {margin}"
        if story.phase_end != story.judged_at:
            return f"{involved[:1].upper() + involved[1:]} \u2014 {text}"
        return text


# -- drawing ------------------------------------------------------------------------------------


class ClipPainter:
    """The pitch drawn once; the moving artists drawn onto a copy of it per frame."""

    def __init__(self, situation: Situation, verdict: Verdict, frames: list[ClipFrame]) -> None:
        self.s, self.story = situation, Story(situation, verdict)
        story = self.story
        self.figure = Figure(
            figsize=(WIDTH_PX / DPI, HEIGHT_PX / DPI), dpi=DPI, facecolor=style.BACKGROUND
        )
        self.canvas = FigureCanvasAgg(self.figure)
        self.renderer = self.canvas.get_renderer()  # type: ignore[no-untyped-call]
        ax = self.ax = self.figure.add_axes((0, FOOTER, 1, 1 - HEADER - FOOTER))
        box = fit_box(
            self._action_points(frames),
            situation.pitch,
            WIDTH_PX / (HEIGHT_PX * (1 - HEADER - FOOTER)),
            story.sign,
            pad_m=7.0,
            min_span=(40.0, 22.0),
            near_goal_m=None,
        )
        self.px_per_m = WIDTH_PX / (box[2] - box[0])
        draw_pitch(ax, situation.pitch, box, linewidth=1.3)
        # The view at the moment of play, the one the call was judged on, for the whole clip.
        shade_unseen(ax, situation.pitch, story.touch.view)
        for spine in ax.spines.values():
            spine.set_visible(False)
        self.figure.add_artist(
            Rectangle(
                (0, 1 - HEADER), 1, HEADER, transform=self.figure.transFigure, color=style.PANEL
            )
        )
        self.figure.add_artist(
            Rectangle((0, 0), 1, FOOTER, transform=self.figure.transFigure, color=style.PANEL)
        )
        self.figure.text(
            0.985,
            1 - HEADER / 2,
            self._match(),
            color=style.FAINT,
            fontproperties=typeset.font(8),
            ha="right",
            va="center",
        )
        self.canvas.draw()  # type: ignore[no-untyped-call]
        self.background = self.canvas.copy_from_bbox(self.figure.bbox)  # type: ignore[no-untyped-call]
        self._artists()

    def _match(self) -> str:
        return "varroom \u00b7 Law 11"

    def _action_points(self, frames: list[ClipFrame]) -> list[tuple[float, float]]:
        """What the fixed view must hold: what every view of the moment of play holds
        (`Story.key_points`), the ball all the way from there, and the attacker, what set the
        line and the player on the ball where they are at the end. The build-up may come in from
        outside the view."""
        story = self.story
        t_play = story.touch.t_s
        points = story.key_points()
        points += [(f.ball_m[0], f.ball_m[1]) for f in frames if f.t_s >= t_play]
        keys = [pid for pid in (story.focus, story.setter_id(), story.touch.player) if pid]
        for frame in frames:
            if frame.phase in ("moment", "end"):
                points += [frame.positions[pid] for pid in keys if pid in frame.positions]
        # Near the goal attacked, the whole goal mouth.
        goal_x = story.sign * self.s.pitch.half_length_m
        if any(abs(goal_x - x) < 25.0 for x, _ in points):
            points += goal_mouth(self.s.pitch, story.sign)
        return points

    def _artists(self) -> None:
        s, ax, story = self.s, self.ax, self.story
        self.ids = list(s.players)
        colours = [story.team_colour(pid) for pid in self.ids]
        key = {story.focus, story.setter_id()}
        diameter_pt = min(max(0.95 * self.px_per_m * 72 / DPI, 9.0), 20.0)
        self.number_size = 0.45 * diameter_pt
        sizes = [(1.2 * diameter_pt if p in key else diameter_pt) ** 2 for p in self.ids]
        self.players = ax.scatter(
            np.zeros(len(self.ids)),
            np.zeros(len(self.ids)),
            s=sizes,
            c=colours,
            edgecolors=[style.RING if p in key else style.INK for p in self.ids],
            linewidths=[1.8 if p in key else 0.8 for p in self.ids],
            zorder=5,
            animated=True,
            gid="clip-players",
        )
        self.diameters_pt = np.sqrt(sizes)
        self.numbers = {
            pid: typeset.put(
                ax,
                0,
                0,
                str(s.players[pid].number),
                typeset.NUMBER.but(size=self.number_size, zorder=6),
                animated=True,
                gid=f"clip-number:{pid}",
            )
            for pid in self.ids
            if s.players[pid].number is not None
        }
        self.names = {
            pid: ax.annotate(
                s.players[pid].short_label,
                (0, 0),
                xytext=(0, 0.75 * diameter_pt),
                textcoords="offset points",
                **typeset.NAME.but(zorder=9).kwargs(),
                animated=True,
                annotation_clip=True,
                gid=f"clip-name:{pid}",
            )
            for pid in key
            if pid is not None
        }
        hw = s.pitch.half_width_m
        line = story.line
        line_x = line.x_m if line is not None else math.nan
        ball_x = line.ball_x_m if line is not None else math.nan
        self.offside_line = vline(
            ax,
            line_x,
            -hw,
            hw,
            style.LINE,
            2.6,
            zorder=3.5,
            gid="clip-offside-line",
            animated=True,
            path_effects=typeset.halo(4.5, style.LABEL_BOX, 0.6),
        )
        self.ball_line = vline(
            ax, ball_x, -hw, hw, style.LINE, 1.1, (6, 5), 0.6, 3.4, "clip-ball-line", animated=True
        )
        judged = story.focus_judged
        mark = style.margin_colour(story.margin)
        reach = (judged.reach.x_m, judged.reach.y_m) if judged is not None else (math.nan,) * 2
        self.reach = dots(
            ax,
            [reach[0]],
            [reach[1]],
            s=144,
            marker="X",
            color=mark,
            edgecolors=style.RING,
            zorder=8,
            gid="clip-reach",
            animated=True,
        )
        self.margin = ax.annotate(
            story.margin_text(),
            reach,
            xytext=(0, 0.75 * diameter_pt + 15),
            textcoords="offset points",
            **typeset.NAME.but(size=13, colour=mark, zorder=9).kwargs(),
            animated=True,
            annotation_clip=True,
            gid="clip-margin",
        )
        self.line_label = ax.annotate(
            story.line_label(),
            (line_x, 0),
            xycoords=("data", "axes fraction"),
            xytext=(-story.sign * 6, 8),
            textcoords="offset points",
            animated=True,
            gid="clip-line-label",
            **LINE_LABEL.but(ha="right" if story.sign > 0 else "left").kwargs(),
        )
        self.trail = polyline(ax, [], [], style.LIGHT, 1.2, (3, 2), 0.7, 6, animated=True)
        self.ball = ball_mark(ax, [], [], s=81, zorder=7, gid="clip-ball", animated=True)
        self.freeze_frame = Rectangle(
            (0.003, FOOTER + 0.004),
            0.994,
            1 - HEADER - FOOTER - 0.008,
            transform=self.figure.transFigure,
            fill=False,
            edgecolor=story.colour,
            lw=5,
            animated=True,
            gid="clip-freeze-frame",
        )
        self.figure.add_artist(self.freeze_frame)
        self.verdict = typeset.put(
            self.figure,
            0.015,
            FOOTER / 2,
            story.headline,
            VERDICT.but(colour=story.colour),
            animated=True,
            gid="clip-verdict",
        )
        attacker = story.attacker()
        detail = story.margin_text()
        if detail and attacker is not None:
            detail = f"{attacker.name}: {detail} {story.margin_caption()}"
        if story.v.status is Status.UNDECIDABLE and story.touch.view is not None:
            # What the camera's view leaves open, short: the footer holds one line.
            unseen = story.v.unseen
            if detail and unseen is not None:
                detail += f"; {unseen.unseen} out of view"
            elif not detail:
                detail = story.undecided()
        put = typeset.put
        self.verdict_detail = put(
            self.figure, 0.5, FOOTER / 2, detail, DETAIL, animated=True, gid="clip-verdict-detail"
        )
        self.caption = put(
            self.figure, 0.015, 1 - HEADER / 2, "", CAPTION, animated=True, gid="clip-caption"
        )
        self.clock = put(
            self.figure, 0.86, 1 - HEADER / 2, "", CLOCK, animated=True, gid="clip-clock"
        )
        self.freeze_badge = put(
            self.figure,
            0.015,
            FOOTER / 2,
            " \u275a\u275a FROZEN ",
            FROZEN.but(box=LabelBox(story.colour, "square", 0.3, None)),
            animated=True,
            gid="clip-frozen",
        )
        # Where labels may go: names round their player, the margin round the measured point,
        # the line's label at either end of the line, on either side of it.
        biggest = float(np.max(self.diameters_pt, initial=10.0))
        self.name_spots = around(0.5 * biggest + 2)
        self.margin_spots = around(0.5 * biggest + 16)
        ahead: HAlign = "left" if story.sign > 0 else "right"
        behind: HAlign = "right" if story.sign > 0 else "left"
        ends: tuple[tuple[float, int, VAlign], ...] = (
            (0.0, 1, "bottom"),
            (1.0, -1, "top"),
            (0.3, 1, "bottom"),
            (0.7, -1, "top"),
        )
        self.line_spots = tuple(
            Spot(side * story.sign * 6, 8 * up, ha, va, (line_x, end))
            for end, up, va in ends
            for side, ha in ((-1, behind), (1, ahead))
        )
        self.spot_taken: dict[Text, int] = {}

    def prepare(self, frame: ClipFrame, trail: list[tuple[float, float]]) -> list[Artist]:
        """Set the moving artists for `frame` and place its labels; the artists to draw, in
        order."""
        story = self.story
        offsets = np.array([frame.positions.get(pid, (math.nan, math.nan)) for pid in self.ids])
        self.players.set_offsets(offsets)
        drawn: list[Artist] = []
        show_line = story.line is not None and frame.phase != "before"
        if show_line:
            moment = frame.phase == "moment"
            self.offside_line.set_alpha(1.0 if moment else 0.55)
            drawn.append(self.offside_line)
            if moment:
                drawn.append(self.ball_line)
        self.trail.set_data([p[0] for p in trail], [p[1] for p in trail])
        x, y, z = frame.ball_m
        # The ball on its own spot, bigger the higher it is: when it sets the offside line, the
        # line runs through its mark.
        self.ball.set_data([x], [y])
        self.ball.set_markersize(8 + 1.2 * min(z, 3.0))
        drawn += [self.trail, self.players]
        marks: list[Artist] = [self.ball]
        if frame.frozen and story.focus_judged is not None and show_line:
            marks.append(self.reach)
        renderer = self.renderer
        covered = [mark.get_window_extent(renderer) for mark in marks]
        view = self.ax.get_window_extent(renderer)
        for pid, number in self.numbers.items():
            if pid in frame.positions:
                number.set_position(frame.positions[pid])
                # A number under the ball or the measured point cannot be read: the mark wins;
                # one at the edge of the view goes with its half-shown player.
                box = number.get_window_extent(renderer)
                if not any(overlap(box, mark) for mark in covered) and overlap(box, view) == (
                    box.width * box.height
                ):
                    drawn.append(number)
        drawn += marks
        labels: list[Text] = []
        if show_line:
            labels.append(self.line_label)
        for pid, name in self.names.items():
            if pid in frame.positions:
                name.xy = frame.positions[pid]
                labels.append(name)
        if self.reach in marks:
            labels.append(self.margin)
        fixed = list(covered)
        if frame.frozen:
            drawn += [self.freeze_frame, self.freeze_badge]
            self._detail_after(self.freeze_badge)
            drawn.append(self.verdict_detail)
        if frame.phase == "end":
            drawn += [self.verdict, self.verdict_detail]
            self._detail_after(self.verdict)
        self._place(labels, offsets, fixed)
        drawn += labels
        dt = frame.t_s - story.touch.t_s
        sign = "+" if dt > 1e-9 else "\u2212" if dt < -1e-9 else "\u00b1"
        self.clock.set_text(f"{sign}{abs(dt):.2f} s")
        self.caption.set_text(frame.caption)
        self.caption.set_color(story.colour if frame.phase in ("moment", "end") else style.TEXT)
        # A long caption shrinks rather than run under the clock.
        room = self.clock.get_window_extent(renderer).x0 - 20 - 0.015 * WIDTH_PX
        size = 14.0
        self.caption.set_fontsize(size)
        while size > 9 and self.caption.get_window_extent(renderer).width > room:
            size -= 0.5
            self.caption.set_fontsize(size)
        drawn += [self.caption, self.clock]
        return drawn

    def render(self, frame: ClipFrame, trail: list[tuple[float, float]]) -> bytes:
        self.canvas.restore_region(self.background)  # type: ignore[no-untyped-call]
        for artist in self.prepare(frame, trail):
            self.figure.draw_artist(artist)
        rgba = np.asarray(self.canvas.buffer_rgba())  # type: ignore[no-untyped-call]
        return np.ascontiguousarray(rgba[:, :, :3]).tobytes()

    def marker_boxes(self, offsets: np.ndarray) -> list[Bbox]:
        """Each player's marker as drawn, in display pixels."""
        points = self.ax.transData.transform(offsets)
        radius = (self.diameters_pt / 2 + 1.0) * DPI / 72
        return marker_boxes(points, radius)

    def _place(self, labels: list[Text], offsets: np.ndarray, fixed: list[Bbox]) -> None:
        """The line's label, the names and the margin, each clear of the markers and of what is
        placed before it; a label keeps its spot while it stays clear."""
        obstacles = self.marker_boxes(offsets) + fixed
        frame = self.ax.get_window_extent(self.renderer)
        for label in labels:
            spots = self.line_spots if label is self.line_label else self.name_spots
            if label is self.margin:
                spots = self.margin_spots
            k, box = place(
                label, spots, obstacles, self.renderer, frame, self.spot_taken.get(label, 0)
            )
            self.spot_taken[label] = k
            obstacles.append(box)

    def _detail_after(self, lead: Text) -> None:
        """The margin line in the footer just after `lead`, smaller if the footer is short."""
        start = lead.get_window_extent(self.renderer).x1 + 14
        self.verdict_detail.set_x(start / WIDTH_PX)
        room = WIDTH_PX * (1 - 0.015) - start
        size = 13.0
        self.verdict_detail.set_fontsize(size)
        while size > 8 and self.verdict_detail.get_window_extent(self.renderer).width > room:
            size -= 0.5
            self.verdict_detail.set_fontsize(size)


def render_frames(
    situation: Situation, verdict: Verdict, frames: list[ClipFrame]
) -> Iterator[bytes]:
    """Each frame as raw RGB bytes, WIDTH_PX x HEIGHT_PX, top row first."""
    painter = ClipPainter(situation, verdict, frames)
    trail_s = 1.0
    samples: list[tuple[float, tuple[float, float]]] = []
    for frame in frames:
        if not samples or frame.t_s != samples[-1][0]:
            samples.append((frame.t_s, (frame.ball_m[0], frame.ball_m[1])))
        trail = [p for t, p in samples if frame.t_s - trail_s <= t <= frame.t_s]
        yield painter.render(frame, trail)


# -- files ----------------------------------------------------------------------------------------


def write_clip(
    situation: Situation, verdict: Verdict, path: str | os.PathLike[str], fps: float = FPS
) -> list[ClipFrame]:
    """Write the clip as an animated GIF (.gif) or an H.264 MP4 (.mp4); returns its frames.
    Written to a temporary file, then renamed; any failure is a `PictureError`."""
    target = check_target(path, "clip", CLIP_SUFFIXES)
    frames = clip_frames(situation, verdict, fps)
    rendered = render_frames(situation, verdict, frames)
    if target.suffix.lower() == ".gif":
        write_atomically(target, "clip", lambda stream: _write_gif(stream, rendered, fps))
    else:
        write_atomically(
            target, "clip", lambda temporary: _write_mp4(temporary, rendered, fps), by_path=True
        )
    return frames


def _write_gif(stream: BinaryIO, rendered: Iterator[bytes], fps: float) -> None:
    from PIL import Image

    images = [Image.frombytes("RGB", (WIDTH_PX, HEIGHT_PX), raw) for raw in rendered]
    # One palette for all frames, taken from a frame with every colour in it (the freeze).
    key = next((k for k, _ in enumerate(images) if k >= len(images) // 2), 0)
    palette = images[key].quantize(colors=192, method=Image.Quantize.MEDIANCUT)
    frames = [image.quantize(palette=palette, dither=Image.Dither.NONE) for image in images]
    # GIF delays are in hundredths of a second: spread the rounding so the total stays exact.
    delays = [10 * (round(100 * (k + 1) / fps) - round(100 * k / fps)) for k in range(len(frames))]
    frames[0].save(
        stream,
        format="GIF",
        save_all=True,
        append_images=frames[1:],
        duration=delays,
        loop=0,
        optimize=False,
        disposal=1,
    )


def _ffmpeg() -> str:
    try:
        import imageio_ffmpeg
    except ImportError:  # pragma: no cover - a dependency
        raise PictureError("cannot write an MP4 clip: imageio-ffmpeg is not installed") from None
    try:
        return str(imageio_ffmpeg.get_ffmpeg_exe())
    except RuntimeError as exc:  # pragma: no cover
        raise PictureError(f"cannot write an MP4 clip: no ffmpeg ({exc})") from None


def _write_mp4(temporary: Path, rendered: Iterator[bytes], fps: float) -> None:
    command = [
        _ffmpeg(), "-hide_banner", "-loglevel", "error", "-y",
        "-f", "rawvideo", "-pix_fmt", "rgb24", "-s", f"{WIDTH_PX}x{HEIGHT_PX}",
        "-framerate", f"{fps:g}", "-i", "-",
        "-an", "-c:v", "libx264", "-preset", "veryfast", "-crf", "20", "-pix_fmt", "yuv420p",
        "-movflags", "+faststart", "-f", "mp4", str(temporary),
    ]  # fmt: skip
    process = subprocess.Popen(command, stdin=subprocess.PIPE, stderr=subprocess.PIPE)
    assert process.stdin is not None and process.stderr is not None
    try:
        for raw in rendered:
            process.stdin.write(raw)
        process.stdin.close()
    except BrokenPipeError:
        pass
    finally:
        error = process.stderr.read().decode("utf-8", "replace").strip()
        code = process.wait()
    if code != 0:
        last = error.splitlines()[-1] if error else f"exit status {code}"
        raise PictureError(f"cannot write the clip {temporary.name}: ffmpeg failed: {last}")
