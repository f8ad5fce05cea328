"""Any file `varroom check` reads, told apart by its `kind`: a situation (no kind, or
`situation`), a penalty kick (`penalty_kick`) or a ball line (`ball_line`); docs/formats/."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from varroom.formats import ball_line_json, penalty_json
from varroom.formats.json_text import read_json
from varroom.formats.situation_json import situation_from_dict
from varroom.model.ball_line import BallLineCase
from varroom.model.penalty import PenaltyKick
from varroom.model.situation import Situation

Case = Situation | PenaltyKick | BallLineCase

# A file's `kind` -> the reader that checks every field of that kind; any other value (or none)
# is read as a situation, whose reader names what is wrong with it.
_READERS: dict[str, Callable[[Any, str], Case]] = {
    penalty_json.KIND: penalty_json.penalty_kick_from_dict,
    ball_line_json.KIND: ball_line_json.ball_line_from_dict,
}


def load(path: str | Path) -> Case:
    """Read and check a file of any kind `varroom check` judges (the file is read once)."""
    data = read_json(path)
    kind = data.get("kind") if isinstance(data, dict) else None
    reader = _READERS.get(kind) if isinstance(kind, str) else None
    return (reader or situation_from_dict)(data, str(path))
