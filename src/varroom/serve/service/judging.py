"""The engine as the review room runs it: the readers and judges of `varroom check`.

A penalty kick's verdict (Law 14) gets a `status`, its decision, so that the queue, the log
and the headline read every incident's call from one field.
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from typing import Any

from varroom.engine.judge import judge
from varroom.engine.penalty import judge_penalty
from varroom.errors import InputError
from varroom.formats.penalty_json import penalty_kick_from_dict
from varroom.formats.situation_json import situation_from_dict
from varroom.model.penalty import PenaltyKick
from varroom.serve.errors import ApiError, unjudgeable_as_422
from varroom.serve.facts import is_penalty_kick


def judge_dict(data: Any, source: str) -> tuple[dict[str, Any], float]:
    """Check and judge situation data as `varroom check` does: (verdict dict, seconds).

    A fault in the data is a 422 with the JSON path `varroom check` names.
    """
    start = time.perf_counter()
    penalty = isinstance(data, dict) and is_penalty_kick(data)
    try:
        case = (penalty_kick_from_dict if penalty else situation_from_dict)(data, source)
    except InputError as error:
        raise ApiError(422, error.problem, error.where or "$") from None
    with unjudgeable_as_422("the engine could not judge this situation", source):
        if isinstance(case, PenaltyKick):
            verdict = judge_penalty(case).to_dict()
            verdict["status"] = verdict["decision"]
        else:
            verdict = judge(case).to_dict()
    return verdict, time.perf_counter() - start


def call_of(verdict: Mapping[str, Any]) -> tuple[Any, ...]:
    """What a reviewer reads as the call: two verdicts with the same call did not change."""
    return (verdict["status"], verdict.get("offender"), verdict.get("involved_at"))
