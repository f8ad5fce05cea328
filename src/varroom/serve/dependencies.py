"""What the routes are given: the room's services, and the checked path parameters."""

from __future__ import annotations

import re
from typing import Annotated, cast

from fastapi import Depends, Header, Request
from fastapi import Path as PathParam

from varroom.serve.config import MAX_ID
from varroom.serve.errors import ApiError
from varroom.serve.service.room import Room


def get_room(request: Request) -> Room:
    return cast(Room, request.app.state.room)


RoomDep = Annotated[Room, Depends(get_room)]
SituationId = Annotated[int, PathParam(ge=1, le=MAX_ID)]
AuditId = Annotated[str, PathParam(pattern=r"^[0-9a-f]{32}$")]


_TAG = re.compile(r'^(?:W/)?"f(\d{1,18})"$')


def facts_tag(version: int) -> str:
    """The ETag of an incident's facts at `version`: what If-Match sends back."""
    return f'"f{version}"'


def expected_version(
    if_match: Annotated[
        str | None,
        Header(
            alias="if-match",
            max_length=100,
            description='the ETag of the incident as loaded ("f3"): stale, the answer is 409',
        ),
    ] = None,
) -> int | None:
    """The facts version the client acts on, from If-Match; None without one (or `*`)."""
    if if_match is None or if_match.strip() == "*":
        return None
    found = _TAG.match(if_match.strip())
    if found is None:
        raise ApiError(
            422, 'If-Match takes the ETag of the incident, such as "f3"', "header:If-Match"
        )
    return int(found.group(1))


ExpectedVersion = Annotated[int | None, Depends(expected_version)]
