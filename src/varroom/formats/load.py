"""Any file `varroom check` reads, told apart by its `kind`: a situation (no kind, or
`situation`), a penalty kick (`penalty_kick`) or a ball line (`ball_line`); docs/formats/."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from varroom.errors import InputError
from varroom.formats import ball_line_json, penalty_json
from varroom.formats.json_fields import looks_like, read_by
from varroom.formats.json_text import read_json
from varroom.formats.situation_json import situation_from_dict
from varroom.model.ball_line import BallLineCase
from varroom.model.penalty import PenaltyKick
from varroom.model.situation import Situation

Case = Situation | PenaltyKick | BallLineCase

SITUATION = "situation"
# A file's kind -> the reader that checks every field of that kind.
_READERS: dict[str, Callable[[Any, str], Case]] = {
    SITUATION: situation_from_dict,
    penalty_json.KIND: penalty_json.penalty_kick_from_dict,
    ball_line_json.KIND: ball_line_json.ball_line_from_dict,
}


def file_kind(data: Any, source: str = "<file>") -> str:
    """A file's kind: its `kind`, or a situation's where it has none (whose reader names what
    is wrong with the file); a kind `varroom check` does not judge is a fault at `$.kind`
    naming the command that reads it, or the kinds there are."""
    if not isinstance(data, dict):
        return SITUATION
    kind = data.get("kind", looks_like(data) or SITUATION)
    if isinstance(kind, str) and kind in _READERS:
        return kind
    raise InputError(source, "$.kind", read_by(kind))


def case_from_dict(data: Any, source: str) -> Case:
    """Check already-parsed JSON of any kind with the reader of its kind."""
    return _READERS[file_kind(data, source)](data, source)


def load(path: str | Path) -> Case:
    """Read and check a file of any kind `varroom check` judges (the file is read once)."""
    return case_from_dict(read_json(path), str(path))
