"""Reading a ball line (format version 1, `shared/spec/ball-line.md`) from JSON.

Every fault is an `InputError` naming the file and the JSON path of the fault, so that the
command line can print one line and exit 2. Extra keys are ignored, as the format says,
unless one is a slip of a key it names (`JsonReader.known_keys`).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from varroom.formats.json_fields import JsonReader
from varroom.formats.json_text import FileReader, TextReader, file_reader, text_reader
from varroom.model.ball_line import (
    BallLineCall,
    BallLineCase,
    BallNoise,
    BallTrack,
    BallTrackingSource,
    Contact,
    ContactKind,
    Goal,
)
from varroom.model.measures import BALL_RADIUS_M
from varroom.model.noise_defaults import STATED_NOISE, NoiseDefaults
from varroom.model.situation import Pitch

KIND = "ball_line"
# The keys the format names (docs/formats/ball-line.md); a slip of one is an error.
ROOT_KEYS = (
    "kind",
    "pitch",
    "ball_track",
    "ball_radius_m",
    "goal",
    "noise",
    "on_field",
    "meta",
    "contacts",
)

# How far beyond a boundary line, or how high, a tracked ball may be: further than that it is not
# a ball near a line but a fault in the data (a wrong unit, a swapped axis, a lost track).
OFF_PITCH_LIMIT_M = 20.0
HEIGHT_LIMIT_M = (-0.5, 60.0)


def ball_line_from_dict(
    data: Any, source: str = "<ball line>", noise: NoiseDefaults = STATED_NOISE
) -> BallLineCase:
    """Build a ball line from already-parsed JSON, checking every field; `noise` is taken where
    the file does not state its ball's error."""
    return _Reader(source, noise).case(data)


load_ball_line: FileReader[BallLineCase] = file_reader(ball_line_from_dict, "ball line")
"""`load_ball_line(path)`: read and check a ball-line file."""
parse_ball_line: TextReader[BallLineCase] = text_reader(ball_line_from_dict, "ball line")
"""`parse_ball_line(text, source="<ball line>")`: the ball line JSON text describes, checked."""


def ball_line_to_dict(case: BallLineCase) -> dict[str, Any]:
    """A ball line in the format: what `ball_line_from_dict` reads back to the same case (the
    audit's ball lines, queued in the review room). The noise is written with its source, so
    that it reads back as it was, whatever the track's rate."""
    data: dict[str, Any] = {
        "kind": KIND,
        "pitch": {"length": case.pitch.length_m, "width": case.pitch.width_m},
        "ball_track": np.column_stack([case.track.t_s, case.track.xyz_m]).tolist(),
        "ball_radius_m": case.ball_radius_m,
        "goal": {
            "width": case.goal.width_m,
            "height": case.goal.height_m,
            "post_width": case.goal.post_width_m,
        },
        "noise": {"source": case.noise.source.value, "ball_sd_m": case.noise.ball_sd_m},
        "meta": dict(case.meta),
    }
    if case.on_field_decision is not None:
        data["on_field"] = {"decision": case.on_field_decision}
    if case.contacts:
        data["contacts"] = [{"t": c.t_s, "kind": c.kind.value} for c in case.contacts]
    return data


