"""What the review room's API reads and answers, apart from the work behind it.

The pydantic models check a request before any code sees it; `SITUATION_SCHEMA` documents
the situation body (read by `situation_from_dict`, which gives the JSON path of a fault);
`responses` lists the error answers of a route in the OpenAPI schema.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from varroom.serve.config import MAX_ID
from varroom.serve.facts import Facts

# Printable text with at least one visible character: what a name in the log may be.
NAME_PATTERN = r"^[^\x00-\x1f\x7f]*[^\s\x00-\x1f\x7f][^\x00-\x1f\x7f]*$"

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


class DecisionIn(BaseModel):
    """One entry of the decision log, as the page sends it."""

    model_config = ConfigDict(extra="forbid")
    reviewer: str = Field(min_length=1, max_length=80, pattern=NAME_PATTERN)
    decision: Literal["confirm", "offside", "no_offence"] = Field(
        description="confirm the engine's verdict (with the facts set), or overturn to "
        "offside / no offence"
    )
    duration_s: float = Field(
        ge=0, le=86_400, allow_inf_nan=False, description="the check clock, in seconds"
    )
    facts: Facts | None = Field(
        default=None, description="the facts the decision rests on (default: those set now)"
    )
    client_ref: str | None = Field(
        default=None,
        min_length=1,
        max_length=100,
        pattern=NAME_PATTERN,
        description="the reviewer's own reference: sent twice, it is recorded once",
    )
    corrects: int | None = Field(
        default=None, ge=1, le=MAX_ID, description="id of the decision this entry corrects"
    )
    note: str | None = Field(default=None, max_length=2000)
