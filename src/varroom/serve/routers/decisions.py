"""The decision log: append an entry, read one incident's or all of it."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Query, Response

from varroom.serve.config import MAX_ID
from varroom.serve.dependencies import ExpectedVersion, RoomDep, SituationId
from varroom.serve.json_input import CheckedJsonRoute
from varroom.serve.schemas import DecisionIn, responses

router = APIRouter(route_class=CheckedJsonRoute)


@router.post(
    "/api/situations/{situation_id}/decisions",
    status_code=201,
    tags=["review"],
    responses={
        **responses(404, 409, 422),
        200: {"description": "already recorded (same client_ref)"},
    },
)
def add_decision(
    situation_id: SituationId,
    entry: DecisionIn,
    response: Response,
    room: RoomDep,
    expected: ExpectedVersion,
) -> dict[str, Any]:
    """Append a decision to the log. A correction is a new entry (`corrects`: the old id).

    With `If-Match` (the ETag of the incident as loaded), 409 with the facts now if another
    reviewer changed them since: the entry records the facts and verdict the reviewer saw.
    `conflicts_with` lists the standing decisions of other reviewers it contradicts.
    """
    decision, created = room.log.add(situation_id, entry, expected)
    if not created:
        response.status_code = 200
    return decision


@router.get(
    "/api/situations/{situation_id}/decisions", tags=["review"], responses=responses(404, 422)
)
def situation_decisions(situation_id: SituationId, room: RoomDep) -> list[dict[str, Any]]:
    """The decisions on one incident, oldest first."""
    room.queue.require(situation_id)
    return room.log.entries(situation_id)


@router.get("/api/decisions.json", tags=["log"], responses=responses(422))
def decisions_json(
    room: RoomDep,
    situation_id: Annotated[int | None, Query(ge=1, le=MAX_ID)] = None,
    last: Annotated[int | None, Query(ge=1, le=100_000, description="only the newest N")] = None,
) -> list[dict[str, Any]]:
    """The decision log, oldest first."""
    return room.log.entries(situation_id, limit=last)