class _Reader(JsonReader):
    def case(self, data: Any) -> BallLineCase:
        root = self.object(data, "$")
        self.check_kind(root, KIND)
        self.known_keys(root, "$", ROOT_KEYS)
        pitch = self.pitch(root.get("pitch"))
        radius = self.positive(root.get("ball_radius_m", BALL_RADIUS_M), "$.ball_radius_m")
        track = self.track(self.required(root, "ball_track", "$"), pitch)
        decision = self.on_field(root.get("on_field"), BallLineCall)
        return BallLineCase(
            track=track,
            pitch=pitch,
            goal=self.goal(root.get("goal")),
            ball_radius_m=radius,
            noise=self.noise(root.get("noise"), track),
            on_field_decision=decision,
            meta=dict(self.object(root.get("meta", {}), "$.meta")),
            contacts=self.contacts(root.get("contacts", []), track),
        )

    def contacts(self, value: Any, track: BallTrack) -> tuple[Contact, ...]:
        """`contacts`: what the ball met and when, within the track, in time order (a
        contact names what the tracking saw; `unnamed` is varroom's, for one it finds)."""
        named = [kind for kind in ContactKind if kind is not ContactKind.UNNAMED]
        out: list[Contact] = []
        for i, item in enumerate(self.array(value, "$.contacts")):
            where = f"$.contacts[{i}]"
            obj = self.object(item, where)
            self.known_keys(obj, where, ("t", "kind"))
            t_s = self.number(self.required(obj, "t", where), f"{where}.t")
            kind = self.choice(ContactKind, self.required(obj, "kind", where), f"{where}.kind")
            if kind not in named:
                raise self.fail(
                    f"{where}.kind",
                    f"expected one of {', '.join(k.value for k in named)}, got {kind.value!r}",
                )
            first, last = float(track.t_s[0]), float(track.t_s[-1])
            if not first < t_s < last:
                raise self.fail(
                    f"{where}.t",
                    f"{t_s:g} s is not inside the track ({first:g} s to {last:g} s): a contact "
                    "joins two flights the track holds",
                )
            if out and t_s <= out[-1].t_s:
                raise self.fail(
                    f"{where}.t",
                    f"contacts in time order: {t_s:g} s is not after {out[-1].t_s:g} s",
                )
            out.append(Contact(t_s, kind))
        return tuple(out)

    def goal(self, value: Any) -> Goal:
        obj, default = self.object({} if value is None else value, "$.goal"), Goal()
        self.known_keys(obj, "$.goal", ("width", "height", "post_width"))
        return Goal(
            width_m=self.positive(obj.get("width", default.width_m), "$.goal.width"),
            height_m=self.positive(obj.get("height", default.height_m), "$.goal.height"),
            post_width_m=self.non_negative(
                obj.get("post_width", default.post_width_m), "$.goal.post_width"
            ),
        )

    def noise(self, value: Any, track: BallTrack) -> BallNoise:
        """The source named, else the one whose rate is nearest the track's; then its figure."""
        obj = self.object({} if value is None else value, "$.noise")
        self.known_keys(obj, "$.noise", ("source", "ball_sd_m"))
        if "source" in obj:
            source = self.choice(BallTrackingSource, obj["source"], "$.noise.source")
        else:
            source = BallTrackingSource.nearest(1.0 / float(np.median(np.diff(track.t_s))))
        if obj.get("ball_sd_m") is None:
            return self.noise_defaults.ball(source)
        return BallNoise(source, self.non_negative(obj["ball_sd_m"], "$.noise.ball_sd_m"))

    def track(self, value: Any, pitch: Pitch) -> BallTrack:
        rows = self.array(value, "$.ball_track")
        if len(rows) < 2:
            raise self.fail("$.ball_track", f"expected at least 2 samples, got {len(rows)}")
        # A 500 Hz track has thousands of numbers: check the common case (plain numbers) in one
        # pass, and go field by field only to name the fault.
        if not all(
            type(row) is list and len(row) == 4 and all(type(v) in (float, int) for v in row)
            for row in rows
        ):
            for i, row in enumerate(rows):
                self.point(row, f"$.ball_track[{i}]", (4,))
        samples = np.asarray(rows, dtype=np.float64)
        bad = ~np.isfinite(samples)
        if bad.any():
            i, k = np.argwhere(bad)[0]
            raise self.fail(
                f"$.ball_track[{i}][{k}]", f"expected a finite number, got {samples[i, k]}"
            )
        t_s = samples[:, 0]
        steps = np.flatnonzero(np.diff(t_s) <= 0)
        if steps.size:
            i = int(steps[0]) + 1
            raise self.fail(
                f"$.ball_track[{i}][0]",
                f"times must increase: {t_s[i]} s does not come after {t_s[i - 1]} s",
            )
        xyz = samples[:, 1:]
        reach = np.array([pitch.half_length_m, pitch.half_width_m]) + OFF_PITCH_LIMIT_M
        height = xyz[:, 2:]
        off = np.hstack(
            [
                np.abs(xyz[:, :2]) > reach,
                (height < HEIGHT_LIMIT_M[0]) | (height > HEIGHT_LIMIT_M[1]),
            ]
        )
        if off.any():
            i, k = np.argwhere(off)[0]
            raise self.fail(
                f"$.ball_track[{i}][{k + 1}]",
                f"ball at ({xyz[i, 0]:g}, {xyz[i, 1]:g}, {xyz[i, 2]:g}) m is not near the pitch "
                f"(more than {OFF_PITCH_LIMIT_M:g} m beyond a line, or height outside "
                f"{HEIGHT_LIMIT_M[0]:g}..{HEIGHT_LIMIT_M[1]:g} m)",
            )
        return BallTrack(t_s=t_s, xyz_m=xyz)
