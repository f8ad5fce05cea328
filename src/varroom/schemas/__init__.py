"""JSON Schemas (draft 2020-12) of the files varroom reads: `varroom schema KIND` prints one.

Each schema is built from what the reader itself knows: the keys it names at each place
(`ROOT_KEYS`, `PLAYER_KEYS`, ... in `varroom.formats`) and the closed lists of the model's
enums, so that the reader and the schema cannot drift apart (tests/test_schemas.py validates
every example and every file varroom writes against them). The schemas are the strict
contract: they refuse every key the format does not name, where the readers ignore a key far
from every name (the spec allows notes of a file's own) and refuse only a slip of one.
"""

from __future__ import annotations

import dataclasses
from enum import Enum
from typing import Any

from varroom.formats import ball_line_json, penalty_json, situation_json
from varroom.live.stream import VERSION as STREAM_VERSION
from varroom.model.ball_line import BallLineCall, BallTrackingSource, ContactKind
from varroom.model.noise import TrackingSource
from varroom.model.penalty import (
    DoubleTouch,
    KickResult,
    PenaltyCall,
    PenaltyFacts,
    PenaltySettings,
)
from varroom.model.settings import LawSettings
from varroom.model.situation import (
    Action,
    BodyPart,
    Direction,
    InvolvementKind,
    OffField,
    OnFieldCall,
)
from varroom.still.marks import MARKS_KEYS

DRAFT = "https://json-schema.org/draft/2020-12/schema"
BASE = "https://varroom.github.io/varroom/schemas"
Schema = dict[str, Any]


def _enum(kind: type[Enum], exclude: tuple[Enum, ...] = ()) -> Schema:
    return {"enum": [member.value for member in kind if member not in exclude]}


def _object(keys: tuple[str, ...], properties: Schema, required: tuple[str, ...] = ()) -> Schema:
    """An object of exactly the keys the reader names (each described in `properties`)."""
    assert set(properties) == set(keys), set(properties) ^ set(keys)
    out: Schema = {"type": "object", "properties": properties, "additionalProperties": False}
    if required:
        out["required"] = list(required)
    return out


NUMBER: Schema = {"type": "number"}
POSITIVE: Schema = {"type": "number", "exclusiveMinimum": 0}
NON_NEGATIVE: Schema = {"type": "number", "minimum": 0}
TEXT: Schema = {"type": "string", "minLength": 1}
XY: Schema = {"type": "array", "items": NUMBER, "minItems": 2, "maxItems": 2}
XY_OR_XYZ: Schema = {"type": "array", "items": NUMBER, "minItems": 2, "maxItems": 3}
META: Schema = {"type": "object", "description": "free-form: anything goes"}


def _pitch(with_line_width: bool = False) -> Schema:
    keys = ("length", "width", "line_width") if with_line_width else ("length", "width")
    return _object(keys, {key: POSITIVE for key in keys})


def _on_field(calls: type[Enum]) -> Schema:
    return _object(("decision", "by"), {"decision": _enum(calls), "by": {"type": "string"}})


def _players() -> Schema:
    player = _object(
        situation_json.PLAYER_KEYS,
        {
            "id": TEXT,
            "team": TEXT,
            "goalkeeper": {"type": "boolean"},
            "name": TEXT,
            "short_name": TEXT,
            "number": {"type": "integer"},
        },
        required=("id", "team"),
    )
    return {"type": "array", "minItems": 1, "items": player}


ATTACK = _object(("team", "towards"), {"team": TEXT, "towards": _enum(Direction)})
TRACKING = _object(
    situation_json.TRACKING_KEYS,
    {
        "source": _enum(TrackingSource),
        "position_sd_m": NON_NEGATIVE,
        "ball_sd_m": NON_NEGATIVE,
        "centroid_reach_sd_m": NON_NEGATIVE,
        "timing_sd_s": NON_NEGATIVE,
        "frame_rate_hz": POSITIVE,
    },
)
POSITION = _object(
    situation_json.POSITION_KEYS,
    {
        "x": NUMBER,
        "y": NUMBER,
        "parts": {
            "type": "object",
            "propertyNames": _enum(BodyPart),
            "additionalProperties": {"anyOf": [NUMBER, XY_OR_XYZ]},
        },
        "off_field": _enum(OffField),
        "v": XY,
    },
    required=("x", "y"),
)
POSITIONS: Schema = {"type": "object", "additionalProperties": POSITION}


