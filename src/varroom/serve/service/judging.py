"""The engine as the review room runs it: `varroom check`'s reader of every kind of file
(`formats.load`), and its judge and picture writer, one row per kind.

A penalty kick's verdict (Law 14) and a ball line's (Laws 9 and 10) get a `status`, their
decision, so that the queue, the log and the headline read every incident's call from one field.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from importlib import import_module
from typing import Any

from varroom.engine.ball_line import judge_ball_line
from varroom.engine.judge import judge
from varroom.engine.penalty import judge_penalty
from varroom.errors import InputError
from varroom.formats.ball_line_json import KIND as BALL_LINE
from varroom.formats.load import SITUATION, case_from_dict, file_kind
from varroom.formats.penalty_json import KIND as PENALTY_KICK
from varroom.serve.errors import ApiError, unjudgeable_as_422


@dataclass(frozen=True, slots=True)
class FileKind:
    """How `varroom check` judges and draws one kind of file (`formats.load` reads it)."""

    judge: Callable[[Any], Any]
    # The picture writer, `module:function` in varroom.pictures, as `varroom check --image`
    # draws it: imported on first use, so that serving the queue never waits on matplotlib.
    picture: str

    def writer(self) -> Callable[[Any, Any, Any], None]:
        module, name = self.picture.split(":")
        write: Callable[[Any, Any, Any], None] = getattr(
            import_module(f"varroom.pictures.{module}"), name
        )
        return write


KINDS = {
    SITUATION: FileKind(judge, "decision:write_decision"),
    PENALTY_KICK: FileKind(judge_penalty, "penalty:write_penalty_png"),
    BALL_LINE: FileKind(judge_ball_line, "ball_line:write_ball_line_view"),
}


def read_dict(data: Any, source: str) -> tuple[FileKind, Any]:
    """The kind of a file and what its reader builds from it; a fault is a 422 with the JSON
    path `varroom check` names."""
    try:
        return KINDS[file_kind(data, source)], case_from_dict(data, source)
    except InputError as error:
        raise ApiError(422, error.problem, error.where or "$") from None


def judge_dict(data: Any, source: str) -> tuple[dict[str, Any], float]:
    """Check and judge a file as `varroom check` does: (verdict dict, seconds)."""
    start = time.perf_counter()
    kind, case = read_dict(data, source)
    with unjudgeable_as_422("the engine could not judge this situation", source):
        verdict: dict[str, Any] = kind.judge(case).to_dict()
    if "status" not in verdict:  # a situation's verdict has its own
        verdict["status"] = verdict["decision"]
    return verdict, time.perf_counter() - start


def call_of(verdict: Mapping[str, Any]) -> tuple[Any, ...]:
    """What a reviewer reads as the call: two verdicts with the same call did not change."""
    return (verdict["status"], verdict.get("offender"), verdict.get("involved_at"))
