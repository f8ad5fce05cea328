"""A profile file (TOML, docs/formats/profile.md) read into a `Profile`, every key checked.

A profile is varroom's own format, so every key it does not name is refused (with the key it is
most likely a slip of): a mistyped setting must fail, never judge under the Laws' default. A
key left out keeps the `ifab` profile's value, so a competition's file states only where it
differs; the verdict's hash is taken of every value, stated or kept.
"""

from __future__ import annotations

import dataclasses
import tomllib
from collections.abc import Collection, Mapping
from enum import Enum
from pathlib import Path
from typing import Any, TypeVar

from varroom.engine.policy import Policy, PolicyError
from varroom.errors import InputError
from varroom.formats.json_fields import JsonReader, did_you_mean
from varroom.formats.json_text import read_text
from varroom.model.ball_line import BallTrackingSource
from varroom.model.noise import NoiseModel, TrackingSource
from varroom.model.noise_defaults import STATED_NOISE, NoiseDefaults
from varroom.model.penalty import PenaltySettings
from varroom.model.settings import LawSettings
from varroom.profiles.profile import NOISE_FIGURES, Profile

S = TypeVar("S", LawSettings, PenaltySettings)

TOP_KEYS = ("name", "version", "source", "offside", "law", "penalty_kick", "noise")
OFFSIDE_KEYS = ("policy",)
BALL_LINE = "ball_line"
TIMING = "timing_sd_s"


def profile_from_text(text: str, source: str) -> Profile:
    """The profile a TOML text states; a fault is an `InputError` naming the key."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise InputError(source, "$", f"not TOML: {error}") from None
    return _ProfileReader(source).profile(data)


def read_profile_file(path: Path) -> Profile:
    return profile_from_text(read_text(path, "TOML"), str(path))


class _ProfileReader(JsonReader):
    def profile(self, data: Mapping[str, Any]) -> Profile:
        self.every_key_known(data, "$", TOP_KEYS)
        name = self.string(self.required(data, "name", "$"), "$.name")
        version = self.string(self.required(data, "version", "$"), "$.version")
        source = self.string(self.required(data, "source", "$"), "$.source")
        offside = self.table(data, "offside")
        self.every_key_known(offside, "$.offside", OFFSIDE_KEYS)
        policy = Policy()
        if "policy" in offside:
            try:
                policy = Policy.parse(self.string(offside["policy"], "$.offside.policy"))
            except PolicyError as error:
                raise self.fail("$.offside.policy", str(error)) from None
        return Profile(
            name=name,
            version=version,
            source=source,
            policy=policy,
            law=self.settings(self.table(data, "law"), "$.law", LawSettings()),
            penalty=self.settings(
                self.table(data, "penalty_kick"), "$.penalty_kick", PenaltySettings()
            ),
            noise=self.noise(self.table(data, "noise")),
        )

    def table(self, data: Mapping[str, Any], key: str, where: str = "$") -> Mapping[str, Any]:
        return self.object(data.get(key, {}), f"{where}.{key}")

    def every_key_known(self, obj: Mapping[str, Any], where: str, known: Collection[str]) -> None:
        for key in obj:
            if key not in known:
                raise self.fail(
                    f"{where}.{key}",
                    f"unknown key {key!r}{did_you_mean(key, known)}; "
                    f"the keys here are {', '.join(known)}",
                )

    def settings(self, table: Mapping[str, Any], where: str, default: S) -> S:
        """A settings type's fields, each of the type of its default: an enum by its value,
        a distance as a number of metres."""
        self.every_key_known(table, where, default.__slots__)
        stated: dict[str, Any] = {}
        for key, value in table.items():
            kept = getattr(default, key)
            at = f"{where}.{key}"
            if isinstance(kept, Enum):
                stated[key] = self.choice(type(kept), value, at)
            else:
                stated[key] = self.non_negative(value, at)
        return dataclasses.replace(default, **stated)

    def noise(self, table: Mapping[str, Any]) -> NoiseDefaults:
        sources = [source.value for source in TrackingSource]
        self.every_key_known(table, "$.noise", [*sources, BALL_LINE])
        tracking = dict(STATED_NOISE.tracking)
        for source in TrackingSource:
            if source.value in table:
                tracking[source] = self.noise_model(
                    table[source.value], f"$.noise.{source.value}", tracking[source]
                )
        ball = dict(STATED_NOISE.ball_sd_m)
        stated = self.table(table, BALL_LINE, "$.noise")
        self.every_key_known(stated, f"$.noise.{BALL_LINE}", [s.value for s in BallTrackingSource])
        for key, value in stated.items():
            ball[BallTrackingSource(key)] = self.non_negative(value, f"$.noise.{BALL_LINE}.{key}")
        return NoiseDefaults(tracking, ball)

    def noise_model(self, value: Any, where: str, kept: NoiseModel) -> NoiseModel:
        obj = self.object(value, where)
        self.every_key_known(obj, where, [*NOISE_FIGURES, TIMING])
        figures: dict[str, float] = {
            key: self.non_negative(obj[key], f"{where}.{key}") for key in obj
        }
        if "frame_rate_hz" in figures:
            figures["frame_rate_hz"] = self.positive(obj["frame_rate_hz"], f"{where}.frame_rate_hz")
        return dataclasses.replace(kept, **figures)