def situation() -> Schema:
    """A situation, format 1.0 to 1.2 (docs/formats/situation.md)."""
    involvement = _object(
        ("player", "kind", "t", "at"),
        {"player": TEXT, "kind": _enum(InvolvementKind), "t": NUMBER, "at": XY},
        required=("player", "kind"),
    )
    touch = _object(
        situation_json.TOUCH_KEYS,
        {
            "t": NUMBER,
            "player": {"anyOf": [TEXT, {"type": "null"}]},
            "action": _enum(Action),
            "ball": XY_OR_XYZ,
            "positions": POSITIONS,
            "involvement": {"type": "array", "items": involvement},
            "ball_v": XY,
            "view": _object(
                ("area",), {"area": {"type": "array", "items": XY, "minItems": 3}}, ("area",)
            ),
        },
        required=("t", "player", "action", "ball", "positions"),
    )
    root = _object(
        situation_json.ROOT_KEYS,
        {
            "kind": {"const": "situation"},
            "version": {"enum": list(situation_json.VERSIONS)},
            "pitch": _pitch(),
            "players": _players(),
            "attack": ATTACK,
            "touches": {"type": "array", "minItems": 1, "items": touch},
            "team_sizes": {
                "type": "object",
                "additionalProperties": {
                    "type": "integer",
                    "minimum": situation_json.FEWEST_PLAYERS,
                    "maximum": 11,
                },
            },
            "on_field": _on_field(OnFieldCall),
            "meta": META,
            "tracking": TRACKING,
            "camera": {"type": "object", "description": "docs/pictures.md"},
        },
        required=("players", "touches"),
    )
    # From 1.2 on the attacking direction is stated (format 1.2).
    root["if"] = {"required": ["version"], "properties": {"version": {"const": "1.2"}}}
    root["then"] = {"required": ["attack"]}
    return _titled(root, "situation", "A situation: Law 11 offside, format 1.0 to 1.2")


def penalty_kick() -> Schema:
    """A penalty kick (docs/formats/penalty-kick.md)."""
    flags: Schema = {f.name: {"type": "boolean"} for f in dataclasses.fields(PenaltyFacts)}
    flags["double_touch"] = {"anyOf": [_enum(DoubleTouch), {"type": "null"}]}
    flags["encroacher_involved"] = {"type": "array", "items": TEXT}
    root = _object(
        penalty_json.ROOT_KEYS,
        {
            "kind": {"const": penalty_json.KIND},
            "pitch": _pitch(with_line_width=True),
            "players": _players(),
            "attack": ATTACK,
            "kick": _object(
                ("t", "kicker", "identified_kicker", "ball"),
                {"t": NUMBER, "kicker": TEXT, "identified_kicker": TEXT, "ball": XY_OR_XYZ},
                required=("t", "kicker", "ball"),
            ),
            "positions": POSITIONS,
            "result": _enum(KickResult),
            "ball_after": XY_OR_XYZ,
            "facts": _object(penalty_json.FACT_KEYS, flags),
            "on_field": _on_field(PenaltyCall),
            "meta": META,
            "tracking": TRACKING,
        },
        required=("kind", "players", "kick", "positions", "result"),
    )
    return _titled(root, "penalty_kick", "A penalty kick: Law 14")


def ball_line() -> Schema:
    """A ball line (docs/formats/ball-line.md)."""
    low_m, high_m = ball_line_json.HEIGHT_LIMIT_M
    # [t, x, y, z]: the height has bounds of its own; x and y have the pitch's, which the
    # schema cannot read off the file.
    height = {"type": "number", "minimum": low_m, "maximum": high_m}
    sample = {
        "type": "array",
        "prefixItems": [NUMBER, NUMBER, NUMBER, height],
        "items": False,
        "minItems": 4,
    }
    root = _object(
        ball_line_json.ROOT_KEYS,
        {
            "kind": {"const": ball_line_json.KIND},
            "pitch": _pitch(),
            "ball_track": {"type": "array", "items": sample, "minItems": 2},
            "ball_radius_m": POSITIVE,
            "goal": _object(
                ("width", "height", "post_width"),
                {"width": POSITIVE, "height": POSITIVE, "post_width": NON_NEGATIVE},
            ),
            "noise": _object(
                ("source", "ball_sd_m"),
                {"source": _enum(BallTrackingSource), "ball_sd_m": NON_NEGATIVE},
            ),
            "on_field": _on_field(BallLineCall),
            "meta": META,
            "contacts": {
                "type": "array",
                "items": _object(
                    ("t", "kind"),
                    {"t": NUMBER, "kind": _enum(ContactKind, exclude=(ContactKind.UNNAMED,))},
                    required=("t", "kind"),
                ),
            },
        },
        required=("ball_track",),
    )
    return _titled(root, "ball_line", "A ball line: Laws 9.1 and 10.1")


