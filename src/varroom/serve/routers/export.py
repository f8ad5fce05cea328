"""The decision log as a CSV download."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Query, Response

from varroom.serve.config import MAX_ID
from varroom.serve.dependencies import RoomDep
from varroom.serve.schemas import responses
from varroom.serve.service.export import decisions_csv as csv_text

router = APIRouter(tags=["log"])


@router.get(
    "/api/decisions.csv",
    response_class=Response,
    responses={**responses(422), 200: {"content": {"text/csv": {}}, "description": "CSV"}},
)
def decisions_csv(
    room: RoomDep, situation_id: Annotated[int | None, Query(ge=1, le=MAX_ID)] = None
) -> Response:
    """The decision log as CSV (one row per entry, facts as JSON in the last column)."""
    return Response(
        csv_text(room.log.entries(situation_id)),
        media_type="text/csv; charset=utf-8",
        headers={"content-disposition": 'attachment; filename="varroom-decisions.csv"'},
    )
