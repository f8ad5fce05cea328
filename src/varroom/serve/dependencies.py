"""What the routes are given: the room's services, and the checked path parameters."""

from __future__ import annotations

from typing import Annotated, cast

from fastapi import Depends, Request
from fastapi import Path as PathParam

from varroom.serve.config import MAX_ID
from varroom.serve.service.room import Room


def get_room(request: Request) -> Room:
    return cast(Room, request.app.state.room)


RoomDep = Annotated[Room, Depends(get_room)]
SituationId = Annotated[int, PathParam(ge=1, le=MAX_ID)]
AuditId = Annotated[str, PathParam(pattern=r"^[0-9a-f]{32}$")]