def still_marks() -> Schema:
    """The marks on a broadcast still (docs/formats/still-marks.md)."""
    pixel = XY
    root = _object(
        MARKS_KEYS,
        {
            "kind": {"const": "still_marks"},
            "pitch": _pitch(),
            "attack": ATTACK,
            "players": _players(),
            "landmarks": {
                "type": "array",
                "minItems": 4,
                "items": _object(
                    ("pitch", "pixel"), {"pitch": XY_OR_XYZ, "pixel": pixel}, ("pitch", "pixel")
                ),
            },
            "marks": {
                "type": "object",
                "minProperties": 1,
                "additionalProperties": _object(
                    ("pixel", "height_m"), {"pixel": pixel, "height_m": NON_NEGATIVE}, ("pixel",)
                ),
            },
            "ball": {
                "oneOf": [
                    _object(("pixel",), {"pixel": pixel}, ("pixel",)),
                    _object(("pitch",), {"pitch": XY}, ("pitch",)),
                ]
            },
            "touch": _object(
                ("player", "action"),
                {"player": {"anyOf": [TEXT, {"type": "null"}]}, "action": _enum(Action)},
                ("action",),
            ),
            "involved": TEXT,
            "pixel_sd": NON_NEGATIVE,
            "meta": META,
        },
        required=("players", "landmarks", "marks", "ball", "touch"),
    )
    return _titled(root, "still_marks", "The marks on a broadcast still")


def frames() -> Schema:
    """One line of a frame stream: a header, a frame, an event or the end
    (docs/formats/frames.md)."""
    from varroom.live import stream

    periods = {"type": "object", "additionalProperties": _enum(Direction)}
    header = _object(
        stream.HEADER_KEYS,
        {
            "kind": {"const": "header"},
            "version": {"type": "integer"},
            "match": {"type": "string"},
            "fps": POSITIVE,
            "pitch": _pitch(),
            "provider": {"type": "string"},
            "teams": {
                "type": "array",
                "items": _object(("id", "name"), {"id": TEXT, "name": {"type": "string"}}, ("id",)),
            },
            "players": _players(),
            "attack": {"type": "object", "additionalProperties": periods},
            "events": {"type": "boolean"},
        },
        required=("kind", "fps", "players", "attack"),
    )
    period = {"type": "integer", "minimum": 1}
    where = {"anyOf": [XY, {"type": "object", "required": ["x", "y"]}]}
    frame = _object(
        stream.FRAME_KEYS,
        {
            "kind": {"const": "frame"},
            "period": period,
            "t": NUMBER,
            "ball": {"anyOf": [XY_OR_XYZ, {"type": "null"}]},
            "players": {"type": "object", "additionalProperties": where},
        },
        required=("kind", "period", "t", "players"),
    )
    event = _object(
        stream.EVENT_KEYS,
        {
            "kind": {"const": "event"},
            "period": period,
            "t": NUMBER,
            "type": TEXT,
            "player": {"anyOf": [TEXT, {"type": "null"}]},
        },
        required=("kind", "period", "t", "type"),
    )
    end = _object(("kind",), {"kind": {"const": "end"}}, ("kind",))
    return _titled({"oneOf": [header, frame, event, end]}, "frames", "One line of a frame stream")


