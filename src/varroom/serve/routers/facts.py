"""The facts tracking cannot see, set by a reviewer."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Response

from varroom.serve.dependencies import ExpectedVersion, RoomDep, SituationId, facts_tag
from varroom.serve.facts import Facts
from varroom.serve.json_input import CheckedJsonRoute
from varroom.serve.schemas import responses

router = APIRouter(tags=["review"], route_class=CheckedJsonRoute)


@router.post("/api/situations/{situation_id}/facts", responses=responses(404, 409, 422))
def set_facts(
    situation_id: SituationId,
    facts: Facts,
    response: Response,
    room: RoomDep,
    expected: ExpectedVersion,
) -> dict[str, Any]:
    """Set the facts tracking cannot see; the verdict is judged again at once.

    Answers the new verdict, the one before, the engine's own, what the facts change,
    and how long judging took (`timing_ms`, also in the Server-Timing header). With
    `If-Match` (the ETag of the incident as loaded), 409 with the facts now and their
    `facts_version` if another reviewer changed them since; without, the facts go over those
    there are (writers in turn, each answered a version of its own).
    """
    result = room.review.set_facts(situation_id, facts, expected)
    response.headers["etag"] = facts_tag(result["facts_version"])
    timing = result["timing_ms"]
    response.headers["server-timing"] = f"judge;dur={timing['judge']}, total;dur={timing['total']}"
    return result
