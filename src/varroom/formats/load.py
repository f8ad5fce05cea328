"""Any file `varroom check` reads, told apart by its `kind` (`varroom.kinds`): a situation (no
kind, or `situation`), a penalty kick (`penalty_kick`) or a ball line (`ball_line`);
docs/formats/."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from varroom.errors import InputError
from varroom.formats.json_fields import looks_like, read_by
from varroom.formats.json_text import read_json
from varroom.kinds import CHECKED, SITUATION, DecisionKind
from varroom.model.ball_line import BallLineCase
from varroom.model.noise_defaults import STATED_NOISE, NoiseDefaults
from varroom.model.penalty import PenaltyKick
from varroom.model.situation import Situation

Case = Situation | PenaltyKick | BallLineCase


def kind_of_file(data: Any, source: str = "<file>") -> DecisionKind:
    """A file's kind: its `kind`, or a situation's where it has none (whose reader names what
    is wrong with the file); a kind `varroom check` does not judge is a fault at `$.kind`
    naming the command that reads it, or the kinds there are."""
    if not isinstance(data, dict):
        return SITUATION
    kind = data.get("kind", looks_like(data) or SITUATION.name)
    if isinstance(kind, str) and kind in CHECKED:
        return CHECKED[kind]
    raise InputError(source, "$.kind", read_by(kind))


def file_kind(data: Any, source: str = "<file>") -> str:
    """The name of a file's kind (`kind_of_file`)."""
    return kind_of_file(data, source).name


def case_from_dict(data: Any, source: str, noise: NoiseDefaults = STATED_NOISE) -> Case:
    """Check already-parsed JSON of any kind with the reader of its kind."""
    case: Case = kind_of_file(data, source).read(data, source, noise)
    return case


def load(path: str | Path, noise: NoiseDefaults = STATED_NOISE) -> Case:
    """Read and check a file of any kind `varroom check` judges (the file is read once)."""
    return case_from_dict(read_json(path), str(path), noise)