def verdict() -> Schema:
    """What `varroom check FILE --json` prints: a situation's, a penalty kick's or a ball
    line's verdict (docs/formats/). Its keys and closed lists; what each holds is on the
    format's page."""
    from varroom.engine.uncertainty import ConfidenceClass
    from varroom.engine.verdict import Status
    from varroom.law.penalty import Decision, Row
    from varroom.model.ball_line import BallLineDecision, Line

    anything: Schema = {}
    text_or_null: Schema = {"anyOf": [{"type": "string"}, {"type": "null"}]}
    number_or_null: Schema = {"anyOf": [NUMBER, {"type": "null"}]}
    common = {
        # The competition profile it was judged under (docs/formats/profile.md).
        "profile": {
            "type": "object",
            "properties": {"name": TEXT, "sha256": {"type": "string", "pattern": "^[0-9a-f]{64}$"}},
            "required": ["name", "sha256"],
            "additionalProperties": False,
        },
        "policy": TEXT,
        "policy_outcomes": {"type": "object"},
        "policy_would_differ": {"type": "boolean"},
        "reason": {"type": "string"},
        "law": {"type": "string"},
    }

    def kind_of_verdict(keys: tuple[str, ...], own: Schema, required: tuple[str, ...]) -> Schema:
        """One kind's verdict: its keys, those every kind has, and its own described."""
        return _object(keys, {**dict.fromkeys(keys, anything), **common, **own}, required)

    def decided(kind: str, decisions: type[Enum]) -> Schema:
        """A penalty kick's or a ball line's: its kind, and its decision, which is its status."""
        return {"kind": {"const": kind}, "decision": _enum(decisions), "status": _enum(decisions)}

    offside = kind_of_verdict(
        SITUATION_VERDICT_KEYS,
        {
            "offence": {"type": "boolean"},
            "status": _enum(Status),
            "margin_m": number_or_null,
            "probability": number_or_null,
            "confidence_class": {"anyOf": [_enum(ConfidenceClass), {"type": "null"}]},
            "announcement": {"type": "string"},
            "assumed": {"type": "array", "items": {"type": "string"}},
            "settings": _settings(LawSettings()),
        },
        required=("offence", "status", "reason", "law"),
    )
    penalty = kind_of_verdict(
        PENALTY_VERDICT_KEYS,
        {
            **decided(penalty_json.KIND, Decision),
            "row": _enum(Row),
            "restart_team": text_or_null,
            "announcement": {"type": "string"},
            "offences": {"type": "array", "items": {"type": "object"}},
            "settings": _settings(PenaltySettings()),
        },
        required=("kind", "decision", "status", "reason"),
    )
    ball = kind_of_verdict(
        BALL_LINE_VERDICT_KEYS,
        {
            **decided(ball_line_json.KIND, BallLineDecision),
            "line": {"anyOf": [_enum(Line), {"type": "null"}]},
            "nearest_line": _enum(Line),
            "margin_m": NUMBER,
            "probability": NUMBER,
            "on_field_decision": text_or_null,
        },
        required=("kind", "decision", "status", "margin_m", "reason"),
    )
    return _titled(
        {"oneOf": [offside, penalty, ball]}, "verdict", "What varroom check --json prints"
    )


# The verdicts' keys, as their `to_dict` writes them (tests/test_schemas.py checks every
# example's verdict against them): those every kind has, then each kind's own.
COMMON_VERDICT_KEYS = (
    *("status", "profile", "policy", "policy_outcomes", "policy_would_differ", "reason", "law"),
)
SITUATION_VERDICT_KEYS = (
    *COMMON_VERDICT_KEYS,
    *("offence", "offender", "judged_at", "involved_at", "involvement", "restart"),
    *("restart_spot_m", "margin_m", "nearest_attacker", "margin_se_m", "margin_ci_m"),
    *("probability", "confidence_class", "announcement", "line", "positions", "chain"),
    *("settings", "tracking", "unseen", "assumed", "would_be"),
)
PENALTY_VERDICT_KEYS = (
    *COMMON_VERDICT_KEYS,
    *("kind", "decision", "restart_team", "result", "row", "offences", "cautions"),
    *("warnings", "goalkeeper", "keeper_margin_m", "keeper", "announcement", "settings"),
)
BALL_LINE_VERDICT_KEYS = (
    *COMMON_VERDICT_KEYS,
    *("kind", "decision", "line", "nearest_line", "wholly_over", "crossed_at_t", "margin_m"),
    *("margin_se_m", "samples_margin_m", "probability", "peak_t", "peak_between_samples"),
    *("peak_contact", "contacts", "ball_m", "in_goal_mouth", "on_field_decision", "noise"),
)


def _settings(default: LawSettings | PenaltySettings) -> Schema:
    """A settings type's fields as a verdict and a profile write them: an enum by its value, a
    distance in metres."""
    keys = tuple(default.__slots__)
    return _object(
        keys,
        {
            key: _enum(type(getattr(default, key)))
            if isinstance(getattr(default, key), Enum)
            else NON_NEGATIVE
            for key in keys
        },
        required=keys,
    )


