"""The engine as the review room runs it: the reader and judge of `varroom check`."""

from __future__ import annotations

import logging
import time
from collections.abc import Mapping
from typing import Any

from varroom.engine.judge import judge
from varroom.errors import InputError, VarroomError
from varroom.formats.situation_json import situation_from_dict
from varroom.serve.errors import ApiError

log = logging.getLogger("varroom.serve")


def judge_dict(data: Any, source: str) -> tuple[dict[str, Any], float]:
    """Check and judge situation data as `varroom check` does: (verdict dict, seconds).

    A fault in the data is a 422 with the JSON path `varroom check` names.
    """
    start = time.perf_counter()
    try:
        situation = situation_from_dict(data, source)
    except InputError as error:
        raise ApiError(422, error.problem, error.where or "$") from None
    try:
        verdict = judge(situation).to_dict()
    except VarroomError as error:
        raise ApiError(422, str(error), "$") from None
    except Exception:  # the engine must not take the server down with it, nor show its insides
        log.exception("the engine failed on %s", source)
        raise ApiError(
            422, "the engine could not judge this situation: the server's log has the details", "$"
        ) from None
    return verdict, time.perf_counter() - start


def call_of(verdict: Mapping[str, Any]) -> tuple[Any, ...]:
    """What a reviewer reads as the call: two verdicts with the same call did not change."""
    return (verdict["status"], verdict.get("offender"), verdict.get("involved_at"))
