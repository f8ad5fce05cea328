"""The picture of a decision."""

from __future__ import annotations

from fastapi import APIRouter
from fastapi.responses import FileResponse

from varroom.serve.dependencies import RoomDep, SituationId
from varroom.serve.schemas import responses

router = APIRouter(tags=["queue"])


@router.get(
    "/api/situations/{situation_id}/image.png",
    response_class=FileResponse,
    responses={**responses(404, 422), 200: {"content": {"image/png": {}}, "description": "PNG"}},
)
def image(situation_id: SituationId, room: RoomDep) -> FileResponse:
    """The picture of the decision with the facts set now (drawn on demand, then cached)."""
    return FileResponse(
        room.pictures.image(situation_id),
        media_type="image/png",
        headers={"cache-control": "private, no-cache"},
    )