def alert() -> Schema:
    """One line `varroom live --json` writes: an offside alert with its situation, or a penalty
    kick's or a ball line's with its verdict and its file (docs/formats/frames.md)."""

    def embedded(schema: Schema) -> Schema:
        return {k: v for k, v in schema.items() if k not in ("$schema", "$id", "title", "version")}

    stamp = embedded(verdict())["oneOf"][0]["properties"]["profile"]
    when = {
        "kind": {"const": "alert"},
        "period": {"type": "integer", "minimum": 1},
        "t": NUMBER,
        "detected_after_s": NON_NEGATIVE,
        "compute_ms": NON_NEGATIVE,
        "profile": stamp,
    }
    number_or_null: Schema = {"anyOf": [NUMBER, {"type": "null"}]}
    offside = {
        **when,
        "decision": {"const": "offside"},
        "offender": TEXT,
        "margin_m": number_or_null,
        "probability": number_or_null,
        "judged_t": NUMBER,
        "passer": {"anyOf": [TEXT, {"type": "null"}]},
        "situation": embedded(situation()),
    }
    penalty = {
        **when,
        "decision": {"const": "penalty"},
        "kicker": TEXT,
        "found_by": {"enum": ["event", "tracking"]},
        "verdict": embedded(verdict()),
        "penalty_kick": embedded(penalty_kick()),
    }
    ball = {
        **when,
        "decision": {"enum": ["ball_out", "goal_line"]},
        "between_frames": {"type": "boolean"},
        "out_before_goal_t": number_or_null,
        "verdict": embedded(verdict()),
        "ball_line": embedded(ball_line()),
    }
    return _titled(
        {
            "oneOf": [
                _object(tuple(keys), keys, required=tuple(k for k in keys if k != "profile"))
                for keys in (offside, penalty, ball)
            ]
        },
        "alert",
        "One alert line of varroom live --json",
    )


def profile() -> Schema:
    """A competition profile (TOML, read as its JSON equivalent): every setting's key and
    closed list from the settings types themselves."""
    from varroom.profiles import reader
    from varroom.profiles.profile import NOISE_FIGURES

    figures = (*NOISE_FIGURES, reader.TIMING)
    tracking = _object(
        figures, {**{key: NON_NEGATIVE for key in figures}, "frame_rate_hz": POSITIVE}
    )
    ball_sources = tuple(source.value for source in BallTrackingSource)
    sources = tuple(source.value for source in TrackingSource)
    policy = {
        "type": "string",
        "pattern": r"^(ifab|daylight|tolerance:\d+(\.\d+)?(cm|m)|confidence:(0(\.\d+)?|1(\.0+)?))$",
    }
    return _titled(
        _object(
            reader.TOP_KEYS,
            {
                "name": TEXT,
                "version": TEXT,
                "source": TEXT,
                "offside": _object(reader.OFFSIDE_KEYS, {"policy": policy}),
                "law": _settings(LawSettings()),
                "penalty_kick": _settings(PenaltySettings()),
                "noise": _object(
                    (*sources, reader.BALL_LINE),
                    {
                        **{source: tracking for source in sources},
                        reader.BALL_LINE: _object(
                            ball_sources, {source: NON_NEGATIVE for source in ball_sources}
                        ),
                    },
                ),
            },
            required=("name", "version", "source"),
        ),
        "profile",
        "A varroom competition profile (TOML)",
    )


# Each format's version, as its files state it where they do (a situation's `version`, the
# frame stream header's); the schema says which it describes (an annotation: validators
# ignore it). A situation's schema reads 1.0 to 1.2, as the reader does.
FORMAT_VERSIONS = {
    "situation": situation_json.WRITTEN_VERSION,
    "frames": str(STREAM_VERSION),
    "alert": str(STREAM_VERSION),
}


def _titled(schema: Schema, kind: str, title: str) -> Schema:
    return {
        "$schema": DRAFT,
        "$id": f"{BASE}/{kind}.json",
        "title": title,
        "version": FORMAT_VERSIONS.get(kind, "1"),
        **schema,
    }


# `varroom schema KIND`: KIND as the files name it.
SCHEMAS = {
    "situation": situation,
    "penalty_kick": penalty_kick,
    "ball_line": ball_line,
    "still_marks": still_marks,
    "frames": frames,
    "alert": alert,
    "profile": profile,
    "verdict": verdict,
}


def schema(kind: str) -> Schema:
    """The schema of files of `kind` (KeyError for a kind without one)."""
    return SCHEMAS[kind]()
