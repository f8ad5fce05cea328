"""The engine as the review room runs it: `varroom check`'s reader of every kind of file
(`formats.load`), its judge under a competition profile, and its picture writer, each read
from the kind's registration (`varroom.kinds`).

Every kind's verdict has a `status`, its call, so that the queue, the log and the headline read
every incident's call from one field; each records the profile it was judged under.
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from typing import Any

from varroom.errors import InputError
from varroom.formats.load import kind_of_file
from varroom.kinds import DecisionKind
from varroom.profiles import Profile
from varroom.serve.errors import ApiError, unjudgeable_as_422


def read_dict(data: Any, source: str, profile: Profile) -> tuple[DecisionKind, Any]:
    """The kind of a file and what its reader builds from it; a fault is a 422 with the JSON
    path `varroom check` names."""
    try:
        kind = kind_of_file(data, source)
        return kind, kind.read(data, source, profile.noise)
    except InputError as error:
        raise ApiError(422, error.problem, error.where or "$") from None


def judge_dict(data: Any, source: str, profile: Profile) -> tuple[dict[str, Any], float]:
    """Check and judge a file as `varroom check --profile` does: (verdict dict, seconds)."""
    start = time.perf_counter()
    kind, case = read_dict(data, source, profile)
    with unjudgeable_as_422("the engine could not judge this situation", source):
        verdict = {**kind.judged(case, profile).to_dict(), "profile": profile.stamp()}
    return verdict, time.perf_counter() - start


def call_of(verdict: Mapping[str, Any]) -> tuple[Any, ...]:
    """What a reviewer reads as the call: two verdicts with the same call did not change."""
    return (verdict["status"], verdict.get("offender"), verdict.get("involved_at"))
