"""The queue: situations in (JSON, judged at once), the queue and one incident out."""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator
from typing import Annotated, Any

from fastapi import APIRouter, Query, Request, Response
from fastapi.responses import JSONResponse, StreamingResponse
from starlette.concurrency import run_in_threadpool

from varroom.serve.dependencies import RoomDep, SituationId, facts_tag
from varroom.serve.errors import ApiError
from varroom.serve.json_input import read_json
from varroom.serve.schemas import SITUATION_SCHEMA, raw_body, responses
from varroom.serve.service.display import safe_name

router = APIRouter(tags=["queue"])

BRIEF = (
    "id",
    "title",
    "source_name",
    "status",
    "summary",
    "verdict",
    "profile",
    "created_at",
    "decided",
)


@router.post(
    "/api/situations",
    status_code=201,
    responses=responses(413, 415, 422),
    openapi_extra=raw_body({"application/json": {"schema": SITUATION_SCHEMA}}),
)
async def add_situation(
    request: Request,
    room: RoomDep,
    filename: Annotated[str | None, Query(max_length=300, description="for display only")] = None,
    profile: Annotated[
        str | None,
        Query(
            max_length=200,
            description="the competition profile to judge it under: a built-in one or the "
            "room's own (default: the room's, `varroom serve --profile`)",
        ),
    ] = None,
) -> JSONResponse:
    """Queue a situation (format version 1) and judge it under a profile: 201 with its id and
    verdict, which records the profile."""
    judged_under = room.profiles.chosen(profile, "query:profile")
    content_type = request.headers.get("content-type", "application/json").split(";")[0].strip()
    if content_type != "application/json" and not content_type.endswith("+json"):
        raise ApiError(415, "send the situation as application/json")
    data = read_json(await request.body())
    detail = await run_in_threadpool(
        room.queue.add, data, safe_name(filename), profile=judged_under
    )
    return JSONResponse(
        {k: detail[k] for k in BRIEF},
        status_code=201,
        headers={"location": f"/api/situations/{detail['id']}"},
    )


EVENTS_CHECK_S = 0.05  # how often the event stream looks at the queue (in memory: no query)
EVENTS_STREAM_S = 25.0  # a stream ends after this; the browser's EventSource reconnects


@router.get("/api/events", responses=responses())
async def events(request: Request, room: RoomDep) -> StreamingResponse:
    """Server-sent events: `queue` the moment a situation joins the queue (an upload, an
    audit, a live alert), so that an open page shows it at once without polling."""

    async def stream() -> AsyncIterator[str]:
        seen = room.queue.version
        yield "retry: 1000\n\n"
        until = time.monotonic() + EVENTS_STREAM_S
        while time.monotonic() < until and not await request.is_disconnected():
            if room.queue.version != seen:
                seen = room.queue.version
                yield f"event: queue\ndata: {seen}\n\n"
            await asyncio.sleep(EVENTS_CHECK_S)

    return StreamingResponse(
        stream(), media_type="text/event-stream", headers={"cache-control": "no-cache"}
    )


@router.get("/api/situations", responses=responses())
def list_situations(room: RoomDep) -> list[dict[str, Any]]:
    """The queue, newest first: title, status, verdict summary, decided or not."""
    return room.queue.listing()


@router.get("/api/situations/{situation_id}", responses=responses(404, 422))
def get_situation(situation_id: SituationId, room: RoomDep, response: Response) -> dict[str, Any]:
    """One incident: the situation, the facts set, the verdict now and the engine's own.
    Its ETag names the facts' version: send it as If-Match with facts and decisions."""
    detail = room.queue.detail(situation_id)
    response.headers["etag"] = facts_tag(detail["facts_version"])
    return detail
