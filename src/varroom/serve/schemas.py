"""What the review room's API reads and answers, apart from the work behind it.

The pydantic models check a request before any code sees it; `SITUATION_SCHEMA` documents
the situation body (read by `situation_from_dict`, which gives the JSON path of a fault);
`responses` lists the error answers of a route in the OpenAPI schema, `raw_body` the body of a
route that reads its body itself.
"""

from __future__ import annotations

import re
from typing import Annotated, Any, Literal

from pydantic import AfterValidator, BaseModel, ConfigDict, Field

from varroom.serve.config import MAX_ID
from varroom.serve.facts import Facts
from varroom.serve.names import reviewer_name

# Printable text with at least one visible character: what a name in the log may be.
NAME_PATTERN = r"^[^\x00-\x1f\x7f]*[^\s\x00-\x1f\x7f][^\x00-\x1f\x7f]*$"

# What a reader of the log cannot see as it was sent: C0 and C1 controls (ESC, CR, LF...),
# bidi marks, embeddings, overrides and isolates (U+202E turns text around), and invisible
# characters (U+200B, U+2060, U+FEFF) that make two names look alike.
HIDDEN = re.compile("[\x00-\x1f\x7f-\x9f\u061c\u200b-\u200f\u202a-\u202e\u2060-\u2069\ufeff]")


def visible(text: str) -> str:
    """The text as sent, or a ValueError naming the first character a reader cannot see."""
    found = HIDDEN.search(text)
    if found is not None:
        raise ValueError(
            f"a control, bidi or invisible character (U+{ord(found.group()):04X}) is not allowed"
        )
    return text


def person(text: str) -> str:
    """A reviewer's name in one form (`varroom.serve.names.reviewer_name`), so that one
    person is one name in the log."""
    return reviewer_name(text.strip(" "))


VisibleText = Annotated[str, AfterValidator(visible)]
PersonName = Annotated[str, AfterValidator(person)]

ERROR_SCHEMA: dict[str, Any] = {
    "type": "object",
    "required": ["error"],
    "properties": {"error": {"type": "string"}, "where": {"type": "string"}},
}

SITUATION_SCHEMA: dict[str, Any] = {
    "type": "object",
    "description": "A situation, format version 1 (shared/spec/situation.md).",
    "required": ["players", "touches"],
    "properties": {
        "pitch": {
            "type": "object",
            "properties": {"length": {"type": "number"}, "width": {"type": "number"}},
        },
        "attack": {
            "type": "object",
            "properties": {"team": {"type": "string"}, "towards": {"enum": ["+x", "-x"]}},
        },
        "players": {
            "type": "array",
            "items": {
                "type": "object",
                "required": ["id", "team"],
                "properties": {
                    "id": {"type": "string"},
                    "team": {"type": "string"},
                    "goalkeeper": {"type": "boolean"},
                    "name": {"type": "string"},
                    "number": {"type": "integer"},
                },
            },
        },
        "touches": {
            "type": "array",
            "items": {
                "type": "object",
                "required": ["t", "action", "ball", "positions"],
                "properties": {
                    "t": {"type": "number"},
                    "player": {"type": ["string", "null"]},
                    "action": {"type": "string"},
                    "ball": {"type": "array", "items": {"type": "number"}},
                    "positions": {"type": "object"},
                    "involvement": {"type": "array"},
                },
            },
        },
        "on_field": {"type": "object"},
        "meta": {"type": "object"},
    },
}

ERROR = {"content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}}


def responses(*codes: int) -> dict[int | str, dict[str, Any]]:
    words = {
        401: "no token, or the wrong one",
        404: "not found",
        409: "conflicts with the log",
        413: "too large",
        415: "not JSON",
        422: "not valid: `where` is the JSON path of the fault",
    }
    return {code: {"description": words[code], **ERROR} for code in (401, *codes)}


def raw_body(content: dict[str, Any]) -> dict[str, Any]:
    """The `openapi_extra` of a route that reads its own body: required, in these media types
    (FastAPI cannot document a body it does not parse)."""
    return {"requestBody": {"required": True, "content": content}}


class DecisionIn(BaseModel):
    """One entry of the decision log, as the page sends it."""

    model_config = ConfigDict(extra="forbid")
    reviewer: PersonName = Field(min_length=1, max_length=80, pattern=NAME_PATTERN)
    decision: Literal[
        "confirm",
        "offside",
        "no_offence",
        "goal",
        "no_goal",
        "retake",
        "indirect_free_kick",
        "out_of_play",
        "in_play",
    ] = Field(
        description="confirm the engine's verdict (with the facts set), or overturn it: to "
        "offside / no offence for a situation, to goal / no goal / retake / indirect free kick "
        "for a penalty kick, to goal / out of play / in play for a ball line"
    )
    duration_s: float = Field(
        ge=0, le=86_400, allow_inf_nan=False, description="the check clock, in seconds"
    )
    facts: Facts | None = Field(
        default=None, description="the facts the decision rests on (default: those set now)"
    )
    client_ref: VisibleText | None = Field(
        default=None,
        min_length=1,
        max_length=100,
        pattern=NAME_PATTERN,
        description="the reviewer's own reference: sent twice, it is recorded once",
    )
    corrects: int | None = Field(
        default=None, ge=1, le=MAX_ID, description="id of the decision this entry corrects"
    )
    note: VisibleText | None = Field(default=None, max_length=2000)
